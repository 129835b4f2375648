//! Measures the memory of the position graph with a counting allocator.
//!
//! `cargo run --release -p hastings-bench --example graph_memory -- FILE.pgn [--games|--repertoire]`
//! does what `hastings stats --pgn FILE.pgn` does (the ECO lines and the file's lines
//! into one graph, through the workspace) and prints, for each step, the bytes live
//! after it and the peak during it, counted by a global allocator that adds up every
//! allocation's requested size (the allocator's own overhead and the process's
//! code and stacks are not counted: compare with the peak RSS of `/usr/bin/time -v`).
//!
//! The last lines give the bytes per node of the finished graph: everything it owns
//! (nodes, index, continuations, transpositions, the lines with their moves, names and
//! tags), and the peak of import and build per node.
//!
//! docs/memory-and-import.md has the numbers.

#![allow(clippy::unwrap_used, clippy::expect_used)] // an example may stop on a bug

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use hastings::book::{LineFilter, PositionGraph};
use hastings::workspace::{BookChoice, FileMode, Workspace};

/// The system allocator, counting the bytes live and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let live = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every call is passed on to `System` unchanged; only counters are updated.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `System`'s.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as `alloc`.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// Starts a step: the peak is reset to what is live now.
fn reset_peak() {
    PEAK.store(live(), Ordering::Relaxed);
}

fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = PathBuf::from(args.next().expect("a PGN file"));
    let mode = match args.next().as_deref() {
        Some("--games") => FileMode::Games,
        Some("--repertoire") => FileMode::Repertoire,
        _ => FileMode::Auto,
    };
    let base = live();

    reset_peak();
    let t = Instant::now();
    let mut ws = Workspace::new(BookChoice {
        eco: true,
        files: Vec::new(),
        filter: LineFilter::default(),
        ..BookChoice::default()
    })
    .unwrap();
    let file = ws.import_now(&path, mode, None).unwrap();
    let report = file.report.clone();
    let import_ms = t.elapsed().as_secs_f64() * 1e3;
    let import_peak = PEAK.load(Ordering::Relaxed) - base;
    let after_import = live() - base;
    println!(
        "import      {import_ms:8.0} ms  live {:7.1} MB  peak {:7.1} MB  ({} games, {} lines, {} positions)",
        mb(after_import),
        mb(import_peak),
        report.games,
        report.lines,
        report.positions
    );

    reset_peak();
    let t = Instant::now();
    let build = ws.into_build();
    let build_ms = t.elapsed().as_secs_f64() * 1e3;
    let build_peak = PEAK.load(Ordering::Relaxed) - base;
    assert!(build.issues.is_empty());
    let graph: PositionGraph = build.graph;
    let graph_bytes = live() - base;
    let nodes = graph.node_count();
    println!(
        "build       {build_ms:8.0} ms  live {:7.1} MB  peak {:7.1} MB  ({} nodes, {} lines, {} edges)",
        mb(graph_bytes),
        mb(build_peak),
        nodes,
        graph.stats().lines,
        graph.stats().book_edges
    );

    // The lines apart: drop a copy's worth to see what they cost.
    let before = live();
    let lines = graph.lines().to_vec();
    let lines_bytes = live() - before;
    drop(lines);

    let per = |b: usize| b as f64 / nodes as f64;
    println!(
        "graph       {:7.1} B/node  (of which the lines, copied: {:.1} B/node)",
        per(graph_bytes),
        per(lines_bytes)
    );
    println!(
        "peak        {:7.1} B/node during import, {:.1} B/node during build",
        per(import_peak),
        per(build_peak)
    );
}
