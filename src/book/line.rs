//! Opening lines: the input of the position graph (legal moves from a start, checked
//! where the line is read), and their style flags.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError};
use shakmaty::{Chess, EnPassantMode, Move, Position, Role, Square};
use thiserror::Error;

use super::error::MoveErrorKind;
use super::tags::GameTags;

/// Where a line comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LineSource {
    /// A row of the embedded ECO list.
    Eco {
        /// The volume, `'A'` to `'E'` (the file `a.tsv` … `e.tsv`).
        volume: char,
        /// The 1-based line number of the row in its file (the header is line 1).
        row: u32,
    },
    /// A game of a PGN file (one line per root-to-leaf path of the game).
    Pgn {
        /// Which loaded file; the caller keeps the list of files.
        source: SourceId,
        /// The 1-based game number in the file.
        game: u32,
    },
}

impl LineSource {
    /// The source kind, for filtering.
    pub const fn source_id(&self) -> SourceId {
        match self {
            LineSource::Eco { .. } => SourceId::ECO,
            LineSource::Pgn { source, .. } => *source,
        }
    }
}

impl fmt::Display for LineSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineSource::Eco { volume, row } => {
                write!(f, "{}.tsv row {row}", volume.to_ascii_lowercase())
            }
            LineSource::Pgn { source, game } => write!(f, "source {} game {game}", source.0),
        }
    }
}

/// A book source: 0 is the embedded ECO list, 1… are loaded PGN files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SourceId(pub u16);

impl SourceId {
    /// The embedded ECO list.
    pub const ECO: SourceId = SourceId(0);
}

/// One of the five style parameters, in the thesis's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Flag {
    /// The line's name contains "gambit".
    Gambit,
    /// White's first move is not 1.c4, 1.d4 or 1.e4.
    Uncommon,
    /// White's first move is 1.c4.
    C4,
    /// White's first move is 1.d4.
    D4,
    /// White's first move is 1.e4.
    E4,
}

impl Flag {
    /// All five, in the thesis's order (the order of its parameter vectors).
    pub const ALL: [Flag; 5] = [Flag::Gambit, Flag::Uncommon, Flag::C4, Flag::D4, Flag::E4];

    /// The position of the flag in the thesis's parameter vectors.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// A short label for the user interface.
    pub const fn label(self) -> &'static str {
        match self {
            Flag::Gambit => "Gambits",
            Flag::Uncommon => "Uncommon openings",
            Flag::C4 => "1.c4 lines",
            Flag::D4 => "1.d4 lines",
            Flag::E4 => "1.e4 lines",
        }
    }
}

/// A set of style flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FlagSet(u8);

impl FlagSet {
    /// The empty set.
    pub const EMPTY: FlagSet = FlagSet(0);

    /// Whether the set has `flag`.
    pub const fn contains(self, flag: Flag) -> bool {
        self.0 & (1 << flag as u8) != 0
    }

    /// The set with `flag` added.
    #[must_use]
    pub const fn with(self, flag: Flag) -> FlagSet {
        FlagSet(self.0 | (1 << flag as u8))
    }

    /// The flags of a line (docs/sampler.md §1): gambit by name, and the first-move class
    /// by White's first move when the line starts from the standard position.
    ///
    /// ```
    /// use hastings::book::{Flag, FlagSet};
    /// use shakmaty::{Chess, san::San};
    ///
    /// let e4 = San::from_ascii(b"e4").unwrap().to_move(&Chess::default()).unwrap();
    /// let flags = FlagSet::classify("King's Gambit Accepted", Some(e4));
    /// assert!(flags.contains(Flag::Gambit) && flags.contains(Flag::E4));
    /// ```
    pub fn classify(name: &str, first_move_from_start: Option<Move>) -> FlagSet {
        let mut flags = FlagSet::EMPTY;
        // ASCII case folding finds what `to_lowercase` finds (no other character
        // lowercases to one of these letters), without a new string per line.
        if name
            .as_bytes()
            .windows(6)
            .any(|w| w.eq_ignore_ascii_case(b"gambit"))
        {
            flags = flags.with(Flag::Gambit);
        }
        if let Some(mv) = first_move_from_start {
            let class = match (mv.role(), mv.to()) {
                (Role::Pawn, Square::C4) => Flag::C4,
                (Role::Pawn, Square::D4) => Flag::D4,
                (Role::Pawn, Square::E4) => Flag::E4,
                _ => Flag::Uncommon,
            };
            flags = flags.with(class);
        }
        flags
    }

    /// Iterates over the flags in the set.
    pub fn iter(self) -> impl Iterator<Item = Flag> {
        Flag::ALL.into_iter().filter(move |f| self.contains(*f))
    }
}

/// Per-flag amounts (weights, shares), indexed by [`Flag::index`].
pub type FlagWeights = [f64; 5];

/// One opening line as read from a file: its start and its legal moves from there.
///
/// The reader that makes a line plays its moves once ([`san_path`] for SAN text) and
/// reports an illegal or ambiguous move itself, so a line's moves are legal in order
/// from [`OpeningLine::start_position`]; SAN is made only where a line is shown or
/// written ([`OpeningLine::sans`]). It becomes part of a
/// [`PositionGraph`](super::PositionGraph) through
/// [`PositionGraph::build`](super::PositionGraph::build).
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningLine {
    /// Where the line comes from.
    pub source: LineSource,
    /// The ECO code, e.g. `"C60"`, when known.
    pub eco: Option<String>,
    /// The line's name, e.g. `"Ruy Lopez"`; may be empty.
    pub name: String,
    /// The start position, `None` for the standard position.
    pub start: Option<Start>,
    /// The moves, legal in order from the start position.
    pub moves: Vec<Move>,
    /// The line's weight: 1 for an ECO row, 1 per game for a games database.
    pub weight: f64,
    /// Comments, NAGs and arrows per move, where the source had them.
    pub annotations: Vec<MoveAnnotation>,
    /// The source had a problem in this line's game (an illegal move, an unknown token,
    /// a truncated text…), so the line stops where the problem is: it is the valid
    /// prefix of what the source meant.
    pub truncated: bool,
    /// The tags of the PGN game the line comes from, all of them in file order; one
    /// copy shared by the lines of a game. `None` for ECO rows and untagged games.
    pub tags: Option<Arc<GameTags>>,
}

impl OpeningLine {
    /// A line of `moves` (legal from the standard start) from `source`, with no name,
    /// weight 1 and nothing said about its moves (set the rest with struct update
    /// syntax).
    pub fn new(source: LineSource, moves: Vec<Move>) -> OpeningLine {
        OpeningLine {
            source,
            eco: None,
            name: String::new(),
            start: None,
            moves,
            weight: 1.0,
            annotations: Vec::new(),
            truncated: false,
            tags: None,
        }
    }

    /// The position the line starts from: its [`Start`], or the standard position.
    pub fn start_position(&self) -> Chess {
        self.start
            .as_ref()
            .map_or_else(Chess::default, |s| s.position().clone())
    }

    /// The SAN of each move, for showing or writing the line.
    pub fn sans(&self) -> Vec<San> {
        sans_of(&self.start_position(), &self.moves)
    }

    /// Whether White moves first in the line.
    pub fn white_starts(&self) -> bool {
        self.start
            .as_ref()
            .is_none_or(|s| s.position().turn() == shakmaty::Color::White)
    }

    /// Moves per side: (White's, Black's), counted from the start position's side to move.
    pub fn moves_per_side(&self, white_starts: bool) -> (usize, usize) {
        let n = self.moves.len();
        let first = n.div_ceil(2);
        let second = n / 2;
        if white_starts {
            (first, second)
        } else {
            (second, first)
        }
    }

    /// The line's label for lists: `"C60 Ruy Lopez"`, or the name alone.
    pub fn title(&self) -> String {
        match &self.eco {
            Some(eco) if !eco.is_empty() => format!("{eco} {}", self.name),
            _ => self.name.clone(),
        }
    }

    /// A short label that tells the line from others of its opening, for a narrow row:
    /// its last two moves with their numbers, then its name's variation part (after
    /// the opening's name): `"5.Ngf3 Nc6 · Tarrasch Variation, Open System"`. Rows by
    /// [`OpeningLine::title`] alone all read "C07 French Defense: Tarrasc…" once cut.
    pub fn ending(&self) -> String {
        let sans = self.sans();
        let from = sans.len().saturating_sub(2);
        let mut pos = self.start_position();
        for mv in &self.moves[..from.min(self.moves.len())] {
            pos.play_unchecked(*mv);
        }
        let mut words = Vec::new();
        for (i, san) in sans[from..].iter().enumerate() {
            let number = pos.fullmoves().get();
            words.push(match (pos.turn(), i) {
                (shakmaty::Color::White, _) => format!("{number}.{san}"),
                (shakmaty::Color::Black, 0) => format!("{number}...{san}"),
                (shakmaty::Color::Black, _) => san.to_string(),
            });
            if let Ok(mv) = san.to_move(&pos) {
                pos.play_unchecked(mv);
            }
        }
        let variation = self
            .name
            .split_once(": ")
            .map_or(self.name.as_str(), |(_, v)| v);
        match (words.is_empty(), variation.is_empty()) {
            (true, _) => self.title(),
            (false, true) => words.join(" "),
            (false, false) => format!("{} · {variation}", words.join(" ")),
        }
    }
}

/// A line's start position other than the standard one, read once where the line is
/// read (a `[FEN]` tag, a chapter's root). Two starts are the same when their FENs are
/// (move counters included), as when lines kept the FEN text.
///
/// ```
/// use hastings::book::line::Start;
/// use shakmaty::{fen::Fen, CastlingMode, Chess};
///
/// let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
/// let pos: Chess = fen.parse::<Fen>()?.into_position(CastlingMode::Standard)?;
/// let start = Start::new(pos);
/// assert_eq!(start.fen().to_string(), fen);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Start(Box<Chess>);

impl Start {
    /// The start at `position`.
    pub fn new(position: Chess) -> Start {
        Start(Box::new(position))
    }

    /// The position.
    pub fn position(&self) -> &Chess {
        &self.0
    }

    /// The position as FEN (en passant written only when it can be taken), as the
    /// `[FEN]` tag of a written game has it.
    pub fn fen(&self) -> Fen {
        Fen::from_position(self.position(), EnPassantMode::Legal)
    }
}

impl PartialEq for Start {
    fn eq(&self, other: &Start) -> bool {
        self.fen() == other.fen()
    }
}

impl Eq for Start {}

impl std::hash::Hash for Start {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.fen().hash(state);
    }
}

/// What a source says about one move of a line: comments, NAGs, arrows and circles.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveAnnotation {
    /// The 0-based ply of the move in the line.
    pub ply: u32,
    /// The comment text after the move, without `[%…]` commands.
    pub comment: Option<String>,
    /// Numeric annotation glyphs (`$1` = `!`, `$2` = `?`, …).
    pub nags: Vec<u8>,
    /// Arrows `[%cal Gc1f4]`: colour letter, from, to.
    pub arrows: Vec<(char, Square, Square)>,
    /// Circles `[%csl Re4]`: colour letter, square.
    pub circles: Vec<(char, Square)>,
    /// The learner's rank of the move (`[%hastings alt]`, `[%hastings paused]`);
    /// `None` for a move not marked (the main move when it comes first).
    pub mark: Option<MoveMark>,
}

/// How the learner ranks one of their moves, written in the move's comment as a
/// command other PGN tools keep (`[%hastings alt]`, `[%hastings paused]`). A move
/// without a mark is the main move when it is its side's first move at the position
/// in the file's order, else an alternative.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum MoveMark {
    /// An alternative: drilled, but not the main move even when it comes first.
    Alternative,
    /// A paused alternative: kept in the file, in no drill, review or coverage.
    Paused,
}

impl MoveMark {
    /// The comment command that writes the mark.
    pub const fn command(self) -> &'static str {
        match self {
            MoveMark::Alternative => "[%hastings alt]",
            MoveMark::Paused => "[%hastings paused]",
        }
    }

    /// The mark of a `hastings …` command's argument (`alt`, `paused`).
    pub fn from_word(word: &str) -> Option<MoveMark> {
        match word.trim() {
            "alt" => Some(MoveMark::Alternative),
            "paused" => Some(MoveMark::Paused),
            _ => None,
        }
    }
}

impl MoveAnnotation {
    /// Whether it says nothing: no comment, NAG, arrow, circle or mark.
    pub fn is_empty(&self) -> bool {
        self.comment.is_none()
            && self.nags.is_empty()
            && self.arrows.is_empty()
            && self.circles.is_empty()
            && self.mark.is_none()
    }

    /// Whether the move is paused (`[%hastings paused]`): lines through it are not in
    /// the book.
    pub fn is_paused(&self) -> bool {
        self.mark == Some(MoveMark::Paused)
    }
}

/// A move of a SAN path that cannot be played, and the legal moves before it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("ply {ply} `{san}`: {kind}")]
pub struct SanPathError {
    /// The 1-based ply of the move in the path.
    pub ply: usize,
    /// The move as written.
    pub san: String,
    /// Why it cannot be played.
    pub kind: MoveErrorKind,
    /// The moves before it, all legal: the path's legal prefix.
    pub legal: Vec<Move>,
}

/// Plays the SAN moves `sans` from `start` and returns the moves, stopping at the first
/// one that is illegal or ambiguous.
///
/// This is how a reader of SAN text (the ECO list) checks a line's moves where it reads
/// them. SAN is read strictly, as shakmaty reads it (the ECO list is standard SAN); for
/// text as people write it, see
/// [`parse_moves`](super::movelist::parse_moves).
///
/// ```
/// use hastings::book::line::san_path;
/// use hastings::book::MoveErrorKind;
/// use shakmaty::Chess;
/// use shakmaty::san::San;
///
/// let sans: Vec<San> = ["e4", "e5", "Ke3", "Nc6"].iter().map(|s| s.parse().unwrap()).collect();
/// assert_eq!(san_path(&Chess::default(), &sans[..2]).map(|m| m.len()), Ok(2));
/// let err = san_path(&Chess::default(), &sans).unwrap_err();
/// assert_eq!((err.ply, err.san.as_str(), err.kind), (3, "Ke3", MoveErrorKind::Illegal));
/// assert_eq!(err.legal.len(), 2);
/// assert_eq!(err.to_string(), "ply 3 `Ke3`: illegal move");
/// ```
///
/// # Errors
///
/// [`SanPathError`] for the first move that cannot be played, with its ply, and the
/// legal moves before it.
pub fn san_path<'a>(
    start: &Chess,
    sans: impl IntoIterator<Item = &'a San>,
) -> Result<Vec<Move>, SanPathError> {
    san_path_visiting(start, sans, |_| {})
}

/// As [`san_path`], showing `reached` each position the moves reach, in order (the
/// reader that keeps them plays each move once).
pub(crate) fn san_path_visiting<'a>(
    start: &Chess,
    sans: impl IntoIterator<Item = &'a San>,
    mut reached: impl FnMut(&Chess),
) -> Result<Vec<Move>, SanPathError> {
    let sans = sans.into_iter();
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(sans.size_hint().0);
    for san in sans {
        match san.to_move(&pos) {
            Ok(mv) => {
                pos.play_unchecked(mv);
                reached(&pos);
                moves.push(mv);
            }
            Err(e) => {
                return Err(SanPathError {
                    ply: moves.len() + 1,
                    san: san.to_string(),
                    kind: match e {
                        SanError::IllegalSan => MoveErrorKind::Illegal,
                        SanError::AmbiguousSan => MoveErrorKind::Ambiguous,
                    },
                    legal: moves,
                });
            }
        }
    }
    Ok(moves)
}

/// The SAN of each of `moves`, legal moves played in order from `start`: the inverse
/// of [`san_path`].
pub fn sans_of(start: &Chess, moves: &[Move]) -> Vec<San> {
    let mut pos = start.clone();
    moves
        .iter()
        .map(|&mv| {
            let san = San::from_move(&pos, mv);
            pos.play_unchecked(mv);
            san
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_of_one_opening_are_told_apart_by_their_endings() {
        let graph = crate::book::PositionGraph::eco().unwrap();
        let tarrasch: Vec<&super::OpeningLine> = graph
            .lines()
            .iter()
            .filter(|l| l.title().starts_with("C07 French Defense: Tarrasch"))
            .collect();
        assert!(tarrasch.len() >= 5, "{}", tarrasch.len());
        // Cut as a narrow row cuts them, the titles read the same.
        let cut: std::collections::BTreeSet<String> = tarrasch
            .iter()
            .map(|l| l.title().chars().take(28).collect())
            .collect();
        assert_eq!(cut.len(), 1, "{cut:?}");
        // Their endings differ from their first characters on.
        let starts: std::collections::BTreeSet<String> = tarrasch
            .iter()
            .map(|l| l.ending().chars().take(14).collect())
            .collect();
        assert!(starts.len() * 2 >= tarrasch.len(), "{starts:?}");
        let open = tarrasch
            .iter()
            .find(|l| l.name == "French Defense: Tarrasch Variation, Open System")
            .unwrap();
        let sans = open.sans();
        let last = sans.last().unwrap().to_string();
        assert!(open.ending().contains(&last), "{}", open.ending());
        assert!(
            open.ending()
                .ends_with(" · Tarrasch Variation, Open System"),
            "{}",
            open.ending()
        );
        // The numbers: a line ending on Black's move starts with White's number.
        let mut pos = shakmaty::Chess::default();
        let moves = ["e4", "e5"]
            .iter()
            .map(|s| {
                let mv = s.parse::<super::San>().unwrap().to_move(&pos).unwrap();
                shakmaty::Position::play_unchecked(&mut pos, mv);
                mv
            })
            .collect();
        let e4_e5 = super::OpeningLine::new(
            super::LineSource::Eco {
                volume: 'C',
                row: 2,
            },
            moves,
        );
        assert_eq!(e4_e5.ending(), "1.e4 e5");
    }

    use super::*;

    fn sans(text: &str) -> Vec<San> {
        text.split_whitespace()
            .map(|s| s.parse().unwrap())
            .collect()
    }

    fn start(fen: &str) -> Start {
        let pos = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        Start::new(pos)
    }

    #[test]
    fn a_start_is_its_position_and_the_same_start_is_the_same_fen() {
        let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let mut line = OpeningLine::new(
            LineSource::Eco {
                volume: 'B',
                row: 2,
            },
            Vec::new(),
        );
        assert!(line.white_starts());
        assert_eq!(line.start_position(), Chess::default());
        line.start = Some(start(black));
        line.moves = san_path(&line.start_position(), &sans("c5")).unwrap();
        assert!(!line.white_starts());
        assert_eq!(line.moves_per_side(line.white_starts()), (0, 1));
        assert_eq!(line.start.as_ref().unwrap().fen().to_string(), black);
        assert_eq!(line.sans(), sans("c5"));
        // Move counters tell starts apart, as the FEN text did.
        assert_eq!(line.start, Some(start(black)));
        let later = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7";
        assert_ne!(line.start, Some(start(later)));
    }

    #[test]
    fn gambits_are_found_as_lowercasing_found_them() {
        let lowercased = |name: &str| name.to_lowercase().contains("gambit");
        let mut names: Vec<String> = crate::book::eco::embedded()
            .lines
            .into_iter()
            .map(|l| l.name)
            .collect();
        names.extend(
            [
                "GAMBIT",
                "Gambít",
                "GAMBİT",
                "gambi t",
                "Évans-Gambit",
                "gambit",
            ]
            .map(str::to_owned),
        );
        let mut found = 0;
        for name in &names {
            let flagged = FlagSet::classify(name, None).contains(Flag::Gambit);
            assert_eq!(flagged, lowercased(name), "{name}");
            found += usize::from(flagged);
        }
        assert!(found > 300, "{found} gambits");
    }

    #[test]
    fn a_san_path_stops_at_an_illegal_move_with_its_ply() {
        let path = sans("e4 e5 Nf3 Nc6 Bb5 Ke7 Bxe8");
        let err = san_path(&Chess::default(), &path).unwrap_err();
        assert_eq!(err.ply, 7);
        assert_eq!(err.san, "Bxe8");
        assert_eq!(err.kind, MoveErrorKind::Illegal);
        assert_eq!(err.legal.len(), 6);
        let ok = san_path(&Chess::default(), &path[..6]).unwrap();
        assert_eq!(ok, err.legal);
        assert_eq!(sans_of(&Chess::default(), &ok), path[..6]);
    }

    #[test]
    fn an_ambiguous_move_is_told_apart_and_an_empty_path_is_legal() {
        // Both knights can go to d2.
        let start: Chess = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let err = san_path(&start, &sans("Nd2")).unwrap_err();
        assert_eq!((err.ply, err.kind), (1, MoveErrorKind::Ambiguous));
        assert!(err.legal.is_empty());
        assert_eq!(san_path(&start, &[]), Ok(Vec::new()));
    }
}
