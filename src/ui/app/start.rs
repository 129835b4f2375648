//! How the window starts: the files of the command line loaded, and the screenshot
//! mode (`hastings --screenshot`) set up as its options ask.

use std::path::PathBuf;
use std::sync::Arc;

use eframe::egui;
use shakmaty::Move;

use super::{LeftTab, TrainerApp};
use crate::book::PositionGraph;
use crate::coach::board_look::BoardLook;
use crate::coach::explorer::{ExplorerCommand, ExplorerSource};
use crate::coach::play_on::PlayOnCommand;
use crate::coach::repertoire::RepertoireCommand;
use crate::coach::settings::Settings;
use crate::ui::command::Command;
use crate::ui::screenshot::ScreenshotPlan;
use crate::ui::sounds::SoundPlayer;
use crate::ui::timings::Timings;

impl TrainerApp {
    /// Sets the window up as `hastings --screenshot` starts it: `moves` shown, the
    /// tab, the exploration started.
    pub(in crate::ui) fn set_up_screenshot(
        &mut self,
        moves: &[Move],
        tab: Option<&str>,
        progress_file: Option<PathBuf>,
        plan: ScreenshotPlan,
    ) {
        self.coach.show_moves(moves);
        if tab == Some("progress") {
            self.coach.show_review_progress(progress_file.clone());
            self.left_tab = LeftTab::Progress;
        }
        if matches!(tab, Some("play-on" | "play-on-settings" | "play-on-saved")) {
            self.coach.ctx.screenshot = true;
            self.coach.show_play_on();
        }
        if tab == Some("start") {
            self.show_welcome();
        }
        if matches!(tab, Some("learn" | "review-session")) {
            // Review mode on the review log beside the progress file (as `progress`).
            self.coach.show_review_progress(progress_file.clone());
        }
        if tab == Some("find-opening") {
            self.opening_search.show_typed("Najdorf");
        }
        self.coach.ctx.screenshot = true;
        self.screenshot = Some(plan);
        self.coach.start_explore();
    }

    /// Loads the files given on the command line (`options.files`), as the window
    /// starts: in the Book tab; for a screenshot of a tab, loaded to the end first.
    pub(in crate::ui) fn open_at_start(
        &mut self,
        ctx: &egui::Context,
        files: Vec<PathBuf>,
        tab: Option<&str>,
    ) {
        let shot = self.screenshot.is_some();
        if shot && matches!(tab, Some("play-on-settings" | "play-on-saved")) {
            let open = egui::Id::unique(crate::ui::play_on_settings::OPEN_SETTINGS);
            ctx.data_mut(|d| d.insert_temp(open, true));
        }
        if shot && tab == Some("play-on-saved") {
            // Saved where "Save PGN…" saves by default (the documents folder): the panel
            // as a user sees it after a game, its notice with the file's whole path.
            let dir = crate::workspace::save_dir::save_dir();
            let path = crate::workspace::save_dir::save_path_in(
                std::path::Path::new("play-on.pgn"),
                dir.as_deref(),
            );
            self.apply(ctx, Command::PlayOn(PlayOnCommand::SaveTo(path)));
        }
        if tab == Some("explorer") || tab == Some("explorer-game") {
            // The files are explorer indexes (NAME.explorer folders).
            for dir in files {
                self.apply(ctx, Command::Explorer(ExplorerCommand::Open(dir)));
            }
            // An index with player trees: the first player's, as the learner's opponent.
            let opponent = !self.coach.session().learner();
            let player =
                self.coach.explorer().sources().into_iter().find(
                    |s| matches!(s, ExplorerSource::Player { color, .. } if *color == opponent),
                );
            if let Some(source) = player {
                self.apply(ctx, Command::Explorer(ExplorerCommand::SetSource(source)));
            }
            self.left_tab = LeftTab::Explorer;
            if tab == Some("explorer-game") {
                // The position's first top game, open in its window.
                self.coach.logic();
                self.apply(ctx, Command::Explorer(ExplorerCommand::OpenGame(0)));
                self.coach.finish_explorer_game();
            }
            return;
        }
        if tab == Some("repertoire") {
            // The file open in the repertoire editor, at the moves, its gaps worked out.
            if let Some(path) = files.into_iter().next() {
                self.apply(ctx, Command::Repertoire(RepertoireCommand::Open(path)));
            }
            let moves = self.coach.session().moves().iter().map(|m| m.mv).collect();
            self.apply(
                ctx,
                Command::Repertoire(RepertoireCommand::GoToMoves(moves)),
            );
            self.left_tab = LeftTab::Repertoire;
            self.coach.repertoire_mut().set_shown(true);
            self.coach.finish_repertoire_gaps();
            return;
        }
        if !files.is_empty() {
            self.left_tab = LeftTab::Book;
            let check = tab == Some("check");
            let review = matches!(tab, Some("learn" | "review-session"));
            let coverage =
                shot && (tab == Some("coverage") || check || review || tab == Some("repertoires"));
            // The coverage of a repertoire, My repertoires: the files alone, read as a
            // repertoire.
            let mode = if coverage {
                crate::workspace::FileMode::Repertoire
            } else {
                crate::workspace::FileMode::Auto
            };
            if shot && review {
                // The learner's side said beforehand: no question over the board.
                let side = crate::book::Side::from(self.coach.session().learner());
                self.apply(ctx, Command::RepertoireFor(side));
            }
            self.apply(ctx, Command::Import(files, mode));
            if shot && tab.is_some() {
                // A screenshot of a tab shows the tab, not the import report.
                self.coach.finish_loading();
                self.apply(ctx, Command::CloseReport);
            }
            if coverage {
                let mut choice = self.coach.workspace().choice().clone();
                choice.eco = false;
                self.apply(ctx, Command::SetBook(choice));
                self.coach.finish_loading();
            }
            if coverage && check {
                // The engine check run to the end, its section scrolled into view.
                self.apply(ctx, Command::CheckRepertoire);
                self.coach.check_state_mut().finish();
            }
        }
        if shot && tab == Some("learn") {
            self.apply(ctx, Command::LearnNewLines);
        }
        if shot && tab == Some("review-session") {
            let open = egui::Id::unique(crate::ui::review_session::OPEN_SESSION_MENU);
            ctx.data_mut(|d| d.insert_temp(open, true));
        }
        match tab {
            Some("coverage" | "check") => self.left_tab = LeftTab::Coverage,
            Some("book") => self.left_tab = LeftTab::Book,
            Some("style" | "blindfold") => self.left_tab = LeftTab::Style,
            Some("repertoires") => self.left_tab = LeftTab::Repertoires,
            _ => {}
        }
    }
}

/// How the window starts (`hastings` with its options).
pub(in crate::ui) struct Start {
    pub(in crate::ui) graph: Arc<PositionGraph>,
    /// `--screenshot`: the moves to show, the board's look and the plan.
    pub(in crate::ui) screenshot: Option<(Vec<Move>, BoardLook, ScreenshotPlan)>,
    /// The progress file (none for a screenshot, or when another window holds the
    /// data folder).
    pub(in crate::ui) progress_file: Option<PathBuf>,
    /// The settings file (none for a screenshot); read by every window, written only by
    /// the one that holds the data folder.
    pub(in crate::ui) settings_file: Option<PathBuf>,
    /// Whether this window holds the data folder (it saves its settings too).
    pub(in crate::ui) writable: bool,
    /// What to tell the learner at start (another window holds the data folder).
    pub(in crate::ui) notice: Option<String>,
    /// Files to load at start.
    pub(in crate::ui) files: Vec<PathBuf>,
    /// The tab to show.
    pub(in crate::ui) tab: Option<String>,
    /// `HASTINGS_TIMINGS`.
    pub(in crate::ui) timings: Option<Timings>,
}

/// The app as eframe creates it: the settings from eframe's storage (or the screenshot's
/// defaults), the files of the command line loading.
pub(in crate::ui) fn start(cc: &eframe::CreationContext<'_>, start: Start) -> Box<dyn eframe::App> {
    let tab = start.tab.as_deref();
    let mut app = match start.screenshot {
        Some((moves, board_look, plan)) => {
            let mut settings = Settings {
                board_look,
                // The Explorer tab's screenshot shows the moves at the learner's turn.
                hide_answer: !matches!(tab, Some("explorer" | "explorer-game")),
                // Blindfold training: the pieces gone after move 1, the Style tab's setting.
                hide_pieces: tab == Some("blindfold"),
                hide_pieces_after: 1,
                ..Settings::default()
            };
            // What a new user's window has (`TrainerApp::restore`).
            settings.book.migrate_popularity();
            let mut app = TrainerApp::new(start.graph, settings);
            let log_beside = crate::workspace::data_dir::progress_path();
            app.set_up_screenshot(&moves, tab, log_beside, plan);
            app
        }
        None => {
            let mut app = TrainerApp::restore(
                start.graph,
                cc.storage,
                start.settings_file,
                start.progress_file,
            );
            app.sounds = SoundPlayer::new();
            app
        }
    };
    app.persist = start.writable;
    app.open_at_start(&cc.egui_ctx, start.files, tab);
    if let Some(notice) = start.notice {
        app.apply(&cc.egui_ctx, Command::Message(notice));
    }
    app.timings = start.timings;
    Box::new(app)
}
