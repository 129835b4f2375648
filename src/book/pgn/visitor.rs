//! The pgn-reader visitor: records the tags and the movetext events of one game at a
//! time, for the importer to play them afterwards.
//!
//! The visitor checks nothing about moves; it decides only what the reader may skip
//! (variations in games mode, the rest of a game at the ply limit, a game whose start
//! position or variant cannot be read).

use std::ops::ControlFlow;

use pgn_reader::{Nag, Outcome, RawComment, RawTag, SanPlus, Skip, Visitor};
use shakmaty::Chess;
use shakmaty::san::San;

use super::comment::{MAX_COMMENT_BYTES, parse_comment};
use super::report::IssueReason;
use super::scan;
use super::start::start_from_tags;
use super::{ImportMode, ImportOptions};
use crate::book::line::MoveAnnotation;
use crate::book::tags::GameTags;

/// The tags whose values a report reads: the summary of a game with an issue
/// ([`super::Summary::of`]), the start position, and the result that decides the mode.
const REPORT_TAGS: [&str; 6] = ["White", "Black", "Event", "Variant", "FEN", "Result"];

/// One visitor call, in order.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Event {
    San(San),
    Nag(u8),
    /// A comment; `None` when it held nothing to keep (e.g. only `[%clk …]`), and its
    /// length in bytes between the braces ([`UNKNOWN_LEN`] when the reader passed it in
    /// parts), for the walk over the game's bytes to step over it.
    Comment(Option<Box<MoveAnnotation>>, u32),
    Begin,
    End,
    Outcome,
}

/// The length of a comment that the reader passed in parts.
pub(super) const UNKNOWN_LEN: u32 = u32::MAX;

/// The start of a game: the position and its FEN, `None` for the standard position.
pub(super) type Start = Result<Option<Chess>, IssueReason>;

/// The start position from the `[Variant]` and `[FEN]` tags, read once here.
fn game_start(tags: &GameTags) -> Start {
    Ok(start_from_tags(tags.get("Variant"), tags.get("FEN"))?)
}

/// What the visitor recorded of one game.
#[derive(Debug, Default)]
pub(super) struct GameRecord {
    /// Every tag, in file order; in a report, only [`REPORT_TAGS`].
    pub tags: GameTags,
    /// Whether the game has a tag (a game with tags is a game, read or not).
    pub tagged: bool,
    /// The start position, once the movetext begins.
    pub start: Option<Start>,
    pub events: Vec<Event>,
    pub in_movetext: bool,
    /// The visitor stopped the reader at the ply limit.
    pub stopped: bool,
    /// Variations were left to the reader to skip.
    skipped_variations: bool,
    /// Moves recorded.
    sans: u32,
    /// The comment read so far, when the reader passes it in parts.
    partial: Vec<u8>,
}

impl GameRecord {
    pub fn has_moves(&self) -> bool {
        self.sans > 0
    }

    /// Adds to the comment being read, up to [`MAX_COMMENT_BYTES`].
    fn push_partial(&mut self, bytes: &[u8]) {
        let room = MAX_COMMENT_BYTES.saturating_sub(self.partial.len());
        self.partial
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// Puts moves that the reader dropped but python-chess reads (`g1-f3`, `e7e8q`)
    /// among the events, each before the event index it stands at.
    fn insert_moves(&mut self, moves: Vec<(usize, San)>) {
        if moves.is_empty() {
            return;
        }
        self.sans = self
            .sans
            .saturating_add(u32::try_from(moves.len()).unwrap_or(u32::MAX));
        let old = std::mem::take(&mut self.events);
        let mut events = Vec::with_capacity(old.len() + moves.len());
        let mut moves = moves.into_iter().peekable();
        for (i, event) in old.into_iter().enumerate() {
            while let Some((_, san)) = moves.next_if(|(at, _)| *at <= i) {
                events.push(Event::San(san));
            }
            events.push(event);
        }
        events.extend(moves.map(|(_, san)| Event::San(san)));
        self.events = events;
    }
}

/// The pgn-reader visitor: records tags and movetext events of one game at a time.
/// Its state lives in `self`, so that a game survives a reader error.
pub(super) struct Recorder {
    options: ImportOptions,
    /// The comments and the tags' values are read: the lines are kept. A report alone
    /// has no use for them: a comment is then only an event (`Event::Comment(None, _)`,
    /// or its rank mark), and only the tags of [`REPORT_TAGS`] are kept.
    keep_comments: bool,
    /// The decided mode; `None` while auto-detection waits for the first game.
    pub mode: Option<ImportMode>,
    pub game: GameRecord,
    /// The events' vector of the last game, reused.
    spare_events: Vec<Event>,
    /// The last game's tags, when the importer did not keep them, reused.
    spare_tags: GameTags,
}

impl Recorder {
    pub fn new(options: ImportOptions, keep_comments: bool) -> Recorder {
        Recorder {
            options,
            keep_comments,
            mode: match options.mode {
                ImportMode::Auto => None,
                mode => Some(mode),
            },
            game: GameRecord::default(),
            spare_events: Vec::new(),
            spare_tags: GameTags::new(),
        }
    }

    /// Keeps the vectors of a game that was read, for the next one.
    pub fn recycle(&mut self, game: GameRecord) {
        let mut events = game.events;
        events.clear();
        self.spare_events = events;
        let mut tags = game.tags;
        tags.clear();
        self.spare_tags = tags;
    }

    fn games_mode(&self) -> bool {
        self.mode == Some(ImportMode::Games)
    }

    /// Walks the game's bytes (`bytes`, all of them when `complete`) for what the
    /// reader skipped: the moves python-chess reads go into the events, and the first
    /// token that is no move is returned, its event index counting those moves.
    pub fn rescan(&mut self, bytes: &[u8], complete: bool) -> Option<scan::Unknown> {
        if matches!(self.game.start, Some(Err(_))) || !self.game.in_movetext {
            return None;
        }
        let found = scan::rescan(&scan::Walk {
            bytes,
            complete,
            events: &self.game.events,
            stopped: self.game.stopped,
            skip_variations: self.game.skipped_variations,
        });
        let inserted = found.moves.len();
        self.game.insert_moves(found.moves);
        found.unknown.map(|mut u| {
            u.event += inserted;
            u
        })
    }

    /// A report's comment: only its rank mark (a paused move takes its lines out of
    /// the count), read only when the comment holds `%hastings`.
    fn take_mark(&mut self, last: &[u8]) -> Option<Box<MoveAnnotation>> {
        let mark = if self.game.partial.is_empty() {
            holds_mark(last).then(|| parse_comment(last)).flatten()
        } else {
            self.game.push_partial(last);
            let note = holds_mark(&self.game.partial)
                .then(|| parse_comment(&self.game.partial))
                .flatten();
            self.game.partial.clear();
            note
        }
        .and_then(|n| n.mark)?;
        Some(Box::new(MoveAnnotation {
            mark: Some(mark),
            ..MoveAnnotation::default()
        }))
    }

    fn take_comment(&mut self, last: &[u8]) -> Option<Box<MoveAnnotation>> {
        if self.game.partial.is_empty() {
            return parse_comment(last);
        }
        self.game.push_partial(last);
        let note = parse_comment(&self.game.partial);
        self.game.partial.clear();
        note
    }
}

impl Visitor for Recorder {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        self.game = GameRecord {
            events: std::mem::take(&mut self.spare_events),
            tags: std::mem::take(&mut self.spare_tags),
            ..GameRecord::default()
        };
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        // Junk that happens to look like `[… "…"]` is not a tag.
        if name.is_empty() || !name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_') {
            return ControlFlow::Continue(());
        }
        self.game.tagged = true;
        if !self.keep_comments && !REPORT_TAGS.iter().any(|t| t.as_bytes() == name) {
            // A report reads nothing else of it: a game with tags is a game.
            return ControlFlow::Continue(());
        }
        // Names are checked ASCII above; values are mostly valid UTF-8, which
        // `decode_utf8` checks faster than the lossy decoding that would replace bad bytes.
        let name = std::str::from_utf8(name).unwrap_or_default();
        // A value without a backslash has no escape to decode: it is its bytes (what
        // `decode` returns then), without the substring search set up for escapes.
        let bytes = value.as_bytes();
        if !bytes.contains(&b'\\')
            && let Ok(plain) = std::str::from_utf8(bytes)
        {
            self.game.tags.push(name, plain);
            return ControlFlow::Continue(());
        }
        let value = value
            .decode_utf8()
            .unwrap_or_else(|_| value.decode_utf8_lossy());
        self.game.tags.push(name, &value);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        self.game.in_movetext = true;
        let start = game_start(&self.game.tags);
        let skip = start.is_err();
        self.game.start = Some(start);
        if skip {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    fn san(&mut self, _: &mut (), san_plus: SanPlus) -> ControlFlow<()> {
        if self.games_mode() && self.game.sans >= self.options.limit(ImportMode::Games) {
            self.game.stopped = true;
            return ControlFlow::Break(());
        }
        self.game.sans += 1;
        self.game.events.push(Event::San(san_plus.san));
        ControlFlow::Continue(())
    }

    fn nag(&mut self, _: &mut (), nag: Nag) -> ControlFlow<()> {
        self.game.events.push(Event::Nag(nag.0));
        ControlFlow::Continue(())
    }

    fn partial_comment(&mut self, _: &mut (), comment: RawComment<'_>) -> ControlFlow<()> {
        // A report keeps them too, for a rank command cut by the reader's buffer.
        self.game.push_partial(comment.as_bytes());
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _: &mut (), comment: RawComment<'_>) -> ControlFlow<()> {
        let len = if self.game.partial.is_empty() {
            u32::try_from(comment.as_bytes().len()).unwrap_or(UNKNOWN_LEN)
        } else {
            UNKNOWN_LEN
        };
        let note = if self.keep_comments {
            self.take_comment(comment.as_bytes())
        } else {
            self.take_mark(comment.as_bytes())
        };
        self.game.events.push(Event::Comment(note, len));
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<(), Skip> {
        self.game.events.push(Event::Begin);
        let skip = self.games_mode();
        self.game.skipped_variations |= skip;
        ControlFlow::Continue(Skip(skip))
    }

    fn end_variation(&mut self, _: &mut ()) -> ControlFlow<()> {
        self.game.events.push(Event::End);
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, _: &mut (), _: Outcome) -> ControlFlow<()> {
        self.game.events.push(Event::Outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: ()) {}
}

/// Whether `bytes` hold `%hastings`, the start of a rank mark. A lichess comment
/// (`{ [%clk 0:03:00] }`) is too short for a substring searcher or memchr to pay for
/// setting up, and a walk to each `%` stops at every clock: eight starting points are
/// tried at once instead, by their first byte (`%`) and their ninth (`s`) in two 64-bit
/// words, and only a starting point that passes both is compared in full.
fn holds_mark(bytes: &[u8]) -> bool {
    const WORD: &[u8] = b"%hastings";
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte of `word` that equals `byte` (and maybe of some bytes
    // above one that does: a candidate, compared in full below, never a miss).
    let equal = |word: u64, byte: u8| {
        let x = word ^ (ONES * u64::from(byte));
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let word_at = |i: usize| {
        bytes
            .get(i..i + 8)
            .and_then(|b| <[u8; 8]>::try_from(b).ok())
            .map_or(0, u64::from_le_bytes)
    };
    let Some(last) = bytes.len().checked_sub(WORD.len()) else {
        return false;
    };
    let at = |i: usize| bytes[i..].starts_with(WORD);
    let mut i = 0;
    while i + 16 <= bytes.len() {
        if equal(word_at(i), b'%') & equal(word_at(i + 8), b's') != 0 && (i..i + 8).any(at) {
            return true;
        }
        i += 8;
    }
    (i..=last).any(|j| bytes[j] == b'%' && at(j))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tag values are kept as pgn-reader decodes them: escapes undone, bad bytes
    /// replaced, in a report (the tags it reads) and in an import.
    #[test]
    fn tag_values_are_kept_as_decoded() {
        let values: [&[u8]; 7] = [
            b"Carlsen, Magnus",
            b"",
            br#"say \"hi\" \\ there"#,
            br"a \ lone backslash\",
            b"caf\xc3\xa9",
            b"bad \xff byte",
            b"bad \xff and \\\" escape",
        ];
        for keep in [false, true] {
            for value in values {
                let mut recorder = Recorder::new(ImportOptions::default(), keep);
                let _ = recorder.begin_tags();
                let _ = recorder.tag(&mut (), b"White", RawTag(value));
                let raw = RawTag(value);
                let expected = raw
                    .decode_utf8()
                    .unwrap_or_else(|_| raw.decode_utf8_lossy());
                assert_eq!(
                    recorder.game.tags.get("White"),
                    Some(&*expected),
                    "{value:?}"
                );
                assert!(recorder.game.tagged);
            }
        }
    }

    /// What `holds_mark` must find: the word anywhere.
    fn naive(bytes: &[u8]) -> bool {
        bytes.windows(9).any(|w| w == b"%hastings")
    }

    /// The word at every place in comments of every length up to 40 bytes, near misses,
    /// and comments of bytes drawn from the word's own letters, as the plain search.
    #[test]
    fn marks_are_found_as_a_plain_search_finds_them() {
        let mut checked = 0;
        for len in 0..40 {
            for at in 0..=len {
                for word in [&b"%hastings"[..], b"%hasting", b"%hastingS", b"hastings"] {
                    let mut bytes = vec![b' '; len];
                    bytes.splice(at..at, word.iter().copied());
                    bytes.truncate(len.max(word.len()));
                    assert_eq!(holds_mark(&bytes), naive(&bytes), "{bytes:?}");
                    checked += 1;
                }
            }
        }
        // Bytes from `%hastings ` and a clock, by a fixed linear congruential sequence.
        let letters = b"%hastings [%clk 0:05:00]s%";
        let mut seed = 12345u64;
        let mut found = 0;
        for _ in 0..20_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let len = (seed >> 58) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|k| {
                    let pick = (seed >> (k % 50)) as usize ^ (k * 7);
                    if k % 13 == 5 {
                        b'%'
                    } else {
                        letters[pick % letters.len()]
                    }
                })
                .collect();
            let mut marked = bytes.clone();
            let at = (seed >> 20) as usize % (len + 1);
            marked.splice(at..at, b"%hastings".iter().copied());
            for b in [&bytes, &marked] {
                assert_eq!(holds_mark(b), naive(b), "{b:?}");
                found += usize::from(naive(b));
            }
        }
        assert!(checked > 1000 && found >= 20_000, "{checked} {found}");
    }
}
