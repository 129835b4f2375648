//! The window's first frame waits for nothing it does not need: a background thread
//! about to start work the frame can do without (an engine process, which takes a core
//! for about a second while it loads) waits until the frame is painted.
//!
//! The window says it is opening ([`opening`]) before its first frame, and that the
//! frame is painted ([`painted`]); [`after_first_frame`] blocks the calling thread
//! meanwhile, at most [`MAX_WAIT`]. Without a window (the CLI, tests) nothing waits.
//!
//! ```
//! use hastings::job::first_frame;
//!
//! // No window is opening: nothing waits.
//! assert!(!first_frame::after_first_frame());
//! ```

use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// The longest a thread waits for the first frame: a window that paints nothing (hidden,
/// or failing) does not keep its engines from starting.
pub const MAX_WAIT: Duration = Duration::from_secs(2);

/// Whether a window is opening and has not painted its first frame.
static OPENING: Mutex<bool> = Mutex::new(false);
static PAINTED: Condvar = Condvar::new();

/// A window is opening: [`after_first_frame`] waits from now until [`painted`].
pub fn opening() {
    if let Ok(mut opening) = OPENING.lock() {
        *opening = true;
    }
}

/// The window's first frame is painted: the threads waiting go on.
pub fn painted() {
    if let Ok(mut opening) = OPENING.lock() {
        *opening = false;
    }
    PAINTED.notify_all();
}

/// Waits while a window is opening and has not painted its first frame, at most
/// [`MAX_WAIT`]; returns whether it waited. Never call it on the window's own thread.
pub fn after_first_frame() -> bool {
    let Ok(opening) = OPENING.lock() else {
        return false;
    };
    if !*opening {
        return false;
    }
    let _ = PAINTED.wait_timeout_while(opening, MAX_WAIT, |opening| *opening);
    true
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::thread;

    use super::*;

    /// A thread waits while the window opens and goes on once the frame is painted, well
    /// before the longest wait; afterwards nothing waits.
    #[test]
    fn a_thread_waits_for_the_first_frame_then_never_again() {
        opening();
        let (sent, started) = mpsc::channel();
        let waiter = thread::spawn(move || {
            let waited = after_first_frame();
            let _ = sent.send(());
            waited
        });
        // Still waiting for the frame.
        assert!(started.recv_timeout(Duration::from_millis(200)).is_err());
        painted();
        assert!(started.recv_timeout(MAX_WAIT / 2).is_ok());
        assert!(waiter.join().unwrap());
        assert!(!after_first_frame());
    }
}
