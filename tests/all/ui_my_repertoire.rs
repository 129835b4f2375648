//! "My repertoire" drills only the repertoire (issue 40): chosen in Start here, the file
//! read as "My repertoire" becomes the whole book, ECO the theory it is compared with,
//! and the computer plays only the file's moves. Driven through the real widgets
//! (egui_kittest) at both window sizes.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::collections::{HashMap, HashSet};

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::book::ImportMode;
use hastings::coach::book::REPERTOIRE_ALONE;
use hastings::coach::settings::Settings;
use hastings::trainer::Phase;
use hastings::ui::TrainerApp;
use shakmaty::fen::Epd;
use shakmaty::{Chess, EnPassantMode, Move, Position as _};

use crate::common;

/// A position as a key: its EPD.
fn key(pos: &Chess) -> String {
    Epd::from_position(pos, EnPassantMode::Legal).to_string()
}

/// The moves of the file at each position it reaches, read directly from the PGN.
fn file_moves(name: &str) -> HashMap<String, Vec<Move>> {
    let import = common::import_fixture(name, ImportMode::Repertoire);
    let mut out: HashMap<String, Vec<Move>> = HashMap::new();
    for line in &import.lines {
        let mut pos = Chess::default();
        for &mv in &line.moves {
            assert!(pos.is_legal(mv));
            let moves = out.entry(key(&pos)).or_default();
            if !moves.contains(&mv) {
                moves.push(mv);
            }
            pos.play_unchecked(mv);
        }
    }
    out
}

/// Start here → My repertoire → the file, read as "My repertoire", at `size`.
fn start_with_my_repertoire(size: (f32, f32), name: &str) -> Harness<'static, TrainerApp> {
    // No fixed seed: with one, every new line would be drawn alike.
    let settings = Settings {
        reply_delay_ms: 0,
        ..crate::common::settings()
    };
    let mut app = TrainerApp::new(common::eco(), settings);
    app.show_welcome();
    app.use_path_field_only();
    let mut h = Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
    h.run();
    h.get_by_label("My repertoire (a PGN file or a lichess study)")
        .click();
    h.run();
    h.get_by_label("Choose my repertoire…").click();
    h.run();
    h.get_by_label("Path")
        .type_text(&common::fixture(name).display().to_string());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    common::import_as(&mut h, "My repertoire");
    h.get_by_label("Close").click();
    h.run();
    h.state_mut().coach_mut().finish_loading();
    h.run();
    h
}

// One test per window size: the two run side by side (each plays 200 computer replies
// through the window, the slowest kittest of the suite).
#[test]
fn my_repertoire_from_start_here_drills_only_the_files_moves() {
    drills_only_the_files_moves((1280.0, 800.0));
}

#[test]
fn my_repertoire_from_start_here_drills_only_the_files_moves_in_a_small_window() {
    drills_only_the_files_moves((800.0, 600.0));
}

fn drills_only_the_files_moves(size: (f32, f32)) {
    let name = "repertoire.pgn";
    let book = file_moves(name);
    let mut h = start_with_my_repertoire(size, name);
    let coach = h.state().coach();
    assert!(
        !coach.workspace().choice().eco,
        "{size:?}: ECO is not drilled"
    );
    assert!(coach.is_repertoire(), "{size:?}");
    h.get_by_label(REPERTOIRE_ALONE);

    let (mut replies, mut checked, mut turn) = (0usize, 0usize, 0usize);
    let mut lines = HashSet::new();
    while replies < 200 {
        turn += 1;
        assert!(turn < 5000, "{size:?}: the drill does not go on");
        let session = h.state().coach().session();
        if session.moves().len() < checked {
            checked = 0;
        }
        for (ply, played) in session.moves().iter().enumerate().skip(checked) {
            if !played.by_learner {
                let before = session.position_at(ply);
                let ok = book
                    .get(&key(before))
                    .is_some_and(|m| m.contains(&played.mv));
                assert!(
                    ok,
                    "{size:?}: the computer played {} after {:?}, not a move of the file",
                    played.san,
                    session.moves()[..ply]
                        .iter()
                        .map(|m| &m.san)
                        .collect::<Vec<_>>()
                );
                replies += 1;
            }
            checked = ply + 1;
        }
        match session.phase().clone() {
            Phase::LearnerToMove => {
                let moves = &book[&key(session.position())];
                let mv = moves[turn % moves.len()];
                common::click_move(&mut h, mv);
                h.run();
            }
            Phase::EndOfLine { .. } => {
                lines.insert(
                    session
                        .moves()
                        .iter()
                        .map(|m| m.san.clone())
                        .collect::<Vec<_>>(),
                );
                h.get_all_by_label("Next line").next().unwrap().click();
                h.run();
            }
            Phase::ComputerToMove => {
                h.run();
            }
            Phase::OutOfBook { san, .. } => panic!("{size:?}: {san} left the book"),
        }
    }
    assert!(
        lines.len() > 3,
        "{size:?}: several lines were drilled: {lines:?}"
    );
}
