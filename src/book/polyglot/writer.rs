//! Writing a book from sorted counts: weights, the `--min-games` filter, and 16-bit
//! scaling.

use std::io::{self, Write};

use super::counts::MoveCount;
use super::entry::Entry;
use super::moves::RawMove;

/// How an entry's weight follows from its counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum WeightRule {
    /// The number of times the move was played from the position (games).
    #[default]
    Games,
    /// `polyglot make-book`'s rule: 2 per win, 1 per draw, 0 per loss of the side that
    /// moved. Entries of weight 0 (only losses) are left out, as polyglot does.
    Polyglot,
}

/// Options of [`BookWriter`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriterOptions {
    /// The weight rule.
    pub weights: WeightRule,
    /// Leave out moves played fewer times than this from their position.
    pub min_games: u32,
}

impl Default for WriterOptions {
    fn default() -> WriterOptions {
        WriterOptions {
            weights: WeightRule::Games,
            min_games: 1,
        }
    }
}

/// What a [`BookWriter`] wrote and left out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct WriteSummary {
    /// Entries written.
    pub entries: u64,
    /// Positions (keys) written.
    pub positions: u64,
    /// `(position, move)` pairs left out by `min_games`.
    pub below_min_games: u64,
    /// Pairs left out for a weight of 0.
    pub zero_weight: u64,
    /// Positions whose weights were scaled down to fit 16 bits.
    pub scaled_positions: u64,
}

/// Writes Polyglot entries from counts sorted by key and move (the order of
/// [`merge_runs`](super::merge_runs)); counts of the same `(key, move)` side by side are
/// added up.
///
/// Per position, the weights are the counts of the [`WeightRule`]; when the largest is
/// above 65,535 all of the position's weights are scaled by `65535 / largest` (rounded,
/// at least 1), so their ratios stay as they were to within rounding. Within a
/// position the entries go heaviest first, ties by move.
///
/// ```
/// use hastings::book::polyglot::{BookWriter, MoveCount, PolyglotBook, RawMove, WriterOptions};
///
/// let mut w = BookWriter::new(Vec::new(), WriterOptions::default());
/// for (key, games) in [(7, 2), (7, 3), (9, 1)] {
///     w.push(MoveCount { key, raw_move: RawMove(0x031c), games, score: 0 })?;
/// }
/// let (bytes, summary) = w.finish()?;
/// assert_eq!((summary.entries, summary.positions), (2, 2));
/// let book = PolyglotBook::new(&bytes).unwrap();
/// assert_eq!(book.entry(0).unwrap().weight, 5);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct BookWriter<W> {
    out: W,
    options: WriterOptions,
    key: Option<u64>,
    /// The current position's moves: move, games, score.
    moves: Vec<(RawMove, u64, u64)>,
    summary: WriteSummary,
}

impl<W: Write> BookWriter<W> {
    /// A writer to `out`.
    pub fn new(out: W, options: WriterOptions) -> BookWriter<W> {
        BookWriter {
            out,
            options,
            key: None,
            moves: Vec::new(),
            summary: WriteSummary::default(),
        }
    }

    /// Takes the next count.
    ///
    /// # Errors
    ///
    /// Writing failed, or the counts are not sorted ([`io::ErrorKind::InvalidData`]).
    pub fn push(&mut self, c: MoveCount) -> io::Result<()> {
        if let Some(key) = self.key {
            if c.key < key {
                return Err(unsorted(key, c.key));
            }
            if c.key > key {
                self.flush_position(key)?;
            }
        }
        self.key = Some(c.key);
        match self.moves.last_mut() {
            Some(last) if last.0 == c.raw_move => {
                last.1 += u64::from(c.games);
                last.2 += u64::from(c.score);
            }
            Some(last) if last.0 > c.raw_move => return Err(unsorted(c.key, c.key)),
            _ => self
                .moves
                .push((c.raw_move, u64::from(c.games), u64::from(c.score))),
        }
        Ok(())
    }

    /// Writes the last position and flushes; returns the output and the summary.
    ///
    /// # Errors
    ///
    /// Writing failed.
    pub fn finish(mut self) -> io::Result<(W, WriteSummary)> {
        if let Some(key) = self.key {
            self.flush_position(key)?;
        }
        self.out.flush()?;
        Ok((self.out, self.summary))
    }

    fn flush_position(&mut self, key: u64) -> io::Result<()> {
        let min_games = u64::from(self.options.min_games);
        let mut weighted: Vec<(RawMove, u64)> = Vec::with_capacity(self.moves.len());
        for &(raw_move, games, score) in &self.moves {
            if games < min_games {
                self.summary.below_min_games += 1;
                continue;
            }
            let weight = match self.options.weights {
                WeightRule::Games => games,
                WeightRule::Polyglot => score,
            };
            if weight == 0 {
                self.summary.zero_weight += 1;
                continue;
            }
            weighted.push((raw_move, weight));
        }
        self.moves.clear();
        let Some(max) = weighted.iter().map(|w| w.1).max() else {
            return Ok(());
        };
        let limit = u64::from(u16::MAX);
        if max > limit {
            self.summary.scaled_positions += 1;
            for w in &mut weighted {
                let scaled =
                    (u128::from(w.1) * u128::from(limit) + u128::from(max) / 2) / u128::from(max);
                w.1 = u64::try_from(scaled).unwrap_or(limit).clamp(1, limit);
            }
        }
        weighted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        for (raw_move, weight) in weighted {
            let entry = Entry {
                key,
                raw_move,
                weight: u16::try_from(weight).unwrap_or(u16::MAX),
                learn: 0,
            };
            self.out.write_all(&entry.to_bytes())?;
            self.summary.entries += 1;
        }
        self.summary.positions += 1;
        Ok(())
    }
}

fn unsorted(before: u64, key: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("counts out of order at key {key:016x} (after {before:016x}): a bug"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::polyglot::PolyglotBook;

    fn c(key: u64, raw_move: u16, games: u32, score: u32) -> MoveCount {
        MoveCount {
            key,
            raw_move: RawMove(raw_move),
            games,
            score,
        }
    }

    fn write(counts: &[MoveCount], options: WriterOptions) -> (Vec<Entry>, WriteSummary) {
        let mut w = BookWriter::new(Vec::new(), options);
        for &count in counts {
            w.push(count).unwrap();
        }
        let (bytes, summary) = w.finish().unwrap();
        let book = PolyglotBook::new(&bytes).unwrap();
        (book.entries().collect(), summary)
    }

    fn weights(entries: &[Entry]) -> Vec<(u64, u16, u16)> {
        entries
            .iter()
            .map(|e| (e.key, e.raw_move.0, e.weight))
            .collect()
    }

    #[test]
    fn counts_of_one_pair_add_up_and_heavier_moves_come_first() {
        let (entries, summary) = write(
            &[c(1, 5, 1, 2), c(1, 5, 2, 2), c(1, 6, 4, 0), c(2, 1, 1, 1)],
            WriterOptions::default(),
        );
        assert_eq!(weights(&entries), [(1, 6, 4), (1, 5, 3), (2, 1, 1)]);
        assert_eq!((summary.entries, summary.positions), (3, 2));
    }

    #[test]
    fn polyglot_weights_are_scores_and_zero_scores_are_left_out() {
        let options = WriterOptions {
            weights: WeightRule::Polyglot,
            min_games: 1,
        };
        let (entries, summary) = write(&[c(1, 5, 3, 4), c(1, 6, 4, 0)], options);
        assert_eq!(weights(&entries), [(1, 5, 4)]);
        assert_eq!(summary.zero_weight, 1);
    }

    #[test]
    fn min_games_leaves_out_rare_moves_and_empty_positions() {
        let options = WriterOptions {
            weights: WeightRule::Games,
            min_games: 3,
        };
        let (entries, summary) = write(&[c(1, 5, 3, 0), c(1, 6, 2, 0), c(2, 1, 1, 0)], options);
        assert_eq!(weights(&entries), [(1, 5, 3)]);
        assert_eq!(summary.below_min_games, 2);
        assert_eq!(summary.positions, 1);
    }

    #[test]
    fn large_counts_are_scaled_to_16_bits_keeping_ratios() {
        let (entries, summary) = write(
            &[c(1, 1, 200_000, 0), c(1, 2, 100_000, 0), c(1, 3, 1, 0)],
            WriterOptions::default(),
        );
        assert_eq!(summary.scaled_positions, 1);
        // 65535 × 1/2 = 32767.5 rounds up; 1 of 200,000 stays in the book at weight 1.
        assert_eq!(weights(&entries), [(1, 1, 65535), (1, 2, 32768), (1, 3, 1)]);
    }

    #[test]
    fn unsorted_counts_are_refused() {
        let mut w = BookWriter::new(Vec::new(), WriterOptions::default());
        w.push(c(5, 1, 1, 1)).unwrap();
        let err = w.push(c(4, 1, 1, 1)).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        let mut w = BookWriter::new(Vec::new(), WriterOptions::default());
        w.push(c(5, 2, 1, 1)).unwrap();
        assert!(w.push(c(5, 1, 1, 1)).is_err());
    }
}
