//! The repertoire workshop: reading, and one edit (a comment set deep in the tree) and its save (conflict check, backup, atomic
//! write) on a repertoire of 5,000 lines and about 50,000 moves in one chapter.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use hastings::book::Side;
use hastings::book::document::{Document, GameTree, NodeId, Op};
use hastings::book::eco;
use hastings::workspace::repertoire_file::RepertoireFile;
use shakmaty::san::San;
use shakmaty::{Chess, Position};

/// The ECO lines, each 5,000 times over in turn, played on for 10 more plies (the
/// move picked by the line's number), as one chapter; returns the PGN, its node count
/// and a deep node.
fn big_repertoire() -> (Vec<u8>, usize, NodeId) {
    let lines = eco::embedded().lines;
    let mut doc = Document::new_repertoire(Side::White, "Bench");
    let mut deep = GameTree::ROOT;
    for i in 0..5_000usize {
        let line = &lines[i % lines.len()];
        let mut at = GameTree::ROOT;
        let mut pos = Chess::default();
        let mut sans: Vec<San> = line.moves.clone();
        for k in 0..10 {
            let mut next = pos.clone();
            for s in &sans {
                let Ok(mv) = s.to_move(&next) else { break };
                next.play_unchecked(mv);
            }
            let legal = next.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[(i * 7 + k * 13) % legal.len()];
            sans.push(San::from_move(&next, mv));
        }
        for san in sans {
            let Ok(change) = doc.add_move(0, at, &san.to_string()) else {
                break;
            };
            let Some(node) = change.node else { break };
            let Ok(mv) = san.to_move(&pos) else { break };
            pos.play_unchecked(mv);
            at = node;
        }
        deep = at;
    }
    let nodes = doc
        .chapter(0)
        .and_then(|c| c.tree())
        .map_or(0, |t| t.walk().len());
    (doc.to_pgn(), nodes, deep)
}

fn bench(c: &mut Criterion) {
    let (pgn, nodes, _) = big_repertoire();
    let dir = std::env::temp_dir().join(format!("hastings-bench-rep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::create_dir_all(&dir);
    let file: PathBuf = dir.join("big.pgn");
    let data = dir.join("data");
    let _ = std::fs::write(&file, &pgn);
    eprintln!("repertoire: {nodes} nodes, {} bytes", pgn.len());
    let Some(deep) = Document::read(&pgn)
        .chapter(0)
        .and_then(|c| c.tree())
        .and_then(|t| t.walk().last().copied())
    else {
        return;
    };
    c.bench_function("repertoire_read_50k_nodes", |b| {
        b.iter(|| black_box(Document::read(black_box(&pgn))));
    });
    let mut group = c.benchmark_group("repertoire_edit");
    group.sample_size(20);
    group.bench_function("comment_and_save_50k_nodes", |b| {
        b.iter_batched(
            || {
                let _ = std::fs::write(&file, &pgn);
                RepertoireFile::open(&file, Some(&data)).ok()
            },
            |opened| {
                let Some(mut f) = opened else { return };
                let _ = f.edit(&Op::SetComment {
                    chapter: 0,
                    node: deep,
                    text: "edited".into(),
                });
                black_box(f.save().ok());
            },
            BatchSize::PerIteration,
        );
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
