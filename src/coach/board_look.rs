//! How the board looks: the square colours ([`BoardTheme`]), the pieces ([`PieceSet`])
//! and where the coordinates go ([`Coordinates`]), together a [`BoardLook`].
//!
//! Saved with the [`Settings`](super::settings::Settings); the window maps each choice to
//! its colours and images (`crate::ui::board_theme`, `crate::ui::pieces`), so nothing here
//! names egui.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The colours of the squares (lichess's boards of the same names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum BoardTheme {
    /// Light #f0d9b5, dark #b58863.
    #[default]
    Brown,
    /// Light #dee3e6, dark #8ca2ad.
    Blue,
    /// Light #ffffdd, dark #86a666.
    Green,
}

impl BoardTheme {
    /// Every theme, in the order the window lists them.
    pub const ALL: [BoardTheme; 3] = [BoardTheme::Brown, BoardTheme::Blue, BoardTheme::Green];

    /// The name shown in the window (and read by `--board`).
    pub fn name(self) -> &'static str {
        match self {
            BoardTheme::Brown => "Brown",
            BoardTheme::Blue => "Blue",
            BoardTheme::Green => "Green",
        }
    }
}

/// The piece artwork (credits and licences in `assets/pieces/README.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum PieceSet {
    /// Colin M.L. Burnett's pieces (GPLv2+), lichess's default.
    #[default]
    Cburnett,
    /// Alexis Luengas's Chessnut pieces (Apache 2.0).
    Chessnut,
    /// GNU XBoard's pieces (GPL-3.0-or-later).
    Xboard,
}

impl PieceSet {
    /// Every set, in the order the window lists them.
    pub const ALL: [PieceSet; 3] = [PieceSet::Cburnett, PieceSet::Chessnut, PieceSet::Xboard];

    /// The name shown in the window (and read by `--board`).
    pub fn name(self) -> &'static str {
        match self {
            PieceSet::Cburnett => "Cburnett",
            PieceSet::Chessnut => "Chessnut",
            PieceSet::Xboard => "XBoard",
        }
    }
}

/// Where the file letters and rank numbers are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Coordinates {
    /// In the corners of the edge squares, as lichess writes them.
    #[default]
    Inside,
    /// In a margin left of and below the board.
    Outside,
    /// Not written.
    Off,
}

impl Coordinates {
    /// Every choice, in the order the window lists them.
    pub const ALL: [Coordinates; 3] = [Coordinates::Inside, Coordinates::Outside, Coordinates::Off];

    /// The name shown in the window (and read by `--board`).
    pub fn name(self) -> &'static str {
        match self {
            Coordinates::Inside => "Inside",
            Coordinates::Outside => "Outside",
            Coordinates::Off => "Off",
        }
    }
}

/// The board's look: theme, pieces and coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BoardLook {
    /// The colours of the squares.
    pub theme: BoardTheme,
    /// The pieces.
    pub pieces: PieceSet,
    /// Where the coordinates go.
    pub coordinates: Coordinates,
}

impl fmt::Display for BoardLook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{},{},{}",
            self.theme.name().to_lowercase(),
            self.pieces.name().to_lowercase(),
            self.coordinates.name().to_lowercase()
        )
    }
}

/// Why a text is not a board look (`--board`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardLookError {
    /// A part names none of its choices.
    #[error("`{part}` is not a {what} ({names})")]
    Unknown {
        /// The part as written.
        part: String,
        /// What it should name: "board theme", "piece set" or "coordinates choice".
        what: &'static str,
        /// The names it may take, comma-separated.
        names: String,
    },
    /// More than `theme,pieces,coordinates`.
    #[error("`{0}` has more than three parts (theme,pieces,coordinates)")]
    TooManyParts(String),
}

impl FromStr for BoardLook {
    type Err = BoardLookError;

    /// Reads `theme,pieces,coordinates` by their names in any case (`blue,chessnut,outside`);
    /// each part may be left out from the end (`green` keeps the default pieces and
    /// coordinates).
    fn from_str(s: &str) -> Result<BoardLook, BoardLookError> {
        fn pick<T: Copy>(
            part: Option<&str>,
            all: &[T],
            name: fn(T) -> &'static str,
            what: &'static str,
        ) -> Result<Option<T>, BoardLookError> {
            let Some(part) = part.map(str::trim).filter(|p| !p.is_empty()) else {
                return Ok(None);
            };
            all.iter()
                .copied()
                .find(|v| name(*v).eq_ignore_ascii_case(part))
                .map(Some)
                .ok_or_else(|| {
                    let names: Vec<String> = all.iter().map(|v| name(*v).to_lowercase()).collect();
                    BoardLookError::Unknown {
                        part: part.to_owned(),
                        what,
                        names: names.join(", "),
                    }
                })
        }
        let mut parts = s.split(',');
        let mut look = BoardLook::default();
        if let Some(theme) = pick(
            parts.next(),
            &BoardTheme::ALL,
            BoardTheme::name,
            "board theme",
        )? {
            look.theme = theme;
        }
        if let Some(pieces) = pick(parts.next(), &PieceSet::ALL, PieceSet::name, "piece set")? {
            look.pieces = pieces;
        }
        if let Some(coordinates) = pick(
            parts.next(),
            &Coordinates::ALL,
            Coordinates::name,
            "coordinates choice",
        )? {
            look.coordinates = coordinates;
        }
        if parts.next().is_some() {
            return Err(BoardLookError::TooManyParts(s.to_owned()));
        }
        Ok(look)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_todays_board() {
        let look = BoardLook::default();
        assert_eq!(look.theme, BoardTheme::Brown);
        assert_eq!(look.pieces, PieceSet::Cburnett);
        assert_eq!(look.coordinates, Coordinates::Inside);
    }

    #[test]
    fn looks_read_back_what_they_write() {
        for theme in BoardTheme::ALL {
            for pieces in PieceSet::ALL {
                for coordinates in Coordinates::ALL {
                    let look = BoardLook {
                        theme,
                        pieces,
                        coordinates,
                    };
                    assert_eq!(look.to_string().parse::<BoardLook>(), Ok(look));
                }
            }
        }
        let green: BoardLook = "Green".parse().unwrap();
        assert_eq!(
            green,
            BoardLook {
                theme: BoardTheme::Green,
                ..BoardLook::default()
            }
        );
        assert!("purple".parse::<BoardLook>().is_err());
        assert!("blue,cburnett,inside,extra".parse::<BoardLook>().is_err());
        // The messages `--board` prints.
        let Err(e) = "blue,purple".parse::<BoardLook>() else {
            panic!("purple is no piece set");
        };
        let names: Vec<String> = PieceSet::ALL
            .iter()
            .map(|p| p.name().to_lowercase())
            .collect();
        let expected = format!("`purple` is not a piece set ({})", names.join(", "));
        assert_eq!(e.to_string(), expected);
        let Err(e) = "blue,,,x".parse::<BoardLook>() else {
            panic!("four parts");
        };
        assert_eq!(
            e.to_string(),
            "`blue,,,x` has more than three parts (theme,pieces,coordinates)"
        );
    }
}
