//! Carrying out what the user asked for: the [`Command`]s the panels collected, and the
//! actions behind buttons and shortcuts.

use std::path::Path;

use super::book::paste::Pasting;
use super::command::{Action, Command};
use super::format::count;
use super::settings::{Orientation, Settings, Side};
use super::{Coach, Notice, drill, jobs};
use crate::workspace::export::write_pgn_file;
use crate::workspace::profiles::save_profile;

impl Coach {
    // ----- commands -----

    /// Whether `action` can be used now (its button is enabled, its shortcut works).
    pub fn is_enabled(&self, action: Action) -> bool {
        drill::commands::is_enabled(action, &self.ctx, self.play_on.game())
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
            Command::Play(mv) => self.drill.play(mv, &mut self.ctx, &mut self.review),
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
                drill::commands::new_seed(&mut self.ctx);
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
            Command::Paste(text) => {
                let data_dir = self.ctx.review_log.as_deref().and_then(Path::parent);
                let data_dir = data_dir.map(Path::to_path_buf);
                match super::book::paste::paste(&text, data_dir.as_deref(), &mut self.ctx) {
                    Pasting::OpenFile(path) => self.apply_command(Command::OpenFiles(vec![path])),
                    Pasting::DrillFrom(moves) => self.apply_command(Command::DrillFrom(moves)),
                    Pasting::Said => {}
                }
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
                if let Err(e) = self.style.load_profile(&path, add_games, &mut self.ctx) {
                    self.ctx.message = Some(format!("{e}. The style is unchanged."));
                }
            }
            Command::SaveProfile => self.style.save_profile(&mut self.ctx),
            Command::AddProfileGames => self.style.add_profile_games(&mut self.ctx),
            Command::SetAdaptive(on) => {
                self.ctx.settings.adaptive = on;
                self.style.adapt(&mut self.ctx);
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
            self.style.adapt(&mut self.ctx);
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

    fn apply_action(&mut self, action: Action) {
        if !self.is_enabled(action) {
            return;
        }
        // Stepping through the moves only changes the position shown.
        if !self.play_on.is_active() && self.drill.step(action, &mut self.ctx) {
            return;
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
                drill::commands::new_seed(&mut self.ctx);
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
            Action::Open => self.ctx.notify(Notice::ChooseFiles),
            Action::Explore => self.sampled_lines.start(&mut self.ctx),
            Action::PlayOn => self.play_on.start(&mut self.ctx),
            Action::Quit => self.ctx.notify(Notice::Close),
            // The drill's own: hints, show me, take back, flip… (stepping was above).
            _ => {
                self.drill
                    .apply_action(action, &mut self.ctx, &mut self.review);
            }
        }
    }
}
