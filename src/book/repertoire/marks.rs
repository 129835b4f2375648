//! The arrows and circles of [`Op::SetMarks`](super::Op::SetMarks) in the journal of
//! unsaved edits: typed in the op, written as the text `[%cal]` and `[%csl]` use
//! (`Ge2e4`, `Rd5`), so the journal's lines are what they were when the op held text.
//! A mark that does not read is left out, as applying the op left it out before.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use shakmaty::Square;

use crate::book::pgn::{parse_arrow, parse_circle};

/// An arrow: colour letter, from-square, to-square.
pub type Arrow = (char, Square, Square);

/// A circle: colour letter, square.
pub type Circle = (char, Square);

/// Serde of the arrows, as `["Ge2e4", …]`.
pub(super) mod arrows {
    use super::*;

    pub(in crate::book::repertoire) fn serialize<S: Serializer>(
        arrows: &[Arrow],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let text: Vec<String> = arrows
            .iter()
            .map(|(c, f, t)| format!("{c}{f}{t}"))
            .collect();
        text.serialize(s)
    }

    pub(in crate::book::repertoire) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<Arrow>, D::Error> {
        let text = Vec::<String>::deserialize(d)?;
        Ok(text.iter().filter_map(|a| parse_arrow(a)).collect())
    }
}

/// Serde of the circles, as `["Rd5", …]`.
pub(super) mod circles {
    use super::*;

    pub(in crate::book::repertoire) fn serialize<S: Serializer>(
        circles: &[Circle],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let text: Vec<String> = circles.iter().map(|(c, sq)| format!("{c}{sq}")).collect();
        text.serialize(s)
    }

    pub(in crate::book::repertoire) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<Circle>, D::Error> {
        let text = Vec::<String>::deserialize(d)?;
        Ok(text.iter().filter_map(|c| parse_circle(c)).collect())
    }
}
