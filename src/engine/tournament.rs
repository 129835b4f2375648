//! Round robins: every pair of players plays each opening with both colours; the
//! result is a cross table (points as White and as Black, by opponent) with totals.
//!
//! Pairs are played on several threads (each pair's games in order on one thread, with
//! one engine per player for the pair), so the games and the table depend only on the
//! players, the openings and the limits. A game may be capped at some plies after its
//! opening and then adjudicated by material (pawn 1, knight and bishop 3, rook 5, queen
//! 9), as the co-evolution of seed 003 (Klevansky, Ostroff and Offen, "Determining the
//! Optimal Tradeoff for building Chess Playing Agents: Genetically Tuned vs. Neural
//! Features", Technion, 2023; `ARCHITECTURE.md`, References) does.

use std::fmt::Write as _;

use shakmaty::{Chess, Color, KnownOutcome, Position, Role};

use super::Engine;
use super::adjudicate::GameEnd;
use super::error::EngineError;
use super::game::Game;
use super::limits::Limits;
use super::matches::play_game;
use super::tuning::parallel_map;

/// How a round robin is played.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// The limits of every move.
    pub limits: Limits,
    /// The openings (name, game); each pair plays each with both colours.
    pub openings: Vec<(String, Game)>,
    /// Plies after the opening before a game is stopped.
    pub max_plies: usize,
    /// A stopped game is won by the side with more material (else a draw).
    pub material_at_cap: bool,
    /// Threads (0: one per core).
    pub threads: usize,
}

/// One game of a round robin.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The player with White.
    pub white: usize,
    /// The player with Black.
    pub black: usize,
    /// The opening's index.
    pub opening: usize,
    /// The game.
    pub game: Game,
    /// How it ended.
    pub end: GameEnd,
    /// The result (material decides a capped game when so configured).
    pub outcome: KnownOutcome,
}

impl PlayedGame {
    /// White's points: 1, ½ or 0.
    pub fn white_points(&self) -> f64 {
        match self.outcome {
            KnownOutcome::Draw => 0.5,
            KnownOutcome::Decisive {
                winner: Color::White,
            } => 1.0,
            KnownOutcome::Decisive {
                winner: Color::Black,
            } => 0.0,
        }
    }
}

/// Material, pawn 1 to queen 9, of White minus Black.
pub fn material_balance(pos: &Chess) -> i32 {
    let board = pos.board();
    let value = |role: Role| match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    };
    Role::ALL
        .iter()
        .map(|&role| {
            let v = value(role);
            v * (board.by_piece(role.of(Color::White)).count() as i32
                - board.by_piece(role.of(Color::Black)).count() as i32)
        })
        .sum()
}

/// Plays a round robin among `count` players, each made by `make(player)` once per
/// pair it plays in. `on_pair` is called (from any thread) after each pair.
///
/// # Errors
///
/// The first [`EngineError`] of a player that cannot be made.
pub fn round_robin(
    count: usize,
    config: &TournamentConfig,
    make: impl Fn(usize) -> Result<Box<dyn Engine>, EngineError> + Sync,
    on_pair: impl Fn() + Sync,
) -> Result<Vec<PlayedGame>, EngineError> {
    let pairs: Vec<(usize, usize)> = (0..count)
        .flat_map(|a| (a + 1..count).map(move |b| (a, b)))
        .collect();
    let per_pair = parallel_map(
        &pairs,
        config.threads,
        || (),
        |(), &(a, b)| {
            let result = play_pair(a, b, config, &make);
            on_pair();
            result
        },
    );
    let mut games = Vec::new();
    for result in per_pair {
        let result = result.ok_or_else(|| EngineError::Dead {
            engine: "a round robin thread (it panicked)".into(),
        })?;
        games.extend(result?);
    }
    Ok(games)
}

/// The games of players `a` and `b`: each opening, `a` White first.
fn play_pair(
    a: usize,
    b: usize,
    config: &TournamentConfig,
    make: &(impl Fn(usize) -> Result<Box<dyn Engine>, EngineError> + Sync),
) -> Result<Vec<PlayedGame>, EngineError> {
    let mut first = make(a)?;
    let mut second = make(b)?;
    let mut games = Vec::new();
    for (index, (_, opening)) in config.openings.iter().enumerate() {
        for first_white in [true, false] {
            let cap = opening.moves().len() + config.max_plies;
            let (white, black) = if first_white { (a, b) } else { (b, a) };
            let (game, end) = if first_white {
                play_game(
                    first.as_mut(),
                    second.as_mut(),
                    opening,
                    &config.limits,
                    cap,
                )
            } else {
                play_game(
                    second.as_mut(),
                    first.as_mut(),
                    opening,
                    &config.limits,
                    cap,
                )
            };
            let outcome = match end {
                GameEnd::MoveCap { .. } if config.material_at_cap => {
                    match material_balance(game.position()) {
                        0 => KnownOutcome::Draw,
                        m if m > 0 => KnownOutcome::Decisive {
                            winner: Color::White,
                        },
                        _ => KnownOutcome::Decisive {
                            winner: Color::Black,
                        },
                    }
                }
                _ => end.outcome(),
            };
            games.push(PlayedGame {
                white,
                black,
                opening: index,
                game,
                end,
                outcome,
            });
        }
    }
    Ok(games)
}

/// Points of each player against each other, as White and as Black.
#[derive(Clone, Debug, PartialEq)]
pub struct CrossTable {
    /// The players' names.
    pub names: Vec<String>,
    /// `as_white[i][j]`: i's points with White against j.
    pub as_white: Vec<Vec<f64>>,
    /// `as_black[i][j]`: i's points with Black against j.
    pub as_black: Vec<Vec<f64>>,
    /// `games[i][j]`: games i played with White against j.
    pub games: Vec<Vec<u32>>,
}

impl CrossTable {
    /// The table of `games` among `names`.
    pub fn new(names: Vec<String>, games: &[PlayedGame]) -> CrossTable {
        let n = names.len();
        let mut t = CrossTable {
            names,
            as_white: vec![vec![0.0; n]; n],
            as_black: vec![vec![0.0; n]; n],
            games: vec![vec![0; n]; n],
        };
        for g in games {
            let w = g.white_points();
            t.as_white[g.white][g.black] += w;
            t.as_black[g.black][g.white] += 1.0 - w;
            t.games[g.white][g.black] += 1;
        }
        t
    }

    /// Each player's points in all.
    pub fn totals(&self) -> Vec<f64> {
        (0..self.names.len())
            .map(|i| self.as_white[i].iter().sum::<f64>() + self.as_black[i].iter().sum::<f64>())
            .collect()
    }

    /// Each player's points with White and with Black.
    pub fn totals_by_colour(&self) -> Vec<(f64, f64)> {
        (0..self.names.len())
            .map(|i| (self.as_white[i].iter().sum(), self.as_black[i].iter().sum()))
            .collect()
    }

    /// Players from most points to fewest (ties in order).
    pub fn ranking(&self) -> Vec<usize> {
        let totals = self.totals();
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| totals[b].total_cmp(&totals[a]));
        order
    }

    /// The table as Markdown: one row per player, `W+B` points against each opponent
    /// (with White + with Black), then the totals; then the ranking.
    pub fn to_markdown(&self) -> String {
        let n = self.names.len();
        let mut out = String::from("| | ");
        out.push_str(&self.names.join(" | "));
        out.push_str(" | as White | as Black | total |\n|---|");
        out.push_str(&"---|".repeat(n + 3));
        out.push('\n');
        for (i, (name, (w, b))) in self.names.iter().zip(self.totals_by_colour()).enumerate() {
            let _ = write!(out, "| {name} |");
            for j in 0..n {
                if i == j {
                    out.push_str(" – |");
                } else {
                    let _ = write!(
                        out,
                        " {}+{} |",
                        half(self.as_white[i][j]),
                        half(self.as_black[i][j])
                    );
                }
            }
            let _ = writeln!(out, " {} | {} | **{}** |", half(w), half(b), half(w + b));
        }
        out.push_str("\n| rank | player | points |\n|---|---|---|\n");
        let totals = self.totals();
        for (rank, i) in self.ranking().into_iter().enumerate() {
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                rank + 1,
                self.names[i],
                half(totals[i])
            );
        }
        out
    }
}

/// A number of half points: `3`, `3.5`.
fn half(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::alphabeta::AlphaBeta;
    use crate::engine::random::RandomMover;

    #[test]
    fn material_counts_pawn_one_to_queen_nine() {
        assert_eq!(material_balance(&Chess::default()), 0);
        let pos: Chess = "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        assert_eq!(material_balance(&pos), 9);
    }

    #[test]
    fn every_pair_plays_each_opening_with_both_colours() {
        let config = TournamentConfig {
            limits: Limits::ONE_PLY,
            openings: vec![("start".into(), Game::default())],
            max_plies: 6,
            material_at_cap: true,
            threads: 2,
        };
        let games = round_robin(
            3,
            &config,
            |i| -> Result<Box<dyn Engine>, EngineError> {
                if i == 0 {
                    Ok(Box::new(AlphaBeta::default()))
                } else {
                    Ok(Box::new(RandomMover::new(i as u64)))
                }
            },
            || {},
        )
        .unwrap();
        assert_eq!(games.len(), 6);
        let table = CrossTable::new(vec!["ab".into(), "r1".into(), "r2".into()], &games);
        assert_eq!(table.totals().iter().sum::<f64>(), 6.0);
        for i in 0..3 {
            for j in 0..3 {
                assert_eq!(table.games[i][j], u32::from(i != j));
            }
        }
        assert!(games.iter().all(|g| g.game.moves().len() <= 6));
        assert!(table.to_markdown().contains("| ab |"));
    }
}
