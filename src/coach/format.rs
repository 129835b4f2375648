//! Numbers and moves as the window shows them: `3,807`, `491,198`, `3.Bc4`, `3...c5`.

/// `n` (a whole number) with a comma between groups of three digits.
pub fn count(n: impl std::fmt::Display) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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

/// How far `plies` half-moves go, as players count: `"3 moves"` for 5 or 6 plies,
/// `"1 move"` for 1 or 2.
pub fn moves_count(plies: usize) -> String {
    match plies.div_ceil(2) {
        1 => "1 move".to_owned(),
        n => format!("{n} moves"),
    }
}

#[cfg(test)]
mod tests {
    use super::{count, moves_count, numbered_ply};

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
