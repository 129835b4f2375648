//! Style profiles: files round-trip, corrupt files are clear errors that change nothing,
//! the thesis presets ship as profiles.

#![allow(clippy::unwrap_used)]

use hastings::sampler::Style;
use hastings::sampler::profile::{EMBEDDED, Provenance, StyleProfile};
use hastings::workspace::profiles::{ProfileFileError, load_profile, save_profile};

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hastings-profile-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_saved_profile_loads_as_the_identical_style() {
    let dir = temp_dir("roundtrip");
    let path = dir.join("mine.ron");
    let style =
        Style::from_vectors([1, 1, 0, 1, 0], [0.123_456_789, 1.0, 0.0, 0.7, 0.05], 0.3).unwrap();
    let mut profile = StyleProfile::manual("My style", style.clone());
    profile.description = "Sharp, with \"quotes\" and ünïcode".to_owned();
    save_profile(&path, &profile).unwrap();
    let back = load_profile(&path).unwrap();
    assert_eq!(back, profile);
    assert_eq!(back.style, style);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_corrupt_profile_names_file_line_and_column_and_changes_nothing() {
    let dir = temp_dir("corrupt");
    let path = dir.join("broken.ron");
    let good = StyleProfile::manual("x", Style::neutral())
        .to_ron()
        .unwrap();
    let cases = [
        (
            good.replace("weight: 0.4),\n    c4", "weight: 7.5),\n    c4"),
            "uncommon openings weight must be a number from 0 to 1, got 7.5",
        ),
        (good.replace("tau: 1.0,", "tau: 1.0\n"), "Expected"),
        (good.replace("gambits:", "gambit:"), "gambit"),
        (
            good.replace("format: 1", "format: 9"),
            "format 9 is not known",
        ),
        ("\u{0}\u{1}garbage".to_owned(), "line 1"),
    ];
    for (text, why) in cases {
        std::fs::write(&path, &text).unwrap();
        let err = load_profile(&path).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, ProfileFileError::Parse { .. }), "{msg}");
        assert!(
            msg.starts_with(&format!("{}: line ", path.display())),
            "{msg}"
        );
        assert!(msg.contains(why), "{msg} lacks {why}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            text,
            "the file is untouched"
        );
    }
    let missing = load_profile(&dir.join("missing.ron")).unwrap_err();
    assert!(missing.to_string().contains("cannot read"), "{missing}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_weight_error_points_at_the_parameters_line() {
    let text = StyleProfile::manual("x", Style::neutral())
        .to_ron()
        .unwrap()
        .replace("weight: 0.4),\n    c4", "weight: 7.5),\n    c4");
    let err = StyleProfile::from_ron(&text).unwrap_err();
    assert!(
        text.lines()
            .nth(err.line - 1)
            .unwrap()
            .trim_start()
            .starts_with("uncommon:"),
        "{err}"
    );
}

#[test]
fn the_thesis_presets_ship_as_profiles() {
    let shipped = StyleProfile::embedded().unwrap();
    let presets = Style::presets();
    assert_eq!(shipped.len(), presets.len());
    assert_eq!(EMBEDDED.len(), presets.len());
    for (p, preset) in shipped.iter().zip(&presets) {
        assert_eq!(p.name, preset.name);
        assert_eq!(p.style, preset.style, "{}", p.name);
        assert_eq!(p.provenance, Provenance::Preset);
        assert!(!p.description.is_empty());
    }
}
