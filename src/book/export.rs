//! Opening lines written back as PGN, with nested variations.
//!
//! Lines are grouped into games: consecutive lines of the same source game (or ECO
//! row) with the same start become one game whose root-to-leaf paths are exactly those
//! lines, the first line as the mainline. A line that would break that (it is a prefix
//! of another line of the group, repeats one, or branches off an earlier line than the
//! one before it) starts a new game with the same tags. So reading the output in
//! repertoire mode ([`ImportMode::Repertoire`](super::ImportMode), or auto-detection,
//! since every game has `[Result "*"]`) gives back the same lines in the same order,
//! hence the same graph.
//!
//! Tags: a line read from PGN keeps its game's tags ([`OpeningLine::tags`]), and they
//! are written back in their order, with two changes: `[Result]` is always `"*"` (the
//! export is a repertoire; the movetext ends with `*`), and an `[ECO]` or an
//! `[Opening]`/`[Variation]` pair that the game leaves unknown (missing, blank or `?`)
//! is filled in from the lines when every line of the game shares it (the name is split
//! at its first `": "`, as for names the ECO list gave). A line without tags (an ECO
//! row, a drill) gets an invented `[Event]` naming its source, `[Result "*"]` and the
//! shared `[ECO]`, `[Opening]`/`[Variation]`. Either way, `[SetUp "1"]`/`[FEN]` are
//! added for other start positions when the tags lack them. Comments, NAGs, arrows
//! (`[%cal …]`) and circles (`[%csl …]`) are written after their move.
//!
//! ```
//! use hastings::book::export::write_pgn;
//! use hastings::book::pgn::{read_pgn, ImportOptions};
//! use hastings::book::SourceId;
//!
//! let text = "1. e4 e5 2. Nf3 (2. f4 exf4 $1 {The gambit}) 2... Nc6 *\n";
//! let import = read_pgn(text.as_bytes(), SourceId(1), &ImportOptions::default(), None)?;
//! let mut out = Vec::new();
//! write_pgn(&import.lines, &mut out)?;
//! let written = String::from_utf8(out)?;
//! assert!(written.contains("1. e4 e5 2. Nf3 (2. f4 exf4 $1 {The gambit}) 2... Nc6 *"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::{self, Write};

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};
use thiserror::Error;

use super::error::LineError;
use super::graph::PositionGraph;
use super::line::{LineSource, MoveAnnotation, OpeningLine, SourceId};
use super::tags::known;

/// Writing PGN failed.
#[derive(Debug, Error)]
pub enum ExportError {
    /// The output could not be written.
    #[error("cannot write the PGN: {0}")]
    Io(#[from] io::Error),
    /// A line has a move that is not legal (only for a line made in code: the readers
    /// check the moves they read).
    #[error(transparent)]
    Line(#[from] LineError),
}

/// Writes the lines of `graph` (only those of `source`, if given) as PGN. Returns the
/// number of games written.
///
/// # Errors
///
/// [`ExportError::Io`] when writing fails.
pub fn write_graph(
    graph: &PositionGraph,
    source: Option<SourceId>,
    out: &mut impl Write,
) -> Result<usize, ExportError> {
    let lines = graph
        .lines()
        .iter()
        .filter(|l| source.is_none_or(|s| l.source.source_id() == s));
    write_pgn(lines, out)
}

/// Writes `lines` as PGN games with nested variations. Returns the number of games.
///
/// # Errors
///
/// [`ExportError::Io`] when writing fails, [`ExportError::Line`] when a line has a move
/// that is not legal.
pub fn write_pgn<'a>(
    lines: impl IntoIterator<Item = &'a OpeningLine>,
    out: &mut impl Write,
) -> Result<usize, ExportError> {
    let mut games = 0;
    let mut group: Option<Group<'a>> = None;
    for line in lines {
        if let Some(g) = &mut group
            && g.accepts(line)
        {
            g.add(line)?;
            continue;
        }
        if let Some(g) = group.take() {
            g.write(out)?;
            games += 1;
        }
        let mut g = Group::new(line);
        g.add(line)?;
        group = Some(g);
    }
    if let Some(g) = group {
        g.write(out)?;
        games += 1;
    }
    Ok(games)
}

struct Node {
    mv: Option<Move>,
    /// The position after the move.
    pos: Chess,
    children: Vec<usize>,
    note: Option<MoveAnnotation>,
}

/// One game being collected: a tree of the lines' moves.
struct Group<'a> {
    first: &'a OpeningLine,
    nodes: Vec<Node>,
    /// The path (node ids, root excluded) of the last line added.
    last: Vec<usize>,
    eco: Option<&'a str>,
    name: Option<&'a str>,
}

impl<'a> Group<'a> {
    fn new(line: &'a OpeningLine) -> Group<'a> {
        Group {
            first: line,
            nodes: vec![Node {
                mv: None,
                pos: line.start_position(),
                children: Vec::new(),
                note: None,
            }],
            last: Vec::new(),
            eco: line.eco.as_deref(),
            name: Some(line.name.as_str()),
        }
    }

    fn same_game(a: &LineSource, b: &LineSource) -> bool {
        match (a, b) {
            (LineSource::Pgn { .. }, LineSource::Pgn { .. }) => a == b,
            _ => false,
        }
    }

    /// Whether `line` can join so that the game's paths stay the lines, in order.
    fn accepts(&self, line: &OpeningLine) -> bool {
        let moves = &line.moves;
        if !Self::same_game(&self.first.source, &line.source) || self.first.start != line.start {
            return false;
        }
        let common = self
            .last
            .iter()
            .zip(moves)
            .take_while(|&(&n, mv)| self.nodes[n].mv == Some(*mv))
            .count();
        if common == moves.len() || common == self.last.len() {
            return false;
        }
        let branch = if common == 0 {
            0
        } else {
            self.last[common - 1]
        };
        !self.nodes[branch]
            .children
            .iter()
            .any(|&c| self.nodes[c].mv == Some(moves[common]))
    }

    /// Adds `line`'s moves to the tree (a move not made before is checked as it is
    /// added).
    fn add(&mut self, line: &'a OpeningLine) -> Result<(), LineError> {
        let moves = &line.moves;
        if self.eco != line.eco.as_deref() {
            self.eco = None;
        }
        if self.name != Some(line.name.as_str()) {
            self.name = None;
        }
        let mut path = Vec::with_capacity(moves.len());
        let mut at = 0;
        for (i, &mv) in moves.iter().enumerate() {
            let existing = self.nodes[at]
                .children
                .iter()
                .copied()
                .find(|&c| self.nodes[c].mv == Some(mv));
            at = match existing {
                Some(c) => c,
                None => {
                    let mut pos = self.nodes[at].pos.clone();
                    if !pos.is_legal(mv) {
                        return Err(LineError::not_legal(line.source, i, &pos, mv));
                    }
                    pos.play_unchecked(mv);
                    let id = self.nodes.len();
                    self.nodes.push(Node {
                        mv: Some(mv),
                        pos,
                        children: Vec::new(),
                        note: None,
                    });
                    self.nodes[at].children.push(id);
                    id
                }
            };
            path.push(at);
        }
        for note in &line.annotations {
            if let Some(&n) = path.get(note.ply as usize)
                && self.nodes[n].note.is_none()
            {
                self.nodes[n].note = Some(note.clone());
            }
        }
        self.last = path;
        Ok(())
    }

    /// The game's tags as written (see the [module docs](self)).
    fn tags(&self) -> Vec<(&'a str, String)> {
        let eco = self.eco.filter(|e| !e.trim().is_empty()).map(str::to_owned);
        let (opening, variation) = match self.name.filter(|n| !n.trim().is_empty()) {
            Some(name) => match name.split_once(": ") {
                Some((o, v)) => (Some(o.to_owned()), Some(v.to_owned())),
                None => (Some(name.to_owned()), None),
            },
            None => (None, None),
        };
        let (setup, fen) = match &self.first.start {
            Some(start) => (Some("1".to_owned()), Some(start.fen().to_string())),
            None => (None, None),
        };
        let Some(own) = self.first.tags.as_deref() else {
            let event = match self.first.source {
                LineSource::Eco { .. } => format!("ECO {}", self.first.source),
                LineSource::Pgn { .. } => self.first.source.to_string(),
            };
            let derived = [
                ("Event", Some(event)),
                ("Result", Some("*".to_owned())),
                ("ECO", eco),
                ("Opening", opening),
                ("Variation", variation),
                ("SetUp", setup),
                ("FEN", fen),
            ];
            return derived
                .into_iter()
                .filter_map(|(name, value)| Some((name, value?)))
                .collect();
        };
        // Names from the lines only where the game's tags did not give them.
        let named = own.known("Opening").is_some() || own.known("Variation").is_some();
        let mut derived = [
            ("Result", Some("*".to_owned())),
            ("ECO", eco.filter(|_| own.known("ECO").is_none())),
            ("Opening", opening.filter(|_| !named)),
            ("Variation", variation.filter(|_| !named)),
            // `[SetUp]` comes with a `[FEN]` the game does not have.
            ("SetUp", setup.filter(|_| own.get("FEN").is_none())),
            ("FEN", fen),
        ];
        let mut tags: Vec<(&'a str, String)> = Vec::with_capacity(own.len() + derived.len());
        for (name, value) in own.iter() {
            let value = if name == "Result" {
                "*".to_owned()
            } else {
                // An unknown ECO, Opening or Variation filled in from the lines.
                derived
                    .iter_mut()
                    .find(|(n, _)| *n == name)
                    .and_then(|(_, d)| d.take_if(|_| known(value).is_none()))
                    .unwrap_or_else(|| value.to_owned())
            };
            tags.push((name, value));
        }
        for (name, value) in derived {
            let missing = !tags.iter().any(|(n, _)| *n == name);
            if let Some(value) = value.filter(|_| missing) {
                tags.push((name, value));
            }
        }
        tags
    }

    fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let mut game = GameWriter::new();
        for (name, value) in self.tags() {
            game.tag(name, &value);
        }
        self.movetext(&mut game);
        out.write_all(game.finish("*").as_bytes())
    }

    /// The movetext, mainline first, variations in parentheses after the move they
    /// replace. Iterative, so that deep trees cannot overflow the stack.
    fn movetext(&self, m: &mut GameWriter) {
        enum Task {
            /// Write what follows the node: its first child, the others as variations.
            Continue(usize),
            /// Open a variation with this node's move.
            Open {
                node: usize,
                parent: usize,
            },
            Close,
        }
        let mut tasks = vec![Task::Continue(0)];
        while let Some(task) = tasks.pop() {
            match task {
                Task::Continue(n) => {
                    let Some((&main, alternatives)) = self.nodes[n].children.split_first() else {
                        continue;
                    };
                    self.write_move(m, n, main);
                    tasks.push(Task::Continue(main));
                    for &alt in alternatives.iter().rev() {
                        tasks.push(Task::Close);
                        tasks.push(Task::Continue(alt));
                        tasks.push(Task::Open {
                            node: alt,
                            parent: n,
                        });
                    }
                }
                Task::Open { node, parent } => {
                    m.begin_variation();
                    self.write_move(m, parent, node);
                }
                Task::Close => m.end_variation(),
            }
        }
    }

    fn write_move(&self, m: &mut GameWriter, parent: usize, node: usize) {
        let Some(mv) = self.nodes[node].mv else {
            return;
        };
        m.san(&self.nodes[parent].pos, mv);
        if let Some(note) = &self.nodes[node].note {
            for &nag in &note.nags {
                m.nag(nag);
            }
            m.comment(&comment_text(note));
        }
    }
}

fn comment_text(note: &MoveAnnotation) -> String {
    let mut parts = Vec::new();
    if let Some(text) = &note.comment {
        // The learner's text must not read as a command such as `[%cal …]`.
        let clean = text.replace("[%", "[ %");
        if !clean.trim().is_empty() {
            parts.push(clean.trim().to_owned());
        }
    }
    if !note.circles.is_empty() {
        let list: Vec<String> = note
            .circles
            .iter()
            .map(|(c, sq)| format!("{c}{sq}"))
            .collect();
        parts.push(format!("[%csl {}]", list.join(",")));
    }
    if !note.arrows.is_empty() {
        let list: Vec<String> = note
            .arrows
            .iter()
            .map(|(c, from, to)| format!("{c}{from}{to}"))
            .collect();
        parts.push(format!("[%cal {}]", list.join(",")));
    }
    parts.join(" ")
}

/// One PGN game written as text, in the PGN export format: the tags, a blank line, the
/// movetext in lines of at most 79 characters ending with the result, a blank line.
///
/// Every PGN this program writes goes through it: repertoires ([`write_pgn`]), play-on
/// games and engine matches. Tag values are escaped (`"` and `\`), comments cannot
/// close early (`{`/`}` become `(`/`)`), and move numbers are written where PGN needs
/// them: before White's moves, and before Black's at the start, after a comment and
/// at the start or end of a variation.
///
/// ```
/// use hastings::book::export::GameWriter;
/// use shakmaty::{Chess, Position};
/// use shakmaty::san::San;
///
/// let mut pos = Chess::default();
/// let mut game = GameWriter::new();
/// game.tag("Event", "A \"quoted\" name");
/// for san in ["e4", "e5"] {
///     let mv = San::from_ascii(san.as_bytes())?.to_move(&pos)?;
///     game.san(&pos, mv);
///     if san == "e4" {
///         game.comment("the {best} move");
///     }
///     pos.play_unchecked(mv);
/// }
/// assert_eq!(
///     game.finish("*"),
///     "[Event \"A \\\"quoted\\\" name\"]\n\n1. e4 {the (best) move} 1... e5 *\n\n"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct GameWriter {
    tags: String,
    movetext: String,
    column: usize,
    /// The next Black move gets its number.
    force_number: bool,
}

impl Default for GameWriter {
    fn default() -> GameWriter {
        GameWriter::new()
    }
}

/// The longest movetext line (the PGN export format asks for fewer than 80 characters).
const LINE: usize = 79;

impl GameWriter {
    /// A game with no tags and no moves yet.
    pub fn new() -> GameWriter {
        GameWriter {
            tags: String::new(),
            movetext: String::new(),
            column: 0,
            force_number: true,
        }
    }

    /// Adds the tag `[name "value"]`, the value escaped (`"` and `\` with a backslash,
    /// control characters as spaces). A name that is not a PGN symbol (letters, digits,
    /// `_`) is left out, as a PGN reader would not read it.
    pub fn tag(&mut self, name: &str, value: &str) {
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return;
        }
        self.tags.push('[');
        self.tags.push_str(name);
        self.tags.push_str(" \"");
        for c in value.chars() {
            match c {
                '"' | '\\' => {
                    self.tags.push('\\');
                    self.tags.push(c);
                }
                c if c.is_control() => self.tags.push(' '),
                c => self.tags.push(c),
            }
        }
        self.tags.push_str("\"]\n");
    }

    /// Adds the move `mv`, legal at `pos`, in SAN with its check mark, after its move
    /// number when PGN wants one (kept on the same line as the move).
    pub fn san(&mut self, pos: &Chess, mv: Move) {
        self.san_plus(pos, &SanPlus::from_move(pos.clone(), mv));
    }

    /// Adds `san`, a move played at `pos` with its check mark already known, as
    /// [`GameWriter::san`] does (for a writer that has the position after the move).
    pub fn san_plus(&mut self, pos: &Chess, san: &SanPlus) {
        let number = pos.fullmoves();
        self.token(&match pos.turn() {
            Color::White => format!("{number}. {san}"),
            Color::Black if self.force_number => format!("{number}... {san}"),
            Color::Black => san.to_string(),
        });
        self.force_number = false;
    }

    /// Adds the NAG `$nag` after the last move.
    pub fn nag(&mut self, nag: u8) {
        self.token(&format!("${nag}"));
    }

    /// Adds `{text}` after the last move (or before the first): braces in `text` become
    /// parentheses and line breaks spaces, so the comment ends where it should. An empty
    /// or blank text adds nothing.
    pub fn comment(&mut self, text: &str) {
        let clean: String = text
            .trim()
            .chars()
            .map(|c| match c {
                '}' => ')',
                '{' => '(',
                c if c.is_whitespace() => ' ',
                c => c,
            })
            .collect();
        if clean.is_empty() {
            return;
        }
        self.token(&format!("{{{clean}}}"));
        self.force_number = true;
    }

    /// Opens a variation: the moves up to [`GameWriter::end_variation`] replace the last
    /// move.
    pub fn begin_variation(&mut self) {
        self.token("(");
        self.force_number = true;
    }

    /// Closes the variation opened last.
    pub fn end_variation(&mut self) {
        self.token(")");
        self.force_number = true;
    }

    /// The game's text, ending the movetext with `result` (`1-0`, `0-1`, `1/2-1/2`,
    /// `*`).
    pub fn finish(mut self, result: &str) -> String {
        self.token(result);
        let mut text = self.tags;
        text.push('\n');
        text.push_str(&self.movetext);
        text.push_str("\n\n");
        text
    }

    /// Appends a token, on a new line when this one would pass [`LINE`] characters (a
    /// longer token gets a line of its own); none after `(` or before `)`.
    fn token(&mut self, token: &str) {
        let width = token.chars().count();
        let attach = self.movetext.ends_with('(') || token == ")";
        if self.column > 0 && !attach && self.column + 1 + width > LINE {
            self.movetext.push('\n');
            self.column = 0;
        } else if self.column > 0 && !attach {
            self.movetext.push(' ');
            self.column += 1;
        }
        self.movetext.push_str(token);
        self.column += width;
    }
}

#[cfg(test)]
mod tests;
