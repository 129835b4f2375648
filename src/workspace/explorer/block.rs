//! The records of one block of a segment (format 4), bit-packed with the block's own
//! widths (its dictionary):
//!
//! ```text
//! 4 bytes  count (1–64), k (the Rice parameter of key differences, 0–63), the width
//!          of moves (0–16) and of game numbers (0–64) in this block
//! records  bits, least significant first, the last byte padded with zeros:
//!          - the key's difference d from the record before (the first record: from
//!            the block's first key, in the index): 1 bit, d > 0; then d Rice-coded:
//!            q = d >> k in unary (q ones, a zero) then the k low bits; q ≥ 32: 32
//!            ones then d in 64 bits
//!          - 1 bit: a record of one game; 1 bit: a partition follows (8 bits)
//!          - the move (the move width)
//!          - a record of one game: its game's number (the game width)
//!          - else: cell (8 bits), year (16), white, draws and black in Elias gamma
//!            code (of the count + 1), rating sum and best game's rating each as a
//!            7-bit width and that many bits, then the best game's number (the game
//!            width)
//! ```
//!
//! A record of one game deep in the openings takes about 9 bytes where format 3
//! took 11: its key's difference in about 40 bits, the move in 12, the game in as
//! many bits as the block's largest number needs.

use super::bits::{BitReader, BitWriter, width};
use super::games::GameFacts;
use crate::book::explorer::{BestGame, Cell, ExplorerRecord, Partition, Tally};
use crate::book::polyglot::RawMove;

/// Bytes before a block's records.
const BLOCK_HEADER: usize = 4;
/// Unary quotients from this on escape to a 64-bit difference.
const ESCAPE: u32 = 32;

/// The next `width` bits of `bits`, or why not.
fn get(bits: &mut BitReader, width: u32) -> Result<u64, String> {
    bits.get(width)
        .ok_or_else(|| "a record is cut short".to_owned())
}

/// The bits of difference `d` Rice-coded with parameter `k`.
fn rice_bits(d: u64, k: u32) -> u64 {
    let q = d >> k;
    if q >= u64::from(ESCAPE) {
        u64::from(ESCAPE) + 64
    } else {
        q + 1 + u64::from(k)
    }
}

/// Encodes `records` (sorted, each with whether it counts only its own game) as a
/// block whose first key is the first record's.
pub(super) fn encode_block(records: &[(ExplorerRecord, bool)]) -> Vec<u8> {
    let first = records.first().map_or(0, |(r, _)| r.key);
    let deltas: Vec<u64> = records
        .iter()
        .scan(first, |previous, (r, _)| {
            let d = r.key.wrapping_sub(*previous);
            *previous = r.key;
            Some(d)
        })
        .collect();
    // The best k is near log2 of the mean difference between positions (records of
    // one position side by side take a bit): try the ones around it.
    let steps: Vec<u64> = deltas.iter().copied().filter(|&d| d > 0).collect();
    let sum: u128 = steps.iter().map(|&d| u128::from(d)).sum();
    let mean = (sum / steps.len().max(1) as u128) as u64;
    let near = width(mean);
    let k = (near.saturating_sub(3)..=near.min(63))
        .min_by_key(|&k| steps.iter().map(|&d| rice_bits(d, k)).sum::<u64>())
        .unwrap_or(0);
    let move_width = records
        .iter()
        .map(|(r, _)| width(u64::from(r.raw_move.0)))
        .max()
        .unwrap_or(0);
    let game_width = records
        .iter()
        .map(|(r, _)| width(r.best.game))
        .max()
        .unwrap_or(0);
    let mut bits = BitWriter::default();
    for ((r, single), &d) in records.iter().zip(&deltas) {
        bits.put(u64::from(d > 0), 1);
        let q = d >> k;
        if d > 0 && q >= u64::from(ESCAPE) {
            bits.put(u64::from(u32::MAX), ESCAPE);
            bits.put(d, 64);
        } else if d > 0 {
            bits.unary(q as u32);
            bits.put(d, k);
        }
        bits.put(u64::from(*single), 1);
        bits.put(u64::from(r.partition != Partition::ALL), 1);
        if r.partition != Partition::ALL {
            bits.put(u64::from(r.partition.0), 8);
        }
        bits.put(u64::from(r.raw_move.0), move_width);
        if !*single {
            bits.put(u64::from(r.cell.0), 8);
            bits.put(u64::from(r.year), 16);
            for v in [r.tally.white, r.tally.draws, r.tally.black] {
                bits.gamma(u64::from(v));
            }
            for v in [r.tally.rating_sum, u64::from(r.best.rating)] {
                bits.put(u64::from(width(v)), 7);
                bits.put(v, width(v));
            }
        }
        bits.put(r.best.game, game_width);
    }
    let mut out = vec![
        records.len() as u8,
        k as u8,
        move_width as u8,
        game_width as u8,
    ];
    out.extend(bits.finish());
    out
}

/// Decodes the records `bytes` of a block whose first key is `first` and gives `f`
/// its records, or only those of position `only` and of partition `partition` (a
/// query's: the records of the other partitions, such as every player tree's at the
/// start position, are skipped without looking up their games); `facts` gives a game's
/// facts for records of one game. Returns whether the block goes past `only` (then the position
/// has no records further on). Every read is bounds-checked: any bytes give records
/// or the reason they cannot be read, never a panic.
pub(super) fn decode_block(
    bytes: &[u8],
    first: u64,
    only: Option<u64>,
    partition_only: Option<Partition>,
    facts: impl Fn(u64) -> Result<GameFacts, String>,
    mut f: impl FnMut(&ExplorerRecord),
) -> Result<bool, String> {
    let cut = || "a record is cut short".to_owned();
    let Some(&[count, k, move_width, game_width]) = bytes.get(..BLOCK_HEADER) else {
        return Err("the block has no header".to_owned());
    };
    let (k, move_width, game_width) = (u32::from(k), u32::from(move_width), u32::from(game_width));
    if count == 0 || usize::from(count) > super::segment::BLOCK_RECORDS {
        return Err(format!("the block says it has {count} records"));
    }
    if k > 63 || move_width > 16 || game_width > 64 {
        return Err(format!(
            "the block's widths are {k}, {move_width} and {game_width}"
        ));
    }
    let mut bits = BitReader::new(bytes.get(BLOCK_HEADER..).unwrap_or_default());
    let mut key = first;
    for _ in 0..count {
        if bits.get(1).ok_or_else(cut)? == 1 {
            let q = bits.unary(ESCAPE).ok_or_else(cut)?;
            let d = if q == ESCAPE {
                bits.get(64)
            } else {
                bits.get(k).map(|low| (u64::from(q) << k) | low)
            };
            key = key.wrapping_add(d.ok_or_else(cut)?);
        }
        let single = get(&mut bits, 1)? == 1;
        let partition = if get(&mut bits, 1)? == 1 {
            Partition(get(&mut bits, 8)? as u8)
        } else {
            Partition::ALL
        };
        let raw_move = RawMove(get(&mut bits, move_width)? as u16);
        if only.is_some_and(|only| key > only) {
            return Ok(true);
        }
        let wanted = only.is_none_or(|only| only == key)
            && partition_only.is_none_or(|only| only == partition);
        let record = if single {
            let game = get(&mut bits, game_width)?;
            if !wanted {
                continue;
            }
            facts(game)?.record(key, partition, raw_move, game)
        } else {
            let cell = Cell(get(&mut bits, 8)? as u8);
            let year = get(&mut bits, 16)? as u16;
            let mut count = || {
                let v = bits.gamma().ok_or_else(cut)?;
                u32::try_from(v).map_err(|_| format!("count {v} is too large"))
            };
            let (white, draws, black) = (count()?, count()?, count()?);
            let mut field = || {
                let w = get(&mut bits, 7)? as u32;
                if w > 64 {
                    return Err(format!("a field is {w} bits wide"));
                }
                get(&mut bits, w)
            };
            let rating_sum = field()?;
            let best_rating = field()?;
            ExplorerRecord {
                key,
                partition,
                raw_move,
                cell,
                year,
                tally: Tally {
                    white,
                    draws,
                    black,
                    rating_sum,
                },
                best: BestGame {
                    rating: u16::try_from(best_rating)
                        .map_err(|_| format!("rating {best_rating} is too large"))?,
                    game: get(&mut bits, game_width)?,
                },
            }
        };
        if wanted {
            f(&record);
        }
    }
    if !bits.at_end() {
        return Err("the block goes on past its records".to_owned());
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::explorer::{RatingBand, Speed};
    use proptest::prelude::*;
    use shakmaty::KnownOutcome;

    fn facts() -> GameFacts {
        GameFacts {
            year: 2020,
            rating: 2000,
            cell: Cell::new(RatingBand::from_mean(2000), Speed::Blitz),
            outcome: KnownOutcome::Draw,
        }
    }

    fn record(key: u64, raw_move: u16, game: u64, white: u32) -> ExplorerRecord {
        ExplorerRecord {
            key,
            partition: if white.is_multiple_of(3) {
                Partition(3)
            } else {
                Partition::ALL
            },
            raw_move: RawMove(raw_move),
            cell: Cell::new(RatingBand::from_mean(1700), Speed::Rapid),
            year: 2019,
            tally: Tally {
                white,
                draws: 1,
                black: u32::MAX,
                rating_sum: u64::MAX,
            },
            best: BestGame {
                rating: u16::MAX,
                game,
            },
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 1024,
            failure_persistence: None,
            rng_seed: proptest::test_runner::RngSeed::Fixed(39),
            ..ProptestConfig::default()
        })]

        /// The decoder past the checksums: any bytes give records or a reason, never
        /// a panic, and records only of the position asked for.
        #[test]
        fn any_bytes_decode_or_fail_without_a_panic(
            bytes in prop::collection::vec(any::<u8>(), 0..700),
            first: u64,
            only: Option<u64>,
            games in 0u64..4,
        ) {
            let facts = |n: u64| {
                if n < games {
                    Ok(facts())
                } else {
                    Err(format!("game {n} is past the table"))
                }
            };
            let mut keys = Vec::new();
            let _ = decode_block(&bytes, first, only, None, facts, |r| keys.push(r.key));
            if let Some(only) = only {
                prop_assert!(keys.iter().all(|&k| k == only));
            }
        }

        /// Any sorted records, of one game or not, wide keys and differences (a
        /// difference past the escape included), come back as they were written, and
        /// a lookup gives those of its key only.
        #[test]
        fn records_come_back_as_written(
            steps in prop::collection::vec((0u64..1 << 12, 0u8..8), 1..=64),
            moves in prop::collection::vec(any::<u16>(), 64),
            games in prop::collection::vec(any::<u64>(), 64),
            singles in prop::collection::vec(any::<bool>(), 64),
            same in 0usize..64,
        ) {
            // Small differences (k small), some of them past the escape, some huge.
            let mut keys: Vec<u64> = steps
                .iter()
                .scan(0u64, |key, &(step, kind)| {
                    *key = key.wrapping_add(match kind {
                        0 => step << 40,
                        1 => step << 8,
                        _ => step,
                    });
                    Some(*key)
                })
                .collect();
            keys.sort_unstable();
            if same < keys.len() {
                // Records of one position side by side.
                let k = keys[0];
                keys[same] = k;
                keys.sort_unstable();
            }
            let records: Vec<(ExplorerRecord, bool)> = keys
                .iter()
                .enumerate()
                .map(|(i, &key)| {
                    if singles[i] {
                        let game = games[i] % 1_000_000;
                        (facts().record(key, Partition::ALL, RawMove(moves[i]), game), true)
                    } else {
                        (record(key, moves[i], games[i], i as u32), false)
                    }
                })
                .collect();
            let bytes = encode_block(&records);
            let mut back = Vec::new();
            let past =
                decode_block(&bytes, keys[0], None, None, |_| Ok(facts()), |r| back.push(*r));
            prop_assert_eq!(past, Ok(false));
            let written: Vec<ExplorerRecord> = records.iter().map(|(r, _)| *r).collect();
            prop_assert_eq!(&back, &written);
            let only = keys[keys.len() / 2];
            let mut found = Vec::new();
            decode_block(&bytes, keys[0], Some(only), None, |_| Ok(facts()), |r| found.push(*r))
                .map_err(TestCaseError::fail)?;
            let expected: Vec<ExplorerRecord> =
                written.iter().filter(|r| r.key == only).copied().collect();
            prop_assert_eq!(found, expected);
        }
    }

    #[test]
    fn a_query_of_one_partition_looks_up_no_game_of_another() {
        // The start position's records: single games of the whole index and of two
        // player trees, and a record of many games of a player tree.
        let key = 42;
        let records = vec![
            (facts().record(key, Partition::ALL, RawMove(1), 10), true),
            (facts().record(key, Partition(3), RawMove(1), 11), true),
            (facts().record(key, Partition(7), RawMove(2), 12), true),
            (record(key, 2, 13, 3), false),
            (facts().record(key, Partition::ALL, RawMove(2), 14), true),
        ];
        let bytes = encode_block(&records);
        let looked_up = std::cell::RefCell::new(Vec::new());
        let lookup = |game| {
            looked_up.borrow_mut().push(game);
            Ok(facts())
        };
        let mut found = Vec::new();
        let past = decode_block(&bytes, key, Some(key), Some(Partition::ALL), lookup, |r| {
            found.push(*r)
        });
        assert_eq!(past, Ok(false));
        let expected: Vec<ExplorerRecord> = records
            .iter()
            .map(|(r, _)| *r)
            .filter(|r| r.partition == Partition::ALL)
            .collect();
        assert_eq!(found, expected);
        assert_eq!(
            *looked_up.borrow(),
            [10, 14],
            "only the whole index's games"
        );
        // A player's tree: its records alone.
        let mut found = Vec::new();
        decode_block(
            &bytes,
            key,
            Some(key),
            Some(Partition(3)),
            |_| Ok(facts()),
            |r| found.push(*r),
        )
        .unwrap();
        assert_eq!(found, [records[1].0, records[3].0]);
    }
}
