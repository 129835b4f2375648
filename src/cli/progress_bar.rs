//! The command line's progress bar: a job's counters drawn on stderr with indicatif
//! (only when stderr is a terminal; elsewhere nothing is drawn).

use crate::job::{JobProgress, ProgressObserver};

/// An indicatif bar that follows a job's counters.
struct TerminalBar(indicatif::ProgressBar);

impl ProgressObserver for TerminalBar {
    fn set_total(&self, total: u64) {
        self.0.set_length(total);
    }

    fn restart(&self) {
        self.0.set_position(0);
    }

    fn advance(&self, n: u64) {
        self.0.inc(n);
    }

    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

impl Drop for TerminalBar {
    fn drop(&mut self) {
        // Counters dropped without `finish` (an error ended the work) clear the bar too.
        self.0.finish_and_clear();
    }
}

/// Counters of bytes that draw a progress bar labelled `label` on stderr.
pub fn terminal_progress(label: &str) -> JobProgress {
    bar_with(
        label,
        "{msg} [{bar:30}] {percent:>3}% {binary_bytes}/{binary_total_bytes} ({eta})",
    )
}

/// Counters of items (positions, games) that draw a progress bar labelled `label` on
/// stderr.
pub fn terminal_count_progress(label: &str) -> JobProgress {
    bar_with(label, "{msg} [{bar:30}] {pos}/{len} ({eta})")
}

/// Counters of items with no known total (games fetched) that draw a running count
/// labelled `label` on stderr.
pub fn terminal_counter(label: &str) -> JobProgress {
    bar_with(label, "{spinner} {pos} {msg} ({elapsed})")
}

fn bar_with(label: &str, template: &str) -> JobProgress {
    let bar = indicatif::ProgressBar::with_draw_target(
        None,
        indicatif::ProgressDrawTarget::stderr_with_hz(10),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(label.to_owned());
    JobProgress::observed(Box::new(TerminalBar(bar)))
}

/// Runs `work` on the calling thread with a terminal progress bar labelled `label`
/// (the command line's way to run a job).
pub fn run_inline<T>(label: &str, work: impl FnOnce(&JobProgress) -> T) -> T {
    let progress = terminal_progress(label);
    let result = work(&progress);
    progress.finish();
    result
}

/// A bar over a genetic algorithm's scoring (organisms scored, games played) with the
/// last generation's best and mean as its message; drawn only on a terminal.
pub struct GenerationBar(indicatif::ProgressBar);

impl GenerationBar {
    /// A bar of `total` steps labelled `label`.
    pub fn new(label: &str, total: u64) -> GenerationBar {
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(total),
            indicatif::ProgressDrawTarget::stderr_with_hz(4),
        );
        let template = format!("{label} [{{bar:30}}] {{pos}}/{{len}} ({{eta}}) {{msg}}");
        if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("=> "));
        }
        GenerationBar(bar)
    }

    /// One step done.
    pub fn tick(&self) {
        self.0.inc(1);
    }

    /// Sets the message (the last generation's fitness).
    pub fn message(&self, text: &str) {
        self.0.set_message(text.to_owned());
    }

    /// Prints a line above the bar (nothing when the bar is not drawn).
    pub fn println(&self, text: &str) {
        if self.is_drawn() {
            self.0.println(text);
        }
    }

    /// Whether it is drawn (stderr is a terminal).
    pub fn is_drawn(&self) -> bool {
        !self.0.is_hidden()
    }
}

impl Drop for GenerationBar {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_work_runs_on_the_calling_thread() {
        let here = std::thread::current().id();
        let there = run_inline("inline", |p| {
            p.advance(3);
            assert_eq!(p.snapshot().done, 3);
            std::thread::current().id()
        });
        assert_eq!(here, there);
    }
}
