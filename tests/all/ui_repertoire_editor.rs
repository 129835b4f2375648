//! The Repertoire tab, driven through the real widgets with egui_kittest: building a
//! White repertoire from nothing (new, moves with "Add moves", a variation, a comment, a
//! glyph, an arrow and a circle with the right button, save), reading it back, reopening and drilling it; a file changed on disk is
//! never overwritten without asking; "Next gap" against the coverage code's own answer;
//! undo back to the original bytes.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::path::Path;

use eframe::egui::{self, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::book::pgn::read_pgn;
use hastings::book::repertoire::Document;
use hastings::book::{NodeKey, PositionGraph, SourceId};
use hastings::coach::settings::{Settings, Side};
use hastings::sampler::Style;
use hastings::trainer::Phase;
use hastings::trainer::coverage::{CoverageOptions, exposure};
use hastings::ui::TrainerApp;
use shakmaty::{Chess, Color, Position};

use crate::common;
use common::{eco, fixture, san_moves, square_label, temp_dir};

type H = Harness<'static, TrainerApp>;

fn window() -> H {
    let settings = Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..crate::common::settings()
    };
    let mut h = window_with(settings);
    h.get_by_label("Repertoire").click();
    h.run();
    h
}

/// A window with `settings`, showing the drill.
fn window_with(settings: Settings) -> H {
    let mut h = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        // The gaps are computed on a thread; the frames that show them need a few steps.
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut TrainerApp| app.frame_ui(ui),
            TrainerApp::new(eco(), settings),
        );
    h.run();
    h
}

/// Types `path` into the tab's file field.
fn type_path(h: &mut H, path: &Path) {
    let field = h.get_by_label("Or type its path");
    field.focus();
    field.type_text(&path.display().to_string());
    common::settle(h);
}

fn click(h: &mut H, label: &str) {
    h.get_by_label(label).click();
    common::settle(h);
}

/// Plays `san` on the Repertoire tab's board, by clicking its piece and its target.
fn play(h: &mut H, san: &str) {
    let pos = h.state().coach().repertoire().position().unwrap();
    let mv = hastings::book::movelist::parse_moves(&pos, san).unwrap()[0];
    h.get_by_label(&square_label(&pos, mv.from().unwrap()))
        .click();
    common::settle(h);
    h.get_by_label(&square_label(&pos, mv.to())).click();
    // The move's edit is saved and the book rebuilt in the background (a loaded
    // machine outlasts `run`'s steps).
    common::settle(h);
}

/// The SAN moves from the chapter's start to the cursor.
fn cursor(h: &H) -> Vec<String> {
    let w = h.state().coach().repertoire();
    w.tree().unwrap().path_sans(w.node())
}

/// Right-clicks the move labelled `label` in the tree and picks `item` in its menu.
fn move_menu(h: &mut H, label: &str, item: &str) {
    h.get_by_label(label).click_secondary();
    h.run();
    click(h, item);
}

/// Presses the right button on the square labelled `from` and lets it go on `to`, with
/// `modifiers` held.
fn right_drag(h: &mut H, from: &str, to: &str, modifiers: egui::Modifiers) {
    let a = h.get_by_label(from).rect().center();
    let b = h.get_by_label(to).rect().center();
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Secondary,
        pressed,
        modifiers,
    };
    h.event(egui::Event::PointerMoved(a));
    h.event_modifiers(button(a, true), modifiers);
    h.run();
    h.event(egui::Event::PointerMoved(b));
    h.event_modifiers(button(b, false), modifiers);
    h.run();
}

fn new_white(h: &mut H, path: &Path) {
    type_path(h, path);
    click(h, "New for White");
    assert!(
        path.exists(),
        "{:?}",
        h.state().coach().repertoire().message()
    );
}

#[test]
fn a_white_repertoire_is_built_from_nothing_saved_reopened_and_drilled() {
    let dir = temp_dir("repertoire-editor-build");
    let path = dir.join("mine.pgn");
    let mut h = window();
    new_white(&mut h, &path);

    // Browsing adds nothing.
    play(&mut h, "e4");
    assert!(!h.state().coach().repertoire().is_dirty());
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert!(h.state().coach().repertoire().beyond().is_empty());

    click(&mut h, "Add moves");
    for san in ["e4", "e5", "Nf3"] {
        play(&mut h, san);
    }
    assert_eq!(cursor(&h), ["e4", "e5", "Nf3"]);
    // A variation: back to 1.e4, then 1...c5 2.Nf3.
    click(&mut h, "1. e4");
    assert_eq!(cursor(&h), ["e4"]);
    play(&mut h, "c5");
    play(&mut h, "Nf3");
    assert_eq!(cursor(&h), ["e4", "c5", "Nf3"]);
    // An existing move is selected, not added again.
    click(&mut h, "1. e4");
    play(&mut h, "e5");
    assert_eq!(cursor(&h), ["e4", "e5"]);

    // A comment and a glyph, through the moves' menus.
    move_menu(&mut h, "1... e5", "Comment…");
    let field = h.get_by_label("Comment");
    field.focus();
    field.type_text("The open game");
    h.run();
    click(&mut h, "Set comment");
    assert!(
        h.query_by_label("The open game").is_some(),
        "the tree shows it"
    );
    move_menu(&mut h, "1... c5", "!?");
    assert!(h.query_by_label("1... c5!?").is_some());
    assert!(h.query_by_label_contains("(unsaved)").is_some());

    // An arrow (a right-button drag) and a red circle (Shift and a right click) on 1...e5.
    click(&mut h, "1... e5");
    let pos = h.state().coach().repertoire().position().unwrap();
    let g1 = square_label(&pos, shakmaty::Square::G1);
    let f3 = square_label(&pos, shakmaty::Square::F3);
    let d4 = square_label(&pos, shakmaty::Square::D4);
    right_drag(&mut h, &g1, &f3, egui::Modifiers::NONE);
    right_drag(&mut h, &d4, &d4, egui::Modifiers::SHIFT);
    assert_eq!(cursor(&h), ["e4", "e5"], "the right button moves nothing");

    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run();
    assert!(!h.state().coach().repertoire().is_dirty());
    assert!(h.query_by_label_contains("(unsaved)").is_none());

    // Read back with the document model and the importer.
    let bytes = std::fs::read(&path).unwrap();
    let doc = Document::read(&bytes);
    assert!(doc.issues().is_empty());
    assert_eq!(doc.chapter(0).unwrap().side(), Some(Side::White));
    let tree = doc.tree(0).unwrap();
    let e5 = doc.node_at(0, "e4 e5").unwrap();
    let c5 = doc.node_at(0, "e4 c5").unwrap();
    let comment = tree.node(e5).unwrap().comment().unwrap();
    assert!(comment.contains("[%cal Gg1f3]"), "{comment}");
    assert!(comment.contains("[%csl Rd4]"), "{comment}");
    assert!(comment.ends_with("The open game"), "{comment}");
    assert_eq!(tree.node(c5).unwrap().nags(), [5]);
    let e4 = doc.node_at(0, "e4").unwrap();
    assert_eq!(
        tree.node(e4).unwrap().children(),
        [e5, c5],
        "e5 is the main line"
    );
    doc.node_at(0, "e4 e5 Nf3").unwrap();
    doc.node_at(0, "e4 c5 Nf3").unwrap();
    let import = read_pgn(
        bytes.as_slice(),
        SourceId(1),
        &common::import_options(hastings::book::ImportMode::Repertoire),
        None,
    )
    .unwrap();
    let lines: Vec<String> = import.lines.iter().map(common::line_sans).collect();
    assert_eq!(lines, ["e4 e5 Nf3", "e4 c5 Nf3"]);

    // Reopened in a new window, it shows the same tree.
    let mut h = window();
    type_path(&mut h, &path);
    click(&mut h, "Open");
    assert!(h.query_by_label("The open game").is_some());
    assert!(h.query_by_label("1... c5!?").is_some());
    assert_eq!(
        h.state().coach().repertoire().document().unwrap().to_pgn(),
        bytes
    );

    // Train this, from the start: the drill plays from the repertoire.
    click(&mut h, "Train this");
    // The repertoire's book is made on a thread; the drill starts when it is there.
    h.state_mut().coach_mut().finish_repertoire_gaps();
    h.run();
    assert_eq!(
        h.state().coach().repertoire_gaps().train_root(),
        Some(&[][..])
    );
    // The window shows the drill: its board is the drill's (the first rank's knights).
    assert!(h.query_by_label("Your move (White)").is_some());
    let session = h.state().coach().session();
    assert_eq!(session.learner(), Color::White);
    assert_eq!(*session.phase(), Phase::LearnerToMove);
    common::click_move(&mut h, san_moves("e4")[0]);
    h.run();
    let moves: Vec<String> = {
        let s = h.state().coach().session();
        let mut pos = Chess::default();
        s.moves()
            .iter()
            .map(|m| {
                let san = shakmaty::san::San::from_move(&pos, m.mv).to_string();
                pos.play_unchecked(m.mv);
                san
            })
            .collect()
    };
    assert_eq!(moves.len(), 2, "the computer answered: {moves:?}");
    assert!(
        moves[1] == "e5" || moves[1] == "c5",
        "the reply comes from the repertoire: {moves:?}"
    );
    // A move outside the repertoire is a mistake there.
    let pos = h.state().coach().session().position().clone();
    let d4 = hastings::book::movelist::parse_moves(&pos, "d4").unwrap()[0];
    common::click_move(&mut h, d4);
    h.run();
    assert!(matches!(
        h.state().coach().session().phase(),
        Phase::OutOfBook { .. }
    ));

    // 2.d4 added in the tab reaches the drill in the line being played: the mistake's
    // book moves include it, and trying again it is the repertoire's move.
    let reply = moves[1].clone();
    click(&mut h, "Repertoire");
    click(&mut h, "Add moves");
    h.key_press(egui::Key::Home);
    h.run();
    play(&mut h, "e4");
    play(&mut h, &reply);
    play(&mut h, "d4");
    h.state_mut().coach_mut().finish_repertoire_gaps();
    h.run();
    let session = h.state().coach().session();
    assert_eq!(session.moves().len(), 2, "the same line goes on");
    let Phase::OutOfBook { book_moves, .. } = session.phase() else {
        panic!("{:?}", session.phase());
    };
    assert!(book_moves.iter().any(|b| b.mv == d4), "{book_moves:?}");
    click(&mut h, "Style");
    click(&mut h, "Try again");
    common::click_move(&mut h, d4);
    h.run();
    assert!(
        !matches!(h.state().coach().session().phase(), Phase::OutOfBook { .. }),
        "2.d4 is in the repertoire now"
    );
    assert_eq!(h.state().coach().session().moves()[2].mv, d4);
}

#[test]
fn train_this_drills_the_chapters_ticked_and_the_choice_is_remembered() {
    let dir = temp_dir("repertoire-editor-train-chapters");
    let path = dir.join("mine.pgn");
    let mut h = window();
    new_white(&mut h, &path);
    click(&mut h, "Add moves");
    for san in ["e4", "e5", "Nf3"] {
        play(&mut h, san);
    }
    click(&mut h, "Add chapter");
    click(&mut h, "2. Chapter 2 (White)");
    for san in ["d4", "d5", "c4"] {
        play(&mut h, san);
    }
    // Chapter 2 left out: the drill from the start knows 1.e4 only.
    click(&mut h, "Drill chapter 2");
    h.key_press(egui::Key::Home);
    h.run();
    click(&mut h, "Train this");
    h.state_mut().coach_mut().finish_repertoire_gaps();
    h.run();
    let d4 = san_moves("d4")[0];
    common::click_move(&mut h, d4);
    h.run();
    let Phase::OutOfBook { book_moves, .. } = h.state().coach().session().phase() else {
        panic!("{:?}", h.state().coach().session().phase());
    };
    let sans: Vec<&str> = book_moves.iter().map(|b| b.san.as_str()).collect();
    assert_eq!(sans, ["e4"]);

    // Ticked again, it is drilled at once (the line being played goes on).
    click(&mut h, "Repertoire");
    click(&mut h, "Drill chapter 2");
    h.state_mut().coach_mut().finish_repertoire_gaps();
    h.run();
    let Phase::OutOfBook { book_moves, .. } = h.state().coach().session().phase() else {
        panic!("{:?}", h.state().coach().session().phase());
    };
    assert_eq!(book_moves.len(), 2, "{book_moves:?}");

    // Left out again and saved; the choice and the drill are taken up at the next
    // start.
    click(&mut h, "Drill chapter 2");
    click(&mut h, "Save");
    let settings = h.state().coach().settings().clone();
    assert_eq!(
        settings
            .repertoire_train
            .left_out
            .get(&path)
            .map(Vec::as_slice),
        Some(&["Chapter 2".to_owned()][..])
    );
    assert_eq!(
        settings.repertoire_train.drilling,
        Some((path.clone(), vec![]))
    );
    let mut h = window_with(settings);
    h.state_mut().coach_mut().finish_repertoire_gaps();
    h.run();
    assert_eq!(
        h.state().coach().repertoire_gaps().train_root(),
        Some(&[][..])
    );
    common::click_move(&mut h, d4);
    h.run();
    assert!(
        matches!(h.state().coach().session().phase(), Phase::OutOfBook { .. }),
        "chapter 2 is still left out: {:?}",
        h.state().coach().session().phase()
    );
}

/// Writes `text` over `path` as another program would.
fn change_on_disk(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_file_changed_on_disk_is_never_overwritten_without_asking() {
    let dir = temp_dir("repertoire-editor-conflict");
    let path = dir.join("mine.pgn");
    let mut h = window();
    new_white(&mut h, &path);
    click(&mut h, "Add moves");
    play(&mut h, "e4");
    let elsewhere = "[Event \"Elsewhere\"]\n[Orientation \"white\"]\n\n1. d4 d5 *\n";
    change_on_disk(&path, elsewhere);

    // Save: the question, and nothing written.
    click(&mut h, "Save");
    assert!(h.query_by_label("The file changed on disk").is_some());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), elsewhere);
    // Keys do not reach the tab while it asks.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), elsewhere);

    // Overwrite writes this version.
    click(&mut h, "Overwrite");
    assert!(h.query_by_label("The file changed on disk").is_none());
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.contains("1. e4"), "{written}");

    // Reload reads the file again, dropping the unsaved edits.
    play(&mut h, "e5");
    change_on_disk(&path, elsewhere);
    click(&mut h, "Save");
    click(&mut h, "Reload");
    assert!(!h.state().coach().repertoire().is_dirty());
    assert_eq!(
        h.state().coach().repertoire().document().unwrap().to_pgn(),
        elsewhere.as_bytes()
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), elsewhere);

    // Save as writes elsewhere and leaves the changed file alone.
    click(&mut h, "1. d4");
    play(&mut h, "d5");
    play(&mut h, "c4");
    change_on_disk(&path, "changed again\n");
    click(&mut h, "Save");
    // The field suggests a copy beside the file.
    let copy = dir.join("mine-2.pgn");
    assert!(h.query_by_label("New file").is_some());
    click(&mut h, "Save as");
    assert!(h.query_by_label("The file changed on disk").is_none());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "changed again\n");
    let saved = std::fs::read_to_string(&copy).unwrap();
    assert!(saved.contains("1. d4 d5 2. c4"), "{saved}");
    assert_eq!(h.state().coach().repertoire().file().unwrap().path(), copy);
}

/// The exposure the coverage code computes for `path` as White's repertoire against
/// ECO, with the Coverage tab's defaults (as the repertoire editor does).
fn coverage_gaps(path: &Path) -> Vec<(NodeKey, Vec<shakmaty::Move>)> {
    let bytes = std::fs::read(path).unwrap();
    let import = read_pgn(
        bytes.as_slice(),
        SourceId(1),
        &common::import_options(hastings::book::ImportMode::Repertoire),
        None,
    )
    .unwrap();
    let graph = PositionGraph::build(import.lines).graph;
    let ex = exposure(
        &graph,
        common::eco_graph(),
        &Style::neutral(),
        &CoverageOptions::new(Color::White),
    );
    ex.gaps().iter().map(|g| (g.key, g.moves.clone())).collect()
}

#[test]
fn next_gap_goes_to_the_most_likely_unanswered_position() {
    let dir = temp_dir("repertoire-editor-gaps");
    let path = dir.join("rep.pgn");
    let text = std::fs::read_to_string(fixture("compare_white.pgn")).unwrap();
    std::fs::write(
        &path,
        text.replace("[Result", "[Orientation \"white\"]\n[Result"),
    )
    .unwrap();
    let gaps = coverage_gaps(&path);
    assert!(gaps.len() >= 2, "the fixture has gaps: {}", gaps.len());

    let mut h = window();
    type_path(&mut h, &path);
    click(&mut h, "Open");
    h.state_mut().coach_mut().finish_repertoire_gaps();
    h.run();
    click(&mut h, "Next gap");
    let at = |h: &H| {
        let w = h.state().coach().repertoire();
        (NodeKey::from_position(&w.position().unwrap()), w.moves())
    };
    assert_eq!(at(&h), gaps[0], "the most likely gap");
    // Pressed again at a gap: the next one.
    click(&mut h, "Next gap");
    assert_eq!(at(&h), gaps[1]);

    // One move back, the tab lists the opponent's reply into the gap.
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    let w = h.state().coach().repertoire();
    let before = w.position().unwrap();
    let reply = gaps[1].1.last().copied().unwrap();
    let san = shakmaty::san::SanPlus::from_move(before, reply).to_string();
    assert!(
        h.query_by_label_contains(&format!("{san}  1 in")).is_some(),
        "{san} listed"
    );
}

#[test]
fn undo_restores_the_original_bytes() {
    let dir = temp_dir("repertoire-editor-undo");
    let path = dir.join("rep.pgn");
    std::fs::copy(fixture("repertoire.pgn"), &path).unwrap();
    let original = std::fs::read(&path).unwrap();
    let mut h = window();
    type_path(&mut h, &path);
    click(&mut h, "Open");
    let first = {
        let w = h.state().coach().repertoire();
        let tree = w.tree().unwrap();
        tree.path_sans(tree.root().children()[0])
    };
    assert_eq!(first.len(), 1);

    // Edits: moves added, a comment, a glyph, a move deleted, a chapter added.
    click(&mut h, "Add moves");
    h.key_press(egui::Key::ArrowRight);
    h.run();
    assert_eq!(cursor(&h), first);
    play(&mut h, "h6");
    play(&mut h, "h3");
    assert_eq!(cursor(&h).len(), 3);
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert_eq!(cursor(&h).last().map(String::as_str), Some("h6"));
    click(&mut h, "Add chapter");
    let chapters = Document::read(&original).chapters().len();
    assert_eq!(
        h.state()
            .coach()
            .repertoire()
            .document()
            .unwrap()
            .chapters()
            .len(),
        chapters + 1
    );
    assert!(h.state().coach().repertoire().is_dirty());

    // Ctrl+Z until nothing is left to undo: the original bytes.
    let mut undone = 0;
    while h.state().coach().repertoire().can_undo() {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
        h.run();
        undone += 1;
        assert!(undone < 20);
    }
    assert_eq!(undone, 3);
    assert_eq!(
        h.state().coach().repertoire().document().unwrap().to_pgn(),
        original
    );
    assert!(!h.state().coach().repertoire().is_dirty());
    // Redo (Ctrl+Shift+Z) brings the edits back.
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    h.run();
    assert!(h.state().coach().repertoire().is_dirty());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    click(&mut h, "Save");
    assert_eq!(std::fs::read(&path).unwrap(), original);
}

#[test]
fn a_missing_file_is_reported() {
    let dir = temp_dir("repertoire-editor-missing");
    let mut h = window();
    type_path(&mut h, &dir.join("nothing.pgn"));
    click(&mut h, "Open");
    assert!(h.state().coach().repertoire().file().is_none());
    assert!(h.query_by_label_contains("cannot read").is_some());
}

/// The window with its data folder in `dir/data` (backups, the journal) and `settings`.
fn window_with_data(dir: &Path, settings: Settings) -> H {
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let app = TrainerApp::with_progress_file(eco(), settings, Some(data.join("progress.ron")));
    let mut h = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
    common::settle(&mut h);
    h
}

#[test]
fn unsaved_edits_are_offered_at_the_next_start() {
    let dir = temp_dir("repertoire-editor-recover");
    let path = dir.join("mine.pgn");
    let settings = Settings {
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..crate::common::settings()
    };
    let mut h = window_with_data(&dir, settings);
    click(&mut h, "Repertoire");
    new_white(&mut h, &path);
    click(&mut h, "Add moves");
    play(&mut h, "e4");
    play(&mut h, "e5");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run();
    let saved = std::fs::read(&path).unwrap();
    play(&mut h, "Nf3");
    let settings = h.state().coach().settings().clone();
    assert_eq!(settings.repertoire_file.as_deref(), Some(path.as_path()));
    // The process dies without closing anything (as kill -9 would).
    std::mem::forget(h);

    let mut h = window_with_data(&dir, settings);
    assert!(
        h.query_by_label("Unsaved edits").is_some(),
        "asked at start"
    );
    assert!(h.query_by_label_contains("1 unsaved edit(s)").is_some());
    assert_eq!(
        std::fs::read(&path).unwrap(),
        saved,
        "the saved edits are on disk"
    );
    click(&mut h, "Recover");
    let w = h.state().coach().repertoire();
    assert!(w.is_dirty());
    w.document().unwrap().node_at(0, "e4 e5 Nf3").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), saved);
}

#[test]
fn new_for_black_asks_where_with_the_file_dialog() {
    let dir = temp_dir("repertoire-editor-dialog");
    let path = dir.join("black.pgn");
    let mut h = window();
    // The path field stands in for the system's dialog, as where there is none.
    h.state_mut().use_path_field_only();
    click(&mut h, "New for Black…");
    // It proposes a name; the path typed replaces it.
    h.get_by_label("Path").focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("Path")
        .type_text(&path.display().to_string());
    h.run();
    click(&mut h, "Create");
    assert!(
        path.exists(),
        "{:?}",
        h.state().coach().repertoire().message()
    );
    let doc = Document::read(&std::fs::read(&path).unwrap());
    assert_eq!(doc.chapter(0).unwrap().side(), Some(Side::Black));
    assert_eq!(h.state().coach().repertoire().file().unwrap().path(), path);
}

#[test]
fn a_long_chapter_is_drawn_around_the_move_selected() {
    let dir = temp_dir("repertoire-editor-long");
    let path = dir.join("long.pgn");
    // 1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 … for 1,600 plies, and 1. e4 as a variation.
    let mut text = String::from("[Event \"Long\"]\n[Orientation \"white\"]\n\n");
    for n in 1..=800 {
        let (w, b) = if n % 2 == 1 {
            ("Nf3", "Nf6")
        } else {
            ("Ng1", "Ng8")
        };
        text.push_str(&format!("{n}. {w} "));
        if n == 1 {
            text.push_str("(1. e4 e5) ");
        }
        text.push_str(&format!("{n}... {b} "));
    }
    text.push_str("*\n");
    std::fs::write(&path, text).unwrap();
    let mut h = window();
    type_path(&mut h, &path);
    click(&mut h, "Open");
    assert!(h.query_by_label("1. Nf3").is_some());
    assert!(h.query_by_label("1. e4").is_some());
    assert!(
        h.query_by_label("700. Ng1").is_none(),
        "far moves are folded"
    );
    // "…" goes to the first move left out, which is then drawn with its line.
    // (Far down the scrolled tree: clicked as a screen reader does.)
    h.get_by_label("…").click_accesskit();
    h.run();
    let at = cursor(&h).len();
    assert!(at > 500 && at < 700, "{at}");
    assert!(h.query_by_label("550. Ng1").is_some(), "the moves after it");
    assert!(
        h.query_by_label("1. Nf3").is_some(),
        "the way there is drawn"
    );
    // End walks to the last move, which is drawn.
    h.key_press(egui::Key::End);
    h.run();
    assert_eq!(cursor(&h).len(), 1600);
    assert!(h.query_by_label("800... Ng8").is_some());
}

#[test]
fn chapters_are_added_renamed_moved_and_deleted_with_undo() {
    let dir = temp_dir("repertoire-editor-chapters");
    let path = dir.join("mine.pgn");
    let mut h = window();
    new_white(&mut h, &path);
    click(&mut h, "Add chapter");
    assert!(h.query_by_label("2. Chapter 2 (White)").is_some());
    assert_eq!(
        h.state().coach().repertoire().chapter(),
        1,
        "the new chapter is shown"
    );

    h.get_by_label("2. Chapter 2 (White)").click_secondary();
    h.run();
    click(&mut h, "Rename…");
    h.get_by_label("New name of chapter 2").focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("New name of chapter 2")
        .type_text("Sicilian");
    h.run();
    click(&mut h, "Rename");
    assert!(h.query_by_label("2. Sicilian (White)").is_some());

    h.get_by_label("2. Sicilian (White)").click_secondary();
    h.run();
    click(&mut h, "Move up");
    assert!(h.query_by_label("1. Sicilian (White)").is_some());

    h.get_by_label("1. Sicilian (White)").click_secondary();
    h.run();
    click(&mut h, "Delete chapter");
    assert!(h.query_by_label_contains("Sicilian").is_none());
    assert_eq!(
        h.state()
            .coach()
            .repertoire()
            .document()
            .unwrap()
            .chapters()
            .len(),
        1
    );
    click(&mut h, "Undo");
    assert!(h.query_by_label("1. Sicilian (White)").is_some());

    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run();
    let doc = Document::read(&std::fs::read(&path).unwrap());
    let titles: Vec<String> = doc
        .chapters()
        .iter()
        .enumerate()
        .map(|(i, c)| c.title(i + 1))
        .collect();
    assert_eq!(titles, ["Sicilian", "White repertoire"]);
}

#[test]
fn a_save_is_read_again_where_the_book_has_the_file() {
    let dir = temp_dir("repertoire-editor-book");
    let path = dir.join("rep.pgn");
    std::fs::write(
        &path,
        "[Event \"Mine\"]\n[Orientation \"white\"]\n\n1. e4 e5 2. Nf3 *\n",
    )
    .unwrap();
    let mut h = window();
    // The file is the drill's book (the Book tab) and open in the repertoire editor.
    common::load_repertoire_in_window(&mut h, path.clone());
    let before = h.state().coach().graph().node_count();
    click(&mut h, "Repertoire");
    type_path(&mut h, &path);
    click(&mut h, "Open");
    click(&mut h, "Add moves");
    play(&mut h, "d4");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run();
    h.state_mut().coach_mut().finish_loading();
    h.run();
    assert!(
        h.state().coach().graph().node_count() > before,
        "the book has 1.d4 now"
    );
    let d4 = h
        .state()
        .coach()
        .graph()
        .lookup(&common::position_after("d4"));
    assert!(d4.is_some());
}

#[test]
fn pasted_moves_go_to_their_position_in_the_file_shown_not_in_the_hidden_drill() {
    let dir = temp_dir("repertoire-editor-paste");
    let path = dir.join("rep.pgn");
    std::fs::copy(fixture("repertoire.pgn"), &path).unwrap();
    let mut h = window();
    type_path(&mut h, &path);
    click(&mut h, "Open");
    // A position three moves deep in the file's first chapter.
    let target = {
        let w = h.state().coach().repertoire();
        let tree = w.tree().unwrap();
        let mut node = tree.root().children()[0];
        for _ in 0..2 {
            node = tree.node(node).unwrap().children()[0];
        }
        tree.path_sans(node)
    };
    assert_eq!(target.len(), 3);
    let drill_before = h.state().coach().session().moves().len();
    // The tab's Paste button asks the window for the clipboard ...
    h.get_by_label("Paste").click();
    h.step();
    let asked = h
        .output()
        .viewport_output
        .values()
        .any(|v| v.commands.contains(&egui::ViewportCommand::RequestPaste));
    assert!(asked);
    // ... which comes back as a paste event.
    h.event(egui::Event::Paste(target.join(" ")));
    h.step();
    h.state_mut().coach_mut().finish_paste();
    common::settle(&mut h);
    assert_eq!(cursor(&h), target);
    assert_eq!(h.state().coach().session().moves().len(), drill_before);
}

/// Issue 41, item 8: **Save as…** beside Save writes the repertoire to another file
/// (chosen in the file dialog, here its path field) and goes on editing that one; the
/// first file stays as it was.
#[test]
fn save_as_writes_another_file_and_edits_it_from_then_on() {
    let dir = temp_dir("repertoire-editor-save-as");
    let path = dir.join("mine.pgn");
    let copy = dir.join("mine-copy.pgn");
    let _ = std::fs::remove_file(&copy);
    let mut h = window();
    h.state_mut().use_path_field_only();
    new_white(&mut h, &path);
    let before = std::fs::read_to_string(&path).unwrap();
    click(&mut h, "Add moves");
    play(&mut h, "e4");
    click(&mut h, "Save as…");
    let field = h.get_by_label("Path");
    field.focus();
    field.type_text(&copy.display().to_string());
    common::settle(&mut h);
    // Enter presses the path window's Save (the tab has a Save of its own).
    h.key_press(egui::Key::Enter);
    common::settle(&mut h);
    let saved = std::fs::read_to_string(&copy).unwrap();
    assert!(saved.contains("1. e4"), "{saved}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
    assert_eq!(h.state().coach().repertoire().file().unwrap().path(), copy);
    // The file saved under a new name heads the recent files.
    assert_eq!(
        h.state().coach().settings().recent_files.first(),
        Some(&copy)
    );
}
