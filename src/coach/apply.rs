//! Carrying out what the user asked for: the [`Command`]s the panels collected, and the
//! actions behind buttons and shortcuts.

use std::sync::Arc;

use shakmaty::{Move, Position};

use super::command::{Action, Command};
use super::format::count;
use super::settings::{Orientation, Settings, Side};
use super::sounds::Sound;
use super::{Coach, Notice, jobs};
use crate::sampler::profile::{Provenance, StyleProfile};
use crate::trainer::{MoveOutcome, Phase, Session};
use crate::workspace::FileMode;
use crate::workspace::export::write_pgn_file;
use crate::workspace::profiles::{ProfileFileError, load_profile, save_profile};

impl Coach {
    // ----- commands -----

    /// Whether `action` can be used now (its button is enabled, its shortcut works).
    pub fn is_enabled(&self, action: Action) -> bool {
        let phase = self.ctx.session.phase();
        let viewing = self.ctx.session.viewing().is_some();
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
                        || self.ctx.session.moves().iter().any(|m| m.by_learner))
            }
            Action::ContinueFromHere | Action::StepForward | Action::ToCurrent => viewing,
            Action::StepBack | Action::ToStart => self.shown_ply() > 0,
            Action::PlayOn => !matches!(phase, Phase::OutOfBook { .. }),
        }
    }

    fn new_seed(&mut self) {
        let seed = self.ctx.settings.fixed_seed().unwrap_or_else(rand::random);
        self.ctx.session.set_seed(seed);
    }

    /// Carries out one command (the events it sends are the caller's to carry out).
    pub(super) fn apply_command(&mut self, command: Command) {
        self.share_explorer_games();
        if command.restarts_drill() {
            self.play_on.end();
        }
        match command {
            Command::Action(action) => self.apply_action(action),
            Command::MoveEntry(c) => {
                let at = self.entry_position();
                self.drill.move_entry.apply(c, &mut self.ctx, at);
            }
            Command::Play(mv) => {
                self.ctx.last_reply = None;
                let before = self.ctx.session.position().clone();
                let outcome = match self.review.play(mv, &mut self.ctx) {
                    Some(outcome) => outcome,
                    None => self.ctx.session.play(mv),
                };
                if !matches!(outcome, MoveOutcome::Rejected) {
                    let mistake = matches!(outcome, MoveOutcome::OutOfBook);
                    self.ctx
                        .progress
                        .progress_mut()
                        .record_attempt(&before, mistake);
                }
                match outcome {
                    MoveOutcome::Accepted { .. } => self.ctx.drill_move_sound(),
                    MoveOutcome::OutOfBook => self.ctx.sound(Sound::Mistake),
                    MoveOutcome::Rejected => {}
                }
                self.ctx.message = match outcome {
                    MoveOutcome::Accepted { .. } | MoveOutcome::OutOfBook => None,
                    MoveOutcome::Rejected => Some("That move cannot be played now.".to_owned()),
                };
            }
            Command::OpenFiles(paths) => {
                let pgn = self.open_files(paths);
                if !pgn.is_empty() {
                    self.ctx.notify(Notice::AskHowToRead(pgn));
                }
            }
            Command::Import(paths, mode) => {
                self.ctx.notify(Notice::CloseHowToRead);
                self.ctx.workspace.open(paths, mode);
            }
            Command::CancelOpen => self.ctx.notify(Notice::CloseHowToRead),
            Command::CancelImport => self.ctx.workspace.cancel_import(),
            Command::SetBook(choice) => self.ctx.workspace.set_choice(choice),
            Command::RepertoireSide(path, side) => {
                self.style.sides.answer_side(path, side, &mut self.ctx);
            }
            Command::RepertoireFor(side) => self.style.sides.repertoire_for(side),
            Command::SetPastBook(plies) => {
                self.ctx.settings.past_book_plies = plies;
                self.sync_books();
            }
            Command::RemoveFile(path) => self.ctx.workspace.remove(&path),
            Command::ShowReport(path) => self.book.show_report(&path, &self.ctx),
            Command::CloseReport => self.book.close_report(),
            Command::Export(what) => match super::book::export_lines(what, &self.ctx) {
                Ok((lines, name)) => self.ctx.notify(Notice::ExportAs(lines, name)),
                Err(e) => self.ctx.message = Some(format!("Cannot export: {e}.")),
            },
            Command::CopyPgn if self.play_on.is_active() => {
                self.play_on
                    .apply(super::play_on::PlayOnCommand::CopyPgn, &mut self.ctx);
            }
            Command::CopyPgn => super::book::copy_line(&mut self.ctx),
            Command::Message(text) => self.ctx.message = Some(text),
            Command::DrillAt(moves, book) => self.coverage.drill_at(&moves, book, &mut self.ctx),
            Command::CheckRepertoire => {
                let depth = self.ctx.coverage_params.depth;
                self.check.start(depth, &mut self.ctx);
            }
            Command::CancelCheck => self.check.cancel(),
            Command::BackToRepertoire => self.coverage.back_to_repertoire(&mut self.ctx),
            Command::CheckGames => self.ctx.notify(Notice::ChooseGames),
            Command::RecordDeviations => self.coverage.record_deviations(&mut self.ctx),
            Command::AddAnswer(moves) => self.coverage.add_answer(&moves, &mut self.ctx),
            Command::CompareGames(path) => self.coverage.check_games(path, &mut self.ctx),
            Command::PlayOn(c) => self.play_on.apply(c, &mut self.ctx),
            Command::Explorer(c) => self.explorer.apply(c, &mut self.ctx),
            Command::Repertoire(c) => self.repertoire.apply(c, &mut self.ctx),
            Command::Verdict(c) => self.verdict.apply(c, &mut self.ctx),
            Command::ShowPly(ply) => self.ctx.session.view(ply),
            Command::ShowCurrent => self.ctx.session.view(self.ctx.session.moves().len()),
            Command::SetLearner(color) => {
                self.ctx.settings.learner = Side::from(color);
                super::style::sides::sync_drilled_side(&mut self.ctx);
                self.ctx.orientation = Orientation::from_color(color);
                self.ctx.settings.orientation = Some(self.ctx.orientation);
                self.new_seed();
                let mode = self.review.drill_mode();
                self.review
                    .set_drill_mode(super::review::DrillMode::Free, &mut self.ctx);
                self.ctx.session.set_learner(color);
                // A review session's cards are the new colour's.
                self.review.set_drill_mode(mode, &mut self.ctx);
                self.ctx.last_reply = None;
                self.ctx.message = None;
            }
            Command::SetDrillMode(mode) => {
                self.review.set_drill_mode(mode, &mut self.ctx);
                // Remembered for the next start (what could be switched on).
                self.ctx.settings.drill_mode = self.review.drill_mode();
            }
            Command::GotIt => self.review.learned(&mut self.ctx),
            Command::Easy => self.review.easy(&mut self.ctx),
            Command::Optimize => {
                self.review.optimize(&self.ctx);
            }
            Command::DrillFrom(moves) => {
                self.repertoire.stop_training(&mut self.ctx);
                // The learner plays the side to move there (the moves start from the
                // standard position), as when the position was missed.
                let turn = if moves.len() % 2 == 0 {
                    shakmaty::Color::White
                } else {
                    shakmaty::Color::Black
                };
                if turn != self.ctx.session.learner() {
                    self.apply(Command::SetLearner(turn));
                }
                self.ctx.last_reply = None;
                if self.ctx.session.start_after(&moves).is_err() {
                    self.ctx.message = Some("That position is not in the book.".to_owned());
                }
            }
            Command::SetStyle(style) => {
                self.ctx.settings.style = style.clone();
                self.ctx.session.set_style(style);
            }
            Command::ChooseProfile { play_like } => {
                self.ctx.notify(Notice::ChooseProfile { play_like });
            }
            Command::LoadProfile { path, add_games } => {
                if let Err(e) = self.load_profile(&path, add_games) {
                    self.ctx.message = Some(format!("{e}. The style is unchanged."));
                }
            }
            Command::SaveProfile => {
                let name = self
                    .style
                    .profile
                    .as_ref()
                    .filter(|p| p.style == self.ctx.settings.style)
                    .map_or_else(|| "My style".to_owned(), |p| p.name.clone());
                // The popularity in use goes with the style: loading the profile
                // brings both back.
                let profile = StyleProfile {
                    popularity: self.ctx.workspace.choice().popularity,
                    ..StyleProfile::manual(&name, self.ctx.settings.style.clone())
                };
                self.ctx.notify(Notice::SaveProfileAs(Box::new(profile)));
            }
            Command::AddProfileGames => self.add_profile_games(),
            Command::SetAdaptive(on) => {
                self.ctx.settings.adaptive = on;
                self.adapt_style();
            }
            Command::SetSettings(settings) => self.set_settings(*settings),
            Command::SetCoverage(params) => self.ctx.coverage_params = params,
            Command::MakeBook { inputs, output } => {
                let make = jobs::JobsCommand::MakeBook { inputs, output };
                self.jobs.apply(make, &mut self.ctx);
            }
            Command::CancelMakeBook => {
                self.jobs
                    .apply(jobs::JobsCommand::CancelMakeBook, &mut self.ctx);
            }
            Command::SaveLines(lines, path) => {
                self.ctx.message = Some(match write_pgn_file(&lines, &path) {
                    Ok(games) => format!("Saved {} games to {}.", count(games), path.display()),
                    Err(e) => format!("Cannot export to {}: {e}.", path.display()),
                });
            }
            Command::SaveProfileTo(profile, path) => {
                self.ctx.message = Some(match save_profile(&path, &profile) {
                    Ok(()) => format!("Saved the style profile to {}.", path.display()),
                    Err(e) => format!("Cannot save the profile: {e}."),
                });
            }
        }
        self.ctx.settings.book = self.ctx.workspace.choice().clone();
        self.ctx.request_repaint();
    }

    /// Takes the settings a panel edited: the plain choices as they are; a changed
    /// style, colour, orientation, play past the book or adaptive opponent as its own
    /// command would carry it out. The book's sources stay the workspace's.
    fn set_settings(&mut self, new: Settings) {
        let old = std::mem::replace(&mut self.ctx.settings, new);
        self.ctx.settings.book = old.book.clone();
        self.ctx.settings.drill_mode = old.drill_mode;
        if self.ctx.settings.orientation != old.orientation
            && let Some(o) = self.ctx.settings.orientation
        {
            self.ctx.orientation = o;
        }
        if self.ctx.settings.style != old.style {
            let style = self.ctx.settings.style.clone();
            self.ctx.settings.style = old.style.clone();
            self.apply(Command::SetStyle(style));
        }
        if self.ctx.settings.learner != old.learner {
            let learner = self.ctx.settings.learner;
            self.ctx.settings.learner = old.learner;
            self.apply(Command::SetLearner(learner.into()));
        }
        if self.ctx.settings.past_book_plies != old.past_book_plies {
            self.sync_books();
        }
        if self.ctx.settings.adaptive != old.adaptive {
            self.adapt_style();
        }
        if self.ctx.settings.review_at_position != old.review_at_position {
            let lead_in = self.ctx.settings.review_at_position.then_some(0);
            self.review.set_lead_in(lead_in, &mut self.ctx);
        }
        if self.ctx.settings.play_on != old.play_on {
            let play_on = self.ctx.settings.play_on.clone();
            self.ctx.settings.play_on = old.play_on;
            self.play_on.apply(
                super::play_on::PlayOnCommand::Settings(play_on),
                &mut self.ctx,
            );
        }
    }

    /// The ply of the position shown: the one viewed, else the current one.
    fn shown_ply(&self) -> usize {
        self.ctx
            .session
            .viewing()
            .unwrap_or(self.ctx.session.moves().len())
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
                Action::ToCurrent => Some(self.ctx.session.moves().len()),
                _ => None,
            };
            if let Some(ply) = ply {
                self.ctx.session.view(ply);
                return;
            }
        }
        self.ctx.message = None;
        if self.play_on.is_active() {
            match action {
                Action::TakeBack | Action::StepBack => {
                    return self
                        .play_on
                        .apply(super::play_on::PlayOnCommand::TakeBack, &mut self.ctx);
                }
                Action::NewLine => self.play_on.end(),
                _ => {}
            }
        }
        match action {
            Action::NextLine if super::style::sides::alternates_sides(&self.ctx) => {
                // A mixed study: the other side's chapters come next.
                let other = self.ctx.session.learner().other();
                self.apply(Command::SetLearner(other));
            }
            Action::NewLine | Action::NextLine => {
                self.new_seed();
                if !self.review.next_line(&mut self.ctx) {
                    // "Train this" in the Repertoire tab: each line starts at its node.
                    let restarted = match self.repertoire.gaps.train_root.clone() {
                        Some(root) => {
                            self.repertoire.take_edits(&mut self.ctx);
                            self.ctx.session.start_after(&root).is_ok()
                        }
                        None => false,
                    };
                    if !restarted {
                        self.ctx.session.new_line();
                    }
                }
                self.ctx.last_reply = None;
            }
            Action::NewLineFromHere => {
                self.new_seed();
                self.ctx.session.new_line_from_here();
                self.ctx.last_reply = None;
            }
            Action::TryAgain => self.ctx.session.try_again(),
            Action::ShowMe => {
                self.ctx.last_reply = None;
                let outcome = match self.review.show_me(&mut self.ctx) {
                    Some(outcome) => outcome,
                    None => self.ctx.session.show_me(),
                };
                if let Some(MoveOutcome::Accepted { san, .. }) = outcome {
                    self.ctx.message = Some(format!("The book plays {san}."));
                    if let Some(m) = self.ctx.session.moves().last() {
                        self.ctx.animate(m.mv);
                    }
                    self.ctx.drill_move_sound();
                }
            }
            Action::Hint => {
                let hinted = match self.review.hint(&mut self.ctx) {
                    Some(hinted) => hinted,
                    None => self.ctx.session.ask_hint().is_some(),
                };
                if !hinted {
                    self.ctx.message = Some("No hint here.".to_owned());
                }
            }
            Action::TakeBack => {
                self.ctx.session.take_back();
                self.ctx.last_reply = None;
            }
            Action::Flip => {
                self.ctx.orientation = self.ctx.orientation.flipped();
                self.ctx.settings.orientation = Some(self.ctx.orientation);
            }
            Action::Open => self.ctx.notify(Notice::ChooseFiles),
            Action::ContinueFromHere => {
                self.ctx.session.continue_from_here();
                self.ctx.last_reply = None;
            }
            Action::Explore => self.sampled_lines.start(&mut self.ctx),
            Action::PlayOn => self.play_on.start(&mut self.ctx),
            Action::Quit => self.ctx.notify(Notice::Close),
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
        self.ctx.settings.style = profile.style.clone();
        self.ctx.session.set_style(profile.style.clone());
        // A fitted blend comes with the profile (its book: the loaded ones, else gnuchess).
        if self.ctx.workspace.choice().popularity != profile.popularity {
            let mut choice = self.ctx.workspace.choice().clone();
            choice.popularity = profile.popularity;
            self.ctx.workspace.set_choice(choice);
        }
        self.ctx.message = Some(format!("Playing with the profile {}.", profile.name));
        self.style.profile = Some(profile);
        if add_games {
            self.add_profile_games();
        }
        Ok(())
    }

    /// Adds the games of the loaded fitted profile to the book (read as a collection).
    fn add_profile_games(&mut self) {
        let Some(Provenance::Fitted(fit)) = self.style.profile.as_ref().map(|p| &p.provenance)
        else {
            return;
        };
        let path = std::path::PathBuf::from(&fit.games);
        if path.is_file() {
            self.ctx.workspace.open(vec![path], FileMode::Games);
        } else {
            self.ctx.message = Some(format!(
                "{}'s games ({}) are not there any more; only the style was loaded.",
                fit.player, fit.games
            ));
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
                Arc::clone(&self.ctx.graph),
                shakmaty::Color::White,
                self.ctx.settings.style.clone(),
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
        self.ctx.settings.learner = Side::from(learner);
        self.ctx.settings.seed = "1".to_owned();
        self.ctx.settings.reply_delay_ms = 0;
        self.ctx.settings.show_arrows = true;
        self.ctx.settings.animate_moves = false;
        self.ctx.orientation = Orientation::from_color(learner);
        match Session::from_moves(
            Arc::clone(&self.ctx.graph),
            learner,
            self.ctx.settings.style.clone(),
            1,
            given,
        ) {
            Ok(session) => {
                self.ctx.session = session;
                self.sync_books();
                if let Some(mv) = attempt {
                    self.ctx.session.play(mv);
                }
            }
            Err(i) => {
                self.ctx.message = Some(format!(
                    "Move {} of --moves leaves the book; showing the start.",
                    i + 1
                ));
            }
        }
    }

    /// Takes back the mistake counted for the move shown: the drill's count (review
    /// mode's card in review), the progress at the position; whether one was counted.
    pub(super) fn forgive_mistake(&mut self) -> bool {
        let before = self.ctx.session.position().clone();
        let forgiven = match self.review.forgive_mistake(&mut self.ctx) {
            Some(forgiven) => forgiven,
            None => self.ctx.session.forgive_mistake(),
        };
        if forgiven {
            self.ctx.progress.progress_mut().forgive_mistake(&before);
        }
        forgiven
    }

    /// Takes back the move outside the book and plays the book move `book` instead
    /// (graded in review mode: helped), saying `message` once it is played.
    pub(super) fn play_book_move_instead(&mut self, book: Move, message: String) {
        self.ctx.session.try_again();
        self.ctx.last_reply = None;
        let outcome = match self.review.play(book, &mut self.ctx) {
            Some(outcome) => outcome,
            None => self.ctx.session.play(book),
        };
        if let MoveOutcome::Accepted { .. } = outcome {
            self.ctx.message = Some(message);
            self.ctx.animate(book);
            self.ctx.drill_move_sound();
        }
    }
}
