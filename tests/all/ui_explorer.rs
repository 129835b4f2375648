//! The Explorer tab in the window: an index made from the lichess fixture, opened with
//! "Open explorer index…" (the path field standing in for the folder dialog), shows
//! the moves after 1.e4 with their games and white/draw/black shares as the index
//! counts them; leaving out a speed changes the counts shown; it hides while the
//! learner is to move (the answer) and a click on a move plays it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::book::explorer::{ExplorerFilter, Speed};
use hastings::coach::Command;
use hastings::trainer::Phase;
use hastings::ui::TrainerApp;
use hastings::workspace::explorer::ExplorerIndex;
use shakmaty::Chess;

use crate::common;
use common::explorer::{assert_shows, labels, open_index};

fn make_index(name: &str) -> (std::path::PathBuf, ExplorerIndex) {
    common::explorer::make_index(name, "lichess_db_100k.pgn", &[])
}

fn harness(hide_answer: bool, size: (f32, f32)) -> Harness<'static, TrainerApp> {
    common::explorer::window(common::explorer::drill_settings(hide_answer), size)
}

#[test]
fn the_tab_shows_the_moves_after_e4_and_a_filter_changes_them() {
    let (dir, index) = make_index("ui-explorer-e4");
    let mut h = harness(true, (1280.0, 800.0));
    open_index(&mut h, &dir);
    // The learner (White) is to move, "Hide while I answer" is on: the explorer hides.
    h.get_by_label("Hidden until you move: it would give the answer away.");
    // 1.e4, the computer replies; the position after 1.e4 is shown (step back).
    let e4 = common::san_moves("e4")[0];
    h.state_mut().coach_mut().apply(Command::Play(e4));
    h.run();
    assert_eq!(*h.state().coach().session().phase(), Phase::LearnerToMove);
    h.state_mut().coach_mut().apply(Command::ShowPly(1));
    h.run();
    let after_e4 = common::position_after("e4");
    let all = index
        .query_position(&after_e4, &ExplorerFilter::default())
        .unwrap();
    let shown = labels(&all, &after_e4);
    assert_shows(&h, &shown);
    h.get_by_label(&common::explorer::total_label(all.total().games()));

    // Leave out blitz: the counts are those of the other speeds.
    h.get_by_label(Speed::Blitz.name()).click();
    h.run();
    let mut filter = ExplorerFilter::default();
    filter.speeds &= !(1 << Speed::Blitz.index());
    assert_eq!(*h.state().coach().explorer().filter(), filter);
    let fewer = index.query_position(&after_e4, &filter).unwrap();
    assert!(
        fewer.total().games() < all.total().games(),
        "the fixture has blitz games after 1.e4"
    );
    let changed = labels(&fewer, &after_e4);
    assert_shows(&h, &changed);
    h.get_by_label(&common::explorer::total_label(fewer.total().games()));
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
    assert_eq!(h.state().coach().session().moves()[0].mv, mv);
}

#[test]
fn in_review_it_shows_only_after_the_learner_answered() {
    use hastings::coach::review::DrillMode;
    use hastings::coach::{Action, Coach};
    use hastings::trainer::review_drill::ReviewStep;

    let (dir, _) = make_index("ui-explorer-review");
    let data = common::temp_dir("ui-explorer-review-data");
    // Free drill would show it at the learner's turn: review hides it anyway.
    let settings = common::explorer::drill_settings(false);
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
        if let Some(ReviewStep::Learn(_)) = coach.review().step() {
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
