//! Generated games for the benches: [`write_walk`], a walk of the gnuchess book as
//! movetext (`benches/polyglot.rs`, and the explorer's games), and
//! [`generate_games`], the lichess-like games of the explorer benches
//! (`benches/explorer.rs`, `benches/explorer_store.rs`): walks of the gnuchess book
//! from the start (each move with the probability of its weight), then uniformly random
//! legal moves, 60 plies; with lichess-like tags: ratings 800–2700, a time control among
//! bullet, blitz, rapid and classical ones, a date from 2013 to 2024, one of 5,000 player
//! names, results 38 % 1-0, 32 % ½-½, 30 % 0-1; a fixed seed gives the same games.

use std::fmt::Write as _;

use hastings::book::polyglot::{PolyglotBook, gnuchess};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

const TIME_CONTROLS: [&str; 8] = [
    "60+0", "120+1", "180+0", "300+3", "600+0", "600+5", "900+10", "1800+20",
];

/// `n` generated games as PGN text (see the module docs).
#[allow(dead_code)] // each bench uses its part of this file
pub fn generate_games(n: usize, seed: u64, mut out: impl std::io::Write) {
    let book = gnuchess().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut text = String::with_capacity(2048);
    for game in 1..=n {
        let result = match rng.random_range(0..100) {
            0..38 => "1-0",
            38..70 => "1/2-1/2",
            _ => "0-1",
        };
        text.clear();
        let white_elo: i32 = rng.random_range(800..2700);
        let black_elo = (white_elo + rng.random_range(-200..200)).clamp(600, 2900);
        let _ = write!(
            text,
            "[Event \"Generated\"]\n[Site \"?\"]\n[Date \"{}.{:02}.{:02}\"]\n[Round \"{game}\"]\n\
             [White \"player{}\"]\n[Black \"player{}\"]\n[Result \"{result}\"]\n\
             [WhiteElo \"{white_elo}\"]\n[BlackElo \"{black_elo}\"]\n[TimeControl \"{}\"]\n\n",
            rng.random_range(2013..2025),
            rng.random_range(1..13),
            rng.random_range(1..29),
            rng.random_range(0..5000),
            rng.random_range(0..5000),
            TIME_CONTROLS[rng.random_range(0..TIME_CONTROLS.len())],
        );
        write_walk(&book, &mut rng, 60, &mut text);
        let _ = writeln!(text, "{result}\n");
        out.write_all(text.as_bytes()).unwrap();
    }
}

/// Appends to `text` the movetext of a walk of `book` from the start, up to `plies`
/// plies: each book move with the probability of its weight, out of the book uniformly
/// random legal moves; lines of at most 79 characters.
#[allow(dead_code)] // each bench uses its part of this file
pub fn write_walk(book: &PolyglotBook, rng: &mut ChaCha8Rng, plies: usize, text: &mut String) {
    let mut pos = Chess::default();
    let mut line = 0;
    for ply in 0..plies {
        let book_moves = book.moves(&pos);
        let mv = if book_moves.is_empty() {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            legal[rng.random_range(0..legal.len())]
        } else {
            let total = book_moves.total_weight();
            let mut pick = rng.random_range(0..total);
            let mut chosen = book_moves.moves[0].mv;
            for m in &book_moves.moves {
                if pick < u64::from(m.weight) {
                    chosen = m.mv;
                    break;
                }
                pick -= u64::from(m.weight);
            }
            chosen
        };
        let token = if ply % 2 == 0 {
            format!("{}. {} ", ply / 2 + 1, SanPlus::from_move(pos.clone(), mv))
        } else {
            format!("{} ", SanPlus::from_move(pos.clone(), mv))
        };
        if line + token.len() > 79 {
            text.push('\n');
            line = 0;
        }
        line += token.len();
        text.push_str(&token);
        pos.play_unchecked(mv);
    }
}
