//! The repertoire editor: reading, and one edit (a comment set deep in the tree) and its save (conflict check, backup, atomic
//! write) on a repertoire of 5,000 lines and about 50,000 moves in one chapter.
//!
//! Before criterion's means, the same file in the Repertoire tab through the trainer
//! core, as the window drives it: for 20 comment edits and 40 move edits (a move added
//! on the board, then undone), the window thread's work (the command and the next
//! frame's logic) and the time until "What is missing here" has been computed again
//! for the edit (the repertoire's book and exposure, on a thread); printed as median
//! and longest (README, "Repertoire editor").

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use hastings::book::Side;
use hastings::book::repertoire::{Document, GameTree, NodeId, Op};
use hastings::book::{PositionGraph, eco};
use hastings::coach::repertoire::RepertoireCommand;
use hastings::coach::settings::Settings;
use hastings::coach::{Coach, Command};
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
        let mut moves = line.moves.clone();
        let mut next = pos.clone();
        for &mv in &moves {
            next.play_unchecked(mv);
        }
        for k in 0..10 {
            let legal = next.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[(i * 7 + k * 13) % legal.len()];
            next.play_unchecked(mv);
            moves.push(mv);
        }
        for mv in moves {
            let san = San::from_move(&pos, mv);
            let Ok(change) = doc.add_move(0, at, &san.to_string()) else {
                break;
            };
            let Some(node) = change.node else { break };
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

/// The Repertoire tab's edits on `file` (its first chapter's `deep` move), through the
/// trainer core: prints the window thread's work per edit and the time until the gaps
/// are up to date again.
fn repertoire_edits(file: &Path, data: &Path, deep: NodeId) {
    let graph = match PositionGraph::eco() {
        Ok(graph) => Arc::new(graph),
        Err(e) => panic!("ECO: {e}"),
    };
    let mut coach = Coach::new(graph, Settings::default(), Some(data.join("progress.ron")));
    coach
        .repertoire_mut()
        .set_data_dir(Some(data.to_path_buf()));
    let open = Instant::now();
    coach.apply(Command::Repertoire(RepertoireCommand::Open(
        file.to_path_buf(),
    )));
    let opened = open.elapsed();
    coach.repertoire_mut().set_shown(true);
    coach.apply(Command::Repertoire(RepertoireCommand::SetAddMoves(true)));
    let wait = |coach: &mut Coach| {
        let start = Instant::now();
        loop {
            coach.logic();
            if !coach.repertoire_gaps().is_computing() {
                return start.elapsed();
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    };
    let first = wait(&mut coach);
    // Each edit, timed on the window thread (the command and the next frame's logic)
    // and until the gaps are computed for it.
    let timed = |coach: &mut Coach, command: RepertoireCommand| {
        let command_name = format!("{command:?}");
        let t = Instant::now();
        coach.apply(Command::Repertoire(command));
        coach.logic();
        let ui = t.elapsed();
        if std::env::var_os("HASTINGS_BENCH_VERBOSE").is_some() {
            eprintln!("{command_name}: {ui:.1?}");
        }
        assert!(
            coach.repertoire_gaps().is_computing(),
            "the edit starts the gaps again"
        );
        (ui, t.elapsed() + wait(coach))
    };
    let (mut ui, mut comment, mut moves) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..20 {
        // A comment, then a move added at the deep node and taken back (undo).
        let (u, g) = timed(
            &mut coach,
            RepertoireCommand::Comment(deep, format!("edit {i}")),
        );
        ui.push(u);
        comment.push(g);
        coach.apply(Command::Repertoire(RepertoireCommand::Goto(deep)));
        let legal = coach
            .repertoire()
            .position()
            .map(|p| p.legal_moves())
            .unwrap_or_default();
        let Some(&mv) = legal.get(i % legal.len().max(1)) else {
            continue;
        };
        for command in [RepertoireCommand::Play(mv), RepertoireCommand::Undo] {
            let (u, g) = timed(&mut coach, command);
            ui.push(u);
            moves.push(g);
        }
    }
    for times in [&mut ui, &mut comment, &mut moves] {
        times.sort();
    }
    let median = |t: &[Duration]| t[t.len() / 2];
    let longest = |t: &[Duration]| t[t.len() - 1];
    eprintln!(
        "repertoire editor: open {opened:.1?} (first gaps {first:.1?}); per edit, the window thread \
         median {:.2?} longest {:.2?}; gaps up to date after a comment: median {:.1?} \
         longest {:.1?}; after a move added or undone: median {:.1?} longest {:.1?}",
        median(&ui),
        longest(&ui),
        median(&comment),
        longest(&comment),
        median(&moves),
        longest(&moves),
    );
}

/// The same edits in the window (egui_kittest, 1280×800, the Repertoire tab shown, the
/// file open at the deep move): every frame's CPU time while editing, the edit's
/// command with its frame and the frames until the gaps are up to date (layout and
/// tessellation included; the GPU's painting is not).
fn window_frames(file: &Path, data: &Path, deep: NodeId) {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable as _;
    use hastings::ui::TrainerApp;
    let graph = match PositionGraph::eco() {
        Ok(graph) => Arc::new(graph),
        Err(e) => panic!("ECO: {e}"),
    };
    let mut h = Harness::builder()
        .with_size(eframe::egui::vec2(1280.0, 800.0))
        .build_ui_state(
            |ui, app: &mut TrainerApp| app.frame_ui(ui),
            TrainerApp::new(graph, Settings::default()),
        );
    h.run();
    h.get_by_label("Repertoire").click();
    h.run();
    h.state_mut()
        .coach_mut()
        .repertoire_mut()
        .set_data_dir(Some(data.to_path_buf()));
    let repertoire = |h: &mut Harness<'_, TrainerApp>, c| {
        h.state_mut().coach_mut().apply(Command::Repertoire(c))
    };
    repertoire(&mut h, RepertoireCommand::Open(file.to_path_buf()));
    repertoire(&mut h, RepertoireCommand::Goto(deep));
    repertoire(&mut h, RepertoireCommand::SetAddMoves(true));
    h.state_mut().coach_mut().finish_repertoire_gaps();
    h.run();
    let mut frames = Vec::new();
    for i in 0..20 {
        let legal = h
            .state()
            .coach()
            .repertoire()
            .position()
            .map(|p| p.legal_moves())
            .unwrap_or_default();
        let edits = [
            RepertoireCommand::Comment(deep, format!("frame {i}")),
            RepertoireCommand::Play(legal[i % legal.len().max(1)]),
            RepertoireCommand::Undo,
        ];
        for edit in edits {
            let t = Instant::now();
            let name = format!("{edit:?}");
            repertoire(&mut h, edit);
            h.step();
            frames.push(t.elapsed());
            if std::env::var_os("HASTINGS_BENCH_VERBOSE").is_some() {
                eprintln!("edit {name}: {:.1?}", t.elapsed());
            }
            while h.state().coach().repertoire_gaps().is_computing() {
                std::thread::sleep(Duration::from_millis(2));
                let t = Instant::now();
                h.step();
                frames.push(t.elapsed());
                if std::env::var_os("HASTINGS_BENCH_VERBOSE").is_some()
                    && t.elapsed() > Duration::from_millis(8)
                {
                    eprintln!("waiting: {:.1?}", t.elapsed());
                }
            }
            // The frame that shows the gaps just made.
            let t = Instant::now();
            h.step();
            frames.push(t.elapsed());
            if std::env::var_os("HASTINGS_BENCH_VERBOSE").is_some() {
                eprintln!("after: {:.1?}", t.elapsed());
            }
        }
    }
    frames.sort();
    eprintln!(
        "window: {} frames while editing (60 edits): median {:.2?}, 99th percentile {:.2?}, \
         longest {:.2?}",
        frames.len(),
        frames[frames.len() / 2],
        frames[frames.len() * 99 / 100],
        frames[frames.len() - 1],
    );
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
    repertoire_edits(&file, &data, deep);
    window_frames(&file, &data.join("window"), deep);
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
