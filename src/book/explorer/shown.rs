//! One game of a PGN text found by its number, as the explorer's top games name it
//! (the 1-based count of games in the text, finished or not, as
//! [`read_explorer_games`](super::read_explorer_games) numbers them): its tags and its
//! main line, for showing it.

use std::io::{self, Read};
use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};

use crate::book::pgn::start_from_tags;

/// A game read for showing: its tags in the file's order and its main line, as far as
/// its moves are legal.
#[derive(Debug, Clone, PartialEq)]
pub struct ShownGame {
    /// Its number in the text (1-based).
    pub number: u64,
    /// Its tags, `(name, value)`, in the file's order.
    pub tags: Vec<(String, String)>,
    /// The position it starts from (its `FEN`, else the standard start).
    pub start: Chess,
    /// Its main line's moves (variations are left out).
    pub moves: Vec<Move>,
    /// Why the moves stop before the end of the movetext, when they do (an illegal or
    /// ambiguous move, or a start that is not standard chess).
    pub stopped: Option<String>,
}

impl ShownGame {
    /// The value of tag `name` (exact name), when the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        find_tag(&self.tags, name)
    }

    /// The position after the first `ply` moves (all of them past the end).
    pub fn position(&self, ply: usize) -> Chess {
        let mut pos = self.start.clone();
        for &mv in self.moves.iter().take(ply) {
            pos.play_unchecked(mv);
        }
        pos
    }

    /// The moves in SAN with check and mate marks.
    pub fn sans(&self) -> Vec<String> {
        let mut pos = self.start.clone();
        self.moves
            .iter()
            .map(|&mv| SanPlus::from_move_and_play_unchecked(&mut pos, mv).to_string())
            .collect()
    }
}

/// The value of tag `name` among `tags`.
fn find_tag<'t>(tags: &'t [(String, String)], name: &str) -> Option<&'t str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// Reads game `number` (1-based) of `pgn`; `None` when the text has fewer games.
///
/// ```
/// use hastings::book::explorer::read_shown_game;
///
/// let pgn = "[White \"A\"]\n\n1. e4 e5 *\n\n[White \"B\"]\n\n1. d4 (1. c4) d5 2. Qxd8 *\n";
/// let game = read_shown_game(pgn.as_bytes(), 2)?.expect("two games");
/// assert_eq!(game.tag("White"), Some("B"));
/// assert_eq!(game.sans(), ["d4", "d5"]);
/// assert!(game.stopped.as_deref().is_some_and(|why| why.contains("Qxd8")));
/// assert!(read_shown_game(pgn.as_bytes(), 3)?.is_none());
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
///
/// The reader's I/O errors.
pub fn read_shown_game(pgn: impl Read, number: u64) -> io::Result<Option<ShownGame>> {
    let mut visitor = Finder {
        seen: 0,
        number,
        found: None,
    };
    let mut reader = Reader::new(pgn);
    while visitor.found.is_none() && visitor.seen < number {
        if reader.read_game(&mut visitor)?.is_none() {
            break;
        }
    }
    Ok(visitor.found)
}

struct Finder {
    seen: u64,
    number: u64,
    found: Option<ShownGame>,
}

/// The game's tags, `(name, value)`, in the file's order.
type Tags = Vec<(String, String)>;

/// The game being read and its position.
struct Reading {
    game: ShownGame,
    pos: Chess,
}

impl Visitor for Finder {
    type Tags = Tags;
    type Movetext = Reading;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Tags> {
        self.seen += 1;
        if self.seen == self.number {
            ControlFlow::Continue(Vec::new())
        } else {
            ControlFlow::Break(())
        }
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<(), Reading> {
        let (variant, fen) = (find_tag(&tags, "Variant"), find_tag(&tags, "FEN"));
        let (start, stopped) = match start_from_tags(variant, fen) {
            Ok(start) => (start.unwrap_or_default(), None),
            Err(issue) => (Chess::default(), Some(issue.to_string())),
        };
        ControlFlow::Continue(Reading {
            pos: start.clone(),
            game: ShownGame {
                number: self.number,
                tags,
                start,
                moves: Vec::new(),
                stopped,
            },
        })
    }

    fn san(&mut self, reading: &mut Reading, san_plus: SanPlus) -> ControlFlow<()> {
        let game = &mut reading.game;
        if game.stopped.is_some() {
            return ControlFlow::Continue(());
        }
        let played = match san_plus.san {
            San::Null => None,
            san => san.to_move(&reading.pos).ok(),
        };
        match played {
            Some(mv) => {
                reading.pos.play_unchecked(mv);
                game.moves.push(mv);
            }
            None => {
                let ply = game.moves.len() + 1;
                game.stopped = Some(format!(
                    "move {} ({san_plus}) is not legal here",
                    ply.div_ceil(2)
                ));
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut Reading) -> ControlFlow<(), Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, reading: Reading) {
        self.found = Some(reading.game);
    }
}
