//! What the explorer reads from a game's tags: its rating band (from `WhiteElo` and
//! `BlackElo`), its speed (from `TimeControl`) and its year (from `Date`).

use std::fmt;

/// The lower bounds of the rating bands, as lichess's opening explorer offers them
/// (`ratings` option: 0 for below 1000, then 1000 … 2200, and 2500 for 2500 and up).
pub const BAND_BOUNDS: [u16; 9] = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];

/// A game's rating band: the band of the mean of `WhiteElo` and `BlackElo` (rounded
/// down), or unrated when either is missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RatingBand(u8);

impl RatingBand {
    /// Games missing a rating.
    pub const UNRATED: RatingBand = RatingBand(BAND_BOUNDS.len() as u8);

    /// Every band, the rated ones from the lowest, then unrated.
    pub fn all() -> impl Iterator<Item = RatingBand> {
        (0..=BAND_BOUNDS.len() as u8).map(RatingBand)
    }

    /// The band of a mean rating.
    pub fn from_mean(mean: u16) -> RatingBand {
        let above = BAND_BOUNDS.iter().filter(|&&b| b <= mean).count();
        RatingBand(above.saturating_sub(1) as u8)
    }

    /// The band whose lower bound is `bound` (one of [`BAND_BOUNDS`]).
    pub fn from_bound(bound: u16) -> Option<RatingBand> {
        let index = BAND_BOUNDS.iter().position(|&b| b == bound)?;
        Some(RatingBand(index as u8))
    }

    /// The band's lower bound; `None` for unrated.
    pub fn lower_bound(self) -> Option<u16> {
        BAND_BOUNDS.get(usize::from(self.0)).copied()
    }

    /// The band's number, 0 to 9 (9 unrated).
    pub fn index(self) -> u8 {
        self.0
    }

    /// The band of number `index` ([`RatingBand::index`]).
    pub fn from_index(index: u8) -> Option<RatingBand> {
        (usize::from(index) <= BAND_BOUNDS.len()).then_some(RatingBand(index))
    }
}

impl fmt::Display for RatingBand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.lower_bound() {
            Some(bound) => write!(f, "{bound}"),
            None => f.write_str("unrated"),
        }
    }
}

/// The mean of two ratings, rounded down; `None` when either is missing.
pub fn mean_rating(white: Option<u16>, black: Option<u16>) -> Option<u16> {
    let (w, b) = (white?, black?);
    Some(((u32::from(w) + u32::from(b)) / 2) as u16)
}

/// A rating tag's value: a positive whole number, else missing (`?`, `-`, empty, 0).
pub fn rating_from_tag(value: &str) -> Option<u16> {
    value.trim().parse::<u16>().ok().filter(|&r| r > 0)
}

/// A game's speed, as lichess names it, from the `TimeControl` tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Speed {
    /// Estimated time under 30 s.
    UltraBullet,
    /// Under 3 minutes.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// `-` (no clock) or a period of whole days.
    Correspondence,
    /// No `TimeControl` tag, or one that is not understood (`?`, `40/7200:3600`).
    Unknown,
}

impl Speed {
    /// Every speed, fastest first.
    pub const ALL: [Speed; 7] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
        Speed::Unknown,
    ];

    /// The speed of a `TimeControl` tag (`None`: no tag). `base+inc` (seconds) is
    /// estimated as `base + 40 × inc`, a lone `base` as `base`; `-` or `moves/seconds`
    /// with seconds a whole number of days is correspondence.
    ///
    /// ```
    /// use hastings::book::explorer::Speed;
    ///
    /// assert_eq!(Speed::from_time_control(Some("300+3")), Speed::Blitz); // 420 s
    /// assert_eq!(Speed::from_time_control(Some("180+0")), Speed::Blitz);
    /// assert_eq!(Speed::from_time_control(Some("-")), Speed::Correspondence);
    /// assert_eq!(Speed::from_time_control(None), Speed::Unknown);
    /// ```
    pub fn from_time_control(tag: Option<&str>) -> Speed {
        let Some(tag) = tag.map(str::trim) else {
            return Speed::Unknown;
        };
        if tag == "-" {
            return Speed::Correspondence;
        }
        if let Some((_, seconds)) = tag.split_once('/') {
            return match seconds.parse::<u64>() {
                Ok(s) if s >= 86_400 && s % 86_400 == 0 => Speed::Correspondence,
                _ => Speed::Unknown,
            };
        }
        let (base, inc) = tag.split_once('+').unwrap_or((tag, "0"));
        match (base.parse::<u64>(), inc.parse::<u64>()) {
            (Ok(base), Ok(inc)) => Speed::from_seconds(base.saturating_add(inc.saturating_mul(40))),
            _ => Speed::Unknown,
        }
    }

    /// The speed of an estimated game time in seconds.
    pub fn from_seconds(seconds: u64) -> Speed {
        match seconds {
            0..30 => Speed::UltraBullet,
            30..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// Its name: `ultrabullet`, `bullet`, `blitz`, `rapid`, `classical`,
    /// `correspondence`, `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultrabullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
            Speed::Unknown => "unknown",
        }
    }

    /// The speed named `name` ([`Speed::name`], any case).
    pub fn from_name(name: &str) -> Option<Speed> {
        Speed::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Its number, 0 to 6.
    pub fn index(self) -> u8 {
        self as u8
    }

    /// The speed of number `index`.
    pub fn from_index(index: u8) -> Option<Speed> {
        Speed::ALL.get(usize::from(index)).copied()
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The year of a `Date` tag (`2025.05.01`, `1996.??.??`); `None` for `????.??.??` or a
/// malformed date.
pub fn year_from_date(date: &str) -> Option<u16> {
    let year = date.trim().get(..4)?;
    if !year.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    year.parse::<u16>().ok().filter(|&y| y > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_follow_the_mean_rating() {
        assert_eq!(RatingBand::from_mean(999).lower_bound(), Some(0));
        assert_eq!(RatingBand::from_mean(1000).lower_bound(), Some(1000));
        assert_eq!(RatingBand::from_mean(1799).lower_bound(), Some(1600));
        assert_eq!(RatingBand::from_mean(3200).lower_bound(), Some(2500));
        assert_eq!(mean_rating(Some(1028), Some(1133)), Some(1080));
        assert_eq!(mean_rating(Some(1028), None), None);
        assert_eq!(RatingBand::UNRATED.lower_bound(), None);
        assert_eq!(RatingBand::all().count(), 10);
        assert_eq!(rating_from_tag("?"), None);
        assert_eq!(rating_from_tag("0"), None);
        assert_eq!(rating_from_tag(" 2767 "), Some(2767));
    }

    #[test]
    fn speeds_follow_the_estimated_time() {
        let speed = |tc| Speed::from_time_control(Some(tc));
        assert_eq!(speed("15+0"), Speed::UltraBullet);
        assert_eq!(speed("60+0"), Speed::Bullet);
        assert_eq!(speed("120+1"), Speed::Bullet); // 120 + 40 × 1 = 160 s
        assert_eq!(speed("180+0"), Speed::Blitz);
        assert_eq!(speed("600+0"), Speed::Rapid);
        assert_eq!(speed("900+10"), Speed::Rapid); // 1300 s
        assert_eq!(speed("900+15"), Speed::Classical); // 1500 s
        assert_eq!(speed("5400"), Speed::Classical);
        assert_eq!(speed("1/259200"), Speed::Correspondence);
        assert_eq!(speed("40/7200:3600"), Speed::Unknown);
        assert_eq!(speed("?"), Speed::Unknown);
        assert_eq!(Speed::from_name("Blitz"), Some(Speed::Blitz));
    }

    #[test]
    fn years_come_from_the_date() {
        assert_eq!(year_from_date("2025.05.01"), Some(2025));
        assert_eq!(year_from_date("1996.??.??"), Some(1996));
        assert_eq!(year_from_date("????.??.??"), None);
        assert_eq!(year_from_date("96"), None);
    }
}
