//! "Prepare against" with the learner's repertoire as the book (issue 40): the player's
//! games say what the computer (the player) plays, never what the learner's repertoire
//! plays. Before, at the learner's turn the drill's moves were those the player's
//! opponents had played ("d5 is theory, but your repertoire plays Nf6", Nf6 coming from
//! the games), and the learner's own repertoire move counted as a mistake.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::sync::Arc;

use hastings::coach::Coach;
use hastings::coach::command::{Action, Command};
use hastings::coach::explorer::{ExplorerCommand, ExplorerSource};
use hastings::coach::settings::{Settings, Side};
use hastings::job::JobProgress;
use hastings::sampler::MoveSource;
use hastings::trainer::{Phase, Session};
use hastings::workspace::explorer::{ExplorerIndex, MakeOptions, make_explorer};
use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Move};

use crate::common;

/// The repertoire's moves at `pos` (the drill's graph alone).
fn repertoire_moves(session: &Session, pos: &Chess) -> Vec<Move> {
    MoveSource::graph(session.graph())
        .distribution(pos, session.style(), 1.0, None)
        .candidates
        .iter()
        .map(|c| c.mv)
        .collect()
}

#[test]
fn preparing_against_a_player_keeps_the_learners_moves_those_of_the_repertoire() {
    let dir = common::temp_dir("explorer-prepare-repertoire");
    let options = MakeOptions {
        players: vec!["Kasparov".to_owned()],
        ..MakeOptions::default()
    };
    make_explorer(
        &[common::fixture("style_training.pgn")],
        &dir,
        &options,
        &JobProgress::new(),
    )
    .unwrap();
    let index = Arc::new(ExplorerIndex::open(&dir).unwrap());
    // A Black repertoire: the Sicilian against 1.e4, the Queen's Gambit Declined
    // against 1.d4.
    let repertoire = dir.join("black.pgn");
    std::fs::write(
        &repertoire,
        "[Event \"Black\"]\n[Result \"*\"]\n\n1. e4 c5 2. Nf3 d6 (2. c3 Nf6) 3. d4 cxd4 *\n\n\
         [Event \"Black 2\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 *\n",
    )
    .unwrap();

    let settings = Settings {
        learner: Side::Black,
        seed: "5".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        explorer_evals: false,
        ..crate::common::settings()
    };
    let mut coach = Coach::new(common::eco(), settings, None);
    common::load_repertoire_alone(&mut coach, &repertoire);
    assert!(coach.is_repertoire());
    coach.apply(Command::Explorer(ExplorerCommand::Open(dir)));
    let source = ExplorerSource::Player {
        name: index.players()[0].clone(),
        color: Color::White,
    };
    coach.apply(Command::Explorer(ExplorerCommand::SetSource(source)));
    coach.apply(Command::Explorer(ExplorerCommand::Prepare));
    assert!(coach.session().has_explorer());
    assert_eq!(coach.session().learner(), Color::Black);

    let mut asked = 0;
    for line in 0..30 {
        for _ in 0..30 {
            let before = coach.session().position().clone();
            let plies = coach.session().moves().len();
            match coach.session().phase() {
                Phase::ComputerToMove => {
                    for _ in 0..3 {
                        if coach.session().moves().len() > plies {
                            break;
                        }
                        common::coach_frame(&mut coach);
                    }
                }
                Phase::LearnerToMove => {
                    // What the drill expects of the learner is the repertoire's.
                    let mine = repertoire_moves(coach.session(), &before);
                    let expected: Vec<Move> = coach
                        .session()
                        .distribution()
                        .candidates
                        .iter()
                        .map(|c| c.mv)
                        .collect();
                    assert!(
                        !expected.is_empty() && expected.iter().all(|m| mine.contains(m)),
                        "the drill expects {expected:?}, the repertoire plays {mine:?} at {}",
                        Fen::from_position(&before, EnPassantMode::Legal)
                    );
                    asked += 1;
                    let mv = mine[(line + plies) % mine.len()];
                    coach.apply(Command::Play(mv));
                    assert!(
                        !matches!(coach.session().phase(), Phase::OutOfBook { .. }),
                        "the repertoire's {mv} counted as a mistake"
                    );
                }
                _ => break,
            }
        }
        coach.apply(Command::Action(Action::NewLine));
    }
    assert!(asked > 20, "the learner was asked {asked} times");
    assert_eq!(coach.session().mistakes_total(), 0);
}
