//! The sounds, synthesised here from sine waves (no recordings: they are the project's
//! own, under its licence): a soft click for a move, a sharper one for a capture, two
//! tones for a check, a low buzz for a mistake, a chime for the end of a line.
//!
//! Each is a short mono buffer at [`SAMPLE_RATE_HZ`], made once by the audio thread
//! ([`super::sounds`]); playing one clones a shared buffer.

use std::f32::consts::TAU;

use rodio::buffer::SamplesBuffer;
use rodio::{ChannelCount, SampleRate};

use crate::coach::Sound;

/// The sounds' sample rate.
pub const SAMPLE_RATE_HZ: u32 = 44_100;

/// The loudest sample of any sound (quiet beside most desktop sounds).
const PEAK: f32 = 0.5;

/// The samples of `sound`: mono, at [`SAMPLE_RATE_HZ`], peaking at [`PEAK`], fading to
/// silence at the end (no click when it stops).
pub fn samples(sound: Sound) -> Vec<f32> {
    let mut out = match sound {
        // A wooden tap: two partials that die away in a few milliseconds.
        Sound::Move => {
            let mut buf = silence(0.07);
            tone(&mut buf, 0.0, 620.0, 1.0, 0.012);
            tone(&mut buf, 0.0, 1_310.0, 0.4, 0.006);
            buf
        }
        // Two sharper, higher taps in quick succession.
        Sound::Capture => {
            let mut buf = silence(0.12);
            for (start, gain) in [(0.0, 1.0), (0.035, 0.7)] {
                tone(&mut buf, start, 900.0, gain, 0.015);
                tone(&mut buf, start, 2_250.0, 0.6 * gain, 0.008);
                tone(&mut buf, start, 3_400.0, 0.3 * gain, 0.004);
            }
            buf
        }
        // Two tones, a fourth apart, rising.
        Sound::Check => {
            let mut buf = silence(0.26);
            note(&mut buf, 0.0, 0.11, 880.0);
            note(&mut buf, 0.12, 0.14, 1_174.7);
            buf
        }
        // A low buzz: a square-ish wave of odd harmonics.
        Sound::Mistake => {
            let mut buf = silence(0.28);
            for (harmonic, gain) in [(1.0, 1.0), (3.0, 0.33), (5.0, 0.2), (7.0, 0.14)] {
                let mut part = silence(0.28);
                note(&mut part, 0.0, 0.28, 110.0 * harmonic);
                for (b, p) in buf.iter_mut().zip(part) {
                    *b += gain * p;
                }
            }
            buf
        }
        // A chime: C, E and G struck one after another, ringing on.
        Sound::EndOfLine => {
            let mut buf = silence(0.75);
            for (i, freq) in [523.25, 659.25, 783.99].into_iter().enumerate() {
                let start = 0.09 * i as f32;
                tone(&mut buf, start, freq, 1.0, 0.22);
                tone(&mut buf, start, 2.0 * freq, 0.25, 0.1);
            }
            buf
        }
    };
    fade_out(&mut out, 0.01);
    normalise(&mut out);
    out
}

/// `sound` as a source for rodio's mixer.
pub fn source(sound: Sound) -> SamplesBuffer {
    SamplesBuffer::new(
        ChannelCount::MIN,
        SampleRate::new(SAMPLE_RATE_HZ).unwrap_or(SampleRate::MIN),
        samples(sound),
    )
}

/// `seconds` of silence.
fn silence(seconds: f32) -> Vec<f32> {
    vec![0.0; (seconds * SAMPLE_RATE_HZ as f32) as usize]
}

/// Adds a struck tone to `buf`: `freq` Hz from `start` seconds, `gain` loud, dying away
/// with time constant `decay` seconds (after a 1 ms attack, against clicks).
fn tone(buf: &mut [f32], start: f32, freq: f32, gain: f32, decay: f32) {
    let rate = SAMPLE_RATE_HZ as f32;
    let first = (start * rate) as usize;
    for (i, sample) in buf.iter_mut().skip(first).enumerate() {
        let t = i as f32 / rate;
        let attack = (t / 0.001).min(1.0);
        *sample += gain * attack * (-t / decay).exp() * (TAU * freq * t).sin();
    }
}

/// Adds a held note to `buf`: `freq` Hz from `start` for `length` seconds, with 5 ms
/// ramps in and out.
fn note(buf: &mut [f32], start: f32, length: f32, freq: f32) {
    let rate = SAMPLE_RATE_HZ as f32;
    let first = (start * rate) as usize;
    let count = (length * rate) as usize;
    for (i, sample) in buf.iter_mut().skip(first).take(count).enumerate() {
        let t = i as f32 / rate;
        let ramp = (t / 0.005).min((length - t) / 0.005).clamp(0.0, 1.0);
        *sample += ramp * (TAU * freq * t).sin();
    }
}

/// Fades the last `seconds` of `buf` to silence.
fn fade_out(buf: &mut [f32], seconds: f32) {
    let count = ((seconds * SAMPLE_RATE_HZ as f32) as usize).min(buf.len());
    let start = buf.len() - count;
    for (i, sample) in buf[start..].iter_mut().enumerate() {
        *sample *= 1.0 - (i + 1) as f32 / count as f32;
    }
}

/// Scales `buf` so that its loudest sample is [`PEAK`].
fn normalise(buf: &mut [f32]) {
    let max = buf.iter().fold(0.0_f32, |m, s| m.max(s.abs()));
    if max > 0.0 {
        for sample in buf {
            *sample *= PEAK / max;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use rodio::Source as _;

    use super::*;

    #[test]
    fn every_sound_is_short_mono_at_the_sample_rate_loud_enough_and_ends_in_silence() {
        for sound in Sound::ALL {
            let source = source(sound);
            assert_eq!(source.sample_rate().get(), SAMPLE_RATE_HZ, "{sound:?}");
            assert_eq!(source.channels().get(), 1, "{sound:?}");
            let length = source.total_duration().unwrap_or_default();
            assert!(
                length >= Duration::from_millis(50) && length <= Duration::from_millis(800),
                "{sound:?}: {length:?}"
            );
            let samples = samples(sound);
            let peak = samples.iter().fold(0.0_f32, |m, s| m.max(s.abs()));
            assert!((peak - PEAK).abs() < 1e-4, "{sound:?}: peak {peak}");
            let rms = (samples.iter().map(|s| s * s).sum::<f32>() / samples.len() as f32).sqrt();
            assert!(rms > 0.02, "{sound:?} is nearly silent: rms {rms}");
            assert!(samples.iter().all(|s| s.is_finite()));
            assert!(samples.last().is_some_and(|s| s.abs() < 1e-3), "{sound:?}");
        }
    }

    #[test]
    fn the_sounds_differ_in_length_and_pitch() {
        let lengths: Vec<usize> = Sound::ALL.iter().map(|&s| samples(s).len()).collect();
        // The move is the shortest, the chime the longest.
        assert_eq!(lengths.iter().min(), Some(&lengths[0]));
        assert_eq!(lengths.iter().max(), Some(&lengths[4]));
        // The buzz is low: few zero crossings for its length beside the check's tones.
        let crossings_per_second = |sound| {
            let s = samples(sound);
            let n = s
                .windows(2)
                .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
                .count();
            n as f32 * SAMPLE_RATE_HZ as f32 / s.len() as f32
        };
        assert!(crossings_per_second(Sound::Mistake) < crossings_per_second(Sound::Check));
    }
}
