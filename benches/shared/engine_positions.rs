//! The built-in engine benches' positions (`benches/engine.rs`, `benches/tuned_eval.rs`):
//! an opening, a busy middlegame, an endgame, each with the depth the tapered
//! evaluation's search is timed at.

use hastings::engine::Game;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// (name, FEN, depth).
pub const POSITIONS: [(&str, &str, u32); 4] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        7,
    ),
    (
        "qgd",
        "rnbqkb1r/ppp2ppp/4pn2/3p2B1/2PP4/2N5/PP2PPPP/R2QKBNR b KQkq - 3 4",
        7,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        6,
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 10),
];

/// The position of `fen`.
pub fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// A game starting at `fen`.
#[allow(dead_code)] // each bench uses its part of this file
pub fn game(fen: &str) -> Game {
    Game::new(position(fen))
}
