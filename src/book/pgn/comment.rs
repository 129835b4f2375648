//! PGN comments into what a line keeps of them: the text without `[%…]` commands, the
//! arrows of `[%cal …]` and the circles of `[%csl …]` (lichess and ChessBase write
//! them); clock and evaluation commands are dropped. And comments edited: their text,
//! or their arrows and circles, replaced with the other commands kept as written
//! ([`with_text`], [`with_marks`], [`with_mark`]). The learner's rank of a move
//! (`[%hastings alt]`, `[%hastings paused]`) is read as its [`MoveMark`], never as text.

use shakmaty::Square;

use crate::book::line::{MoveAnnotation, MoveMark};

/// A comment longer than this is cut (binary junk after a `{`).
pub(super) const MAX_COMMENT_BYTES: usize = 1 << 20;

/// Reads a comment: the text without `[%…]` commands (whitespace collapsed), and the
/// arrows of `[%cal …]` and circles of `[%csl …]`. `None` when nothing is left.
///
/// The bytes are read as they are: only the words kept and the bodies of `[%cal …]` and
/// `[%csl …]` are decoded (lossily, bad bytes becoming U+FFFD), so a comment of clock and
/// evaluation commands alone (`{ [%eval 0.17] [%clk 0:03:00] }`) costs two byte scans and
/// no allocation. Every byte that splits the comment (`[`, `%`, `]`, ASCII whitespace) is
/// ASCII, which UTF-8 never uses inside a character, so decoding the pieces gives what
/// decoding the whole would.
pub(crate) fn parse_comment(bytes: &[u8]) -> Option<Box<MoveAnnotation>> {
    let mut note = MoveAnnotation::default();
    let mut words = String::new();
    let mut rest = bytes;
    loop {
        let (before, command) = match find_command(rest) {
            Some(i) => (&rest[..i], Some(&rest[i + 2..])),
            None => (rest, None),
        };
        push_words(&mut words, before);
        let Some(command) = command else { break };
        let (body, after) = match memchr::memchr(b']', command) {
            Some(j) => (&command[..j], &command[j + 1..]),
            None => (command, &[][..]),
        };
        // The name ends at the first whitespace: only these three are read.
        if body.starts_with(b"cal") || body.starts_with(b"csl") || body.starts_with(b"hastings") {
            read_marks(&mut note, &String::from_utf8_lossy(body));
        }
        rest = after;
    }
    finished(note, words)
}

/// The annotation read: `None` when it holds no words and no marks.
fn finished(mut note: MoveAnnotation, words: String) -> Option<Box<MoveAnnotation>> {
    if words.is_empty() && note.arrows.is_empty() && note.circles.is_empty() && note.mark.is_none()
    {
        return None;
    }
    if !words.is_empty() {
        note.comment = Some(words);
    }
    Some(Box::new(note))
}

/// Where the next `[%` starts.
fn find_command(bytes: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = memchr::memchr(b'[', &bytes[from..]) {
        let at = from + i;
        if bytes.get(at + 1) == Some(&b'%') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Adds the words of `bytes` to `words`, separated by one space; whitespace only (the
/// usual space around a command) is seen without decoding.
fn push_words(words: &mut String, bytes: &[u8]) {
    // `char::is_whitespace` on ASCII: space and U+0009..U+000D.
    if bytes
        .iter()
        .all(|&b| b == b' ' || (b'\t'..=b'\r').contains(&b))
    {
        return;
    }
    for word in String::from_utf8_lossy(bytes).split_whitespace() {
        if !words.is_empty() {
            words.push(' ');
        }
        words.push_str(word);
    }
}

/// The arrows of a `cal …` body, the circles of a `csl …` one or the mark of a
/// `hastings …` one, into `note`.
fn read_marks(note: &mut MoveAnnotation, body: &str) {
    let mut parts = body.splitn(2, char::is_whitespace);
    let name = parts.next().unwrap_or_default();
    let args = parts.next().unwrap_or_default();
    match name {
        "cal" => note.arrows.extend(args.split(',').filter_map(parse_arrow)),
        "csl" => note
            .circles
            .extend(args.split(',').filter_map(parse_circle)),
        "hastings" => {
            if let Some(mark) = MoveMark::from_word(args) {
                note.mark = Some(join_marks(note.mark, Some(mark)).unwrap_or(mark));
            }
        }
        _ => {}
    }
}

/// An arrow as `[%cal]` writes it (`Ge2e4`: colour letter, from, to).
pub(crate) fn parse_arrow(s: &str) -> Option<(char, Square, Square)> {
    let s = s.trim();
    let mut chars = s.chars();
    let colour = chars.next()?;
    let squares = chars.as_str();
    if !colour.is_ascii_alphabetic() || squares.len() != 4 || !squares.is_ascii() {
        return None;
    }
    let from = Square::from_ascii(&squares.as_bytes()[..2]).ok()?;
    let to = Square::from_ascii(&squares.as_bytes()[2..]).ok()?;
    Some((colour, from, to))
}

/// A circle as `[%csl]` writes it (`Rd5`: colour letter, square).
pub(crate) fn parse_circle(s: &str) -> Option<(char, Square)> {
    let s = s.trim();
    let mut chars = s.chars();
    let colour = chars.next()?;
    let square = chars.as_str();
    if !colour.is_ascii_alphabetic() || square.len() != 2 {
        return None;
    }
    Some((colour, Square::from_ascii(square.as_bytes()).ok()?))
}

/// A comment's `[%…]` commands as written, and its words (whitespace collapsed).
fn split_commands(text: &str) -> (Vec<&str>, String) {
    let mut commands = Vec::new();
    let mut words = String::new();
    let mut rest = text;
    loop {
        let (before, command) = match rest.find("[%") {
            Some(i) => (&rest[..i], Some(&rest[i..])),
            None => (rest, None),
        };
        for word in before.split_whitespace() {
            if !words.is_empty() {
                words.push(' ');
            }
            words.push_str(word);
        }
        let Some(command) = command else { break };
        let end = command.find(']').map_or(command.len(), |j| j + 1);
        commands.push(&command[..end]);
        rest = &command[end..];
    }
    (commands, words)
}

/// The commands, then the words, joined by spaces; `None` when both are empty.
fn join_comment(commands: &[String], words: &str) -> Option<String> {
    let mut parts: Vec<&str> = commands.iter().map(String::as_str).collect();
    if !words.trim().is_empty() {
        parts.push(words.trim());
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// The comment `old` with its text (what is not a `[%…]` command) replaced by `text`;
/// the commands (arrows, circles, clock, evaluation) are kept as written, first. A
/// `[%` in `text` is written `[ %`, so that the learner's words never read as a
/// command, and braces are parentheses (as the game writer writes them), so that the
/// comment in memory is the one saved. `None` when nothing is left.
pub(crate) fn with_text(old: Option<&str>, text: &str) -> Option<String> {
    let (commands, _) = split_commands(old.unwrap_or_default());
    let commands: Vec<String> = commands.into_iter().map(str::to_owned).collect();
    let text = text
        .replace("[%", "[ %")
        .replace('{', "(")
        .replace('}', ")");
    join_comment(&commands, &text)
}

/// The comment `old` with its `[%cal …]` and `[%csl …]` replaced by `arrows` and
/// `circles` (written `[%csl Rd5,…] [%cal Ge2e4,…]`, left out when empty); the other
/// commands and the text are kept. `None` when nothing is left.
pub(crate) fn with_marks(
    old: Option<&str>,
    arrows: &[(char, Square, Square)],
    circles: &[(char, Square)],
) -> Option<String> {
    let (commands, words) = split_commands(old.unwrap_or_default());
    let mut out = Vec::new();
    if !circles.is_empty() {
        let list: Vec<String> = circles.iter().map(|(c, sq)| format!("{c}{sq}")).collect();
        out.push(format!("[%csl {}]", list.join(",")));
    }
    if !arrows.is_empty() {
        let list: Vec<String> = arrows
            .iter()
            .map(|(c, from, to)| format!("{c}{from}{to}"))
            .collect();
        out.push(format!("[%cal {}]", list.join(",")));
    }
    let mark = |c: &str| {
        let name = c.trim_start_matches("[%");
        name.starts_with("cal") || name.starts_with("csl")
    };
    out.extend(commands.into_iter().filter(|c| !mark(c)).map(str::to_owned));
    join_comment(&out, &words)
}

/// The comment `old` with its `[%hastings …]` command replaced by `mark`'s (left out
/// for `None`); the other commands, in their order, and the text are kept. `None` when
/// nothing is left.
pub(crate) fn with_mark(old: Option<&str>, mark: Option<MoveMark>) -> Option<String> {
    let (commands, words) = split_commands(old.unwrap_or_default());
    let mut out: Vec<String> = commands
        .into_iter()
        .filter(|c| !c.trim_start_matches("[%").starts_with("hastings"))
        .map(str::to_owned)
        .collect();
    if let Some(mark) = mark {
        out.push(mark.command().to_owned());
    }
    join_comment(&out, &words)
}

/// Two marks of one move as one: paused wins, then alternative.
fn join_marks(a: Option<MoveMark>, b: Option<MoveMark>) -> Option<MoveMark> {
    match (a, b) {
        (Some(MoveMark::Paused), _) | (_, Some(MoveMark::Paused)) => Some(MoveMark::Paused),
        (a, b) => a.or(b),
    }
}

/// Adds what `new` says about a move to what `old` says: comments joined with a space.
pub(crate) fn merge_note(old: &mut MoveAnnotation, new: MoveAnnotation) {
    match (&mut old.comment, new.comment) {
        (Some(a), Some(b)) => {
            a.push(' ');
            a.push_str(&b);
        }
        (slot @ None, b) => *slot = b,
        (Some(_), None) => {}
    }
    old.nags.extend(new.nags);
    old.arrows.extend(new.arrows);
    old.circles.extend(new.circles);
    old.mark = join_marks(old.mark, new.mark);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_commands_become_arrows_and_circles() {
        let note = parse_comment(b" Good move [%cal Gc1f4,Re2e4] [%csl Rd5] [%clk 0:01:00]  here ")
            .unwrap();
        assert_eq!(note.comment.as_deref(), Some("Good move here"));
        assert_eq!(
            note.arrows,
            vec![('G', Square::C1, Square::F4), ('R', Square::E2, Square::E4)]
        );
        assert_eq!(note.circles, vec![('R', Square::D5)]);
        assert_eq!(parse_comment(b" [%clk 0:03:00] "), None);
    }

    #[test]
    fn bad_squares_and_colours_in_commands_are_dropped() {
        let note = parse_comment(b"[%cal Gc1f9,1e2e4,Ye2e4] [%csl Rd5,Gz1,Bh8x]").unwrap();
        assert_eq!(note.comment, None);
        assert_eq!(note.arrows, vec![('Y', Square::E2, Square::E4)]);
        assert_eq!(note.circles, vec![('R', Square::D5)]);
    }

    #[test]
    fn edited_comments_keep_their_other_commands() {
        let old = Some("[%clk 0:03:00] Good [%cal Re2e4] move [%csl Gd5]");
        assert_eq!(
            with_text(old, " Better [%x] ").as_deref(),
            Some("[%clk 0:03:00] [%cal Re2e4] [%csl Gd5] Better [ %x]")
        );
        assert_eq!(with_text(Some("only words"), ""), None);
        let marked = with_marks(old, &[('G', Square::C1, Square::F4)], &[('R', Square::D5)]);
        assert_eq!(
            marked.as_deref(),
            Some("[%csl Rd5] [%cal Gc1f4] [%clk 0:03:00] Good move")
        );
        let note = parse_comment(marked.unwrap_or_default().as_bytes()).unwrap();
        assert_eq!(note.arrows, vec![('G', Square::C1, Square::F4)]);
        assert_eq!(note.comment.as_deref(), Some("Good move"));
        assert_eq!(with_marks(Some("[%cal Re2e4]"), &[], &[]), None);
    }

    /// The reader before it read bytes (session 4.2): the whole comment decoded and
    /// split by substring search (as the editor splits it).
    fn decoded_parse(bytes: &[u8]) -> Option<Box<MoveAnnotation>> {
        let text = String::from_utf8_lossy(bytes);
        let (commands, words) = split_commands(&text);
        let mut note = MoveAnnotation::default();
        for command in commands {
            let body = command.strip_prefix("[%").unwrap_or(command);
            read_marks(&mut note, body.strip_suffix(']').unwrap_or(body));
        }
        finished(note, words)
    }

    /// The byte reader reads what decoding the whole comment read: on every comment of
    /// the fixtures, and on bytes that are not UTF-8, Unicode whitespace (no-break
    /// space, next line, vertical tab) and commands cut short.
    #[test]
    fn comments_read_as_bytes_read_as_decoded_text() {
        let mut comments: Vec<Vec<u8>> = [
            &b"\xe2\x82 Good\xff[%cal Ge2e4]\xc3"[..],
            b"\xc2\xa0[%cal\xc2\xa0Ge2e4]\xc2\xa0word\xc2\x85next\x0bvt\x0cff",
            b"[%csl Rd5",
            b"[%",
            b"a[%]b",
            b"[%calx Ge2e4] [%cal] [%csl\tGd4,Ye5] [[%clk 0:01:00]",
            b"\xf0\x9f\x98\x80 smile [%eval #-3] \xe2\x80\x83em space",
            b"\t\r\n ",
            b"",
        ]
        .iter()
        .map(|c| c.to_vec())
        .collect();
        let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
        for entry in std::fs::read_dir(fixtures).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "pgn") {
                let bytes = std::fs::read(&path).unwrap();
                let mut rest = &bytes[..];
                while let Some(open) = memchr::memchr(b'{', rest) {
                    let end = memchr::memchr(b'}', &rest[open..]).map_or(rest.len(), |e| open + e);
                    comments.push(rest[open + 1..end].to_vec());
                    rest = &rest[(end + 1).min(rest.len())..];
                }
            }
        }
        assert!(comments.len() > 1000, "{} comments", comments.len());
        let mut kept = 0;
        for comment in &comments {
            let note = parse_comment(comment);
            assert_eq!(
                note,
                decoded_parse(comment),
                "{:?}",
                String::from_utf8_lossy(comment)
            );
            kept += usize::from(note.is_some());
        }
        assert!(kept > 10, "{kept} comments kept");
    }

    #[test]
    fn rank_commands_are_marks_never_text() {
        let note = parse_comment(b"Main idea [%hastings alt] [%clk 0:01:00]").unwrap();
        assert_eq!(note.comment.as_deref(), Some("Main idea"));
        assert_eq!(note.mark, Some(MoveMark::Alternative));
        let paused = parse_comment(b" [%hastings paused] ").unwrap();
        assert_eq!(
            (paused.comment.as_deref(), paused.mark),
            (None, Some(MoveMark::Paused))
        );
        assert!(paused.is_paused());
        assert_eq!(parse_comment(b"[%hastings other]"), None);
        let old = Some("[%cal Ge2e4] [%hastings alt] Sharp");
        assert_eq!(
            with_mark(old, Some(MoveMark::Paused)).as_deref(),
            Some("[%cal Ge2e4] [%hastings paused] Sharp")
        );
        assert_eq!(with_mark(old, None).as_deref(), Some("[%cal Ge2e4] Sharp"));
        assert_eq!(with_mark(Some("[%hastings alt]"), None), None);
        assert_eq!(
            with_mark(None, Some(MoveMark::Alternative)).as_deref(),
            Some("[%hastings alt]")
        );
        // Editing the text or the arrows keeps the mark.
        let marked = with_text(Some("[%hastings paused] old"), "new");
        assert_eq!(marked.as_deref(), Some("[%hastings paused] new"));
        let mut a = *parse_comment(b"[%hastings alt]").unwrap();
        merge_note(&mut a, *parse_comment(b"[%hastings paused]").unwrap());
        assert_eq!(a.mark, Some(MoveMark::Paused));
    }

    #[test]
    fn merged_notes_join_comments_and_keep_every_mark() {
        let mut old = *parse_comment(b"First [%csl Ge4]").unwrap();
        merge_note(&mut old, *parse_comment(b"second [%cal Re2e4]").unwrap());
        assert_eq!(old.comment.as_deref(), Some("First second"));
        assert_eq!(old.circles, vec![('G', Square::E4)]);
        assert_eq!(old.arrows, vec![('R', Square::E2, Square::E4)]);
    }
}
