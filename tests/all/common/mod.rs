//! Helpers shared by the integration tests: games written as SAN.

#![allow(dead_code, clippy::unwrap_used)] // not every test file uses every helper

use std::process::Command;

pub mod explorer;
pub mod repertoire_window;
pub mod storage;
pub mod stub_engine;
pub mod text;

pub use storage::MemoryStorage;
pub use text::without_move_numbers;

use hastings::book::{NodeId, PositionGraph};
use shakmaty::{Chess, Move, Position};

/// The moves of `sans` ("e4 e5 Nf3") played from the standard position.
pub fn san_moves(sans: &str) -> Vec<Move> {
    hastings::book::movelist::parse_moves(&Chess::default(), sans).unwrap()
}

/// The position after `sans` from the standard position.
pub fn position_after(sans: &str) -> Chess {
    let mut pos = Chess::default();
    for m in san_moves(sans) {
        pos.play_unchecked(m);
    }
    pos
}

/// The nodes of the game `sans`, the start first.
pub fn history(graph: &PositionGraph, sans: &str) -> Vec<NodeId> {
    let mut pos = Chess::default();
    let mut out = vec![graph.lookup(&pos).unwrap()];
    for m in san_moves(sans) {
        pos.play_unchecked(m);
        out.push(graph.lookup(&pos).unwrap());
    }
    out
}

/// Runs the `hastings` binary: (exit code, stdout, stderr).
pub fn hastings(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hastings"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

// ---------------------------------------------------------------------------------------
// Fixtures and PGN imports (tests/book_pgn*.rs).

/// The path of a file in `tests/fixtures`.
pub fn fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The bytes of a file in `tests/fixtures`.
pub fn fixture_bytes(name: &str) -> Vec<u8> {
    let path = fixture(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The embedded ECO graph, built once per test binary.
pub fn eco_graph() -> &'static PositionGraph {
    eco_arc()
}

/// The embedded ECO graph shared as the window and the drill hold it.
pub fn eco() -> std::sync::Arc<PositionGraph> {
    std::sync::Arc::clone(eco_arc())
}

fn eco_arc() -> &'static std::sync::Arc<PositionGraph> {
    static ECO: std::sync::LazyLock<std::sync::Arc<PositionGraph>> =
        std::sync::LazyLock::new(|| std::sync::Arc::new(PositionGraph::eco().unwrap()));
    &ECO
}

/// A fresh, empty directory for one test, `hastings-tests-<pid>/<name>` in the system's
/// temporary directory.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("hastings-tests-{}", std::process::id()))
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Import options: `mode`, no ply limit of its own.
pub fn import_options(mode: hastings::book::ImportMode) -> hastings::book::ImportOptions {
    hastings::book::ImportOptions {
        mode,
        max_plies: None,
    }
}

/// A fixture imported as source 1 in `mode`, named by the ECO graph.
pub fn import_fixture(name: &str, mode: hastings::book::ImportMode) -> hastings::book::PgnImport {
    let bytes = fixture_bytes(name);
    let options = import_options(mode);
    hastings::book::pgn::read_pgn(
        &bytes[..],
        hastings::book::SourceId(1),
        &options,
        Some(eco_graph()),
    )
    .unwrap()
}

/// The moves of a line in SAN, separated by spaces.
pub fn line_sans(line: &hastings::book::OpeningLine) -> String {
    line.sans()
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Pearson's chi-square of `observed` counts against `expected` ones, cells expected
/// fewer than 5 times pooled into one: (chi-square, degrees of freedom).
pub fn pooled_chi2(expected: &[f64], observed: &[usize]) -> (f64, usize) {
    let (mut chi2, mut cells, mut pool_e, mut pool_o) = (0.0, 0usize, 0.0, 0.0);
    for (&e, &o) in expected.iter().zip(observed) {
        if e < 5.0 {
            pool_e += e;
            pool_o += o as f64;
        } else {
            chi2 += (o as f64 - e).powi(2) / e;
            cells += 1;
        }
    }
    if pool_e > 0.0 {
        chi2 += (pool_o - pool_e).powi(2) / pool_e;
        cells += 1;
    }
    (chi2, cells.saturating_sub(1))
}

/// The chi-square critical value for `df` degrees of freedom at p = 0.001
/// (Wilson–Hilferty; z = 3.0902).
pub fn chi2_critical(df: usize) -> f64 {
    let k = df as f64;
    let z = 3.0902;
    k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

// ---------------------------------------------------------------------------------------
// Engines (tests/engine_*.rs).

/// Stockfish, for the tests that play against it. Where it is not installed the test is
/// skipped with a note, except under CI (the `CI` variable set), where a missing
/// Stockfish fails the test: CI installs it, so a test that did not run is a failure.
pub fn stockfish_or_skip() -> Option<std::path::PathBuf> {
    let found = hastings::engine::discover::stockfish();
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but Stockfish is not installed (apt-get install stockfish)"
        );
        eprintln!("note: Stockfish is not installed; skipping (apt-get install stockfish)");
    }
    found
}

/// The settings of a test that is not about the wrong-move verdict: the defaults, with
/// no engine judging wrong moves. With it on, the window starts Stockfish at the first
/// position the learner is to move at and has it analyse the book's moves there, a core
/// busy for the whole test: under `cargo test` that was a fifth of all the CPU time
/// (docs/performance.md, "Test times"). The verdict's tests (`coach_verdict`,
/// `ui_verdict`, `ui_human_moves`), the layout tests and the settings file's keep the
/// defaults.
pub fn settings() -> hastings::coach::settings::Settings {
    hastings::coach::settings::Settings {
        explain_wrong_moves: false,
        ..hastings::coach::settings::Settings::default()
    }
}

/// The window's harness, as the UI tests build it.
pub type AppHarness = egui_kittest::Harness<'static, hastings::ui::TrainerApp>;

/// The window showing `coach` at 1280×800, after its first frames (at most 64 steps a
/// run, as the drill tests drive it).
pub fn drill_window(coach: hastings::coach::Coach) -> AppHarness {
    let mut harness = egui_kittest::Harness::builder()
        .with_size(eframe::egui::vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut hastings::ui::TrainerApp| app.frame_ui(ui),
            hastings::ui::TrainerApp::of(coach),
        );
    harness.run();
    harness
}

/// The label of a board square in the window: "e4", or "e4 white knight" when a piece
/// stands there.
pub fn square_label(pos: &Chess, sq: shakmaty::Square) -> String {
    match pos.board().piece_at(sq) {
        Some(p) => format!(
            "{sq} {} {}",
            if p.color.is_white() { "white" } else { "black" },
            format!("{:?}", p.role).to_lowercase()
        ),
        None => sq.to_string(),
    }
}

/// Plays `mv` in the drill by clicking its piece, then its target square, and steps two
/// frames.
pub fn click_move(h: &mut AppHarness, mv: Move) {
    use egui_kittest::kittest::Queryable as _;
    let pos = h.state().coach().session().position().clone();
    let (from, to) = (
        square_label(&pos, mv.from().unwrap()),
        square_label(&pos, mv.to()),
    );
    h.get_by_label(&from).click();
    // One frame takes the click (the piece is picked up); running until the window
    // settles took two more frames per move, for nothing the second click needs.
    h.step();
    h.get_by_label(&to).click();
    h.step();
    h.step();
}

/// In the window's "read as" dialog: chooses `mode` ("My repertoire", "A game
/// collection", …), presses Import, and waits for the import and the new book.
pub fn import_as(h: &mut AppHarness, mode: &str) {
    use egui_kittest::kittest::Queryable as _;
    h.get_by_label(mode).click();
    h.run();
    h.get_by_label("Import").click();
    h.step();
    h.state_mut().coach_mut().finish_loading();
    h.run();
}

/// Opens `paths` as the file dialog or a drop does, then [`import_as`] `mode`.
pub fn open_in_window(h: &mut AppHarness, paths: Vec<std::path::PathBuf>, mode: &str) {
    h.state_mut().open_files(paths);
    h.run();
    import_as(h, mode);
}

/// In the window: opens `path` as the learner's repertoire, closes the report and opens
/// the Book tab; read as "My repertoire", the book is only the repertoire.
pub fn load_repertoire_in_window(h: &mut AppHarness, path: std::path::PathBuf) {
    use egui_kittest::kittest::Queryable as _;
    open_in_window(h, vec![path], "My repertoire");
    h.get_by_label("Close").click();
    h.run();
    h.get_by_label("Book").click();
    h.run();
    h.state_mut().coach_mut().finish_loading();
    h.run();
    assert!(h.state().coach().is_repertoire());
}

/// Runs frames until the window needs no more, waiting while a background job's spinner
/// keeps it repainting (for at most a minute): `Harness::run` alone gives up after its
/// steps when a job outlives them on a loaded machine.
pub fn settle(harness: &mut AppHarness) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while let Err(err) = harness.try_run() {
        assert!(std::time::Instant::now() < deadline, "never settled: {err}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The name under which the test harness lists test `name` of the file whose
/// `module_path!()` is `module` (for `--exact` when a test runs its own binary again):
/// bare when the file is a test binary of its own, with the file's module path when the
/// files are modules of one binary.
pub fn exact_test_name(module: &str, name: &str) -> String {
    match module.split_once("::") {
        Some((_, path)) => format!("{path}::{name}"),
        None => name.to_owned(),
    }
}

/// Steps frames (an engine or a job works on its own thread meanwhile) until `done`,
/// for at most a minute.
pub fn wait_until(
    harness: &mut AppHarness,
    what: &str,
    done: impl Fn(&hastings::ui::TrainerApp) -> bool,
) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !done(harness.state()) {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        harness.step();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    harness.step();
}

/// One frame's work of a headless coach, a second later than the last.
pub fn coach_frame(coach: &mut hastings::coach::Coach) {
    let now = coach.time() + 1.0;
    coach.set_time(now);
    coach.logic();
}

/// Loads `path` into a headless coach as the learner's repertoire, drops ECO from the
/// book, and waits for every rebuild and a frame.
pub fn load_repertoire_alone(coach: &mut hastings::coach::Coach, path: &std::path::Path) {
    use hastings::coach::Command;
    coach.apply(Command::Import(
        vec![path.to_owned()],
        hastings::workspace::FileMode::Repertoire,
    ));
    coach.finish_loading();
    let mut choice = coach.workspace().choice().clone();
    choice.eco = false;
    coach.apply(Command::SetBook(choice));
    coach.finish_loading();
    coach_frame(coach);
}
