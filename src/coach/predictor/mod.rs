//! The predictor display, "what a strong human plays here" ([`PredictorState`]): the
//! move predictor's distribution at the position
//! the chart shows, and at the position of a wrong move, for the chart panel and the
//! wrong-move panel.
//!
//! The predictor runs on a background thread ([`Job`]), one position at a time, and its
//! answers are kept by position (the last sixteen), so that a frame only looks them
//! up. The position follows the board as the Explorer tab does: the position viewed,
//! else the current one; while the learner is to move it is hidden when the chart hides
//! the answer ("Hide the answer until I move") and always in review mode. After a move
//! outside the book it is the position before that move, so the wrong-move panel can say
//! how often strong players play the learner's move there. Positions before ply 8
//! (move 5 for White) get no line: the predictor was trained on positions from ply 8
//! on (`docs/human.md`) and knows the first moves badly, where the book knows them. The
//! setting
//! [`Settings::show_human_moves`](crate::coach::settings::Settings::show_human_moves)
//! turns it off.

use std::sync::Arc;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position as _};

use crate::book::polyglot::key;
use crate::coach::context::{BoardShown, Context};
use crate::engine::predictor::{Predictor, WeightsError};
use crate::job::{Job, JobPoll};
use crate::trainer::Phase;

/// Positions whose predictions are kept.
const KEPT: usize = 16;

/// The first ply the predictor was trained on (its training set's `--min-ply`).
pub const FIRST_PLY: u32 = 8;

/// The number of half-moves played before `pos` by its move counter.
fn ply(pos: &Chess) -> u32 {
    let before = 2 * (pos.fullmoves().get() - 1);
    before + u32::from(pos.turn() == shakmaty::Color::Black)
}

/// A legal move and the share of strong players the predictor expects to play it.
#[derive(Debug, Clone, PartialEq)]
pub struct HumanMove {
    /// The move.
    pub mv: Move,
    /// It in SAN.
    pub san: String,
    /// Its predicted share; the moves of a position sum to 1.
    pub p: f64,
}

/// The predictor's moves at one position, most likely first.
pub type HumanMoves = Arc<Vec<HumanMove>>;

/// The predictions asked for and kept.
#[derive(Default)]
pub struct PredictorState {
    /// The predictor, read on first use; `Err` if its weights could not be read.
    predictor: Option<Result<Arc<Predictor>, WeightsError>>,
    /// The position wanted now (its Polyglot key), if any.
    wanted: Option<(u64, Chess)>,
    /// The prediction being computed, and for which key.
    running: Option<(u64, Job<Vec<HumanMove>>)>,
    /// Finished predictions by key, the newest last.
    kept: Vec<(u64, HumanMoves)>,
}

impl std::fmt::Debug for PredictorState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PredictorState")
            .field("wanted", &self.wanted.as_ref().map(|(k, _)| k))
            .field("running", &self.running.as_ref().map(|(k, _)| k))
            .field("kept", &self.kept.len())
            .finish()
    }
}

/// The predictor's moves at `pos`, most likely first, with their SAN.
pub fn human_moves(predictor: &Predictor, pos: &Chess) -> Vec<HumanMove> {
    predictor
        .predict(pos)
        .into_iter()
        .map(|m| HumanMove {
            san: SanPlus::from_move(pos.clone(), m.mv).to_string(),
            mv: m.mv,
            p: m.p,
        })
        .collect()
}

/// The chart's line: the `n` most likely moves with a share of at least 1 %, as
/// "Nf3 41% · c4 22% · g3 9%"; `None` when there are none.
pub fn top_moves_line(moves: &[HumanMove], n: usize) -> Option<String> {
    let top: Vec<String> = moves
        .iter()
        .take(n)
        .filter(|m| m.p >= 0.01)
        .map(|m| format!("{} {}", m.san, percent(m.p)))
        .collect();
    (!top.is_empty()).then(|| top.join(" · "))
}

/// The wrong-move panel's sentence on the learner's move `played`: how often strong
/// players are predicted to play it, and what most of them play.
pub fn played_move_sentence(moves: &[HumanMove], played: Move) -> Option<String> {
    let top = moves.first()?;
    let mine = moves.iter().find(|m| m.mv == played)?;
    Some(if top.mv == played {
        format!(
            "Strong players (predicted) play {} here more than any other move: {}.",
            mine.san,
            percent(mine.p)
        )
    } else {
        format!(
            "Strong players (predicted) play {} {} of the time here; most play {} ({}).",
            mine.san,
            percent(mine.p),
            top.san,
            percent(top.p)
        )
    })
}

/// A share as a whole percentage, "<1%" below one.
fn percent(p: f64) -> String {
    if p < 0.005 {
        "<1%".to_owned()
    } else {
        format!("{:.0}%", p * 100.0)
    }
}

impl PredictorState {
    /// The prediction kept for `k`.
    fn kept(&self, k: u64) -> Option<&HumanMoves> {
        self.kept.iter().find(|(key, _)| *key == k).map(|(_, m)| m)
    }

    /// Takes a finished prediction and starts the one wanted when it is not kept.
    fn step(&mut self, wake: &crate::job::Wake) {
        if let Some((k, job)) = &self.running {
            match job.poll() {
                JobPoll::Running => return,
                JobPoll::Finished(moves) => {
                    let k = *k;
                    self.kept.retain(|(key, _)| *key != k);
                    self.kept.push((k, Arc::new(moves)));
                    if self.kept.len() > KEPT {
                        self.kept.remove(0);
                    }
                }
                JobPoll::Died(_) => {}
            }
            self.running = None;
        }
        let Some((k, pos)) = &self.wanted else {
            return;
        };
        if self.kept(*k).is_some() {
            return;
        }
        let predictor = match self.predictor.get_or_insert_with(Predictor::shared) {
            Ok(p) => Arc::clone(p),
            Err(_) => return,
        };
        let pos = pos.clone();
        if let Ok(job) = Job::spawn("predict", Arc::clone(wake), move |_| {
            human_moves(&predictor, &pos)
        }) {
            self.running = Some((*k, job));
        }
    }
}

impl PredictorState {
    /// What strong players are predicted to play at the position the chart shows (or,
    /// after a move outside the book, where the learner made it): `None` while hidden,
    /// switched off, or not computed yet.
    pub fn human_moves(&self) -> Option<&HumanMoves> {
        let (k, _) = self.wanted.as_ref()?;
        self.kept(*k)
    }

    /// Why there are no predictions: the predictor's weights could not be read.
    pub fn error(&self) -> Option<&WeightsError> {
        match &self.predictor {
            Some(Err(e)) => Some(e),
            _ => None,
        }
    }

    /// Whether a prediction is being computed (tests and the screenshot mode wait).
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Follows the board: asks for the prediction at the position shown, takes a
    /// finished one (each frame).
    pub(crate) fn poll(&mut self, ctx: &Context, board: &BoardShown) {
        let wanted = wanted_position(ctx, board).map(|pos| (key(&pos), pos));
        if wanted.as_ref().map(|(k, _)| k) != self.wanted.as_ref().map(|(k, _)| k) {
            self.wanted = wanted;
        }
        self.step(&ctx.wake());
    }
}

/// The position whose predictions the panels want now, if any.
fn wanted_position(ctx: &Context, board: &BoardShown) -> Option<Chess> {
    if !ctx.settings.show_human_moves || board.playing_on {
        return None;
    }
    let session = &ctx.session;
    if session.viewing().is_none() && matches!(session.phase(), Phase::OutOfBook { .. }) {
        let pos = session.position();
        return (ply(pos) >= FIRST_PLY).then(|| pos.clone());
    }
    (!board.hidden)
        .then(|| board.position.clone())
        .filter(|pos| ply(pos) >= FIRST_PLY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    fn moves() -> Vec<HumanMove> {
        let pos = Chess::default();
        let legal = shakmaty::Position::legal_moves(&pos);
        let by = |from: Square, to: Square| {
            legal
                .iter()
                .find(|m| m.from() == Some(from) && m.to() == to)
                .copied()
                .unwrap()
        };
        vec![
            HumanMove {
                mv: by(Square::G1, Square::F3),
                san: "Nf3".into(),
                p: 0.414,
            },
            HumanMove {
                mv: by(Square::C2, Square::C4),
                san: "c4".into(),
                p: 0.22,
            },
            HumanMove {
                mv: by(Square::A2, Square::A3),
                san: "a3".into(),
                p: 0.004,
            },
        ]
    }

    #[test]
    fn the_line_names_the_likely_moves_only() {
        assert_eq!(
            top_moves_line(&moves(), 3).as_deref(),
            Some("Nf3 41% · c4 22%")
        );
        assert_eq!(top_moves_line(&moves(), 1).as_deref(), Some("Nf3 41%"));
        assert_eq!(top_moves_line(&[], 3), None);
    }

    #[test]
    fn the_sentence_compares_the_move_with_the_most_played_one() {
        let m = moves();
        assert_eq!(
            played_move_sentence(&m, m[2].mv).as_deref(),
            Some("Strong players (predicted) play a3 <1% of the time here; most play Nf3 (41%).")
        );
        assert_eq!(
            played_move_sentence(&m, m[0].mv).as_deref(),
            Some("Strong players (predicted) play Nf3 here more than any other move: 41%.")
        );
    }

    #[test]
    fn predictions_are_the_predictors_with_their_san() {
        let predictor = Predictor::shared().unwrap();
        let pos = Chess::default();
        let moves = human_moves(&predictor, &pos);
        let direct = predictor.predict(&pos);
        assert_eq!(moves.len(), 20);
        for (a, b) in moves.iter().zip(&direct) {
            assert_eq!(a.mv, b.mv);
            assert_eq!(a.p, b.p);
        }
        assert!(moves.iter().any(|m| m.san == "Nf3"));
    }
}
