//! Building the position graph of the embedded ECO list.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use hastings::book::{PositionGraph, eco};

fn build(c: &mut Criterion) {
    c.bench_function("eco parse (3,807 rows)", |b| {
        b.iter(|| black_box(eco::embedded()))
    });
    let lines = eco::embedded().lines;
    c.bench_function(
        "eco graph build (parsed lines, transpositions included)",
        |b| b.iter(|| black_box(PositionGraph::build(lines.iter().cloned()))),
    );
    c.bench_function("eco graph from embedded text (parse + build)", |b| {
        b.iter(|| black_box(PositionGraph::eco()))
    });
}

criterion_group!(benches, build);
criterion_main!(benches);
