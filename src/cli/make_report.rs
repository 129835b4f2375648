//! What `hastings book make` and `hastings explorer make` (and `add`) print alike: the
//! games' problems on stderr, then the merge's runs and the time.

use std::io::Write;

use crate::workspace::polyglot_make::MakeIssue;

/// The first ten of the games' `count` problems on stderr, and how many more there are.
pub(super) fn print_issues(count: u64, issues: &[MakeIssue]) {
    if count == 0 {
        return;
    }
    eprintln!("hastings: {count} problem(s) in the games (their plies before the problem count):");
    for issue in issues.iter().take(10) {
        eprintln!("  {issue}");
    }
    if count > 10 {
        eprintln!("  … and {} more", count - 10);
    }
}

/// The report's last lines: the sorted runs merged (`spilled` of them from temporary
/// files), the worker threads and the time.
pub(super) fn write_runs_and_time(
    out: &mut impl Write,
    runs: usize,
    spilled: usize,
    threads: usize,
    seconds: f64,
) -> std::io::Result<()> {
    writeln!(
        out,
        "runs       {runs} ({spilled} spilled), {threads} threads"
    )?;
    writeln!(out, "time       {seconds:.2} s")
}
