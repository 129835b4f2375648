//! The workflows `hastings` and the window share, without a window: the engine check
//! ([`hastings::workspace::check`]) with the built-in engine and the review log's
//! recall, and an exposure's rows ([`hastings::trainer::coverage::CoverageRow`]).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;

use common::{eco_graph, fixture, position_after, temp_dir};
use hastings::book::pgn::{ImportOptions, read_pgn};
use hastings::book::{PositionGraph, SourceId};
use hastings::job::JobProgress;
use hastings::review::{CardKey, Rating, ReviewRecord, Timestamp};
use hastings::sampler::Style;
use hastings::trainer::check::{DEFAULT_THRESHOLD_CP, MemoryStore};
use hastings::trainer::coverage::{
    CoverageOptions, CoverageRow, describe, exposure, one_in, sans_at,
};
use hastings::workspace::analysis_cache::AnalysisEngine;
use hastings::workspace::check::{CheckPlan, Recall, learn_text, san_line};
use hastings::workspace::review_store::ReviewStore;
use shakmaty::{Chess, Color, Position};

fn planted() -> PositionGraph {
    let text = std::fs::read_to_string(fixture("check_planted.pgn")).unwrap();
    let lines = read_pgn(
        text.as_bytes(),
        SourceId(1),
        &ImportOptions::default(),
        None,
    )
    .unwrap()
    .lines;
    PositionGraph::build(lines).graph
}

fn plan<'a>(repertoire: &'a PositionGraph, style: &'a Style) -> CheckPlan<'a> {
    let engine = "builtin".parse().unwrap();
    CheckPlan {
        repertoire,
        theory: eco_graph(),
        style,
        options: CoverageOptions {
            depth: 2,
            ..CoverageOptions::new(Color::Black)
        },
        engine: AnalysisEngine::choose(Some(engine), std::num::NonZeroU32::new(4), None),
        threshold: DEFAULT_THRESHOLD_CP,
        threads: Some(2),
        learn_shown: 10,
    }
}

#[test]
fn a_check_finds_the_planted_mistakes_and_ranks_the_rest_to_learn() {
    let repertoire = planted();
    let style = Style::neutral();
    let check = plan(&repertoire, &style).prepare().unwrap();
    assert_eq!(
        check.engine_text(),
        format!("{} ({})", check.name(), check.limit())
    );
    let mut store = MemoryStore::new();
    let recall = Recall::open(None, Color::Black);
    let outcome = check.run(&mut store, &recall, &JobProgress::new());
    let stats = outcome.stats.unwrap();
    assert_eq!(stats.analysed, check.positions().len());
    assert_eq!(check.analyses(&store).len(), check.positions().len());

    let blunders: Vec<(String, String)> = outcome
        .report
        .blunders
        .iter()
        .map(|f| {
            let way = san_line(&f.path.start, &f.path.moves).join(" ");
            let played = san_line(&f.position, &[f.played]).join(" ");
            (way, played)
        })
        .collect();
    for planted in [
        ("d4 d5 e3 e6 Bd3 Nf6 f4", "Ng4"),
        ("e4 e5 Qh5 Nc6 Bc4", "Nf6"),
    ] {
        let planted = (planted.0.to_owned(), planted.1.to_owned());
        assert!(
            blunders.contains(&planted),
            "{planted:?} not in {blunders:?}"
        );
    }
    let learn = &outcome.learn_next;
    assert!(!learn.is_empty() && learn.len() <= 10);
    for l in learn {
        assert_eq!(l.recall, 0.0);
        assert!(
            !outcome
                .report
                .blunders
                .iter()
                .any(|f| f.position == l.position && f.played == l.answer),
            "a losing move to learn: {}",
            learn_text(l)
        );
        // Numbered as players write moves: "1.e4 e5 2.Nf3: 2...Nc6".
        let text = learn_text(l);
        let (way, answer) = text.split_once(": ").unwrap();
        assert_eq!(
            common::without_move_numbers(way),
            san_line(&Chess::default(), &l.moves).join(" ")
        );
        assert!(way.starts_with("1."), "{text}");
        let number = l.position.fullmoves().get();
        let san = &san_line(&l.position, &[l.answer])[0];
        let expected = match l.position.turn() {
            Color::White => format!("{number}.{san}"),
            Color::Black => format!("{number}...{san}"),
        };
        assert_eq!(answer, expected, "{text}");
    }

    // A second run on the same store analyses nothing and finds the same.
    let again = check.run(&mut store, &recall, &JobProgress::new());
    let stats = again.stats.unwrap();
    assert_eq!((stats.analysed, stats.cached), (0, check.positions().len()));
    assert_eq!(again.report.blunders, outcome.report.blunders);
    assert_eq!(again.learn_next, outcome.learn_next);
}

#[test]
fn recall_reads_the_review_log_and_ranks_a_reviewed_line_lower() {
    let repertoire = planted();
    let style = Style::neutral();
    let check = plan(&repertoire, &style).prepare().unwrap();
    let mut store = MemoryStore::new();
    let never = Recall::open(None, Color::Black);
    let first = check.run(&mut store, &never, &JobProgress::new());
    let top = first.learn_next[0].clone();
    assert_eq!(never.at(&top.position), None);
    assert!(never.warning().is_none());

    let dir = temp_dir("check-workflow-recall");
    let log = dir.join("reviews.log");
    let mut reviews = ReviewStore::open(&log).unwrap();
    reviews
        .append(&ReviewRecord {
            time: Timestamp::from_clock(hastings::clock::Clock::local()),
            color: Color::Black,
            rating: Rating::Good,
            seconds: 3.0,
            fuzz: false,
            card: CardKey::from_position(&top.position),
        })
        .unwrap();
    let recall = Recall::open(Some(&log), Color::Black);
    assert!(recall.at(&top.position).unwrap() > 0.5);
    // The other side's card is another card.
    assert_eq!(
        Recall::open(Some(&log), Color::White).at(&top.position),
        None
    );
    let second = check.run(&mut store, &recall, &JobProgress::new());
    assert_ne!(second.learn_next[0].position, top.position);
    if let Some(l) = second
        .learn_next
        .iter()
        .find(|l| l.position == top.position)
    {
        assert!(l.priority < top.priority);
    }
}

#[test]
fn coverage_rows_describe_positions_and_gaps_as_describe_does() {
    // 1.e4 and nothing else for White: every Black reply is a gap.
    let lines = read_pgn(
        b"1. e4 *".as_slice(),
        SourceId(1),
        &ImportOptions::default(),
        None,
    )
    .unwrap()
    .lines;
    let repertoire = PositionGraph::build(lines).graph;
    let theory = eco_graph();
    let options = CoverageOptions {
        depth: 3,
        ..CoverageOptions::new(Color::White)
    };
    let ex = exposure(&repertoire, theory, &Style::neutral(), &options);
    let names = [theory, &repertoire];
    assert!(!ex.gaps().is_empty());
    for g in ex.gaps() {
        let row = CoverageRow::gap(g, &names);
        let info = describe(&g.moves, &names);
        assert_eq!(
            (row.sans, row.epd, row.name),
            (info.sans, info.epd, info.name)
        );
        assert_eq!(row.reach, g.reach);
        assert_eq!(row.answer, g.theory.first().copied());
        assert_eq!(row.theory.len(), g.theory.len());
        assert_eq!(row.theory, sans_at(&g.position, &g.theory));
        assert_eq!(row.position, g.position);
    }
    // The French: 1...e6 is a named gap, its first theory move 2.d4.
    let french = CoverageRow::gap(
        ex.gaps()
            .iter()
            .find(|g| g.position == position_after("e4 e6"))
            .unwrap(),
        &names,
    );
    assert_eq!(french.sans, "e4 e6");
    assert!(french.name.as_deref().unwrap().contains("French"));
    assert!(one_in(french.reach) > 1);
    let plain = CoverageRow::new(&french.moves, &french.position, 0.5, &[]);
    assert_eq!(
        (plain.name, plain.theory, plain.answer),
        (None, vec![], None)
    );
}
