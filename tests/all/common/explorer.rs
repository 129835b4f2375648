//! Helpers of the Explorer tab's tests: an index made from a fixture, the window with
//! the path field for dialogs, opening the index through the tab, and the labels the
//! tab gives each move.

use std::path::{Path, PathBuf};

use egui_kittest::kittest::Queryable as _;
use hastings::book::explorer::{PositionStats, group_digits};
use hastings::coach::settings::{Settings, Side};
use hastings::job::JobProgress;
use hastings::ui::TrainerApp;
use hastings::workspace::explorer::{ExplorerIndex, MakeOptions, make_explorer};
use shakmaty::Chess;
use shakmaty::san::SanPlus;

use super::AppHarness;

/// The index of the fixture `file` in a fresh temporary directory `name`, keeping the
/// trees of `players`.
pub fn make_index(name: &str, file: &str, players: &[&str]) -> (PathBuf, ExplorerIndex) {
    let dir = super::temp_dir(name);
    let options = MakeOptions {
        players: players.iter().map(|p| (*p).to_owned()).collect(),
        ..MakeOptions::default()
    };
    make_explorer(&[super::fixture(file)], &dir, &options, &JobProgress::new()).unwrap();
    let index = ExplorerIndex::open(&dir).unwrap();
    (dir, index)
}

/// The drill's settings of the Explorer tab's tests: the learner White, seed 3, no
/// reply delay nor animation, the answer hidden at the learner's turn or not.
pub fn drill_settings(hide_answer: bool) -> Settings {
    Settings {
        learner: Side::White,
        seed: "3".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        hide_answer,
        explorer_hide_answer: hide_answer,
        // No engine evaluates the explorer's moves but in the tests of the eval.
        explorer_evals: false,
        ..crate::common::settings()
    }
}

/// The window with `settings` at `size`, every file dialog the path field (up to 20
/// steps a run: a background job that ends during one needs more frames to settle).
pub fn window(settings: Settings, size: (f32, f32)) -> AppHarness {
    let mut app = TrainerApp::new(super::eco(), settings);
    app.use_path_field_only();
    egui_kittest::Harness::builder()
        .with_size(eframe::egui::vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

/// Opens the Explorer tab and the index at `dir` through its button and the path field.
pub fn open_index(h: &mut AppHarness, dir: &Path) {
    h.run();
    h.get_by_label("Explorer").click();
    h.run();
    h.get_by_label("Open explorer index…").click();
    h.run();
    h.get_by_label("Path").type_text(&dir.display().to_string());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    assert!(
        h.state().coach().explorer().index().is_some(),
        "the index is open"
    );
}

/// A share as the tab writes it: `45%`, `<1%` for a rare move.
pub fn share_text(part: u64, whole: u64) -> String {
    let percent = 100.0 * part as f64 / whole.max(1) as f64;
    if percent > 0.0 && percent < 1.0 {
        "<1%".to_owned()
    } else {
        format!("{percent:.0}%")
    }
}

/// The label of the tab's last row, the position's total: `"Σ  1,234  100%"`.
pub fn total_label(games: u64) -> String {
    format!("Σ  {}  100%", group_digits(games))
}

/// The labels the tab gives each move of `stats` at `pos`: its row (move, games,
/// share) and its bar.
pub fn labels(stats: &PositionStats, pos: &Chess) -> Vec<(String, String)> {
    let total = stats.total().games();
    stats
        .moves
        .iter()
        .filter(|m| m.games() > 0)
        .map(|m| {
            let mv = m.raw_move.to_move(pos).unwrap();
            let san = SanPlus::from_move(pos.clone(), mv).to_string();
            let games = m.games() as f64;
            let row = format!(
                "{san}  {}  {}",
                group_digits(m.games()),
                share_text(m.games(), total)
            );
            let bar = format!(
                "{san}: White {:.0}% Draws {:.0}% Black {:.0}%",
                100.0 * m.white as f64 / games,
                100.0 * m.draws as f64 / games,
                100.0 * m.black as f64 / games
            );
            (row, bar)
        })
        .collect()
}

/// Asserts that the tab shows every row and bar of `shown` (and that there are some).
pub fn assert_shows(h: &AppHarness, shown: &[(String, String)]) {
    assert!(!shown.is_empty());
    for (row, bar) in shown {
        h.get_by_label(row);
        h.get_by_label(bar);
    }
}

/// The lines the tab gives the top games of `stats` at `pos`, looked up in `index`:
/// the players, then the move, result, year and rating.
pub fn top_labels(
    index: &ExplorerIndex,
    stats: &PositionStats,
    pos: &Chess,
) -> Vec<(String, String)> {
    stats
        .top
        .iter()
        .map(|t| {
            let top = index.top_game(t).unwrap();
            let mv = top.raw_move.to_move(pos).unwrap();
            let san = SanPlus::from_move(pos.clone(), mv).to_string();
            let g = top.game;
            let year = g.year.map_or("?".to_owned(), |y| y.to_string());
            let rating = g.rating.map_or("unrated".to_owned(), |r| r.to_string());
            (
                format!("{} - {}", g.white, g.black),
                format!("{san}  {}  {year}  {rating}", g.result()),
            )
        })
        .collect()
}
