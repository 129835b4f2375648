//! The repertoire file as a tree (`book::repertoire`): reading every fixture and writing it back gives the
//! same bytes, chapters that cannot be read are kept and reported, edits match an
//! independent model of the tree, and undoing every edit gives the original bytes.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use hastings::book::Side;
use hastings::book::line::{LineSource, OpeningLine};
use hastings::book::pgn::{ImportMode, ImportOptions, read_pgn};
use hastings::book::repertoire::{ChangeKind, Document, GameTree, NodeId};
use hastings::book::side::side_from_tags;
use hastings::book::{SourceId, chapters::chapters};
use proptest::prelude::*;
use shakmaty::{Position, Square};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(Path::new("tests/fixtures").join(name)).unwrap()
}

#[test]
fn every_fixture_writes_back_its_own_bytes() {
    let mut checked = 0;
    for entry in std::fs::read_dir("tests/fixtures").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "pgn") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let doc = Document::read(&bytes);
        assert!(doc.to_pgn() == bytes, "{} changed", path.display());
        assert!(!doc.is_dirty());
        checked += 1;
    }
    assert!(checked >= 15, "{checked}");
}

/// What the importer reads from `chapter`'s text, and what the tree gives without the
/// text (the Repertoire tab's book), with the same source.
fn lines_both_ways(
    chapter: &hastings::book::repertoire::Chapter,
) -> Option<(Vec<OpeningLine>, Vec<OpeningLine>)> {
    let tree = chapter.tree()?;
    let source = LineSource::Pgn {
        source: SourceId(1),
        game: 1,
    };
    let options = ImportOptions {
        mode: ImportMode::Repertoire,
        max_plies: None,
    };
    let read = read_pgn(&*chapter.text(), SourceId(1), &options, None)
        .ok()?
        .lines;
    Some((read, tree.opening_lines(source)))
}

#[test]
fn every_fixture_chapter_gives_the_lines_the_importer_reads_from_its_text() {
    let (mut chapters, mut lines) = (0, 0);
    for entry in std::fs::read_dir("tests/fixtures").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "pgn") {
            continue;
        }
        let doc = Document::read(&std::fs::read(&path).unwrap());
        for (i, chapter) in doc.chapters().iter().enumerate() {
            let Some((read, made)) = lines_both_ways(chapter) else {
                continue;
            };
            // A chapter the importer finds a problem in has its lines marked truncated;
            // the tree's are whole.
            if read.iter().any(|l| l.truncated) {
                continue;
            }
            assert_eq!(made, read, "{} chapter {}", path.display(), i + 1);
            chapters += 1;
            lines += read.len();
        }
    }
    // Counted on this fixture set: comments, arrows, NAGs, FEN starts, study chapters.
    assert!(
        chapters >= 1_000 && lines >= 2_000,
        "{chapters} chapters, {lines} lines"
    );
}

#[test]
fn the_study_fixture_reads_into_chapters_with_their_comments_and_commands() {
    let doc = Document::read(&fixture("study_chapters.pgn"));
    assert_eq!(doc.chapters().len(), 4);
    assert!(doc.issues().is_empty(), "{:?}", doc.issues());
    let tree = doc.chapter(0).unwrap().tree().unwrap();
    assert_eq!(
        tree.root().comment(),
        Some("Black meets 1.e4 with a solid pawn chain.")
    );
    let e6 = doc.node_at(0, "1. e4 e6").unwrap();
    let node = tree.node(e6).unwrap();
    assert_eq!(node.comment(), Some("[%csl Ge6,Gd5]"));
    assert_eq!(node.annotation().circles.len(), 2);
    // 3. Nc3 has two variations, in file order.
    let d5 = doc.node_at(0, "1. e4 e6 2. d4 d5").unwrap();
    let sans: Vec<String> = tree
        .node(d5)
        .unwrap()
        .children()
        .iter()
        .map(|&c| tree.node(c).unwrap().mv().unwrap().1.to_string())
        .collect();
    assert_eq!(sans, ["Nc3", "Nd2", "e5"]);
    assert_eq!(doc.chapter(0).unwrap().title(1), "Chapter 1 - Introduction");
}

#[test]
fn an_unreadable_chapter_is_kept_and_reported_and_the_others_load() {
    let bytes = fixture("illegal.pgn");
    let doc = Document::read(&bytes);
    let issues = doc.issues();
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].chapter, 2);
    assert!(issues[0].reason.contains("illegal"), "{}", issues[0]);
    assert!(issues[0].ply > 0);
    assert!(doc.chapter(0).unwrap().tree().is_some());
    let err = doc.node_at(1, "e4").unwrap_err();
    assert!(
        err.to_string().contains("chapter 2 cannot be edited"),
        "{err}"
    );
    // An edit elsewhere keeps the bad chapter's bytes.
    let mut doc = doc;
    doc.add_move(0, GameTree::ROOT, "a3").unwrap();
    let text = doc.to_pgn();
    let bad = &bytes[find_chapter(&bytes, 1)..find_chapter(&bytes, 2)];
    assert!(text.windows(bad.len()).any(|w| w == bad));
}

/// The byte offset of chapter `n` (from 0) of a file whose games all start with `[Event`.
fn find_chapter(bytes: &[u8], n: usize) -> usize {
    let starts: Vec<usize> = (0..bytes.len())
        .filter(|&i| bytes[i..].starts_with(b"[Event") && (i == 0 || bytes[i - 1] == b'\n'))
        .collect();
    starts[n]
}

#[test]
fn a_new_black_repertoire_is_read_back_as_black() {
    let mut doc = Document::new_repertoire(Side::Black, "My Caro-Kann");
    let e4 = doc.add_move(0, GameTree::ROOT, "e4").unwrap().node.unwrap();
    doc.add_move(0, e4, "c6").unwrap();
    let text = doc.to_pgn();
    let import = read_pgn(&text[..], SourceId(1), &ImportOptions::default(), None).unwrap();
    let chapters = chapters(&import.lines);
    assert_eq!(chapters.len(), 1);
    assert_eq!(chapters[0].tagged, Some(Side::Black));
    assert_eq!(chapters[0].title, "My Caro-Kann");
    let again = Document::read(&text);
    assert_eq!(
        side_from_tags(again.chapter(0).unwrap().tree().unwrap().tags()),
        Some(Side::Black)
    );
}

#[test]
fn an_existing_move_is_selected_not_added_twice() {
    let mut doc = Document::read(&fixture("repertoire.pgn"));
    let c = doc.add_move(0, GameTree::ROOT, "e4").unwrap();
    assert_eq!(c.kind, ChangeKind::MoveSelected);
    assert!(!doc.can_undo() && !doc.is_dirty());
    let e4 = doc.node_at(0, "e4").unwrap();
    assert_eq!(c.node, Some(e4));
}

#[test]
fn arrows_and_circles_go_into_the_comment_keeping_its_text() {
    let bytes = fixture("repertoire.pgn");
    let mut doc = Document::read(&bytes);
    let bc4 = doc.node_at(0, "1. e4 e5 2. Nf3 Nc6 3. Bc4").unwrap();
    doc.set_marks(
        0,
        bc4,
        &[('R', Square::C4, Square::F7)],
        &[('G', Square::E5)],
    )
    .unwrap();
    let note = doc
        .chapter(0)
        .unwrap()
        .tree()
        .unwrap()
        .node(bc4)
        .unwrap()
        .annotation();
    assert_eq!(note.comment.as_deref(), Some("Aiming at f7."));
    assert_eq!(note.arrows, [('R', Square::C4, Square::F7)]);
    assert_eq!(note.circles, [('G', Square::E5)]);
    let text = String::from_utf8(doc.to_pgn()).unwrap().replace('\n', " ");
    assert!(
        text.contains("3. Bc4 {[%csl Ge5] [%cal Rc4f7] Aiming at f7.}"),
        "{text}"
    );
    doc.undo().unwrap();
    assert_eq!(doc.to_pgn(), bytes);
}

#[test]
fn chapters_are_added_renamed_moved_and_deleted_and_undone() {
    let bytes = fixture("study_chapters.pgn");
    let mut doc = Document::read(&bytes);
    use hastings::book::repertoire::Op;
    doc.apply(&Op::AddChapter {
        index: 1,
        title: "New one".into(),
        side: Side::White,
    })
    .unwrap();
    doc.apply(&Op::RenameChapter {
        chapter: 0,
        title: "Intro".into(),
    })
    .unwrap();
    doc.apply(&Op::MoveChapter { from: 3, to: 0 }).unwrap();
    doc.apply(&Op::RemoveChapter { chapter: 2 }).unwrap();
    assert_eq!(doc.chapters().len(), 4);
    let titles: Vec<String> = doc
        .chapters()
        .iter()
        .enumerate()
        .map(|(i, c)| c.title(i + 1))
        .collect();
    assert_eq!(titles[1], "Intro");
    let text = doc.to_pgn();
    let again = Document::read(&text);
    assert_eq!(again.chapters().len(), 4);
    assert!(again.issues().is_empty());
    while doc.can_undo() {
        doc.undo().unwrap();
    }
    assert_eq!(doc.to_pgn(), bytes);
    assert!(!doc.is_dirty());
    while doc.can_redo() {
        doc.redo().unwrap();
    }
    assert_eq!(doc.to_pgn(), text);
}

/// The independent model: a move's SAN, comment text, NAGs and children in order.
#[derive(Debug, Clone, PartialEq)]
struct Model {
    san: String,
    comment: Option<String>,
    nags: Vec<u8>,
    children: Vec<Model>,
}

fn model_of(tree: &GameTree, id: NodeId) -> Model {
    let node = tree.node(id).unwrap();
    let note = node.annotation();
    Model {
        san: node.mv().map(|(_, s)| s.to_string()).unwrap_or_default(),
        comment: note.comment,
        nags: node.nags().to_vec(),
        children: node.children().iter().map(|&c| model_of(tree, c)).collect(),
    }
}

fn model_at<'a>(m: &'a mut Model, path: &[usize]) -> &'a mut Model {
    match path.split_first() {
        None => m,
        Some((&i, rest)) => model_at(&mut m.children[i], rest),
    }
}

/// Every node as its child-index path from the root.
fn paths(m: &Model, prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    out.push(prefix.clone());
    for (i, c) in m.children.iter().enumerate() {
        prefix.push(i);
        paths(c, prefix, out);
        prefix.pop();
    }
}

fn node_of(doc: &Document, path: &[usize]) -> NodeId {
    let tree = doc.chapter(0).unwrap().tree().unwrap();
    let mut at = GameTree::ROOT;
    for &i in path {
        at = tree.node(at).unwrap().children()[i];
    }
    at
}

#[derive(Debug, Clone)]
enum Action {
    Add(usize),
    Delete,
    Promote,
    PromoteToMain,
    Comment(String),
    Nag(u8),
    Undo,
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        3 => (0usize..40).prop_map(Action::Add),
        1 => Just(Action::Delete),
        1 => Just(Action::Promote),
        1 => Just(Action::PromoteToMain),
        1 => "([a-z]{1,6}( [a-z]{1,6})?)?".prop_map(Action::Comment),
        1 => (1u8..8).prop_map(Action::Nag),
        1 => Just(Action::Undo),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_edits_match_the_model_and_undo_restores_the_bytes(
        steps in proptest::collection::vec((any::<prop::sample::Index>(), action()), 1..25)
    ) {
        let bytes = fixture("repertoire.pgn");
        let mut doc = Document::read(&bytes);
        let mut model = model_of(doc.chapter(0).unwrap().tree().unwrap(), GameTree::ROOT);
        // The model's states before each applied edit, for undo.
        let mut before: Vec<Model> = Vec::new();
        for (pick, action) in steps {
            let mut all = Vec::new();
            paths(&model, &mut Vec::new(), &mut all);
            let path = pick.get(&all).clone();
            let node = node_of(&doc, &path);
            let index = path.last().copied();
            let snapshot = model.clone();
            let done = match &action {
                Action::Add(k) => {
                    let tree = doc.chapter(0).unwrap().tree().unwrap();
                    let pos = tree.node(node).unwrap().position().clone();
                    let moves = pos.legal_moves();
                    if moves.is_empty() { continue; }
                    let mv = moves[k % moves.len()];
                    let san = shakmaty::san::San::from_move(&pos, mv).to_string();
                    let change = doc.add_move(0, node, &san).unwrap();
                    let m = model_at(&mut model, &path);
                    if m.children.iter().any(|c| c.san == san) {
                        prop_assert_eq!(change.kind, ChangeKind::MoveSelected);
                        false
                    } else {
                        m.children.push(Model { san, comment: None, nags: vec![], children: vec![] });
                        true
                    }
                }
                Action::Delete => match index {
                    None => { prop_assert!(doc.delete(0, node).is_err()); false }
                    Some(i) => {
                        doc.delete(0, node).unwrap();
                        model_at(&mut model, &path[..path.len() - 1]).children.remove(i);
                        true
                    }
                },
                Action::Promote | Action::PromoteToMain => {
                    let main = matches!(action, Action::PromoteToMain);
                    let result = if main { doc.promote_to_main(0, node) } else { doc.promote(0, node) };
                    match index {
                        Some(i) if i > 0 => {
                            result.unwrap();
                            let parent = model_at(&mut model, &path[..path.len() - 1]);
                            let child = parent.children.remove(i);
                            parent.children.insert(if main { 0 } else { i - 1 }, child);
                            true
                        }
                        _ => { prop_assert!(result.is_err()); false }
                    }
                }
                Action::Comment(text) => {
                    doc.set_comment(0, node, text).unwrap();
                    model_at(&mut model, &path).comment = (!text.is_empty()).then(|| text.clone());
                    true
                }
                Action::Nag(nag) => {
                    let m = model_at(&mut model, &path);
                    let result = doc.add_nag(0, node, *nag);
                    if index.is_none() || m.nags.contains(nag) {
                        prop_assert!(result.is_err());
                        false
                    } else {
                        result.unwrap();
                        m.nags.push(*nag);
                        true
                    }
                }
                Action::Undo => {
                    match before.pop() {
                        Some(old) => { doc.undo().unwrap(); model = old; }
                        None => prop_assert!(doc.undo().is_err()),
                    }
                    continue;
                }
            };
            if done {
                before.push(snapshot);
            }
            let got = model_of(doc.chapter(0).unwrap().tree().unwrap(), GameTree::ROOT);
            prop_assert_eq!(&got, &model);
        }
        // What is written reads back to the same tree.
        let written = doc.to_pgn();
        let again = Document::read(&written);
        prop_assert!(again.issues().is_empty(), "{:?}", again.issues());
        prop_assert_eq!(model_of(again.chapter(0).unwrap().tree().unwrap(), GameTree::ROOT), model);
        // The tree's lines are those the importer reads from the text.
        let (read, made) = lines_both_ways(doc.chapter(0).unwrap()).unwrap();
        prop_assert_eq!(made, read);
        // The second chapter was not touched: its bytes are kept.
        prop_assert_eq!(again.chapter(1).unwrap().text(), doc.chapter(1).unwrap().text());
        while doc.can_undo() {
            doc.undo().unwrap();
        }
        prop_assert!(doc.to_pgn() == bytes);
        prop_assert!(!doc.is_dirty());
    }
}
