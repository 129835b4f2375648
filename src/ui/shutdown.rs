//! Closing on SIGTERM (logout, shutdown, `kill`), SIGINT (Ctrl+C in a terminal) and
//! SIGHUP as on `Ctrl+Q`: eframe then saves the settings and the app saves the progress,
//! so nothing confirmed is lost. A second signal ends the process at once.

use eframe::egui;

/// Starts a thread that closes the window when the process is asked to end.
///
/// # Errors
///
/// When the signal handlers or the thread cannot be set up (the window then runs
/// without them).
#[cfg(unix)]
pub(super) fn close_on_termination(ctx: &egui::Context) -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP])?;
    let ctx = ctx.clone();
    std::thread::Builder::new()
        .name("hastings-signals".to_owned())
        .spawn(move || {
            let mut asked = false;
            for signal in signals.forever() {
                if asked {
                    std::process::exit(128 + signal);
                }
                asked = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                ctx.request_repaint();
            }
        })?;
    Ok(())
}

/// Elsewhere the system closes the window itself.
#[cfg(not(unix))]
pub(super) fn close_on_termination(_ctx: &egui::Context) -> std::io::Result<()> {
    Ok(())
}
