//! An opening explorer as the source of popularity ([`Popularity::Explorer`]): the
//! shares at a position are the games each move was played in, under the explorer's
//! filter, as a Polyglot games book's weights are (see [`super::source`]).
//!
//! - **Entries** are the moves played at `x`, weighted by their games.
//! - **Implied transpositions** are the legal moves of `x` that no game played there
//!   but that reach a position `y` some game reached, weighted `τ·T(y)` with `T(y)` the
//!   games at `y`.
//!
//! With `τ = 0` (or where no transposition exists) a move's share is exactly its games
//! over the games at `x`; with no style bonus and `s_prev = 1` the exact `P` is that
//! share.
//!
//! [`Popularity::Explorer`]: super::Popularity::Explorer

use shakmaty::{Chess, Move, Position};

use crate::book::explorer::{ExplorerCounts, describe_move};

/// The explorer's candidates at `pos` without τ: `(move, entry, weight)`, the moves
/// played there (most played first) weighted by their games, then (when
/// `transpositions`) the legal moves no game played there that reach a position with
/// games, weighted by those games.
pub(crate) fn explorer_weights(
    explorer: &dyn ExplorerCounts,
    pos: &Chess,
    transpositions: bool,
) -> Vec<(Move, bool, f64)> {
    let mut stats = explorer.stats_at(pos).moves;
    stats.sort_by(|a, b| b.games().cmp(&a.games()).then(a.raw_move.cmp(&b.raw_move)));
    let mut weights: Vec<(Move, bool, f64)> = stats
        .iter()
        .filter(|m| m.games() > 0)
        .filter_map(|m| Some((m.raw_move.to_move(pos).ok()?, true, m.games() as f64)))
        .collect();
    if transpositions {
        for mv in pos.legal_moves() {
            if weights.iter().any(|(m, _, _)| *m == mv) {
                continue;
            }
            let mut next = pos.clone();
            next.play_unchecked(mv);
            let total = explorer.games_at(&next);
            if total > 0 {
                weights.push((mv, false, total as f64));
            }
        }
    }
    weights
}

/// The explanation of `mv` at `pos` from the explorer's games: its games, the games at
/// `pos` and how it scored for the side playing it
/// (`"1,234 of 5,678 games, White scores 54% (+40% =28% -32%)"`); for a move no game
/// played there that reaches a position games reached, how many. `None` when no game
/// reached the position after it either.
pub(crate) fn explain_move(explorer: &dyn ExplorerCounts, pos: &Chess, mv: Move) -> Option<String> {
    let stats = explorer.stats_at(pos);
    let total = stats.total().games();
    let played = stats
        .moves
        .iter()
        .find(|m| m.games() > 0 && m.raw_move.to_move(pos).ok() == Some(mv));
    if let Some(m) = played {
        return Some(describe_move(m, total, pos.turn()));
    }
    let mut next = pos.clone();
    next.play_unchecked(mv);
    let reached = explorer.games_at(&next);
    (reached > 0).then(|| {
        format!(
            "played in no game here; its position was reached in {} games",
            crate::book::explorer::group_digits(reached)
        )
    })
}
