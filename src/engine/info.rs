//! What a search reports while it runs and when it ends.

use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};
use shakmaty_uci::{UciInfo, UciInfoScore};

use super::score::Score;

/// One progress report of a search (one `info` line with a score).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchInfo {
    /// The depth completed, in plies.
    pub depth: u32,
    /// The deepest ply reached (quiescence included).
    pub seldepth: Option<u32>,
    /// The score of the principal variation, from the side to move's point of view.
    pub score: Option<Score>,
    /// The principal variation, legal from the searched position (a UCI engine's
    /// variation is cut at its first illegal move).
    pub pv: Vec<Move>,
    /// Which line of a multi-PV search this is (1 = best).
    pub multipv: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Time since the search started.
    pub time: Duration,
}

impl SearchInfo {
    /// The report in a UCI `info` line, as shakmaty-uci writes it.
    pub fn to_uci(&self) -> UciInfo {
        UciInfo {
            depth: Some(u8::try_from(self.depth).unwrap_or(u8::MAX)),
            sel_depth: self.seldepth.map(|d| u8::try_from(d).unwrap_or(u8::MAX)),
            time: Some(self.time),
            nodes: Some(self.nodes),
            pv: self
                .pv
                .iter()
                .map(|m| m.to_uci(CastlingMode::Standard))
                .collect(),
            multi_pv: Some(u16::try_from(self.multipv.max(1)).unwrap_or(u16::MAX)),
            score: self.score.map(|s| match s {
                Score::Cp(cp) => UciInfoScore::from_centipawns(cp),
                Score::Mate(n) => UciInfoScore {
                    mate: Some(i8::try_from(n).unwrap_or(if n > 0 { i8::MAX } else { i8::MIN })),
                    ..UciInfoScore::default()
                },
            }),
            nps: self.nps,
            ..UciInfo::default()
        }
    }

    /// The report of a UCI engine's `info` line at `pos`, or `None` when the line
    /// carries no score and no variation (`info string …`, `info currmove …`).
    pub fn from_uci(info: &UciInfo, pos: &Chess) -> Option<SearchInfo> {
        let score = info.score.as_ref().and_then(|s| match (s.cp, s.mate) {
            (_, Some(n)) => Some(Score::Mate(i32::from(n))),
            (Some(cp), None) => Some(Score::Cp(cp)),
            (None, None) => None,
        });
        if score.is_none() && info.pv.is_empty() {
            return None;
        }
        Some(SearchInfo {
            depth: info.depth.map_or(0, u32::from),
            seldepth: info.sel_depth.map(u32::from),
            score,
            pv: legal_prefix(pos, &info.pv),
            multipv: info.multi_pv.map_or(1, u32::from),
            nodes: info.nodes.unwrap_or(0),
            nps: info.nps,
            time: info.time.unwrap_or_default(),
        })
    }
}

/// The longest legal prefix of `line` played from `pos`.
pub fn legal_prefix(pos: &Chess, line: &[UciMove]) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for uci in line {
        let Ok(m) = uci.to_move(&pos) else { break };
        pos.play_unchecked(m);
        out.push(m);
    }
    out
}

/// The end of a search: the move to play and the last report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchResult {
    /// The move to play; `None` when the side to move has no legal move (`bestmove
    /// (none)`).
    pub best: Option<Move>,
    /// The expected reply, when the engine gives one.
    pub ponder: Option<Move>,
    /// The last report with a score, if any came.
    pub info: Option<SearchInfo>,
}
