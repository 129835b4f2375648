//! `fit` on 500 real games × 20 plies with population 50 × 40 generations (the target:
//! under 30 s), against the ECO graph and against the ECO graph plus the
//! gnuchess book (the popularity blend fitted too). The games: the first 500 of
//! Karpov's in tests/fixtures/style_training.pgn (master games, cut at 20 plies).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use hastings::book::pgn::read_pgn;
use hastings::book::polyglot::SharedBook;
use hastings::book::{ImportMode, ImportOptions, OpeningLine, PositionGraph, SourceId};
use hastings::sampler::Popularity;
use hastings::sampler::fit::{FitData, GaConfig, fit, names_player};

const PLIES: u32 = 20;

fn games(n: usize) -> Vec<OpeningLine> {
    let path = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/tests/fixtures/style_training.pgn"
    );
    let Ok(text) = std::fs::read(path) else {
        panic!("cannot read {path}");
    };
    let options = ImportOptions {
        mode: ImportMode::Games,
        max_plies: Some(PLIES),
    };
    let Ok(import) = read_pgn(text.as_slice(), SourceId(1), &options, None) else {
        panic!("the fixture reads");
    };
    import
        .lines
        .into_iter()
        .filter(|l| {
            l.tags.as_ref().is_some_and(|t| {
                [t.get("White"), t.get("Black")]
                    .into_iter()
                    .flatten()
                    .any(|n| names_player(n, "karpov"))
            })
        })
        .take(n)
        .collect()
}

fn bench(c: &mut Criterion) {
    let Ok(graph) = PositionGraph::eco() else {
        panic!("the embedded book builds");
    };
    let lines = games(500);
    assert_eq!(lines.len(), 500);
    let data = FitData::from_games(&graph, &lines, "karpov", PLIES as usize);
    eprintln!("fit bench data: {:?}", data.counts());
    let mut group = c.benchmark_group("fit 500 games x 20 plies");
    group.sample_size(10);
    group.bench_function("tables (replay the games once)", |b| {
        b.iter(|| FitData::from_games(&graph, black_box(&lines), "karpov", PLIES as usize));
    });
    group.bench_function("one likelihood evaluation", |b| {
        let style = hastings::sampler::Style::presets()[1].style.clone();
        b.iter(|| data.log_likelihood(black_box(&style)));
    });
    group.bench_function("GA 50 x 40 + local search", |b| {
        b.iter(|| fit(black_box(&data), &GaConfig::default(), 1));
    });
    group.finish();

    let Ok(gnuchess) = SharedBook::gnuchess() else {
        panic!("the embedded book reads");
    };
    let books = [gnuchess.book()];
    let data = FitData::from_games_with_books(&graph, &books, &lines, "karpov", PLIES as usize);
    eprintln!("fit bench data with gnuchess: {:?}", data.counts());
    let r = fit(&data, &GaConfig::default(), 1);
    eprintln!(
        "fitted {} {:?}: LL {:.3} (neutral {:.3}), top-1 {:.4} (neutral {:.4})",
        r.popularity,
        r.style,
        r.fitted.log_likelihood,
        r.neutral.log_likelihood,
        r.fitted.top1,
        r.neutral.top1
    );
    let mut group = c.benchmark_group("fit 500 games x 20 plies, eco + gnuchess");
    group.sample_size(10);
    group.bench_function("tables (replay the games once)", |b| {
        b.iter(|| {
            FitData::from_games_with_books(
                &graph,
                &books,
                black_box(&lines),
                "karpov",
                PLIES as usize,
            )
        });
    });
    group.bench_function("one likelihood evaluation", |b| {
        let style = hastings::sampler::Style::presets()[1].style.clone();
        b.iter(|| data.log_likelihood_with(black_box(&style), Popularity::Blend(0.5)));
    });
    group.bench_function("GA 50 x 40 + local search", |b| {
        b.iter(|| fit(black_box(&data), &GaConfig::default(), 1));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
