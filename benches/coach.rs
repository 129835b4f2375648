//! The trainer core's work in a frame: everything the window does each frame but drawing
//! (`Coach::logic`, and the commands of a click), while the window is idle and while the
//! learner drills ECO: free drill, review mode (grades appended to a synced review log)
//! and play past the book (the move predictor picks the computer's reply). Progress and
//! the review log are written to a temporary folder, as the window writes them.
//!
//! Before criterion's means, the bench drills 200 lines (10 in review mode, whose new
//! cards run out; 40 past the book, at 60 frames a second as the window draws them) in
//! each mode and prints the median, 99th percentile and longest frame: the figure the "1 ms a frame" target is
//! about (README, "Frame work").

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::Criterion;
use hastings::book::PositionGraph;
use hastings::coach::review::DrillMode;
use hastings::coach::settings::{Settings, Side};
use hastings::coach::{Action, Coach, Command};
use hastings::trainer::Phase;
use hastings::trainer::review_drill::ReviewStep;

/// The ways of drilling measured.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Free,
    Review,
    PastBook,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Free => "free drill",
            Mode::Review => "review mode",
            Mode::PastBook => "4 plies past the book",
        }
    }
}

/// Where one mode keeps its progress and review log.
fn folder_path(mode: Mode) -> PathBuf {
    std::env::temp_dir()
        .join(format!("hastings-bench-coach-{}", std::process::id()))
        .join(format!("{mode:?}"))
}

/// A fresh folder for one mode's progress and review log.
fn folder(mode: Mode) -> PathBuf {
    let dir = folder_path(mode);
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        panic!("{}: {e}", dir.display());
    }
    dir
}

/// A coach as the window makes it: ECO, seed 7, no reply delay or animation.
fn coach(graph: &Arc<PositionGraph>, mode: Mode) -> Coach {
    let settings = Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        past_book_plies: if matches!(mode, Mode::PastBook) { 4 } else { 0 },
        ..Settings::default()
    };
    let dir = folder(mode);
    let mut coach = Coach::new(Arc::clone(graph), settings, Some(dir.join("progress.ron")));
    if matches!(mode, Mode::Review) {
        coach.apply(Command::SetDrillMode(DrillMode::Review));
    }
    coach
}

/// One frame: the coach's logic, then the learner's click when it is their turn ("Show
/// me" plays the book's move; "Next line" at the end of a line), as the window runs them.
fn frame(coach: &mut Coach) {
    let now = coach.time() + 1.0 / 60.0;
    coach.set_time(now);
    coach.logic();
    // The window takes the notices (animations, sounds) each frame.
    coach.take_notices();
    // Review mode shows a new card first: "Got it".
    if let Some(ReviewStep::Learn(_)) = coach.review().step() {
        coach.apply(Command::GotIt);
        return;
    }
    let click = match coach.session().phase() {
        Phase::LearnerToMove => Some(Action::ShowMe),
        Phase::EndOfLine { .. } | Phase::OutOfBook { .. } => Some(Action::NextLine),
        _ => None,
    };
    if let Some(action) = click
        && coach.is_enabled(action)
    {
        coach.apply(Command::Action(action));
    } else if click.is_some() {
        coach.apply(Command::Action(Action::NewLine));
    }
}

/// The CPU time this thread has used: a frame's own work, without the time the system
/// gave other threads meanwhile (an engine analysing in the background shares the cores).
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for clock_gettime to write.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The wall time and the thread's CPU time of each frame while `lines` lines are
/// drilled; with `paced`, a frame every 1/60 s as the window draws them (the background
/// work gets the time between).
fn drill_frames(coach: &mut Coach, lines: u32, paced: bool) -> (Vec<Duration>, Vec<Duration>) {
    let mut times = Vec::new();
    let mut cpu = Vec::new();
    let start = coach.session().lines_completed();
    let most = lines as usize * 400;
    let period = Duration::from_secs_f64(1.0 / 60.0);
    while coach.session().lines_completed() < start + lines && times.len() < most {
        let (t, c) = (Instant::now(), thread_cpu());
        frame(coach);
        let took = t.elapsed();
        cpu.push(thread_cpu().saturating_sub(c));
        times.push(took);
        if paced {
            std::thread::sleep(period.saturating_sub(took));
        }
    }
    (times, cpu)
}

/// Median, 99th percentile and longest of `times`, in ms.
fn summary(mut times: Vec<Duration>) -> (f64, f64, f64, usize) {
    times.sort_unstable();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let n = times.len();
    let at = |q: f64| ms(times[((n as f64 - 1.0) * q).round() as usize]);
    (at(0.5), at(0.99), ms(times[n - 1]), n)
}

fn worst_frames(graph: &Arc<PositionGraph>) {
    let mut idle = coach(graph, Mode::Free);
    let mut times = Vec::new();
    let mut cpu = Vec::new();
    // The first frame builds the drill's book view (the window's first frames are slow
    // anyway: fonts, piece images); it is reported apart.
    let t = Instant::now();
    idle.set_time(1.0);
    idle.logic();
    println!(
        "frame work, first frame: {:.3} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    for _ in 0..2_000 {
        let now = idle.time() + 1.0 / 60.0;
        idle.set_time(now);
        let (t, c) = (Instant::now(), thread_cpu());
        idle.logic();
        cpu.push(thread_cpu().saturating_sub(c));
        times.push(t.elapsed());
    }
    let (median, p99, max, n) = summary(times);
    let (cpu_median, cpu_p99, cpu_max, _) = summary(cpu);
    println!(
        "frame work, idle: {n} frames, median {median:.4} ms, p99 {p99:.4} ms, longest {max:.3} ms; \
         CPU of the thread: median {cpu_median:.4} ms, p99 {cpu_p99:.4} ms, longest {cpu_max:.3} ms"
    );
    // Review mode: the day's new cards (20) run out after a few lines. Past the book,
    // frames come at 60 a second, as in the window, for the predictions made ahead.
    for (mode, lines) in [(Mode::Free, 200), (Mode::Review, 10), (Mode::PastBook, 40)] {
        let paced = matches!(mode, Mode::PastBook);
        let mut c = coach(graph, mode);
        drill_frames(&mut c, 2, paced); // warm caches, as a session that has started
        let before = c.session().lines_completed();
        let (times, cpu) = drill_frames(&mut c, lines, paced);
        let done = c.session().lines_completed() - before;
        let (median, p99, max, n) = summary(times);
        let (cpu_median, cpu_p99, cpu_max, _) = summary(cpu);
        c.save();
        let reviews = std::fs::read_to_string(folder_path(mode).join("reviews.log"))
            .map_or(0, |log| log.lines().filter(|l| !l.starts_with('#')).count());
        println!(
            "frame work, {}: {n} frames over {done} lines, median {median:.4} ms, p99 {p99:.3} ms, longest {max:.3} ms ({reviews} reviews in the log); \
             CPU of the thread: median {cpu_median:.4} ms, p99 {cpu_p99:.3} ms, longest {cpu_max:.3} ms",
            mode.name()
        );
    }
}

fn benches(c: &mut Criterion, graph: &Arc<PositionGraph>) {
    let mut idle = coach(graph, Mode::Free);
    c.bench_function("coach/idle frame", |b| {
        b.iter(|| {
            let now = idle.time() + 1.0 / 60.0;
            idle.set_time(now);
            idle.logic();
            black_box(idle.session().phase());
        });
    });
    for mode in [Mode::Free, Mode::Review] {
        let mut c2 = coach(graph, mode);
        c.bench_function(&format!("coach/drill frame, {}", mode.name()), |b| {
            b.iter(|| {
                frame(&mut c2);
                black_box(c2.session().phase());
            });
        });
    }
}

fn main() {
    let graph = match PositionGraph::eco() {
        Ok(graph) => Arc::new(graph),
        Err(e) => panic!("ECO: {e}"),
    };
    worst_frames(&graph);
    let mut criterion = Criterion::default().configure_from_args();
    benches(&mut criterion, &graph);
    criterion.final_summary();
    let _ = std::fs::remove_dir_all(
        std::env::temp_dir().join(format!("hastings-bench-coach-{}", std::process::id())),
    );
}
