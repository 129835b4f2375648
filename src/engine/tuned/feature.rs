//! The 37 features of the evaluation of seed 003 (Klevansky, Ostroff and Offen,
//! "Determining the Optimal Tradeoff for building Chess Playing Agents: Genetically Tuned
//! vs. Neural Features", Technion, 2023; `ARCHITECTURE.md`, References), as data: each
//! one's name (as weights files write it), what it counts, whether it is a bonus or a
//! penalty, its gene's width in the chromosome, and the seed's tuned values (its Tables 3
//! and 5).

use std::ops::{Index, IndexMut};

/// The number of features.
pub const FEATURES: usize = 37;

/// A feature of the evaluation, numbered as the seed's Table 2 (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Feature {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    PassedPawn,
    DoubledPawn,
    IsolatedPawn,
    BackwardPawn,
    PassedPawnKingDistance,
    CentrePawn,
    KnightMobility,
    KnightOutpost,
    BishopMobility,
    BishopPair,
    RookAttacksWeakPawn,
    RooksConnected,
    RookMobility,
    RookOpenFile,
    RookSemiOpenFile,
    RookKingAdjacentFile,
    RookKingFile,
    RookBehindPassedPawn,
    QueenMobility,
    KingShelterPawn,
    KingShelterPawnAdjacent,
    KingShelterPawnAdvanced,
    KingEnemyPawn,
    KingEnemyPawnAdjacent,
    KingPressure,
    Checkmate,
    BishopTable,
    KnightTable,
    RookTable,
    QueenTable,
    PawnTable,
    KingTable,
}

/// What the evaluation knows about a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureInfo {
    /// The name in weights files.
    pub name: &'static str,
    /// What is counted, for one side.
    pub counts: &'static str,
    /// +1: the count is good for its side; −1: bad.
    pub sign: i32,
    /// The gene's width in bits; 0: not a gene (the pawn is the unit, 100).
    pub bits: u32,
    /// The seed's best organism after the first GA (its Table 3).
    pub seed_ga: i32,
    /// The seed's best organism after co-evolution (its Table 5).
    pub seed_coevolved: i32,
}

const fn info(
    name: &'static str,
    counts: &'static str,
    sign: i32,
    bits: u32,
    seed_ga: i32,
    seed_coevolved: i32,
) -> FeatureInfo {
    FeatureInfo {
        name,
        counts,
        sign,
        bits,
        seed_ga,
        seed_coevolved,
    }
}

/// Bonus.
const UP: i32 = 1;
/// Penalty.
const DOWN: i32 = -1;

/// The features in the seed's order.
#[rustfmt::skip]
const TABLE: [FeatureInfo; FEATURES] = [
    info("pawn", "pawns (the unit: always 100, not a gene)", UP, 0, 100, 100),
    info("knight", "knights", UP, 11, 1339, 1339),
    info("bishop", "bishops", UP, 11, 1834, 1834),
    info("rook", "rooks", UP, 11, 2004, 1458),
    info("queen", "queens", UP, 11, 1968, 2041),
    info("passed_pawn", "pawns with no enemy pawn ahead on their own or an adjacent file", UP, 6, 12, 20),
    info("doubled_pawn", "pawns beyond the first on each file", DOWN, 6, 53, 53),
    info("isolated_pawn", "pawns with no own pawn on an adjacent file", DOWN, 6, 36, 52),
    info("backward_pawn", "pawns, not isolated, with no own pawn beside or behind on an adjacent file, whose stop square an enemy pawn attacks", DOWN, 6, 8, 17),
    info("passed_pawn_king_distance", "Manhattan distance from the enemy king to each passed pawn, summed", UP, 6, 5, 27),
    info("centre_pawn", "pawns on d4, e4, d5, e5", UP, 6, 20, 56),
    info("knight_mobility", "squares the knights attack that no own piece holds", UP, 6, 13, 61),
    info("knight_outpost", "knights on ranks 4-7 (own view), defended by an own pawn, that no enemy pawn can ever attack", UP, 6, 9, 5),
    info("bishop_mobility", "squares the bishops attack that no own piece holds", UP, 6, 33, 3),
    info("bishop_pair", "1 with two bishops or more", UP, 6, 13, 57),
    info("rook_attacks_weak_pawn", "rooks on a file without own pawns that holds an enemy isolated or backward pawn", UP, 6, 62, 9),
    info("rooks_connected", "1 when a rook defends another", UP, 6, 19, 13),
    info("rook_mobility", "squares the rooks attack that no own piece holds", UP, 6, 34, 24),
    info("rook_open_file", "rooks on a file without pawns", UP, 6, 8, 43),
    info("rook_semi_open_file", "rooks on a file without own pawns but with enemy ones", UP, 6, 30, 59),
    info("rook_king_adjacent_file", "rooks on a file next to the enemy king's", UP, 6, 24, 50),
    info("rook_king_file", "rooks on the enemy king's file", UP, 6, 57, 29),
    info("rook_behind_passed_pawn", "rooks behind a passed pawn on its file (behind: where the pawn came from; own or enemy pawn)", UP, 6, 23, 40),
    info("queen_mobility", "squares the queens attack that no own piece holds", UP, 6, 11, 2),
    info("king_shelter_pawn", "own pawns ahead of the king on its file", UP, 6, 45, 8),
    info("king_shelter_pawn_adjacent", "own pawns ahead of the king on the files next to it", UP, 6, 2, 23),
    info("king_shelter_pawn_advanced", "those shelter pawns (both counts above) that have left their first square", DOWN, 6, 30, 55),
    info("king_enemy_pawn", "enemy pawns up to four ranks ahead of the king on its file", DOWN, 6, 3, 3),
    info("king_enemy_pawn_adjacent", "enemy pawns up to four ranks ahead of the king on the files next to it", DOWN, 6, 2, 23),
    info("king_pressure", "14 minus the Manhattan distance to the enemy king, summed over knights, bishops, rooks, queens", UP, 6, 38, 45),
    info("checkmate", "1 when this side is to move and mated", DOWN, 14, 15662, 15708),
    info("bishop_table", "Michniewski's bishop table, summed over the bishops (weight 10: as printed)", UP, 6, 12, 23),
    info("knight_table", "Michniewski's knight table, summed", UP, 6, 26, 13),
    info("rook_table", "Michniewski's rook table, summed", UP, 6, 4, 2),
    info("queen_table", "Michniewski's queen table, summed", UP, 6, 4, 36),
    info("pawn_table", "Michniewski's pawn table, summed", UP, 6, 41, 41),
    info("king_table", "Michniewski's king table (the endgame one when knights and bishops count 1, rooks 2, queens 4 and they add up to 8 or less)", UP, 6, 42, 4),
];

impl Feature {
    /// Every feature, in the seed's order.
    pub const ALL: [Feature; FEATURES] = [
        Feature::Pawn,
        Feature::Knight,
        Feature::Bishop,
        Feature::Rook,
        Feature::Queen,
        Feature::PassedPawn,
        Feature::DoubledPawn,
        Feature::IsolatedPawn,
        Feature::BackwardPawn,
        Feature::PassedPawnKingDistance,
        Feature::CentrePawn,
        Feature::KnightMobility,
        Feature::KnightOutpost,
        Feature::BishopMobility,
        Feature::BishopPair,
        Feature::RookAttacksWeakPawn,
        Feature::RooksConnected,
        Feature::RookMobility,
        Feature::RookOpenFile,
        Feature::RookSemiOpenFile,
        Feature::RookKingAdjacentFile,
        Feature::RookKingFile,
        Feature::RookBehindPassedPawn,
        Feature::QueenMobility,
        Feature::KingShelterPawn,
        Feature::KingShelterPawnAdjacent,
        Feature::KingShelterPawnAdvanced,
        Feature::KingEnemyPawn,
        Feature::KingEnemyPawnAdjacent,
        Feature::KingPressure,
        Feature::Checkmate,
        Feature::BishopTable,
        Feature::KnightTable,
        Feature::RookTable,
        Feature::QueenTable,
        Feature::PawnTable,
        Feature::KingTable,
    ];

    /// The position in [`Feature::ALL`] (the seed's number minus one).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// What the evaluation knows about it.
    pub const fn info(self) -> &'static FeatureInfo {
        &TABLE[self as usize]
    }

    /// Its name in weights files.
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// The feature of a name in weights files.
    pub fn from_name(name: &str) -> Option<Feature> {
        Feature::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether it is a piece-square table sum (weighed in tenths: weight 10 adds the
    /// table as printed).
    pub const fn is_table(self) -> bool {
        self as usize >= Feature::BishopTable as usize
    }
}

/// A number per feature (counts of one side, weights, …), indexed by [`Feature`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerFeature(pub [i32; FEATURES]);

impl Default for PerFeature {
    fn default() -> Self {
        PerFeature([0; FEATURES])
    }
}

impl Index<Feature> for PerFeature {
    type Output = i32;

    fn index(&self, f: Feature) -> &i32 {
        &self.0[f.index()]
    }
}

impl IndexMut<Feature> for PerFeature {
    fn index_mut(&mut self, f: Feature) -> &mut i32 {
        &mut self.0[f.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_follows_the_enum_and_the_chromosome_is_244_bits() {
        for (i, f) in Feature::ALL.into_iter().enumerate() {
            assert_eq!(f.index(), i);
            assert_eq!(Feature::from_name(f.name()), Some(f));
        }
        let bits: u32 = TABLE.iter().map(|i| i.bits).sum();
        assert_eq!(bits, 244);
        // Every seed value fits its gene.
        for f in Feature::ALL {
            let i = f.info();
            if i.bits > 0 {
                assert!(
                    i.seed_ga < 1 << i.bits && i.seed_coevolved < 1 << i.bits,
                    "{f:?}"
                );
            }
        }
    }
}
