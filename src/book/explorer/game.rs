//! A finished game as the explorer counts it, and the players whose trees an index
//! keeps.

use shakmaty::{Color, KnownOutcome};

use super::record::Partition;
use super::tags::{RatingBand, Speed, mean_rating};

/// What the explorer keeps of a finished game (`1-0`, `0-1` or `1/2-1/2`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplorerGame {
    /// The game's 1-based number in the text read (every game counts, finished or not).
    pub number: u64,
    /// The `White` tag.
    pub white: String,
    /// The `Black` tag.
    pub black: String,
    /// The result.
    pub outcome: KnownOutcome,
    /// `WhiteElo`, when it is a rating.
    pub white_elo: Option<u16>,
    /// `BlackElo`, when it is a rating.
    pub black_elo: Option<u16>,
    /// From `TimeControl`.
    pub speed: Speed,
    /// From `Date` (else `UTCDate`); `None` when unknown.
    pub year: Option<u16>,
}

impl ExplorerGame {
    /// The mean rating; `None` when a rating is missing.
    pub fn rating(&self) -> Option<u16> {
        mean_rating(self.white_elo, self.black_elo)
    }

    /// The rating band.
    pub fn band(&self) -> RatingBand {
        self.rating()
            .map_or(RatingBand::UNRATED, RatingBand::from_mean)
    }

    /// The result as PGN writes it.
    pub fn result(&self) -> &'static str {
        outcome_name(self.outcome)
    }
}

/// `1-0`, `0-1` or `1/2-1/2`.
pub fn outcome_name(outcome: KnownOutcome) -> &'static str {
    match outcome {
        KnownOutcome::Decisive {
            winner: Color::White,
        } => "1-0",
        KnownOutcome::Decisive {
            winner: Color::Black,
        } => "0-1",
        KnownOutcome::Draw => "1/2-1/2",
    }
}

/// The players whose games an index also keeps as trees of their own: a name matches
/// the `White` or `Black` tag exactly, ignoring case.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Players {
    names: Vec<String>,
    folded: Vec<String>,
}

impl Players {
    /// The players `names` (at most [`Partition::MAX_PLAYERS`] are kept; a repeated
    /// name once).
    pub fn new<S: AsRef<str>>(names: &[S]) -> Players {
        let mut players = Players::default();
        for name in names {
            let name = name.as_ref();
            let folded = name.to_lowercase();
            if !players.folded.contains(&folded) && players.names.len() < Partition::MAX_PLAYERS {
                players.names.push(name.to_owned());
                players.folded.push(folded);
            }
        }
        players
    }

    /// The names, as given.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The index of the player named `name` (ignoring case).
    pub fn find(&self, name: &str) -> Option<usize> {
        let folded = name.to_lowercase();
        self.folded.iter().position(|n| *n == folded)
    }

    /// The partitions a game counts in: all games, and each player's side in it.
    pub fn partitions(&self, game: &ExplorerGame, out: &mut Vec<Partition>) {
        out.clear();
        out.push(Partition::ALL);
        if self.folded.is_empty() {
            return;
        }
        for (color, name) in [(Color::White, &game.white), (Color::Black, &game.black)] {
            if let Some(p) = self.find(name).and_then(|i| Partition::player(i, color)) {
                out.push(p);
            }
        }
    }
}
