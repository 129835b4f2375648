//! Move ordering: the order in which α-β tries moves decides how much it can prune.
//!
//! First the hash move (best in an earlier search of this position), then captures
//! and promotions by MVV-LVA (most valuable victim, least valuable attacker), then the
//! two killer moves of this ply (quiet moves that caused a cutoff in a sibling), then
//! the other quiet moves by their history score (how often they caused cutoffs).

use shakmaty::{Color, Move, MoveList, Role};

use super::score::MAX_PLY;

const HASH_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const KILLER: [i32; 2] = [1 << 27, (1 << 27) - 1];
/// History scores stay below this, so they never pass a killer.
const HISTORY_MAX: i32 = 1 << 20;

/// Values used to order captures: pawn 1 … queen 9, king 0 (never captured).
const ORDER_VALUE: [i32; 6] = [1, 3, 3, 5, 9, 0];

fn order_value(role: Role) -> i32 {
    ORDER_VALUE[role as usize - 1]
}

/// The MVV-LVA key of a capture or promotion: victims first, then cheap attackers.
pub fn mvv_lva(m: Move) -> i32 {
    let victim = m.capture().map_or(0, order_value);
    let promotion = m.promotion().map_or(0, order_value);
    (victim + promotion) * 16 - order_value(m.role())
}

/// Whether a move changes material (searched in quiescence, ordered by MVV-LVA).
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// Killer moves per ply and the history table, kept across the searches of a game.
#[derive(Clone, Debug)]
pub struct OrderingTables {
    killers: Vec<[Option<Move>; 2]>,
    /// Cutoff scores by side, moving piece and target square.
    history: Box<[[[i32; 64]; 6]; 2]>,
}

impl Default for OrderingTables {
    fn default() -> Self {
        OrderingTables {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: Box::new([[[0; 64]; 6]; 2]),
        }
    }
}

impl OrderingTables {
    /// Forgets the killers and halves the history (at the start of a new search, so
    /// old statistics fade).
    pub fn age(&mut self) {
        self.killers.fill([None; 2]);
        for side in self.history.iter_mut() {
            for role in side.iter_mut() {
                for v in role.iter_mut() {
                    *v /= 2;
                }
            }
        }
    }

    /// Records a quiet move that caused a beta cutoff at `ply` with `depth` left.
    pub fn record_cutoff(&mut self, turn: Color, m: Move, ply: usize, depth: i32) {
        if let Some(k) = self.killers.get_mut(ply)
            && k[0] != Some(m)
        {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let h = &mut self.history[turn as usize][m.role() as usize - 1][m.to() as usize];
        *h = (*h + depth * depth).min(HISTORY_MAX);
    }

    /// The ordering key of `m` at `ply`: higher is tried first.
    pub fn key(&self, turn: Color, m: Move, ply: usize, hash_move: Option<Move>) -> i32 {
        if hash_move == Some(m) {
            HASH_MOVE
        } else if is_tactical(m) {
            CAPTURE + mvv_lva(m)
        } else if let Some(k) = self
            .killers
            .get(ply)
            .and_then(|k| k.iter().position(|&x| x == Some(m)))
        {
            KILLER[k]
        } else {
            self.history[turn as usize][m.role() as usize - 1][m.to() as usize]
        }
    }
}

/// The most legal moves a position can have (shakmaty's [`MoveList`] capacity).
const MAX_MOVES: usize = 256;

/// Moves with their ordering keys, handed out best first by selection (cheaper than a
/// full sort when a cutoff comes early). Lives on the stack: no allocation per node.
#[derive(Debug)]
pub struct MovePicker {
    moves: MoveList,
    keys: [i32; MAX_MOVES],
    next: usize,
}

impl MovePicker {
    /// A picker over `moves` with keys from `key`.
    pub fn new(moves: MoveList, key: impl Fn(Move) -> i32) -> MovePicker {
        let mut keys = [0; MAX_MOVES];
        for (k, &m) in keys.iter_mut().zip(moves.iter()) {
            *k = key(m);
        }
        MovePicker {
            moves,
            keys,
            next: 0,
        }
    }
}

impl Iterator for MovePicker {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let n = self.moves.len().min(MAX_MOVES);
        if self.next >= n {
            return None;
        }
        // Ties go to the later move, as `max_by_key` does (the order the strength table
        // was measured with).
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.keys[i] >= self.keys[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.keys.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position, Square};

    #[test]
    fn queen_taken_by_pawn_comes_before_pawn_taken_by_queen() {
        // The pawn on d4 can take the queen on e5, the queen on b1 the pawn on b7.
        let pos: Chess = "4k3/1p6/8/4q3/3P4/8/8/1Q5K w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let tables = OrderingTables::default();
        let moves = pos.legal_moves();
        let mut picker = MovePicker::new(moves, |m| tables.key(pos.turn(), m, 0, None));
        let first = picker.next().unwrap();
        assert_eq!((first.from(), first.to()), (Some(Square::D4), Square::E5));
        let second = picker.next().unwrap();
        assert_eq!((second.from(), second.to()), (Some(Square::B1), Square::B7));
    }

    #[test]
    fn hash_move_then_killers_lead_the_quiet_moves() {
        let pos = Chess::default();
        let moves = pos.legal_moves();
        let quiet: Vec<Move> = moves.iter().copied().collect();
        let mut tables = OrderingTables::default();
        tables.record_cutoff(Color::White, quiet[5], 3, 4);
        tables.record_cutoff(Color::White, quiet[7], 3, 4);
        let order: Vec<Move> = MovePicker::new(moves.clone(), |m| {
            tables.key(Color::White, m, 3, Some(quiet[2]))
        })
        .collect();
        assert_eq!(&order[..3], &[quiet[2], quiet[7], quiet[5]]);
        assert_eq!(order.len(), moves.len());
    }
}
