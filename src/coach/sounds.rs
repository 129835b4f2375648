//! Which sound a move makes ([`Sound`]); the coach asks the window to play it with
//! [`Notice::Sound`](super::Notice::Sound) when the learner's settings have sounds on.
//!
//! One sound per event: the end of the line beats a check, a check beats a capture, a
//! capture beats a plain move; a move out of the book is a mistake. The core only says
//! which sound; the window makes and plays it (`crate::ui`).

use shakmaty::{Chess, Move, Position as _};

/// A sound the window plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sound {
    /// A move (a soft click).
    Move,
    /// A capture (a sharper click).
    Capture,
    /// A move that gives check (two tones).
    Check,
    /// A move out of the book in the drill (a low buzz).
    Mistake,
    /// The line's end (a chime).
    EndOfLine,
}

impl Sound {
    /// Every sound.
    pub const ALL: [Sound; 5] = [
        Sound::Move,
        Sound::Capture,
        Sound::Check,
        Sound::Mistake,
        Sound::EndOfLine,
    ];

    /// The sound of `mv` played in `before`: a check beats a capture, a capture beats
    /// a move. An illegal move is a plain move (never played: callers pass moves made).
    pub fn of_move(before: &Chess, mv: Move) -> Sound {
        let capture = mv.is_capture();
        let check = before.clone().play(mv).is_ok_and(|after| after.is_check());
        if check {
            Sound::Check
        } else if capture {
            Sound::Capture
        } else {
            Sound::Move
        }
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::san::San;

    use super::*;

    fn after(sans: &[&str]) -> Chess {
        let mut pos = Chess::default();
        for san in sans {
            let mv = san.parse::<San>().ok().and_then(|s| s.to_move(&pos).ok());
            assert!(mv.is_some(), "{san}");
            if let Some(mv) = mv {
                pos.play_unchecked(mv);
            }
        }
        pos
    }

    fn sound_of(before: &[&str], san: &str) -> Sound {
        let pos = after(before);
        let mv = san.parse::<San>().ok().and_then(|s| s.to_move(&pos).ok());
        assert!(mv.is_some(), "{san}");
        mv.map_or(Sound::Move, |mv| Sound::of_move(&pos, mv))
    }

    #[test]
    fn a_check_beats_a_capture_and_a_capture_beats_a_move() {
        assert_eq!(sound_of(&[], "e4"), Sound::Move);
        assert_eq!(sound_of(&["e4", "d5"], "exd5"), Sound::Capture);
        assert_eq!(sound_of(&["e4", "f5"], "Qh5+"), Sound::Check);
        // Bxf7+ takes and checks: the check is heard.
        assert_eq!(sound_of(&["e4", "e5", "Bc4", "d6"], "Bxf7+"), Sound::Check);
        // En passant is a capture.
        assert_eq!(sound_of(&["e4", "a6", "e5", "d5"], "exd6"), Sound::Capture);
    }
}
