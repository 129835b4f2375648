//! Ctrl+V in the window (issue 42, item 1): the clipboard's text read as moves (the
//! drill starts there), PGN games (kept as a file in the data folder, then "read as"
//! like a file opened) or something else (one line saying why), driven through the real
//! widgets (egui_kittest) with the paste event egui gets from the system.

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
        .with_max_steps(8)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

fn settings() -> Settings {
    Settings {
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..crate::common::settings()
    }
}

fn paste(h: &mut Harness<'static, TrainerApp>, text: &str) {
    h.event(egui::Event::Paste(text.to_owned()));
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
fn garbage_and_a_fen_are_one_line_each_and_change_nothing() {
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
    paste(
        &mut h,
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
    );
    assert!(h.state().coach().message().unwrap().contains("FEN"));
    assert_eq!(h.state().coach().session().moves().len(), before);
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
fn a_dropped_folder_is_every_pgn_file_in_it_and_an_empty_one_says_so() {
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
