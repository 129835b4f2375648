//! The coach's features side by side ([`Features`]): one state per feature, and the
//! dispatch between them. A [`Command`] goes to the feature it names
//! ([`Command::route`](super::command)); what no one feature carries out alone (the
//! drill's moves and actions, a new line, the colour) is carried out here with the
//! features' functions; the [`Event`]s features send each other through the context
//! are handed on here once the sender is done; and each frame's work polls the
//! features in a fixed order.
//!
//! Only the coach (`coach/mod.rs`) holds a `Features`, beside the [`Context`] every
//! feature is given; the features never name each other's state.

use shakmaty::Chess;

use super::command::{Action, Command, Route};
use super::context::{BoardShown, Context, Event};
use super::notice::Notice;
use super::{
    book, check, coverage, drill, explorer, jobs, play_on, predictor, repertoire, review,
    sampled_lines, style, verdict,
};

/// One state per feature of the coach.
pub(crate) struct Features {
    /// The drill's own state beside the session: the reply due, completions recorded.
    pub(crate) drill: drill::DrillState,
    /// The chart's "Explore": lines sampled on a thread.
    pub(crate) sampled_lines: sampled_lines::SampledLinesState,
    /// The Book tab: the import report shown.
    pub(crate) book: book::BookState,
    /// The Coverage tab's parameters and jobs, compare my games, the missed positions.
    pub(crate) coverage: coverage::CoverageState,
    /// Review mode, when it is on.
    pub(crate) review: review::ReviewState,
    /// The learner's style, the profile loaded, the sides of the repertoires.
    pub(crate) style: style::StyleState,
    /// Playing on against an engine after the book.
    pub(crate) play_on: play_on::PlayOnState,
    /// The jobs feature: "Make a book…".
    pub(crate) jobs: jobs::MakeBookJob,
    /// "Check with an engine" (Coverage tab).
    pub(crate) check: check::CheckState,
    /// The engine's verdict on a move outside the book.
    pub(crate) verdict: verdict::VerdictState,
    /// The Repertoire tab: the file being edited and its book.
    pub(crate) repertoire: repertoire::RepertoireTab,
    /// The Explorer tab: the open index, its filter, the moves on the board.
    pub(crate) explorer: explorer::ExplorerState,
    /// What strong players are predicted to play at the position shown.
    pub(crate) predictor: predictor::PredictorState,
}

impl Features {
    /// The features of a new coach on `ctx`: each reopens what the last run left open
    /// (the drill mode where there is a review log, the repertoire file, the explorer,
    /// a check cut short).
    pub(crate) fn start(
        style: style::StyleState,
        repertoire: repertoire::RepertoireTab,
        ctx: &mut Context,
    ) -> Features {
        let mut features = Features {
            drill: drill::DrillState::default(),
            sampled_lines: sampled_lines::SampledLinesState::default(),
            book: book::BookState::default(),
            coverage: coverage::CoverageState::default(),
            review: review::ReviewState::default(),
            style,
            play_on: play_on::PlayOnState::default(),
            jobs: jobs::MakeBookJob::default(),
            check: check::CheckState::default(),
            verdict: verdict::VerdictState::default(),
            repertoire,
            explorer: explorer::ExplorerState::default(),
            predictor: predictor::PredictorState::default(),
        };
        // The drill mode of the last run, where there is a review log to keep.
        if ctx.review_log.is_some() {
            let mode = ctx.settings.drill_mode;
            features.review.set_drill_mode(mode, ctx);
        }
        features.repertoire.reopen(ctx);
        features.explorer.reopen(ctx);
        features.check.restore(ctx);
        features
    }

    // ----- what reads the features and the context -----

    /// The position a typed move is played in (the board's), or why none can be now.
    pub(crate) fn entry_position(&self, ctx: &Context) -> Result<Chess, &'static str> {
        let playing_on = self.play_on.game().map(|run| run.game());
        drill::move_entry::entry_position(&ctx.session, playing_on)
    }

    /// Whether `action` can be used now (its button is enabled, its shortcut works).
    pub(crate) fn is_enabled(&self, action: Action, ctx: &Context) -> bool {
        // With no line in the book there is no next line and nothing to play on from.
        let needs_lines = matches!(action, Action::NextLine | Action::PlayOn);
        drill::commands::is_enabled(action, ctx, self.play_on.game())
            && !(needs_lines && book::empty::empty_book(ctx).is_some())
    }

    /// The board the window shows, as the features that follow it read it.
    fn board_shown(&self, ctx: &Context) -> BoardShown {
        let playing_on = self.play_on.game().map(|run| run.game().position().clone());
        ctx.board_shown(playing_on, self.review.is_on())
    }

    // ----- dispatch -----

    /// Carries out one command, and what it asks of other features.
    pub(crate) fn apply(&mut self, command: Command, ctx: &mut Context) {
        self.apply_command(command, ctx);
        self.run_events(ctx);
    }

    /// Carries out one command (the events it sends are the caller's to carry out):
    /// a feature's goes to it, the rest crosses features.
    fn apply_command(&mut self, command: Command, ctx: &mut Context) {
        self.share_explorer_games(ctx);
        if command.restarts_drill() {
            self.play_on.end();
        }
        match command.route() {
            Route::Book(c) => self.book.apply(c, ctx),
            Route::Style(c) => self.style.apply(c, ctx),
            Route::Review(c) => self.review.apply(c, ctx),
            Route::Coverage(c) => self.coverage.apply(c, ctx),
            Route::Jobs(c) => self.jobs.apply(c, ctx),
            Route::PlayOn(c) => self.play_on.apply(c, ctx),
            Route::Repertoire(c) => self.repertoire.apply(c, ctx),
            Route::Explorer(c) => self.explorer.apply(c, ctx),
            Route::Verdict(c) => self.verdict.apply(c, ctx),
            Route::Coach(command) => self.apply_crossing(command, ctx),
        }
        ctx.settings.book = ctx.workspace.choice().clone();
        ctx.request_repaint();
    }

    /// The commands that no one feature carries out alone.
    fn apply_crossing(&mut self, command: Command, ctx: &mut Context) {
        match command {
            Command::Action(action) => self.apply_action(action, ctx),
            Command::MoveEntry(c) => {
                let at = self.entry_position(ctx);
                self.drill.move_entry.apply(c, ctx, at);
            }
            Command::Play(mv) => self.drill.play(mv, ctx, &mut self.review),
            Command::ShowPly(ply) => ctx.session.view(ply),
            Command::ShowCurrent => ctx.session.view(ctx.session.moves().len()),
            Command::Message(text) => ctx.message = Some(text),
            Command::SetLearner(color) => self.review.set_learner(color, ctx),
            Command::SetSettings(settings) => ctx.take_settings(*settings),
            Command::SetPastBook(plies) => {
                ctx.settings.past_book_plies = plies;
                self.sync_books(ctx);
            }
            Command::CopyPgn if self.play_on.is_active() => {
                self.play_on.apply(play_on::PlayOnCommand::CopyPgn, ctx);
            }
            Command::CopyPgn => self.book.apply(book::BookCommand::CopyLine, ctx),
            Command::CheckRepertoire => self.check.start(ctx.settings.coverage.depth, ctx),
            Command::CancelCheck => self.check.cancel(),
            Command::DrillFrom(moves) => {
                self.repertoire.stop_training(ctx);
                // The learner plays the side to move there, as when the position was missed.
                let turn = drill::side_to_move_after(&moves);
                if turn != ctx.session.learner() {
                    self.apply(Command::SetLearner(turn), ctx);
                }
                drill::drill_from(&moves, ctx);
            }
            Command::DrillOpening(moves) => {
                self.repertoire.stop_training(ctx);
                drill::drill_from(&moves, ctx);
            }
            // The features' own commands were routed to them.
            _ => {}
        }
    }

    /// A button or shortcut: the play-on game's while the learner plays on, the
    /// drill's, or a new line (review mode's next card, "Train this"'s subtree).
    fn apply_action(&mut self, action: Action, ctx: &mut Context) {
        if !self.is_enabled(action, ctx) {
            return;
        }
        // Stepping through the moves only changes the position shown.
        if !self.play_on.is_active() && self.drill.step(action, ctx) {
            return;
        }
        ctx.message = None;
        if self.play_on.is_active() {
            match action {
                Action::TakeBack | Action::StepBack => {
                    return self.play_on.apply(play_on::PlayOnCommand::TakeBack, ctx);
                }
                Action::NewLine => self.play_on.end(),
                _ => {}
            }
        }
        match action {
            Action::NextLine if style::sides::alternates_sides(ctx) => {
                // A mixed study: the other side's chapters come next.
                let other = ctx.session.learner().other();
                self.apply(Command::SetLearner(other), ctx);
            }
            Action::NewLine | Action::NextLine => {
                ctx.new_seed();
                if !self.review.next_line(ctx) && !self.repertoire.restart_training(ctx) {
                    ctx.session.new_line();
                }
                ctx.last_reply = None;
            }
            Action::Open => ctx.notify(Notice::ChooseFiles),
            Action::Explore => self.sampled_lines.start(ctx),
            Action::PlayOn => self.play_on.start(ctx),
            Action::Quit => ctx.notify(Notice::Close),
            // The drill's own: hints, show me, take back, flip… (stepping was above).
            _ => {
                self.drill.apply_action(action, ctx, &mut self.review);
            }
        }
    }

    /// Carries out the events features sent each other, until none is left.
    pub(crate) fn run_events(&mut self, ctx: &mut Context) {
        loop {
            let events = ctx.take_events();
            if events.is_empty() {
                return;
            }
            for event in events {
                self.run_event(event, ctx);
            }
        }
    }

    /// Hands one event to the feature it concerns.
    fn run_event(&mut self, event: Event, ctx: &mut Context) {
        match event {
            Event::PlayOnBoard(mv) if self.play_on.is_active() => {
                self.play_on.apply(play_on::PlayOnCommand::Play(mv), ctx);
            }
            Event::PlayOnBoard(mv) => self.apply_command(Command::Play(mv), ctx),
            Event::SetLearner(color) => self.apply_command(Command::SetLearner(color), ctx),
            Event::NewLine => self.apply_command(Command::Action(Action::NewLine), ctx),
            Event::DrillFrom(moves) => self.apply_command(Command::DrillFrom(moves), ctx),
            Event::Pasted(moves) if self.repertoire.shows_file() => {
                self.repertoire.show_moves(moves, ctx);
            }
            Event::Pasted(moves) => self.apply_command(Command::DrillFrom(moves), ctx),
            Event::SetStyle(style) => self.apply_command(Command::SetStyle(style), ctx),
            Event::ShowInRepertoire(moves) => self.repertoire.show_moves(moves, ctx),
            Event::Message(text) => ctx.message = Some(text),
            Event::ForgiveMistake => {
                if self.drill.forgive_mistake(ctx, &mut self.review) {
                    self.verdict.set_forgiven();
                }
            }
            Event::PlayBookMoveInstead { book, message } => {
                self.drill
                    .play_book_move_instead(book, message, ctx, &mut self.review);
            }
            Event::AddAnswer(moves) => self.coverage.add_answer(&moves, ctx),
            Event::NewSession => {
                self.sync_books(ctx);
                self.sampled_lines.reset();
                ctx.invalidate_chart();
                ctx.last_reply = None;
            }
            Event::NewBook => {
                self.sampled_lines.reset();
                self.repertoire.stop_training(ctx);
                self.coverage.book_changed();
                self.drill.reply_due = None;
                // A review session's cards are the new book's.
                self.review.restart(ctx);
            }
            Event::FileImported(path) => self.style.sides.after_import(&path, ctx),
            Event::AlignLearner => self.style.sides.align_learner(ctx),
            Event::StopRepertoireTraining => self.repertoire.stop_training(ctx),
            Event::EndGapDrill => self.coverage.end_gap_drill(),
            Event::RestartReview => self.review.restart(ctx),
            Event::SyncBooks => self.sync_books(ctx),
            Event::Adapt => self.style.adapt(ctx),
            Event::LeadIn(lead_in) => self.review.set_lead_in(lead_in, ctx),
            Event::PlayOnSettings(s) => {
                self.play_on.apply(play_on::PlayOnCommand::Settings(s), ctx)
            }
            Event::LineCompleted(line) => self.style.line_completed(line, ctx),
        }
    }

    // ----- each frame -----

    /// The non-drawing work of a frame: finished jobs, the computer's reply when it is
    /// due, completed lines.
    pub(crate) fn logic(&mut self, ctx: &mut Context) {
        self.sampled_lines.poll(ctx);
        if ctx.workspace.open_books().generation() != self.drill.books_seen {
            self.sync_books(ctx);
        }
        self.book.poll(ctx);
        // A new book resets the features that depend on it before they poll.
        self.run_events(ctx);
        self.coverage.poll(ctx);
        let found = self.check.poll_frame(ctx);
        if !found.is_empty() {
            self.verdict.share_analyses(&found);
        }
        self.jobs.poll(ctx);
        if self.play_on.is_active() {
            self.play_on.poll(ctx);
        } else {
            self.drill.computer_reply(ctx, &mut self.review);
        }
        self.review.poll(ctx);
        self.verdict.poll(ctx, self.play_on.is_active());
        self.drill.record_completions(ctx);
        ctx.progress.poll();
        self.coverage.missed.poll(ctx);
        let board = self.board_shown(ctx);
        self.explorer.poll(ctx, &board, self.verdict.store());
        self.predictor.poll(ctx, &board);
        self.share_explorer_games(ctx);
        self.repertoire.poll(ctx);
        self.run_events(ctx);
    }

    /// Gives the drill the workspace's Polyglot books and popularity and play past the
    /// book; the explorer's counts follow; the chart starts over.
    pub(crate) fn sync_books(&mut self, ctx: &mut Context) {
        self.drill.sync_books(ctx);
        self.explorer.sync_drill(ctx);
        ctx.invalidate_chart();
    }

    /// Gives the Repertoire tab the Explorer tab's index and filter (its missing
    /// replies may come from them), and play-on's sparring the index and the player
    /// shown.
    pub(crate) fn share_explorer_games(&mut self, ctx: &mut Context) {
        let games = self.explorer.games().and_then(Result::ok);
        let player = match self.explorer.source() {
            explorer::ExplorerSource::Player { name, .. } => Some(name.clone()),
            explorer::ExplorerSource::All => None,
        };
        let shared = games
            .clone()
            .map(|(index, filter)| play_on::SharedExplorer {
                index,
                filter,
                player,
            });
        self.play_on.poll_spar(ctx, shared);
        self.repertoire.set_explorer_games(games);
    }
}
