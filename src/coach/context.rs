//! What every feature of the coach shares ([`Context`]): the settings, the book's
//! sources, the book, the drill session, the learner's progress, the caller's clock,
//! the wake-up function, the notices for the window, the redraw asked for, and the
//! [`Event`]s one feature sends to the others.
//!
//! A feature's state (`coach/<feature>/`) changes only itself and the context; what
//! crosses features ("Play on from here", "Train this", a new book) is an [`Event`]
//! pushed here (`Context::send`), which the coach hands to the feature it concerns
//! once the command or the frame's work that sent it is done.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rand::{RngExt as _, SeedableRng as _};
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Color, Move};

use super::notice::Notice;
use super::play_on::engine::PlayOnSettings;
use super::settings::{Orientation, Settings, Side};
use super::sounds::Sound;
use crate::book::PositionGraph;
use crate::job::Wake;
use crate::sampler::Style;
use crate::trainer::{MoveOutcome, Phase, Reply, Session};
use crate::workspace::Workspace;
use crate::workspace::store::ProgressFile;

/// What one feature asks of another, carried out by the coach after the sender is done.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Play this move on the board shown: the play-on game's while the learner plays
    /// on, else the drill's.
    PlayOnBoard(Move),
    /// The learner plays this colour (a new line).
    SetLearner(Color),
    /// Start a new line.
    NewLine,
    /// Show the Repertoire tab's file at the position after these moves (from the
    /// standard start).
    ShowInRepertoire(Vec<Move>),
    /// Show this message in the drill panel (after the events sent before it).
    Message(String),
    /// Stop counting the move shown (outside the book) as a mistake: the drill's or
    /// review mode's count and the progress at the position; the verdict is told when
    /// it was.
    ForgiveMistake,
    /// Take back the move outside the book and play this book move instead (review
    /// mode grading it), showing `message` once it is played.
    PlayBookMoveInstead {
        /// The book move.
        book: Move,
        /// What the drill panel says then.
        message: String,
    },
    /// Add these moves (from the standard start) to a copy of the learner's repertoire
    /// file, as the Coverage tab's "Add answer" does.
    AddAnswer(Vec<Move>),
    /// The drill's session or book was replaced (a gap drill, "Train this", back to
    /// the repertoire): the drill takes the workspace's books again, the sampled lines
    /// and the chart start over.
    NewSession,
    /// The drill no longer trains the repertoire editor's subtree (another book).
    StopRepertoireTraining,
    /// Start the review session again (new failed reviews in its log).
    RestartReview,
    /// A gap drill is over ("Train this" drills another book).
    EndGapDrill,
    /// The drill's book was rebuilt from the sources: the chart, the coverage, the
    /// sampled lines, a drill of the repertoire editor's subtree and review mode start
    /// over.
    NewBook,
    /// A file was imported (the side of a repertoire may be asked).
    FileImported(PathBuf),
    /// The sources changed: the drill plays the side their chapters are for.
    AlignLearner,
    /// Drill from the position after these moves (from the standard start), the
    /// learner playing the side to move there.
    DrillFrom(Vec<Move>),
    /// Moves pasted (or the way to a pasted position): shown where the board is, the
    /// Repertoire tab's file while it is shown, else the drill from there.
    Pasted(Vec<Move>),
    /// The computer plays in this style (the settings edited).
    SetStyle(Style),
    /// The drill takes the workspace's books again (play past the book changed).
    SyncBooks,
    /// The adaptive opponent follows the learner's style (switched on or off).
    Adapt,
    /// Review mode's cards start this many plies before their position (`None`: at
    /// the start of the line).
    LeadIn(Option<u32>),
    /// New engine settings for playing on.
    PlayOnSettings(PlayOnSettings),
    /// The drill completed a line; with its moves and the learner's colour when it
    /// starts from the standard position (they count for the learner's style).
    LineCompleted(Option<(Vec<Move>, Color)>),
}

/// What the drill asks of review mode while it is on (`None` outside it): review
/// mode's state implements it and the coach hands it to the drill, so neither feature
/// names the other.
pub(crate) trait Grading {
    /// The learner's move, graded.
    fn play(&mut self, mv: Move, ctx: &mut Context) -> Option<MoveOutcome>;
    /// The computer's reply, steered toward the cards due.
    fn reply(&mut self, ctx: &mut Context) -> Option<Option<Reply>>;
    /// "Show me", graded.
    fn show_me(&mut self, ctx: &mut Context) -> Option<Option<MoveOutcome>>;
    /// A hint (the answer counts as Hard at best).
    fn hint(&mut self, ctx: &mut Context) -> Option<bool>;
    /// The mistake on the card shown forgiven; whether one was counted.
    fn forgive_mistake(&mut self, ctx: &mut Context) -> Option<bool>;
}

/// The board the window shows, as the features that follow it read it.
#[derive(Debug, Clone)]
pub struct BoardShown {
    /// The position on the board: the play-on game's, else the drill's position shown.
    pub position: Chess,
    /// Whether the learner is to find the move there, so panels hide the answer (the
    /// "Hide the answer until I move" setting, and always in review mode).
    pub hidden: bool,
    /// Whether it is the play-on game's board.
    pub playing_on: bool,
    /// Whether the learner is to find the drill's move there (whatever hides it).
    pub answering: bool,
    /// Whether the drill is in review mode (graded).
    pub review: bool,
}

/// The coach's shared state: what every feature reads and may change.
pub struct Context {
    /// The learner's settings.
    pub(crate) settings: Settings,
    /// The book's sources.
    pub(crate) workspace: Workspace,
    /// The book the drill uses (also held by the session).
    pub(crate) graph: Arc<PositionGraph>,
    /// Counts the books drilled on, so caches know the book changed.
    pub(crate) book_generation: u64,
    /// Counts what changes the chart beyond its key (a finished exploration, the books).
    pub(crate) chart_generation: u64,
    /// The drill.
    pub(crate) session: Session,
    /// The computer's last reply, while it is the last move.
    pub(crate) last_reply: Option<Reply>,
    /// The board's orientation.
    pub(crate) orientation: Orientation,
    /// The learner's progress and where it is saved.
    pub(crate) progress: ProgressFile,
    /// The review log (beside the progress file); `None`: no review mode.
    pub(crate) review_log: Option<PathBuf>,
    /// What happened last, for the feedback panel.
    pub(crate) message: Option<String>,
    /// Whether a screenshot is being taken (jobs wait for their analysis).
    pub(crate) screenshot: bool,
    /// The caller's time now, in seconds.
    pub(crate) now: f64,
    /// Asks the caller for a frame, from any thread.
    pub(crate) wake: Option<Wake>,
    /// The soonest redraw asked for since the last take.
    pub(crate) repaint: Option<Duration>,
    /// What the window should do beyond redrawing.
    pub(crate) notices: Vec<Notice>,
    /// What features asked of each other, not yet carried out.
    events: Vec<Event>,
    /// The settings' fixed seed and the seeds drawn from it for the lines after the
    /// first ([`Context::new_seed`]).
    seeds: Option<(u64, ChaCha8Rng)>,
}

impl Context {
    /// A context on `graph` with these settings, this drill and this progress.
    pub(crate) fn new(
        settings: Settings,
        workspace: Workspace,
        graph: Arc<PositionGraph>,
        session: Session,
        progress: ProgressFile,
        review_log: Option<PathBuf>,
    ) -> Context {
        let learner = Color::from(settings.learner);
        Context {
            orientation: settings
                .orientation
                .unwrap_or(Orientation::from_color(learner)),
            settings,
            workspace,
            graph,
            book_generation: 0,
            chart_generation: 0,
            session,
            last_reply: None,
            progress,
            review_log,
            message: None,
            screenshot: false,
            now: 0.0,
            wake: None,
            repaint: None,
            notices: Vec::new(),
            events: Vec::new(),
            seeds: None,
        }
    }

    /// The wake-up function for a new job (a no-op before one was set).
    pub(crate) fn wake(&self) -> Wake {
        self.wake.clone().unwrap_or_else(|| Arc::new(|| {}))
    }

    /// Asks for a redraw now.
    pub(crate) fn request_repaint(&mut self) {
        self.repaint = Some(Duration::ZERO);
    }

    /// Asks for a redraw after `after` (the sooner of this and any earlier request).
    pub(crate) fn request_repaint_after(&mut self, after: Duration) {
        self.repaint = Some(self.repaint.map_or(after, |d| d.min(after)));
    }

    /// Tells the window to do something beyond redrawing.
    pub(crate) fn notify(&mut self, notice: Notice) {
        self.notices.push(notice);
    }

    /// Asks another feature for something (carried out after the sender is done).
    pub(crate) fn send(&mut self, event: Event) {
        self.events.push(event);
    }

    /// The events sent since the last call.
    pub(crate) fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// The folder of engine analyses in the data folder (`analysis/`), when there is
    /// one.
    pub(crate) fn analysis_dir(&self) -> Option<PathBuf> {
        self.data_dir().map(|dir| dir.join("analysis"))
    }

    /// The data folder (where the progress and the review log are), if there is one.
    pub(crate) fn data_dir(&self) -> Option<PathBuf> {
        self.review_log
            .as_ref()
            .and_then(|log| log.parent())
            .map(std::path::Path::to_path_buf)
    }

    /// Says that a chart computed earlier is out of date.
    pub(crate) fn invalidate_chart(&mut self) {
        self.chart_generation += 1;
    }

    /// Asks the window to let `mv` glide to its square, when the settings say so.
    pub(crate) fn animate(&mut self, mv: Move) {
        if self.settings.animate_moves {
            self.notify(Notice::Animate(mv));
            self.request_repaint();
        }
    }

    /// Asks the window to play `sound`, when sounds are on.
    pub(crate) fn sound(&mut self, sound: Sound) {
        if self.settings.sounds {
            self.notify(Notice::Sound(sound));
        }
    }

    /// The sound of the drill's last kept move (the learner's, "Show me"'s or the
    /// computer's): the end of the line when it ended it.
    pub(crate) fn drill_move_sound(&mut self) {
        let moves = self.session.moves();
        let Some(last) = moves.last() else {
            return;
        };
        let sound = if matches!(self.session.phase(), Phase::EndOfLine { .. }) {
            Sound::EndOfLine
        } else {
            Sound::of_move(self.session.position_at(moves.len() - 1), last.mv)
        };
        self.sound(sound);
    }

    /// A new seed for the drill's next line: with the settings' fixed seed, the next of
    /// the seeds drawn from it (the same lines in the same order on every run, not the
    /// same line again and again); else a random one.
    pub(crate) fn new_seed(&mut self) {
        let seed = match self.settings.fixed_seed() {
            Some(fixed) => {
                let seeds = match &mut self.seeds {
                    Some((from, seeds)) if *from == fixed => seeds,
                    seeds => &mut seeds.insert((fixed, ChaCha8Rng::seed_from_u64(fixed))).1,
                };
                seeds.random::<u64>()
            }
            None => rand::random(),
        };
        self.session.set_seed(seed);
    }

    /// Keeps the workspace's drilled side the learner's (the other side's chapters
    /// leave the book).
    pub(crate) fn sync_drilled_side(&mut self) {
        let side = Some(self.settings.learner);
        if self.workspace.choice().side != side {
            let mut choice = self.workspace.choice().clone();
            choice.side = side;
            self.workspace.set_choice(choice);
            self.settings.book = self.workspace.choice().clone();
        }
    }

    /// The learner plays `color` from the next line: the settings, the book's drilled
    /// side, the board's orientation and a new seed (review mode and the session follow
    /// in the review feature).
    pub(crate) fn set_learner_side(&mut self, color: Color) {
        self.settings.learner = Side::from(color);
        self.sync_drilled_side();
        self.orientation = Orientation::from_color(color);
        self.settings.orientation = Some(self.orientation);
        self.new_seed();
    }

    /// Takes the settings a panel edited: the plain choices as they are; a changed
    /// style, colour, play past the book, adaptive opponent, review lead-in or play-on
    /// engine is an event its feature carries out. The book's sources, the drill mode,
    /// the Coverage tab's parameters and the explorer index stay as they are.
    pub(crate) fn take_settings(&mut self, new: Settings) {
        let old = std::mem::replace(&mut self.settings, new);
        self.settings.book = old.book.clone();
        self.settings.drill_mode = old.drill_mode;
        // The Coverage tab's and the Explorer tab's own, set by their commands.
        self.settings.coverage = old.coverage.clone();
        self.settings.explorer_index = old.explorer_index.clone();
        if self.settings.orientation != old.orientation
            && let Some(o) = self.settings.orientation
        {
            self.orientation = o;
        }
        if self.settings.style != old.style {
            let style = std::mem::replace(&mut self.settings.style, old.style.clone());
            self.send(Event::SetStyle(style));
        }
        if self.settings.learner != old.learner {
            let learner = std::mem::replace(&mut self.settings.learner, old.learner);
            self.send(Event::SetLearner(learner.into()));
        }
        if self.settings.past_book_plies != old.past_book_plies {
            self.send(Event::SyncBooks);
        }
        if self.settings.adaptive != old.adaptive {
            self.send(Event::Adapt);
        }
        if self.settings.review_at_position != old.review_at_position {
            self.send(Event::LeadIn(self.settings.review_at_position.then_some(0)));
        }
        if self.settings.play_on != old.play_on {
            let play_on = std::mem::replace(&mut self.settings.play_on, old.play_on);
            self.send(Event::PlayOnSettings(play_on));
        }
    }

    /// The board the window shows: the play-on game's position while the learner plays
    /// on (`playing_on`), else the drill's position shown, its answer hidden while the
    /// learner is to find it (the "Hide the answer" setting, always in review mode:
    /// `review_on`).
    pub(crate) fn board_shown(&self, playing_on: Option<Chess>, review_on: bool) -> BoardShown {
        if let Some(position) = playing_on {
            // A game against an engine, not a drill: there is no answer to give away.
            return BoardShown {
                position,
                hidden: false,
                playing_on: true,
                answering: false,
                review: false,
            };
        }
        let viewing = self.session.viewing();
        let ply = viewing.unwrap_or(self.session.moves().len());
        let answering = viewing.is_none() && *self.session.phase() == Phase::LearnerToMove;
        BoardShown {
            position: self.session.position_at(ply).clone(),
            hidden: answering && (self.settings.hide_answer || review_on),
            playing_on: false,
            answering,
            review: review_on,
        }
    }
}
