//! The explorer built in the window from a large PGN file, against `hastings explorer
//! make`, and the window's frame times meanwhile and while the eval column fills (issue
//! 42's targets: within 10 % of the CLI's time, frames ≤ 16 ms). Not compiled with the
//! crate: a measurement, run by hand. Copy it into `tests/` and run it in release mode
//! on a file of games (`cargo bench -p hastings-bench --bench explorer -- --write-pgn FILE 1000000`
//! writes 1,000,000 generated games, 542 MB):
//!
//!   cp docs/measure-explorer-window.rs tests/zz_explorer_window.rs
//!   HASTINGS_MEASURE_GAMES=/tmp/explorer-1m.pgn cargo test --release \
//!     --test zz_explorer_window -- --nocapture --test-threads 1
//!   rm tests/zz_explorer_window.rs
//!
//! `a_…` times `explorer make` and the core's build of the same games (the job the
//! window runs, waited for), alternating, twice each. `b_…` drives the real window
//! (egui_kittest, 1280×800; logic, layout and tessellation, no GPU) on the Explorer tab
//! while it builds, stepping a frame every 16 ms and printing the median, p95 and max of
//! each frame's `step`. `c_…` opens that index, has an engine evaluate the moves shown
//! (the built-in engine as `hastings uci`, then Stockfish at /usr/games/stockfish when
//! it is there) and prints the same while the eval column fills.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::explorer::ExplorerCommand;
use hastings::coach::{Coach, Command};
use hastings::engine::{EngineChoice, Limits, Strength};
use hastings::trainer::verdict::checker::CheckEngine;
use hastings::ui::TrainerApp;

#[path = "all/common/mod.rs"]
mod common;

/// The games to build from, or `None` (the measurement is skipped).
fn games() -> Option<PathBuf> {
    std::env::var_os("HASTINGS_MEASURE_GAMES").map(PathBuf::from)
}

/// Where `b_…` builds and `c_…` opens the index.
fn window_data() -> PathBuf {
    std::env::temp_dir().join("hastings-measure-explorer-window")
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg").unwrap_or_default()
}

/// The CPU time this thread has used (ms): a frame's own work, without the time it
/// waited for a core (the machine is shared).
fn thread_cpu_ms() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec to write to.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

/// Each frame's wall time and the CPU time the window's thread used in it (ms).
#[derive(Default)]
struct Frames {
    wall: Vec<f64>,
    cpu: Vec<f64>,
}

/// Median, p95 and max of `times` (ms), and how many are over 16 ms.
fn summary(times: &[f64]) -> String {
    let mut times = times.to_vec();
    times.sort_by(f64::total_cmp);
    let n = times.len();
    let over = times.iter().filter(|&&t| t > 16.0).count();
    format!(
        "median {:.2} ms, p95 {:.2} ms, max {:.2} ms, {over} over 16 ms",
        times[n / 2],
        times[n * 95 / 100],
        times[n - 1]
    )
}

fn report(what: &str, frames: Frames) {
    assert!(!frames.wall.is_empty(), "{what}: no frame");
    eprintln!(
        "{what}: {} frames; wall: {}; the window thread's CPU: {} (load {})",
        frames.wall.len(),
        summary(&frames.wall),
        summary(&frames.cpu),
        load().trim()
    );
}

fn window(data: &Path) -> Harness<'static, TrainerApp> {
    let settings = hastings::coach::settings::Settings {
        explorer_evals: false,
        ..common::settings()
    };
    let app =
        TrainerApp::with_progress_file(common::eco(), settings, Some(data.join("progress.ron")));
    let mut h = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(50)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
    h.run_ok();
    h.get_by_label("Explorer").click();
    h.run_ok();
    h
}

/// Steps a frame every 16 ms while `going`, printing each frame's step over 16 ms (its
/// wall and CPU time, and how far the explorer's build is).
fn frames(h: &mut Harness<'static, TrainerApp>, going: impl Fn(&TrainerApp) -> bool) -> Frames {
    let mut times = Frames::default();
    let deadline = Instant::now() + Duration::from_secs(900);
    while going(h.state()) && Instant::now() < deadline {
        let t = Instant::now();
        let c = thread_cpu_ms();
        h.step();
        let d = t.elapsed().as_secs_f64() * 1e3;
        let cpu = thread_cpu_ms() - c;
        if d > 16.0 {
            let build = h.state().coach().explorer().build().progress();
            eprintln!(
                "  frame {} took {d:.1} ms, {cpu:.1} ms of CPU (build: {:?})",
                times.wall.len(),
                build.map(|b| (b.done, b.total))
            );
        }
        times.wall.push(d);
        times.cpu.push(cpu);
        std::thread::sleep(Duration::from_millis(16));
    }
    times
}

#[test]
fn a_the_windows_build_against_the_cli() {
    let Some(games) = games() else { return };
    for round in 0..2 {
        let out = std::env::temp_dir().join(format!("hastings-measure-cli-{round}.explorer"));
        let _ = std::fs::remove_dir_all(&out);
        let load_before = load();
        let started = Instant::now();
        let (code, _, stderr) = common::hastings(&[
            "explorer",
            "make",
            games.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stderr}");
        let cli = started.elapsed().as_secs_f64();
        let _ = std::fs::remove_dir_all(&out);
        let data = std::env::temp_dir().join(format!("hastings-measure-core-{round}"));
        let _ = std::fs::remove_dir_all(&data);
        std::fs::create_dir_all(&data).unwrap();
        let mut coach = Coach::new(
            common::eco(),
            common::settings(),
            Some(data.join("progress.ron")),
        );
        let started = Instant::now();
        coach.apply(Command::Explorer(ExplorerCommand::Build {
            inputs: vec![games.clone()],
            name: "measure".to_owned(),
        }));
        coach.finish_explorer_build();
        let core = started.elapsed().as_secs_f64();
        assert!(
            coach.explorer().index().is_some(),
            "{:?}",
            coach.explorer().build().outcome()
        );
        drop(coach);
        let _ = std::fs::remove_dir_all(&data);
        eprintln!(
            "round {round}: explorer make {cli:.1} s, the window's build {core:.1} s ({:+.1} %) \
             (load before {}, after {})",
            100.0 * (core / cli - 1.0),
            load_before.trim(),
            load().trim()
        );
    }
}

#[test]
fn b_frames_while_the_window_builds() {
    let Some(games) = games() else { return };
    let data = window_data();
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let mut h = window(&data);
    report(
        "Explorer tab, idle, no index",
        frames(&mut h, {
            let end = Instant::now() + Duration::from_secs(2);
            move |_| Instant::now() < end
        }),
    );
    let started = Instant::now();
    h.state_mut()
        .coach_mut()
        .apply(Command::Explorer(ExplorerCommand::Build {
            inputs: vec![games],
            name: "measure".to_owned(),
        }));
    let times = frames(&mut h, |app| app.coach().explorer().index().is_none());
    eprintln!(
        "the window's build, frames stepped: {:.1} s",
        started.elapsed().as_secs_f64()
    );
    report(
        "Explorer tab while the window builds 1,000,000 games",
        times,
    );
    assert!(
        h.state().coach().explorer().index().is_some(),
        "{:?}",
        h.state().coach().explorer().build().outcome()
    );
    report(
        "Explorer tab, the index open, no eval",
        frames(&mut h, {
            let end = Instant::now() + Duration::from_secs(3);
            move |_| Instant::now() < end
        }),
    );
}

fn evals(engine: CheckEngine, name: &str) {
    let dir = window_data().join("explorers").join("measure.explorer");
    assert!(
        dir.is_dir(),
        "run b_… first: {} is not there",
        dir.display()
    );
    // A data folder of its own: no analysis kept by another engine is found in it.
    let data =
        std::env::temp_dir().join(format!("hastings-measure-evals-{}", name.replace(' ', "-")));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let mut h = window(&data);
    h.state_mut()
        .coach_mut()
        .apply(Command::Explorer(ExplorerCommand::Open(dir)));
    report(
        &format!("Explorer tab, the index just opened ({name}'s window)"),
        frames(&mut h, {
            let end = Instant::now() + Duration::from_secs(3);
            move |_| Instant::now() < end
        }),
    );
    assert!(h.state().coach().explorer().index().is_some());
    h.state_mut()
        .coach_mut()
        .set_explorer_engine(engine, Limits::movetime_ms(300).unwrap());
    h.state_mut()
        .coach_mut()
        .apply(Command::Explorer(ExplorerCommand::SetEvals(true)));
    let rows = |app: &TrainerApp| {
        let rows = &app.coach().explorer().view().rows;
        (rows.iter().filter(|r| r.eval.is_some()).count(), rows.len())
    };
    let started = Instant::now();
    let times = frames(&mut h, |app| {
        let (done, all) = rows(app);
        app.coach().explorer().eval_failure().is_none()
            && (all == 0 || done < all)
            && started.elapsed() < Duration::from_secs(60)
    });
    let (done, all) = rows(h.state());
    eprintln!(
        "{name}: {done} of {all} moves evaluated in {:.1} s{}",
        started.elapsed().as_secs_f64(),
        h.state()
            .coach()
            .explorer()
            .eval_failure()
            .map(|e| format!(", failed: {e}"))
            .unwrap_or_default()
    );
    report(
        &format!("Explorer tab while {name} fills the eval column"),
        times,
    );
    drop(h);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn c_frames_while_the_eval_column_fills() {
    if games().is_none() {
        return;
    }
    evals(
        CheckEngine::Choice(EngineChoice::Uci {
            path: PathBuf::from(env!("CARGO_BIN_EXE_hastings")),
            args: vec!["uci".to_owned()],
            strength: Strength::Full,
        }),
        "hastings uci",
    );
    let stockfish = Path::new("/usr/games/stockfish");
    if stockfish.is_file() {
        evals(
            CheckEngine::Choice(EngineChoice::Uci {
                path: stockfish.to_path_buf(),
                args: Vec::new(),
                strength: Strength::Full,
            }),
            "Stockfish",
        );
    }
    // HASTINGS_MEASURE_KEEP=1 keeps the index built for another run of `c_…` alone.
    if std::env::var_os("HASTINGS_MEASURE_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(window_data());
    }
}
