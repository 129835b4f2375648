//! `hastings explorer fit-band`: a band's temperature fitted, measured on held-out
//! positions (or on another index's games: `--held-out`), kept beside the index where
//! the window reads it; a band without games is one clear line and keeps nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::path::Path;

use hastings::book::explorer::{ExplorerFilter, RatingBand};
use hastings::workspace::explorer::ExplorerIndex;
use hastings::workspace::explorer::spar_fits::{SPAR_FITS, load_fit};

use crate::common;
use common::{fixture, hastings, temp_dir};

fn make(pgn: &Path, dir: &Path) {
    let (code, out, err) = hastings(&[
        "explorer",
        "make",
        pgn.to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

fn number(json: &serde_json::Value, field: &str) -> f64 {
    json[field]
        .as_f64()
        .unwrap_or_else(|| panic!("{field} in {json}"))
}

#[test]
fn fit_band_fits_measures_and_keeps_the_temperature() {
    let dir = temp_dir("cli-fit-band").join("games.explorer");
    make(&fixture("lichess_db_100k.pgn"), &dir);
    let (code, out, err) = hastings(&[
        "explorer",
        "fit-band",
        dir.to_str().unwrap(),
        "--band",
        "1400-1600",
        "--json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["whose"], "1400–1600 players");
    let t = number(&json, "temperature");
    assert!((0.05..=10.0).contains(&t), "{t}");
    assert!(number(&json, "fit_positions") > 10.0, "{json}");
    assert!(number(&json, "held_out_moves") > 0.0, "{json}");
    let top = number(&json, "top_choice");
    assert!((0.0..=1.0).contains(&top));
    // The fitted temperature is at least as likely as the default on the positions it
    // was fitted to; on the held-out ones it is measured, not promised.
    assert!(number(&json, "log_likelihood") < 0.0);
    assert!(number(&json, "default_log_likelihood") < 0.0);

    // Kept beside the index, for the window.
    assert!(dir.join(SPAR_FITS).is_file());
    let index = ExplorerIndex::open(&dir).unwrap();
    let filter = ExplorerFilter {
        bands: 1 << RatingBand::from_bound(1400).unwrap().index(),
        ..ExplorerFilter::default()
    };
    let kept = load_fit(&index, &filter).unwrap().unwrap();
    assert_eq!(kept.temperature, t);
    // The index still opens and answers as before.
    assert!(index.games() > 0);
}

#[test]
fn fit_band_measures_on_another_indexs_games_with_held_out() {
    let root = temp_dir("cli-fit-band-held-out");
    let text = String::from_utf8(common::fixture_bytes("lichess_db_100k.pgn")).unwrap();
    let games: Vec<&str> = text.split("[Event ").filter(|g| !g.is_empty()).collect();
    let (fit_part, held_part) = games.split_at(games.len() * 2 / 3);
    let write = |name: &str, part: &[&str]| {
        let path = root.join(name);
        let pgn: String = part.iter().map(|g| format!("[Event {g}")).collect();
        std::fs::write(&path, pgn).unwrap();
        path
    };
    let (a, b) = (write("fit.pgn", fit_part), write("held.pgn", held_part));
    make(&a, &root.join("fit.explorer"));
    make(&b, &root.join("held.explorer"));
    let (code, out, err) = hastings(&[
        "explorer",
        "fit-band",
        root.join("fit.explorer").to_str().unwrap(),
        "--band",
        "1400",
        "--held-out",
        root.join("held.explorer").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("games of      1400–1600 players"), "{out}");
    assert!(out.contains("held.explorer"), "{out}");
    // Measured elsewhere: not kept.
    assert!(!out.contains("kept in"), "{out}");
    assert!(!root.join("fit.explorer").join(SPAR_FITS).exists());
}

#[test]
fn a_band_without_games_is_one_clear_line_and_keeps_nothing() {
    let dir = temp_dir("cli-fit-band-empty").join("games.explorer");
    make(&fixture("lichess_db_100k.pgn"), &dir);
    let (code, out, err) = hastings(&[
        "explorer",
        "fit-band",
        dir.to_str().unwrap(),
        "--band",
        "2500",
        "--speed",
        "blitz",
    ]);
    assert_ne!(code, 0, "{out}");
    assert!(
        err.contains("2500+ blitz players have no game in this explorer"),
        "{err}"
    );
    assert!(!dir.join(SPAR_FITS).exists());
    let (code, _, err) = hastings(&[
        "explorer",
        "fit-band",
        dir.to_str().unwrap(),
        "--band",
        "1650",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("1650"), "{err}");
}
