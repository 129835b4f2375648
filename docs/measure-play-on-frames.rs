//! Frame times of the window while an engine thinks (not compiled with the crate: a
//! measurement, run by hand). Copy it into `tests/` and run it in release mode:
//!
//!   cp docs/measure-play-on-frames.rs tests/zz_frame_timing.rs
//!   cargo test --release --test zz_frame_timing -- --nocapture
//!   rm tests/zz_frame_timing.rs
//!
//! It drives the real window with egui_kittest (logic, layout and tessellation of each
//! frame; no GPU), starts "Play on from here" and steps a frame every 16 ms while the
//! engine analyses (the built-in α-β engine, then Stockfish), printing the wall time of
//! each frame's `step` (median, p95, max) next to the idle drill's.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::ui::TrainerApp;
use hastings::ui::play_on::{EngineKind, PlayOnSettings};
use hastings::ui::state::{Settings, Side};
use std::time::{Duration, Instant};
mod common;


fn measure(kind: EngineKind) {
    let settings = Settings {
        learner: Side::Black,
        seed: "11".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        play_on: PlayOnSettings {
            engine: kind,
            skill: 20,
            movetime_ms: 3000,
            ..PlayOnSettings::default()
        },
        ..Settings::default()
    };
    let app = TrainerApp::new(common::eco(), settings);
    let mut h = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(8)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
    h.run_ok();
    // Black: White's book move comes first, then the learner is to move.
    for _ in 0..20 {
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    {
        let mut base = Vec::new();
        for _ in 0..100 {
            let t = Instant::now();
            h.step();
            base.push(t.elapsed().as_secs_f64() * 1e3);
            std::thread::sleep(Duration::from_millis(16));
        }
        base.sort_by(f64::total_cmp);
        let n = base.len();
        eprintln!(
            "drill only: {n} frames, median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
            base[n / 2],
            base[n * 95 / 100],
            base[n - 1]
        );
    }
    h.get_by_label("Play on from here").click();
    h.step();
    let mut times = Vec::new();
    let end = Instant::now() + Duration::from_secs(8);
    while Instant::now() < end {
        let searching = h.state().play_on().unwrap().is_searching();
        let t = Instant::now();
        h.step();
        if searching {
            let d = t.elapsed().as_secs_f64() * 1e3;
            if d > 10.0 {
                eprintln!("  frame {} took {d:.1} ms", times.len());
            }
            times.push(d);
        }
        std::thread::sleep(Duration::from_millis(16));
    }
    let p = h.state().play_on().unwrap();
    times.sort_by(f64::total_cmp);
    let n = times.len();
    eprintln!(
        "{kind:?}: engine {} searching {} depth {:?}: {n} frames, median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        p.engine_name(),
        p.is_searching(),
        p.evaluation().map(|e| e.depth),
        times[n / 2],
        times[n * 95 / 100],
        times[n - 1]
    );
}

#[test]
fn frame_times_while_the_engine_thinks() {
    measure(EngineKind::AlphaBeta);
    measure(EngineKind::Stockfish);
}
