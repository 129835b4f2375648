//! How the drill names its position and notices transpositions, and what theory says
//! when the book is a repertoire.

use shakmaty::Position;

use super::Session;
use crate::book::{LineId, OpeningLine};
use crate::sampler::Distribution;
use crate::trainer::Phase;

impl Session {
    /// When the drill's book is a repertoire and a theory book is set: what theory says.
    ///
    /// - After an out-of-book move that theory knows: `"Nf3 is theory, but your
    ///   repertoire plays d4"`.
    /// - At the end of the line when theory goes on: `"Your repertoire ends here; theory
    ///   continues with e5, c5"`.
    pub fn theory_note(&self) -> Option<String> {
        let theory = self.theory.as_deref()?;
        match &self.phase {
            Phase::OutOfBook {
                attempted,
                san,
                book_moves,
            } => {
                let mut next = self.position().clone();
                next.play_unchecked(*attempted);
                theory.lookup(&next)?;
                let plays: Vec<&str> = book_moves.iter().map(|b| b.san.as_str()).collect();
                Some(format!(
                    "{san} is theory, but your repertoire plays {}",
                    plays.join(", ")
                ))
            }
            Phase::EndOfLine { .. } => {
                let node = theory.lookup(self.position())?;
                let d = Distribution::at(theory, node, self.position(), &self.style, 1.0);
                let mut c = d.candidates;
                c.sort_by(|a, b| b.share.total_cmp(&a.share));
                let sans: Vec<String> = c
                    .iter()
                    .take(5)
                    .map(|c| theory.san(node, c.mv).to_string())
                    .collect();
                (!sans.is_empty()).then(|| {
                    format!(
                        "Your repertoire ends here; theory continues with {}",
                        sans.join(", ")
                    )
                })
            }
            _ => None,
        }
    }

    /// The name the drill shows as its heading: the book's name for the position
    /// ([`Session::opening_title`]); else the name the games' tags give every named line
    /// through the last move (a repertoire's `[Opening]`/`[Variation]` and `[ECO]`, which
    /// only name the end of each line in the graph); else the theory book's (ECO's)
    /// name for the position.
    ///
    /// When the book is a repertoire (a theory book is set), the name is the theory's
    /// for the position reached (the deepest named position on the game's path), else
    /// the repertoire's own line ending on that path: never the name of a line ahead,
    /// which would tell the learner where the drill is going.
    pub fn heading(&self) -> Option<String> {
        if self.theory.is_some() {
            return self.theory_title().or_else(|| self.opening_title());
        }
        self.opening_title()
            .or_else(|| self.tagged_title())
            .or_else(|| self.theory_title())
    }

    /// The title every named line through the last move shares, if they share one.
    fn tagged_title(&self) -> Option<String> {
        let n = self.nodes.len();
        let (Some(from), Some(to)) = (*self.nodes.get(n.checked_sub(2)?)?, self.nodes[n - 1])
        else {
            return None;
        };
        let c = self.graph.continuations(from).iter().find(|c| c.to == to)?;
        let mut titles = self
            .graph
            .continuation_lines(c)
            .iter()
            .map(|&l| self.graph.line(l))
            .filter(|l| !l.name.is_empty())
            .map(OpeningLine::title);
        let first = titles.next()?;
        titles.all(|t| t == first).then_some(first)
    }

    /// The theory book's name for the game's position (the deepest named position).
    fn theory_title(&self) -> Option<String> {
        let theory = self.theory.as_deref()?;
        let history: Vec<_> = self
            .positions
            .iter()
            .filter_map(|p| theory.lookup(p))
            .collect();
        theory.name_at(&history).map(OpeningLine::title)
    }

    /// The line naming the position after `len` nodes of the game, and the index of
    /// the node it ends at.
    pub(super) fn naming_line(&self, len: usize) -> Option<(LineId, usize)> {
        self.nodes[..len]
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, n)| n.and_then(|n| self.graph.name(n)).map(|l| (l, i)))
    }

    /// Whether the game reached the named node at `end` by the naming line's own move order.
    fn follows(&self, line: LineId, end: usize) -> bool {
        (0..end).all(|i| {
            let (Some(from), Some(to)) = (self.nodes[i], self.nodes[i + 1]) else {
                return false;
            };
            self.graph
                .continuations(from)
                .iter()
                .find(|c| c.to == to)
                .is_some_and(|c| {
                    self.graph
                        .continuation_lines(c)
                        .binary_search(&line)
                        .is_ok()
                })
        })
    }

    /// "Transposed to …": the name changed to a line whose own move order the game did
    /// not follow, coming from a line it did follow or from another opening family.
    pub(super) fn transposition(
        &self,
        old: Option<(LineId, usize)>,
        new: Option<(LineId, usize)>,
    ) -> Option<String> {
        let (new_line, new_end) = new?;
        if old.map(|(l, _)| l) == Some(new_line) || self.follows(new_line, new_end) {
            return None;
        }
        // Another line of the same name (two chapters, two games of one opening): the
        // learner is in it already ("Transposed to C02 … while already in it").
        let title = self.graph.line(new_line).title();
        if old.is_some_and(|(l, _)| self.graph.line(l).title() == title) {
            return None;
        }
        let family = |l: LineId| {
            let name = &self.graph.line(l).name;
            name.split(':').next().unwrap_or(name).to_owned()
        };
        let switch = match old {
            None => true,
            Some((old_line, old_end)) => {
                self.follows(old_line, old_end) || family(old_line) != family(new_line)
            }
        };
        switch.then_some(title)
    }
    /// The drilled moves as a line (for export), named by the opening reached; `None`
    /// before the first move.
    pub fn to_line(&self) -> Option<OpeningLine> {
        if self.moves.is_empty() {
            return None;
        }
        let opening = self.opening();
        let moves = self.moves.iter().map(|m| m.mv).collect();
        let source = crate::book::LineSource::Pgn {
            source: crate::book::SourceId(u16::MAX),
            game: 1,
        };
        Some(OpeningLine {
            eco: opening.and_then(|o| o.eco.clone()),
            name: opening.map(|o| o.name.clone()).unwrap_or_default(),
            ..OpeningLine::new(source, moves)
        })
    }
}
