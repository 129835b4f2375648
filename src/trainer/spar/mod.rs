//! Sparring at a rating: past the repertoire, the computer plays the moves of an
//! explorer's games of one rating band and speed (or of the opponent prepared against),
//! each drawn in proportion to its games, while at least `K` games reach the position;
//! then the human-like predictor plays on, with its temperature fitted to those games
//! ([`fit`]).
//!
//! [`Spar`] makes the choice for one position: [`Spar::explorer_move`] is the games'
//! move, or `None` when fewer than `K` games reach the position and the model is to
//! play (the play-on game then asks its human-like engine, at [`Spar::temperature`]).
//! Each computer move keeps where it came from ([`SparSource`]), and the switch is
//! announced once ([`Spar::switch_text`]).

pub mod fit;

use std::fmt;
use std::sync::Arc;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Move};

use crate::book::explorer::{
    BAND_BOUNDS, ExplorerCounts, PositionStats, RatingBand, Speed, group_digits,
};

/// The fewest games at a position for the explorer's games to choose the move (`K`).
pub const DEFAULT_MIN_GAMES: u64 = 5;

/// Where a computer move came from.
#[derive(Debug, Clone, PartialEq)]
pub enum SparSource {
    /// Drawn from the explorer's games at the position.
    Games {
        /// The games with this move.
        with_move: u64,
        /// The games at the position.
        games: u64,
    },
    /// The human-like model's (fewer games than `K` at the position).
    Model {
        /// The games at the position.
        games: u64,
        /// Its temperature.
        temperature: f64,
    },
}

impl SparSource {
    /// What the play-on panel says of a move: `"from 12 of 40 games of 1600–1800
    /// players"`, `"the human-like model (T 1.35; 2 games here)"`.
    pub fn describe(&self, whose: &str) -> String {
        match self {
            SparSource::Games { with_move, games } => format!(
                "from {} of {} games of {whose}",
                group_digits(with_move),
                group_digits(games)
            ),
            SparSource::Model { games, temperature } => format!(
                "the human-like model (T {temperature:.2}; {} {} here)",
                group_digits(games),
                plural(*games, "game", "games")
            ),
        }
    }
}

/// A band's ratings: `"1600–1800"`, `"under 1000"`, `"2500+"`, `"unrated"`.
pub fn band_range(band: RatingBand) -> String {
    let i = usize::from(band.index());
    match (BAND_BOUNDS.get(i), BAND_BOUNDS.get(i + 1)) {
        (Some(0), Some(next)) => format!("under {next}"),
        (Some(bound), Some(next)) => format!("{bound}–{next}"),
        (Some(bound), None) => format!("{bound}+"),
        (None, _) => "unrated".to_owned(),
    }
}

/// Whose games a band and speed are: `"1600–1800 blitz players"`, `"2500+ players"`.
pub fn band_players(band: RatingBand, speed: Option<Speed>) -> String {
    match speed {
        Some(speed) => format!("{} {} players", band_range(band), speed.name()),
        None => format!("{} players", band_range(band)),
    }
}

/// `"1600–1800 players'"`, `"Kasparov's"`: whose games, as a possessive.
pub fn possessive(whose: &str) -> String {
    if whose.ends_with('s') {
        format!("{whose}'")
    } else {
        format!("{whose}'s")
    }
}

/// `"have"` after a band's players, `"has"` after one player's name.
pub fn have(whose: &str) -> &'static str {
    if whose.ends_with(" players") {
        "have"
    } else {
        "has"
    }
}

/// `one` for 1, else `many`.
fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// A move drawn from `stats` (the games at `pos`) in proportion to its games, with its
/// games and the position's; `None` when fewer than `min_games` games (of moves legal
/// at `pos`) reach it. `u` is uniform in `[0, 1)`.
pub fn draw_from_games(
    stats: &PositionStats,
    pos: &Chess,
    min_games: u64,
    u: f64,
) -> Option<(Move, SparSource)> {
    let moves: Vec<(Move, u64)> = stats
        .moves
        .iter()
        .filter(|m| m.games() > 0)
        .filter_map(|m| Some((m.raw_move.to_move(pos).ok()?, m.games())))
        .collect();
    let games: u64 = moves.iter().map(|(_, n)| n).sum();
    if games < min_games.max(1) {
        return None;
    }
    let mut left = (u.clamp(0.0, 1.0) * games as f64).floor() as u64;
    for (mv, n) in &moves {
        if left < *n {
            let source = SparSource::Games {
                with_move: *n,
                games,
            };
            return Some((*mv, source));
        }
        left -= n;
    }
    // `u` was 1 (clamped): the last move.
    moves.last().map(|(mv, n)| {
        let source = SparSource::Games {
            with_move: *n,
            games,
        };
        (*mv, source)
    })
}

/// The sparring opponent's choice between the games and the model.
pub struct Spar {
    counts: Arc<dyn ExplorerCounts>,
    /// Whose games, for people: `"1600–1800 blitz players"`, `"Kasparov"`.
    whose: String,
    min_games: u64,
    temperature: f64,
    rng: ChaCha8Rng,
    /// Whether the switch to the model was announced.
    announced: bool,
}

impl fmt::Debug for Spar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Spar")
            .field("whose", &self.whose)
            .field("min_games", &self.min_games)
            .field("temperature", &self.temperature)
            .finish_non_exhaustive()
    }
}

impl Spar {
    /// Sparring against the games of `counts` (`whose`: whose they are, for people)
    /// while `min_games` reach a position, then the model at `temperature`; the draws
    /// fixed by `seed`.
    pub fn new(
        counts: Arc<dyn ExplorerCounts>,
        whose: impl Into<String>,
        min_games: u64,
        temperature: f64,
        seed: u64,
    ) -> Spar {
        Spar {
            counts,
            whose: whose.into(),
            min_games: min_games.max(1),
            temperature,
            rng: ChaCha8Rng::seed_from_u64(seed),
            announced: false,
        }
    }

    /// Whose games: `"1600–1800 blitz players"`.
    pub fn whose(&self) -> &str {
        &self.whose
    }

    /// `K`: the fewest games for the games to choose.
    pub fn min_games(&self) -> u64 {
        self.min_games
    }

    /// The model's temperature.
    pub fn temperature(&self) -> f64 {
        self.temperature
    }

    /// Sets the model's temperature (a fit finished).
    pub fn set_temperature(&mut self, temperature: f64) {
        self.temperature = temperature;
    }

    /// The games' move at `pos`, or `None` when the model is to play.
    pub fn explorer_move(&mut self, pos: &Chess) -> Option<(Move, SparSource)> {
        let stats = self.counts.stats_at(pos);
        let u = self.rng.random::<f64>();
        draw_from_games(&stats, pos, self.min_games, u)
    }

    /// Where the model's move at `pos` comes from (the games there, the temperature).
    pub fn model_source(&self, pos: &Chess) -> SparSource {
        SparSource::Model {
            games: self.counts.games_at(pos),
            temperature: self.temperature,
        }
    }

    /// The announcement of the switch to the model, the first time only: `"1600–1800
    /// players have 2 games here: the human-like model plays on."`.
    pub fn switch_text(&mut self, games: u64) -> Option<String> {
        if self.announced {
            return None;
        }
        self.announced = true;
        Some(switch_sentence(&self.whose, games, self.temperature))
    }
}

/// `"1600–1800 players have 2 games here: the human-like model plays on (T 1.35)."`
pub fn switch_sentence(whose: &str, games: u64, temperature: f64) -> String {
    let games = match games {
        0 => "no game".to_owned(),
        n => format!("{} {}", group_digits(n), plural(n, "game", "games")),
    };
    let verb = have(whose);
    format!("{whose} {verb} {games} here: the human-like model plays on (T {temperature:.2}).")
}

#[cfg(test)]
mod tests;
