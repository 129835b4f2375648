//! The clock: now, and the learner's local time zone, read once.
//!
//! The time zone comes from the system (`TZ`, `/etc/localtime`, the Windows settings)
//! through [`jiff`], read when the [`Clock`] is made; asking for the UTC offset after
//! that spawns no process and reads no file, so the window can ask every frame. The
//! offset is that of the instant asked about, so it follows summer time.
//!
//! A clock can be fixed to an instant and a zone, for tests:
//!
//! ```
//! use hastings::clock::Clock;
//! use jiff::tz::{self, TimeZone};
//!
//! let at: jiff::Timestamp = "2025-03-01T08:30:00Z".parse()?;
//! let clock = Clock::fixed(at, TimeZone::fixed(tz::offset(1)));
//! assert_eq!(clock.now(), at);
//! assert_eq!(clock.offset_minutes(), 60);
//! assert_eq!(clock.today().to_string(), "2025-03-01");
//! # Ok::<(), jiff::Error>(())
//! ```
//!
//! It sits below every other module, so that each layer can be handed one.

use std::sync::LazyLock;

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, Zoned};

/// Now and the local time zone (the system's, or fixed for tests).
#[derive(Clone, Debug)]
pub struct Clock {
    zone: TimeZone,
    /// `Some` for a clock stopped at an instant.
    fixed: Option<Timestamp>,
    /// Why the system's time zone could not be read (UTC is used then).
    warning: Option<String>,
}

impl Clock {
    /// The system clock in the system's time zone, read now. When the zone cannot be
    /// determined, UTC is used and [`Clock::warning`] says why.
    pub fn system() -> Clock {
        match TimeZone::try_system() {
            Ok(zone) => Clock {
                zone,
                fixed: None,
                warning: None,
            },
            Err(e) => Clock {
                zone: TimeZone::UTC,
                fixed: None,
                warning: Some(format!(
                    "the local time zone could not be determined ({e}); using UTC"
                )),
            },
        }
    }

    /// The system clock in `zone`.
    pub fn with_zone(zone: TimeZone) -> Clock {
        Clock {
            zone,
            fixed: None,
            warning: None,
        }
    }

    /// A clock stopped at `at`, in `zone`: for tests, and for a `--now` given by the user.
    pub fn fixed(at: Timestamp, zone: TimeZone) -> Clock {
        Clock {
            zone,
            fixed: Some(at),
            warning: None,
        }
    }

    /// The process's clock: [`Clock::system`] made the first time it is asked for.
    pub fn local() -> &'static Clock {
        static LOCAL: LazyLock<Clock> = LazyLock::new(Clock::system);
        &LOCAL
    }

    /// Now.
    pub fn now(&self) -> Timestamp {
        self.fixed.unwrap_or_else(Timestamp::now)
    }

    /// Now, in milliseconds since 1970-01-01T00:00:00Z.
    pub fn now_ms(&self) -> i64 {
        self.now().as_millisecond()
    }

    /// Now as a local date and time.
    pub fn now_zoned(&self) -> Zoned {
        self.now().to_zoned(self.zone.clone())
    }

    /// Today's local date.
    pub fn today(&self) -> Date {
        self.now_zoned().date()
    }

    /// The local UTC offset now, in minutes east of UTC.
    pub fn offset_minutes(&self) -> i16 {
        self.offset_minutes_at(self.now())
    }

    /// The local UTC offset at `at`, in minutes east of UTC (summer time included).
    pub fn offset_minutes_at(&self, at: Timestamp) -> i16 {
        let seconds = self.zone.to_offset(at).seconds();
        // Offsets are within ±26 hours, so the minutes fit.
        i16::try_from(seconds.div_euclid(60)).unwrap_or(0)
    }

    /// The time zone.
    pub fn zone(&self) -> &TimeZone {
        &self.zone
    }

    /// Why the system's time zone could not be read, when UTC stands in for it.
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }
}

impl Default for Clock {
    /// [`Clock::system`].
    fn default() -> Clock {
        Clock::system()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::tz;

    fn at(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    #[test]
    fn a_fixed_clock_gives_its_instant_offset_and_date() {
        let clock = Clock::fixed(at("2025-03-01T23:30:00Z"), TimeZone::fixed(tz::offset(2)));
        assert_eq!(clock.now(), at("2025-03-01T23:30:00Z"));
        assert_eq!(clock.now_ms(), 1_740_871_800_000);
        assert_eq!(clock.offset_minutes(), 120);
        // Already the next day where the learner is.
        assert_eq!(clock.today(), jiff::civil::date(2025, 3, 2));
        assert!(clock.warning().is_none());
    }

    #[test]
    fn offsets_west_of_utc_are_negative_and_keep_their_minutes() {
        let west = tz::Offset::from_seconds(-(3 * 3600 + 30 * 60)).unwrap();
        let clock = Clock::fixed(at("2025-01-01T02:00:00Z"), TimeZone::fixed(west));
        assert_eq!(clock.offset_minutes(), -210);
        assert_eq!(clock.today(), jiff::civil::date(2024, 12, 31));
    }

    #[test]
    fn the_offset_follows_summer_time() {
        let berlin = TimeZone::posix("CET-1CEST,M3.5.0,M10.5.0/3").unwrap();
        let clock = Clock::with_zone(berlin);
        assert_eq!(clock.offset_minutes_at(at("2025-01-15T12:00:00Z")), 60);
        assert_eq!(clock.offset_minutes_at(at("2025-07-15T12:00:00Z")), 120);
    }

    #[test]
    fn the_system_clock_runs() {
        let clock = Clock::local();
        let a = clock.now();
        let b = clock.now();
        assert!(b >= a);
        assert!(clock.offset_minutes().abs() < 26 * 60);
    }
}
