//! Points in time as the review log writes them: RFC 3339 with the learner's local
//! offset, and the learner's days, which start at 04:00 local time (as Anki's do).
//!
//! No clock is read here: callers pass the time, or a [`Clock`], in, so that tests are
//! deterministic.

use std::fmt;

use crate::clock::Clock;

use thiserror::Error;

/// The hour (local time) at which a new review day starts.
pub const DAY_START_HOUR: i64 = 4;

const MS_PER_DAY: i64 = 86_400_000;

/// A point in time and the UTC offset of the place where it was taken.
///
/// Two timestamps are equal when both the instant and the offset are; compare
/// [`Timestamp::unix_ms`] for the instant alone.
///
/// ```
/// use hastings::review::Timestamp;
///
/// let t = Timestamp::parse_rfc3339("2025-03-01T03:30:00+01:00")?;
/// assert_eq!(t.to_rfc3339(), "2025-03-01T03:30:00+01:00");
/// // Before 04:00 local time the learner's day is still the previous one.
/// let later = Timestamp::parse_rfc3339("2025-03-01T04:00:00+01:00")?;
/// assert_eq!(later.day() - t.day(), 1);
/// # Ok::<(), hastings::review::TimeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Timestamp {
    unix_ms: i64,
    offset_minutes: i16,
}

/// A timestamp that is not strict RFC 3339.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("`{text}` is not an RFC 3339 time like 2025-03-01T09:30:00+01:00: {reason}")]
pub struct TimeError {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl Timestamp {
    /// The instant `unix_ms` milliseconds after 1970-01-01T00:00:00Z, seen at UTC offset
    /// `offset_minutes` (clamped to ±23:59).
    pub fn from_unix_ms(unix_ms: i64, offset_minutes: i16) -> Timestamp {
        Timestamp {
            unix_ms,
            offset_minutes: offset_minutes.clamp(-1439, 1439),
        }
    }

    /// Milliseconds since 1970-01-01T00:00:00Z.
    pub fn unix_ms(self) -> i64 {
        self.unix_ms
    }

    /// The UTC offset in minutes (east positive).
    pub fn offset_minutes(self) -> i16 {
        self.offset_minutes
    }

    /// The same instant seen at another UTC offset.
    #[must_use]
    pub fn with_offset(self, offset_minutes: i16) -> Timestamp {
        Timestamp::from_unix_ms(self.unix_ms, offset_minutes)
    }

    /// Now by `clock`, at its local UTC offset now.
    ///
    /// ```
    /// use hastings::clock::Clock;
    /// use hastings::review::Timestamp;
    /// use jiff::tz::{self, TimeZone};
    ///
    /// let clock = Clock::fixed("2025-03-01T02:30:00Z".parse()?, TimeZone::fixed(tz::offset(1)));
    /// assert_eq!(Timestamp::from_clock(&clock).to_rfc3339(), "2025-03-01T03:30:00+01:00");
    /// # Ok::<(), jiff::Error>(())
    /// ```
    pub fn from_clock(clock: &Clock) -> Timestamp {
        let now = clock.now();
        Timestamp::from_unix_ms(now.as_millisecond(), clock.offset_minutes_at(now))
    }

    /// The system clock now, at `offset_minutes` (the caller knows the local offset).
    pub fn now(offset_minutes: i16) -> Timestamp {
        let ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        Timestamp::from_unix_ms(ms, offset_minutes)
    }

    fn local_ms(self) -> i64 {
        self.unix_ms + i64::from(self.offset_minutes) * 60_000
    }

    /// The learner's day number: whole days since 1970-01-01 04:00 local time. Reviews
    /// count as the same day when they have the same day number.
    pub fn day(self) -> i64 {
        (self.local_ms() - DAY_START_HOUR * 3_600_000).div_euclid(MS_PER_DAY)
    }

    /// The first instant of the learner's day `day`, at this timestamp's offset.
    #[must_use]
    pub fn start_of_day(self, day: i64) -> Timestamp {
        let local = day * MS_PER_DAY + DAY_START_HOUR * 3_600_000;
        Timestamp::from_unix_ms(
            local - i64::from(self.offset_minutes) * 60_000,
            self.offset_minutes,
        )
    }

    /// This instant plus `days` days of 24 hours.
    #[must_use]
    pub fn plus_days(self, days: i64) -> Timestamp {
        Timestamp::from_unix_ms(
            self.unix_ms.saturating_add(days.saturating_mul(MS_PER_DAY)),
            self.offset_minutes,
        )
    }

    /// This instant plus `ms` milliseconds.
    #[must_use]
    pub fn plus_ms(self, ms: i64) -> Timestamp {
        Timestamp::from_unix_ms(self.unix_ms.saturating_add(ms), self.offset_minutes)
    }

    /// Days (fractional, negative when `earlier` is later) from `earlier` to this instant.
    pub fn days_since(self, earlier: Timestamp) -> f64 {
        (self.unix_ms - earlier.unix_ms) as f64 / MS_PER_DAY as f64
    }

    /// Seconds (fractional) from `earlier` to this instant.
    pub fn seconds_since(self, earlier: Timestamp) -> f64 {
        (self.unix_ms - earlier.unix_ms) as f64 / 1000.0
    }

    /// RFC 3339 at the timestamp's own offset, with milliseconds only when there are any:
    /// `2025-03-01T09:30:00+01:00`, `2025-03-01T08:30:00.250Z`.
    pub fn to_rfc3339(self) -> String {
        self.to_string()
    }

    /// Parses strict RFC 3339: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`. `T` and `Z`
    /// may be lower case; fractions finer than a millisecond are cut; a leap second
    /// (`:60`) counts as the last millisecond of its minute.
    ///
    /// # Errors
    ///
    /// [`TimeError`] naming the first thing that is wrong.
    pub fn parse_rfc3339(text: &str) -> Result<Timestamp, TimeError> {
        let err = |reason| TimeError {
            text: text.to_owned(),
            reason,
        };
        let b = text.as_bytes();
        if b.len() < 20 {
            return Err(err("too short"));
        }
        let num = |range: std::ops::Range<usize>, what| -> Result<i64, TimeError> {
            let part = &b[range];
            if part.iter().all(u8::is_ascii_digit) {
                Ok(part.iter().fold(0i64, |n, d| n * 10 + i64::from(d - b'0')))
            } else {
                Err(err(what))
            }
        };
        let year = num(0..4, "the year needs four digits")?;
        let month = num(5..7, "the month needs two digits")?;
        let day = num(8..10, "the day needs two digits")?;
        let hour = num(11..13, "the hour needs two digits")?;
        let minute = num(14..16, "the minute needs two digits")?;
        let second = num(17..19, "the second needs two digits")?;
        if b[4] != b'-' || b[7] != b'-' || b[13] != b':' || b[16] != b':' {
            return Err(err(
                "separators must be `-` in the date and `:` in the time",
            ));
        }
        if !matches!(b[10], b'T' | b't') {
            return Err(err("date and time must be separated by `T`"));
        }
        if !(1..=12).contains(&month) {
            return Err(err("the month must be 01 to 12"));
        }
        if day < 1 || day > days_in_month(year, month) {
            return Err(err("no such day in that month"));
        }
        if hour > 23 || minute > 59 || second > 60 {
            return Err(err("the time of day is out of range"));
        }
        let mut i = 19;
        let mut millis = 0i64;
        if b[i] == b'.' {
            i += 1;
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                if i - start < 3 {
                    millis = millis * 10 + i64::from(b[i] - b'0');
                }
                i += 1;
            }
            if i == start {
                return Err(err("a `.` must be followed by digits"));
            }
            for _ in (i - start)..3 {
                millis *= 10;
            }
        }
        let offset = match b.get(i..) {
            Some(b"Z" | b"z") => 0,
            Some(&[sign @ (b'+' | b'-'), h1, h2, b':', m1, m2]) => {
                let digits = [h1, h2, m1, m2];
                if !digits.iter().all(u8::is_ascii_digit) {
                    return Err(err("the offset must be ±HH:MM"));
                }
                let [h1, h2, m1, m2] = digits.map(|d| i64::from(d - b'0'));
                let (h, m) = (h1 * 10 + h2, m1 * 10 + m2);
                if h > 23 || m > 59 {
                    return Err(err("the offset is out of range"));
                }
                let minutes = h * 60 + m;
                if sign == b'-' { -minutes } else { minutes }
            }
            _ => return Err(err("it must end in `Z` or an offset like +01:00")),
        };
        let (second, millis) = if second == 60 {
            (59, 999)
        } else {
            (second, millis)
        };
        let local_ms = days_from_civil(year, month, day) * MS_PER_DAY
            + ((hour * 60 + minute) * 60 + second) * 1000
            + millis;
        Ok(Timestamp::from_unix_ms(
            local_ms - offset * 60_000,
            i16::try_from(offset).unwrap_or(0),
        ))
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let local = self.local_ms();
        let days = local.div_euclid(MS_PER_DAY);
        let ms_of_day = local.rem_euclid(MS_PER_DAY);
        let (y, m, d) = civil_from_days(days);
        let secs = ms_of_day / 1000;
        write!(
            f,
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        )?;
        let ms = ms_of_day % 1000;
        if ms != 0 {
            write!(f, ".{ms:03}")?;
        }
        let off = i32::from(self.offset_minutes);
        if off == 0 {
            f.write_str("Z")
        } else {
            let sign = if off < 0 { '-' } else { '+' };
            write!(f, "{sign}{:02}:{:02}", off.abs() / 60, off.abs() % 60)
        }
    }
}

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day number since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Timestamp {
        Timestamp::parse_rfc3339(s).unwrap()
    }

    #[test]
    fn known_instants_have_their_unix_time() {
        // `date -u -d 2000-02-29T12:34:56Z +%s` = 951827696
        assert_eq!(t("2000-02-29T12:34:56Z").unix_ms(), 951_827_696_000);
        assert_eq!(t("1970-01-01T00:00:00Z").unix_ms(), 0);
        assert_eq!(t("1969-12-31T23:59:59.5Z").unix_ms(), -500);
        assert_eq!(t("2000-03-01T01:00:00+01:00").unix_ms(), 951_868_800_000);
        assert_eq!(t("2025-01-01t00:00:00-05:30").unix_ms(), 1_735_709_400_000);
    }

    #[test]
    fn formatting_round_trips_with_the_offset() {
        for s in [
            "2025-03-01T09:30:00+01:00",
            "2025-03-01T08:30:00.250Z",
            "1999-12-31T23:59:59.001-08:00",
            "2024-02-29T00:00:00+14:00",
        ] {
            assert_eq!(t(s).to_rfc3339(), s);
        }
        assert_eq!(
            t("2025-03-01T09:30:00.123456789Z").to_rfc3339(),
            "2025-03-01T09:30:00.123Z"
        );
    }

    #[test]
    fn malformed_times_are_rejected_with_a_reason() {
        for bad in [
            "",
            "2025-03-01",
            "2025-03-01 09:30:00Z",
            "2025-13-01T09:30:00Z",
            "2025-02-29T09:30:00Z",
            "2025-03-01T24:00:00Z",
            "2025-03-01T09:30:00",
            "2025-03-01T09:30:00+0100",
            "2025-03-01T09:30:00+24:00",
            "2025-03-01T09:30:00.Z",
            "2025-03-01T09:30:00Zjunk",
            "+025-03-01T09:30:00Z",
        ] {
            assert!(Timestamp::parse_rfc3339(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_leap_second_is_the_end_of_its_minute() {
        assert_eq!(
            t("2016-12-31T23:59:60Z").unix_ms(),
            t("2017-01-01T00:00:00Z").unix_ms() - 1
        );
    }

    #[test]
    fn days_start_at_four_in_the_morning_local_time() {
        let before = t("2025-03-01T03:59:59+02:00");
        let after = t("2025-03-01T04:00:00+02:00");
        assert_eq!(after.day(), before.day() + 1);
        // The same instant is a different day at another offset.
        let utc = after.with_offset(0); // 02:00Z
        assert_eq!(utc.day(), before.day());
        assert_eq!(after.start_of_day(after.day()), after);
        assert_eq!(t("1970-01-01T04:00:00Z").day(), 0);
        assert_eq!(t("1970-01-01T03:00:00Z").day(), -1);
    }

    #[test]
    fn civil_dates_round_trip_over_centuries() {
        for z in (-800_000..800_000).step_by(997) {
            let (y, m, d) = civil_from_days(z);
            assert!(d >= 1 && d <= days_in_month(y, m));
            assert_eq!(days_from_civil(y, m, d), z);
        }
    }
}
