//! What the window remembers across a restart (issue 41, item 9): the open explorer
//! index, the Coverage tab's "Your name", the counts of the top bar and the engine
//! check's report. A restart is a new app built from the files the first one saved in
//! the same data folder; a remembered index that has gone is a message, not a crash.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::path::{Path, PathBuf};

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::Command;
use hastings::coach::coverage::CoverageParams;
use hastings::coach::settings::{Settings, Side};
use hastings::ui::TrainerApp;

use crate::common;
use common::{AppHarness, eco, fixture, temp_dir};
use hastings::coach::coverage::CoverageCommand;

fn settings(learner: Side) -> Settings {
    Settings {
        learner,
        seed: "5".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        explorer_evals: false,
        ..common::settings()
    }
}

fn window(app: TrainerApp) -> AppHarness {
    let mut harness = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
    harness.run();
    harness
}

/// The app as the window starts it on the data folder `dir` (its settings and progress
/// files), every file dialog the path field.
fn restart(dir: &Path) -> AppHarness {
    let mut app = TrainerApp::restore(
        eco(),
        None,
        Some(dir.join("settings.json")),
        Some(dir.join("progress.ron")),
    );
    app.use_path_field_only();
    app.coach_mut().finish_loading();
    window(app)
}

/// Closes the window as eframe does: the settings and the progress are saved.
fn close(mut harness: AppHarness) {
    let mut storage = common::MemoryStorage::default();
    eframe::App::save(harness.state_mut(), &mut storage);
    harness.state_mut().coach_mut().shut_down();
}

/// A fresh data folder `name` and a window on it with `learner`'s settings saved there.
fn first_window(name: &str, learner: Side) -> (PathBuf, AppHarness) {
    let dir = temp_dir(name);
    let mut app =
        TrainerApp::with_progress_file(eco(), settings(learner), Some(dir.join("progress.ron")));
    app.set_settings_file(Some(dir.join("settings.json")));
    app.use_path_field_only();
    (dir, window(app))
}

#[test]
fn the_explorer_index_your_name_and_the_counts_survive_a_restart() {
    let (dir, mut harness) = first_window("remember-tabs", Side::White);
    let (index, _) = common::explorer::make_index("remember-index", "compare_games.pgn", &[]);
    common::load_repertoire_in_window(&mut harness, fixture("compare_white.pgn"));
    // A mistake: the repertoire plays 1.e4, the learner 1.d4.
    common::click_move(&mut harness, common::san_moves("d4")[0]);
    harness.run();
    assert_eq!(harness.state().coach().session().mistakes_total(), 1);
    // "Your name", typed in the Coverage tab.
    harness.get_by_label("Coverage").click();
    // (the exposure is computed on a thread meanwhile)
    common::settle(&mut harness);
    harness.get_by_label("Your name").scroll_to_me();
    harness.run();
    let field = harness.get_by_label("Your name");
    field.focus();
    field.type_text("Ana");
    harness.run();
    assert_eq!(harness.state().coach().coverage_params().player, "Ana");
    common::explorer::open_index(&mut harness, &index);
    close(harness);

    let mut harness = restart(&dir);
    let coach = harness.state().coach();
    assert_eq!(coach.coverage_params().player, "Ana");
    assert_eq!(
        coach.explorer().index().map(|i| i.dir().to_owned()),
        Some(index.clone()),
        "the index is open again"
    );
    assert_eq!(coach.session().mistakes_total(), 0, "a new session");
    // The top bar counts what the learner did, not only this session.
    harness.get_by_label("Lines completed: 0   Mistakes: 1");
    harness.get_by_label("Coverage").click();
    // (the exposure is computed on a thread meanwhile)
    common::settle(&mut harness);
    assert_eq!(
        harness.get_by_label("Your name").value().as_deref(),
        Some("Ana")
    );
    harness.get_by_label("Explorer").click();
    harness.run();
    let name = index.file_name().unwrap().to_string_lossy().into_owned();
    harness.get_by_label_contains(&format!("{name}: "));
    close(harness);

    // The index has gone: the window starts, says so, and forgets it.
    std::fs::remove_dir_all(&index).unwrap();
    let mut harness = restart(&dir);
    let coach = harness.state().coach();
    assert!(coach.explorer().index().is_none());
    assert_eq!(
        coach.settings().explorer_index,
        None,
        "the setting is dropped"
    );
    harness.get_by_label("Explorer").click();
    harness.run();
    let said = format!(
        "{}, was not opened: it is not there any more",
        index.display()
    );
    harness.get_by_label_contains(&said);
    close(harness);
    // And it stays forgotten: no message at the next start.
    let harness = restart(&dir);
    assert!(harness.state().coach().explorer().message().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_engine_checks_report_is_shown_again_after_a_restart() {
    let (dir, mut harness) = first_window("remember-check", Side::Black);
    // One line with one planted mistake: a check of a few positions (the check itself
    // is `check_ui`'s subject, on `check_planted.pgn`).
    common::load_repertoire_in_window(&mut harness, fixture("check_one_planted.pgn"));
    harness.get_by_label("Coverage").click();
    // (the exposure is computed on a thread meanwhile)
    common::settle(&mut harness);
    // A shallow tree keeps the test quick (as check_ui's).
    let params = CoverageParams {
        depth: 6,
        ..harness.state().coach().coverage_params().clone()
    };
    harness
        .state_mut()
        .coach_mut()
        .apply(Command::Coverage(CoverageCommand::SetParams(params)));
    harness.run();
    harness.get_by_label("Check with an engine").scroll_to_me();
    harness.run();
    harness.get_by_label("Check with an engine").click();
    harness.run();
    harness.state_mut().coach_mut().check_state_mut().finish();
    harness.run();
    let view = match harness.state().coach().check_state().result() {
        Some(Ok(view)) => view.clone(),
        other => panic!("no check: {other:?}"),
    };
    assert!(!view.blunders.is_empty(), "{view:?}");
    assert!(harness.state().coach().check_state().restored().is_none());
    close(harness);
    assert!(dir.join("check-report.json").exists());

    let mut harness = restart(&dir);
    let check = harness.state().coach().check_state();
    let again = check.result().unwrap().as_ref().unwrap();
    // The same report (its fractions to the last digits JSON keeps).
    let texts = |v: &hastings::coach::check::CheckView| {
        let blunders: Vec<_> = v
            .blunders
            .iter()
            .map(|f| {
                (
                    f.text.clone(),
                    f.moves.clone(),
                    f.position.clone(),
                    f.refutation.clone(),
                )
            })
            .collect();
        let learn: Vec<_> = v
            .learn_next
            .iter()
            .map(|l| (l.text.clone(), l.moves.clone(), l.position.clone()))
            .collect();
        (
            v.engine.clone(),
            v.analysed,
            blunders,
            learn,
            v.bad_ends.clone(),
        )
    };
    assert_eq!(texts(again), texts(&view));
    for (a, b) in again.blunders.iter().zip(&view.blunders) {
        assert!((a.reach - b.reach).abs() < 1e-12, "{} {}", a.reach, b.reach);
    }
    assert!(check.restored().unwrap().ends_with(", as Black"));
    harness.get_by_label("Coverage").click();
    // (the exposure is computed on a thread meanwhile)
    common::settle(&mut harness);
    harness.get_by_label_contains("Your last check (");
    harness.get_by_label_contains(&view.blunders[0].text);
    // "Drill this" still knows the way to the position.
    let first = &view.blunders[0];
    assert!(!first.moves.is_empty());
    close(harness);

    // A damaged report is kept aside and said; the window starts without it.
    std::fs::write(dir.join("check-report.json"), "{ cut").unwrap();
    let mut harness = restart(&dir);
    let said = match harness.state().coach().check_state().result() {
        Some(Err(e)) => e.to_string(),
        other => panic!("{other:?}"),
    };
    assert!(
        said.contains("report was lost") && said.contains("corrupt-"),
        "{said}"
    );
    assert!(!dir.join("check-report.json").exists());
    harness.get_by_label("Coverage").click();
    // (the exposure is computed on a thread meanwhile)
    common::settle(&mut harness);
    harness.get_by_label(&said);
    let _ = std::fs::remove_dir_all(&dir);
}
