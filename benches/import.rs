//! Importing PGN: the TWIC and lichess fixtures repeated to more than 10 MB, in games and
//! repertoire mode, lines kept; and the report alone (`hastings import`), which reads no
//! comment (the lichess file has a clock comment after every move).

#![allow(clippy::unwrap_used, clippy::expect_used)] // benches may panic

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hastings::book::pgn::{ImportMode, ImportOptions, check_pgn, read_pgn};
use hastings::book::{PositionGraph, SourceId};

/// The fixture repeated until the text is at least `bytes` long.
fn repeated(name: &str, bytes: usize) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/{name}",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
    );
    let one = std::fs::read(path).unwrap();
    let mut text = Vec::with_capacity(bytes + one.len());
    while text.len() < bytes {
        text.extend_from_slice(&one);
        text.extend_from_slice(b"\n\n");
    }
    text
}

fn import(c: &mut Criterion) {
    let eco = PositionGraph::eco().unwrap();
    let mut group = c.benchmark_group("import");
    group.sample_size(10);
    for (file, label) in [
        ("twic1599_100k.pgn", "twic"),
        ("lichess_db_100k.pgn", "lichess"),
    ] {
        let text = repeated(file, 10 << 20);
        group.throughput(Throughput::Bytes(text.len() as u64));
        for (mode, name) in [
            (ImportMode::Games, "games"),
            (ImportMode::Repertoire, "repertoire"),
        ] {
            let options = ImportOptions {
                mode,
                max_plies: None,
            };
            group.bench_function(format!("{label} {name} mode, 10 MB"), |b| {
                b.iter(|| {
                    let import = read_pgn(&text[..], SourceId(1), &options, Some(&eco)).unwrap();
                    assert!(import.report.issues.is_empty());
                    black_box(import)
                })
            });
            group.bench_function(format!("{label} {name} mode, 10 MB, report only"), |b| {
                b.iter(|| black_box(check_pgn(&text[..], &options).unwrap()))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, import);
criterion_main!(benches);
