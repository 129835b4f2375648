//! Your games against your repertoire: where each game left it, and which deviations
//! come back most often.
//!
//! A game is *in the repertoire* while its position is a node of the repertoire's graph
//! (transpositions count: a move order of the game's own that reaches a repertoire
//! position keeps it in). For each game where the player had the repertoire's colour,
//! the walk through the game records:
//!
//! - where the **player** first left the repertoire: the ply, the move played and the
//!   repertoire's moves there;
//! - where the **opponent** first left it, and whether the position after the
//!   opponent's move was a known gap (one of the gaps of the
//!   [exposure](super::coverage));
//! - where the **repertoire ended**: the game stood at a repertoire position where the
//!   repertoire has no move (leaving it from there is no deviation);
//! - every **return** into the repertoire by transposition after leaving it.
//!
//! The games come from the PGN importer in games mode
//! ([`read_pgn`](crate::book::pgn::read_pgn)): one line per game with the game's tags,
//! whose `White` and `Black` give the player's colour (a case-insensitive match of the
//! whole name).
//!
//! ```
//! use hastings::book::pgn::{read_pgn, ImportMode, ImportOptions};
//! use hastings::book::{PositionGraph, SourceId};
//! use hastings::trainer::compare::{CompareOptions, compare};
//! use shakmaty::Color;
//!
//! let rep = "[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n";
//! let options = ImportOptions { mode: ImportMode::Repertoire, max_plies: None };
//! let rep = PositionGraph::build(read_pgn(rep.as_bytes(), SourceId(1), &options, None)?.lines).graph;
//! let games = "[White \"Me\"]\n[Black \"You\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 1-0\n";
//! let options = ImportOptions { mode: ImportMode::Games, max_plies: None };
//! let games = read_pgn(games.as_bytes(), SourceId(2), &options, None)?.lines;
//! let result = compare(&rep, &games, &CompareOptions { player: "me".into(), learner: Color::White }, &[]);
//! let left = result.games[0].player_left.as_ref().unwrap();
//! assert_eq!((left.ply, left.san.as_str()), (5, "Bc4"));
//! assert_eq!(left.repertoire, ["Bb5"]);
//! # Ok::<(), hastings::book::pgn::ImportError>(())
//! ```

use rustc_hash::FxHashMap;
use shakmaty::fen::Epd;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use super::coverage::Gap;
use crate::book::{LineSource, NodeKey, OpeningLine, PositionGraph};
use crate::review::{CardKey, Rating, ReviewRecord, Timestamp};

/// Whose games to compare, and the repertoire's colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareOptions {
    /// The player's name as in the games' `White` and `Black` tags (any case).
    pub player: String,
    /// The colour the repertoire is for: games where the player had the other colour
    /// are counted and skipped.
    pub learner: Color,
}

/// Who played a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mover {
    /// The player (the learner).
    Player,
    /// The player's opponent.
    Opponent,
}

/// A move that left the repertoire.
#[derive(Clone, Debug, PartialEq)]
pub struct Deviation {
    /// The move's number in plies (1: White's first move).
    pub ply: u32,
    /// The game's moves before it.
    pub moves: Vec<Move>,
    /// The move played.
    pub played: Move,
    /// It in SAN.
    pub san: String,
    /// The repertoire's moves in that position, in SAN.
    pub repertoire: Vec<String>,
    /// The position before the move, as EPD.
    pub epd: String,
    /// For the opponent's move: whether the position after it is a known gap.
    pub known_gap: bool,
}

/// A return into the repertoire by transposition.
#[derive(Clone, Debug, PartialEq)]
pub struct Return {
    /// The moves played when the game was back in the repertoire.
    pub ply: u32,
    /// The game's moves up to there.
    pub moves: Vec<Move>,
    /// The position, as EPD.
    pub epd: String,
}

/// One game against the repertoire.
#[derive(Clone, Debug, PartialEq)]
pub struct GameComparison {
    /// The game's number in the file (1-based).
    pub game: u32,
    /// The `White` tag.
    pub white: String,
    /// The `Black` tag.
    pub black: String,
    /// The `Result` tag.
    pub result: String,
    /// The player's colour in the game.
    pub colour: Color,
    /// The plies of the game that were read.
    pub plies: u32,
    /// Where the player first left the repertoire.
    pub player_left: Option<Deviation>,
    /// Where the opponent first left the repertoire.
    pub opponent_left: Option<Deviation>,
    /// The ply at which the game first stood at a repertoire position where the
    /// repertoire has no move.
    pub repertoire_end: Option<u32>,
    /// Returns into the repertoire after leaving it.
    pub returns: Vec<Return>,
}

impl GameComparison {
    /// The game's first deviation, by either side.
    pub fn first_exit(&self) -> Option<(Mover, &Deviation)> {
        let player = self.player_left.as_ref().map(|d| (Mover::Player, d));
        let opponent = self.opponent_left.as_ref().map(|d| (Mover::Opponent, d));
        match (player, opponent) {
            (Some(p), Some(o)) => Some(if p.1.ply < o.1.ply { p } else { o }),
            (p, o) => p.or(o),
        }
    }
}

/// One deviation and how many games made it.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviationCount {
    /// Who left the repertoire.
    pub by: Mover,
    /// The position before the move, as EPD.
    pub epd: String,
    /// The moves of the first game that made it, up to the position.
    pub moves: Vec<Move>,
    /// The move, in SAN.
    pub played: String,
    /// The repertoire's moves there, in SAN.
    pub repertoire: Vec<String>,
    /// Whether the position after the move is a known gap.
    pub known_gap: bool,
    /// The number of games.
    pub count: u32,
}

/// Counts over all games. Serialised (the counts only) as the summary of
/// `hastings compare --json`, whose deviations are written with their moves in SAN.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct CompareSummary {
    /// Games in the input.
    pub games: u32,
    /// Games compared (the player with the repertoire's colour, standard start).
    pub compared: u32,
    /// Games of the player with the other colour.
    pub other_colour: u32,
    /// Games the player did not play.
    pub not_player: u32,
    /// Games of the player that do not start from the standard position.
    pub other_start: u32,
    /// Games where the player left the repertoire.
    pub player_left: u32,
    /// Games where the opponent left the repertoire.
    pub opponent_left: u32,
    /// Of those, games where the opponent's move led into a known gap.
    pub known_gaps: u32,
    /// Games that reached the end of the repertoire.
    pub repertoire_ended: u32,
    /// Games that came back into the repertoire by transposition.
    pub returned: u32,
    /// The first deviations of the games, most frequent first.
    #[serde(skip)]
    pub deviations: Vec<DeviationCount>,
}

/// The games compared, and the summary.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    /// The games compared, in file order.
    pub games: Vec<GameComparison>,
    /// The counts and the most frequent deviations.
    pub summary: CompareSummary,
}

impl Comparison {
    /// The learner's deviations as failed reviews: one `again` at `now` for
    /// each card (the repertoire position where the player left it) that some game
    /// left, however many games left it there, so that real games feed the review
    /// schedule. The records are in the order the games first left each card.
    ///
    /// ```
    /// # use hastings::book::pgn::{read_pgn, ImportMode, ImportOptions};
    /// # use hastings::book::{PositionGraph, SourceId};
    /// # use hastings::trainer::compare::{CompareOptions, compare};
    /// # use hastings::review::{CardKey, Rating, Timestamp};
    /// # use shakmaty::{Chess, Color, Position};
    /// # let rep = "[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n";
    /// # let options = ImportOptions { mode: ImportMode::Repertoire, max_plies: None };
    /// # let rep = PositionGraph::build(read_pgn(rep.as_bytes(), SourceId(1), &options, None)?.lines).graph;
    /// let games = "[White \"Me\"]\n[Black \"You\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 1-0\n\n\
    ///              [White \"Me\"]\n[Black \"Them\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. d4 1-0\n";
    /// # let options = ImportOptions { mode: ImportMode::Games, max_plies: None };
    /// # let games = read_pgn(games.as_bytes(), SourceId(2), &options, None)?.lines;
    /// let result = compare(&rep, &games, &CompareOptions { player: "me".into(), learner: Color::White }, &[]);
    /// let now = Timestamp::parse_rfc3339("2026-11-23T10:00:00+01:00").unwrap();
    /// let failed = result.failed_reviews(now);
    /// assert_eq!(failed.len(), 1); // two games, one card: after 1.e4 e5 2.Nf3 Nc6
    /// assert_eq!(failed[0].rating, Rating::Again);
    /// # let mut pos = Chess::default();
    /// # for m in hastings::book::movelist::parse_moves(&pos, "e4 e5 Nf3 Nc6").unwrap() { pos.play_unchecked(m); }
    /// assert_eq!(failed[0].card, CardKey::from_position(&pos));
    /// # Ok::<(), hastings::book::pgn::ImportError>(())
    /// ```
    pub fn failed_reviews(&self, now: Timestamp) -> Vec<ReviewRecord> {
        let mut out: Vec<ReviewRecord> = Vec::new();
        for game in &self.games {
            let Some(left) = &game.player_left else {
                continue;
            };
            let mut pos = Chess::default();
            for &mv in &left.moves {
                pos.play_unchecked(mv);
            }
            let card = CardKey::from_position(&pos);
            if out.iter().any(|r| r.card == card) {
                continue;
            }
            out.push(ReviewRecord {
                time: now,
                color: game.colour,
                rating: Rating::Again,
                seconds: 0.0,
                fuzz: false,
                card,
            });
        }
        out
    }
}

/// Compares each game of `games` (lines of a games-mode import, one per game) that the
/// player played with the repertoire's colour against `repertoire`. `gaps` are the
/// known gaps (an exposure's), to tell which deviations of the opponent were expected.
pub fn compare(
    repertoire: &PositionGraph,
    games: &[OpeningLine],
    options: &CompareOptions,
    gaps: &[Gap],
) -> Comparison {
    let gap_keys: rustc_hash::FxHashSet<NodeKey> = gaps.iter().map(|g| g.key).collect();
    let player = options.player.trim().to_lowercase();
    let mut out = Comparison::default();
    let mut last_game = None;
    for line in games {
        // Games mode gives one line per game; a repeated game number is the same game.
        let number = match line.source {
            LineSource::Pgn { game, .. } => Some(game),
            LineSource::Eco { .. } => None,
        };
        if number.is_some() && number == last_game {
            continue;
        }
        last_game = number;
        out.summary.games += 1;
        let tag = |name: &str| {
            line.tags
                .as_ref()
                .and_then(|t| t.known(name))
                .unwrap_or_default()
                .to_owned()
        };
        let (white, black) = (tag("White"), tag("Black"));
        let colour = if white.to_lowercase() == player {
            Color::White
        } else if black.to_lowercase() == player {
            Color::Black
        } else {
            out.summary.not_player += 1;
            continue;
        };
        if colour != options.learner {
            out.summary.other_colour += 1;
            continue;
        }
        if line.start.is_some() {
            out.summary.other_start += 1;
            continue;
        }
        let mut game = walk(repertoire, line, colour, &gap_keys);
        game.game = number.unwrap_or(out.summary.games);
        game.white = white;
        game.black = black;
        game.result = tag("Result");
        out.games.push(game);
    }
    summarise(&mut out);
    out
}

/// The repertoire's moves at `pos` (whose key is `key`), legal there.
fn repertoire_moves(repertoire: &PositionGraph, key: &NodeKey, pos: &Chess) -> Vec<Move> {
    repertoire.node(key).map_or_else(Vec::new, |node| {
        repertoire
            .continuations(node)
            .iter()
            .filter(|c| pos.is_legal(c.mv))
            .map(|c| c.mv)
            .collect()
    })
}

fn epd(pos: &Chess) -> String {
    Epd::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Walks one game (from the standard position) through the repertoire.
fn walk(
    repertoire: &PositionGraph,
    line: &OpeningLine,
    colour: Color,
    gaps: &rustc_hash::FxHashSet<NodeKey>,
) -> GameComparison {
    let mut game = GameComparison {
        game: 0,
        white: String::new(),
        black: String::new(),
        result: String::new(),
        colour,
        plies: 0,
        player_left: None,
        opponent_left: None,
        repertoire_end: None,
        returns: Vec::new(),
    };
    let mut pos = Chess::default();
    let mut moves: Vec<Move> = Vec::with_capacity(line.moves.len());
    let mut key = NodeKey::from_position(&pos);
    let mut inside = repertoire.node(&key).is_some();
    // A line's moves are legal from its start (the importer checked them).
    for &mv in &line.moves {
        let ply = u32::try_from(moves.len() + 1).unwrap_or(u32::MAX);
        let key_after = key.after_move(mv);
        let next_inside = repertoire.node(&key_after).is_some();
        if inside {
            let known = repertoire_moves(repertoire, &key, &pos);
            if known.is_empty() {
                game.repertoire_end.get_or_insert(ply - 1);
            } else if !next_inside {
                let mover = if pos.turn() == colour {
                    Mover::Player
                } else {
                    Mover::Opponent
                };
                let slot = match mover {
                    Mover::Player => &mut game.player_left,
                    Mover::Opponent => &mut game.opponent_left,
                };
                if slot.is_none() {
                    *slot = Some(Deviation {
                        ply,
                        moves: moves.clone(),
                        played: mv,
                        san: SanPlus::from_move(pos.clone(), mv).to_string(),
                        repertoire: known
                            .iter()
                            .map(|m| SanPlus::from_move(pos.clone(), *m).to_string())
                            .collect(),
                        epd: epd(&pos),
                        known_gap: mover == Mover::Opponent && gaps.contains(&key_after),
                    });
                }
            }
        }
        pos.play_unchecked(mv);
        key = key_after;
        moves.push(mv);
        if !inside && next_inside {
            game.returns.push(Return {
                ply,
                moves: moves.clone(),
                epd: epd(&pos),
            });
        }
        inside = next_inside;
    }
    game.plies = u32::try_from(moves.len()).unwrap_or(u32::MAX);
    if inside && repertoire_moves(repertoire, &key, &pos).is_empty() {
        game.repertoire_end.get_or_insert(game.plies);
    }
    game
}

/// Fills the summary's counts and the most frequent first deviations.
fn summarise(out: &mut Comparison) {
    let s = &mut out.summary;
    let mut index: FxHashMap<(Mover, String, String), usize> = FxHashMap::default();
    for g in &out.games {
        s.compared += 1;
        s.player_left += u32::from(g.player_left.is_some());
        s.opponent_left += u32::from(g.opponent_left.is_some());
        s.known_gaps += u32::from(g.opponent_left.as_ref().is_some_and(|d| d.known_gap));
        s.repertoire_ended += u32::from(g.repertoire_end.is_some());
        s.returned += u32::from(!g.returns.is_empty());
        let Some((by, d)) = g.first_exit() else {
            continue;
        };
        let key = (by, d.epd.clone(), d.san.clone());
        let i = *index.entry(key).or_insert_with(|| {
            s.deviations.push(DeviationCount {
                by,
                epd: d.epd.clone(),
                moves: d.moves.clone(),
                played: d.san.clone(),
                repertoire: d.repertoire.clone(),
                known_gap: d.known_gap,
                count: 0,
            });
            s.deviations.len() - 1
        });
        s.deviations[i].count += 1;
    }
    // Stable: equal counts keep the order of their first game.
    s.deviations.sort_by_key(|d| std::cmp::Reverse(d.count));
}

/// The colour a repertoire is for, guessed from its lines: a lichess study's
/// `[Orientation]` tag when most lines have one, else the side that branches less (a
/// repertoire answers the opponent's many moves with one move each), else the side
/// that plays the last move of more lines (a line ends on the learner's answer).
/// `None` when nothing tells.
pub fn repertoire_colour(repertoire: &PositionGraph) -> Option<Color> {
    let mut oriented = [0usize; 2];
    for line in repertoire.lines() {
        let value = line.tags.as_ref().and_then(|t| t.known("Orientation"));
        match value.map(str::to_ascii_lowercase).as_deref() {
            Some("white") => oriented[0] += 1,
            Some("black") => oriented[1] += 1,
            _ => {}
        }
    }
    let lines = repertoire.lines().len();
    if oriented[0] * 2 > lines {
        return Some(Color::White);
    }
    if oriented[1] * 2 > lines {
        return Some(Color::Black);
    }
    // Extra moves per side: a node with k continuations adds k - 1.
    let mut extra = [0usize; 2];
    for node in repertoire.node_ids() {
        let n = repertoire.continuations(node).len();
        let side = usize::from(repertoire.key(node).turn().is_black());
        extra[side] += n.saturating_sub(1);
    }
    // Lines whose last move was White's, Black's (lines from the standard position).
    let mut last = [0usize; 2];
    for line in repertoire.lines().iter().filter(|l| l.start.is_none()) {
        if !line.moves.is_empty() {
            last[usize::from(line.moves.len() % 2 == 0)] += 1;
        }
    }
    match extra[0].cmp(&extra[1]).then(last[1].cmp(&last[0])) {
        std::cmp::Ordering::Less => Some(Color::White),
        std::cmp::Ordering::Greater => Some(Color::Black),
        std::cmp::Ordering::Equal => None,
    }
}

/// The name that appears most often in the games' `White` and `Black` tags (a file of
/// one's own games names oneself in every game); ties go to the first met.
pub fn most_frequent_player(games: &[OpeningLine]) -> Option<String> {
    players_by_frequency(games)
        .into_iter()
        .next()
        .map(|(name, _)| name)
}

/// The names in the games' `White` and `Black` tags with the number of games each
/// plays, most frequent first (ties in the order met); names that differ only in case
/// are one player, spelt as first met.
pub fn players_by_frequency(games: &[OpeningLine]) -> Vec<(String, u32)> {
    let mut counts: Vec<(String, u32)> = Vec::new();
    let mut index: FxHashMap<String, usize> = FxHashMap::default();
    let mut last_game = None;
    for line in games {
        if let LineSource::Pgn { game, .. } = line.source {
            if last_game == Some(game) {
                continue;
            }
            last_game = Some(game);
        }
        let Some(tags) = &line.tags else {
            continue;
        };
        for name in ["White", "Black"] {
            if let Some(v) = tags.known(name) {
                let i = *index.entry(v.to_lowercase()).or_insert_with(|| {
                    counts.push((v.to_owned(), 0));
                    counts.len() - 1
                });
                counts[i].1 += 1;
            }
        }
    }
    // Stable: ties keep the order met.
    counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    counts
}

/// The ply limit for reading games against `repertoire`: its longest line and 20 plies
/// more, for returns by transposition.
pub fn games_ply_limit(repertoire: &PositionGraph) -> u32 {
    u32::try_from(repertoire.stats().max_depth)
        .unwrap_or(u32::MAX)
        .saturating_add(20)
}
