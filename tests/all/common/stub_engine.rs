//! A stub engine answering fixed evaluations (tests of the move checker's verdicts).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use hastings::engine::{Engine, EngineError, Score, Search, SearchInfo, SearchResult};
use shakmaty::{Chess, Move, Position};

/// Answers `score(position)` (the side to move's) with the line `line(position)` (else
/// its first legal move); counts its searches. While `gate` is closed (false) a search
/// waits (until stopped), so a test can see the window while the engine works.
pub struct Stub {
    pub score: fn(&Chess) -> Score,
    pub line: fn(&Chess) -> Vec<Move>,
    pub searches: Arc<AtomicUsize>,
    pub gate: Arc<AtomicBool>,
}

impl Stub {
    /// A stub with an open gate, and its count of searches.
    pub fn new(
        score: fn(&Chess) -> Score,
        line: fn(&Chess) -> Vec<Move>,
    ) -> (Stub, Arc<AtomicUsize>) {
        let searches = Arc::new(AtomicUsize::new(0));
        let stub = Stub {
            score,
            line,
            searches: Arc::clone(&searches),
            gate: Arc::new(AtomicBool::new(true)),
        };
        (stub, searches)
    }
}

impl Engine for Stub {
    fn name(&self) -> String {
        "stub engine".to_owned()
    }

    fn search(&mut self, search: Search<'_>) -> Result<SearchResult, EngineError> {
        let (game, _, stop, _) = search.into_parts();
        while !self.gate.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(2));
        }
        self.searches.fetch_add(1, Ordering::SeqCst);
        let pos = game.position();
        let mut pv = (self.line)(pos);
        if pv.is_empty() {
            pv.extend(pos.legal_moves().first().copied());
        }
        Ok(SearchResult {
            best: pv.first().copied(),
            ponder: None,
            info: Some(SearchInfo {
                depth: 7,
                score: Some((self.score)(pos)),
                pv,
                multipv: 1,
                ..SearchInfo::default()
            }),
        })
    }
}

/// Every position level (+0.2 for the side to move): every move is also good.
pub fn level(_: &Chess) -> Score {
    Score::Cp(20)
}

/// A knight on g5 hangs: the side to move there is a knight up.
pub fn knight_hangs(pos: &Chess) -> Score {
    if pos.board().piece_at(shakmaty::Square::G5).is_some() {
        Score::Cp(320)
    } else {
        Score::Cp(-30)
    }
}

/// The moves of `sans` from `pos`, as far as they are legal.
pub fn line_of(pos: &Chess, sans: &[&str]) -> Vec<Move> {
    let mut moves = Vec::new();
    let mut p = pos.clone();
    for san in sans {
        let Some(m) = san
            .parse::<shakmaty::san::San>()
            .ok()
            .and_then(|s| s.to_move(&p).ok())
        else {
            break;
        };
        p.play_unchecked(m);
        moves.push(m);
    }
    moves
}

/// After 3.Ng5: 3...Qxg5 4.d4.
pub fn qxg5_line(pos: &Chess) -> Vec<Move> {
    line_of(pos, &["Qxg5", "d4"])
}

/// No line of its own (the stub plays the first legal move).
pub fn no_line(_: &Chess) -> Vec<Move> {
    Vec::new()
}
