//! Numbers as the window shows them: `3,807`, `491,198`.

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

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn counts_group_their_digits_by_three() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(3807usize), "3,807");
        assert_eq!(count(491_198u32), "491,198");
        assert_eq!(count(1_000_000u64), "1,000,000");
    }
}
