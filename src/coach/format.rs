//! Numbers and moves as the window shows them: `3,807`, `491,198`, `3.Bc4`, `3...c5`.

/// `n` (a whole number) with a comma between groups of three digits (as the
/// explorer's explanations write counts).
pub fn count(n: impl std::fmt::Display) -> String {
    crate::book::explorer::group_digits(n)
}

/// The move `san` with its number, as players write it: `3.Bc4` for White's third move,
/// `3...c5` for Black's; `mover` is the side that played it.
pub fn numbered(fullmove: u32, mover: shakmaty::Color, san: &str) -> String {
    match mover {
        shakmaty::Color::White => format!("{fullmove}.{san}"),
        shakmaty::Color::Black => format!("{fullmove}...{san}"),
    }
}

/// [`numbered`] for the 1-based `ply` of a game from the standard start: `3.Bc4` for ply
/// 5, `3...c5` for ply 6.
pub fn numbered_ply(ply: u32, san: &str) -> String {
    let mover = if ply % 2 == 1 {
        shakmaty::Color::White
    } else {
        shakmaty::Color::Black
    };
    numbered(ply.div_ceil(2), mover, san)
}

/// A line's moves from the standard start as players write them: `1.e4 c6 2.d4 d5`.
pub fn numbered_line<S: std::fmt::Display>(sans: &[S]) -> String {
    sans.iter()
        .enumerate()
        .map(|(i, san)| match u32::try_from(i + 1) {
            // White's moves carry their number; Black's follow them.
            Ok(ply) if ply % 2 == 1 => numbered_ply(ply, &san.to_string()),
            _ => san.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// How far `plies` half-moves go, as players count: `"3 moves"` for 5 or 6 plies,
/// `"1 move"` for 1 or 2.
pub fn moves_count(plies: usize) -> String {
    match plies.div_ceil(2) {
        1 => "1 move".to_owned(),
        n => format!("{n} moves"),
    }
}

/// The names of the lines a position's book moves lead to, as a narrow list shows them:
/// without the ECO code, and without the opening's family where it is the family of
/// `heading` (the name of the position itself). Under `C20 King's Pawn Game`, `C20 King's
/// Pawn Game: Leonardis Variation` is `Leonardis Variation` and `C30 King's Gambit` is
/// `King's Gambit`. Two different names never come out the same: those that would are
/// kept whole.
pub fn short_line_names(heading: Option<&str>, titles: &[Option<&str>]) -> Vec<Option<String>> {
    let family = heading.map(|h| family(without_eco(h)));
    let mut out: Vec<Option<String>> = titles
        .iter()
        .map(|t| {
            let name = without_eco((*t)?);
            let short = match name.split_once(": ") {
                Some((f, variation)) if Some(f) == family && !variation.is_empty() => variation,
                _ => name,
            };
            Some(short.to_owned())
        })
        .collect();
    // Whole names are different where the titles are; each round keeps at least one more
    // name whole, so this ends.
    loop {
        let clashes: Vec<usize> = (0..titles.len())
            .filter(|&i| {
                out[i].as_deref() != titles[i]
                    && (0..titles.len())
                        .any(|j| titles[j] != titles[i] && out[j].is_some() && out[j] == out[i])
            })
            .collect();
        if clashes.is_empty() {
            return out;
        }
        for i in clashes {
            out[i] = titles[i].map(str::to_owned);
        }
    }
}

/// `title` without its leading ECO code (`C20 King's Pawn Game` → `King's Pawn Game`).
fn without_eco(title: &str) -> &str {
    let b = title.as_bytes();
    let eco = b.len() > 4
        && (b'A'..=b'E').contains(&b[0])
        && b[1].is_ascii_digit()
        && b[2].is_ascii_digit()
        && b[3] == b' ';
    if eco { &title[4..] } else { title }
}

/// The opening's family: the name before its variation (`King's Pawn Game` of `King's
/// Pawn Game: Leonardis Variation`).
fn family(name: &str) -> &str {
    name.split_once(": ").map_or(name, |(f, _)| f)
}

#[cfg(test)]
mod tests {
    use super::{count, moves_count, numbered_ply, short_line_names};

    fn short(heading: Option<&str>, titles: &[Option<&str>]) -> Vec<Option<String>> {
        short_line_names(heading, titles)
    }

    #[test]
    fn book_moves_show_the_variation_under_the_openings_name() {
        let titles = [
            Some("C40 King's Knight Opening"),
            Some("C20 King's Pawn Game: Leonardis Variation"),
            Some("C20 King's Pawn Game: MacLeod Attack"),
            Some("C20 King's Pawn Game"),
            None,
        ];
        assert_eq!(
            short(Some("C20 King's Pawn Game"), &titles),
            [
                Some("King's Knight Opening".to_owned()),
                Some("Leonardis Variation".to_owned()),
                Some("MacLeod Attack".to_owned()),
                Some("King's Pawn Game".to_owned()),
                None,
            ]
        );
        // Elsewhere the family stays.
        assert_eq!(
            short(Some("B20 Sicilian Defense"), &titles[1..2]),
            [Some("King's Pawn Game: Leonardis Variation".to_owned())]
        );
        assert_eq!(
            short(None, &[Some("Sicilian Defense: Alapin Variation")]),
            [Some("Sicilian Defense: Alapin Variation".to_owned())]
        );
    }

    #[test]
    fn two_different_names_never_show_the_same_text() {
        // Only the ECO code tells these apart; the variation of one is another's name.
        let titles = [
            Some("C20 King's Pawn Game"),
            Some("C44 King's Pawn Game"),
            Some("B20 Sicilian Defense: Closed"),
            Some("Closed"),
            Some("B20 Sicilian Defense: Closed"),
        ];
        let shown = short(Some("B20 Sicilian Defense"), &titles);
        assert_eq!(
            shown,
            [
                Some("C20 King's Pawn Game".to_owned()),
                Some("C44 King's Pawn Game".to_owned()),
                Some("B20 Sicilian Defense: Closed".to_owned()),
                Some("Closed".to_owned()),
                Some("B20 Sicilian Defense: Closed".to_owned()),
            ]
        );
        for i in 0..titles.len() {
            for j in 0..titles.len() {
                if titles[i] != titles[j] {
                    assert_ne!(shown[i], shown[j], "{:?} and {:?}", titles[i], titles[j]);
                }
            }
        }
    }

    #[test]
    fn moves_carry_their_number() {
        assert_eq!(numbered_ply(1, "e4"), "1.e4");
        assert_eq!(numbered_ply(2, "c5"), "1...c5");
        assert_eq!(numbered_ply(5, "Bc4"), "3.Bc4");
        assert_eq!(numbered_ply(6, "a6"), "3...a6");
        assert_eq!(moves_count(0), "0 moves");
        assert_eq!(moves_count(1), "1 move");
        assert_eq!(moves_count(2), "1 move");
        assert_eq!(moves_count(5), "3 moves");
    }

    #[test]
    fn counts_group_their_digits_by_three() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(3807usize), "3,807");
        assert_eq!(count(491_198u32), "491,198");
        assert_eq!(count(1_000_000u64), "1,000,000");
    }
}
