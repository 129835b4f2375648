//! Carrying out what the user asked for: the [`Command`]s the panels collected, and the
//! actions behind buttons and shortcuts.

use std::sync::Arc;

use shakmaty::{Move, Position};

use super::command::{Action, Command};
use super::explore::ExploreRun;
use super::format::count;
use super::report::ReportView;
use super::settings::{Orientation, Settings, Side};
use super::sounds::Sound;
use super::{Coach, Notice};
use crate::sampler::profile::{Provenance, StyleProfile};
use crate::trainer::{MoveOutcome, Phase, Session};
use crate::workspace::FileMode;
use crate::workspace::export::write_pgn_file;
use crate::workspace::profiles::{ProfileFileError, load_profile, save_profile};

impl Coach {
    // ----- commands -----

    /// Whether `action` can be used now (its button is enabled, its shortcut works).
    pub fn is_enabled(&self, action: Action) -> bool {
        let phase = self.session.phase();
        let viewing = self.session.viewing().is_some();
        if let Some(run) = self.play_on() {
            // The drill waits while the learner plays on; take back is the game's.
            // ← (one move back) takes back there: the game has no earlier positions to show.
            return match action {
                Action::NewLine | Action::Flip | Action::Open | Action::Quit => true,
                Action::TakeBack | Action::StepBack => {
                    run.game().played().iter().any(|m| m.by_learner)
                }
                _ => false,
            };
        }
        match action {
            Action::NewLine | Action::Flip | Action::Explore | Action::Quit => true,
            Action::Open => true,
            Action::NewLineFromHere => !matches!(phase, Phase::OutOfBook { .. }),
            Action::NextLine => matches!(phase, Phase::EndOfLine { .. }),
            Action::TryAgain => matches!(phase, Phase::OutOfBook { .. }),
            Action::ShowMe => {
                !viewing && matches!(phase, Phase::OutOfBook { .. } | Phase::LearnerToMove)
            }
            Action::Hint => !viewing && matches!(phase, Phase::LearnerToMove),
            Action::TakeBack => {
                !viewing
                    && (matches!(phase, Phase::OutOfBook { .. })
                        || self.session.moves().iter().any(|m| m.by_learner))
            }
            Action::ContinueFromHere | Action::StepForward | Action::ToCurrent => viewing,
            Action::StepBack | Action::ToStart => self.shown_ply() > 0,
            Action::PlayOn => !matches!(phase, Phase::OutOfBook { .. }),
        }
    }

    fn new_seed(&mut self) {
        let seed = self.settings.fixed_seed().unwrap_or_else(rand::random);
        self.session.set_seed(seed);
    }

    /// Carries out one command.
    pub fn apply(&mut self, command: Command) {
        if command.restarts_drill() {
            self.end_play_on();
        }
        match command {
            Command::Action(action) => self.apply_action(action),
            Command::MoveEntry(c) => self.apply_move_entry(c),
            Command::Play(mv) => {
                self.last_reply = None;
                let before = self.session.position().clone();
                let outcome = match self.review_play(mv) {
                    Some(outcome) => outcome,
                    None => self.session.play(mv),
                };
                if !matches!(outcome, MoveOutcome::Rejected) {
                    let mistake = matches!(outcome, MoveOutcome::OutOfBook);
                    self.progress
                        .progress_mut()
                        .record_attempt(&before, mistake);
                }
                match outcome {
                    MoveOutcome::Accepted { .. } => self.drill_move_sound(),
                    MoveOutcome::OutOfBook => self.sound(Sound::Mistake),
                    MoveOutcome::Rejected => {}
                }
                self.message = match outcome {
                    MoveOutcome::Accepted { .. } | MoveOutcome::OutOfBook => None,
                    MoveOutcome::Rejected => Some("That move cannot be played now.".to_owned()),
                };
            }
            Command::OpenFiles(paths) => {
                let pgn = self.open_files(paths);
                if !pgn.is_empty() {
                    self.notify(Notice::AskHowToRead(pgn));
                }
            }
            Command::Import(paths, mode) => {
                self.notify(Notice::CloseHowToRead);
                self.workspace.open(paths, mode);
            }
            Command::CancelOpen => self.notify(Notice::CloseHowToRead),
            Command::CancelImport => self.workspace.cancel_import(),
            Command::SetBook(choice) => self.workspace.set_choice(choice),
            Command::RepertoireSide(path, side) => self.answer_side(path, side),
            Command::RepertoireFor(side) => self.repertoire_for(side),
            Command::SetPastBook(plies) => {
                self.settings.past_book_plies = plies;
                self.sync_books();
            }
            Command::RemoveFile(path) => self.workspace.remove(&path),
            Command::ShowReport(path) => {
                if let Some(f) = self.workspace.file(&path) {
                    self.report = Some(ReportView::of_report(f.path.clone(), f.report.clone()));
                }
            }
            Command::CloseReport => self.report = None,
            Command::Export(what) => match self.export_lines(what) {
                Ok((lines, name)) => self.notify(Notice::ExportAs(lines, name)),
                Err(e) => self.message = Some(format!("Cannot export: {e}.")),
            },
            Command::CopyPgn => self.copy_pgn(),
            Command::Message(text) => self.message = Some(text),
            Command::DrillAt(moves, book) => self.drill_at(&moves, book),
            Command::CheckRepertoire => self.start_check(),
            Command::CancelCheck => self.check.cancel(),
            Command::BackToRepertoire => self.back_to_repertoire(),
            Command::CheckGames => self.notify(Notice::ChooseGames),
            Command::RecordDeviations => self.record_deviations(),
            Command::AddAnswer(moves) => self.add_answer(&moves),
            Command::CompareGames(path) => self.check_games(path),
            Command::PlayOn(c) => self.apply_play_on(c),
            Command::Explorer(c) => self.apply_explorer(c),
            Command::Workshop(c) => self.apply_workshop(c),
            Command::Verdict(c) => self.apply_verdict(c),
            Command::ShowPly(ply) => self.session.view(ply),
            Command::ShowCurrent => self.session.view(self.session.moves().len()),
            Command::SetLearner(color) => {
                self.settings.learner = Side::from(color);
                self.sync_drilled_side();
                self.orientation = Orientation::from_color(color);
                self.settings.orientation = Some(self.orientation);
                self.new_seed();
                let mode = self.drill_mode();
                self.set_drill_mode(super::review::DrillMode::Free);
                self.session.set_learner(color);
                // A review session's cards are the new colour's.
                self.set_drill_mode(mode);
                self.last_reply = None;
                self.message = None;
            }
            Command::SetDrillMode(mode) => {
                self.set_drill_mode(mode);
                // Remembered for the next start (what could be switched on).
                self.settings.drill_mode = self.drill_mode();
            }
            Command::GotIt => self.review_learned(),
            Command::Easy => self.review_easy(),
            Command::Optimize => self.start_optimize(),
            Command::DrillFrom(moves) => {
                self.stop_workshop_training();
                // The learner plays the side to move there (the moves start from the
                // standard position), as when the position was missed.
                let turn = if moves.len() % 2 == 0 {
                    shakmaty::Color::White
                } else {
                    shakmaty::Color::Black
                };
                if turn != self.session.learner() {
                    self.apply(Command::SetLearner(turn));
                }
                self.last_reply = None;
                if self.session.start_after(&moves).is_err() {
                    self.message = Some("That position is not in the book.".to_owned());
                }
            }
            Command::SetStyle(style) => {
                self.settings.style = style.clone();
                self.session.set_style(style);
            }
            Command::ChooseProfile { play_like } => {
                self.notify(Notice::ChooseProfile { play_like });
            }
            Command::LoadProfile { path, add_games } => {
                if let Err(e) = self.load_profile(&path, add_games) {
                    self.message = Some(format!("{e}. The style is unchanged."));
                }
            }
            Command::SaveProfile => {
                let name = self
                    .profile
                    .as_ref()
                    .filter(|p| p.style == self.settings.style)
                    .map_or_else(|| "My style".to_owned(), |p| p.name.clone());
                // The popularity in use goes with the style: loading the profile
                // brings both back.
                let profile = StyleProfile {
                    popularity: self.workspace.choice().popularity,
                    ..StyleProfile::manual(&name, self.settings.style.clone())
                };
                self.notify(Notice::SaveProfileAs(Box::new(profile)));
            }
            Command::AddProfileGames => self.add_profile_games(),
            Command::SetAdaptive(on) => {
                self.settings.adaptive = on;
                self.adapt_style();
            }
            Command::SetSettings(settings) => self.set_settings(*settings),
            Command::SetCoverage(params) => self.coverage.params = params,
            Command::MakeBook { inputs, output } => {
                let wake = self.wake();
                self.make_book.start(inputs, output, wake);
            }
            Command::CancelMakeBook => self.make_book.cancel(),
            Command::SaveLines(lines, path) => {
                self.message = Some(match write_pgn_file(&lines, &path) {
                    Ok(games) => format!("Saved {} games to {}.", count(games), path.display()),
                    Err(e) => format!("Cannot export to {}: {e}.", path.display()),
                });
            }
            Command::SaveProfileTo(profile, path) => {
                self.message = Some(match save_profile(&path, &profile) {
                    Ok(()) => format!("Saved the style profile to {}.", path.display()),
                    Err(e) => format!("Cannot save the profile: {e}."),
                });
            }
        }
        self.settings.book = self.workspace.choice().clone();
        self.request_repaint();
    }

    /// Takes the settings a panel edited: the plain choices as they are; a changed
    /// style, colour, orientation, play past the book or adaptive opponent as its own
    /// command would carry it out. The book's sources stay the workspace's.
    fn set_settings(&mut self, new: Settings) {
        let old = std::mem::replace(&mut self.settings, new);
        self.settings.book = old.book.clone();
        self.settings.drill_mode = old.drill_mode;
        if self.settings.orientation != old.orientation
            && let Some(o) = self.settings.orientation
        {
            self.orientation = o;
        }
        if self.settings.style != old.style {
            let style = self.settings.style.clone();
            self.settings.style = old.style.clone();
            self.apply(Command::SetStyle(style));
        }
        if self.settings.learner != old.learner {
            let learner = self.settings.learner;
            self.settings.learner = old.learner;
            self.apply(Command::SetLearner(learner.into()));
        }
        if self.settings.past_book_plies != old.past_book_plies {
            self.sync_books();
        }
        if self.settings.adaptive != old.adaptive {
            self.adapt_style();
        }
        if self.settings.review_at_position != old.review_at_position {
            let lead_in = self.settings.review_at_position.then_some(0);
            self.with_drill(|d| d.set_lead_in(lead_in));
        }
        if self.settings.play_on != old.play_on {
            let play_on = self.settings.play_on.clone();
            self.settings.play_on = old.play_on;
            self.apply_play_on(super::play_on::PlayOnCommand::Settings(play_on));
        }
    }

    /// The ply of the position shown: the one viewed, else the current one.
    fn shown_ply(&self) -> usize {
        self.session.viewing().unwrap_or(self.session.moves().len())
    }

    fn apply_action(&mut self, action: Action) {
        if !self.is_enabled(action) {
            return;
        }
        // Stepping through the moves only changes the position shown.
        if !self.play_on.is_active() {
            let shown = self.shown_ply();
            let ply = match action {
                Action::StepBack => Some(shown.saturating_sub(1)),
                Action::StepForward => Some(shown + 1),
                Action::ToStart => Some(0),
                Action::ToCurrent => Some(self.session.moves().len()),
                _ => None,
            };
            if let Some(ply) = ply {
                self.session.view(ply);
                return;
            }
        }
        self.message = None;
        if self.play_on.is_active() {
            match action {
                Action::TakeBack | Action::StepBack => {
                    return self.apply_play_on(super::play_on::PlayOnCommand::TakeBack);
                }
                Action::NewLine => self.end_play_on(),
                _ => {}
            }
        }
        match action {
            Action::NextLine if self.alternates_sides() => {
                // A mixed study: the other side's chapters come next.
                let other = self.session.learner().other();
                self.apply(Command::SetLearner(other));
            }
            Action::NewLine | Action::NextLine => {
                self.new_seed();
                if !self.review_next_line() {
                    // "Train this" in the Repertoire tab: each line starts at its node.
                    let restarted = match self.workshop_gaps.train_root.clone() {
                        Some(root) => {
                            self.take_workshop_edits();
                            self.session.start_after(&root).is_ok()
                        }
                        None => false,
                    };
                    if !restarted {
                        self.session.new_line();
                    }
                }
                self.last_reply = None;
            }
            Action::NewLineFromHere => {
                self.new_seed();
                self.session.new_line_from_here();
                self.last_reply = None;
            }
            Action::TryAgain => self.session.try_again(),
            Action::ShowMe => {
                self.last_reply = None;
                let outcome = match self.review_show_me() {
                    Some(outcome) => outcome,
                    None => self.session.show_me(),
                };
                if let Some(MoveOutcome::Accepted { san, .. }) = outcome {
                    self.message = Some(format!("The book plays {san}."));
                    if let Some(m) = self.session.moves().last() {
                        self.animate(m.mv);
                    }
                    self.drill_move_sound();
                }
            }
            Action::Hint => {
                let hinted = match self.review_hint() {
                    Some(hinted) => hinted,
                    None => self.session.ask_hint().is_some(),
                };
                if !hinted {
                    self.message = Some("No hint here.".to_owned());
                }
            }
            Action::TakeBack => {
                self.session.take_back();
                self.last_reply = None;
            }
            Action::Flip => {
                self.orientation = self.orientation.flipped();
                self.settings.orientation = Some(self.orientation);
            }
            Action::Open => self.notify(Notice::ChooseFiles),
            Action::ContinueFromHere => {
                self.session.continue_from_here();
                self.last_reply = None;
            }
            Action::Explore => self.start_explore(),
            Action::PlayOn => self.start_play_on(),
            Action::Quit => self.notify(Notice::Close),
            // Carried out above (in the drill) or disabled (playing on).
            Action::StepBack | Action::StepForward | Action::ToStart | Action::ToCurrent => {}
        }
    }

    /// Loads the style profile at `path` and uses its style; with `add_games`, the games
    /// of a fitted profile are added to the book as a game collection ("Play like …").
    ///
    /// # Errors
    ///
    /// [`ProfileFileError`] (file, line, column, why) when the file is not a profile;
    /// nothing changes then.
    pub fn load_profile(
        &mut self,
        path: &std::path::Path,
        add_games: bool,
    ) -> Result<(), ProfileFileError> {
        let profile = load_profile(path)?;
        self.settings.style = profile.style.clone();
        self.session.set_style(profile.style.clone());
        // A fitted blend comes with the profile (its book: the loaded ones, else gnuchess).
        if self.workspace.choice().popularity != profile.popularity {
            let mut choice = self.workspace.choice().clone();
            choice.popularity = profile.popularity;
            self.workspace.set_choice(choice);
        }
        self.message = Some(format!("Playing with the profile {}.", profile.name));
        self.profile = Some(profile);
        if add_games {
            self.add_profile_games();
        }
        Ok(())
    }

    /// Adds the games of the loaded fitted profile to the book (read as a collection).
    fn add_profile_games(&mut self) {
        let Some(Provenance::Fitted(fit)) = self.profile.as_ref().map(|p| &p.provenance) else {
            return;
        };
        let path = std::path::PathBuf::from(&fit.games);
        if path.is_file() {
            self.workspace.open(vec![path], FileMode::Games);
        } else {
            self.message = Some(format!(
                "{}'s games ({}) are not there any more; only the style was loaded.",
                fit.player, fit.games
            ));
        }
    }

    /// Starts sampling lines from the position shown on a background thread.
    pub fn start_explore(&mut self) {
        if let Some(run) = self.explore.take() {
            run.cancel();
        }
        let ply = self.session.viewing().unwrap_or(self.session.moves().len());
        let pos = self.session.position_at(ply).clone();
        let Some(node) = self.graph.lookup(&pos) else {
            self.message = Some("This position is not in the book.".to_owned());
            return;
        };
        let key = self.chart_key(ply);
        let seed = self.settings.fixed_seed().unwrap_or_else(rand::random);
        let limits = crate::sampler::ExploreLimits {
            iterations: self.settings.iterations.max(1),
            ply_limit: self.settings.ply_limit.max(1),
        };
        let start = super::explore::ExploreStart {
            graph: Arc::clone(&self.graph),
            node,
            pos,
            style: self.session.style().clone(),
            s_prev: self.session.s_prev_at(ply),
            limits,
            seed,
        };
        match ExploreRun::start(self.wake(), key, start) {
            Ok(run) => self.explore = Some(run),
            Err(e) => self.message = Some(format!("Cannot start the exploration: {e}")),
        }
    }

    /// Sets up the drill to show `moves` (for the screenshot): the learner plays the
    /// side to move after them, so no reply is pending; seed 1, book arrows on, no
    /// animation, the chart shown. When only the last move leaves the book, the learner
    /// plays it after the others: the board shows it out of book, with its verdict.
    pub fn show_moves(&mut self, moves: &[Move]) {
        // Only the last move leaves the book (or is illegal: then it is refused).
        let last_leaves = matches!(
            Session::from_moves(
                Arc::clone(&self.graph),
                shakmaty::Color::White,
                self.settings.style.clone(),
                1,
                moves,
            ),
            Err(i) if i + 1 == moves.len()
        );
        let (given, attempt) = match moves.split_last() {
            Some((&last, given)) if last_leaves => (given, Some(last)),
            _ => (moves, None),
        };
        let mut pos = shakmaty::Chess::default();
        for &mv in given {
            pos.play_unchecked(mv);
        }
        let learner = pos.turn();
        self.settings.learner = Side::from(learner);
        self.settings.seed = "1".to_owned();
        self.settings.reply_delay_ms = 0;
        self.settings.show_arrows = true;
        self.settings.animate_moves = false;
        self.orientation = Orientation::from_color(learner);
        match Session::from_moves(
            Arc::clone(&self.graph),
            learner,
            self.settings.style.clone(),
            1,
            given,
        ) {
            Ok(session) => {
                self.session = session;
                self.sync_books();
                if let Some(mv) = attempt {
                    self.session.play(mv);
                }
            }
            Err(i) => {
                self.message = Some(format!(
                    "Move {} of --moves leaves the book; showing the start.",
                    i + 1
                ));
            }
        }
    }
}
