//! Which lines "Learn new lines" teaches: lines of the book, from the standard position,
//! where the learner has a move never reviewed yet; the most common first (by the reach
//! of the line's first new position), at most a daily number of lines.

use super::study::Study;
use crate::book::{LineId, PositionGraph};

/// The default number of new lines a day.
pub const DEFAULT_NEW_LINES_PER_DAY: u32 = 3;

impl Study<'_> {
    /// Whether card `i` was never reviewed.
    fn is_new_card(&self, i: usize) -> bool {
        self.state(i).is_none()
    }

    /// The lines with at least one decision card, all of them reviewed, the last of them
    /// first reviewed on the learner's day of now: the lines learned today.
    pub fn lines_learned_today(&self, graph: &PositionGraph) -> usize {
        let today = self.now.day();
        (0..graph.lines().len())
            .filter(|&l| {
                let cards = self.deck.line_decision_cards(LineId(l as u32));
                let mut last_day = None::<i64>;
                for &c in cards {
                    let Some(first) = self.state(c as usize).and_then(|s| s.first_review) else {
                        return false;
                    };
                    let day = first.with_offset(self.now.offset_minutes()).day();
                    last_day = Some(last_day.map_or(day, |d| d.max(day)));
                }
                last_day == Some(today)
            })
            .count()
    }

    /// The lines to learn now: each line of `graph` (the deck's book) that starts from the
    /// standard position and plays the learner's move at a card never reviewed, ordered
    /// by the reach of its first such card (largest first, then book order); at most
    /// `per_day` less the lines learned today. Two lines that share their new cards are
    /// both listed (the lesson skips a line whose cards were learned meanwhile).
    pub fn new_lines(&self, graph: &PositionGraph, per_day: u32) -> Vec<LineId> {
        let left = (per_day as usize).saturating_sub(self.lines_learned_today(graph));
        let mut lines: Vec<(f64, LineId)> = (0..graph.lines().len())
            .filter_map(|l| {
                let id = LineId(l as u32);
                if graph.line(id).start.is_some() {
                    return None;
                }
                let first = self
                    .deck
                    .line_decision_cards(id)
                    .iter()
                    .map(|&c| c as usize)
                    .find(|&c| self.is_new_card(c))?;
                Some((self.deck.cards().get(first)?.reach, id))
            })
            .collect();
        lines.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.0.cmp(&b.1.0)));
        lines.into_iter().take(left).map(|(_, l)| l).collect()
    }
}
