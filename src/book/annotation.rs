//! What the book's lines say about a move: the comment, NAGs, arrows and circles a
//! source wrote after it, found in the graph's annotation index, and shown as text.
//!
//! ```
//! use hastings::book::annotation::{annotation_text, move_annotation};
//! use hastings::book::pgn::{read_pgn, ImportOptions};
//! use hastings::book::{PositionGraph, SourceId};
//! use shakmaty::{Chess, Position, san::San};
//!
//! let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bc4 $1 {Aiming at f7.} *";
//! let import = read_pgn(pgn.as_bytes(), SourceId(1), &ImportOptions::default(), None)?;
//! let graph = PositionGraph::build(import.lines).graph;
//! let mut pos = Chess::default();
//! for san in ["e4", "e5", "Nf3", "Nc6"] {
//!     let mv = San::from_ascii(san.as_bytes())?.to_move(&pos)?;
//!     pos.play_unchecked(mv);
//! }
//! let bc4 = San::from_ascii(b"Bc4")?.to_move(&pos)?;
//! let note = move_annotation(&graph, &pos, bc4).expect("the line comments Bc4");
//! assert_eq!(annotation_text("Bc4", note), "Bc4! Aiming at f7.");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use shakmaty::{Chess, Move, Position};

use super::graph::PositionGraph;
use super::line::MoveAnnotation;

/// What the book's lines say about `mv` played at `before`: the first non-empty
/// annotation of the move in the first line (in line order) that says something
/// there, from the graph's index ([`PositionGraph::annotation`]). `None` when the move
/// is not a book move or nothing is said.
pub fn move_annotation<'g>(
    graph: &'g PositionGraph,
    before: &Chess,
    mv: Move,
) -> Option<&'g MoveAnnotation> {
    let from = graph.lookup(before)?;
    let mut after = before.clone();
    after.play_unchecked(mv);
    let to = graph.lookup(&after)?;
    graph.annotation(from, to)
}

/// The glyph of a move NAG: `$1` → `!`, `$2` → `?`, `$3` → `!!`, `$4` → `??`,
/// `$5` → `!?`, `$6` → `?!`; `None` for the others.
pub const fn nag_glyph(nag: u8) -> Option<&'static str> {
    match nag {
        1 => Some("!"),
        2 => Some("?"),
        3 => Some("!!"),
        4 => Some("??"),
        5 => Some("!?"),
        6 => Some("?!"),
        _ => None,
    }
}

/// A position NAG in words, as a player says it: `$15` → "Black is slightly better",
/// `$13` → "unclear", `$44` → "compensation for the material"; `None` for the NAGs
/// with a move glyph ([`nag_glyph`]) and those rarely written.
pub const fn nag_words(nag: u8) -> Option<&'static str> {
    match nag {
        10..=12 => Some("equal"),
        13 => Some("unclear"),
        14 => Some("White is slightly better"),
        15 => Some("Black is slightly better"),
        16 => Some("White is better"),
        17 => Some("Black is better"),
        18 => Some("White is winning"),
        19 => Some("Black is winning"),
        22 | 23 => Some("zugzwang"),
        32 | 33 => Some("a lead in development"),
        36 | 37 => Some("the initiative"),
        40 | 41 => Some("an attack"),
        44 | 45 => Some("compensation for the material"),
        132 | 133 => Some("counterplay"),
        146 => Some("a novelty"),
        _ => None,
    }
}

/// An annotation as text: `Bc4! (White is slightly better) Aiming at f7.`; NAGs in
/// words ([`nag_words`]), never as `$14` (one no player reads is left out), circles as
/// ` (marked: d4, e5)`. Arrows are drawn, not written.
pub fn annotation_text(san: &str, a: &MoveAnnotation) -> String {
    let mut text = san.to_owned();
    for &nag in &a.nags {
        if let Some(glyph) = nag_glyph(nag) {
            text.push_str(glyph);
        } else if let Some(words) = nag_words(nag) {
            text.push_str(&format!(" ({words})"));
        }
    }
    if let Some(c) = &a.comment {
        text.push(' ');
        text.push_str(c);
    }
    if !a.circles.is_empty() {
        let squares: Vec<String> = a.circles.iter().map(|(_, sq)| sq.to_string()).collect();
        text.push_str(&format!(" (marked: {})", squares.join(", ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use shakmaty::Square;
    use shakmaty::san::San;

    use super::*;
    use crate::book::SourceId;
    use crate::book::pgn::{ImportOptions, read_pgn};

    fn graph(pgn: &str) -> PositionGraph {
        let import = read_pgn(pgn.as_bytes(), SourceId(1), &ImportOptions::default(), None)
            .expect("the PGN reads");
        PositionGraph::build(import.lines).graph
    }

    /// The position after `sans` and the move `next` there.
    fn at(sans: &[&str], next: &str) -> (Chess, Move) {
        let mut pos = Chess::default();
        let play =
            |pos: &Chess, s: &str| San::from_ascii(s.as_bytes()).unwrap().to_move(pos).unwrap();
        for s in sans {
            let mv = play(&pos, s);
            pos.play_unchecked(mv);
        }
        let mv = play(&pos, next);
        (pos, mv)
    }

    #[test]
    fn glyphs_comments_and_circles_make_the_text() {
        let a = MoveAnnotation {
            ply: 4,
            comment: Some("Aiming at f7.".to_owned()),
            nags: vec![1, 14, 250],
            arrows: vec![('G', Square::C4, Square::F7)],
            circles: vec![('G', Square::D4), ('R', Square::E5)],
            mark: None,
        };
        assert_eq!(
            annotation_text("Bc4", &a),
            "Bc4! (White is slightly better) Aiming at f7. (marked: d4, e5)"
        );
        assert_eq!(annotation_text("e4", &MoveAnnotation::default()), "e4");
        let glyphs: Vec<_> = (0..=7).map(nag_glyph).collect();
        assert_eq!(
            glyphs,
            [
                None,
                Some("!"),
                Some("?"),
                Some("!!"),
                Some("??"),
                Some("!?"),
                Some("?!"),
                None
            ]
        );
    }

    #[test]
    fn the_annotation_is_found_through_a_transposition_and_in_a_later_line() {
        // The first line reaches the position after 1.Nf3 d5 2.d4 without a word;
        // the second reaches it by 1.d4 d5 2.Nf3 and comments 2...Nf6.
        let g = graph("1. Nf3 d5 2. d4 Nf6 *\n\n1. d4 d5 2. Nf3 Nf6 {Solid.} $1 *\n");
        let (pos, nf6) = at(&["Nf3", "d5", "d4"], "Nf6");
        let note = move_annotation(&g, &pos, nf6).expect("a later line comments Nf6");
        assert_eq!(note.comment.as_deref(), Some("Solid."));
        assert_eq!(note.nags, [1]);
        assert_eq!(note.ply, 3);
    }

    #[test]
    fn a_comment_in_the_201st_line_through_a_move_is_found() {
        // Before the index the drill panel searched 200 lines per move and missed it.
        let mut pgn = "1. e4 e5 {Symmetry.} *\n\n".repeat(200);
        pgn.push_str("1. e4 {Best by test.} c5 *\n");
        let g = graph(&pgn);
        let (pos, e4) = at(&[], "e4");
        let note = move_annotation(&g, &pos, e4).expect("the last line comments e4");
        assert_eq!(note.comment.as_deref(), Some("Best by test."));
        let (pos, e5) = at(&["e4"], "e5");
        let note = move_annotation(&g, &pos, e5).expect("the first line comments e5");
        assert_eq!(note.comment.as_deref(), Some("Symmetry."));
    }

    #[test]
    fn a_move_without_words_or_outside_the_book_has_none() {
        let g = graph("1. e4 {Best by test.} e5 2. Nf3 *\n");
        let (pos, e5) = at(&["e4"], "e5");
        assert_eq!(move_annotation(&g, &pos, e5), None);
        let (pos, c5) = at(&["e4"], "c5");
        assert_eq!(move_annotation(&g, &pos, c5), None);
        let (pos, e4) = at(&[], "e4");
        let note = move_annotation(&g, &pos, e4).expect("e4 is commented");
        assert_eq!(annotation_text("e4", note), "e4 Best by test.");
    }
}
