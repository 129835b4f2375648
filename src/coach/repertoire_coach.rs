//! The coach's side of the Repertoire tab: the commands it carries out itself (they
//! need the book, the drill or a dialog), the settings it keeps (the file open, the
//! chapters drilled), the book read again after a save, the file opened again at the
//! next start.

use std::path::PathBuf;

use super::Coach;
use super::repertoire::{RepertoireCommand, RepertoireState};

/// The Repertoire tab: the file being edited, and its book (gaps, "Train this").
pub struct RepertoireTab {
    /// The repertoire file being edited.
    pub(crate) editor: RepertoireState,
    /// The repertoire's graph, its gaps, "Train this".
    pub(crate) gaps: super::repertoire_gaps::GapsState,
}

impl Coach {
    /// The Repertoire tab's editor.
    pub fn repertoire(&self) -> &RepertoireState {
        &self.repertoire.editor
    }

    /// Sets the folder for the repertoire editor's backups and journal (the window's data
    /// folder; tests use a temporary one).
    pub fn set_repertoire_data_dir(&mut self, dir: Option<PathBuf>) {
        self.repertoire.editor.data_dir = dir;
    }

    /// Carries out a command of the Repertoire tab.
    pub(crate) fn apply_repertoire(&mut self, command: RepertoireCommand) {
        match command {
            RepertoireCommand::NextGap => self.next_gap(),
            RepertoireCommand::TrainThis => self.train_this(),
            RepertoireCommand::ToggleTrainChapter(i) => self.toggle_train_chapter(i),
            RepertoireCommand::GapsFromExplorer(on) => self.ctx.settings.workshop_explorer = on,
            RepertoireCommand::Choose(what) => self
                .ctx
                .notify(crate::coach::Notice::ChooseRepertoireFile(what)),
            command => {
                let before = self.repertoire.editor.file().map(|f| f.path().to_owned());
                let writes = self.repertoire.editor.writes;
                self.repertoire.editor.apply(command);
                if self.repertoire.editor.writes != writes {
                    self.read_saved_repertoire_again();
                }
                let path = self.repertoire.editor.file().map(|f| f.path().to_owned());
                if path != before {
                    // Another file: the drill no longer trains the last one's subtree.
                    self.stop_repertoire_training();
                }
                if path.is_some() {
                    self.ctx.settings.workshop_file = path;
                }
            }
        }
        self.ctx.request_repaint();
    }

    /// After a save: where the book has the file loaded, it reads it again (in the
    /// background), so the drill and the Coverage tab use the saved version.
    fn read_saved_repertoire_again(&mut self) {
        let Some(path) = self.repertoire.editor.file().map(|f| f.path().to_owned()) else {
            return;
        };
        let Some(loaded) = self.ctx.workspace.file(&path) else {
            return;
        };
        let mode = match loaded.mode {
            crate::book::ImportMode::Repertoire => crate::workspace::FileMode::Repertoire,
            crate::book::ImportMode::Games => crate::workspace::FileMode::Games,
            crate::book::ImportMode::Auto => crate::workspace::FileMode::Auto,
        };
        self.ctx.workspace.open(vec![path], mode);
    }

    /// Opens the file the repertoire editor had at the last run (asking first when it has
    /// unsaved edits).
    pub(crate) fn reopen_repertoire(&mut self) {
        let Some(path) = self.ctx.settings.workshop_file.clone() else {
            return;
        };
        if path.exists() {
            self.repertoire.editor.open(&path);
            self.resume_repertoire_training(&path);
        } else {
            self.repertoire.editor.set_message(format!(
                "The repertoire open last time, {}, is not there any more.",
                path.display()
            ));
        }
    }
}
