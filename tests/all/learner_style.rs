//! The learner-style classifier (after BayesChess): features on hand-built positions, the
//! shipped tables recounted from the training games, cross-validated accuracy.

#![allow(clippy::unwrap_used)]

use crate::common;

use hastings::book::pgn::read_pgn;
use hastings::book::{ImportMode, ImportOptions, SourceId};
use hastings::trainer::learner_style::{
    Castling, OPENING_PLIES, StyleClass, StyleFeatures, StyleModel, game_features,
    learner_posterior, position_features, training_examples,
};
use shakmaty::Color;
use shakmaty::fen::Fen;

fn board(fen: &str) -> shakmaty::Board {
    // The board alone (no legality check: some of these are not reachable positions).
    fen.parse::<Fen>().unwrap().into_setup().board
}

#[test]
fn features_of_hand_built_positions() {
    // Start position: kings in the centre, nothing advanced.
    let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(
        position_features(&start, Color::White),
        (Castling::Centre, 0, 0)
    );
    // Both castled short; White's Nf5 and Bg5 beyond the third rank, Nc3 not; pawns
    // g4 and h4 advanced on the black king's wing, f3 not (third rank), e4 not (centre).
    let same = board("r1bq1rk1/pppp1ppp/2n2n2/4pNB1/4P1PP/2N2P2/PPPP4/R2QKB1R w - - 0 1");
    let (c, pieces, pawns) = position_features(&same, Color::White);
    assert_eq!(c, Castling::Centre, "the white king is still on e1");
    assert_eq!((pieces, pawns), (2, 2));
    let castled = board("r1bq1rk1/pppp1ppp/2n2n2/4pNB1/4P1PP/2N2P2/PPPP4/R2Q1RK1 w - - 0 1");
    assert_eq!(
        position_features(&castled, Color::White),
        (Castling::Same, 2, 2)
    );
    // Opposite castling: White O-O-O with pawns g4, h5 storming Black's king on g8;
    // Black's pawns a5, b4 storm White's king on c1 (Black's fifth and fourth ranks),
    // and the knight on d4 is beyond Black's third rank.
    let opposite = board("r4rk1/2p2pp1/3p1n1P/p7/1p1n2P1/2N5/PPPQ4/2KR3R w - - 0 1");
    assert_eq!(
        position_features(&opposite, Color::White),
        (Castling::Opposite, 0, 2)
    );
    assert_eq!(
        position_features(&opposite, Color::Black),
        (Castling::Opposite, 1, 2)
    );
    // A queen on the player's own third rank is not advanced; one on the fourth is.
    let queens = board("4k3/8/8/8/8/Q7/8/4K3 w - - 0 1");
    assert_eq!(position_features(&queens, Color::White).1, 0);
    let queens = board("4k3/8/8/8/Q7/8/8/4K3 w - - 0 1");
    assert_eq!(position_features(&queens, Color::White).1, 1);
    // A wing pawn next to a centre king is no storm.
    let centre = board("4k3/8/8/7P/8/8/8/4K3 w - - 0 1");
    assert_eq!(position_features(&centre, Color::White).2, 0);
}

#[test]
fn game_features_take_the_players_first_move_and_stop_after_the_opening() {
    let moves = common::san_moves("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6");
    let white = game_features(&moves, Color::White).unwrap();
    assert_eq!(white.first_move.label(), "1.e4");
    let black = game_features(&moves, Color::Black).unwrap();
    assert_eq!(black.first_move.label(), "1…c5");
    // Nd4 is beyond White's third rank.
    assert_eq!(white.advanced_pieces, 1);
    assert!(game_features(&moves[..1], Color::Black).is_none());
    // Moves past the opening do not count: 11.Nd5 (a knight on the fifth) is ply 21.
    let long = common::san_moves(
        "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d3 d6 O-O O-O a4 a6 h3 h6 Re1 Re8 Nbd2 Be6 Nf1",
    );
    assert_eq!(long.len(), OPENING_PLIES + 1);
    let f = game_features(&long, Color::White).unwrap();
    assert_eq!(f.castling, Castling::Same);
    assert_eq!(f.advanced_pieces, 1, "only Bc4: Nf1 is ply 21");
}

fn examples() -> Vec<(StyleFeatures, StyleClass)> {
    let text = std::fs::read(common::fixture("style_training.pgn")).unwrap();
    let options = ImportOptions {
        mode: ImportMode::Games,
        max_plies: Some(OPENING_PLIES as u32),
    };
    let import = read_pgn(text.as_slice(), SourceId(1), &options, None).unwrap();
    assert_eq!(import.report.games, 6360);
    assert!(
        import.report.issues.is_empty(),
        "{:?}",
        &import.report.issues[..1]
    );
    training_examples(&import.lines)
}

#[test]
fn shipped_tables_are_the_training_counts() {
    let ex = examples();
    let model = StyleModel::train(&ex);
    // The paper had 2,708 attacking, 3,078 positional and 649 mixed games.
    assert_eq!(model.classes, [2828, 3141, 664]);
    assert_eq!(
        StyleModel::shipped(),
        model,
        "paste this table into learner_style.rs:\n{model:#?}"
    );
}

#[test]
fn ten_fold_cross_validated_accuracy() {
    let ex = examples();
    let folds = 10;
    let mut correct = 0;
    let mut confusion = [[0u32; 3]; 3];
    for k in 0..folds {
        let train: Vec<_> = ex
            .iter()
            .enumerate()
            .filter(|(i, _)| i % folds != k)
            .map(|(_, e)| *e)
            .collect();
        let model = StyleModel::train(&train);
        for (i, (f, class)) in ex.iter().enumerate() {
            if i % folds == k {
                let guess = model.posterior(f).class();
                confusion[*class as usize][guess as usize] += 1;
                if guess == *class {
                    correct += 1;
                }
            }
        }
    }
    let accuracy = f64::from(correct) / ex.len() as f64;
    // Always answering the largest class (positional) is right 3141 / 6633 = 47.4% of
    // the time; the classifier must beat that.
    let baseline = 3141.0 / ex.len() as f64;
    eprintln!(
        "10-fold accuracy {accuracy:.4} (baseline {baseline:.4}); confusion (rows true attacking/positional/mixed) {confusion:?}"
    );
    assert!(accuracy > baseline, "{accuracy} vs {baseline}");
    // The number docs/fit.md reports (deterministic: the folds are every tenth example).
    assert!((accuracy - 0.5547).abs() < 5e-5, "{accuracy}");
}

#[test]
fn the_learner_posterior_averages_games() {
    let model = StyleModel::shipped();
    assert!(learner_posterior(&model, &[]).is_none());
    let moves = common::san_moves("e4 e5 f4 exf4 Nf3 g5 Bc4 g4 O-O");
    let f = game_features(&moves, Color::White).unwrap();
    let p = learner_posterior(&model, &[f, f]).unwrap();
    assert!((p.0.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert_eq!(p, model.posterior(&f));
}
