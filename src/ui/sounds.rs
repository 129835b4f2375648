//! The window's sounds: [`SoundPlayer`] plays the coach's
//! [`Notice::Sound`](crate::coach::Notice::Sound)s through rodio's mixer, and
//! `sounds_ui` is the mute switch (in the Style tab).
//!
//! The output device is opened lazily, on the first sound, by an audio thread of its
//! own, and may fail: a machine without a sound device (a server, CI, Xvfb) runs as
//! well, without sound, and the switch says "No sound device". The window's thread
//! only sends the sound over a channel (well under a millisecond); the audio thread
//! hands rodio's mixer a copy of a buffer synthesised once (`synth`), and the
//! mixer plays it on the device's own thread.

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, OnceLock};

use eframe::egui;
use egui::{RichText, Ui};
use rodio::{DeviceSinkBuilder, MixerDeviceSink};

use super::synth;
use crate::coach::Sound;
use crate::coach::settings::Settings;

/// Opens the output device (or says why it could not).
pub type Opener = fn() -> Result<MixerDeviceSink, String>;

/// Where the player's output stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutputState {
    /// Not opened: no sound was played yet, or the player is silent.
    Closed,
    /// The audio thread is opening the device.
    Opening,
    /// Sounds are played.
    Ready,
    /// No device could be opened: why (sounds are dropped).
    NoDevice(String),
}

/// Plays sounds on the default output device, opened on the first sound.
pub struct SoundPlayer {
    /// How the device is opened; `None`: a silent player, which never opens one.
    opener: Option<Opener>,
    /// To the audio thread, once it was started.
    sender: Option<Sender<Sound>>,
    /// Set once by the audio thread: whether the device opened, or why not.
    opened: Arc<OnceLock<Result<(), String>>>,
}

impl SoundPlayer {
    /// A player on the system's default output device (opened on the first sound).
    pub fn new() -> SoundPlayer {
        SoundPlayer::with_opener(open_default)
    }

    /// A player whose device `opener` opens (on the first sound).
    pub fn with_opener(opener: Opener) -> SoundPlayer {
        SoundPlayer {
            opener: Some(opener),
            sender: None,
            opened: Arc::new(OnceLock::new()),
        }
    }

    /// A player that plays nothing and never opens a device (tests, the screenshot).
    pub fn silent() -> SoundPlayer {
        SoundPlayer {
            opener: None,
            sender: None,
            opened: Arc::new(OnceLock::new()),
        }
    }

    /// Where the output stands.
    pub fn state(&self) -> OutputState {
        match (&self.sender, self.opened.get()) {
            (None, _) => OutputState::Closed,
            (Some(_), None) => OutputState::Opening,
            (Some(_), Some(Ok(()))) => OutputState::Ready,
            (Some(_), Some(Err(why))) => OutputState::NoDevice(why.clone()),
        }
    }

    /// Plays `sound` (opening the device first, the first time); returns at once.
    /// `wake` is called when the device has opened or failed (the window redraws to
    /// show it).
    pub fn play(&mut self, sound: Sound, wake: impl Fn() + Send + 'static) {
        self.open(wake);
        if let Some(sender) = &self.sender {
            // No device: the audio thread has ended and the sound is dropped.
            let _ = sender.send(sound);
        }
    }

    /// Starts opening the device on the audio thread, unless done before or silent.
    pub fn open(&mut self, wake: impl Fn() + Send + 'static) {
        if self.sender.is_some() {
            return;
        }
        let Some(opener) = self.opener else {
            return;
        };
        let (sender, receiver) = mpsc::channel();
        let opened = Arc::clone(&self.opened);
        let started = std::thread::Builder::new()
            .name("hastings-sounds".to_owned())
            .spawn(move || play_sounds(opener, &receiver, &opened, wake));
        if let Err(e) = started {
            let _ = self
                .opened
                .set(Err(format!("the audio thread did not start: {e}")));
        }
        self.sender = Some(sender);
    }
}

impl Default for SoundPlayer {
    fn default() -> SoundPlayer {
        SoundPlayer::new()
    }
}

/// Opens the system's default output device (another one where it fails).
///
/// # Errors
///
/// Why no device could be opened (none, or none that works).
pub fn open_default() -> Result<MixerDeviceSink, String> {
    let mut sink = DeviceSinkBuilder::open_default_sink().map_err(|e| e.to_string())?;
    sink.log_on_drop(false);
    Ok(sink)
}

/// The audio thread: opens the device, then plays the sounds it is sent until the
/// player is dropped.
fn play_sounds(
    opener: Opener,
    receiver: &Receiver<Sound>,
    opened: &OnceLock<Result<(), String>>,
    wake: impl Fn(),
) {
    let sink = opener();
    let _ = opened.set(sink.as_ref().map(|_| ()).map_err(Clone::clone));
    wake();
    let Ok(sink) = sink else {
        return;
    };
    let sources = Sound::ALL.map(|sound| (sound, synth::source(sound)));
    for sound in receiver {
        if let Some((_, source)) = sources.iter().find(|(s, _)| *s == sound) {
            sink.mixer().add(source.clone());
        }
    }
}

/// The mute switch (in the Style tab), and a note when sounds are on but there is no
/// device to play them on.
pub(super) fn sounds_ui(ui: &mut Ui, settings: &mut Settings, state: &OutputState) {
    ui.checkbox(&mut settings.sounds, "Sounds").on_hover_text(
        "A click for a move, a sharper one for a capture, two tones for a check, a buzz \
         for a move out of the book, a chime at the end of a line",
    );
    if settings.sounds
        && let OutputState::NoDevice(why) = state
    {
        ui.label(RichText::new("No sound device").weak())
            .on_hover_text(format!("Sounds are off: {why}."));
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    /// Waits (at most 10 s) until the audio thread has opened the device or failed.
    fn settled(player: &SoundPlayer) -> OutputState {
        let start = Instant::now();
        while player.state() == OutputState::Opening && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(5));
        }
        player.state()
    }

    #[test]
    fn without_a_device_the_player_says_so_and_sounds_are_dropped() {
        let mut player = SoundPlayer::with_opener(|| Err("no sound card".to_owned()));
        assert_eq!(player.state(), OutputState::Closed, "opened lazily");
        let start = Instant::now();
        player.play(Sound::Move, || {});
        assert!(
            start.elapsed() < Duration::from_millis(50),
            "play returns at once"
        );
        assert_eq!(
            settled(&player),
            OutputState::NoDevice("no sound card".to_owned())
        );
        // Later sounds go nowhere, without a panic or a second try.
        player.play(Sound::Capture, || {});
        player.play(Sound::EndOfLine, || {});
        assert_eq!(
            player.state(),
            OutputState::NoDevice("no sound card".to_owned())
        );
    }

    #[test]
    fn the_default_device_opens_or_is_missing_without_a_panic() {
        // CI has no sound card: NoDevice there; a desktop opens its device.
        let mut player = SoundPlayer::new();
        player.open(|| {});
        let state = settled(&player);
        assert!(
            matches!(state, OutputState::Ready | OutputState::NoDevice(_)),
            "{state:?}"
        );
    }

    #[test]
    fn a_silent_player_never_opens_a_device() {
        let mut player = SoundPlayer::silent();
        player.play(Sound::Check, || {});
        assert_eq!(player.state(), OutputState::Closed);
    }
}
