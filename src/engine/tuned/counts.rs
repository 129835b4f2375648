//! Counting the features of a position, for each side, from shakmaty's bitboards.
//!
//! Pawn structure is set algebra on 64-bit masks: a side's pawns filled forward give
//! the squares ahead of them, shifted one file either way the squares their
//! neighbours cover, and so on. Sliding mobility comes from shakmaty's magic attack
//! tables. Nothing here allocates.

use shakmaty::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, ByColor, Chess, Color, Position, Role, Square};

use super::feature::{Feature, PerFeature};
use crate::engine::pst::square_bonus;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
/// d4, e4, d5, e5.
const CENTRE: u64 = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36);
/// Knights and bishops count 1, rooks 2, queens 4: at this much or less in all, the
/// king uses its endgame table.
pub const ENDGAME_PHASE: u32 = 8;

fn north_fill(mut b: u64) -> u64 {
    b |= b << 8;
    b |= b << 16;
    b | (b << 32)
}

fn south_fill(mut b: u64) -> u64 {
    b |= b >> 8;
    b |= b >> 16;
    b | (b >> 32)
}

/// Every square of the files `b` touches.
fn file_fill(b: u64) -> u64 {
    north_fill(b) | south_fill(b)
}

/// `b` one rank ahead for `color`.
fn forward(color: Color, b: u64) -> u64 {
    match color {
        Color::White => b << 8,
        Color::Black => b >> 8,
    }
}

/// `b` and every square ahead of it for `color`.
fn fill_forward(color: Color, b: u64) -> u64 {
    match color {
        Color::White => north_fill(b),
        Color::Black => south_fill(b),
    }
}

/// The squares strictly ahead of `b` for `color`.
fn span_forward(color: Color, b: u64) -> u64 {
    fill_forward(color, forward(color, b))
}

/// `b` moved one file to each side.
fn sides(b: u64) -> u64 {
    ((b & !FILE_A) >> 1) | ((b & !FILE_H) << 1)
}

/// The squares `color`'s pawns attack.
fn pawn_attacks(color: Color, pawns: u64) -> u64 {
    sides(forward(color, pawns))
}

/// Ranks 4 to 7 as `color` sees them (where a knight can be an outpost).
fn outpost_ranks(color: Color) -> u64 {
    match color {
        Color::White => 0x00FF_FFFF_FF00_0000,
        Color::Black => 0x0000_00FF_FFFF_FF00,
    }
}

/// The second rank as `color` sees it (where its pawns start).
fn home_rank(color: Color) -> u64 {
    match color {
        Color::White => 0xFF00,
        Color::Black => 0x00FF_0000_0000_0000,
    }
}

fn manhattan(a: Square, b: Square) -> i32 {
    (a.file().distance(b.file()) + a.rank().distance(b.rank())) as i32
}

fn squares(b: u64) -> Bitboard {
    Bitboard(b)
}

fn count(b: u64) -> i32 {
    b.count_ones() as i32
}

/// One side's pawn structure.
#[derive(Clone, Copy, Debug, Default)]
struct Pawns {
    pawns: u64,
    passed: u64,
    isolated: u64,
    backward: u64,
}

impl Pawns {
    fn of(color: Color, ours: u64, theirs: u64) -> Pawns {
        let enemy_span = span_forward(!color, theirs);
        let passed = ours & !(enemy_span | sides(enemy_span));
        let isolated = ours & !sides(file_fill(ours));
        let supportable = sides(fill_forward(color, ours));
        let stop_attacked = forward(!color, pawn_attacks(!color, theirs));
        let backward = ours & !isolated & !supportable & stop_attacked;
        Pawns {
            pawns: ours,
            passed,
            isolated,
            backward,
        }
    }
}

/// What both sides' counts need.
struct Context<'a> {
    board: &'a Board,
    occupied: u64,
    pawns: ByColor<Pawns>,
    endgame: bool,
}

/// The features of `pos` for each side (the checkmate feature is 1 for the side to move
/// when it is mated).
pub fn count_features(pos: &Chess) -> ByColor<PerFeature> {
    let board = pos.board();
    let white = board.by_piece(Role::Pawn.of(Color::White)).0;
    let black = board.by_piece(Role::Pawn.of(Color::Black)).0;
    let phase = board.by_role(Role::Knight).count()
        + board.by_role(Role::Bishop).count()
        + 2 * board.by_role(Role::Rook).count()
        + 4 * board.by_role(Role::Queen).count();
    let context = Context {
        board,
        occupied: board.occupied().0,
        pawns: ByColor {
            white: Pawns::of(Color::White, white, black),
            black: Pawns::of(Color::Black, black, white),
        },
        endgame: phase as u32 <= ENDGAME_PHASE,
    };
    let mut counts = ByColor {
        white: side(&context, Color::White),
        black: side(&context, Color::Black),
    };
    if pos.is_checkmate() {
        counts.get_mut(pos.turn())[Feature::Checkmate] = 1;
    }
    counts
}

/// The features of `color`.
fn side(c: &Context, color: Color) -> PerFeature {
    let mut f = PerFeature::default();
    let board = c.board;
    let ours = board.by_color(color).0;
    let piece = |role: Role| board.by_piece(role.of(color)).0;
    let (pawns, knights, bishops, rooks, queens) = (
        piece(Role::Pawn),
        piece(Role::Knight),
        piece(Role::Bishop),
        piece(Role::Rook),
        piece(Role::Queen),
    );
    let mine = c.pawns.get(color);
    let theirs = c.pawns.get(!color);
    let their_king = board.king_of(!color);
    let king = board.king_of(color);

    f[Feature::Pawn] = count(pawns);
    f[Feature::Knight] = count(knights);
    f[Feature::Bishop] = count(bishops);
    f[Feature::Rook] = count(rooks);
    f[Feature::Queen] = count(queens);

    f[Feature::PassedPawn] = count(mine.passed);
    f[Feature::DoubledPawn] = count(pawns) - count(file_fill(pawns) & 0xFF);
    f[Feature::IsolatedPawn] = count(mine.isolated);
    f[Feature::BackwardPawn] = count(mine.backward);
    if let Some(k) = their_king {
        f[Feature::PassedPawnKingDistance] = squares(mine.passed)
            .into_iter()
            .map(|p| manhattan(p, k))
            .sum();
    }
    f[Feature::CentrePawn] = count(pawns & CENTRE);

    let our_pawn_attacks = pawn_attacks(color, pawns);
    let never_attacked = !sides(span_forward(!color, theirs.pawns));
    for sq in squares(knights) {
        f[Feature::KnightMobility] += count(knight_attacks(sq).0 & !ours);
    }
    f[Feature::KnightOutpost] =
        count(knights & outpost_ranks(color) & our_pawn_attacks & never_attacked);

    for sq in squares(bishops) {
        f[Feature::BishopMobility] += count(bishop_attacks(sq, squares(c.occupied)).0 & !ours);
    }
    f[Feature::BishopPair] = i32::from(count(bishops) >= 2);

    rook_features(c, color, rooks, &mut f);

    for sq in squares(queens) {
        f[Feature::QueenMobility] += count(queen_attacks(sq, squares(c.occupied)).0 & !ours);
    }

    if let Some(k) = king {
        let k_bb = 1u64 << (k as u32);
        let ahead = span_forward(color, k_bb);
        let ahead_beside = span_forward(color, sides(k_bb));
        let shelter = pawns & (ahead | ahead_beside);
        f[Feature::KingShelterPawn] = count(pawns & ahead);
        f[Feature::KingShelterPawnAdjacent] = count(pawns & ahead_beside);
        f[Feature::KingShelterPawnAdvanced] = count(shelter & !home_rank(color));
        let mut near = 0;
        let mut step = k_bb | sides(k_bb);
        for _ in 0..4 {
            step = forward(color, step);
            near |= step;
        }
        f[Feature::KingEnemyPawn] = count(theirs.pawns & near & file_fill(k_bb));
        f[Feature::KingEnemyPawnAdjacent] = count(theirs.pawns & near & !file_fill(k_bb));
    }
    if let Some(k) = their_king {
        f[Feature::KingPressure] = squares(knights | bishops | rooks | queens)
            .into_iter()
            .map(|sq| 14 - manhattan(sq, k))
            .sum();
    }

    let table = |role: Role, b: u64| -> i32 {
        squares(b)
            .into_iter()
            .map(|sq| square_bonus(color, role, sq, c.endgame))
            .sum()
    };
    f[Feature::BishopTable] = table(Role::Bishop, bishops);
    f[Feature::KnightTable] = table(Role::Knight, knights);
    f[Feature::RookTable] = table(Role::Rook, rooks);
    f[Feature::QueenTable] = table(Role::Queen, queens);
    f[Feature::PawnTable] = table(Role::Pawn, pawns);
    f[Feature::KingTable] = king.map_or(0, |k| square_bonus(color, Role::King, k, c.endgame));
    f
}

/// The rook features of `color`.
fn rook_features(c: &Context, color: Color, rooks: u64, f: &mut PerFeature) {
    if rooks == 0 {
        return;
    }
    let board = c.board;
    let ours = board.by_color(color).0;
    let mine = c.pawns.get(color);
    let theirs = c.pawns.get(!color);
    let our_files = file_fill(mine.pawns);
    let their_files = file_fill(theirs.pawns);
    let weak_files = file_fill(theirs.isolated | theirs.backward);
    f[Feature::RookAttacksWeakPawn] = count(rooks & !our_files & weak_files);
    f[Feature::RookOpenFile] = count(rooks & !our_files & !their_files);
    f[Feature::RookSemiOpenFile] = count(rooks & !our_files & their_files);
    if let Some(k) = board.king_of(!color) {
        let king_file = file_fill(1u64 << (k as u32));
        f[Feature::RookKingFile] = count(rooks & king_file);
        f[Feature::RookKingAdjacentFile] = count(rooks & sides(king_file));
    }
    let behind = span_forward(!color, mine.passed) | span_forward(color, theirs.passed);
    f[Feature::RookBehindPassedPawn] = count(rooks & behind);
    let mut connected = false;
    for sq in squares(rooks) {
        let attacks = rook_attacks(sq, squares(c.occupied)).0;
        f[Feature::RookMobility] += count(attacks & !ours);
        connected |= attacks & rooks != 0;
    }
    f[Feature::RooksConnected] = i32::from(connected);
}
