//! Popularity from a Polyglot games book: the sampler's candidates, exact P
//! and MH steps with the shipped gnuchess book, blends with the ECO lines, and a drill
//! that plays from the book past the end of the ECO lines.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;

use hastings::book::polyglot::SharedBook;
use hastings::sampler::{CandidateKind, Distribution, MoveSource, Popularity, Style};
use hastings::trainer::{Phase, Session};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Color, Position};

fn gnuchess() -> SharedBook {
    SharedBook::gnuchess().unwrap()
}

fn share_of(d: &Distribution, uci: &str) -> f64 {
    d.candidates
        .iter()
        .find(|c| c.mv.to_uci(shakmaty::CastlingMode::Standard).to_string() == uci)
        .unwrap_or_else(|| panic!("{uci} is a candidate"))
        .share
}

#[test]
fn book_popularity_at_the_start_is_the_gnuchess_weights() {
    let book = gnuchess();
    let source = MoveSource::new(common::eco_graph(), vec![book.book()], Popularity::Games);
    let style = Style::from_vectors([0; 5], [0.4; 5], 0.0).unwrap();
    let d = source.distribution(&Chess::default(), &style, 1.0, None);
    // python-chess 1.11 (chess.polyglot.open_reader on assets/books/gnuchess.bin) at
    // the start: e4 12135, d4 11257, Nf3 3745, c4 3294, … out of 30,797 in all.
    let total = 30_797.0;
    for (uci, weight) in [
        ("e2e4", 12_135.0),
        ("d2d4", 11_257.0),
        ("g1f3", 3_745.0),
        ("c2c4", 3_294.0),
    ] {
        assert!((share_of(&d, uci) - weight / total).abs() < 1e-12, "{uci}");
    }
    assert!(d.candidates.iter().all(|c| c.kind == CandidateKind::Book));
    // Each book move leads to an ECO position here, so the flags come from its name.
    let e4 = d
        .candidates
        .iter()
        .find(|c| c.mv.to().to_string() == "e4")
        .unwrap();
    assert!(e4.to.is_some());
    assert_eq!(e4.flag_shares, [0.0, 0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn the_lines_popularity_ignores_the_book_and_keeps_the_thesis_numbers() {
    let graph = common::eco_graph();
    let book = gnuchess();
    let style = Style::neutral();
    let plain = MoveSource::graph(graph).distribution(&Chess::default(), &style, 1.0, None);
    let with_book = MoveSource::new(graph, vec![book.book()], Popularity::Lines).distribution(
        &Chess::default(),
        &style,
        1.0,
        None,
    );
    let start = graph.start().unwrap();
    assert_eq!(plain, with_book);
    assert_eq!(
        plain,
        Distribution::at(graph, start, &Chess::default(), &style, 1.0)
    );
    // The thesis's 1.e4 at the start (docs/sampler.md reference numbers).
    assert!((share_of(&plain, "e2e4") - 0.5306).abs() < 1e-4);
}

#[test]
fn blends_mix_the_shares_of_the_lines_and_the_book() {
    let graph = common::eco_graph();
    let book = gnuchess();
    let style = Style::from_vectors([0; 5], [0.4; 5], 0.0).unwrap();
    let at = |p: Popularity| {
        MoveSource::new(graph, vec![book.book()], p).distribution(
            &Chess::default(),
            &style,
            1.0,
            None,
        )
    };
    let lines = at(Popularity::Lines);
    let games = at(Popularity::Games);
    let half = at(Popularity::Blend(0.25));
    for c in &half.candidates {
        let uci = c.mv.to_uci(shakmaty::CastlingMode::Standard).to_string();
        let from = |d: &Distribution| {
            d.candidates
                .iter()
                .find(|x| x.mv == c.mv)
                .map_or(0.0, |x| x.share)
        };
        let expected = 0.75 * from(&lines) + 0.25 * from(&games);
        assert!((c.share - expected).abs() < 1e-12, "{uci}");
    }
    let sum: f64 = half.candidates.iter().map(|c| c.share).sum();
    assert!((sum - 1.0).abs() < 1e-12);
    // Blend(0) is the lines, Blend(1) the book.
    let shares = |d: &Distribution| {
        let mut v: Vec<(String, u64)> = d
            .candidates
            .iter()
            .filter(|c| c.share > 0.0)
            .map(|c| (c.mv.to().to_string(), (c.share * 1e12).round() as u64))
            .collect();
        v.sort();
        v
    };
    assert_eq!(shares(&at(Popularity::Blend(0.0))), shares(&lines));
    assert_eq!(shares(&at(Popularity::Blend(1.0))), shares(&games));
}

#[test]
fn sampled_replies_from_the_book_follow_the_exact_p() {
    // After 1.c4 e5 2.Nc3 Nf6 (where gnuchess has an implied transposition) with
    // gambits and 1.c4 lines on and τ = 1, s_prev of Nf6 as played.
    let graph = common::eco_graph();
    let book = gnuchess();
    let source = MoveSource::new(graph, vec![book.book()], Popularity::Games);
    let style = Style::from_vectors([1, 0, 1, 0, 0], [0.3, 0.4, 0.2, 0.4, 0.4], 1.0).unwrap();
    let moves = common::san_moves("c4 e5 Nc3 Nf6");
    let (pos, s_prev) = source.replay(&moves, &style);
    let d = source.distribution(&pos, &style, s_prev, source.name_of(&moves));
    assert!(d.candidates.len() > 5, "{} candidates", d.candidates.len());
    assert!(
        d.candidates
            .iter()
            .any(|c| c.kind == CandidateKind::Transposition),
        "the book has an implied transposition here"
    );
    const N: usize = 100_000;
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut counts = vec![0u32; d.candidates.len()];
    for _ in 0..N {
        counts[d.step(&mut rng).unwrap().index] += 1;
    }
    // Cells with expected count below 5 are pooled.
    let (mut chi2, mut cells, mut pool_e, mut pool_o) = (0.0, 0usize, 0.0, 0.0);
    for (c, &o) in d.candidates.iter().zip(&counts) {
        let e = c.p * N as f64;
        if e < 5.0 {
            pool_e += e;
            pool_o += f64::from(o);
        } else {
            chi2 += (f64::from(o) - e).powi(2) / e;
            cells += 1;
        }
    }
    if pool_e > 0.0 {
        chi2 += (pool_o - pool_e).powi(2) / pool_e.max(1e-9);
        cells += 1;
    }
    let bound = common::chi2_critical(cells - 1);
    assert!(chi2 < bound, "chi2 {chi2} ≥ {bound} over {cells} cells");
}

#[test]
fn a_drill_plays_from_the_book_past_the_end_of_the_eco_lines() {
    let graph = common::eco();
    let mut s = Session::new(Arc::clone(&graph), Color::White, Style::neutral(), 5);
    s.set_books(vec![gnuchess()], Popularity::Games);
    assert_eq!(s.popularity(), Popularity::Games);
    let mut replies_outside_eco = 0;
    for _ in 0..60 {
        match s.phase() {
            Phase::LearnerToMove => {
                s.show_me().unwrap();
            }
            Phase::ComputerToMove => {
                let outside = s.node().is_none();
                let reply = s.reply().unwrap();
                assert!(reply.candidate.p > 0.0);
                if outside {
                    replies_outside_eco += 1;
                }
            }
            _ => break,
        }
    }
    assert!(
        replies_outside_eco > 0,
        "the computer replied from the book outside the ECO lines; game: {}",
        s.moves()
            .iter()
            .map(|m| m.san.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    );
    // Every move of the game is legal and the game is still named by ECO.
    let mut pos = Chess::default();
    for m in s.moves() {
        assert!(pos.is_legal(m.mv));
        pos.play_unchecked(m.mv);
    }
    assert!(s.opening_title().is_some());
}

#[test]
fn the_lines_popularity_session_is_unchanged_by_books() {
    let graph = common::eco();
    let mut plain = Session::new(Arc::clone(&graph), Color::Black, Style::neutral(), 9);
    let mut booked = Session::new(graph, Color::Black, Style::neutral(), 9);
    booked.set_books(vec![gnuchess()], Popularity::Lines);
    for _ in 0..6 {
        let a = plain.reply();
        let b = booked.reply();
        assert_eq!(a.map(|r| r.san), b.map(|r| r.san));
        assert_eq!(plain.distribution(), booked.distribution());
        if plain.show_me().is_none() || booked.show_me().is_none() {
            break;
        }
    }
}

#[test]
fn popularity_parses_as_the_command_line_writes_it() {
    for (text, p) in [
        ("eco", Popularity::Lines),
        ("book", Popularity::Games),
        ("blend:0.3", Popularity::Blend(0.3)),
    ] {
        assert_eq!(text.parse::<Popularity>(), Ok(p));
        assert_eq!(p.to_string(), text);
    }
    let err = "blend:1.5".parse::<Popularity>().unwrap_err();
    assert!(err.contains("from 0 to 1"), "{err}");
    assert!("popular".parse::<Popularity>().is_err());
}

#[test]
fn sample_with_book_popularity_uses_the_book_weights() {
    let (code, out, err) = common::hastings(&[
        "sample",
        "--popularity",
        "book",
        "--tau",
        "0",
        "--iterations",
        "200",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let e4 = report["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["uci"] == "e2e4")
        .unwrap();
    // python-chess: 12,135 of 30,797 (see above).
    assert!((e4["share"].as_f64().unwrap() - 12_135.0 / 30_797.0).abs() < 1e-9);
    let (code, _, err) = common::hastings(&["sample", "--popularity", "blend:7"]);
    assert_eq!(code, 2);
    assert!(err.contains("from 0 to 1"), "{err}");
}
