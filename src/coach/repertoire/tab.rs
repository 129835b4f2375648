//! The Repertoire tab as a feature ([`RepertoireTab`]): the editor ([`RepertoireState`])
//! and the book of its file ([`GapsState`]); the commands that need the book, the drill
//! or a dialog, the settings it keeps (the file open, the chapters drilled), the book
//! read again after a save, the file opened again at the next start.

use std::path::PathBuf;

use super::gaps::{ExplorerGames, GapsState};
use super::{RepertoireCommand, RepertoireState};
use crate::coach::context::Context;
use crate::coach::notice::Notice;

/// The Repertoire tab: the file being edited, and its book (gaps, "Train this").
pub struct RepertoireTab {
    /// The repertoire file being edited.
    pub(crate) editor: RepertoireState,
    /// The repertoire's graph, its gaps, "Train this".
    pub(crate) gaps: GapsState,
}

impl RepertoireTab {
    /// The tab on a closed editor whose backups and journal go to `data_dir`.
    pub(crate) fn with_data_dir(data_dir: Option<PathBuf>) -> RepertoireTab {
        RepertoireTab {
            editor: RepertoireState::with_data_dir(data_dir),
            gaps: GapsState::default(),
        }
    }

    /// The editor: the file, the cursor, the question asked.
    pub fn editor(&self) -> &RepertoireState {
        &self.editor
    }

    /// The repertoire's book: the exposure, what is missing at the cursor.
    pub fn gaps(&self) -> &GapsState {
        &self.gaps
    }

    /// Whether the Repertoire tab is shown: its exposure is computed (and kept up to
    /// date) only then.
    pub fn set_shown(&mut self, shown: bool) {
        self.gaps.shown = shown;
    }

    /// Whether the Repertoire tab is shown with a file open (then the board is its file's).
    pub(crate) fn shows_file(&self) -> bool {
        self.gaps.shown && self.editor.file().is_some()
    }

    /// Sets the folder for the editor's backups and journal (the window's data folder;
    /// tests use a temporary one).
    pub fn set_data_dir(&mut self, dir: Option<PathBuf>) {
        self.editor.data_dir = dir;
    }

    /// The Explorer tab's index and filter, which the missing replies come from when
    /// the settings say so (the coach shares them before each command and frame).
    pub(crate) fn set_explorer_games(&mut self, games: Option<ExplorerGames>) {
        self.gaps.explorer = games;
    }

    /// Takes the chapter sides the learner set for the open file from the book's
    /// settings of it (the Book tab, My repertoires and this tab set them alike).
    pub(crate) fn sync_chapter_sides(&mut self, ctx: &Context) {
        let sides = self
            .editor
            .file()
            .and_then(|f| ctx.workspace.choice().file(f.path()))
            .map(|f| f.chapter_sides.clone())
            .unwrap_or_default();
        if sides != self.editor.chapter_sides {
            self.editor.chapter_sides = sides;
        }
    }

    /// Carries out a command of the Repertoire tab.
    pub(crate) fn apply(&mut self, command: RepertoireCommand, ctx: &mut Context) {
        match command {
            RepertoireCommand::NextGap => self.next_gap(ctx),
            RepertoireCommand::TrainThis => self.train_this(ctx),
            RepertoireCommand::ToggleTrainChapter(i) => self.toggle_train_chapter(i, ctx),
            RepertoireCommand::GapsFromExplorer(on) => ctx.settings.repertoire_explorer = on,
            RepertoireCommand::Choose(what) => ctx.notify(Notice::ChooseRepertoireFile(what)),
            command => {
                let before = self.editor.file().map(|f| f.path().to_owned());
                let writes = self.editor.writes;
                let save_as = matches!(command, RepertoireCommand::SaveAs(_));
                self.editor.apply(command);
                let path = self.editor.file().map(|f| f.path().to_owned());
                if self.editor.writes != writes {
                    self.read_saved_again(ctx);
                    // A file saved under a new name is one to find again.
                    if let (true, Some(path)) = (save_as, &path) {
                        ctx.settings.remember_recent(path);
                    }
                }
                if path != before {
                    // Another file: the drill no longer trains the last one's subtree.
                    self.stop_training(ctx);
                }
                if path.is_some() {
                    ctx.settings.repertoire_file = path;
                }
            }
        }
        self.sync_chapter_sides(ctx);
        ctx.request_repaint();
    }

    /// After a save: where the book has the file loaded, it reads it again (in the
    /// background), so the drill and the Coverage tab use the saved version.
    fn read_saved_again(&self, ctx: &mut Context) {
        let Some(path) = self.editor.file().map(|f| f.path().to_owned()) else {
            return;
        };
        let Some(loaded) = ctx.workspace.file(&path) else {
            return;
        };
        let mode = match loaded.mode {
            crate::book::ImportMode::Repertoire => crate::workspace::FileMode::Repertoire,
            crate::book::ImportMode::Games => crate::workspace::FileMode::Games,
            crate::book::ImportMode::Auto => crate::workspace::FileMode::Auto,
        };
        ctx.workspace.open(vec![path], mode);
    }

    /// Opens the file the repertoire editor had at the last run (asking first when it has
    /// unsaved edits).
    pub(crate) fn reopen(&mut self, ctx: &mut Context) {
        let Some(path) = ctx.settings.repertoire_file.clone() else {
            return;
        };
        if path.exists() {
            self.editor.open(&path);
            self.resume_training(&path, ctx);
        } else {
            self.editor.set_message(format!(
                "The repertoire open last time, {}, is not there any more.",
                path.display()
            ));
        }
    }

    /// Shows the file at the position after `moves` (from the standard start) and
    /// asks the window for the Repertoire tab, when a file is open.
    pub(crate) fn show_moves(&mut self, moves: Vec<shakmaty::Move>, ctx: &mut Context) {
        if self.editor.file().is_some() {
            self.apply(RepertoireCommand::GoToMoves(moves), ctx);
            ctx.notify(Notice::ShowRepertoire);
        }
    }
}
