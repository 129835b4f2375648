//! One drill as a state machine.
//!
//! Its parts: `popularity` (where the candidates come from), `naming` (opening names,
//! transpositions, theory notes), `past_book` (the predictor's moves past the book),
//! `alternative` (a move an engine found as good as the book's), `view` (looking back,
//! taking back), `graph` (the book replaced or edited under a running drill) and
//! `blindfold` (the pieces hidden after move N, shown again after a mistake).

use std::sync::Arc;
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

use super::phase::{BookMove, Hint, MoveOutcome, Phase, PlayedMove, Reply};
use crate::book::explorer::ExplorerCounts;
use crate::book::polyglot::SharedBook;
use crate::book::{NodeId, OpeningLine, PositionGraph};
use crate::review::steer::ReviewTerm;
use crate::sampler::{CandidateKind, Distribution, Popularity, Style};

/// How long the computer waits before it replies, by default (the UI applies it).
pub const DEFAULT_REPLY_DELAY: Duration = Duration::from_millis(300);

/// One drill: the learner plays one colour, the computer answers from the book with
/// weighted Metropolis–Hastings steps (docs/sampler.md §3).
///
/// ```
/// use std::sync::Arc;
/// use hastings::book::PositionGraph;
/// use hastings::sampler::Style;
/// use hastings::trainer::{MoveOutcome, Phase, Session};
/// use shakmaty::{Color, Move, Role, Square};
///
/// let graph = Arc::new(PositionGraph::eco().unwrap());
/// let mut s = Session::new(graph, Color::White, Style::neutral(), 7);
/// let e4 = Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None };
/// assert!(matches!(s.play(e4), MoveOutcome::Accepted { .. }));
/// assert_eq!(s.phase(), &Phase::ComputerToMove);
/// let reply = s.reply().unwrap();
/// assert_eq!(s.moves().len(), 2);
/// assert!(reply.candidate.p > 0.0);
/// ```
#[derive(Clone, Debug)]
pub struct Session {
    graph: Arc<PositionGraph>,
    style: Style,
    learner: Color,
    seed: u64,
    rng: ChaCha8Rng,
    start: Chess,
    /// `positions[i]` is the position before `moves[i]`; one longer than `moves`.
    positions: Vec<Chess>,
    /// `nodes[i]` is the node of `positions[i]` (the start may be outside the book).
    nodes: Vec<Option<NodeId>>,
    /// `s_prevs[i]` is `s_prev` at `positions[i]`: the share `moves[i - 1]` had under
    /// the current style (1 at the start).
    s_prevs: Vec<f64>,
    /// The reply distribution at the current position, computed once per position and
    /// style (see [`Session::distribution`]).
    dist: Distribution,
    moves: Vec<PlayedMove>,
    phase: Phase,
    mistakes_in_line: u32,
    mistakes_total: u32,
    lines_completed: u32,
    hint: Option<Hint>,
    viewing: Option<usize>,
    last_announcement: Option<String>,
    /// Moves given at the start of the line (a chosen position), which take-back keeps.
    fixed: usize,
    /// The wider book (ECO) that explains moves when the drill's book is a repertoire.
    theory: Option<Arc<PositionGraph>>,
    /// The review term steering the computer toward due cards (review mode only).
    review: Option<ReviewSteering>,
    /// Polyglot games books, used as `popularity` says.
    books: Vec<SharedBook>,
    /// Where the popularity shares come from.
    popularity: Popularity,
    /// An opening explorer whose games are the popularity, when set (a player's tree:
    /// "Prepare against an opponent"); the book's lines where it has no game.
    explorer: Option<Arc<dyn ExplorerCounts>>,
    /// Play past the book with the move predictor, when on.
    past_book: Option<PastBook>,
    /// The learner's moves ranked (main, alternatives) in a repertoire drill.
    rank: rank::RankState,
    /// The pieces hidden after move N (blindfold training).
    blind: blindfold::Blindfold,
}

/// The review term of review mode: the computer's candidates get `weight · d(y)` added
/// to their acceptance (see [`crate::review::steer`]).
#[derive(Clone, Debug)]
pub struct ReviewSteering {
    /// `w_r`.
    pub weight: f64,
    /// `d(y)` per node.
    pub term: Arc<ReviewTerm>,
}

mod alternative;
mod blindfold;
mod graph;
mod naming;
mod past_book;
mod popularity;
mod rank;
mod replies;
mod view;

pub use past_book::PastBook;
pub use rank::Ranking;

impl Session {
    /// A new drill from the standard start position, the RNG seeded with `seed`.
    pub fn new(graph: Arc<PositionGraph>, learner: Color, style: Style, seed: u64) -> Session {
        let mut s = Session {
            graph,
            style,
            learner,
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            start: Chess::default(),
            positions: Vec::new(),
            nodes: Vec::new(),
            s_prevs: Vec::new(),
            dist: Distribution::default(),
            moves: Vec::new(),
            phase: Phase::LearnerToMove,
            mistakes_in_line: 0,
            mistakes_total: 0,
            lines_completed: 0,
            hint: None,
            viewing: None,
            last_announcement: None,
            fixed: 0,
            theory: None,
            review: None,
            books: Vec::new(),
            popularity: Popularity::Lines,
            explorer: None,
            past_book: None,
            rank: rank::RankState::default(),
            blind: blindfold::Blindfold::default(),
        };
        s.restart(Chess::default());
        s
    }

    /// A drill that starts after `moves` (played from the standard position). The
    /// moves count as given: take-back does not undo them, but they name the opening.
    ///
    /// # Errors
    ///
    /// The index of the first move that is illegal or leaves the book; the session is
    /// then not created.
    pub fn from_moves(
        graph: Arc<PositionGraph>,
        learner: Color,
        style: Style,
        seed: u64,
        moves: &[Move],
    ) -> Result<Session, usize> {
        let mut s = Session::new(graph, learner, style, seed);
        s.start_after(moves)?;
        Ok(s)
    }

    /// Restarts the drill after `moves` from the standard position (see
    /// [`Session::from_moves`]).
    ///
    /// # Errors
    ///
    /// The index of the first move that is illegal or leaves the book; the drill is
    /// then restarted from the standard position.
    pub fn start_after(&mut self, moves: &[Move]) -> Result<(), usize> {
        self.restart(Chess::default());
        for (i, &mv) in moves.iter().enumerate() {
            if !self.position().is_legal(mv) {
                self.restart(Chess::default());
                return Err(i);
            }
            if !self.knows_move(mv) {
                self.restart(Chess::default());
                return Err(i);
            }
            self.push(mv, false);
        }
        self.fixed = moves.len();
        self.mistakes_in_line = 0;
        self.last_announcement = None;
        Ok(())
    }

    // ----- reading -----

    /// The book.
    pub fn graph(&self) -> &PositionGraph {
        &self.graph
    }

    /// The learner's colour.
    pub fn learner(&self) -> Color {
        self.learner
    }

    /// The style the computer replies with.
    pub fn style(&self) -> &Style {
        &self.style
    }

    /// The seed the RNG was last seeded with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The phase of the drill.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The moves kept so far.
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// The current position of the game (without an out-of-book attempt).
    pub fn position(&self) -> &Chess {
        self.positions.last().unwrap_or(&self.start)
    }

    /// The node of the current position.
    pub fn node(&self) -> Option<NodeId> {
        self.nodes.last().copied().flatten()
    }

    /// The line naming the current position (the deepest named node of the game).
    pub fn opening(&self) -> Option<&OpeningLine> {
        self.naming_line(self.nodes.len())
            .map(|(l, _)| self.graph.line(l))
    }

    /// The opening's title, `"C60 Ruy Lopez"`.
    pub fn opening_title(&self) -> Option<String> {
        self.opening().map(OpeningLine::title)
    }

    /// The last "Transposed to …" announcement of the current position, if any.
    pub fn announcement(&self) -> Option<&str> {
        self.last_announcement.as_deref()
    }

    /// `s_prev` at the current position: the share the last move had, under the current
    /// style (1 at the start).
    pub fn s_prev(&self) -> f64 {
        self.s_prev_at(self.moves.len())
    }

    /// `s_prev` at the position after `ply` moves (1 at the start).
    pub fn s_prev_at(&self, ply: usize) -> f64 {
        self.s_prevs.get(ply).copied().unwrap_or(1.0)
    }

    /// The position after `ply` moves of the game (the current one past the end).
    pub fn position_at(&self, ply: usize) -> &Chess {
        self.positions.get(ply).unwrap_or_else(|| self.position())
    }

    /// The reply distribution for the side to move at the current position, computed
    /// once when the position or the style changes.
    pub fn distribution(&self) -> &Distribution {
        &self.dist
    }

    /// The reply distribution at the position after `ply` moves (computed; the current
    /// position's is cached, see [`Session::distribution`]).
    pub fn distribution_at(&self, ply: usize) -> Distribution {
        if ply >= self.moves.len() {
            return self.dist.clone();
        }
        let d = self.source_at(&self.positions[ply]).distribution(
            &self.positions[ply],
            &self.style,
            self.s_prev_at(ply),
            self.naming_line(ply + 1).map(|(l, _)| l),
        );
        self.or_past_book(d, &self.positions[ply], ply, self.s_prev_at(ply))
    }

    /// Recomputes `s_prev` along the game and the current distribution (after a change
    /// of style or graph).
    fn recompute(&mut self) {
        let shares: Vec<f64> = self
            .moves
            .iter()
            .zip(&self.positions)
            .map(|(m, pos)| match m.kind {
                CandidateKind::Predicted => self.predicted_share(pos, m.mv).unwrap_or(1.0),
                _ => self.source_at(pos).move_share(pos, m.mv, &self.style),
            })
            .collect();
        self.s_prevs.truncate(1);
        self.s_prevs.extend(shares);
        self.dist = self.compute_distribution();
    }

    /// The distribution at the current position, with the review term at the
    /// computer's moves when one is set.
    fn compute_distribution(&self) -> Distribution {
        let d = self.source().distribution(
            self.position(),
            &self.style,
            self.s_prev(),
            self.naming_line(self.nodes.len()).map(|(l, _)| l),
        );
        let d = self.or_past_book(d, self.position(), self.moves.len(), self.s_prev());
        let d = self.ranked(d);
        match &self.review {
            Some(r) if self.position().turn() != self.learner => {
                d.with_review(r.weight, |n| r.term.d(n))
            }
            _ => d,
        }
    }

    /// Sets (or with `None` removes) the review term; it applies to the next reply.
    pub fn set_review(&mut self, review: Option<ReviewSteering>) {
        self.review = review;
        self.dist = self.compute_distribution();
    }

    /// The review term, if one is set.
    pub fn review(&self) -> Option<&ReviewSteering> {
        self.review.as_ref()
    }

    /// Mistakes in this line.
    pub fn mistakes_in_line(&self) -> u32 {
        self.mistakes_in_line
    }

    /// Mistakes since the session started.
    pub fn mistakes_total(&self) -> u32 {
        self.mistakes_total
    }

    /// Lines played to their end since the session started.
    pub fn lines_completed(&self) -> u32 {
        self.lines_completed
    }

    /// Goes on counting from `earlier`'s totals (lines completed, mistakes): a drill
    /// that replaces another on another book is the same sitting for the learner.
    pub fn continue_counts(&mut self, earlier: &Session) {
        self.lines_completed = earlier.lines_completed;
        self.mistakes_total = earlier.mistakes_total;
    }

    /// The current hint, if one was asked for.
    pub fn hint(&self) -> Option<Hint> {
        self.hint
    }

    /// Whether the computer is to reply.
    pub fn reply_pending(&self) -> bool {
        self.phase == Phase::ComputerToMove && !self.asks_replies()
    }

    // ----- settings -----

    /// Changes the style; it applies to the next reply.
    pub fn set_style(&mut self, style: Style) {
        self.style = style;
        self.recompute();
        if self.viewing.is_none()
            && matches!(
                self.phase,
                Phase::LearnerToMove | Phase::ComputerToMove | Phase::EndOfLine { .. }
            )
        {
            self.settle();
        }
    }

    /// Sets the wider book that explains moves when the drill's book is a repertoire
    /// (see [`Session::theory_note`]); `None` when the drill's book is the whole theory.
    pub fn set_theory(&mut self, theory: Option<Arc<PositionGraph>>) {
        self.theory = theory;
    }

    /// The wider book that explains moves when the drill's book is a repertoire (the
    /// ECO graph); `None` when the drill's book is the whole theory.
    pub fn theory(&self) -> Option<&Arc<PositionGraph>> {
        self.theory.as_ref()
    }

    /// Reseeds the RNG.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// Changes the learner's colour and starts a new line from the start.
    pub fn set_learner(&mut self, learner: Color) {
        self.learner = learner;
        self.new_line();
    }

    // ----- actions -----

    /// Starts a new line from the standard position.
    pub fn new_line(&mut self) {
        self.restart(Chess::default());
    }

    /// Starts a new line from the position shown (an earlier one while viewing): the
    /// moves up to it are kept as given.
    pub fn new_line_from_here(&mut self) {
        let ply = self.viewing.unwrap_or(self.moves.len());
        self.truncate(ply);
        self.fixed = ply;
        self.mistakes_in_line = 0;
        self.settle();
    }

    fn restart(&mut self, start: Chess) {
        self.fixed = 0;
        self.start = start.clone();
        self.nodes = vec![self.graph.lookup(&start)];
        self.s_prevs = vec![1.0];
        self.positions = vec![start];
        self.moves.clear();
        self.mistakes_in_line = 0;
        self.hint = None;
        self.viewing = None;
        self.last_announcement = None;
        self.reset_rank();
        self.blindfold_new_line();
        self.settle();
    }

    /// Sets the phase from the position: whose turn, or the end of the line.
    fn settle(&mut self) {
        self.dist = self.compute_distribution();
        self.phase = if self.dist.is_empty() {
            Phase::EndOfLine {
                // The name the heading shows, so that the two agree.
                title: self.heading(),
                plies: self.moves.len(),
                mistakes: self.mistakes_in_line,
            }
        } else if self.position().turn() == self.learner {
            Phase::LearnerToMove
        } else {
            Phase::ComputerToMove
        };
    }

    /// The learner plays `mv`.
    ///
    /// A move into a position of the book (a book continuation or an implied
    /// transposition) is kept. Another legal move is shown but not kept: the phase
    /// becomes [`Phase::OutOfBook`] and a mistake is counted. In a repertoire drill,
    /// an alternative may be asked again or one of several moves quizzed, and at the
    /// opponent's turn the replies the repertoire answers named
    /// ([`MoveOutcome::InRepertoire`], see [`Ranking`]).
    pub fn play(&mut self, mv: Move) -> MoveOutcome {
        if self.asks_replies() {
            return self.name_reply(mv);
        }
        if self.phase != Phase::LearnerToMove
            || self.viewing.is_some()
            || !self.position().is_legal(mv)
        {
            return MoveOutcome::Rejected;
        }
        if let Some(outcome) = self.check_rank(mv) {
            return outcome;
        }
        if !self.knows_move(mv) {
            let san = SanPlus::from_move(self.position().clone(), mv).to_string();
            self.mistakes_in_line += 1;
            self.mistakes_total += 1;
            self.hint = None;
            self.blindfold_after_move(false);
            self.phase = Phase::OutOfBook {
                attempted: mv,
                san,
                book_moves: self.book_moves(),
            };
            return MoveOutcome::OutOfBook;
        }
        let (san, transposed_to) = self.push(mv, true);
        MoveOutcome::Accepted { san, transposed_to }
    }

    /// The book moves at the current position for the side to move, most popular first.
    pub fn book_moves(&self) -> Vec<BookMove> {
        let mut out: Vec<BookMove> = self
            .dist
            .candidates
            .iter()
            .map(|c| {
                let mut path: Vec<NodeId> = self.nodes.iter().flatten().copied().collect();
                path.extend(c.to);
                BookMove {
                    mv: c.mv,
                    san: SanPlus::from_move(self.position().clone(), c.mv).to_string(),
                    share: c.share,
                    bonus: c.bonus,
                    p: c.p,
                    kind: c.kind,
                    leads_to: c
                        .to
                        .and_then(|_| self.graph.name_at(&path))
                        .map(OpeningLine::title),
                }
            })
            .collect();
        out.sort_by(|a, b| b.p.total_cmp(&a.p).then(b.share.total_cmp(&a.share)));
        out
    }

    /// The computer replies with one Metropolis–Hastings step. `None` unless it is the
    /// computer's turn.
    pub fn reply(&mut self) -> Option<Reply> {
        if self.phase != Phase::ComputerToMove || self.viewing.is_some() || self.asks_replies() {
            return None;
        }
        let step = self.dist.step(&mut self.rng)?;
        let candidate = self.dist.candidates[step.index].clone();
        let (san, transposed_to) = self.push(candidate.mv, false);
        Some(Reply {
            san,
            candidate,
            proposals: step.proposals,
            transposed_to,
        })
    }

    /// Keeps a move (known to reach the book) and settles the phase.
    fn push(&mut self, mv: Move, by_learner: bool) -> (String, Option<String>) {
        let before = self.position().clone();
        let from = self.node();
        let old_name = self.naming_line(self.nodes.len());
        let san = SanPlus::from_move(before.clone(), mv).to_string();
        let before_pos = before.clone();
        let mut next = before;
        next.play_unchecked(mv);
        let node = self.graph.lookup(&next);
        let candidate = self.dist.candidate_for(mv);
        if node.is_none() && candidate.is_none() && !self.source().knows(&next) {
            // Callers only pass moves into the book; nothing to keep otherwise.
            return (san, None);
        }
        let kind = match (candidate, from, node) {
            (Some(c), _, _) => c.kind,
            (None, Some(f), Some(n)) if self.graph.continuations(f).iter().any(|c| c.to == n) => {
                CandidateKind::Book
            }
            _ => CandidateKind::Transposition,
        };
        let share = candidate.map_or_else(
            || {
                self.source_at(&before_pos)
                    .move_share(&before_pos, mv, &self.style)
            },
            |c| c.share,
        );
        self.positions.push(next);
        self.nodes.push(node);
        self.s_prevs.push(share);
        self.moves.push(PlayedMove {
            mv,
            san: san.clone(),
            by_learner,
            node,
            kind,
        });
        self.hint = None;
        if by_learner {
            self.blindfold_after_move(true);
        }
        self.clear_quizzed();
        let new_name = self.naming_line(self.nodes.len());
        self.last_announcement = self.transposition(old_name, new_name);
        let was_end = matches!(self.phase, Phase::EndOfLine { .. });
        self.settle();
        if !was_end && matches!(self.phase, Phase::EndOfLine { .. }) {
            self.lines_completed += 1;
        }
        (san, self.last_announcement.clone())
    }

    /// Takes back the out-of-book attempt.
    pub fn try_again(&mut self) {
        if matches!(self.phase, Phase::OutOfBook { .. }) {
            self.phase = Phase::LearnerToMove;
        }
    }

    /// Plays the most popular book move for the learner (after a mistake, or instead of
    /// moving). Returns what happened, or `None` if there is no book move.
    pub fn show_me(&mut self) -> Option<MoveOutcome> {
        self.try_again();
        if self.phase != Phase::LearnerToMove || self.viewing.is_some() {
            return None;
        }
        let best = self.dist.most_popular()?.mv;
        Some(self.play(best))
    }

    /// A hint: the first call shows the piece of the most popular book move, the second
    /// the whole move.
    pub fn ask_hint(&mut self) -> Option<Hint> {
        if self.phase != Phase::LearnerToMove || self.viewing.is_some() {
            return None;
        }
        let best = self.dist.most_popular()?.mv;
        let from = best.from()?;
        self.hint = Some(match self.hint {
            Some(h) if h.from == from => Hint {
                from,
                to: Some(best.to()),
            },
            _ => Hint { from, to: None },
        });
        self.hint
    }

    /// Shows `hint` (a lesson's move, which need not be the book's most popular one),
    /// at the learner's turn.
    pub fn set_hint(&mut self, hint: Hint) {
        if self.phase == Phase::LearnerToMove && self.viewing.is_none() {
            self.hint = Some(hint);
        }
    }

    fn truncate(&mut self, plies: usize) {
        self.moves.truncate(plies);
        self.positions.truncate(plies + 1);
        self.nodes.truncate(plies + 1);
        self.s_prevs.truncate(plies + 1);
        self.viewing = None;
        self.hint = None;
        self.last_announcement = None;
        self.reset_rank();
        self.settle();
    }
}
