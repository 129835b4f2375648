//! Cutting PGN files into chunks of whole games, so that threads can read them apart,
//! and handing the chunks to worker threads ([`process_chunks`], what `book make` and
//! `explorer make` share, on the pool of [`super::pool`]).
//!
//! Where a chunk may end is the book's rule ([`last_cut`]): before a line that starts
//! with `[` where reading the whole file would be between games, never inside a
//! comment or a game's tags.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::thread;

use super::pool::worker_pool;
use crate::book::pgn::split::last_cut;
use crate::job::JobProgress;

/// Work memory kept aside for everything but the chunks and the workers' maps.
const RESERVE: usize = 16 << 20;

/// The input files of a make, opened, and how its work memory is split: the chunks in
/// flight take `(2 × threads + 1) × chunk_bytes` (chunks of `memory / 64`, from 1 to 8
/// MB, unless given), the rest less a reserve is each worker's.
#[derive(Debug)]
pub(crate) struct MakePlan {
    /// The files' paths, in the order given.
    pub paths: Vec<PathBuf>,
    /// The files, in the order given.
    pub files: Vec<File>,
    /// Their total size in bytes.
    pub total: u64,
    /// Worker threads (all cores for 0).
    pub threads: usize,
    /// The size a chunk is cut at.
    pub chunk_bytes: usize,
    /// Each worker's part of the memory, in bytes.
    pub per_worker: usize,
}

/// What a make (`book make`, `explorer make`) says when its plan or its reading fails:
/// each make's own error type, in its own words; [`MakePlan::new`] and
/// [`process_chunks`] make them.
pub(crate) trait MakeFailure: Send {
    /// No PGN file was given.
    fn no_input() -> Self;
    /// The memory bound of `mb` MB is below the least.
    fn too_little_memory(mb: usize) -> Self;
    /// The PGN file `path` cannot be opened, measured or read.
    fn read(path: PathBuf, source: io::Error) -> Self;
    /// The job was cancelled.
    fn cancelled() -> Self;
    /// A worker thread ended without a result (it panicked: a bug).
    fn died() -> Self;
}

impl MakePlan {
    /// Opens `inputs` and splits `memory_mb` MB (at least `min_mb`) between `threads`
    /// workers (0: one per core) and the chunks in flight.
    ///
    /// # Errors
    ///
    /// `E`'s [`MakeFailure::no_input`], [`too_little_memory`](MakeFailure::too_little_memory)
    /// or [`read`](MakeFailure::read) (a file that cannot be opened or measured).
    pub(crate) fn new<E: MakeFailure>(
        inputs: &[PathBuf],
        memory_mb: usize,
        min_mb: usize,
        threads: usize,
        chunk_bytes: Option<usize>,
    ) -> Result<MakePlan, E> {
        if inputs.is_empty() {
            return Err(E::no_input());
        }
        if memory_mb < min_mb {
            return Err(E::too_little_memory(memory_mb));
        }
        let mut files = Vec::with_capacity(inputs.len());
        let mut total = 0u64;
        for path in inputs {
            let read_error = |source| E::read(Path::to_owned(path), source);
            let file = File::open(path).map_err(read_error)?;
            total += file.metadata().map_err(read_error)?.len();
            files.push(file);
        }
        let threads = match threads {
            0 => thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let memory = memory_mb.saturating_mul(1 << 20);
        let chunk_bytes = chunk_bytes.unwrap_or((memory / 64).clamp(1 << 20, 8 << 20));
        let in_flight = threads
            .saturating_mul(2)
            .saturating_add(1)
            .saturating_mul(chunk_bytes)
            .saturating_add(RESERVE);
        Ok(MakePlan {
            paths: inputs.to_vec(),
            files,
            total,
            threads,
            chunk_bytes,
            per_worker: memory.saturating_sub(in_flight) / threads,
        })
    }
}

/// The smallest chunk [`MakePlan::fit_chunks_to_input`] cuts: a file smaller than this
/// is one chunk, read by one worker (a second worker's map and buffers would cost more
/// than the chunk saves: 11.5 → 13.2 MB peak for 100 KB cut at 64 KB).
const MIN_FITTED_CHUNK: usize = 1 << 20;

/// Chunks per worker that [`MakePlan::fit_chunks_to_input`] cuts a small input into.
const FITTED_CHUNKS_PER_WORKER: u64 = 4;

impl MakePlan {
    /// Cuts an input smaller than the chunks in flight into chunks sized to it (about
    /// [`FITTED_CHUNKS_PER_WORKER`] per worker, at least 1 MB) instead of chunks of
    /// `memory / 64`: the `(2 × threads + 1)` chunks in flight then take about what the
    /// input holds, so that a small file costs a small amount of memory. A larger input
    /// keeps the chunks the memory bound gives; the work memory left to each worker is
    /// unchanged.
    pub(crate) fn fit_chunks_to_input(&mut self) {
        let threads = self.threads.max(1) as u64;
        let in_flight = (2 * threads + 1).saturating_mul(self.chunk_bytes as u64);
        if self.total >= in_flight {
            // The chunks in flight hold less than the input: their size is not the
            // floor (smaller chunks here cost more memory: 164 → 188 MB on 57 MB).
            return;
        }
        let per_chunk = self.total / (threads * FITTED_CHUNKS_PER_WORKER);
        let fitted = usize::try_from(per_chunk)
            .unwrap_or(usize::MAX)
            .max(MIN_FITTED_CHUNK);
        self.chunk_bytes = self.chunk_bytes.min(fitted);
    }
}

/// A chunk that finds no game start grows up to this size before it is cut anyway (a
/// single game this long is cut, and its rest read as a broken game).
pub(crate) const MAX_CHUNK_GROWTH: usize = 64 << 20;

/// A piece of one input file, starting at a game's first line (or the file's start)
/// and ending before another game's first line (or at the file's end).
#[derive(Debug)]
pub(crate) struct Chunk {
    /// The index of the input file.
    pub file: usize,
    /// The chunk's number across all files, in reading order.
    pub seq: usize,
    /// The text.
    pub bytes: Vec<u8>,
}

/// Reads `input` in chunks of about `chunk_bytes`, each cut at a game start
/// ([`last_cut`]; a chunk that finds none grows, up to [`MAX_CHUNK_GROWTH`]: so every
/// chunk but the last that is shorter than that ends cleanly,
/// [`ends_cleanly`](crate::book::pgn::split::ends_cleanly)), and hands
/// each to `send` (which returns `false` to stop early). A chunk is read into a buffer
/// from `spare` when it has one (buffers handed back after use, so that the memory is
/// not given back to the system and asked for again, chunk after chunk). Returns the
/// bytes read.
pub(crate) fn read_chunks(
    mut input: impl Read,
    chunk_bytes: usize,
    mut spare: impl FnMut() -> Option<Vec<u8>>,
    mut send: impl FnMut(Vec<u8>) -> bool,
) -> io::Result<u64> {
    let mut total = 0u64;
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let mut buf = spare().unwrap_or_default();
        buf.clear();
        buf.extend_from_slice(&carry);
        carry.clear();
        // A chunk without a game start doubles, so a long game is scanned a few times only.
        let want = chunk_bytes
            .saturating_sub(buf.len())
            .max(buf.len())
            .max(4096);
        buf.reserve(want);
        let got = input.by_ref().take(want as u64).read_to_end(&mut buf)?;
        total += got as u64;
        if got < want {
            // The end of the input.
            if !buf.is_empty() {
                send(buf);
            }
            return Ok(total);
        }
        match last_cut(&buf) {
            Some(cut) => {
                carry.extend_from_slice(&buf[cut..]);
                buf.truncate(cut);
            }
            None if buf.len() < MAX_CHUNK_GROWTH => {
                carry = buf;
                continue;
            }
            None => {}
        }
        if !send(buf) {
            return Ok(total);
        }
    }
}

/// Reads `files` (at `paths`) one after the other in chunks of about `chunk_bytes`
/// ([`read_chunks`]) on the calling thread and hands them to `threads` workers of
/// [`worker_pool`], so that only a few chunks are in memory at once. Worker `id` calls
/// `work(id, next)`, where `next()` gives the next chunk, or `None` when the files are
/// read or the job is cancelled. Returns the workers' results in worker order.
///
/// # Errors
///
/// `E`: [`MakeFailure::read`] for a file that cannot be read, a worker's error,
/// [`MakeFailure::died`] for a worker that died, [`MakeFailure::cancelled`] when
/// `progress` was cancelled.
pub(crate) fn process_chunks<T, E, W>(
    paths: &[PathBuf],
    files: Vec<File>,
    chunk_bytes: usize,
    threads: usize,
    progress: &JobProgress,
    work: W,
) -> Result<Vec<T>, E>
where
    T: Send,
    E: MakeFailure,
    W: Fn(usize, &mut dyn FnMut() -> Option<Chunk>) -> Result<T, E> + Sync,
{
    let states: Vec<usize> = (0..threads.max(1)).collect();
    let feed = |send: &mut dyn FnMut(Chunk) -> bool| {
        let mut seq = 0;
        for (file_index, file) in files.into_iter().enumerate() {
            let mut open = true;
            let done = read_chunks(
                file,
                chunk_bytes,
                || None,
                |bytes| {
                    open = send(Chunk {
                        file: file_index,
                        seq,
                        bytes,
                    });
                    seq += 1;
                    open
                },
            );
            if let Err(source) = done {
                let path = paths.get(file_index).cloned().unwrap_or_default();
                return Err(E::read(path, source));
            }
            if !open {
                break;
            }
        }
        Ok(())
    };
    let (read, results) = worker_pool(states, Some(progress), feed, |id, next| work(id, next));
    if progress.is_cancelled() {
        return Err(E::cancelled());
    }
    read?;
    results
        .into_iter()
        .map(|result| result.unwrap_or_else(|| Err(E::died())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::pgn::split::ends_cleanly;
    use crate::workspace::polyglot_make::MakeError;

    /// A small input is cut into chunks sized to it, so that the chunks in flight take
    /// about what it holds; one that the chunks in flight could not hold (sparse files of
    /// 40 MB and 4 GB) keeps the memory bound's chunks of 8 MB.
    #[test]
    fn chunks_are_sized_to_a_small_input() {
        let fixture =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/twic1599_100k.pgn");
        let mut plan = MakePlan::new::<MakeError>(&[fixture], 512, 32, 2, None).unwrap();
        assert_eq!(plan.chunk_bytes, 8 << 20);
        let total = usize::try_from(plan.total).unwrap();
        let per_worker = plan.per_worker;
        plan.fit_chunks_to_input();
        assert_eq!(plan.chunk_bytes, MIN_FITTED_CHUNK.max(total / 8));
        assert!(
            5 * plan.chunk_bytes <= 5 * MIN_FITTED_CHUNK + 2 * total,
            "{plan:?}"
        );
        assert_eq!(plan.per_worker, per_worker);

        let dir = std::env::temp_dir().join(format!("hastings-chunks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.pgn");
        File::create(&big).unwrap().set_len(4 << 30).unwrap();
        let mut plan = MakePlan::new::<MakeError>(&[big], 512, 32, 2, None).unwrap();
        plan.fit_chunks_to_input();
        assert_eq!(plan.chunk_bytes, 8 << 20);
        // Just more than the five chunks in flight hold: the chunks stay.
        let medium = dir.join("medium.pgn");
        File::create(&medium).unwrap().set_len(40 << 20).unwrap();
        let mut plan =
            MakePlan::new::<MakeError>(std::slice::from_ref(&medium), 512, 32, 2, None).unwrap();
        plan.fit_chunks_to_input();
        assert_eq!(plan.chunk_bytes, 8 << 20);
        File::create(&medium)
            .unwrap()
            .set_len((40 << 20) - 1)
            .unwrap();
        let mut plan = MakePlan::new::<MakeError>(&[medium], 512, 32, 2, None).unwrap();
        plan.fit_chunks_to_input();
        assert_eq!(plan.chunk_bytes, ((40 << 20) - 1) / 8);
        // Smaller chunks stay as they are.
        let mut plan =
            MakePlan::new::<MakeError>(&[dir.join("big.pgn")], 512, 32, 2, Some(4096)).unwrap();
        plan.fit_chunks_to_input();
        assert_eq!(plan.chunk_bytes, 4096);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// What `in_parts` relies on to walk no chunk again: every chunk but the last ends
    /// cleanly, on real files with comments, variations, junk and games cut short, at
    /// sizes that cut inside games, comments and tags.
    #[test]
    fn every_chunk_but_the_last_ends_cleanly() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut text = Vec::new();
        for name in [
            "study_chapters.pgn",
            "lichess_db_100k.pgn",
            "french_advance_marked.pgn",
            "repertoire.pgn",
            "truncated.pgn",
            "illegal.pgn",
            "twic1599_100k.pgn",
        ] {
            text.extend(std::fs::read(fixtures.join(name)).unwrap());
            text.push(b'\n');
        }
        for size in [300, 1000, 4096, 50_000] {
            let mut chunks: Vec<Vec<u8>> = Vec::new();
            read_chunks(
                &text[..],
                size,
                || None,
                |c| {
                    chunks.push(c);
                    true
                },
            )
            .unwrap();
            assert!(chunks.len() > 3, "{size}");
            let (_, before) = chunks.split_last().unwrap();
            for c in before {
                assert!(c.len() < MAX_CHUNK_GROWTH);
                assert!(ends_cleanly(c), "{size}: {}", String::from_utf8_lossy(c));
            }
            assert_eq!(chunks.concat(), text);
        }
    }

    #[test]
    fn chunks_hold_whole_games_and_all_the_text() {
        let game = |i: usize| format!("[Event \"{i}\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n");
        let text: String = (0..500).map(game).collect();
        let mut chunks: Vec<Vec<u8>> = Vec::new();
        let read = read_chunks(
            text.as_bytes(),
            4096,
            || None,
            |c| {
                chunks.push(c);
                true
            },
        )
        .unwrap();
        assert_eq!(read, text.len() as u64);
        assert!(chunks.len() > 3);
        for c in &chunks {
            assert!(c.starts_with(b"[Event "), "{}", String::from_utf8_lossy(c));
        }
        assert_eq!(chunks.concat(), text.as_bytes());
    }

    /// A game file of `n` games in the test's folder `name`.
    fn games_file(name: &str, n: usize) -> (PathBuf, File) {
        let dir =
            std::env::temp_dir().join(format!("hastings-chunks-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.pgn");
        let text: String = (0..n)
            .map(|i| format!("[Event \"{i}\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n"))
            .collect();
        std::fs::write(&path, text).unwrap();
        let file = File::open(&path).unwrap();
        (path, file)
    }

    /// Every chunk reaches one worker; a worker's error, a worker that panics and a
    /// cancelled job come back as the make's own error.
    #[test]
    fn process_chunks_gives_every_chunk_once_and_the_makes_errors() {
        let (path, file) = games_file("all", 2000);
        let paths = [path.clone()];
        let progress = JobProgress::new();
        let counts = process_chunks(&paths, vec![file], 4096, 3, &progress, |id, next| {
            let mut seqs = Vec::new();
            while let Some(chunk) = next() {
                assert_eq!(chunk.file, 0);
                seqs.push(chunk.seq);
            }
            Ok::<_, MakeError>((id, seqs))
        })
        .unwrap();
        assert_eq!(counts.iter().map(|c| c.0).collect::<Vec<_>>(), [0, 1, 2]);
        let mut seqs: Vec<usize> = counts.into_iter().flat_map(|c| c.1).collect();
        seqs.sort_unstable();
        assert!(seqs.len() > 10);
        assert_eq!(seqs, (0..seqs.len()).collect::<Vec<_>>());

        let failing = |id: usize, next: &mut dyn FnMut() -> Option<Chunk>| {
            while next().is_some() {}
            match id {
                1 => Err(MakeError::NoGames { inputs: Vec::new() }),
                2 => panic!("worker 2 fails"),
                _ => Ok(()),
            }
        };
        let file = File::open(&path).unwrap();
        let err = process_chunks(&paths, vec![file], 4096, 3, &progress, failing).unwrap_err();
        assert!(matches!(err, MakeError::NoGames { .. }), "{err}");
        let file = File::open(&path).unwrap();
        let err = process_chunks(
            &paths,
            vec![file],
            4096,
            1,
            &progress,
            |_, _| -> Result<(), MakeError> { panic!("the only worker fails") },
        )
        .unwrap_err();
        assert!(matches!(err, MakeError::Died), "{err}");
        progress.cancel();
        let file = File::open(&path).unwrap();
        let err = process_chunks(&paths, vec![file], 4096, 2, &progress, |_, next| {
            Ok::<_, MakeError>(std::iter::from_fn(next).count())
        })
        .unwrap_err();
        assert!(matches!(err, MakeError::Cancelled), "{err}");
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
