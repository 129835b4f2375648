//! Repertoires in the window, driven through the real widgets with egui_kittest: loading
//! PGN files through the open dialog's code path, the import report, repertoire mode,
//! the book's sources, and settings and progress across a restart.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use eframe::egui::{self, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::book::annotation::{annotation_text, move_annotation};
use hastings::book::pgn::{ImportOptions, read_pgn};
use hastings::book::{LineSource, PositionGraph, SourceId};
use hastings::coach::settings::{Settings, Side};
use hastings::trainer::Phase;
use hastings::ui::TrainerApp;
use hastings::ui::board::Orientation;
use shakmaty::{Chess, Move, Position};

use crate::common;
use common::{eco, fixture, temp_dir};

/// The repertoire fixture's own graph, built without the app.
fn repertoire_graph() -> PositionGraph {
    let text = std::fs::read(fixture("repertoire.pgn")).unwrap();
    let import = read_pgn(
        text.as_slice(),
        SourceId(1),
        &ImportOptions::default(),
        Some(common::eco_graph()),
    )
    .unwrap();
    PositionGraph::build(import.lines).graph
}

fn settings(learner: Side) -> Settings {
    Settings {
        learner,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..crate::common::settings()
    }
}

fn harness_for(app: TrainerApp) -> Harness<'static, TrainerApp> {
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        // A reply takes a few frames: the delay, the move, its animation.
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

/// Loads `paths` as the file dialog does: the open dialog asks for the mode, "Import"
/// starts the import; then waits for the import and the new book.
fn load(harness: &mut Harness<'static, TrainerApp>, paths: Vec<PathBuf>, mode: &str) {
    common::open_in_window(harness, paths, mode);
    // A repertoire without side tags is asked about once: these tests keep the side
    // they chose.
    if let Some(both) = harness.query_by_label("Both / don't know") {
        both.click();
        harness.run();
        harness.state_mut().coach_mut().finish_loading();
        harness.run();
    }
}

fn open_tab(harness: &mut Harness<'static, TrainerApp>, tab: &str) {
    harness.get_by_label(tab).click();
    harness.run();
}

/// Clicks "from" then "to" on the board.
fn play(harness: &mut Harness<'static, TrainerApp>, mv: Move) {
    common::click_move(harness, mv);
    harness.run();
}

/// Opens the Book tab once the file read as "My repertoire" is the book alone: ECO was
/// unticked when it was read (issue 40).
fn untick_eco(harness: &mut Harness<'static, TrainerApp>) {
    open_tab(harness, "Book");
    harness.state_mut().coach_mut().finish_loading();
    harness.run();
    assert!(!harness.state().coach().workspace().choice().eco);
    assert!(harness.state().coach().is_repertoire());
}

/// Ticks or unticks ECO in the Book tab and waits for the new book.
fn click_eco(harness: &mut Harness<'static, TrainerApp>) {
    harness.get_by_label("ECO (built in, 3,807 lines)").click();
    harness.step();
    harness.state_mut().coach_mut().finish_loading();
    harness.run();
}

fn chart_sans(harness: &mut Harness<'static, TrainerApp>) -> Vec<String> {
    let app = harness.state_mut();
    let graph = Arc::clone(app.coach().graph());
    let pos = app.coach().session().position().clone();
    let Some(node) = graph.lookup(&pos) else {
        return Vec::new();
    };
    let mut sans: Vec<String> = app
        .chart()
        .rows
        .iter()
        .map(|r| graph.san(node, r.mv).to_string())
        .collect();
    sans.sort();
    sans
}

#[test]
fn loading_a_repertoire_through_the_open_dialog_adds_its_lines_and_the_drill_follows_them() {
    let mut harness = harness_for(TrainerApp::new(eco(), settings(Side::White)));
    harness.run();
    let own = repertoire_graph();
    load(
        &mut harness,
        vec![fixture("repertoire.pgn")],
        "My repertoire",
    );

    // The summary says what was added; read as "My repertoire", the file is the book
    // alone, ECO the theory it is compared with (issue 40).
    harness.get_by_label("Import report: repertoire.pgn");
    let summary = format!(
        "2 games read, 2 imported as repertoire: {} lines, {} positions; 0 issues",
        own.stats().lines,
        own.stats().nodes
    );
    harness.get_by_label(&summary);
    let app = harness.state().coach();
    assert_eq!(app.workspace().files().len(), 1);
    assert!(!app.workspace().choice().eco, "ECO is unticked");
    assert!(app.is_repertoire());
    harness.get_by_label(&format!(
        "The book now has {} lines (your repertoire).",
        own.stats().lines
    ));
    harness.get_by_label("Close").click();
    harness.run();

    // The drill follows the repertoire, and its comments are shown.
    untick_eco(&mut harness);
    assert!(harness.state().coach().is_repertoire());
    assert_eq!(
        harness.state().coach().graph().stats().lines,
        own.stats().lines
    );
    let mut comments_seen = 0;
    for seed in 0..8 {
        harness.state_mut().coach_mut().settings_mut().seed = seed.to_string();
        harness.get_by_label("New line").click();
        harness.run();
        while *harness.state().coach().session().phase() == Phase::LearnerToMove {
            let session = harness.state().coach().session();
            let before = session.position().clone();
            let mv = session.book_moves()[0].mv;
            play(&mut harness, mv);
            let app = harness.state().coach();
            let moves = app.session().moves();
            // Every move of the drill, the learner's and the computer's, is the repertoire's.
            let mut pos = Chess::default();
            for m in moves {
                pos.play_unchecked(m.mv);
                assert!(own.lookup(&pos).is_some(), "{} left the repertoire", m.san);
            }
            // The learner's move's comment is shown after it is played (when the
            // computer's reply has none of its own).
            let learner_move = moves.iter().rposition(|m| m.by_learner).unwrap();
            let reply_note = moves.get(learner_move + 1).and_then(|_| {
                let mut p = before.clone();
                p.play_unchecked(mv);
                move_annotation(&own, &p, moves[learner_move + 1].mv)
            });
            if learner_move + 1 == moves.len() || reply_note.is_some() {
                let last = moves.last().unwrap();
                let mut p = Chess::default();
                for m in &moves[..moves.len() - 1] {
                    p.play_unchecked(m.mv);
                }
                if let Some(a) = move_annotation(&own, &p, last.mv) {
                    harness.get_by_label(&annotation_text(&last.san, a));
                    comments_seen += 1;
                }
            }
        }
    }
    assert!(comments_seen > 0, "some drilled move had a comment");
}

#[test]
fn a_file_with_errors_shows_the_issues_panel_with_the_game_numbers() {
    let mut harness = harness_for(TrainerApp::new(eco(), settings(Side::White)));
    harness.run();
    load(
        &mut harness,
        vec![fixture("illegal.pgn")],
        "Decide from the file",
    );
    harness.get_by_label("Import report: illegal.pgn");
    harness.get_by_label("Game");
    harness.get_by_label("Players / event");
    // Game 2 of 3 has the illegal 4.Bxf7+; games 1 and 3 load.
    harness.get_by_label("Game 2");
    assert!(harness.query_by_label("Game 1").is_none());
    assert!(harness.query_by_label("Game 3").is_none());
    harness.get_by_label("Carol – Dave");
    harness.get_by_label("Bxf7");
    let text = harness.state().coach().book().report().unwrap().text();
    assert!(
        text.contains("game 2\tCarol – Dave\tply 7\tBxf7\tillegal move"),
        "{text}"
    );
    assert!(text.contains("3 games read, 3 imported"), "{text}");

    // A file with no games is an error message, not a crash, and is not remembered.
    harness.get_by_label("Close").click();
    harness.run();
    load(
        &mut harness,
        vec![fixture("empty.pgn")],
        "Decide from the file",
    );
    harness.get_by_label("Import report: empty.pgn");
    let report = harness.state().coach().book().report().unwrap();
    assert!(report.summary().ends_with("empty.pgn: no games found"));
    assert_eq!(harness.state().coach().settings().book.files.len(), 1);
}

#[test]
fn in_repertoire_mode_a_move_only_eco_knows_is_a_mistake_and_the_computer_never_leaves_the_repertoire()
 {
    let own = repertoire_graph();
    let mut harness = harness_for(TrainerApp::new(eco(), settings(Side::White)));
    harness.run();
    load(
        &mut harness,
        vec![fixture("repertoire.pgn")],
        "My repertoire",
    );
    harness.get_by_label("Close").click();
    untick_eco(&mut harness);
    assert!(harness.state().coach().is_repertoire());

    // 1.d4 is theory (ECO knows it) but not the repertoire's: a mistake.
    play(
        &mut harness,
        shakmaty::uci::UciMove::from_ascii(b"d2d4")
            .unwrap()
            .to_move(&Chess::default())
            .unwrap(),
    );
    assert!(matches!(
        harness.state().coach().session().phase(),
        Phase::OutOfBook { .. }
    ));
    harness.get_by_label("d4 is not in the book.");
    harness.get_by_label("d4 is theory, but your repertoire plays e4");
    harness.get_by_label("Try again").click();
    harness.run();

    // As Black, over many seeds: every reply of the computer is the repertoire's, also
    // where ECO has others (after 1.e4 c5 ECO plays Nf3, Nc3, d4, …).
    harness.get_by_label("Black").click();
    harness.run();
    let mut replies: HashMap<String, u32> = HashMap::new();
    let mut end_notes = 0;
    for seed in 0..30 {
        harness.state_mut().coach_mut().settings_mut().seed = seed.to_string();
        harness.get_by_label("New line").click();
        harness.run();
        loop {
            let phase = harness.state().coach().session().phase().clone();
            match phase {
                Phase::LearnerToMove => {
                    let session = harness.state().coach().session();
                    let n = session.book_moves().len();
                    let mv = session.book_moves()[seed % n].mv;
                    play(&mut harness, mv);
                }
                Phase::EndOfLine { .. } => {
                    let eco_goes_on = common::eco_graph()
                        .lookup(harness.state().coach().session().position())
                        .is_some_and(|n| !common::eco_graph().continuations(n).is_empty());
                    if eco_goes_on {
                        let label = harness.state().coach().session().theory_note().unwrap();
                        assert!(
                            label.starts_with("Your repertoire ends here; theory continues with")
                        );
                        harness.get_by_label(&label);
                        end_notes += 1;
                    }
                    break;
                }
                other => panic!("unexpected phase {other:?}"),
            }
        }
        let mut pos = Chess::default();
        for m in harness.state().coach().session().moves() {
            let before = pos.clone();
            pos.play_unchecked(m.mv);
            assert!(own.lookup(&before).is_some());
            if !m.by_learner {
                assert!(
                    own.lookup(&pos).is_some(),
                    "seed {seed}: the computer played {} outside the repertoire",
                    m.san
                );
                *replies.entry(m.san.clone()).or_default() += 1;
            }
        }
    }
    assert!(replies["e4"] >= 30, "White always opens 1.e4: {replies:?}");
    assert!(end_notes > 0, "some line ended where theory goes on");
}

#[test]
fn ticking_eco_changes_the_candidates() {
    let mut harness = harness_for(TrainerApp::new(eco(), settings(Side::White)));
    // The chart shows the learner's own candidates here (it hides them by default).
    harness.state_mut().coach_mut().settings_mut().hide_answer = false;
    harness.run();
    load(
        &mut harness,
        vec![fixture("repertoire.pgn")],
        "My repertoire",
    );
    harness.get_by_label("Close").click();
    harness.run();
    // Read as "My repertoire", the file is the book alone.
    untick_eco(&mut harness);
    assert_eq!(chart_sans(&mut harness), vec!["e4".to_owned()]);
    // Ticking ECO brings its moves in; unticking it takes them out again.
    click_eco(&mut harness);
    let with_eco = chart_sans(&mut harness);
    assert!(with_eco.len() > 10, "{with_eco:?}");
    assert!(with_eco.contains(&"d4".to_owned()) && with_eco.contains(&"e4".to_owned()));
    click_eco(&mut harness);
    assert_eq!(chart_sans(&mut harness), vec!["e4".to_owned()]);
}

#[test]
fn settings_and_progress_survive_an_app_restart() {
    let dir = temp_dir("restart");
    std::fs::create_dir_all(&dir).unwrap();
    let progress_file = dir.join("progress.ron");
    let _ = std::fs::remove_file(&progress_file);
    let copy = dir.join("mine.pgn");
    std::fs::copy(fixture("repertoire.pgn"), &copy).unwrap();

    let settings_file = dir.join("settings.json");
    let _ = std::fs::remove_file(&settings_file);
    // The old default popularity, chosen (one never chosen becomes the blend at restart).
    let mut chosen = settings(Side::White);
    chosen.book.popularity = hastings::sampler::Popularity::Lines;
    chosen.book.popularity_chosen = true;
    let mut app = TrainerApp::with_progress_file(eco(), chosen, Some(progress_file.clone()));
    app.set_settings_file(Some(settings_file.clone()));
    let mut harness = harness_for(app);
    harness.run();
    load(&mut harness, vec![copy.clone()], "My repertoire");
    harness.get_by_label("Close").click();
    untick_eco(&mut harness);
    harness.get_by_label("Black").click();
    harness.run();
    harness.get_by_label("Flip board").click();
    harness.run();
    open_tab(&mut harness, "Style");
    harness.get_by_label("1.d4 lines").click();
    harness.run();
    // One move as Black after the computer's 1.e4: progress to keep.
    let pos = harness.state().coach().session().position().clone();
    let e5 = shakmaty::uci::UciMove::from_ascii(b"e7e5")
        .unwrap()
        .to_move(&pos)
        .unwrap();
    play(&mut harness, e5);
    let progress = harness.state().coach().progress().clone();
    assert_eq!(progress.position(&pos).attempts, 1);
    let mut storage = common::MemoryStorage::default();
    eframe::App::save(harness.state_mut(), &mut storage);
    let before = harness.state().coach().settings().clone();
    assert_eq!(before.book.files.len(), 1);
    assert!(!before.book.eco);
    assert_eq!(before.orientation, Some(Orientation::WhiteBottom));
    drop(harness);

    let mut restarted = TrainerApp::restore(
        eco(),
        Some(&storage),
        Some(settings_file.clone()),
        Some(progress_file),
    );
    restarted.coach_mut().finish_loading();
    assert_eq!(restarted.coach().settings(), &before);
    assert_eq!(restarted.coach().orientation(), Orientation::WhiteBottom);
    assert_eq!(
        restarted.coach().session().learner(),
        shakmaty::Color::Black
    );
    assert!(
        restarted.coach().is_repertoire(),
        "the repertoire is loaded again"
    );
    assert_eq!(restarted.coach().progress(), &progress);
    assert!(
        restarted.coach().workspace().warnings().is_empty(),
        "{:?}",
        restarted.coach().workspace().warnings()
    );
    assert!(
        restarted
            .coach()
            .graph()
            .lines()
            .iter()
            .all(|l| matches!(l.source, LineSource::Pgn { .. }))
    );

    // A remembered file that has gone is a warning, not a crash.
    std::fs::remove_file(&copy).unwrap();
    let mut again = TrainerApp::restore(eco(), Some(&storage), Some(settings_file), None);
    again.coach_mut().finish_loading();
    assert_eq!(again.coach().workspace().warnings().len(), 1);
    assert!(again.coach().workspace().warnings()[0].contains("mine.pgn is missing"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn drilled_moves_are_recorded_as_progress_and_saved_to_the_data_file() {
    let dir = temp_dir("progress");
    std::fs::create_dir_all(&dir).unwrap();
    let progress_file = dir.join("progress.ron");
    let _ = std::fs::remove_file(&progress_file);
    let app =
        TrainerApp::with_progress_file(eco(), settings(Side::White), Some(progress_file.clone()));
    let mut harness = harness_for(app);
    harness.run();
    let e4 = shakmaty::uci::UciMove::from_ascii(b"e2e4")
        .unwrap()
        .to_move(&Chess::default())
        .unwrap();
    play(&mut harness, e4);
    let reply = harness.state().coach().session().moves()[1].mv;
    let mut pos = Chess::default();
    pos.play_unchecked(e4);
    pos.play_unchecked(reply);
    // A move outside the book at the next position: a mistake there.
    let wrong = pos
        .legal_moves()
        .into_iter()
        .find(|m| {
            let mut next = pos.clone();
            next.play_unchecked(*m);
            common::eco_graph().lookup(&next).is_none()
        })
        .unwrap();
    play(&mut harness, wrong);
    assert!(
        matches!(
            harness.state().coach().session().phase(),
            Phase::OutOfBook { .. }
        ),
        "{:?} {:?}",
        harness.state().coach().session().moves(),
        harness.state().coach().session().phase()
    );
    let progress = harness.state().coach().progress();
    assert_eq!(progress.position(&Chess::default()).attempts, 1);
    assert_eq!(progress.position(&pos).mistakes, 1);
    open_tab(&mut harness, "Progress");
    harness.get_by_label("Moves tried: 2, mistakes: 1 (50.0%)");
    let mut storage = common::MemoryStorage::default();
    eframe::App::save(harness.state_mut(), &mut storage);
    let saved = hastings::workspace::store::load_progress(&progress_file);
    assert!(saved.warning.is_none());
    assert_eq!(&saved.value, harness.state().coach().progress());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_wrong_move_shows_the_comment_of_the_repertoire_move_there() {
    let mut harness = harness_for(TrainerApp::new(eco(), settings(Side::Black)));
    harness.run();
    load(
        &mut harness,
        vec![fixture("repertoire.pgn")],
        "My repertoire",
    );
    harness.get_by_label("Close").click();
    untick_eco(&mut harness);
    // White's repertoire moves are forced here: 1.e4, 2.Nf3, 3.Bc4.
    for (black, white_after) in [("e7e5", "Nf3"), ("b8c6", "Bc4")] {
        let pos = harness.state().coach().session().position().clone();
        let mv = shakmaty::uci::UciMove::from_ascii(black.as_bytes())
            .unwrap()
            .to_move(&pos)
            .unwrap();
        play(&mut harness, mv);
        assert_eq!(
            harness
                .state()
                .coach()
                .session()
                .moves()
                .last()
                .unwrap()
                .san,
            white_after
        );
    }
    // 3.Bc4's own comment and arrow are shown after it.
    harness.get_by_label("Bc4 Aiming at f7.");
    // 3...d6 is not in the repertoire: the repertoire's moves are listed with their comments.
    let pos = harness.state().coach().session().position().clone();
    let d6 = shakmaty::uci::UciMove::from_ascii(b"d7d6")
        .unwrap()
        .to_move(&pos)
        .unwrap();
    play(&mut harness, d6);
    harness.get_by_label("d6 is not in the book.");
    harness.get_by_label("Nf6!? The Two Knights.");
}

#[test]
fn a_corrupt_progress_file_is_set_aside_with_a_warning_in_the_progress_panel() {
    let dir = temp_dir("ui-repertoire-corrupt");
    std::fs::create_dir_all(&dir).unwrap();
    let progress_file = dir.join("progress.ron");
    std::fs::write(&progress_file, "(positions: {\"x\": (attempts: -1)})").unwrap();
    let app =
        TrainerApp::with_progress_file(eco(), settings(Side::White), Some(progress_file.clone()));
    let mut harness = harness_for(app);
    harness.run();
    open_tab(&mut harness, "Progress");
    let warning = harness
        .state()
        .coach()
        .progress_warning()
        .unwrap()
        .to_owned();
    assert!(warning.contains("could not be read"), "{warning}");
    harness.get_by_label(&warning);
    harness.get_by_label("Moves tried: 0, mistakes: 0 (0.0%)");
    let kept: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("progress.ron.corrupt-"))
        .collect();
    assert_eq!(kept.len(), 1, "the corrupt file is kept aside");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_command_line_takes_pgn_files_for_the_window_and_still_knows_its_commands() {
    use clap::Parser as _;
    use hastings::cli::Cli;
    let cli = Cli::try_parse_from(["hastings", "a.pgn", "b.pgn", "--reset-progress"]).unwrap();
    assert!(cli.command.is_none());
    assert_eq!(
        cli.gui.files,
        vec![PathBuf::from("a.pgn"), PathBuf::from("b.pgn")]
    );
    assert!(cli.gui.reset_progress);
    let stats = Cli::try_parse_from(["hastings", "stats", "--json"]).unwrap();
    assert!(stats.command.is_some() && stats.gui.files.is_empty());
}

#[test]
fn while_a_file_loads_the_board_stays_usable_and_cancel_stops_the_import() {
    let dir = temp_dir("ui-repertoire-cancel");
    std::fs::create_dir_all(&dir).unwrap();
    // A named pipe: the import blocks until the test writes to it, so the test decides
    // when the file "arrives".
    let pipe = dir.join("slow.pgn");
    let _ = std::fs::remove_file(&pipe);
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success());
    let mut harness = harness_for(TrainerApp::new(eco(), settings(Side::White)));
    harness.run();
    harness.state_mut().open_files(vec![pipe.clone()]);
    harness.run();
    harness.get_by_label("Import").click();
    harness.run_steps(3);
    assert!(harness.state().coach().is_loading());
    harness.get_by_label("Loading slow.pgn");

    // The board still takes moves, and the computer still replies.
    harness.get_by_label("e2 white pawn").click();
    harness.run_steps(2);
    harness.get_by_label("e4").click();
    harness.run_steps(4);
    assert_eq!(harness.state().coach().session().moves().len(), 2);
    harness.get_by_label("e4 white pawn");

    harness.get_by_label("Cancel").click();
    harness.run_steps(2);
    let game = std::fs::read(fixture("illegal.pgn")).unwrap();
    // Opening the pipe lets the import go on; it stops at its next read, maybe before
    // this write (then the write fails with a broken pipe, which is fine).
    let _ = std::fs::write(&pipe, game);
    harness.state_mut().coach_mut().finish_loading();
    harness.run();
    let app = harness.state().coach();
    assert!(!app.is_loading());
    assert!(
        app.workspace().files().is_empty(),
        "a cancelled file adds nothing"
    );
    assert!(app.settings().book.files.is_empty());
    harness.get_by_label("Loading slow.pgn was cancelled.");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exporting_a_loaded_repertoire_writes_pgn_that_imports_to_the_same_lines() {
    let mut harness = harness_for(TrainerApp::new(eco(), settings(Side::White)));
    harness.run();
    load(
        &mut harness,
        vec![fixture("repertoire.pgn")],
        "My repertoire",
    );
    let out = temp_dir("export").join("export.pgn");
    let app = harness.state().coach();
    let id = app.workspace().files()[0].id;
    let games = app
        .export_to(hastings::coach::command::ExportWhat::Source(id), &out)
        .unwrap();
    assert_eq!(games, 2);
    let text = std::fs::read(&out).unwrap();
    let again = read_pgn(
        text.as_slice(),
        SourceId(1),
        &ImportOptions::default(),
        Some(common::eco_graph()),
    )
    .unwrap();
    let moves = |lines: &[hastings::book::OpeningLine]| {
        let mut v: Vec<Vec<String>> = lines
            .iter()
            .map(|l| l.sans().iter().map(ToString::to_string).collect())
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        moves(&again.lines),
        moves(&app.workspace().files()[0].lines)
    );
    let _ = std::fs::remove_file(&out);
}

/// A file dropped on the window, as the native integration reports it.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn dropping_pgn_files_on_the_window_opens_the_import_dialog_for_them() {
    let mut harness = harness_for(TrainerApp::new(eco(), settings(Side::White)));
    harness.run();
    for name in ["repertoire.pgn", "illegal.pgn"] {
        harness
            .input_mut()
            .dropped_files
            .push(Arc::new(Dropped(fixture(name))));
    }
    harness.run();
    harness.get_by_label("Open PGN");
    harness.get_by_label("repertoire.pgn");
    harness.get_by_label("illegal.pgn");
    harness.get_by_label("Import").click();
    harness.step();
    harness.state_mut().coach_mut().finish_loading();
    harness.run();
    let names: Vec<String> = harness
        .state()
        .coach()
        .workspace()
        .files()
        .iter()
        .map(|f| f.name())
        .collect();
    assert_eq!(names, ["repertoire.pgn", "illegal.pgn"]);
    // Auto-detection: the study is a repertoire, the club games a collection.
    let modes: Vec<String> = harness
        .state()
        .coach()
        .workspace()
        .files()
        .iter()
        .map(|f| f.mode.to_string())
        .collect();
    assert_eq!(modes, ["repertoire", "games"]);
}

#[test]
fn without_a_file_dialog_a_path_field_opens_the_file() {
    let mut harness = harness_for(TrainerApp::new(eco(), settings(Side::White)));
    harness.run();
    harness.state_mut().ask_for_path();
    harness.run();
    harness.get_by_label_contains("No file dialog is available on this system");
    let path = fixture("repertoire.pgn");
    harness.get_by_label("Path").click();
    harness.run();
    harness
        .get_by_label("Path")
        .type_text(&path.display().to_string());
    harness.run();
    harness.get_by_label("Open").click();
    harness.run();
    // The same "read as" dialog as after the file dialog.
    harness.get_by_label("My repertoire").click();
    harness.run();
    harness.get_by_label("Import").click();
    harness.step();
    harness.state_mut().coach_mut().finish_loading();
    harness.run();
    assert_eq!(harness.state().coach().workspace().files().len(), 1);
    assert_eq!(harness.state().coach().workspace().files()[0].path, path);
    assert!(
        harness.query_by_label("Path").is_none(),
        "the field is closed"
    );
}
