//! What Hastings asks chess.com (its Published-Data API): the list of a player's
//! monthly archives, then each month's games as PGN.

use serde::Deserialize;

use super::error::FetchError;

/// The games of a chess.com player to fetch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChesscomGames {
    /// The user name (sent in lower case, as the API wants).
    pub user: String,
    /// Only the months from this one on (year, month).
    pub since: Option<(i16, i8)>,
}

/// `/pub/player/{user}/games/archives`, as documented: `{"archives": [URL, …]}`, one
/// address per month with games, oldest first.
#[derive(Debug, Deserialize)]
struct Archives {
    archives: Vec<String>,
}

impl ChesscomGames {
    /// The path of the archives list.
    pub fn archives_path(&self) -> String {
        format!(
            "/pub/player/{}/games/archives",
            self.user.to_ascii_lowercase()
        )
    }

    /// The path of one month's PGN.
    pub fn month_path(&self, (year, month): (i16, i8)) -> String {
        format!(
            "/pub/player/{}/games/{year:04}/{month:02}/pgn",
            self.user.to_ascii_lowercase()
        )
    }

    /// The months to fetch from the archives list `json`: those from `since` on and
    /// from the newest month already in the file on (that month is fetched again: it
    /// may have been the current one; months before it are complete and kept).
    ///
    /// The months are read from the addresses' last two parts (`…/games/2024/01`), so
    /// that they are asked of the address Hastings was given (a mirror, a test server).
    ///
    /// # Errors
    ///
    /// [`FetchError::BadJson`] when `json` is not the documented shape.
    pub fn months(
        &self,
        json: &[u8],
        newest_in_file: Option<(i16, i8)>,
        site: &str,
        url: &str,
    ) -> Result<Vec<(i16, i8)>, FetchError> {
        let bad = |reason: String| FetchError::BadJson {
            site: site.to_owned(),
            url: url.to_owned(),
            reason,
        };
        let archives: Archives = serde_json::from_slice(json).map_err(|e| bad(e.to_string()))?;
        let from = self.since.max(newest_in_file);
        let mut months = Vec::new();
        for address in &archives.archives {
            let mut parts = address.trim_end_matches('/').rsplit('/');
            let month = parts.next().and_then(|m| m.parse::<i8>().ok());
            let year = parts.next().and_then(|y| y.parse::<i16>().ok());
            let (Some(year), Some(month)) = (year, month) else {
                return Err(bad(format!("`{address}` is not a month's archive")));
            };
            if from.is_none_or(|f| (year, month) >= f) {
                months.push((year, month));
            }
        }
        months.sort_unstable();
        months.dedup();
        Ok(months)
    }
}

/// `YYYY-MM` as a year and month.
///
/// # Errors
///
/// [`FetchError::BadInput`] when it is not one.
pub fn parse_month(text: &str) -> Result<(i16, i8), FetchError> {
    let bad = || FetchError::BadInput(format!("`{text}` is not a month: give YYYY-MM"));
    let (y, m) = text.trim().split_once(['-', '/', '.']).ok_or_else(bad)?;
    let year = y.parse::<i16>().map_err(|_| bad())?;
    let month = m.parse::<i8>().map_err(|_| bad())?;
    if y.len() == 4 && (1..=12).contains(&month) {
        Ok((year, month))
    } else {
        Err(bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARCHIVES: &str = r#"{"archives":["https://api.chess.com/pub/player/erik/games/2009/10","https://api.chess.com/pub/player/erik/games/2009/11","https://api.chess.com/pub/player/erik/games/2010/01"]}"#;

    #[test]
    fn months_are_read_from_the_documented_archives_list() {
        let g = ChesscomGames {
            user: "Erik".to_owned(),
            since: None,
        };
        let all = g.months(ARCHIVES.as_bytes(), None, "s", "u").unwrap();
        assert_eq!(all, [(2009, 10), (2009, 11), (2010, 1)]);
        let newer = g
            .months(ARCHIVES.as_bytes(), Some((2009, 11)), "s", "u")
            .unwrap();
        assert_eq!(
            newer,
            [(2009, 11), (2010, 1)],
            "the newest month in the file again"
        );
        assert_eq!(
            g.month_path((2010, 1)),
            "/pub/player/erik/games/2010/01/pgn"
        );
        let err = g.months(b"{\"games\":[]}", None, "s", "u").unwrap_err();
        assert!(matches!(err, FetchError::BadJson { .. }), "{err}");
    }

    #[test]
    fn a_month_is_year_dash_month() {
        assert_eq!(parse_month("2024-03").unwrap(), (2024, 3));
        assert!(parse_month("2024-13").is_err());
        assert!(parse_month("24-03").is_err());
        assert!(parse_month("March").is_err());
    }
}
