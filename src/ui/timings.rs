//! `HASTINGS_TIMINGS=1`: the time to the first frame and frame-time statistics (while
//! dragging, while files load), printed on stderr; `docs/measure-gui.sh` and
//! `docs/measure-import.sh` read them.

use std::time::Instant;

use eframe::egui;

/// `HASTINGS_TIMINGS=1`: time to the first frame and frame statistics, on stderr.
pub(super) struct Timings {
    started: Instant,
    frames: u32,
    last_frame: Option<(Instant, bool)>,
    /// eframe's CPU time of frames drawn while dragging (without the buffer swap).
    drag_cpu: Vec<f32>,
    /// Wall time from one frame to the next while dragging (everything, swap included).
    drag_intervals: Vec<f32>,
    /// eframe's CPU time of frames drawn while files load or the book is built, with
    /// the frame's number.
    load_cpu: Vec<(u32, f32)>,
    /// Wall time from one frame to the next while files load (includes the waits
    /// between the progress bar's repaints).
    load_intervals: Vec<(u32, f32)>,
    /// Whether the last frame was drawn while loading.
    last_loading: bool,
    /// The import progress bar's percent at each frame drawn while a file was read.
    load_percents: Vec<u32>,
}

impl Timings {
    pub(super) fn new(started: Instant) -> Timings {
        Timings {
            started,
            frames: 0,
            last_frame: None,
            drag_cpu: Vec::new(),
            drag_intervals: Vec::new(),
            load_cpu: Vec::new(),
            load_intervals: Vec::new(),
            last_loading: false,
            load_percents: Vec::new(),
        }
    }

    /// A background job finished: printed with the frame number and the time.
    pub(super) fn event(&self, what: &str) {
        eprintln!(
            "hastings timings: frame {}: {what}, {:.1} ms after start",
            self.frames + 1,
            self.started.elapsed().as_secs_f64() * 1e3
        );
    }

    /// At the end of each frame's ui.
    pub(super) fn frame(&mut self, ctx: &egui::Context, loading: bool, fraction: Option<f32>) {
        let now = Instant::now();
        let dragging = ctx.input(|i| i.pointer.is_decidedly_dragging());
        self.frames += 1;
        if self.frames == 1 {
            let started = self.started;
            eprintln!(
                "hastings timings: first frame built {:.1} ms after start",
                started.elapsed().as_secs_f64() * 1e3
            );
            // Read the first frame back: the callback runs once it has been painted.
            ctx.request_screenshot(move |_| {
                eprintln!(
                    "hastings timings: first frame painted {:.1} ms after start",
                    started.elapsed().as_secs_f64() * 1e3
                );
            });
        }
        if let Some((last, last_dragging)) = self.last_frame
            && dragging
            && last_dragging
        {
            self.drag_intervals.push((now - last).as_secs_f32() * 1e3);
        }
        if let Some((last, _)) = self.last_frame
            && loading
            && self.last_loading
        {
            self.load_intervals
                .push((self.frames, (now - last).as_secs_f32() * 1e3));
        }
        if let Some(f) = fraction {
            self.load_percents.push((f * 100.0) as u32);
        }
        if self.last_loading && !loading {
            eprintln!(
                "hastings timings: files loaded and the book built {:.1} ms after start",
                self.started.elapsed().as_secs_f64() * 1e3
            );
        }
        self.last_loading = loading;
        self.last_frame = Some((now, dragging));
    }

    /// At the start of each frame: eframe's CPU time of the previous frame.
    pub(super) fn cpu_usage(&mut self, seconds: Option<f32>) {
        if let Some(s) = seconds
            && (1..=3).contains(&self.frames)
        {
            eprintln!(
                "hastings timings: frame {} (starting up) took {:.1} ms of CPU",
                self.frames,
                s * 1e3
            );
        }
        if let (Some(s), Some((_, true))) = (seconds, self.last_frame) {
            self.drag_cpu.push(s * 1e3);
        }
        if let (Some(s), true) = (seconds, self.last_loading) {
            self.load_cpu.push((self.frames, s * 1e3));
            if s > 0.05 {
                eprintln!(
                    "hastings timings: frame {} took {:.1} ms of CPU while loading",
                    self.frames,
                    s * 1e3
                );
            }
        }
    }

    pub(super) fn report(&self) {
        let stats = |v: &[f32]| {
            let mut v = v.to_vec();
            v.sort_by(f32::total_cmp);
            let at = |q: f64| {
                v.get(((v.len() as f64 - 1.0) * q).round() as usize)
                    .copied()
                    .unwrap_or(f32::NAN)
            };
            format!(
                "n={} median={:.2} ms p95={:.2} ms max={:.2} ms",
                v.len(),
                at(0.5),
                at(0.95),
                at(1.0)
            )
        };
        eprintln!("hastings timings: {} frames in all", self.frames);
        eprintln!(
            "hastings timings: while dragging, frame-to-frame {}",
            stats(&self.drag_intervals)
        );
        eprintln!(
            "hastings timings: while dragging, frame CPU without swap {}",
            stats(&self.drag_cpu)
        );
        let (all, later) = all_and_later(&self.load_cpu);
        eprintln!(
            "hastings timings: while loading files, frame CPU without swap {}",
            stats(&all)
        );
        eprintln!(
            "hastings timings: the same from frame 4 on (after the window's first frames) {}",
            stats(&later)
        );
        let (all, later) = all_and_later(&self.load_intervals);
        eprintln!(
            "hastings timings: while loading files, frame-to-frame {}",
            stats(&all)
        );
        eprintln!(
            "hastings timings: the same from frame 4 on {}",
            stats(&later)
        );
        let mut percents = self.load_percents.clone();
        percents.dedup();
        eprintln!(
            "hastings timings: the import progress bar showed {} different percentages, {} to {}",
            percents.len(),
            percents.first().map_or(0, |p| *p),
            percents.last().map_or(0, |p| *p)
        );
    }
}

/// The times of all frames, and of those from frame 4 on (after the window's first
/// frames, which rasterise fonts and pieces).
fn all_and_later(frames: &[(u32, f32)]) -> (Vec<f32>, Vec<f32>) {
    let all = frames.iter().map(|(_, ms)| *ms).collect();
    let later = frames
        .iter()
        .filter(|(n, _)| *n > 3)
        .map(|(_, ms)| *ms)
        .collect();
    (all, later)
}
