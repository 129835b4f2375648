//! Opening, creating, saving and recovering the repertoire editor's file: every outcome a
//! message or a [`Question`], never a silent overwrite.

use std::path::{Path, PathBuf};

use super::{Question, RepertoireState};
use crate::book::Side;
use crate::book::repertoire::{Document, GameTree};
use crate::workspace::backups::{self, Backup};
use crate::workspace::repertoire_file::{
    RepertoireFile, RepertoireFileError, SaveOutcome, discard, recover, recoverable,
};

impl RepertoireState {
    pub(super) fn create(&mut self, side: Side, path: &Path) {
        let title = format!("{} repertoire", side.name());
        let doc = Document::new_repertoire(side, &title);
        match RepertoireFile::create(path, &doc, self.data_dir.as_deref()) {
            Ok(file) => {
                self.replace(file);
                self.add_message(format!(
                    "New {} repertoire: {}",
                    side.name(),
                    path.display()
                ));
            }
            Err(e) => self.message = Some(format!("Cannot create the repertoire: {e}")),
        }
    }

    pub(crate) fn open(&mut self, path: &Path) {
        let mut warning = None;
        if let Some(dir) = &self.data_dir {
            match recoverable(dir, path) {
                Ok(Some(found)) => {
                    self.question = Some(Question::Recover(found));
                    return;
                }
                Ok(None) => {}
                Err(e) => {
                    warning = Some(format!(
                        "The unsaved edits of {} cannot be read: {e}",
                        path.display()
                    ));
                }
            }
        }
        match RepertoireFile::open(path, self.data_dir.as_deref()) {
            Ok(file) => {
                let issues = file.document().issues().len();
                self.replace(file);
                if let Some(warning) = warning {
                    self.add_message(warning);
                }
                if issues > 0 {
                    self.add_message(format!(
                        "{issues} chapter(s) cannot be read; they are kept as written."
                    ));
                }
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    pub(super) fn recover(&mut self) {
        let Some((dir, path)) = self.take_recovery() else {
            return;
        };
        match recover(&dir, &path) {
            Ok(file) => {
                self.replace(file);
                self.add_message("The unsaved edits were recovered; save to keep them.".to_owned());
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    pub(super) fn discard_recovery(&mut self) {
        let Some((dir, path)) = self.take_recovery() else {
            return;
        };
        match discard(&dir, &path) {
            Ok(()) => self.open(&path),
            Err(e) => self.message = Some(format!("The unsaved edits were not discarded: {e}")),
        }
    }

    /// Takes the question "recover the unsaved edits?" when it is asked: the data folder
    /// and the file it is about.
    fn take_recovery(&mut self) -> Option<(PathBuf, PathBuf)> {
        let (Some(dir), Some(Question::Recover(found))) = (self.data_dir.clone(), &self.question)
        else {
            return None;
        };
        let path = found.path.clone();
        self.question = None;
        Some((dir, path))
    }

    /// Makes `file` the open one (closing the last), at its first chapter's start.
    fn replace(&mut self, file: RepertoireFile) {
        let kept = self
            .file
            .as_ref()
            .filter(|f| f.document().is_dirty() && f.path() != file.path())
            .map(|f| f.path().display().to_string());
        self.close();
        self.file = Some(file);
        self.refresh_backups();
        self.chapter = 0;
        self.node = GameTree::ROOT;
        self.beyond.clear();
        self.question = None;
        self.changed();
        self.message = kept.map(|path| {
            format!(
                "The unsaved edits of {path} are kept; they are offered when it is opened again."
            )
        });
    }

    /// Adds `text` to what the last action said.
    fn add_message(&mut self, text: String) {
        self.message = Some(match self.message.take() {
            Some(before) => format!("{before} {text}"),
            None => text,
        });
    }

    /// Closes the file: with nothing unsaved its journal goes; else it stays for the
    /// next start.
    pub fn close(&mut self) {
        if let Some(old) = self.file.take()
            && let Err(e) = old.close()
        {
            self.message = Some(e.to_string());
        }
    }

    pub(super) fn save(&mut self) {
        self.finish_save(RepertoireFile::save);
    }

    pub(super) fn finish_save(
        &mut self,
        how: impl FnOnce(&mut RepertoireFile) -> Result<SaveOutcome, RepertoireFileError>,
    ) {
        let Some(file) = &mut self.file else {
            return;
        };
        let result = how(file);
        let path = file.path().to_owned();
        match result {
            Ok(SaveOutcome::Saved { .. }) => {
                self.question = None;
                self.message = Some(format!("Saved {}", path.display()));
                self.writes += 1;
                self.refresh_backups();
            }
            Ok(SaveOutcome::Conflict { on_disk }) => {
                self.question = Some(Question::Conflict {
                    path,
                    gone: on_disk.is_none(),
                });
            }
            Err(e) => self.message = Some(format!("Not saved: {e}")),
        }
    }

    pub(super) fn reload(&mut self) {
        let Some(path) = self.file.as_ref().map(|f| f.path().to_owned()) else {
            return;
        };
        // Read first: a file that cannot be read leaves the edits as they are.
        let fresh = match RepertoireFile::open(&path, self.data_dir.as_deref()) {
            Ok(fresh) => fresh,
            Err(e) => {
                self.message = Some(format!("Not reloaded: {e}"));
                return;
            }
        };
        // The unsaved edits are dropped, their journal too.
        self.file = None;
        if let Some(dir) = &self.data_dir
            && let Err(e) = discard(dir, &path)
        {
            self.message = Some(format!("The unsaved edits were not discarded: {e}"));
        }
        let chapter = self.chapter;
        self.replace(fresh);
        if self
            .document()
            .is_some_and(|d| chapter < d.chapters().len())
        {
            self.chapter = chapter;
        }
    }

    /// Reads the open file's backups again (an unreadable folder is the message).
    fn refresh_backups(&mut self) {
        self.backups.clear();
        let (Some(dir), Some(file)) = (&self.data_dir, &self.file) else {
            return;
        };
        match backups::list(dir, file.path()) {
            Ok(list) => self.backups = list,
            Err(e) => self.message = Some(format!("The backups cannot be listed: {e}")),
        }
    }

    pub(super) fn restore_backup(&mut self, backup: &Path) {
        if self.is_dirty() {
            self.message = Some("Save or undo your edits before restoring a backup.".to_owned());
            return;
        }
        let (Some(dir), Some(file)) = (self.data_dir.clone(), &self.file) else {
            return;
        };
        let path = file.path().to_owned();
        let Some(found) = self.backups.iter().find(|b| b.path == backup).cloned() else {
            return;
        };
        match backups::restore(&dir, &path, &found) {
            Ok(()) => {
                self.writes += 1;
                // Nothing is unsaved: the journal goes with the old version.
                self.close();
                self.open(&path);
                self.message = Some(format!(
                    "Restored the version saved {}; the one it replaced is a backup too.",
                    backup_time(&found)
                ));
            }
            Err(e) => self.message = Some(format!("Not restored: {e}")),
        }
    }
}

/// When a backup was taken, in the local time zone: "2026-11-27 19:30:05".
pub fn backup_time(backup: &Backup) -> String {
    let ms = i64::try_from(backup.taken_ms).unwrap_or(i64::MAX);
    match jiff::Timestamp::from_millisecond(ms) {
        Ok(t) => t
            .to_zoned(crate::clock::Clock::local().now_zoned().time_zone().clone())
            .strftime("%Y-%m-%d %H:%M:%S")
            .to_string(),
        Err(_) => format!("{ms} ms after 1970"),
    }
}
