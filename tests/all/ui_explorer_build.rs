//! "Build an explorer from PGN files…" in the Explorer tab (egui_kittest, real widgets):
//! a folder of fixtures (one in a folder below) is built into the data folder's
//! `explorers/` on a job, opened when done, with its players' trees; "Add games…"
//! adds a file's games; the window is closed and started again on the same data
//! folder, and the explorer built there is open again.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::path::Path;

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::book::explorer::ExplorerFilter;
use hastings::ui::TrainerApp;
use hastings::workspace::explorer::ExplorerIndex;
use shakmaty::Chess;

use crate::common;
use common::{AppHarness, eco, fixture, temp_dir};

fn window(app: TrainerApp) -> AppHarness {
    let mut harness = Harness::builder()
        .with_size(vec2(800.0, 600.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
    harness.run();
    harness
}

fn type_into(h: &mut AppHarness, label: &str, text: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    h.get_by_label(label).click();
    h.run();
    h.get_by_label(label).type_text(text);
    h.run();
}

/// The games an index of `files` made by the library keeps.
fn made_games(files: &[std::path::PathBuf]) -> u64 {
    let dir = temp_dir("ui-explorer-build-reference");
    let options = hastings::workspace::explorer::MakeOptions::default();
    hastings::workspace::explorer::make_explorer(
        files,
        &dir,
        &options,
        &hastings::job::JobProgress::new(),
    )
    .unwrap();
    let games = ExplorerIndex::open(&dir).unwrap().games();
    std::fs::remove_dir_all(&dir).unwrap();
    games
}

fn games_at_start(dir: &Path) -> u64 {
    ExplorerIndex::open(dir)
        .unwrap()
        .query_position(&Chess::default(), &ExplorerFilter::default())
        .unwrap()
        .total()
        .games()
}

#[test]
fn an_explorer_built_in_the_window_is_open_again_after_a_restart() {
    let data = temp_dir("ui-explorer-build-data");
    let games = temp_dir("ui-explorer-build-games");
    std::fs::copy(fixture("lichess_db_100k.pgn"), games.join("lichess.pgn")).unwrap();
    std::fs::create_dir_all(games.join("more")).unwrap();
    std::fs::copy(
        fixture("twic1599_100k.pgn"),
        games.join("more").join("twic.pgn"),
    )
    .unwrap();
    let settings = hastings::coach::settings::Settings {
        explorer_evals: false,
        ..common::settings()
    };
    let mut app = TrainerApp::with_progress_file(eco(), settings, Some(data.join("progress.ron")));
    app.set_settings_file(Some(data.join("settings.json")));
    app.use_path_field_only();
    let mut h = window(app);
    h.get_by_label("Explorer").click();
    h.run();
    type_into(
        &mut h,
        "Games (files or folders)",
        &games.display().to_string(),
    );
    type_into(&mut h, "Explorer's name", "club");
    h.get_by_label("Build").click();
    h.run();
    common::wait_until(&mut h, "the explorer built and open", |app| {
        app.coach().explorer().build().progress().is_none()
            && app.coach().explorer().index().is_some()
    });
    let built = data.join("explorers").join("club.explorer");
    let index = h.state().coach().explorer().index().unwrap().clone();
    assert_eq!(index.dir(), built.as_path());
    // Both files, the one in the folder below too: as many games as `explorer make`
    // counts in them.
    let both = made_games(&[fixture("lichess_db_100k.pgn"), fixture("twic1599_100k.pgn")]);
    assert_eq!(index.games(), both);
    h.get_by_label_contains("Built ");

    // More games, from a file.
    h.get_by_label("Add games…").scroll_to_me();
    h.run();
    h.get_by_label("Add games…").click();
    h.run();
    type_into(
        &mut h,
        "Games to add",
        &fixture("compare_games.pgn").display().to_string(),
    );
    h.get_by_label("Add").click();
    h.run();
    common::wait_until(&mut h, "the games added", |app| {
        app.coach().explorer().build().progress().is_none()
            && app
                .coach()
                .explorer()
                .index()
                .is_some_and(|i| i.games() > both)
    });
    let added = made_games(&[fixture("compare_games.pgn")]);
    assert_eq!(ExplorerIndex::open(&built).unwrap().games(), both + added);
    assert!(games_at_start(&built) > 0);

    // Closed as eframe closes it, and started again on the same data folder.
    eframe::App::save(h.state_mut(), &mut common::MemoryStorage::default());
    h.state_mut().coach_mut().shut_down();
    drop(h);
    let mut app = TrainerApp::restore(
        eco(),
        None,
        Some(data.join("settings.json")),
        Some(data.join("progress.ron")),
    );
    app.coach_mut().finish_loading();
    let h = window(app);
    assert_eq!(
        h.state()
            .coach()
            .explorer()
            .index()
            .map(|i| i.dir().to_owned()),
        Some(built),
        "the explorer built in the window is open again"
    );
}

#[test]
fn a_folder_without_pgn_says_so_and_builds_nothing() {
    let data = temp_dir("ui-explorer-build-empty-data");
    let empty = temp_dir("ui-explorer-build-empty");
    let mut app =
        TrainerApp::with_progress_file(eco(), common::settings(), Some(data.join("progress.ron")));
    app.use_path_field_only();
    let mut h = window(app);
    h.get_by_label("Explorer").click();
    h.run();
    type_into(
        &mut h,
        "Games (files or folders)",
        &empty.display().to_string(),
    );
    type_into(&mut h, "Explorer's name", "nothing");
    h.get_by_label("Build").click();
    h.run();
    h.get_by_label_contains("has no PGN file");
    assert!(!data.join("explorers").join("nothing.explorer").exists());
    assert!(h.state().coach().explorer().index().is_none());
}

/// The window's build against `hastings explorer make` on the same games (run by hand:
/// `HASTINGS_BUILD_BENCH=GAMES.pgn cargo test --test all ui_explorer_build::measure --
/// --ignored --nocapture`): each twice, alternating, the best of each printed.
#[test]
#[ignore = "a measurement, run by hand on a large file"]
fn measure_the_window_build_against_the_cli() {
    use hastings::coach::explorer::ExplorerCommand;
    use hastings::coach::{Coach, Command};
    use std::time::Instant;

    let Some(games) = std::env::var_os("HASTINGS_BUILD_BENCH") else {
        return;
    };
    let games = std::path::PathBuf::from(games);
    let (mut cli, mut window) = (f64::MAX, f64::MAX);
    for round in 0..2 {
        let out = temp_dir(&format!("bench-cli-{round}")).join("cli.explorer");
        let started = Instant::now();
        let (code, _, stderr) = common::hastings(&[
            "explorer",
            "make",
            games.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stderr}");
        cli = cli.min(started.elapsed().as_secs_f64());
        let data = temp_dir(&format!("bench-window-{round}"));
        let mut coach = Coach::new(eco(), common::settings(), Some(data.join("progress.ron")));
        let started = Instant::now();
        coach.apply(Command::Explorer(ExplorerCommand::Build {
            inputs: vec![games.clone()],
            name: "bench".to_owned(),
        }));
        coach.finish_explorer_build();
        window = window.min(started.elapsed().as_secs_f64());
        assert!(
            coach.explorer().index().is_some(),
            "{:?}",
            coach.explorer().build().outcome()
        );
        let _ = std::fs::remove_dir_all(out.parent().unwrap());
        let _ = std::fs::remove_dir_all(&data);
    }
    println!(
        "explorer make {cli:.2} s, the window's build {window:.2} s ({:+.1} %)",
        100.0 * (window / cli - 1.0)
    );
}
