//! The repertoire document through a file: random edits of every kind (moves,
//! comments with PGN's special characters, glyphs, arrows, chapters added, renamed,
//! moved and removed) on a multi-chapter study, saved to disk by
//! [`RepertoireFile::save`] and opened again, read back equal; and any bytes read and
//! written unedited give the same bytes.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use hastings::book::Side;
use hastings::book::repertoire::{Document, GameTree, NodeId, Op};
use hastings::workspace::repertoire_file::{RepertoireFile, SaveOutcome};
use proptest::prelude::*;
use proptest::sample::Index;
use shakmaty::Position;

use crate::common;

/// A chapter as a reader sees it: title, side, and its tree (or its text when it
/// cannot be read).
#[derive(Debug, Clone, PartialEq)]
enum Seen {
    Tree {
        title: String,
        side: Option<Side>,
        root: Node,
    },
    Unread(Vec<u8>),
}

/// A move's SAN, comment, glyphs, and children in order.
#[derive(Debug, Clone, PartialEq)]
struct Node {
    san: String,
    comment: Option<String>,
    starting: Option<String>,
    nags: Vec<u8>,
    children: Vec<Node>,
}

/// A comment's words: the writer breaks long lines inside comments, and a line break
/// in a comment is a space (see `book::repertoire::write`).
fn words(comment: Option<&str>) -> Option<String> {
    comment.map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn node(tree: &GameTree, id: NodeId) -> Node {
    let n = tree.node(id).unwrap();
    Node {
        san: n.mv().map(|(_, s)| s.to_string()).unwrap_or_default(),
        comment: words(n.comment()),
        starting: words(n.starting_comment()),
        nags: n.nags().to_vec(),
        children: n.children().iter().map(|&c| node(tree, c)).collect(),
    }
}

fn seen(doc: &Document) -> Vec<Seen> {
    doc.chapters()
        .iter()
        .enumerate()
        .map(|(i, c)| match c.tree() {
            Some(tree) => Seen::Tree {
                title: c.title(i + 1),
                side: c.side(),
                root: node(tree, GameTree::ROOT),
            },
            None => Seen::Unread(c.text().into_owned()),
        })
        .collect()
}

/// One random edit: which chapter, which node, what.
#[derive(Debug, Clone)]
enum Edit {
    Add(usize),
    Delete,
    Promote,
    PromoteToMain,
    Comment(String),
    Nag(u8),
    RemoveNag(u8),
    Arrow(u8, u8),
    AddChapter(String, bool),
    Rename(String),
    RemoveChapter,
    MoveChapter(Index),
}

/// Text with what PGN treats specially: braces, semicolons, `%`, brackets, quotes,
/// backslashes, new lines and letters beyond ASCII.
fn text() -> impl Strategy<Value = String> {
    "[a-z0-9 {};%\\[\\]\"\\\\\né♞]{0,14}"
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (0usize..40).prop_map(Edit::Add),
        1 => Just(Edit::Delete),
        1 => Just(Edit::Promote),
        1 => Just(Edit::PromoteToMain),
        2 => text().prop_map(Edit::Comment),
        1 => (1u8..20).prop_map(Edit::Nag),
        1 => (1u8..20).prop_map(Edit::RemoveNag),
        1 => (0u8..64, 0u8..64).prop_map(|(a, b)| Edit::Arrow(a, b)),
        1 => (text(), any::<bool>()).prop_map(|(t, w)| Edit::AddChapter(t, w)),
        1 => text().prop_map(Edit::Rename),
        1 => Just(Edit::RemoveChapter),
        1 => any::<Index>().prop_map(Edit::MoveChapter),
    ]
}

/// The op of `edit` at chapter `chapter`'s node `at`, or `None` when it has no move to
/// play.
fn op_of(doc: &Document, chapter: usize, at: NodeId, edit: &Edit) -> Option<Op> {
    let square = |i: u8| shakmaty::Square::new(u32::from(i));
    Some(match edit {
        Edit::Add(k) => {
            let tree = doc.chapter(chapter)?.tree()?;
            let pos = tree.node(at)?.position().clone();
            let moves = pos.legal_moves();
            let mv = *moves.get(k % moves.len().max(1))?;
            Op::AddMove {
                chapter,
                at,
                san: shakmaty::san::San::from_move(&pos, mv).to_string(),
            }
        }
        Edit::Delete => Op::Delete { chapter, node: at },
        Edit::Promote => Op::Promote { chapter, node: at },
        Edit::PromoteToMain => Op::PromoteToMain { chapter, node: at },
        Edit::Comment(text) => Op::SetComment {
            chapter,
            node: at,
            text: text.clone(),
        },
        Edit::Nag(nag) => Op::AddNag {
            chapter,
            node: at,
            nag: *nag,
        },
        Edit::RemoveNag(nag) => Op::RemoveNag {
            chapter,
            node: at,
            nag: *nag,
        },
        Edit::Arrow(a, b) => Op::SetMarks {
            chapter,
            node: at,
            arrows: vec![('G', square(*a), square(*b))],
            circles: vec![('R', square(*b))],
        },
        Edit::AddChapter(title, white) => Op::AddChapter {
            index: chapter,
            title: title.clone(),
            side: if *white { Side::White } else { Side::Black },
        },
        Edit::Rename(title) => Op::RenameChapter {
            chapter,
            title: title.clone(),
        },
        Edit::RemoveChapter => Op::RemoveChapter { chapter },
        Edit::MoveChapter(to) => Op::MoveChapter {
            from: chapter,
            to: to.index(doc.chapters().len()),
        },
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn edits_saved_to_a_file_read_back_equal(
        steps in proptest::collection::vec((any::<Index>(), any::<Index>(), edit()), 1..20)
    ) {
        let dir = common::temp_dir("repertoire-roundtrip");
        let path = dir.join("study.pgn");
        std::fs::copy(Path::new("tests/fixtures/study_chapters.pgn"), &path).unwrap();
        let mut file = RepertoireFile::open(&path, None).unwrap();
        for (chapter, at, edit) in &steps {
            let doc = file.document();
            if doc.chapters().is_empty() {
                break;
            }
            let chapter = chapter.index(doc.chapters().len());
            let nodes = doc.chapter(chapter).unwrap().tree().map(GameTree::walk).unwrap_or_default();
            let at = if nodes.is_empty() { GameTree::ROOT } else { *at.get(&nodes) };
            if let Some(op) = op_of(doc, chapter, at, edit) {
                // A refused edit (a glyph already there, the root deleted) changes nothing.
                let _ = file.edit(&op);
            }
        }
        let expected = seen(file.document());
        let written = file.document().to_pgn();
        prop_assert_eq!(file.save().unwrap(), SaveOutcome::Saved { backup: None });
        prop_assert!(std::fs::read(&path).unwrap() == written);
        let again = RepertoireFile::open(&path, None).unwrap();
        prop_assert!(again.document().issues().is_empty(), "{:?}", again.document().issues());
        prop_assert_eq!(seen(again.document()), expected);
        // Written again unedited, the file keeps its bytes.
        prop_assert!(again.document().to_pgn() == written);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn any_text_read_and_written_unedited_keeps_its_bytes(
        bytes in proptest::collection::vec(
            prop_oneof![
                Just(b"[Event \"x\"]\n".to_vec()),
                Just(b"1. e4 e5 ".to_vec()),
                Just(b"(2. Nf3 ".to_vec()),
                Just(b") ".to_vec()),
                Just(b"{ a } ".to_vec()),
                Just(b"; rest\n".to_vec()),
                Just(b"$1 ".to_vec()),
                Just(b"*\n\n".to_vec()),
                proptest::collection::vec(any::<u8>(), 0..6),
            ],
            0..30,
        )
    ) {
        let bytes: Vec<u8> = bytes.concat();
        let doc = Document::read(&bytes);
        prop_assert!(doc.to_pgn() == bytes);
    }
}
