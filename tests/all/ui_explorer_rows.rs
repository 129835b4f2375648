//! The Explorer tab's moves laid out as lichess does (egui_kittest, real widgets), on an
//! index of the lichess and TWIC fixtures: one row per move (move, games, share) with its
//! white/draw/black bar on the same row, inside the side panel at 1280×800 and 800×600,
//! rare moves at "<1%", the position's total as the last "Σ" row, shown at the
//! learner's turn (the chart still hides its answer) unless "Hide while I answer" is on;
//! the engine's evaluation after each move fills in from `hastings uci`, as the store of
//! analyses keeps it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::path::PathBuf;

use eframe::egui::Rect;
use egui_kittest::kittest::Queryable as _;
use hastings::book::explorer::ExplorerFilter;
use hastings::coach::settings::Settings;
use hastings::engine::{EngineChoice, Limits, Strength};
use hastings::job::JobProgress;
use hastings::trainer::Phase;
use hastings::trainer::verdict::checker::CheckEngine;
use hastings::workspace::explorer::{ExplorerIndex, MakeOptions, make_explorer};
use shakmaty::{Chess, Color, Position as _};

use crate::common;
use common::AppHarness;
use common::explorer::{labels, open_index, total_label, window};

const SIZES: [(f32, f32); 2] = [(1280.0, 800.0), (800.0, 600.0)];

/// The index of both fixtures (267 games: a move played once has a share under 1 %).
fn make_index(name: &str) -> (PathBuf, ExplorerIndex) {
    let dir = common::temp_dir(name);
    let files = [
        common::fixture("lichess_db_100k.pgn"),
        common::fixture("twic1599_100k.pgn"),
    ];
    make_explorer(&files, &dir, &MakeOptions::default(), &JobProgress::new()).unwrap();
    let index = ExplorerIndex::open(&dir).unwrap();
    (dir, index)
}

/// The drill's settings with the chart hiding the answer (the default) and the
/// explorer's own hiding as given.
fn settings(explorer_hide_answer: bool) -> Settings {
    Settings {
        explorer_hide_answer,
        ..common::explorer::drill_settings(true)
    }
}

/// The left panel's content, as the window sizes it (see `ui_layout_tabs`).
fn panel(size: (f32, f32)) -> (f32, f32) {
    let width = ((size.0 - 16.0) * 0.2).clamp(180.0, 300.0);
    (8.0, width + 0.5)
}

fn rect_of(h: &AppHarness, label: &str) -> Rect {
    h.get_by_label(label).rect()
}

#[test]
fn each_move_is_one_row_with_its_bar_inside_the_panel_on_the_learners_turn() {
    let (dir, index) = make_index("ui-explorer-rows");
    let start = Chess::default();
    let stats = index
        .query_position(&start, &ExplorerFilter::default())
        .unwrap();
    let shown = labels(&stats, &start);
    let total = stats.total().games();
    assert!(
        shown.iter().any(|(row, _)| row.ends_with("<1%")),
        "a rare move at the start: {shown:?}"
    );
    for size in SIZES {
        let mut h = window(settings(false), size);
        open_index(&mut h, &dir);
        // The learner (White) is to move, the chart hides its answer: the explorer
        // shows.
        assert_eq!(*h.state().coach().session().phase(), Phase::LearnerToMove);
        assert!(!h.state().coach().explorer().view().hidden);
        let (left, right) = panel(size);
        let mut last_row_bottom = f32::MIN;
        for (row, bar) in &shown {
            let (r, b) = (rect_of(&h, row), rect_of(&h, bar));
            // The bar on the move's row, right of its text, both inside the panel.
            assert!(
                b.center().y > r.top() && b.center().y < r.bottom(),
                "{bar} on the row of {row} at {size:?}: {r:?} {b:?}"
            );
            assert!(b.left() > r.left() + 20.0, "{bar} right of the move");
            for (what, rect) in [(row, r), (bar, b)] {
                assert!(
                    rect.left() >= left - 0.5 && rect.right() <= right,
                    "{what} inside the panel ({left}..{right}) at {size:?}: {rect:?}"
                );
            }
            assert!(r.top() >= last_row_bottom - 0.5, "rows one under the other");
            last_row_bottom = r.bottom();
        }
        // The total is the last row, with its own bar.
        let sigma = rect_of(&h, &total_label(total));
        assert!(sigma.top() >= last_row_bottom - 0.5, "Σ after the moves");
        let all_bar = h.get_by_label_contains("All moves: White").rect();
        assert!(all_bar.center().y > sigma.top() && all_bar.center().y < sigma.bottom());
        assert!(all_bar.right() <= right);
        // The performance of a move played 5 times or more (lichess's formula).
        let turn = start.turn();
        for m in stats.moves.iter().filter(|m| m.games() >= 5) {
            let san = shakmaty::san::SanPlus::from_move(
                start.clone(),
                m.raw_move.to_move(&start).unwrap(),
            );
            let p = m.performance(turn).unwrap();
            let label = format!("{san}: performance {p}");
            let node = h.get_by_label(&label);
            assert!(node.rect().right() <= right, "{san}'s performance inside");
        }
    }
}

#[test]
fn hide_while_i_answer_hides_the_moves_at_the_learners_turn_only() {
    let (dir, index) = make_index("ui-explorer-rows-hide");
    let mut h = window(settings(false), (800.0, 600.0));
    open_index(&mut h, &dir);
    let start = Chess::default();
    let stats = index
        .query_position(&start, &ExplorerFilter::default())
        .unwrap();
    let (row, _) = &labels(&stats, &start)[0];
    h.get_by_label(row);
    h.get_by_label("Hide while I answer").scroll_to_me();
    h.run();
    h.get_by_label("Hide while I answer").click();
    h.run();
    assert!(h.state().coach().settings().explorer_hide_answer);
    h.get_by_label("Hidden until you move: it would give the answer away.");
    assert!(h.query_by_label(row).is_none(), "{row} given away");
    // Once the learner has moved, the computer's reply and the next turn: looking back
    // at the start shows the moves again.
    h.state_mut()
        .coach_mut()
        .apply(hastings::coach::Command::Play(common::san_moves("e4")[0]));
    h.run();
    h.state_mut()
        .coach_mut()
        .apply(hastings::coach::Command::ShowPly(0));
    h.run();
    h.get_by_label(row);
}

#[test]
fn the_eval_column_fills_from_the_engine_as_the_store_keeps_it() {
    let (dir, _) = make_index("ui-explorer-rows-eval");
    let mut s = settings(false);
    s.explorer_evals = true;
    let mut h = window(s, (1280.0, 800.0));
    let engine = CheckEngine::Choice(EngineChoice::Uci {
        path: PathBuf::from(env!("CARGO_BIN_EXE_hastings")),
        args: vec!["uci".into()],
        strength: Strength::Full,
    });
    h.state_mut()
        .coach_mut()
        .set_explorer_engine(engine, Limits::depth(2).unwrap());
    open_index(&mut h, &dir);
    common::wait_until(&mut h, "every move evaluated", |app| {
        let view = app.coach().explorer().view();
        !view.rows.is_empty() && view.rows.iter().all(|r| r.eval.is_some())
    });
    let view = h.state().coach().explorer().view().clone();
    let store = h.state().coach().verdict().store().clone();
    for row in &view.rows {
        let mut after = view.position.clone();
        after.play_unchecked(row.mv);
        let kept = store
            .lock()
            .unwrap()
            .get(&after)
            .expect("kept in the store");
        let eval = kept.score_for(Color::White, after.turn());
        assert_eq!(row.eval, Some(eval), "{}", row.counts.san);
        h.get_by_label(&format!("{}: eval {eval}", row.counts.san));
    }
    // Out of view, the engine rests: the next position's moves are not evaluated.
    h.get_by_label("Style").click();
    h.run();
    h.state_mut()
        .coach_mut()
        .apply(hastings::coach::Command::Play(common::san_moves("e4")[0]));
    h.run();
    assert!(!h.state().coach().explorer().evaluates());
    let view = h.state().coach().explorer().view();
    assert!(view.rows.iter().all(|r| r.eval.is_none()), "{view:?}");
}
