//! "Build an explorer from PGN files…" and "Add games…" in the Explorer tab: `hastings
//! explorer make` and `add` as a job with progress and Cancel ([`ExplorerBuild`]). Files
//! and folders are taken alike (a folder gives every `.pgn` in it and below); a new
//! index goes into the data folder's `explorers/` unless given a path; it keeps a tree
//! for every player with at least the setting's number of games. The finished index
//! is opened (and so opened again at the next start).

use std::path::{Path, PathBuf};

use crate::coach::format::count;
use crate::job::{Job, JobPoll, ProgressSnapshot, Wake};
use crate::workspace::explorer::{
    BuildOptions, BuildReport, ExplorerError, MakeOptions, add_to_explorer, make_explorer,
};
use crate::workspace::folders::expand_folders;

type BuildResult = Result<BuildReport, ExplorerError>;

/// The folder of the data folder where the window builds explorers.
pub const EXPLORERS_FOLDER: &str = "explorers";

/// What a build writes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// A new index at this folder.
    New(PathBuf),
    /// More games into the index at this folder.
    Add(PathBuf),
}

impl Target {
    fn dir(&self) -> &Path {
        match self {
            Target::New(dir) | Target::Add(dir) => dir,
        }
    }
}

/// The running build (or add) and what the last one did (runtime only).
#[derive(Default)]
pub struct ExplorerBuild {
    job: Option<(Target, Job<BuildResult>)>,
    outcome: Option<String>,
}

impl std::fmt::Debug for ExplorerBuild {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExplorerBuild")
            .field("target", &self.job.as_ref().map(|(t, _)| t))
            .field("outcome", &self.outcome)
            .finish()
    }
}

/// Where the index named `name` is built: `name` itself when it is a path (absolute,
/// or with a folder), else `NAME.explorer` in the data folder's `explorers/`.
pub fn index_folder(name: &str, data_dir: Option<&Path>) -> Option<PathBuf> {
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    let path = PathBuf::from(name);
    if path.is_absolute() || path.components().count() > 1 {
        return Some(path);
    }
    let file = if name.ends_with(".explorer") {
        name.to_owned()
    } else {
        format!("{name}.explorer")
    };
    data_dir.map(|d| d.join(EXPLORERS_FOLDER).join(file))
}

impl ExplorerBuild {
    /// How far the running build is, if one runs.
    pub fn progress(&self) -> Option<ProgressSnapshot> {
        self.job.as_ref().map(|(_, job)| job.progress().snapshot())
    }

    /// Whether the running job adds games to an index (else it builds one).
    pub fn is_adding(&self) -> bool {
        matches!(self.job, Some((Target::Add(_), _)))
    }

    /// What the last build did, if anything.
    pub fn outcome(&self) -> Option<&str> {
        self.outcome.as_deref()
    }

    /// Builds the index at `dir` of `inputs` (files or folders), keeping trees for the
    /// players with at least `players_min` games (0: none).
    pub(super) fn build(
        &mut self,
        inputs: Vec<PathBuf>,
        dir: PathBuf,
        players_min: u32,
        wake: Wake,
    ) {
        let options = MakeOptions {
            players_min: (players_min > 0).then_some(players_min),
            ..MakeOptions::default()
        };
        self.start(
            inputs,
            Target::New(dir),
            wake,
            move |files, dir, progress| {
                if let Some(parent) = dir.parent() {
                    std::fs::create_dir_all(parent).map_err(|source| ExplorerError::Io {
                        path: parent.to_owned(),
                        source,
                    })?;
                }
                make_explorer(files, dir, &options, progress)
            },
        );
    }

    /// Adds the games of `inputs` (files or folders) to the index at `dir`.
    pub(super) fn add(&mut self, inputs: Vec<PathBuf>, dir: PathBuf, wake: Wake) {
        self.start(inputs, Target::Add(dir), wake, |files, dir, progress| {
            add_to_explorer(dir, files, &BuildOptions::default(), progress)
        });
    }

    fn start(
        &mut self,
        inputs: Vec<PathBuf>,
        target: Target,
        wake: Wake,
        work: impl FnOnce(&[PathBuf], &Path, &crate::job::JobProgress) -> BuildResult + Send + 'static,
    ) {
        if self.job.is_some() {
            return;
        }
        if inputs.is_empty() {
            self.outcome = Some("Give the PGN files or folders of the games.".to_owned());
            return;
        }
        let files = match expand_folders(inputs) {
            Ok(files) => files,
            Err(e) => {
                self.outcome = Some(format!("Nothing was built: {e}."));
                return;
            }
        };
        let dir = target.dir().to_owned();
        match Job::spawn("explorer-build", wake, move |progress| {
            work(&files, &dir, progress)
        }) {
            Ok(job) => {
                self.outcome = None;
                self.job = Some((target, job));
            }
            Err(e) => self.outcome = Some(format!("Cannot start: {e}")),
        }
    }

    /// Asks the running build to stop (what it wrote is removed; an index added to
    /// stays as it was).
    pub(super) fn cancel(&self) {
        if let Some((_, job)) = &self.job {
            job.cancel();
        }
    }

    /// Takes a finished build (waiting for it when `wait`: tests): the index to open
    /// when one was built or added to.
    pub(super) fn poll(&mut self, wait: bool) -> Option<PathBuf> {
        let (_, job) = self.job.as_ref()?;
        let polled = if wait {
            job.poll_blocking()
        } else {
            job.poll()
        };
        if matches!(polled, JobPoll::Running) {
            return None;
        }
        let (target, _) = self.job.take()?;
        let result = match polled {
            JobPoll::Finished(result) => result,
            JobPoll::Running => return None,
            JobPoll::Died(e) => Err(ExplorerError::Io {
                path: target.dir().to_owned(),
                source: std::io::Error::other(e.to_string()),
            }),
        };
        let dir = target.dir().display();
        match (result, &target) {
            (Ok(report), Target::New(_)) => {
                self.outcome = Some(format!("Built {dir} from {} games.", count(report.counted)));
            }
            (Ok(report), Target::Add(_)) => {
                self.outcome = Some(format!("Added {} games to {dir}.", count(report.counted)));
            }
            (Err(e), Target::New(_)) => {
                self.outcome = Some(format!("No explorer was built: {e}."));
                return None;
            }
            (Err(e), Target::Add(_)) => {
                self.outcome = Some(format!("No game was added: {e}."));
                return None;
            }
        }
        Some(target.dir().to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_name_goes_into_the_data_folder_a_path_stays_as_given() {
        let data = Path::new("/data");
        assert_eq!(
            index_folder("club", Some(data)),
            Some(PathBuf::from("/data/explorers/club.explorer"))
        );
        assert_eq!(
            index_folder("club.explorer", Some(data)),
            Some(PathBuf::from("/data/explorers/club.explorer"))
        );
        assert_eq!(
            index_folder("/tmp/x.explorer", Some(data)),
            Some(PathBuf::from("/tmp/x.explorer"))
        );
        assert_eq!(index_folder("club", None), None);
        assert_eq!(index_folder("  ", Some(data)), None);
    }
}
