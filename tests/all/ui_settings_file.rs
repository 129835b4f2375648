//! The settings in their own file (`settings.json` in the data folder): a damaged file is
//! kept aside and named on screen, the settings that still read are kept, and a second
//! window on the same folder never overwrites the first one's settings.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::path::{Path, PathBuf};

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::Command;
use hastings::coach::board_look::{BoardLook, BoardTheme, Coordinates, PieceSet};
use hastings::coach::settings::{Settings, Side};
use hastings::ui::{TrainerApp, setting_label};
use hastings::workspace::data_dir::claim;
use hastings::workspace::settings_file::{SETTINGS_FILE, save_settings};

use crate::common;

/// Settings a learner chose, far from the defaults, as the coach keeps them (the
/// learner's side also sets the book's side).
fn chosen() -> Settings {
    let raw = Settings {
        learner: Side::Black,
        iterations: 250,
        seed: "42".to_owned(),
        sounds: false,
        show_arrows: true,
        reply_delay_ms: 0,
        board_look: BoardLook {
            theme: BoardTheme::Green,
            pieces: PieceSet::Chessnut,
            coordinates: Coordinates::Outside,
        },
        // The old default popularity, chosen (one never chosen becomes the blend).
        book: hastings::workspace::BookChoice {
            popularity: hastings::sampler::Popularity::Lines,
            popularity_chosen: true,
            ..hastings::workspace::BookChoice::default()
        },
        ..Settings::default()
    };
    TrainerApp::new(common::eco(), raw)
        .coach()
        .settings()
        .clone()
}

fn restore(file: &Path) -> TrainerApp {
    TrainerApp::restore(common::eco(), None, Some(file.to_owned()), None)
}

/// The files in `dir` whose names start with `settings.json.corrupt-`.
fn kept_aside(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("settings.json.corrupt-")
        })
        .collect()
}

#[test]
fn settings_are_saved_to_their_own_file_and_read_back() {
    let dir = common::temp_dir("settings-round-trip");
    let file = dir.join(SETTINGS_FILE);
    let mut app = restore(&file);
    assert!(app.is_welcoming(), "no settings yet: a new user");
    app.set_writable(true);
    app.coach_mut()
        .apply(Command::SetSettings(Box::new(chosen())));
    app.save_settings();
    let again = restore(&file);
    assert_eq!(again.coach().settings(), app.coach().settings());
    assert_eq!(again.coach().settings().board_look, chosen().board_look);
    assert!(!again.is_welcoming());
    assert!(again.settings_notice().is_none());
}

#[test]
fn a_settings_file_cut_in_half_keeps_what_is_before_the_cut_and_says_so_on_screen() {
    let dir = common::temp_dir("settings-cut");
    let file = dir.join(SETTINGS_FILE);
    save_settings(&file, &chosen()).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let cut = &text[..text.len() / 2];
    std::fs::write(&file, cut).unwrap();
    // The entries whole before the cut (one a line) are kept; the rest are reset.
    let whole: Vec<String> = cut
        .lines()
        .take(cut.lines().count() - 1)
        .filter_map(|l| l.strip_prefix('"'))
        .filter_map(|l| l.split('"').next())
        .map(str::to_owned)
        .collect();
    assert!(whole.len() > 5, "{whole:?}");

    let app = restore(&file);
    let settings = serde_json::to_value(app.coach().settings()).unwrap();
    let mine = serde_json::to_value(chosen()).unwrap();
    // The window's defaults: a popularity never chosen is the blend.
    let mut window_defaults = Settings::default();
    window_defaults.book.migrate_popularity();
    let defaults = serde_json::to_value(window_defaults).unwrap();
    let message = app.settings_notice().unwrap().to_owned();
    let mut reset = 0;
    for (name, value) in mine.as_object().unwrap() {
        if whole.contains(name) {
            assert_eq!(&settings[name], value, "{name}: before the cut, kept");
        } else {
            assert_eq!(
                settings[name], defaults[name],
                "{name}: after the cut, reset"
            );
            let label = setting_label(name);
            assert!(
                message.contains(label),
                "{name} named as {label}: {message}"
            );
            reset += 1;
        }
    }
    assert!(reset > 5, "half the settings were cut");
    // Among them, settings the learner changed: kept before the cut, reset after it.
    assert!(whole.iter().any(|n| n == "board_look" || n == "iterations"));
    assert!(!whole.iter().any(|n| n == "sounds"));
    assert!(
        !app.is_welcoming(),
        "not a new user: the settings that read are kept"
    );

    let aside = kept_aside(&dir);
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(std::fs::read_to_string(&aside[0]).unwrap(), cut);
    assert!(
        message.contains(&aside[0].display().to_string()),
        "{message}"
    );

    // The window starts and shows it.
    let mut h = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
    h.run();
    h.get_by_label_contains("settings.json.corrupt-");
    h.get_by_label("OK").click();
    h.run();
    assert!(
        h.query_by_label_contains("settings.json.corrupt-")
            .is_none()
    );
    assert!(h.state().settings_notice().is_none());
}

#[test]
fn one_bad_entry_resets_that_setting_alone() {
    let dir = common::temp_dir("settings-bad-entry");
    let file = dir.join(SETTINGS_FILE);
    save_settings(&file, &chosen()).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let bad = text.replace("\"iterations\": 250", "\"iterations\": \"many\"");
    assert_ne!(bad, text);
    std::fs::write(&file, &bad).unwrap();

    let app = restore(&file);
    let expected = Settings {
        iterations: Settings::default().iterations,
        ..chosen()
    };
    assert_eq!(app.coach().settings(), &expected);
    let message = app.settings_notice().unwrap();
    assert!(
        message.contains("Reset to their defaults: Lines explored (Iterations). Every other"),
        "{message}"
    );
    assert_eq!(kept_aside(&dir).len(), 1);
}

#[test]
fn the_window_that_closes_last_does_not_change_the_other_windows_settings() {
    let dir = common::temp_dir("settings-two-windows");
    let file = dir.join(SETTINGS_FILE);
    save_settings(&file, &chosen()).unwrap();

    // The first window holds the data folder; the second is told it is read-only.
    let first_claim = claim(Some(dir.clone()));
    let second_claim = claim(Some(dir.clone()));
    assert!(first_claim.is_writable() && !second_claim.is_writable());
    assert!(
        second_claim
            .warning
            .as_deref()
            .unwrap()
            .contains("settings in memory only")
    );
    let mut first = restore(&file);
    first.set_writable(first_claim.is_writable());
    let mut second = restore(&file);
    second.set_writable(second_claim.is_writable());

    let mut mine = chosen();
    mine.iterations = 777;
    first
        .coach_mut()
        .apply(Command::SetSettings(Box::new(mine.clone())));
    let mut theirs = chosen();
    theirs.seed = "9".to_owned();
    second
        .coach_mut()
        .apply(Command::SetSettings(Box::new(theirs.clone())));

    first.save_settings();
    second.save_settings();
    drop(first_claim);
    assert_eq!(restore(&file).coach().settings(), &mine);
}

mod fuzz {
    //! The settings reader against arbitrary bytes and cuts: never a panic, never a
    //! silent reset of what still reads.
    use super::{SETTINGS_FILE, Settings, chosen, save_settings};
    use hastings::workspace::settings_file::load_settings;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, rng_seed: proptest::test_runner::RngSeed::Fixed(45), ..ProptestConfig::default() })]

        #[test]
        fn any_bytes_load_without_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..3000)) {
            let dir = super::common::temp_dir("settings-fuzz-bytes");
            let file = dir.join(SETTINGS_FILE);
            std::fs::write(&file, &bytes).unwrap();
            let loaded = load_settings::<Settings>(&file);
            prop_assert!(loaded.value.is_some());
            // Whatever did not read whole was kept aside and said.
            prop_assert_eq!(loaded.warning.is_some(), loaded.kept_aside.is_some());
        }

        #[test]
        fn a_file_cut_anywhere_keeps_every_whole_entry(cut in any::<prop::sample::Index>()) {
            let dir = super::common::temp_dir("settings-fuzz-cut");
            let file = dir.join(SETTINGS_FILE);
            static MINE: std::sync::OnceLock<Settings> = std::sync::OnceLock::new();
            let mine = MINE.get_or_init(chosen);
            save_settings(&file, mine).unwrap();
            let text = std::fs::read_to_string(&file).unwrap();
            let at = cut.index(text.len() + 1);
            prop_assume!(text.is_char_boundary(at));
            std::fs::write(&file, &text[..at]).unwrap();
            let loaded = load_settings::<Settings>(&file);
            let reset = loaded.reset.clone();
            let got = serde_json::to_value(loaded.value.unwrap()).unwrap();
            let want = serde_json::to_value(mine).unwrap();
            // No silent reset: a setting is as saved, or named among those reset (a line
            // cut inside an object is not taken with defaults for the rest).
            for (name, value) in want.as_object().unwrap() {
                prop_assert!(&got[name] == value || reset.contains(name), "{} changed silently", name);
            }
            // Every entry whose whole line is before the cut is kept.
            let mut end = 0;
            for line in text.lines() {
                end += line.len();
                if end > at {
                    break;
                }
                end += 1; // the newline
                if let Some(name) = line.strip_prefix('"').and_then(|l| l.split('"').next()) {
                    prop_assert_eq!(&got[name], &want[name], "{} before the cut", name);
                }
            }
        }
    }
}

#[test]
fn a_line_cut_inside_an_object_is_not_taken_with_defaults_for_the_rest() {
    let dir = common::temp_dir("settings-cut-inside");
    let file = dir.join(SETTINGS_FILE);
    let mine = chosen();
    assert_eq!(mine.book.side, Some(Side::Black));
    save_settings(&file, &mine).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    // Cut after `"popularity":"Lines",` inside the book's line: closing the object would
    // parse, and would drop the book's side without a word.
    let at = text.find("\"popularity\":\"Lines\",").unwrap() + "\"popularity\":\"Lines\",".len();
    std::fs::write(&file, &text[..at]).unwrap();
    let loaded = hastings::workspace::settings_file::load_settings::<Settings>(&file);
    assert!(
        loaded.reset.iter().any(|r| r == "book"),
        "{:?}",
        loaded.reset
    );
    assert_eq!(loaded.value.unwrap().book, Settings::default().book);
}
