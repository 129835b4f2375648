//! Fitting the popularity blend: the tables' `P` is the sampler's exact `P` with the
//! ECO graph and the gnuchess book under every blend, and with an opening explorer (its
//! games, the lines where it has none); a known blend is fitted back from games sampled
//! under it.

#![allow(clippy::unwrap_used)]

use crate::common;

use std::sync::Arc;

use hastings::book::explorer::{ExplorerCounts, ExplorerFilter};
use hastings::book::pgn::read_pgn;
use hastings::book::polyglot::SharedBook;
use hastings::book::{ImportMode, ImportOptions, OpeningLine, SourceId};
use hastings::sampler::fit::synthetic::sample_games_pgn_from;
use hastings::sampler::fit::{FitData, GaConfig, fit};
use hastings::sampler::{MoveSource, Popularity, Style};
use hastings::workspace::explorer::{ExplorerIndex, FilteredExplorer};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Move};

const PLIES: usize = 20;

fn read(text: &[u8]) -> Vec<OpeningLine> {
    let options = ImportOptions {
        mode: ImportMode::Games,
        max_plies: Some(PLIES as u32),
    };
    let import = read_pgn(text, SourceId(1), &options, None).unwrap();
    assert!(
        import.report.issues.is_empty(),
        "{:?}",
        import.report.issues
    );
    import.lines
}

fn moves_of(line: &OpeningLine, plies: usize) -> Vec<Move> {
    line.moves.iter().take(plies).copied().collect()
}

/// Karpov's first 40 games among the master games of the fixture.
fn karpov() -> Vec<OpeningLine> {
    read(&common::fixture_bytes("style_training.pgn"))
        .into_iter()
        .filter(|l| {
            let t = l.tags.as_ref().unwrap();
            [t.get("White"), t.get("Black")]
                .into_iter()
                .flatten()
                .any(|n| n.contains("Karpov"))
        })
        .take(40)
        .collect()
}

/// Three styles: neutral, one with τ and bonuses, one with other bonuses and τ = 0.
fn styles() -> [Style; 3] {
    [
        Style::neutral(),
        Style::from_vectors([1, 0, 1, 0, 1], [0.3, 0.0, 0.6, 0.0, 0.2], 0.5).unwrap(),
        Style::from_vectors([0, 1, 0, 1, 0], [0.0, 0.8, 0.0, 0.1, 0.0], 0.0).unwrap(),
    ]
}

/// Asserts that every term of `data` under `style` and `popularity` has the `P` that
/// `source` gives its move after the same moves; the positions and those `P`.
fn assert_sampler_p(
    data: &FitData,
    source: &MoveSource<'_>,
    lines: &[OpeningLine],
    style: &Style,
    popularity: Popularity,
) -> Vec<(Chess, f64)> {
    data.terms(style, popularity)
        .into_iter()
        .map(|term| {
            let moves = moves_of(&lines[term.game], term.ply + 1);
            let (before, played) = moves.split_at(term.ply);
            let (pos, s_prev) = source.replay(before, style);
            let named = source.name_of(before);
            let d = source.distribution(&pos, style, s_prev, named);
            let expected = d.candidate_for(played[0]).map_or(0.0, |c| c.p);
            assert!(
                (term.p - expected).abs() < 1e-12,
                "{popularity} {style:?}: game {} ply {}: tables {} vs sampler {expected}",
                term.game,
                term.ply,
                term.p
            );
            (pos, expected)
        })
        .collect()
}

#[test]
fn the_tables_give_the_samplers_exact_p_under_every_blend_with_the_gnuchess_book() {
    let graph = common::eco_graph();
    let gnuchess = SharedBook::gnuchess().unwrap();
    let books = [gnuchess.book()];
    // 16 plies each.
    let lines = karpov();
    let plies = 16;
    let data = FitData::from_games_with_books(graph, &books, &lines, "karpov", plies);
    let c = *data.counts();
    assert!(data.has_books());
    assert!(c.distinct_terms >= 150, "{c:?}");
    let styles = styles();
    let blends = [
        Popularity::Lines,
        Popularity::Blend(0.4),
        Popularity::Blend(0.85),
        Popularity::Games,
    ];
    let (mut outside_graph, mut book_only, mut compared) = (0, 0, 0);
    for style in &styles {
        for popularity in blends {
            let source = MoveSource::new(graph, books.to_vec(), popularity);
            for (pos, expected) in assert_sampler_p(&data, &source, &lines, style, popularity) {
                compared += 1;
                if graph.lookup(&pos).is_none() {
                    outside_graph += 1;
                }
                if popularity == Popularity::Lines && expected == 0.0 {
                    book_only += 1;
                }
            }
        }
    }
    assert_eq!(compared, c.distinct_terms * styles.len() * blends.len());
    // The comparison covers positions only the book has, and moves only the book has.
    assert!(
        outside_graph > 0 && book_only > 0,
        "{outside_graph} {book_only}"
    );
}

#[test]
fn without_a_book_the_blend_is_that_of_the_lines() {
    let graph = common::eco_graph();
    let lines = read(&common::fixture_bytes("twic1599_100k.pgn"));
    let plain = FitData::from_games(graph, &lines, "praggnanandhaa", PLIES);
    let style = Style::from_vectors([1, 1, 0, 1, 0], [0.2, 0.1, 0.0, 0.7, 0.0], 0.3).unwrap();
    assert!(!plain.has_books());
    assert_eq!(
        plain.score_with(&style, Popularity::Blend(0.6)),
        plain.score(&style)
    );
    // With the book, the lines' popularity scores the ECO moves as before; the moves
    // only the book has get probability 0.
    let gnuchess = SharedBook::gnuchess().unwrap();
    let with =
        FitData::from_games_with_books(graph, &[gnuchess.book()], &lines, "praggnanandhaa", PLIES);
    assert!(with.counts().moves_scored > plain.counts().moves_scored);
    assert_eq!(with.log_likelihood(&style), f64::NEG_INFINITY);
    assert!(
        with.log_likelihood_with(&style, Popularity::Blend(0.5))
            .is_finite()
    );
}

/// With an opening explorer the popularity is the explorer's: its games where some game
/// reached the position, the lines where none did, as the drill has them.
#[test]
fn the_tables_give_the_samplers_exact_p_with_an_explorer_and_its_fallback() {
    let graph = common::eco_graph();
    let (dir, _) = common::explorer::make_index("fit-explorer", "twic1599_100k.pgn", &[]);
    let index = Arc::new(ExplorerIndex::open(&dir).unwrap());
    let explorer = FilteredExplorer::new(index, ExplorerFilter::default());
    let lines = karpov();
    let data = FitData::from_games_with_explorer(graph, &explorer, &lines, "karpov", 16);
    assert!(data.has_explorer() && !data.has_books());
    let c = *data.counts();
    assert!(c.distinct_terms >= 100, "{c:?}");
    let source = MoveSource::graph(graph).with_explorer(&explorer);
    let (mut with_games, mut fallback) = (0, 0);
    for style in &styles() {
        // The popularity asked is the explorer's whatever it is.
        for (pos, _) in assert_sampler_p(&data, &source, &lines, style, Popularity::Lines) {
            if explorer.games_at(&pos) > 0 {
                with_games += 1;
            } else {
                fallback += 1;
            }
        }
    }
    assert!(with_games > 0 && fallback > 0, "{with_games} {fallback}");
    let config = GaConfig {
        population: 10,
        generations: 3,
        ..GaConfig::default()
    };
    let report = fit(&data, &config, 1);
    assert_eq!(report.popularity, Popularity::Explorer);
    assert!(report.fitted.log_likelihood.is_finite());
}

/// Games sampled from ECO + gnuchess under a known style and blend are fitted back.
#[test]
fn a_known_blend_is_fitted_back_from_games_sampled_with_the_book() {
    let graph = common::eco_graph();
    let gnuchess = SharedBook::gnuchess().unwrap();
    let books = vec![gnuchess.book()];
    let truth = Style::from_vectors([1, 0, 1, 0, 0], [0.3, 0.0, 0.6, 0.0, 0.0], 0.5).unwrap();
    let lambda = 0.7;
    let source = MoveSource::new(graph, books.clone(), Popularity::Blend(lambda));
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let n = 2000;
    let pgn = sample_games_pgn_from(&source, &truth, n, PLIES, "Test Player", &mut rng).unwrap();
    let lines = read(pgn.as_bytes());
    assert_eq!(lines.len(), n);
    let data = FitData::from_games_with_books(graph, &books, &lines, "test player", PLIES);
    let c = *data.counts();
    assert_eq!(c.moves_out_of_book + c.moves_outside_book, 0, "{c:?}");
    let report = fit(&data, &GaConfig::default(), 1);
    let true_ll = data.log_likelihood_with(&truth, Popularity::Blend(lambda));
    assert!(true_ll.is_finite());
    assert!(
        report.fitted.log_likelihood >= true_ll,
        "fitted {} < true {true_ll}",
        report.fitted.log_likelihood
    );
    // Over seeds 1–5 and 7 (2,000 games each) the fitted λ was 0.695–0.731, the
    // gambits weight 0.27–0.34, 1.c4 0.57–0.69 and τ 0.49–0.57: λ is pinned down by
    // the positions where both the ECO lines and the book have candidates (their
    // shares differ), so the bound is 0.1, three times the spread seen.
    let fitted = report.popularity.book_part();
    eprintln!(
        "fitted λ {fitted}, style {:?}, LL {} (truth {true_ll})",
        report.style, report.fitted.log_likelihood
    );
    assert!((fitted - lambda).abs() <= 0.1, "λ {fitted}");
    let effective = |s: &Style| s.params().map(|p| if p.enabled { p.weight } else { 0.0 });
    for (i, (f, t)) in effective(&report.style)
        .iter()
        .zip(effective(&truth))
        .enumerate()
    {
        assert!((f - t).abs() <= 0.1, "weight {i}: fitted {f}, true {t}");
    }
    assert!(
        (report.style.tau() - 0.5).abs() <= 0.15,
        "τ {}",
        report.style.tau()
    );
    // The λ = 0 of the lines alone cannot play the book's moves past the ECO lines.
    assert_eq!(data.log_likelihood(&truth), f64::NEG_INFINITY);
}
