//! What Hastings asks lichess: a study (all its chapters), a user's studies, a user's
//! games (lichess's API documentation, "Export one study", "Export all studies of a
//! user", "Export games of a user").

use super::error::FetchError;
use super::existing::Existing;

/// The games of a lichess user to fetch: `/api/games/user/{name}`'s parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LichessGames {
    /// The user name.
    pub user: String,
    /// Games played from this time on (milliseconds since 1970, UTC).
    pub since_ms: Option<i64>,
    /// Games played before this time (milliseconds since 1970, UTC).
    pub until_ms: Option<i64>,
    /// At most this many games (the newest).
    pub max: Option<u64>,
    /// Only these speeds (`bullet`, `blitz`, `rapid`, `classical`, `correspondence`,
    /// `ultraBullet`); all when empty.
    pub speeds: Vec<String>,
    /// Only rated games.
    pub rated: bool,
    /// Only games with this colour (`white` or `black`).
    pub color: Option<String>,
    /// Clock comments on the moves.
    pub clocks: bool,
    /// Engine evaluations on the moves (where lichess has analysed the game).
    pub evals: bool,
}

/// The speeds lichess knows (its `perfType` values that are speeds).
pub const SPEEDS: [&str; 6] = [
    "ultraBullet",
    "bullet",
    "blitz",
    "rapid",
    "classical",
    "correspondence",
];

impl LichessGames {
    /// The path and query of the request, `since` moved on to the newest lichess game
    /// already in the file (games of that second are asked again and left out when
    /// they are there: `UTCTime` has whole seconds).
    pub fn request(&self, existing: &Existing) -> (String, Vec<(&'static str, String)>) {
        let path = format!("/api/games/user/{}", self.user);
        let since = match (self.since_ms, existing.newest_lichess_ms) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let mut query = Vec::new();
        if let Some(s) = since {
            query.push(("since", s.to_string()));
        }
        if let Some(u) = self.until_ms {
            query.push(("until", u.to_string()));
        }
        if let Some(m) = self.max {
            query.push(("max", m.to_string()));
        }
        if !self.speeds.is_empty() {
            query.push(("perfType", self.speeds.join(",")));
        }
        if self.rated {
            query.push(("rated", "true".to_owned()));
        }
        if let Some(c) = &self.color {
            query.push(("color", c.clone()));
        }
        query.push(("clocks", self.clocks.to_string()));
        query.push(("evals", self.evals.to_string()));
        (path, query)
    }
}

/// The query of a study export: the `[Orientation]` tag asked for, so that each
/// chapter's side comes with it.
pub fn study_query() -> Vec<(&'static str, String)> {
    vec![("orientation", "true".to_owned())]
}

/// The study id in `input`: an id (8 letters and digits), or a study's or chapter's
/// link (`https://lichess.org/study/XtFCFYlM/GCUTf2jk`, `….pgn` too).
///
/// # Errors
///
/// [`FetchError::BadInput`] when it holds no study id.
pub fn study_id(input: &str) -> Result<String, FetchError> {
    let text = input.trim();
    let id = match text.split_once("/study/") {
        Some((_, rest)) => rest.split(['/', '?', '#']).next().unwrap_or_default(),
        None => text,
    };
    let id = id.strip_suffix(".pgn").unwrap_or(id);
    if id.len() == 8 && id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        Ok(id.to_owned())
    } else {
        Err(FetchError::BadInput(format!(
            "`{input}` is not a lichess study: give its link (https://lichess.org/study/…) or its 8-character id"
        )))
    }
}

/// `name` if it can be a user name on lichess or chess.com: 1 to 50 letters, digits,
/// `_` or `-` (so it is safe in an address).
///
/// # Errors
///
/// [`FetchError::BadInput`] otherwise.
pub fn user_name(name: &str) -> Result<&str, FetchError> {
    let ok = (1..=50).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(name)
    } else {
        Err(FetchError::BadInput(format!(
            "`{name}` is not a user name (letters, digits, _ and - only)"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_study_is_found_by_its_id_its_link_or_a_chapters_link() {
        for input in [
            "XtFCFYlM",
            "https://lichess.org/study/XtFCFYlM",
            "https://lichess.org/study/XtFCFYlM/GCUTf2jk",
            "lichess.org/study/XtFCFYlM.pgn",
            " https://lichess.org/study/XtFCFYlM?x=1 ",
        ] {
            assert_eq!(study_id(input).unwrap(), "XtFCFYlM", "{input}");
        }
        for bad in [
            "",
            "XtFCFYl",
            "https://lichess.org/ENPo6ReH1",
            "../../x.pgn",
        ] {
            let err = study_id(bad).unwrap_err().to_string();
            assert!(err.contains("is not a lichess study"), "{err}");
        }
    }

    #[test]
    fn user_names_that_would_change_the_address_are_refused() {
        assert!(user_name("Magnus_C-1").is_ok());
        assert!(user_name("a/b").is_err());
        assert!(user_name("a?b").is_err());
        assert!(user_name("").is_err());
    }

    #[test]
    fn the_games_request_starts_at_the_newest_game_in_the_file() {
        let games = LichessGames {
            user: "bob".to_owned(),
            since_ms: Some(1000),
            max: Some(5),
            speeds: vec!["blitz".to_owned(), "rapid".to_owned()],
            rated: true,
            ..LichessGames::default()
        };
        let (path, query) = games.request(&Existing::default());
        assert_eq!(path, "/api/games/user/bob");
        let q = |k: &str| query.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone());
        assert_eq!(q("since").as_deref(), Some("1000"));
        assert_eq!(q("perfType").as_deref(), Some("blitz,rapid"));
        assert_eq!(q("rated").as_deref(), Some("true"));
        assert_eq!(q("clocks").as_deref(), Some("false"));
        assert_eq!(q("evals").as_deref(), Some("false"));
        let existing = Existing {
            newest_lichess_ms: Some(5000),
            ..Existing::default()
        };
        let (_, query) = games.request(&existing);
        assert!(query.contains(&("since", "5000".to_owned())));
    }
}
