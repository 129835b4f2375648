//! The repertoire editor without a window: walking, editing, undo, saving, recovery.

use shakmaty::Square;
use shakmaty::san::San;

use super::*;

fn mv(pos: &Chess, san: &str) -> Move {
    san.parse::<San>().unwrap().to_move(pos).unwrap()
}

fn play(w: &mut RepertoireState, san: &str) {
    let pos = w.position().unwrap();
    w.apply(RepertoireCommand::Play(mv(&pos, san)));
}

fn temp() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hastings-repertoire-editor-{}-{}",
        std::process::id(),
        rand::random::<u64>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn new_white(dir: &Path) -> RepertoireState {
    let mut w = RepertoireState::with_data_dir(Some(dir.join("data")));
    w.apply(RepertoireCommand::New(Side::White, dir.join("rep.pgn")));
    assert!(w.file().is_some(), "{:?}", w.message());
    w
}

#[test]
fn moves_are_added_only_with_add_moves_on() {
    let dir = temp();
    let mut w = new_white(&dir);
    play(&mut w, "e4");
    assert_eq!(w.beyond().len(), 1, "browsing adds nothing");
    assert!(!w.is_dirty());
    w.apply(RepertoireCommand::Back);
    w.apply(RepertoireCommand::SetAddMoves(true));
    for san in ["e4", "e5", "Nf3"] {
        play(&mut w, san);
    }
    assert!(w.beyond().is_empty());
    assert_eq!(w.tree().unwrap().path_sans(w.node()), ["e4", "e5", "Nf3"]);
    // An existing move is selected, not added again.
    w.apply(RepertoireCommand::ToStart);
    play(&mut w, "e4");
    assert_eq!(w.tree().unwrap().root().children().len(), 1);
    assert!(w.is_dirty());
}

#[test]
fn moves_beyond_the_tree_are_added_with_the_move_played() {
    let dir = temp();
    let mut w = new_white(&dir);
    play(&mut w, "d4");
    play(&mut w, "d5");
    w.apply(RepertoireCommand::SetAddMoves(true));
    play(&mut w, "c4");
    assert_eq!(w.tree().unwrap().path_sans(w.node()), ["d4", "d5", "c4"]);
}

#[test]
fn arrows_walk_the_main_line_and_the_variations() {
    let dir = temp();
    let mut w = new_white(&dir);
    w.apply(RepertoireCommand::SetAddMoves(true));
    for san in ["e4", "e5", "Nf3"] {
        play(&mut w, san);
    }
    w.apply(RepertoireCommand::Back);
    w.apply(RepertoireCommand::Back);
    play(&mut w, "c5");
    w.apply(RepertoireCommand::Back);
    play(&mut w, "e6");
    let sans = |w: &RepertoireState| w.tree().unwrap().path_sans(w.node());
    assert_eq!(sans(&w), ["e4", "e6"]);
    w.apply(RepertoireCommand::NextVariation);
    assert_eq!(sans(&w), ["e4", "e5"], "↓ wraps to the main line");
    w.apply(RepertoireCommand::PreviousVariation);
    assert_eq!(sans(&w), ["e4", "e6"]);
    w.apply(RepertoireCommand::PreviousVariation);
    assert_eq!(sans(&w), ["e4", "c5"]);
    w.apply(RepertoireCommand::ToStart);
    w.apply(RepertoireCommand::ToEnd);
    assert_eq!(sans(&w), ["e4", "e5", "Nf3"]);
    w.apply(RepertoireCommand::Forward);
    assert_eq!(sans(&w), ["e4", "e5", "Nf3"], "the end stays");
}

#[test]
fn undo_restores_the_bytes_and_the_cursor_stays_in_the_tree() {
    let dir = temp();
    let mut w = new_white(&dir);
    let original = std::fs::read(dir.join("rep.pgn")).unwrap();
    w.apply(RepertoireCommand::SetAddMoves(true));
    for san in ["e4", "e5", "Nf3", "Nc6"] {
        play(&mut w, san);
    }
    let e5 = w.document().unwrap().node_at(0, "e4 e5").unwrap();
    w.apply(RepertoireCommand::Comment(e5, "Open game".into()));
    w.apply(RepertoireCommand::ToggleNag(e5, 1));
    w.apply(RepertoireCommand::Delete(e5));
    assert_eq!(w.tree().unwrap().path_sans(w.node()), ["e4"]);
    while w.can_undo() {
        w.apply(RepertoireCommand::Undo);
        assert!(w.tree().unwrap().contains(w.node()));
    }
    assert_eq!(w.document().unwrap().to_pgn(), original);
    assert!(!w.is_dirty());
}

/// A new white repertoire in `dir` with 1.e4 added, while another program wrote 1.d4
/// to its file; then "Save" was asked for.
fn saved_after_a_change_on_disk(dir: &Path) -> (RepertoireState, PathBuf) {
    let mut w = new_white(dir);
    let path = dir.join("rep.pgn");
    w.apply(RepertoireCommand::SetAddMoves(true));
    play(&mut w, "e4");
    std::fs::write(&path, "[Event \"Elsewhere\"]\n\n1. d4 *\n").unwrap();
    w.apply(RepertoireCommand::Save);
    (w, path)
}

#[test]
fn a_file_changed_on_disk_is_not_overwritten_without_asking() {
    let dir = temp();
    let (mut w, path) = saved_after_a_change_on_disk(&dir);
    assert!(matches!(w.question(), Some(Question::Conflict { .. })));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "[Event \"Elsewhere\"]\n\n1. d4 *\n"
    );
    w.apply(RepertoireCommand::SaveAs(dir.join("mine.pgn")));
    assert!(w.question().is_none());
    assert!(
        std::fs::read_to_string(dir.join("mine.pgn"))
            .unwrap()
            .contains("1. e4")
    );
    assert_eq!(w.file().unwrap().path(), dir.join("mine.pgn"));
}

#[test]
fn reload_drops_the_edits_and_overwrite_writes() {
    let dir = temp();
    let (mut w, path) = saved_after_a_change_on_disk(&dir);
    w.apply(RepertoireCommand::Reload);
    assert!(w.question().is_none());
    assert!(!w.is_dirty());
    let tree = w.tree().unwrap();
    assert_eq!(tree.path_sans(tree.main_line(GameTree::ROOT)[0]), ["d4"]);
    w.apply(RepertoireCommand::Forward);
    play(&mut w, "d5");
    std::fs::write(&path, "changed again\n").unwrap();
    w.apply(RepertoireCommand::Save);
    w.apply(RepertoireCommand::Overwrite);
    assert!(std::fs::read_to_string(&path).unwrap().contains("1. d4 d5"));
}

#[test]
fn unsaved_edits_are_offered_at_the_next_open() {
    let dir = temp();
    let path = dir.join("rep.pgn");
    {
        let mut w = new_white(&dir);
        w.apply(RepertoireCommand::SetAddMoves(true));
        play(&mut w, "e4");
        // Dropped without saving or closing, as a crash would.
        std::mem::forget(w);
    }
    let mut w = RepertoireState::with_data_dir(Some(dir.join("data")));
    w.apply(RepertoireCommand::Open(path.clone()));
    assert!(matches!(w.question(), Some(Question::Recover(r)) if r.unsaved == 1));
    w.apply(RepertoireCommand::Recover);
    assert!(w.is_dirty());
    assert!(w.document().unwrap().node_at(0, "e4").is_ok());
    w.close();
    let mut again = RepertoireState::with_data_dir(Some(dir.join("data")));
    again.apply(RepertoireCommand::Open(path));
    assert!(again.question().is_some(), "still unsaved: asked again");
    again.apply(RepertoireCommand::DiscardRecovery);
    assert!(again.question().is_none());
    assert!(again.document().unwrap().node_at(0, "e4").is_err());
}

#[test]
fn chapters_are_added_renamed_moved_and_deleted_with_undo() {
    let dir = temp();
    let mut w = new_white(&dir);
    w.apply(RepertoireCommand::AddChapter(
        "Sicilian".into(),
        Side::White,
    ));
    assert_eq!(w.chapter(), 1);
    w.apply(RepertoireCommand::RenameChapter(1, "Anti-Sicilian".into()));
    w.apply(RepertoireCommand::MoveChapter(1, 0));
    let doc = w.document().unwrap();
    assert_eq!(doc.chapter(0).unwrap().title(1), "Anti-Sicilian");
    w.apply(RepertoireCommand::RemoveChapter(0));
    assert_eq!(w.document().unwrap().chapters().len(), 1);
    w.apply(RepertoireCommand::Undo);
    assert_eq!(w.document().unwrap().chapters().len(), 2);
    assert!(w.chapter() < 2);
}

#[test]
fn marks_are_saved_in_the_comment() {
    let dir = temp();
    let mut w = new_white(&dir);
    w.apply(RepertoireCommand::SetAddMoves(true));
    play(&mut w, "e4");
    let node = w.node();
    w.apply(RepertoireCommand::Marks(
        node,
        vec![('G', Square::G1, Square::F3)],
        vec![('R', Square::D5)],
    ));
    let a = w.tree().unwrap().node(node).unwrap().annotation();
    assert_eq!(a.arrows, [('G', Square::G1, Square::F3)]);
}

#[test]
fn the_same_mark_again_takes_it_away_and_another_colour_replaces_it() {
    let dir = temp();
    let mut w = new_white(&dir);
    w.apply(RepertoireCommand::SetAddMoves(true));
    play(&mut w, "e4");
    let node = w.node();
    let note = |w: &RepertoireState| w.tree().unwrap().node(node).unwrap().annotation();
    w.apply(RepertoireCommand::ToggleArrow('G', Square::G1, Square::F3));
    w.apply(RepertoireCommand::ToggleCircle('G', Square::E5));
    assert_eq!(note(&w).arrows, [('G', Square::G1, Square::F3)]);
    w.apply(RepertoireCommand::ToggleArrow('R', Square::G1, Square::F3));
    assert_eq!(note(&w).arrows, [('R', Square::G1, Square::F3)]);
    w.apply(RepertoireCommand::ToggleArrow('R', Square::G1, Square::F3));
    w.apply(RepertoireCommand::ToggleCircle('G', Square::E5));
    assert!(note(&w).arrows.is_empty());
    assert!(note(&w).circles.is_empty());
    // Past the tree there is no move to mark.
    play(&mut w, "e5");
    w.apply(RepertoireCommand::SetAddMoves(false));
    play(&mut w, "Nf3");
    w.apply(RepertoireCommand::ToggleCircle('G', Square::E5));
    assert!(w.message().is_some());
}

#[test]
fn saves_keep_backups_and_one_is_restored() {
    let dir = temp();
    let mut w = new_white(&dir);
    let path = dir.join("rep.pgn");
    let first = std::fs::read(&path).unwrap();
    w.apply(RepertoireCommand::SetAddMoves(true));
    play(&mut w, "e4");
    w.apply(RepertoireCommand::Save);
    assert_eq!(w.backups().len(), 1);
    assert_eq!(std::fs::read(&w.backups()[0].path).unwrap(), first);
    play(&mut w, "e5");
    let backup = w.backups()[0].path.clone();
    w.apply(RepertoireCommand::RestoreBackup(backup.clone()));
    assert!(
        w.message().unwrap().contains("Save or undo"),
        "unsaved edits: refused"
    );
    w.apply(RepertoireCommand::Undo);
    w.apply(RepertoireCommand::RestoreBackup(backup));
    assert_eq!(std::fs::read(&path).unwrap(), first);
    assert_eq!(w.document().unwrap().to_pgn(), first);
    assert_eq!(w.backups().len(), 2, "the replaced version is a backup too");
}

#[test]
fn reload_of_a_file_gone_keeps_the_edits() {
    let dir = temp();
    let mut w = new_white(&dir);
    w.apply(RepertoireCommand::SetAddMoves(true));
    play(&mut w, "e4");
    std::fs::remove_file(dir.join("rep.pgn")).unwrap();
    w.apply(RepertoireCommand::Save);
    assert!(matches!(
        w.question(),
        Some(Question::Conflict { gone: true, .. })
    ));
    w.apply(RepertoireCommand::Reload);
    assert!(w.message().unwrap().contains("Not reloaded"));
    assert!(w.is_dirty(), "the edits are still there");
    w.apply(RepertoireCommand::Overwrite);
    assert!(
        std::fs::read_to_string(dir.join("rep.pgn"))
            .unwrap()
            .contains("1. e4")
    );
}

#[test]
fn opening_another_file_keeps_the_unsaved_edits_for_later() {
    let dir = temp();
    let mut w = new_white(&dir);
    w.apply(RepertoireCommand::SetAddMoves(true));
    play(&mut w, "e4");
    w.apply(RepertoireCommand::New(Side::Black, dir.join("black.pgn")));
    assert!(
        w.message().unwrap().contains("are kept"),
        "{:?}",
        w.message()
    );
    w.apply(RepertoireCommand::Open(dir.join("rep.pgn")));
    assert!(matches!(w.question(), Some(Question::Recover(_))));
}

#[test]
fn an_edit_without_a_file_says_so() {
    let mut w = RepertoireState::default();
    w.apply(RepertoireCommand::AddChapter("One".into(), Side::White));
    assert_eq!(w.message(), Some("Open or create a repertoire first."));
}
