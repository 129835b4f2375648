//! Text as the window and the CLI write it, read back by tests.

/// `text` without its move numbers: `"1.e4 e5 2.Nf3"` → `"e4 e5 Nf3"`, `"2...Nc6"` →
/// `"Nc6"` (a SAN move never starts with a digit or a dot).
pub fn without_move_numbers(text: &str) -> String {
    text.split(' ')
        .map(|t| t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.'))
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
