//! Training positions: one random position (and the move played there) from each of a
//! random choice of games, as seed 003 (Klevansky, Ostroff and Offen, "Determining the
//! Optimal Tradeoff for building Chess Playing Agents: Genetically Tuned vs. Neural
//! Features", Technion, 2023; `ARCHITECTURE.md`, References) takes one position from each
//! of 1,000 games.
//!
//! The choice is a pure function of the random seed and the games' order: a game's
//! priority is a hash of that seed and its number, the `count` games of lowest priority
//! are kept (a uniform random subset, without knowing in advance how many games there
//! are), and within a game the position is drawn by reservoir sampling with a generator
//! seeded from the seed and the game's number.

use std::collections::BinaryHeap;
use std::io::{self, Read};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Move};

use crate::book::polyglot::{PlySink, RawMove, read_games};

/// A position and the move played there.
pub type Sample = (Chess, Move);

/// SplitMix64: a game's priority from the seed and its number.
fn mix(seed: u64, game: u64) -> u64 {
    let mut z = seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A game's drawn position, ordered by priority (the heap keeps the lowest).
struct Drawn {
    priority: u64,
    game: u64,
    sample: Sample,
}

impl PartialEq for Drawn {
    fn eq(&self, other: &Self) -> bool {
        (self.priority, self.game) == (other.priority, other.game)
    }
}

impl Eq for Drawn {}

impl PartialOrd for Drawn {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Drawn {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.priority, self.game).cmp(&(other.priority, other.game))
    }
}

struct Sampler {
    count: usize,
    min_ply: u32,
    seed: u64,
    /// Games read before the current file (numbers restart in each file).
    offset: u64,
    /// The current game: its number, its generator, eligible plies seen, the drawn one.
    game: Option<(u64, ChaCha8Rng, u64, Option<Sample>)>,
    kept: BinaryHeap<Drawn>,
}

impl Sampler {
    /// Ends the current game: its position competes for a place.
    fn finish_game(&mut self) {
        let Some((game, _, _, Some(sample))) = self.game.take() else {
            return;
        };
        let drawn = Drawn {
            priority: mix(self.seed, game),
            game,
            sample,
        };
        if self.kept.len() < self.count {
            self.kept.push(drawn);
        } else if self.kept.peek().is_some_and(|worst| drawn < *worst) {
            self.kept.pop();
            self.kept.push(drawn);
        }
    }
}

impl PlySink for Sampler {
    type Ply = ();

    fn ply(&mut self, game: u64, ply: u32, pos: &Chess, mv: Move, _: RawMove) {
        let game = self.offset + game;
        if self.game.as_ref().is_none_or(|g| g.0 != game) {
            self.finish_game();
            let rng = ChaCha8Rng::seed_from_u64(mix(self.seed ^ 0x5EED, game));
            self.game = Some((game, rng, 0, None));
        }
        if ply < self.min_ply {
            return;
        }
        if let Some((_, rng, seen, drawn)) = self.game.as_mut() {
            *seen += 1;
            if rng.random_range(0..*seen) == 0 {
                *drawn = Some((pos.clone(), mv));
            }
        }
    }

    fn add(&mut self, (): (), _: u8) {}
}

/// Draws `count` positions, each from a different game of `files` (read in order), each
/// at ply `min_ply` or later (plies from 0). Fewer when there are fewer such games.
/// The result is in the games' order.
///
/// # Errors
///
/// When reading fails.
pub fn sample_positions<R: Read>(
    files: impl IntoIterator<Item = R>,
    count: usize,
    min_ply: u32,
    seed: u64,
) -> io::Result<Vec<Sample>> {
    let mut sampler = Sampler {
        count,
        min_ply,
        seed,
        offset: 0,
        game: None,
        kept: BinaryHeap::new(),
    };
    for file in files {
        let report = read_games(file, u32::MAX, &mut sampler)?;
        sampler.finish_game();
        sampler.offset += report.games;
    }
    let mut kept = sampler.kept.into_vec();
    kept.sort_by_key(|d| d.game);
    Ok(kept.into_iter().map(|d| d.sample).collect())
}
