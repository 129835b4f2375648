//! Opening a 50,000-position repertoire and showing My repertoires (issue 40's target:
//! ≤ 1 s). The repertoire is generated games (`benches/shared/generated_games.rs`: walks
//! of the gnuchess book, then random moves, 60 plies) read as a repertoire (a chapter a
//! game), as many as give 50,000 distinct positions. Before
//! criterion's means, the bench prints one cold run as the window does it: the file
//! imported and the book built by the workspace's jobs, then the file's row (its
//! positions and cards found, joined with a review log of 2,000 reviews), then the
//! same in the coach as the window drives it: the file opened, My repertoires shown (its
//! first frame, the rows counting in a background job), the rows counted.

#![allow(clippy::unwrap_used, clippy::expect_used)] // benches may panic

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
#[path = "shared/generated_games.rs"]
mod generated_games;

use hastings::book::pgn::{ImportMode, ImportOptions, read_pgn};
use hastings::book::{NodeKey, SourceId};
use hastings::job::Wake;
use hastings::review::{Rating, ReviewRecord, Timestamp};
use hastings::workspace::repertoires::{RepertoireRow, read_schedule};
use hastings::workspace::{BookChoice, FileMode, Workspace};
use shakmaty::Position;

/// The positions wanted.
const POSITIONS: usize = 50_000;

/// The repertoire file and the review log, written to a temporary folder.
fn files() -> (PathBuf, PathBuf) {
    let dir =
        std::env::temp_dir().join(format!("hastings-bench-repertoires-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut generated = Vec::new();
    generated_games::generate_games(1_500, 7, &mut generated);
    let text = String::from_utf8(generated).unwrap();
    let games: Vec<&str> = text.split("\n\n[Event").collect();
    let options = ImportOptions {
        mode: ImportMode::Repertoire,
        max_plies: None,
    };
    // Game by game until the positions are enough.
    let mut seen = std::collections::HashSet::new();
    let mut kept = String::new();
    for (i, game) in games.iter().enumerate() {
        let game = if i == 0 {
            (*game).to_owned()
        } else {
            format!("[Event{game}")
        };
        let import = read_pgn(game.as_bytes(), SourceId(1), &options, None).unwrap();
        for line in &import.lines {
            let mut pos = line.start_position();
            seen.insert(NodeKey::from_position(&pos));
            for &mv in &line.moves {
                pos.play_unchecked(mv);
                seen.insert(NodeKey::from_position(&pos));
            }
        }
        kept.push_str(&game);
        kept.push_str("\n\n");
        if seen.len() >= POSITIONS {
            break;
        }
    }
    let pgn = dir.join("big-repertoire.pgn");
    std::fs::write(&pgn, kept).unwrap();
    let log = hastings::workspace::data_dir::review_log_in(&dir);
    (pgn, log)
}

/// The workspace with `pgn` read as a repertoire, its jobs run to the end.
fn opened(pgn: &Path) -> Workspace {
    let mut ws = Workspace::new(BookChoice {
        eco: false,
        ..BookChoice::default()
    })
    .unwrap();
    ws.open(vec![pgn.to_path_buf()], FileMode::Repertoire);
    let wake: Wake = Arc::new(|| {});
    while ws.is_busy() {
        ws.poll(true, &wake);
    }
    ws
}

/// A review log of 2,000 reviews of the file's cards, over the last 30 days.
fn write_log(ws: &Workspace, log: &Path, now: Timestamp) {
    let file = ws.loaded_repertoires().next().unwrap();
    let cards = ws.file_cards(file);
    let records: Vec<ReviewRecord> = cards
        .cards
        .iter()
        .take(2_000)
        .enumerate()
        .map(|(i, (color, card))| ReviewRecord {
            time: now.plus_days(-((i % 30) as i64) - 1),
            color: *color,
            rating: if i % 5 == 0 {
                Rating::Again
            } else {
                Rating::Good
            },
            seconds: 6.0,
            fuzz: false,
            card: card.clone(),
        })
        .collect();
    std::fs::write(log, hastings::review::log::format(&records)).unwrap();
}

/// The file's row, as My repertoires makes it when shown.
fn row(ws: &Workspace, log: &Path, now: Timestamp) -> RepertoireRow {
    let file = ws.loaded_repertoires().next().unwrap();
    let cards = ws.file_cards(file);
    let schedule = read_schedule(log);
    RepertoireRow::new(
        file,
        &cards,
        ws.all_chapter_sides(file),
        true,
        &schedule,
        now,
    )
}

fn repertoires(c: &mut Criterion) {
    let (pgn, log) = files();
    let now = Timestamp::from_unix_ms(1_790_000_000_000, 0);
    // One cold run, as the window opens the file and shows the tab.
    let t = Instant::now();
    let ws = opened(&pgn);
    let import = t.elapsed();
    write_log(&ws, &log, now);
    let t = Instant::now();
    let shown = row(&ws, &log, now);
    let rows = t.elapsed();
    println!(
        "My repertoires, {} positions ({} lines, {} chapters, {} cards, {} due today): \
         import and book {:.0} ms, the row {:.0} ms, in all {:.0} ms",
        shown.positions,
        shown.lines,
        shown.chapters,
        shown.cards,
        shown.due_today,
        import.as_secs_f64() * 1e3,
        rows.as_secs_f64() * 1e3,
        (import + rows).as_secs_f64() * 1e3
    );
    coach_cold_run(&pgn);
    let mut group = c.benchmark_group("my repertoires");
    group.sample_size(10);
    group.bench_function("a 50,000-position repertoire's row", |b| {
        b.iter(|| black_box(row(&ws, &log, now)))
    });
    group.bench_function("opening a 50,000-position repertoire", |b| {
        b.iter(|| black_box(opened(&pgn).files().len()))
    });
    group.finish();
    let _ = std::fs::remove_dir_all(pgn.parent().unwrap());
}

/// One cold run in the coach, as the window does it: the file opened as the learner's
/// repertoire (ECO unticked), the book built, My repertoires shown: its first frame (the
/// window's thread: the rows say "counting…"), then the frames until the background job
/// has counted the rows.
fn coach_cold_run(pgn: &Path) {
    use hastings::coach::{Coach, Command};
    let dir = pgn.parent().unwrap();
    let t = Instant::now();
    let mut coach = Coach::new(
        Arc::new(hastings::book::PositionGraph::eco().unwrap()),
        hastings::coach::settings::Settings::default(),
        Some(dir.join("progress.ron")),
    );
    coach.apply(Command::Import(
        vec![pgn.to_path_buf()],
        FileMode::Repertoire,
    ));
    coach.finish_loading();
    let mut choice = coach.workspace().choice().clone();
    choice.eco = false;
    coach.apply(Command::SetBook(choice));
    coach.finish_loading();
    let opened = t.elapsed();
    coach.book_mut().set_repertoires_shown(true);
    let t = Instant::now();
    coach.set_time(1.0);
    coach.logic();
    let first_frame = t.elapsed();
    let mut frames = 1;
    while coach.book().repertoires().is_counting() {
        std::thread::sleep(std::time::Duration::from_millis(1));
        coach.set_time(1.0 + f64::from(frames));
        coach.logic();
        frames += 1;
    }
    let counted = t.elapsed();
    let row = &coach.book().repertoires().rows()[0];
    println!(
        "In the coach: opened (import, book, ECO unticked) {:.0} ms; My repertoires' first \
         frame {:.1} ms (rows counting), the rows counted {:.0} ms after it ({} positions, {} \
         cards, {} due today)",
        opened.as_secs_f64() * 1e3,
        first_frame.as_secs_f64() * 1e3,
        counted.as_secs_f64() * 1e3,
        row.positions,
        row.cards,
        row.due_today
    );
}

criterion_group!(benches, repertoires);
criterion_main!(benches);
