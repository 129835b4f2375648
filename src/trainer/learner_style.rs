//! The learner's style, after BayesChess (Fernández and Salmerón, a chess program built
//! on Bayesian networks, §5): a naive Bayes classifier over four features of a game's
//! opening, with three classes, and its adaptive opponent (§5.1).
//!
//! **Features** of one side (the *player*) in one game, measured at the end of its
//! first [`OPENING_PLIES`] plies (the paper's opening: the first 10 moves), or at the
//! end of a shorter line:
//!
//! 1. [`FirstMove`]: the player's first move (as White 1.e4, 1.d4, 1.c4, 1.Nf3 or other;
//!    as Black 1…c5, e5, e6, c6, d6, g6, Nf6, d5 or other).
//! 2. [`Castling`]: where the two kings stand. A king on the a–c files is on the
//!    queenside, on f–h on the kingside, on d or e in the centre. `Same`: both on one
//!    wing; `Opposite`: one on each wing; `Centre`: at least one in the centre.
//! 3. Advanced pieces: the player's knights, bishops, rooks and queens beyond their own
//!    third rank (White: ranks 4–8; Black: ranks 5–1), counted 0, 1, 2, 3+.
//! 4. Pawns advanced towards the enemy king: when the enemy king is on a wing, the
//!    player's pawns on that wing's three files (a–c or f–h) beyond their own third
//!    rank (White: rank 4 or higher; Black: rank 5 or lower), counted 0, 1, 2+; 0 when
//!    the enemy king is in the centre. (A pawn storm, not the central pawns.)
//!
//! **Classes**: attacking, positional, mixed. The shipped tables ([`StyleModel::shipped`])
//! are counts from `tests/fixtures/style_training.pgn`: the games of Fischer and
//! Kasparov (attacking), Karpov (positional) and Illescas (mixed) in the GNU Chess book
//! source (public domain), as in the paper; a test recomputes them from that file.
//! `P(class | features) ∝ P(class) · Π P(feature | class)`, with add-one smoothing.
//!
//! The learner's style over several games is the average of the per-game posteriors
//! ([`learner_posterior`]): what share of their games look attacking, positional, mixed.

use std::fmt;

use shakmaty::{Board, Chess, Color, File, Move, Position, Rank, Square};

use crate::book::OpeningLine;
use crate::sampler::{Style, StyleParam};

/// Plies of a game the features look at: the opening, the first 10 moves.
pub const OPENING_PLIES: usize = 20;

/// A style of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum StyleClass {
    /// Sharp, initiative-seeking play (Fischer, Kasparov).
    Attacking,
    /// Slow, manoeuvring play (Karpov).
    Positional,
    /// Both (Illescas).
    Mixed,
}

impl StyleClass {
    /// The three classes, in table order.
    pub const ALL: [StyleClass; 3] = [
        StyleClass::Attacking,
        StyleClass::Positional,
        StyleClass::Mixed,
    ];

    /// The lower-case name.
    pub const fn label(self) -> &'static str {
        match self {
            StyleClass::Attacking => "attacking",
            StyleClass::Positional => "positional",
            StyleClass::Mixed => "mixed",
        }
    }

    /// The class of a player of the training data (the paper's labels).
    pub fn of_training_player(name: &str) -> Option<StyleClass> {
        match name {
            "Fischer" | "Kasparov" => Some(StyleClass::Attacking),
            "Karpov" => Some(StyleClass::Positional),
            "Illescas" => Some(StyleClass::Mixed),
            _ => None,
        }
    }
}

/// The player's first move, as a feature value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FirstMove(u8);

/// White's first moves with a value of their own; any other is "other".
const WHITE_FIRST: [&str; 4] = ["e4", "d4", "c4", "Nf3"];
/// Black's first moves with a value of their own; any other is "other".
const BLACK_FIRST: [&str; 8] = ["c5", "e5", "e6", "c6", "d6", "g6", "Nf6", "d5"];
/// All first-move values: White's four and other, Black's eight and other.
const FIRST_VALUES: usize = WHITE_FIRST.len() + 1 + BLACK_FIRST.len() + 1;

impl FirstMove {
    /// The value of `san` (without `+`/`#`) played by `color` as its first move.
    pub fn of(color: Color, san: &str) -> FirstMove {
        let (list, offset): (&[&str], usize) = match color {
            Color::White => (&WHITE_FIRST, 0),
            Color::Black => (&BLACK_FIRST, WHITE_FIRST.len() + 1),
        };
        let i = list.iter().position(|m| *m == san).unwrap_or(list.len());
        FirstMove(u8::try_from(offset + i).unwrap_or(0))
    }

    fn index(self) -> usize {
        usize::from(self.0).min(FIRST_VALUES - 1)
    }

    /// `"1.e4"`, `"1…c5"`, `"1.other"`.
    pub fn label(self) -> String {
        let i = self.index();
        if i <= WHITE_FIRST.len() {
            format!("1.{}", WHITE_FIRST.get(i).copied().unwrap_or("other"))
        } else {
            let j = i - WHITE_FIRST.len() - 1;
            format!("1…{}", BLACK_FIRST.get(j).copied().unwrap_or("other"))
        }
    }
}

/// Where the two kings stand (feature 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Castling {
    /// Both kings on the same wing.
    Same,
    /// One king on each wing.
    Opposite,
    /// At least one king on the d or e file.
    Centre,
}

/// The four features of one side of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StyleFeatures {
    /// The player's first move.
    pub first_move: FirstMove,
    /// Where the kings stand.
    pub castling: Castling,
    /// The player's pieces beyond their third rank (not pawns, not the king).
    pub advanced_pieces: u32,
    /// The player's pawns advanced towards the enemy king.
    pub pawns_towards_king: u32,
}

/// Which wing a king is on: `Some(true)` kingside (f–h), `Some(false)` queenside (a–c),
/// `None` in the centre (d, e).
fn wing(king: Square) -> Option<bool> {
    match king.file() {
        File::A | File::B | File::C => Some(false),
        File::F | File::G | File::H => Some(true),
        _ => None,
    }
}

/// Whether `sq` is beyond `color`'s third rank (White: rank 4 or higher; Black: rank 5
/// or lower).
fn beyond_third_rank(color: Color, sq: Square) -> bool {
    match color {
        Color::White => sq.rank() >= Rank::Fourth,
        Color::Black => sq.rank() <= Rank::Fifth,
    }
}

/// Features 2–4 of `player` in the position `board` (see the [module docs](self)).
pub fn position_features(board: &Board, player: Color) -> (Castling, u32, u32) {
    let own = board.king_of(player).map(wing);
    let enemy = board.king_of(!player).map(wing);
    let castling = match (own, enemy) {
        (Some(Some(a)), Some(Some(b))) if a == b => Castling::Same,
        (Some(Some(_)), Some(Some(_))) => Castling::Opposite,
        _ => Castling::Centre,
    };
    let pieces = board.by_color(player) & !board.pawns() & !board.kings();
    let advanced = pieces
        .into_iter()
        .filter(|&sq| beyond_third_rank(player, sq))
        .count();
    let pawns = match enemy {
        Some(Some(kingside)) => (board.by_color(player) & board.pawns())
            .into_iter()
            .filter(|&sq| wing(sq) == Some(kingside) && beyond_third_rank(player, sq))
            .count(),
        _ => 0,
    };
    (
        castling,
        u32::try_from(advanced).unwrap_or(u32::MAX),
        u32::try_from(pawns).unwrap_or(u32::MAX),
    )
}

/// The features of `player` in the game `moves` (legal, from the standard position),
/// measured after its first [`OPENING_PLIES`] plies. `None` when the player made no move.
pub fn game_features(moves: &[Move], player: Color) -> Option<StyleFeatures> {
    let mut pos = Chess::default();
    let mut first = None;
    for &mv in moves.iter().take(OPENING_PLIES) {
        if first.is_none() && pos.turn() == player {
            let san = shakmaty::san::San::from_move(&pos, mv).to_string();
            first = Some(FirstMove::of(player, &san));
        }
        pos.play_unchecked(mv);
    }
    let (castling, advanced_pieces, pawns_towards_king) = position_features(pos.board(), player);
    Some(StyleFeatures {
        first_move: first?,
        castling,
        advanced_pieces,
        pawns_towards_king,
    })
}

/// The moves of a line from the standard position; `None` for a line with a start
/// position of its own.
pub fn line_moves(line: &OpeningLine) -> Option<&[Move]> {
    if line.start.is_some() {
        return None;
    }
    Some(&line.moves)
}

/// Labelled examples from the training games: one per side played by a player of the
/// training data (by the canonical `White`/`Black` tags of `style_training.pgn`).
pub fn training_examples(lines: &[OpeningLine]) -> Vec<(StyleFeatures, StyleClass)> {
    let mut out = Vec::new();
    for line in lines {
        let Some(tags) = &line.tags else { continue };
        let Some(moves) = line_moves(line) else {
            continue;
        };
        for (color, tag) in [(Color::White, "White"), (Color::Black, "Black")] {
            let class = tags.get(tag).and_then(StyleClass::of_training_player);
            if let (Some(class), Some(f)) = (class, game_features(moves, color)) {
                out.push((f, class));
            }
        }
    }
    out
}

/// Bucket counts of features 3 and 4.
const ADVANCED_VALUES: usize = 4;
const PAWN_VALUES: usize = 3;

/// The value indices of a feature vector: first move, castling, pieces, pawns.
fn values(f: &StyleFeatures) -> [usize; 4] {
    [
        f.first_move.index(),
        f.castling as usize,
        (f.advanced_pieces as usize).min(ADVANCED_VALUES - 1),
        (f.pawns_towards_king as usize).min(PAWN_VALUES - 1),
    ]
}

/// The number of values of each feature.
const SIZES: [usize; 4] = [FIRST_VALUES, 3, ADVANCED_VALUES, PAWN_VALUES];

/// Naive Bayes count tables: per class, how many examples had each feature value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StyleModel {
    /// Examples per class.
    pub classes: [u32; 3],
    /// Per class, per first-move value (White e4 d4 c4 Nf3 other, Black c5 e5 e6 c6
    /// d6 g6 Nf6 d5 other).
    pub first_move: [[u32; FIRST_VALUES]; 3],
    /// Per class: same, opposite, centre.
    pub castling: [[u32; 3]; 3],
    /// Per class: 0, 1, 2, 3+ advanced pieces.
    pub advanced_pieces: [[u32; ADVANCED_VALUES]; 3],
    /// Per class: 0, 1, 2+ pawns towards the king.
    pub pawns_towards_king: [[u32; PAWN_VALUES]; 3],
}

/// A posterior over the three classes, in [`StyleClass::ALL`] order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Posterior(pub [f64; 3]);

impl Posterior {
    /// The most probable class (the first on ties).
    pub fn class(&self) -> StyleClass {
        let mut best = 0;
        for i in 1..3 {
            if self.0[i] > self.0[best] {
                best = i;
            }
        }
        StyleClass::ALL[best]
    }

    /// The probability of one class.
    pub fn p(&self, class: StyleClass) -> f64 {
        self.0[class as usize]
    }
}

impl fmt::Display for Posterior {
    /// `attacking 0.62 · positional 0.21 · mixed 0.17`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in StyleClass::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(" · ")?;
            }
            write!(f, "{} {:.2}", c.label(), self.0[i])?;
        }
        Ok(())
    }
}

impl StyleModel {
    /// Counts the examples.
    pub fn train<'a>(
        examples: impl IntoIterator<Item = &'a (StyleFeatures, StyleClass)>,
    ) -> StyleModel {
        let mut m = StyleModel {
            classes: [0; 3],
            first_move: [[0; FIRST_VALUES]; 3],
            castling: [[0; 3]; 3],
            advanced_pieces: [[0; ADVANCED_VALUES]; 3],
            pawns_towards_king: [[0; PAWN_VALUES]; 3],
        };
        for (f, class) in examples {
            let c = *class as usize;
            let v = values(f);
            m.classes[c] += 1;
            m.first_move[c][v[0]] += 1;
            m.castling[c][v[1]] += 1;
            m.advanced_pieces[c][v[2]] += 1;
            m.pawns_towards_king[c][v[3]] += 1;
        }
        m
    }

    fn count(&self, class: usize, feature: usize, value: usize) -> u32 {
        match feature {
            0 => self.first_move[class][value],
            1 => self.castling[class][value],
            2 => self.advanced_pieces[class][value],
            _ => self.pawns_towards_king[class][value],
        }
    }

    /// `P(class | features)`, with add-one (Laplace) smoothing of every table.
    pub fn posterior(&self, f: &StyleFeatures) -> Posterior {
        let total: u32 = self.classes.iter().sum();
        let v = values(f);
        let mut log = [0.0f64; 3];
        for (c, l) in log.iter_mut().enumerate() {
            let n = f64::from(self.classes[c]);
            *l = ((n + 1.0) / (f64::from(total) + 3.0)).ln();
            for (feature, &value) in v.iter().enumerate() {
                let k = f64::from(self.count(c, feature, value));
                *l += ((k + 1.0) / (n + SIZES[feature] as f64)).ln();
            }
        }
        let max = log.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exp = log.map(|l| (l - max).exp());
        let sum: f64 = exp.iter().sum();
        Posterior(exp.map(|e| e / sum))
    }

    /// The tables counted from `tests/fixtures/style_training.pgn` (6,360 games; see the
    /// [module docs](self)). The test `shipped_tables_are_the_training_counts` recounts
    /// them from that file.
    pub const fn shipped() -> StyleModel {
        SHIPPED
    }
}

/// See [`StyleModel::shipped`].
const SHIPPED: StyleModel = StyleModel {
    classes: [2828, 3141, 664],
    first_move: [
        [774, 503, 124, 91, 14, 413, 36, 10, 39, 4, 76, 649, 95, 0],
        [657, 704, 179, 135, 0, 152, 317, 44, 229, 0, 0, 685, 39, 0],
        [132, 60, 44, 97, 0, 117, 14, 13, 7, 0, 2, 81, 92, 5],
    ],
    castling: [[1196, 65, 1567], [1570, 56, 1515], [306, 17, 341]],
    advanced_pieces: [
        [1643, 962, 209, 14],
        [1852, 1065, 205, 19],
        [395, 233, 34, 2],
    ],
    pawns_towards_king: [[2621, 196, 11], [2998, 140, 3], [625, 39, 0]],
};

/// The learner's style over several games: the average of the per-game posteriors.
/// `None` without games.
pub fn learner_posterior(model: &StyleModel, games: &[StyleFeatures]) -> Option<Posterior> {
    if games.is_empty() {
        return None;
    }
    let mut sum = [0.0; 3];
    for g in games {
        let p = model.posterior(g);
        for (s, x) in sum.iter_mut().zip(p.0) {
            *s += x;
        }
    }
    let n = games.len() as f64;
    Some(Posterior(sum.map(|s| s / n)))
}

/// The computer's answer to a learner style (§5.1, recast for openings): against an
/// attacking learner solid lines, against a positional one sharp lines (gambits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Adaptation {
    /// Solid: gambits and uncommon openings off, 1.d4 and 1.c4 lines preferred (0.3).
    Solid,
    /// Sharp: gambits preferred (0.6), and 1.e4 lines (0.3).
    Sharp,
}

impl Adaptation {
    /// The adaptation to a class; a mixed learner gets `coin`'s pick (drawn once per
    /// session by the caller).
    pub fn for_class(class: StyleClass, coin: Adaptation) -> Adaptation {
        match class {
            StyleClass::Attacking => Adaptation::Solid,
            StyleClass::Positional => Adaptation::Sharp,
            StyleClass::Mixed => coin,
        }
    }

    /// The five parameters of the adaptation, with the learner's τ.
    pub fn style(self, tau: f64) -> Style {
        let on = |weight| StyleParam {
            enabled: true,
            weight,
        };
        let off = StyleParam {
            enabled: false,
            weight: 0.0,
        };
        let params = match self {
            Adaptation::Solid => [off, off, on(0.3), on(0.3), off],
            Adaptation::Sharp => [on(0.6), off, off, off, on(0.3)],
        };
        Style::new(params, tau.clamp(0.0, 1.0)).unwrap_or_default()
    }

    /// What the adaptation does, for the style panel.
    pub const fn describe(self) -> &'static str {
        match self {
            Adaptation::Solid => "solid lines: gambits off, 1.d4 and 1.c4 lines 0.30",
            Adaptation::Sharp => "sharp lines: gambits 0.60, 1.e4 lines 0.30",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_moves_have_their_own_values_or_other() {
        assert_eq!(FirstMove::of(Color::White, "e4").label(), "1.e4");
        assert_eq!(FirstMove::of(Color::White, "b3").label(), "1.other");
        assert_eq!(FirstMove::of(Color::Black, "Nf6").label(), "1…Nf6");
        assert_eq!(FirstMove::of(Color::Black, "a6").label(), "1…other");
        assert_ne!(
            FirstMove::of(Color::White, "c4"),
            FirstMove::of(Color::Black, "c5")
        );
    }

    #[test]
    fn the_posterior_is_printed_as_the_panel_shows_it() {
        let p = Posterior([0.623, 0.21, 0.167]);
        assert_eq!(
            p.to_string(),
            "attacking 0.62 · positional 0.21 · mixed 0.17"
        );
        assert_eq!(p.class(), StyleClass::Attacking);
    }

    #[test]
    fn adaptations_map_to_valid_styles() {
        let solid = Adaptation::for_class(StyleClass::Attacking, Adaptation::Sharp).style(0.5);
        assert!(!solid.param(crate::book::Flag::Gambit).enabled);
        assert_eq!(solid.tau(), 0.5);
        let sharp = Adaptation::for_class(StyleClass::Positional, Adaptation::Solid).style(1.0);
        assert_eq!(sharp.param(crate::book::Flag::Gambit).weight, 0.6);
        assert_eq!(
            Adaptation::for_class(StyleClass::Mixed, Adaptation::Solid),
            Adaptation::Solid
        );
    }
}
