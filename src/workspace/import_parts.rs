//! A PGN file read in parts on every core, for its report (`hastings import`) or its
//! lines (the window, `--pgn`): the same report and lines as reading it whole (see
//! [`crate::book::pgn::split`]).
//!
//! The calling thread reads the file in chunks cut before lines that start with `[`
//! and hands them to the workers of `workspace::pool` over a bounded channel; the
//! workers count positions in one set whose tables they share. In
//! [`ImportMode::Auto`] the calling thread reads the first parts itself until one
//! decides the mode. When a cut fell inside a comment
//! or among a game's tags, or where no game starts, the parts' reports are dropped and
//! the caller reads the file whole.

use std::io::{self, Read};
use std::sync::mpsc::channel;
use std::thread;

use super::chunks::{MAX_CHUNK_GROWTH, read_chunks};
use super::pool::worker_pool;
use crate::book::pgn::split::{ends_cleanly, merge, merge_imports};
use crate::book::pgn::{
    DistinctPositions, ImportError, ImportMode, ImportOptions, ImportReport, PgnImport, check_part,
    read_part,
};
use crate::book::{PositionGraph, SourceId};

/// Files smaller than this are read whole, on one thread.
pub const MIN_PARALLEL_BYTES: u64 = 4 << 20;

/// How a file is read in parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parallel {
    /// Worker threads.
    pub threads: usize,
    /// The size of a part, about (parts are cut at game starts).
    pub part_bytes: usize,
}

impl Parallel {
    /// How to read a file of `size` bytes with `threads` workers (0: one per core):
    /// `None` when one thread does as well (one worker, or a file under
    /// [`MIN_PARALLEL_BYTES`]). Parts are an eighth of a thread's share, from 1 to 8 MB.
    pub fn for_file(size: u64, threads: usize) -> Option<Parallel> {
        let threads = match threads {
            0 => thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        if threads < 2 || size < MIN_PARALLEL_BYTES {
            return None;
        }
        let share = size / (threads as u64 * 8);
        let part_bytes = usize::try_from(share.clamp(1 << 20, 8 << 20)).unwrap_or(8 << 20);
        Some(Parallel {
            threads,
            part_bytes,
        })
    }
}

/// One part read: what `T` the reader made of it.
struct Part<T> {
    seq: usize,
    offset: u64,
    found: T,
    /// Whether the part starts with a line that starts with `[` (or is the first).
    starts_at_game: bool,
    /// [`ends_cleanly`].
    ends_cleanly: bool,
}

/// What reading one part gave, and the mode it decided ([`ImportMode::Auto`] when it
/// decided none).
type PartRead<T> = (T, ImportMode);

/// What reading all parts gave.
struct PartsRead<T> {
    /// Each part's byte offset and what it gave, in file order.
    parts: Vec<(u64, T)>,
    /// The mode decided.
    mode: ImportMode,
    /// The distinct positions of all parts.
    positions: usize,
}

/// The report of the PGN text `reader` in `options`, read in parts as `parallel` says;
/// `Ok(None)` when the file must be read whole instead (see the [module docs](self)).
///
/// # Errors
///
/// [`ImportError::Io`] when reading fails (a cancelled job's reader fails) or a worker
/// thread stopped; [`ImportError::NoGames`] when no part had a game.
pub fn check_in_parts(
    reader: impl Read,
    options: &ImportOptions,
    parallel: Parallel,
) -> Result<Option<ImportReport>, ImportError> {
    let read = |bytes: &[u8], options: &ImportOptions, positions: &mut DistinctPositions| {
        let part = check_part(bytes, options, positions);
        let mode = part.report.mode;
        (part, mode)
    };
    let Some(read) = in_parts(reader, options, parallel, read)? else {
        return Ok(None);
    };
    merge(read.parts, read.mode, read.positions).map(Some)
}

/// The lines and report of the PGN text `reader` as source `id`, named by `names`, read
/// in parts as `parallel` says (the window's import of a big file); `Ok(None)` when the
/// file must be read whole instead.
///
/// # Errors
///
/// As [`check_in_parts`].
pub fn import_in_parts(
    reader: impl Read,
    id: SourceId,
    options: &ImportOptions,
    names: &PositionGraph,
    parallel: Parallel,
) -> Result<Option<PgnImport>, ImportError> {
    let read = |bytes: &[u8], options: &ImportOptions, positions: &mut DistinctPositions| {
        let (import, numbers) = read_part(bytes, id, options, Some(names), positions);
        let mode = import.report.mode;
        ((import, numbers), mode)
    };
    let Some(read) = in_parts(reader, options, parallel, read)? else {
        return Ok(None);
    };
    let parts = read
        .parts
        .into_iter()
        .map(|(offset, (import, numbers))| (offset, import, numbers));
    merge_imports(parts, read.mode, read.positions).map(Some)
}

/// Reads `reader` in parts with `read`, on the workers of `parallel`: the parts in file
/// order with their offsets, the mode decided and the distinct positions; `None` when a
/// part cannot be read apart.
fn in_parts<T: Send>(
    reader: impl Read,
    options: &ImportOptions,
    parallel: Parallel,
    read: impl Fn(&[u8], &ImportOptions, &mut DistinctPositions) -> PartRead<T> + Sync,
) -> Result<Option<PartsRead<T>>, ImportError> {
    let mut positions = DistinctPositions::new();
    let mut mode = options.mode;
    let mut parts: Vec<Part<T>> = Vec::new();
    let threads = parallel.threads.max(1);
    let read_part = |seq: usize,
                     offset: u64,
                     bytes: &[u8],
                     options: &ImportOptions,
                     positions: &mut DistinctPositions| {
        let (found, decided) = read(bytes, options, positions);
        let part = Part {
            seq,
            offset,
            found,
            starts_at_game: seq == 0 || bytes.first() == Some(&b'['),
            // `read_chunks` ends every chunk but the last where `last_cut` says, which
            // ends cleanly, unless it grew to `MAX_CHUNK_GROWTH` without finding one:
            // only such a chunk is walked again (the walk cost 8 % of the instructions
            // of a lichess file read on two threads).
            ends_cleanly: bytes.len() < MAX_CHUNK_GROWTH || ends_cleanly(bytes),
        };
        (part, decided)
    };
    // Read chunks' buffers, handed back for the next chunks.
    let (back_tx, back_rx) = channel::<Vec<u8>>();
    let shares: Vec<_> = (0..threads).map(|_| positions.sharing()).collect();
    let feed = |send: &mut dyn FnMut((usize, u64, Vec<u8>, ImportOptions)) -> bool| {
        let (mut seq, mut offset) = (0usize, 0u64);
        let spare = || back_rx.try_recv().ok();
        read_chunks(reader, parallel.part_bytes, spare, |bytes| {
            let len = bytes.len() as u64;
            if mode == ImportMode::Auto {
                // Until a game decides the mode, parts are read in order, here.
                let (part, decided) = read_part(seq, offset, &bytes, options, &mut positions);
                mode = decided;
                parts.push(part);
            } else {
                let options = ImportOptions { mode, ..*options };
                if !send((seq, offset, bytes, options)) {
                    return false;
                }
            }
            seq += 1;
            offset += len;
            true
        })
    };
    let work =
        |mut mine, next: &mut dyn FnMut() -> Option<(usize, u64, Vec<u8>, ImportOptions)>| {
            let mut done = Vec::new();
            while let Some((seq, offset, bytes, options)) = next() {
                done.push(read_part(seq, offset, &bytes, &options, &mut mine).0);
                // The reader may have stopped: then the buffer is not needed.
                let _ = back_tx.send(bytes);
            }
            done
        };
    let (done, results) = worker_pool(shares, None, feed, work);
    for result in results {
        let Some(done) = result else {
            return Err(io::Error::other("a thread reading the file stopped unexpectedly").into());
        };
        parts.extend(done);
    }
    done?;
    parts.sort_by_key(|p| p.seq);
    let whole = parts
        .split_last()
        .is_none_or(|(_, before)| before.iter().all(|p| p.ends_cleanly))
        && parts.iter().all(|p| p.starts_at_game);
    if !whole {
        return Ok(None);
    }
    let count = positions.len();
    let parts = parts.into_iter().map(|p| (p.offset, p.found)).collect();
    Ok(Some(PartsRead {
        parts,
        mode,
        positions: count,
    }))
}
