//! Playing strength: the same 0–20 "Skill Level" scale as Stockfish, so one setting
//! serves both engines.
//!
//! The built-in engine weakens itself two ways: a depth cap (it sees fewer moves
//! ahead) and a margin (it picks among the moves within that many centipawns of the
//! best, the better ones more often). Level 20 is full strength.

use rand::{Rng, RngExt};
use shakmaty::Move;

use super::search::{RootMove, SearchOptions};

/// The strongest level.
pub const MAX_SKILL: u8 = 20;

/// How strong an engine should play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strength {
    /// Full strength.
    #[default]
    Full,
    /// Skill Level 0–20 (Stockfish's `Skill Level`; the built-in engine's levels).
    Skill(u8),
    /// A target Elo (Stockfish's `UCI_LimitStrength` + `UCI_Elo`, from 1350).
    Elo(u32),
}

/// The search options of a built-in skill level: depth cap `1 + level / 3` and a
/// margin of `15 × (20 − level)` centipawns.
///
/// ```
/// use hastings::engine::strength::skill_options;
/// assert_eq!(skill_options(20).max_depth, None);
/// assert_eq!(skill_options(0).max_depth, Some(1));
/// assert_eq!(skill_options(0).margin, 300);
/// ```
pub fn skill_options(level: u8) -> SearchOptions {
    let level = level.min(MAX_SKILL);
    if level == MAX_SKILL {
        return SearchOptions::default();
    }
    SearchOptions {
        max_depth: Some(1 + u32::from(level) / 3),
        margin: 15 * i32::from(MAX_SKILL - level),
    }
}

/// Chooses among the root moves within `margin` of the best, weighted by how close
/// they are (the best has weight `margin + 1`, one at the edge weight 1). With margin
/// 0, the best move.
pub fn choose(root_moves: &[RootMove], margin: i32, rng: &mut impl Rng) -> Option<Move> {
    let best = root_moves.iter().map(|r| r.score).max()?;
    let weights: Vec<(Move, i64)> = root_moves
        .iter()
        .filter(|r| best - r.score <= margin)
        .map(|r| (r.mv, i64::from(margin - (best - r.score) + 1)))
        .collect();
    let total: i64 = weights.iter().map(|(_, w)| w).sum();
    let mut pick = rng.random_range(0..total.max(1));
    for (m, w) in &weights {
        if pick < *w {
            return Some(*m);
        }
        pick -= w;
    }
    weights.first().map(|(m, _)| *m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use shakmaty::{Chess, Position};

    fn root_moves(scores: &[i32]) -> Vec<RootMove> {
        Chess::default()
            .legal_moves()
            .iter()
            .zip(scores)
            .map(|(&mv, &score)| RootMove { mv, score })
            .collect()
    }

    #[test]
    fn zero_margin_always_takes_the_best() {
        let moves = root_moves(&[10, 50, 49, -300]);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..100 {
            assert_eq!(choose(&moves, 0, &mut rng), Some(moves[1].mv));
        }
    }

    #[test]
    fn moves_outside_the_margin_are_never_chosen_and_better_ones_are_preferred() {
        let moves = root_moves(&[100, 60, 0, -500]);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut counts = [0u32; 4];
        for _ in 0..10_000 {
            let m = choose(&moves, 60, &mut rng).unwrap();
            counts[moves.iter().position(|r| r.mv == m).unwrap()] += 1;
        }
        assert_eq!(counts[2] + counts[3], 0);
        // Weights 61 and 21: expected 7,439 and 2,561; a 5-sigma band is ±220.
        assert!((7_200..=7_700).contains(&counts[0]), "{counts:?}");
    }
}
