//! The Coverage tab driven through the real widgets with egui_kittest: the gap list of a
//! fixture repertoire, "Drill this gap", "Back to my repertoire", and "Check my games…"
//! listing the games with their first deviation, each clickable to its position.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::{accesskit::Role, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::book::{ImportMode, NodeKey, PositionGraph};
use hastings::coach::Command;
use hastings::coach::coverage::CoverageParams;
use hastings::coach::settings::{Settings, Side};
use hastings::trainer::Phase;
use hastings::trainer::coverage::one_in;
use hastings::ui::TrainerApp;
use std::path::PathBuf;

use crate::common;
use common::{eco, fixture, import_fixture, position_after};
use hastings::coach::coverage::CoverageCommand;

fn harness_for(app: TrainerApp) -> Harness<'static, TrainerApp> {
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        // The exposure and the games are computed on background threads; when one ends
        // during `run`, the frames that show its result need more than 8 steps to settle.
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

fn open_coverage(harness: &mut Harness<'static, TrainerApp>) {
    harness.get_by_label("Coverage").click();
    // Two frames: the click, and the tab starting the exposure on its thread. `run`
    // here would wait for the thread by frames (its spinner repaints), which a loaded
    // machine can make longer than the harness's step limit.
    harness.run_steps(2);
    harness.state_mut().coach_mut().coverage_mut().finish();
    harness.run();
}

/// The window drilling White (seed 7, no delay) on the repertoire at `path` alone, its
/// Coverage tab open.
fn coverage_of(path: PathBuf) -> Harness<'static, TrainerApp> {
    let settings = Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..crate::common::settings()
    };
    let mut harness = harness_for(TrainerApp::new(eco(), settings));
    harness.run();
    common::load_repertoire_in_window(&mut harness, path);
    open_coverage(&mut harness);
    harness
}

fn key_of(harness: &Harness<'static, TrainerApp>) -> NodeKey {
    NodeKey::from_position(harness.state().coach().session().position())
}

#[test]
fn the_coverage_tab_lists_a_gap_and_drills_it() {
    let mut harness = coverage_of(fixture("compare_white.pgn"));
    let own =
        PositionGraph::build(import_fixture("compare_white.pgn", ImportMode::Repertoire).lines)
            .graph;

    let report = harness
        .state()
        .coach()
        .coverage()
        .report()
        .expect("computed");
    // The Caro-Kann is a likely reply to 1.e4 that the repertoire does not answer.
    let i = report.gaps.iter().position(|g| g.sans == "e4 c6").unwrap();
    let gap = report.gaps[i].clone();
    assert!(gap.reach > 0.04, "{}", gap.reach);
    let label = format!("1 in {} games: e4 c6", one_in(gap.reach));
    harness.get_by_label(&label);
    harness.get_by_label("B10 Caro-Kann Defense");
    // Hovering the gap shows its position on a small board (the drill's board is at the
    // start, where c6 is empty).
    assert!(harness.query_by_label("c6 black pawn").is_none());
    harness.get_by_label(&label).hover();
    harness.run();
    harness.get_by_label("c6 black pawn");
    harness.get_by_label("How deep (half-moves)").hover();
    harness.run();
    assert!(harness.query_by_label("c6 black pawn").is_none());
    harness.get_by_label("theory: d4, Nc3, c4, Nf3, b4");

    let button = harness.get_all_by_label("Drill this gap").nth(i).unwrap();
    button.scroll_to_me();
    harness.run();
    harness
        .get_all_by_label("Drill this gap")
        .nth(i)
        .unwrap()
        .click();
    harness.run();
    assert_eq!(
        key_of(&harness),
        NodeKey::from_position(&position_after("e4 c6"))
    );
    let app = harness.state().coach();
    assert_eq!(*app.session().phase(), Phase::LearnerToMove);
    assert!(app.coverage().is_drilling_theory());
    assert_eq!(
        app.session().graph().stats().lines,
        3807,
        "drilled with ECO"
    );
    assert_eq!(app.session().moves().len(), 2);

    // Back to the repertoire: the drill starts again on the learner's lines (the button
    // heads the tab, scrolled down to the gap: scrolled back into view).
    harness.get_by_label("Back to my repertoire").scroll_to_me();
    harness.run();
    harness.get_by_label("Back to my repertoire").click();
    harness.run();
    let app = harness.state().coach();
    assert!(!app.coverage().is_drilling_theory());
    assert_eq!(app.graph().stats().lines, own.stats().lines);
    assert!(app.session().moves().len() <= 1);
}

#[test]
fn the_coverage_by_depth_legend_stays_off_the_bars_and_a_bar_shows_its_numbers_on_hover() {
    let mut harness = coverage_of(fixture("compare_white.pgn"));
    let chart = harness
        .get_by(|n| n.role() == Role::Figure && n.label().is_some_and(|l| l.starts_with("ply 0: ")))
        .rect();
    for entry in ["covered", "in a drill"] {
        let r = harness.get_by_label(entry).rect();
        assert!(
            !r.intersects(chart),
            "the legend's {entry:?} at {r:?} lies on the chart at {chart:?}"
        );
        assert!(
            (r.center().x - chart.center().x).abs() < chart.width(),
            "{entry:?} at {r:?} is not by the chart at {chart:?}"
        );
    }
    // Over the first bar, at the top of the chart, its numbers show whole on a tooltip.
    let window = eframe::egui::Rect::from_min_size(Default::default(), vec2(1280.0, 800.0));
    let mut shown = None;
    let mut x = chart.left() + 1.0;
    while shown.is_none() && x < chart.left() + chart.width() * 0.2 {
        harness.hover_at(eframe::egui::pos2(x, chart.top() + 3.0));
        harness.run();
        shown = harness
            .query_all_by(|n| {
                n.role() == Role::Label && n.value().is_some_and(|v| v.starts_with("ply 0: "))
            })
            .next()
            .map(|n| n.rect());
        x += 2.0;
    }
    let r = shown.expect("the first bar's hover text");
    assert!(window.contains_rect(r), "the hover text at {r:?}");
}

#[test]
fn check_my_games_lists_the_games_and_each_click_goes_to_its_position() {
    let mut harness = coverage_of(fixture("compare_white.pgn"));

    // The file chosen in "Check my games…", with the name left empty: the tab asks whose
    // games they are, the file's most frequent player first, and a click compares them.
    harness
        .state_mut()
        .coach_mut()
        .apply(Command::Coverage(CoverageCommand::CompareGames(fixture(
            "compare_games.pgn",
        ))));
    harness.state_mut().coach_mut().coverage_mut().finish();
    harness.run();
    harness
        .get_by_label("Whose games are these? Choose your name:")
        .scroll_to_me();
    harness.run();
    harness.get_by_label("Hastings Learner").click();
    harness.run_steps(2);
    harness.state_mut().coach_mut().coverage_mut().finish();
    harness.run();
    let report = harness
        .state()
        .coach()
        .coverage()
        .games()
        .unwrap()
        .as_ref()
        .unwrap();
    assert_eq!(report.player, "Hastings Learner");
    assert_eq!(report.games.len(), 5);
    harness.get_by_label("1. Hastings Learner - Opponent One 1-0");
    // Games 1 and 8 made the same deviation.
    let label = "you left the repertoire with 3.Bc4 (repertoire: 3.Bb5)";
    assert_eq!(harness.get_all_by_label(label).count(), 2);
    harness
        .get_all_by_label(label)
        .next()
        .unwrap()
        .scroll_to_me();
    harness.run();
    harness.get_all_by_label(label).next().unwrap().click();
    harness.run();
    // The drill stands where the learner went wrong, on the repertoire.
    assert_eq!(
        key_of(&harness),
        NodeKey::from_position(&position_after("e4 e5 Nf3 Nc6"))
    );
    assert!(!harness.state().coach().coverage().is_drilling_theory());
    assert_eq!(
        *harness.state().coach().session().phase(),
        Phase::LearnerToMove
    );
    harness.get_by_label("Drilling your repertoire after e4 e5 Nf3 Nc6.");
}

#[test]
fn without_a_repertoire_the_tab_says_how_to_get_one() {
    let mut harness = harness_for(TrainerApp::new(eco(), crate::common::settings()));
    harness.run();
    open_coverage(&mut harness);
    harness.get_by_label_contains("untick ECO in the Book tab");
    assert!(harness.state().coach().coverage().report().is_none());
}

#[test]
fn the_deviations_of_checked_games_can_count_as_failed_reviews() {
    let settings = Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..crate::common::settings()
    };
    let dir = common::temp_dir("coverage-ui-record");
    let progress = dir.join("progress.ron");
    let mut harness = harness_for(TrainerApp::with_progress_file(
        eco(),
        settings,
        Some(progress),
    ));
    harness.run();
    common::load_repertoire_in_window(&mut harness, fixture("compare_white.pgn"));
    open_coverage(&mut harness);
    let params = CoverageParams {
        player: "Hastings Learner".to_owned(),
        ..harness.state().coach().coverage_params().clone()
    };
    harness
        .state_mut()
        .coach_mut()
        .apply(Command::Coverage(CoverageCommand::SetParams(params)));
    harness
        .state_mut()
        .coach_mut()
        .apply(Command::Coverage(CoverageCommand::CompareGames(fixture(
            "compare_games.pgn",
        ))));
    harness.state_mut().coach_mut().coverage_mut().finish();
    harness.run();
    let report = harness
        .state()
        .coach()
        .coverage()
        .games()
        .unwrap()
        .as_ref()
        .unwrap();
    // One failed review per position the player left the repertoire at.
    let n = report.failed_reviews.len();
    assert!(n >= 1);
    let moves = if n == 1 { "move" } else { "moves" };
    let button = format!("Count my {n} {moves} off the repertoire as forgotten");
    harness.get_by_label(&button).scroll_to_me();
    harness.run();
    harness.get_by_label(&button).click();
    harness.run();
    harness.get_by_label(&format!(
        "{n} {moves} off the repertoire counted as forgotten"
    ));
    let log = std::fs::read_to_string(dir.join("reviews.log")).unwrap();
    let records: Vec<&str> = log.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(records.len(), n, "{log}");
    assert!(records.iter().all(|l| l.contains("again")), "{log}");
}

#[test]
fn adding_the_most_popular_answer_writes_a_copy_and_closes_the_gap() {
    let dir = common::temp_dir("coverage-ui-add-answer");
    let rep = dir.join("mine.pgn");
    std::fs::copy(fixture("compare_white.pgn"), &rep).unwrap();
    let original = std::fs::read(&rep).unwrap();
    let mut harness = coverage_of(rep.clone());
    let report = harness
        .state()
        .coach()
        .coverage()
        .report()
        .expect("computed");
    let i = report.gaps.iter().position(|g| g.sans == "e4 c6").unwrap();
    assert_eq!(report.gaps[i].theory[0], "d4");
    // The Caro-Kann's button: the gaps come most likely first, each with its own.
    let nth = report_gap_index_with_answer(&harness, "e4 c6");
    harness
        .get_all_by_label("Add d4 to my repertoire")
        .nth(nth)
        .unwrap()
        .scroll_to_me();
    harness.run();
    harness
        .get_all_by_label("Add d4 to my repertoire")
        .nth(nth)
        .unwrap()
        .click();
    harness.step();
    harness.state_mut().coach_mut().finish_loading();
    harness.run();
    // A copy beside the file, the file itself unchanged, the book on the copy.
    let copy = dir.join("mine-updated.pgn");
    assert!(copy.exists());
    assert_eq!(std::fs::read(&rep).unwrap(), original);
    let files: Vec<PathBuf> = harness
        .state()
        .coach()
        .workspace()
        .files()
        .iter()
        .map(|f| f.path.clone())
        .collect();
    assert_eq!(files, [copy]);
    assert!(harness.state().coach().is_repertoire());
    // The tab computes the exposure of the new book.
    harness.state_mut().coach_mut().coverage_mut().finish();
    let report = harness
        .state()
        .coach()
        .coverage()
        .report()
        .expect("computed");
    assert!(
        report.gaps.iter().all(|g| g.sans != "e4 c6"),
        "the Caro-Kann is answered now"
    );
}

/// Among the gaps whose most popular answer is the same as `sans`'s, the index of
/// `sans`'s (the buttons share a label).
fn report_gap_index_with_answer(harness: &Harness<'static, TrainerApp>, sans: &str) -> usize {
    let report = harness.state().coach().coverage().report().unwrap();
    let gap = report.gaps.iter().find(|g| g.sans == sans).unwrap();
    report
        .gaps
        .iter()
        .filter(|g| g.theory.first() == gap.theory.first())
        .position(|g| g.sans == sans)
        .unwrap()
}

/// The gaps at a low threshold: a long list.
fn many_gaps(harness: &mut Harness<'static, TrainerApp>) -> usize {
    let params = CoverageParams {
        threshold_percent: 0.05,
        ..harness.state().coach().coverage_params().clone()
    };
    harness
        .state_mut()
        .coach_mut()
        .apply(Command::Coverage(CoverageCommand::SetParams(params)));
    harness.run_steps(2);
    harness.state_mut().coach_mut().coverage_mut().finish();
    harness.run();
    harness
        .state()
        .coach()
        .coverage()
        .report()
        .expect("computed")
        .gaps
        .len()
}

fn wheel_down(harness: &mut Harness<'static, TrainerApp>, at: eframe::egui::Pos2) {
    use eframe::egui;
    harness.hover_at(at);
    harness.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: vec2(0.0, -150.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
        modifiers: egui::Modifiers::NONE,
    });
    harness.run();
}

/// Issue 41, item 7: the gap list is no scroll area inside the tab's: the mouse wheel
/// over a gap scrolls the tab (the games' button comes up), and the rest of a long list
/// is one click away.
#[test]
fn the_wheel_over_the_gap_list_scrolls_the_tab_and_the_whole_list_is_one_click_away() {
    let mut harness = coverage_of(fixture("compare_white.pgn"));
    let gaps = many_gaps(&mut harness);
    assert!(gaps > 12, "{gaps} gaps");
    let button = |h: &Harness<'static, TrainerApp>| h.get_by_label("Check my games…").rect();
    let before = button(&harness);
    let first = harness
        .get_all_by_label("Drill this gap")
        .next()
        .unwrap()
        .rect()
        .center();
    wheel_down(&mut harness, first);
    wheel_down(&mut harness, first);
    let after = button(&harness);
    assert!(
        after.top() < before.top() - 100.0,
        "the tab did not scroll: {before:?} -> {after:?}"
    );
    let shown = harness.get_all_by_label("Drill this gap").count();
    if shown < gaps {
        harness
            .get_by_label(&format!("Show all {gaps} gaps"))
            .click();
        harness.run();
    }
    assert_eq!(harness.get_all_by_label("Drill this gap").count(), gaps);
}

/// Issue 41, item 7: a position's board preview (a tooltip) does not stay over "Check my
/// games…": the click the pointer brings there opens the games' file.
#[test]
fn a_board_preview_never_eats_the_click_on_check_my_games() {
    use eframe::egui::accesskit::Role;
    let mut harness = coverage_of(fixture("compare_white.pgn"));
    harness.state_mut().use_path_field_only();
    // A window tall enough for the preview to open below the row, over the games.
    harness.set_size(vec2(1280.0, 1400.0));
    harness.run();
    let report = harness.state().coach().coverage().report().unwrap().clone();
    // The last of them, just above the games.
    let last = report.likely.last().unwrap().sans.clone();
    // Its start, as a pointer coming from the left meets it.
    let row = harness
        .get_all_by_label(&last)
        .last()
        .unwrap()
        .rect()
        .left_center()
        + vec2(4.0, 0.0);
    harness.hover_at(row);
    for _ in 0..90 {
        harness.step();
    }
    assert!(
        harness.query_by(|n| n.role() == Role::Tooltip).is_some(),
        "the preview is shown"
    );
    // The pointer goes down to the button's right end, a few points at a time, and
    // clicks there.
    let button = harness.get_by_label("Check my games…").rect();
    let target = eframe::egui::pos2(button.right() - 6.0, button.center().y);
    for i in 1..=10 {
        harness.hover_at(row + (target - row) * (i as f32 / 10.0));
        harness.step();
    }
    for pressed in [true, false] {
        harness.event(eframe::egui::Event::PointerButton {
            pos: target,
            button: eframe::egui::PointerButton::Primary,
            pressed,
            modifiers: eframe::egui::Modifiers::NONE,
        });
        harness.step();
    }
    harness.run();
    assert!(
        harness.query_by_label("Path").is_some(),
        "the click went to the preview, not to the button"
    );
}
