//! Coverage goals people can read (issue 40, item 8): what each preset, "Basic" to
//! "Bulletproof", needs of a repertoire against a direct computation on its exposure,
//! and the Coverage tab's goals at 1280×800 and 800×600 (a goal chosen sets the
//! threshold; "You have reached your coverage goal").

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::book::{ImportMode, PositionGraph};
use hastings::coach::Command;
use hastings::coach::settings::{Settings, Side};
use hastings::sampler::Style;
use hastings::trainer::coverage::{CoverageOptions, GOALS, REVIEWS_TO_LEARN, exposure};
use hastings::ui::TrainerApp;
use shakmaty::Color;

use crate::common;
use common::{eco, fixture, import_fixture};
use hastings::coach::coverage::CoverageCommand;

#[test]
fn each_goal_counts_the_positions_the_exposure_reaches_that_often() {
    for (name, learner) in [
        ("coverage_e4.pgn", Color::White),
        ("compare_black.pgn", Color::Black),
    ] {
        let repertoire =
            PositionGraph::build(import_fixture(name, ImportMode::Repertoire).lines).graph;
        let options = CoverageOptions {
            depth: 10,
            ..CoverageOptions::new(learner)
        };
        let ex = exposure(
            &repertoire,
            common::eco_graph(),
            &Style::neutral(),
            &options,
        );
        let counts = ex.goal_counts();
        assert_eq!(counts.len(), GOALS.len());
        for (c, goal) in counts.iter().zip(GOALS) {
            let t = goal.threshold();
            // Covered: the learner's positions within the depth, with a repertoire move,
            // reached at least that often.
            let covered = ex
                .positions()
                .iter()
                .filter(|p| {
                    p.learner_to_move && !p.repertoire.is_empty() && p.ply < 10 && p.reach >= t
                })
                .count();
            // Missing: the gaps of an exposure whose threshold is the goal's.
            let at_goal = exposure(
                &repertoire,
                common::eco_graph(),
                &Style::neutral(),
                &CoverageOptions {
                    threshold: t,
                    ..options
                },
            );
            assert_eq!(c.goal, goal);
            assert_eq!(c.covered, covered, "{name}: {}", goal.name);
            assert_eq!(c.missing(), at_goal.gaps().len(), "{name}: {}", goal.name);
        }
        assert!(
            counts.windows(2).all(|w| w[0].needed <= w[1].needed),
            "{name}: a rarer share needs as many positions or more"
        );
        assert!(counts[3].missing() > 0, "{name}: Bulletproof finds gaps");
    }
}

fn coverage_window(size: (f32, f32)) -> Harness<'static, TrainerApp> {
    let settings = Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..common::settings()
    };
    let mut h = Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut TrainerApp| app.frame_ui(ui),
            TrainerApp::new(eco(), settings),
        );
    h.run();
    common::load_repertoire_in_window(&mut h, fixture("coverage_e4.pgn"));
    h.get_by_label("Coverage").click();
    h.run_steps(2);
    h.state_mut().coach_mut().coverage_mut().finish();
    h.run();
    h
}

/// The line under a goal, from the report's counts and pace.
fn report_line(
    h: &Harness<'static, TrainerApp>,
    goal: hastings::trainer::coverage::Goal,
) -> String {
    let report = h.state().coach().coverage().report().unwrap();
    let c = report.goals.iter().find(|c| c.goal == goal).unwrap();
    let minutes = (c.needed as f64 * f64::from(REVIEWS_TO_LEARN) * report.pace() / 60.0)
        .round()
        .max(1.0) as u64;
    let time = match (minutes / 60, minutes % 60) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m} min"),
    };
    format!(
        "1 in {} games: {} positions, {} covered, about {time} of study",
        goal.one_in, c.needed, c.covered
    )
}

#[test]
fn the_coverage_tab_offers_the_goals_and_says_when_one_is_reached() {
    for size in [(1280.0, 800.0), (800.0, 600.0)] {
        let mut h = coverage_window(size);
        let right = 8.0 + ((size.0 - 16.0) * 0.2).clamp(180.0, 300.0) + 0.5;
        for goal in GOALS {
            let counted = report_line(&h, goal);
            for label in [goal.name, counted.as_str()] {
                h.get_by_label(label).scroll_to_me();
                h.run();
                let r = h.get_by_label(label).rect();
                assert!(
                    r.max.x <= right && r.max.y <= size.1,
                    "{size:?}: {label} at {r:?}"
                );
            }
        }
        // Choosing Basic sets the threshold to 1 in 75 games.
        h.get_by_label("Basic").click();
        h.run_steps(2);
        h.state_mut().coach_mut().coverage_mut().finish();
        h.run();
        let threshold = h.state().coach().coverage_params().threshold_percent;
        assert!(
            (threshold - 100.0 / 75.0).abs() < 1e-9,
            "{size:?}: {threshold}"
        );
        let report = h.state().coach().coverage().report().unwrap().clone();
        let basic = report.goals[0];
        h.get_by_label(&report_line(&h, GOALS[0]));
        // 1.e4 answers e5, c5 and e6 only: Basic is not reached at this depth.
        assert!(!basic.reached(), "{size:?}");
        h.get_by_label(&format!(
            "{} positions still to add for Basic.",
            basic.missing()
        ));
        // One half-move deep, the repertoire's first move covers all: reached.
        let params = hastings::coach::coverage::CoverageParams {
            depth: 1,
            ..h.state().coach().coverage_params().clone()
        };
        h.state_mut()
            .coach_mut()
            .apply(Command::Coverage(CoverageCommand::SetParams(params)));
        h.run_steps(2);
        h.state_mut().coach_mut().coverage_mut().finish();
        h.run();
        h.get_by_label("You have reached your coverage goal.");
    }
}
