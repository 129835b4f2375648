//! The Explorer tab in the window: an index made from the lichess fixture, opened with
//! "Open explorer index…" (the path field standing in for the folder dialog), shows
//! the moves after 1.e4 with their games and white/draw/black shares as the index
//! counts them; leaving out a speed changes the counts shown; it hides while the
//! learner is to move (the answer) and a click on a move plays it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::path::Path;

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::book::explorer::{ExplorerFilter, PositionStats, Speed};
use hastings::coach::Command;
use hastings::coach::settings::{Settings, Side};
use hastings::job::JobProgress;
use hastings::trainer::Phase;
use hastings::ui::TrainerApp;
use hastings::workspace::explorer::{ExplorerIndex, MakeOptions, make_explorer};
use shakmaty::Chess;
use shakmaty::san::SanPlus;

mod common;

fn make_index(name: &str) -> (std::path::PathBuf, ExplorerIndex) {
    let dir = common::temp_dir(name);
    make_explorer(
        &[common::fixture("lichess_db_100k.pgn")],
        &dir,
        &MakeOptions::default(),
        &JobProgress::new(),
    )
    .unwrap();
    let index = ExplorerIndex::open(&dir).unwrap();
    (dir, index)
}

fn harness(hide_answer: bool, size: (f32, f32)) -> Harness<'static, TrainerApp> {
    let settings = Settings {
        learner: Side::White,
        seed: "3".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        hide_answer,
        ..Settings::default()
    };
    let mut app = TrainerApp::new(common::eco(), settings);
    app.use_path_field_only();
    Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(8)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

/// Opens the Explorer tab and the index at `dir` through its button and the path field.
fn open_index(h: &mut Harness<'static, TrainerApp>, dir: &Path) {
    h.run();
    h.get_by_label("Explorer").click();
    h.run();
    h.get_by_label("Open explorer index…").click();
    h.run();
    h.get_by_label("Path").type_text(&dir.display().to_string());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    assert!(h.state().explorer().index().is_some(), "the index is open");
}

/// The labels the tab gives each move of `stats` at `pos`: its row and its bar.
fn labels(stats: &PositionStats, pos: &Chess) -> Vec<(String, String)> {
    let total = stats.total().games() as f64;
    stats
        .moves
        .iter()
        .filter(|m| m.games() > 0)
        .map(|m| {
            let mv = m.raw_move.to_move(pos).unwrap();
            let san = SanPlus::from_move(pos.clone(), mv).to_string();
            let games = m.games() as f64;
            let avg = m
                .average_rating()
                .map_or_else(|| "-".to_owned(), |r| r.to_string());
            let noun = if m.games() == 1 { "game" } else { "games" };
            let row = format!(
                "{san}  {:.0}%  {} {noun}  avg {avg}",
                100.0 * games / total,
                m.games()
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

fn assert_shows(h: &Harness<'static, TrainerApp>, shown: &[(String, String)]) {
    assert!(!shown.is_empty());
    for (row, bar) in shown {
        h.get_by_label(row);
        h.get_by_label(bar);
    }
}

#[test]
fn the_tab_shows_the_moves_after_e4_and_a_filter_changes_them() {
    let (dir, index) = make_index("ui-explorer-e4");
    let mut h = harness(true, (1280.0, 800.0));
    open_index(&mut h, &dir);
    // The learner (White) is to move and the answer is hidden: so is the explorer.
    h.get_by_label("Hidden until you move: it would give the answer away.");
    // 1.e4, the computer replies; the position after 1.e4 is shown (step back).
    let e4 = common::san_moves("e4")[0];
    h.state_mut().apply(Command::Play(e4));
    h.run();
    assert_eq!(*h.state().session().phase(), Phase::LearnerToMove);
    h.state_mut().apply(Command::ShowPly(1));
    h.run();
    let after_e4 = common::position_after("e4");
    let all = index
        .query_position(&after_e4, &ExplorerFilter::default())
        .unwrap();
    let shown = labels(&all, &after_e4);
    assert_shows(&h, &shown);
    h.get_by_label(&format!("{} games here", all.total().games()));

    // Leave out blitz: the counts are those of the other speeds.
    h.get_by_label(Speed::Blitz.name()).click();
    h.run();
    let mut filter = ExplorerFilter::default();
    filter.speeds &= !(1 << Speed::Blitz.index());
    assert_eq!(*h.state().explorer().filter(), filter);
    let fewer = index.query_position(&after_e4, &filter).unwrap();
    assert!(
        fewer.total().games() < all.total().games(),
        "the fixture has blitz games after 1.e4"
    );
    let changed = labels(&fewer, &after_e4);
    assert_shows(&h, &changed);
    h.get_by_label(&format!("{} games here", fewer.total().games()));
    let gone: Vec<_> = shown.iter().filter(|l| !changed.contains(l)).collect();
    assert!(!gone.is_empty());
    for (row, _) in gone {
        assert!(h.query_by_label(row).is_none(), "{row} is still shown");
    }
}

#[test]
fn a_click_on_a_move_plays_it() {
    let (dir, index) = make_index("ui-explorer-click");
    let mut h = harness(false, (800.0, 600.0));
    open_index(&mut h, &dir);
    let start = Chess::default();
    let stats = index
        .query_position(&start, &ExplorerFilter::default())
        .unwrap();
    let shown = labels(&stats, &start);
    assert_shows(&h, &shown);
    // The most played move first.
    let top = stats.moves.iter().max_by_key(|m| m.games()).unwrap();
    let mv = top.raw_move.to_move(&start).unwrap();
    let (row, _) = &shown[stats.moves.iter().position(|m| m == top).unwrap()];
    h.get_by_label(row).click();
    h.run();
    assert_eq!(h.state().session().moves()[0].mv, mv);
}

#[test]
fn in_review_it_shows_only_after_the_learner_answered() {
    use hastings::coach::review::DrillMode;
    use hastings::coach::{Action, Coach};
    use hastings::trainer::review_drill::ReviewStep;

    let (dir, _) = make_index("ui-explorer-review");
    let data = common::temp_dir("ui-explorer-review-data");
    let settings = Settings {
        learner: Side::White,
        seed: "3".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        // Free drill would show it at the learner's turn: review hides it anyway.
        hide_answer: false,
        ..Settings::default()
    };
    let mut coach = Coach::new(common::eco(), settings, Some(data.join("progress.ron")));
    coach.apply(Command::Explorer(
        hastings::coach::explorer::ExplorerCommand::Open(dir),
    ));
    common::coach_frame(&mut coach);
    assert_eq!(*coach.session().phase(), Phase::LearnerToMove);
    assert!(!coach.explorer().view().hidden, "shown in free drill");
    assert!(!coach.explorer().view().rows.is_empty());

    coach.apply(Command::SetDrillMode(DrillMode::Review));
    let (mut hidden, mut shown) = (0, 0);
    for _ in 0..60 {
        if let Some(ReviewStep::Learn(_)) = coach.review_step() {
            coach.apply(Command::GotIt);
            continue;
        }
        common::coach_frame(&mut coach);
        let learners_turn =
            *coach.session().phase() == Phase::LearnerToMove && coach.session().viewing().is_none();
        let view = coach.explorer().view();
        assert_eq!(
            view.hidden, learners_turn,
            "hidden exactly at the learner's turn"
        );
        if view.hidden {
            hidden += 1;
            assert!(view.rows.is_empty(), "no move is given away");
            coach.apply(Command::Action(Action::ShowMe));
        } else {
            shown += 1;
        }
        if matches!(coach.session().phase(), Phase::EndOfLine { .. }) {
            break;
        }
    }
    assert!(hidden > 0 && shown > 0, "hidden {hidden}, shown {shown}");
}
