//! `hastings review`: the queue of a repertoire and grading through the command line.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::path::PathBuf;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use serde_json::Value;
use shakmaty::{Chess, Color, Position};

use crate::common;
use common::hastings;

const REPERTOIRE: &str = "tests/fixtures/repertoire.pgn";

fn temp_log(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("hastings-review-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join("reviews.log")
}

/// Positions (board and side to move) where White has a move in a PGN, through every
/// variation: a walker written for this test, apart from the importer and the graph.
struct WhiteMoves {
    keys: BTreeSet<String>,
}

struct Walk {
    pos: Chess,
    before: Chess,
    stack: Vec<(Chess, Chess)>,
}

impl Visitor for WhiteMoves {
    type Tags = ();
    type Movetext = Walk;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn tag(&mut self, _: &mut (), _: &[u8], _: RawTag<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), Walk> {
        ControlFlow::Continue(Walk {
            pos: Chess::default(),
            before: Chess::default(),
            stack: Vec::new(),
        })
    }
    fn san(&mut self, w: &mut Walk, san: SanPlus) -> ControlFlow<()> {
        let mv = san.san.to_move(&w.pos).unwrap();
        if w.pos.turn() == Color::White {
            self.keys.insert(format!("{} w", w.pos.board()));
        }
        w.before = w.pos.clone();
        w.pos.play_unchecked(mv);
        ControlFlow::Continue(())
    }
    fn begin_variation(&mut self, w: &mut Walk) -> ControlFlow<(), Skip> {
        w.stack.push((w.pos.clone(), w.before.clone()));
        w.pos = w.before.clone();
        ControlFlow::Continue(Skip(false))
    }
    fn end_variation(&mut self, w: &mut Walk) -> ControlFlow<()> {
        let (pos, before) = w.stack.pop().unwrap();
        w.pos = pos;
        w.before = before;
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, _: Walk) {}
}

fn white_positions() -> BTreeSet<String> {
    let mut v = WhiteMoves {
        keys: BTreeSet::new(),
    };
    let file = std::fs::File::open(REPERTOIRE).unwrap();
    for game in Reader::new(file).read_games(&mut v) {
        game.unwrap();
    }
    v.keys
}

fn review(log: &std::path::Path, extra: &[&str]) -> Value {
    let log = log.to_str().unwrap();
    let mut args = vec![
        "review",
        "--pgn",
        REPERTOIRE,
        "--no-eco",
        "--color",
        "white",
        "--progress",
        log,
        "--json",
        "--limit",
        "100",
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = hastings(&args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn the_queue_has_one_card_per_position_where_the_repertoire_has_a_white_move() {
    let expected = white_positions();
    assert!(expected.len() > 10, "{expected:?}");
    let log = temp_log("count");
    let q = review(&log, &["--now", "2025-03-01T09:30:00+01:00"]);
    assert_eq!(q["cards"], expected.len());
    assert_eq!(q["new"], expected.len());
    assert_eq!(
        (q["due"].as_u64(), q["learned"].as_u64()),
        (Some(0), Some(0))
    );
    let listed: BTreeSet<String> = q["next"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["epd"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(listed, expected);
    for key in [
        "epd",
        "line",
        "due",
        "retrievability",
        "stability",
        "difficulty",
    ] {
        assert!(q["next"][0].get(key).is_some(), "missing {key}");
    }
    assert!(!log.exists(), "listing the queue writes nothing");
}

#[test]
fn grading_a_new_card_moves_it_from_new_to_learned() {
    let log = temp_log("grade");
    let now = ["--now", "2025-03-01T09:30:00+01:00"];
    let before = review(&log, &now);
    let graded = review(
        &log,
        &[
            "--grade",
            "e4 e5 Nf3 Nc6",
            "--rating",
            "good",
            "--no-fuzz",
            now[0],
            now[1],
        ],
    );
    let card = &graded["card"];
    assert_eq!(
        card["epd"],
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w"
    );
    // FSRS-6 default first Good: stability 2.3065 days, interval 2 days (py-fsrs).
    assert!((card["stability"].as_f64().unwrap() - 2.3065).abs() < 1e-4);
    assert_eq!(card["due"], "2025-03-03T09:30:00+01:00");
    assert_eq!(
        (card["reps"].as_u64(), card["lapses"].as_u64()),
        (Some(1), Some(0))
    );
    let after = review(&log, &now);
    let n = |v: &Value, k: &str| v[k].as_u64().unwrap();
    assert_eq!(n(&after, "new"), n(&before, "new") - 1);
    assert_eq!(n(&after, "learned"), 1);
    assert_eq!(n(&after, "cards"), n(&before, "cards"));
    // Two days later the card is due and heads the queue.
    let later = review(&log, &["--now", "2025-03-03T10:00:00+01:00"]);
    assert_eq!(n(&later, "due"), 1);
    assert_eq!(later["next"][0]["line"], "e4 e5 Nf3 Nc6");
    assert_eq!(later["next"][0]["reason"], "due");
}

#[test]
fn again_through_the_command_line_makes_the_card_due_the_same_day() {
    let log = temp_log("again");
    let grade = |moves: &str, rating: &str, now: &str| {
        review(
            &log,
            &[
                "--grade",
                moves,
                "--rating",
                rating,
                "--no-fuzz",
                "--now",
                now,
            ],
        )
    };
    grade("e4 c5", "good", "2025-03-01T09:30:00Z");
    let lapsed = grade("e4 c5", "again", "2025-03-03T09:30:00Z");
    assert_eq!(lapsed["card"]["due"], "2025-03-03T09:30:00Z");
    assert_eq!(lapsed["card"]["lapses"], 1);
    let q = review(&log, &["--now", "2025-03-03T09:31:00Z", "--mistakes"]);
    assert_eq!(q["next"][0]["line"], "e4 c5");
    assert_eq!(q["lapses"], 1);
}

#[test]
fn grading_a_position_that_is_not_a_card_fails_with_the_reason() {
    let log = temp_log("bad");
    let log = log.to_str().unwrap();
    let base = ["review", "--pgn", REPERTOIRE, "--no-eco", "--progress", log];
    let (code, _, err) = hastings(&[&base[..], &["--grade", "e4", "--rating", "good"]].concat());
    assert_eq!(code, 1);
    assert!(err.contains("not to move"), "{err}");
    let (code, _, err) = hastings(&[&base[..], &["--grade", "d4 d5", "--rating", "good"]].concat());
    assert_eq!(code, 1);
    assert!(err.contains("not in the book"), "{err}");
    let (code, _, err) = hastings(&[&base[..], &["--grade", "e4 e5", "--rating", "fine"]].concat());
    assert_eq!(code, 2, "clap rejects the rating");
    assert!(err.contains("not a rating"), "{err}");
    let (code, _, err) = hastings(&[&base[..], &["--now", "yesterday"]].concat());
    assert_eq!(code, 2);
    assert!(err.contains("RFC 3339"), "{err}");
}
