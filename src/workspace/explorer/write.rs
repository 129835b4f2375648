//! Writing an index: `make` into a new or empty folder, `add` to an index, each under
//! the index's writer lock and committed by one manifest rename, after which nothing
//! can fail.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::lock::WriterLock;
use super::make::{self, BuildOptions, BuildReport};
use super::manifest::{MANIFEST, Manifest, foreign_files};
use super::regulars::regular_players;
use super::{ExplorerError, MAX_SEGMENTS, MakeOptions, Segment, fault_point, open_segments};
use crate::book::explorer::{Partition, Players};
use crate::job::JobProgress;

/// Files a write made that no committed manifest names yet: removed when it fails.
struct Uncommitted<'d> {
    dir: &'d Path,
    files: Vec<String>,
}

impl<'d> Uncommitted<'d> {
    fn new(dir: &'d Path) -> Uncommitted<'d> {
        Uncommitted {
            dir,
            files: Vec::new(),
        }
    }

    /// Counts `name` as the write's, before it is made.
    fn add(&mut self, name: &str) {
        self.files.push(name.to_owned());
    }

    /// The manifest naming them is committed: they stay.
    fn committed(mut self) {
        self.files.clear();
    }
}

impl Drop for Uncommitted<'_> {
    fn drop(&mut self) {
        for name in &self.files {
            let _ = fs::remove_file(self.dir.join(name));
        }
    }
}

/// Makes the index `dir` (a new folder, or an empty one) from the games of `inputs`.
///
/// The inputs are opened before anything is made. A folder that holds anything but
/// what an interrupted `make` of Hastings left is refused, and a failed `make` leaves
/// the folder as it was (a folder it made is removed).
///
/// # Errors
///
/// [`ExplorerError`]: an input cannot be read, `dir` is already an index
/// ([`ExplorerError::Exists`]) or holds other files ([`ExplorerError::NotEmpty`]),
/// another process is writing it ([`ExplorerError::Busy`]), files cannot be written,
/// no finished game, cancellation.
pub fn make_explorer(
    inputs: &[PathBuf],
    dir: &Path,
    options: &MakeOptions,
    progress: &JobProgress,
) -> Result<BuildReport, ExplorerError> {
    let plan = make::plan(inputs, &options.build)?;
    // The regular players are counted before anything is written.
    let mut names = options.players.clone();
    if let Some(min) = options.players_min {
        let room = Partition::MAX_PLAYERS.saturating_sub(names.len());
        names.extend(regular_players(inputs, min, room)?);
    }
    let created = prepare_folder(dir)?;
    let lock = match WriterLock::acquire(dir) {
        Ok(lock) => lock,
        Err(e) => {
            if created {
                let _ = fs::remove_dir(dir);
            }
            return Err(e);
        }
    };
    // Another `make` may have written it while this one waited.
    prepare_folder(dir)?;
    let players = Players::new(&names).names().to_vec();
    let mut manifest = Manifest::new(options.max_plies, players);
    manifest.remove_leftovers(dir);
    let mut written = Uncommitted::new(dir);
    let name = manifest.take_segment_name();
    written.add(&name);
    let made = make::write_segment(
        plan,
        inputs,
        dir,
        &name,
        &manifest,
        &options.build,
        progress,
    )
    .and_then(|(info, report)| {
        manifest.segments.push(info);
        manifest.commit(dir)?;
        Ok(report)
    });
    match made {
        Ok(report) => {
            written.committed();
            Ok(report)
        }
        Err(e) => {
            drop(written);
            lock.remove();
            if created {
                let _ = fs::remove_dir(dir);
            }
            Err(e)
        }
    }
}

/// Checks that `make` may write into `dir`, making it when it does not exist; gives
/// whether it was made.
fn prepare_folder(dir: &Path) -> Result<bool, ExplorerError> {
    let io_err = |source| ExplorerError::Io {
        path: dir.to_owned(),
        source,
    };
    match fs::metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            fs::create_dir_all(dir).map_err(io_err)?;
            Ok(true)
        }
        Err(e) => Err(io_err(e)),
        Ok(m) if !m.is_dir() => Err(io_err(io::ErrorKind::NotADirectory.into())),
        Ok(_) if dir.join(MANIFEST).exists() => Err(ExplorerError::Exists {
            path: dir.to_owned(),
        }),
        Ok(_) => {
            let files = foreign_files(dir).map_err(io_err)?;
            if files.is_empty() {
                Ok(false)
            } else {
                Err(ExplorerError::NotEmpty {
                    path: dir.to_owned(),
                    files,
                })
            }
        }
    }
}

/// Adds the games of `inputs` to the index `dir` as a new segment, counted with the
/// index's ply limit and players; when that makes more than [`MAX_SEGMENTS`], every
/// segment is merged into one, after each was checked against its checksums.
///
/// The add is committed by one manifest rename at its end: an error means the index
/// is as it was (nothing was added), success that every game was added once.
///
/// # Errors
///
/// [`ExplorerError`]: an input cannot be read, no index at `dir`, another process is
/// writing it ([`ExplorerError::Busy`]), a segment to merge is damaged, files cannot
/// be written, no finished game, cancellation. The index is then as it was.
pub fn add_to_explorer(
    dir: &Path,
    inputs: &[PathBuf],
    options: &BuildOptions,
    progress: &JobProgress,
) -> Result<BuildReport, ExplorerError> {
    let plan = make::plan(inputs, options)?;
    Manifest::load(dir)?;
    let _lock = WriterLock::acquire(dir)?;
    // Read under the lock: the last writer's commit.
    let mut manifest = Manifest::load(dir)?;
    manifest.remove_leftovers(dir);
    let mut segments = open_segments(dir, &manifest)?;
    let merge = manifest.segments.len() + 1 > MAX_SEGMENTS;
    if merge {
        for segment in &segments {
            segment.verify()?;
        }
    }
    let mut written = Uncommitted::new(dir);
    let name = manifest.take_segment_name();
    written.add(&name);
    let (info, report) =
        make::write_segment(plan, inputs, dir, &name, &manifest, options, progress)?;
    if merge {
        let segment = Segment::open(&dir.join(&name))?;
        segment.verify()?;
        segments.push(segment);
        let mut infos = manifest.segments.clone();
        infos.push(info);
        let merged_name = manifest.take_segment_name();
        written.add(&merged_name);
        let merged = make::merge_segments(dir, &merged_name, &segments, &infos)?;
        drop(segments);
        fault_point("merged-segment", &dir.join(&merged_name))?;
        manifest.retired = infos.into_iter().map(|s| s.file).collect();
        manifest.segments = vec![merged];
    } else {
        manifest.retired.clear();
        manifest.segments.push(info);
    }
    manifest.commit(dir)?;
    written.committed();
    for file in &manifest.retired {
        let _ = fs::remove_file(dir.join(file));
    }
    Ok(report)
}
