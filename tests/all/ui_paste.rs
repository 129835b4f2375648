//! Ctrl+V and the Book tab's Paste button (issue 42, item 1): the clipboard's text read
//! as moves or a FEN of a book position (the drill starts there), PGN games (kept as a
//! file in the data folder, then "read as" like a file opened) or something else (one
//! line saying why), driven through the real widgets (egui_kittest) with the paste event
//! egui gets from the system.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::fs;
use std::path::PathBuf;

use eframe::egui::{self, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::settings::Settings;
use hastings::ui::TrainerApp;

use crate::common;

fn harness(app: TrainerApp) -> Harness<'static, TrainerApp> {
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

fn settings() -> Settings {
    Settings {
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..crate::common::settings()
    }
}

/// Pastes `text`, waits for the job that reads it, and lets the window use the result.
fn paste(h: &mut Harness<'static, TrainerApp>, text: &str) {
    h.event(egui::Event::Paste(text.to_owned()));
    h.run();
    h.state_mut().coach_mut().finish_paste();
    h.run();
}

#[test]
fn pasted_moves_start_the_drill_where_they_lead() {
    let mut h = harness(TrainerApp::new(common::eco(), settings()));
    h.run();
    paste(&mut h, "1. e4 c5 2. Nf3 d6");
    let session = h.state().coach().session();
    let played: Vec<String> = session
        .moves()
        .iter()
        .take(4)
        .map(|m| m.san.clone())
        .collect();
    assert_eq!(played, ["e4", "c5", "Nf3", "d6"]);
    // Four moves from the start: White is to move, and the learner plays White.
    assert_eq!(session.learner(), shakmaty::Color::White);
}

#[test]
fn garbage_and_a_fen_outside_the_book_are_one_line_each_and_change_nothing() {
    let mut h = harness(TrainerApp::new(common::eco(), settings()));
    h.run();
    let before = h.state().coach().session().moves().len();
    paste(&mut h, "Dear club members, the tournament starts at 7.");
    let message = h.state().coach().message().unwrap().to_owned();
    assert!(
        message.starts_with("Nothing to paste: the clipboard holds no PGN, FEN or moves"),
        "{message}"
    );
    h.get_by_label_contains("Nothing to paste");
    // A legal position no ECO line reaches: 1.e4 e5 2.Ke2 Ke7.
    paste(
        &mut h,
        "rnbq1bnr/ppppkppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR w - - 2 3",
    );
    let message = h.state().coach().message().unwrap().to_owned();
    assert!(message.contains("(FEN) is not in the book"), "{message}");
    h.get_by_label_contains("is not in the book");
    assert_eq!(h.state().coach().session().moves().len(), before);
}

#[test]
fn a_pasted_fen_of_a_book_position_starts_the_drill_there() {
    let mut h = harness(TrainerApp::new(common::eco(), settings()));
    h.run();
    // After 1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6: the Najdorf, Black has
    // just moved, so the learner plays White.
    let fen = "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6";
    paste(&mut h, fen);
    let coach = h.state().coach();
    let pos = coach.session().position();
    assert_eq!(
        shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string(),
        fen
    );
    assert_eq!(
        coach.session().moves().len(),
        10,
        "the fewest book moves there"
    );
    assert_eq!(coach.session().learner(), shakmaty::Color::White);
    assert!(coach.message().is_none_or(|m| !m.contains("FEN")));
}

#[test]
fn the_book_tabs_paste_button_asks_the_window_for_the_clipboard() {
    let mut h = harness(TrainerApp::new(common::eco(), settings()));
    h.run();
    h.get_by_label("Book").click();
    h.run();
    h.get_by_label("Paste").click();
    h.step();
    let asked = h
        .output()
        .viewport_output
        .values()
        .any(|v| v.commands.contains(&egui::ViewportCommand::RequestPaste));
    assert!(asked, "the Paste button asks the window for the clipboard");
    // The window answers with the clipboard's text as a paste event.
    paste(&mut h, "1. d4 d5 2. c4");
    let played: Vec<String> = h
        .state()
        .coach()
        .session()
        .moves()
        .iter()
        .take(3)
        .map(|m| m.san.clone())
        .collect();
    assert_eq!(played, ["d4", "d5", "c4"]);
}

#[test]
fn pasted_games_are_kept_in_the_data_folder_and_asked_how_to_read() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("hastings-ui-paste-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let app =
        TrainerApp::with_progress_file(common::eco(), settings(), Some(dir.join("progress.ron")));
    let mut h = harness(app);
    h.run();
    let pgn = fs::read_to_string(common::fixture("repertoire.pgn")).unwrap();
    paste(&mut h, &pgn);
    let kept: Vec<PathBuf> = fs::read_dir(dir.join("pasted"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(kept[0].extension().unwrap(), "pgn");
    assert_eq!(fs::read_to_string(&kept[0]).unwrap(), pgn);
    // The same window as for a file opened: how to read it.
    h.get_by_label("My repertoire");
    h.get_by_label("Import");
    // A second paste is a second file, never over the first.
    h.get_by_label("Cancel").click();
    h.run();
    paste(&mut h, &pgn);
    assert_eq!(fs::read_dir(dir.join("pasted")).unwrap().count(), 2);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_dropped_folder_is_every_pgn_file_in_it_read_into_one_report_and_an_empty_one_says_so() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("hastings-ui-drop-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("club/2025")).unwrap();
    fs::create_dir_all(dir.join("nothing")).unwrap();
    fs::copy(
        common::fixture("repertoire.pgn"),
        dir.join("club/white.pgn"),
    )
    .unwrap();
    fs::copy(
        common::fixture("study_chapters.pgn"),
        dir.join("club/2025/black.PGN"),
    )
    .unwrap();
    fs::write(dir.join("club/readme.txt"), "not a game").unwrap();
    let mut h = harness(TrainerApp::new(common::eco(), settings()));
    h.run();
    let drop = |h: &mut Harness<'static, TrainerApp>, path: PathBuf| {
        h.input_mut()
            .dropped_files
            .push(std::sync::Arc::new(Dropped(path)));
        h.run();
    };
    drop(&mut h, dir.join("nothing"));
    h.get_by_label_contains("has no PGN file");
    drop(&mut h, dir.join("club"));
    // The same window as for files opened: both files, the one in the folder below too.
    h.get_by_label("Import");
    h.get_by_label_contains("white.pgn");
    h.get_by_label_contains("black.PGN");
    assert!(h.query_by_label_contains("readme.txt").is_none());

    // Read, the two files give one report: the totals, and a row per file.
    h.get_by_label("Import").click();
    h.run();
    h.state_mut().coach_mut().finish_loading();
    common::settle(&mut h);
    let expect: Vec<_> = ["repertoire.pgn", "study_chapters.pgn"]
        .iter()
        .map(|f| common::import_fixture(f, hastings::book::ImportMode::Auto).report)
        .collect();
    let games: usize = expect.iter().map(|r| r.games).sum();
    let lines: usize = expect.iter().map(|r| r.lines).sum();
    let summary = format!("2 files read: {games} games, {lines} lines");
    // The study's chapters do not say their side: that is asked first, then the report.
    h.get_by_label("Both / don't know").click();
    h.run();
    h.get_by_label("Import report: 2 files");
    h.get_by_label_contains(&summary);
    for r in &expect {
        h.get_by_label_contains(&format!("{} games, {} lines", r.games, r.lines));
    }
    // A file's own report is one click away.
    h.get_all_by_label("Report").next().unwrap().click();
    h.run();
    assert!(h.query_by_label("Import report: 2 files").is_none());
    assert!(
        h.state()
            .coach()
            .book()
            .report()
            .is_some_and(|r| r.batch.is_none() && r.report.is_some())
    );
    let _ = fs::remove_dir_all(&dir);
}

/// A file or folder dropped on the window, as the system hands it to egui.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        fs::read(&self.0).map_err(|e| e.to_string())
    }
}
