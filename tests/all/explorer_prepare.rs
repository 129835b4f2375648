//! "Prepare against an opponent" in the core: an index made from the style-training
//! games with Kasparov's tree; choosing "Kasparov as White" and preparing makes the
//! learner Black and the drill's computer play only Kasparov's moves where he has games
//! there, and the book's moves where he has none.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::sync::Arc;

use hastings::book::explorer::{ExplorerCounts, ExplorerFilter};
use hastings::coach::Coach;
use hastings::coach::command::{Action, Command};
use hastings::coach::explorer::{ExplorerCommand, ExplorerSource};
use hastings::coach::settings::{Settings, Side};
use hastings::job::JobProgress;
use hastings::sampler::MoveSource;
use hastings::trainer::{Phase, Session};
use hastings::workspace::explorer::{ExplorerIndex, FilteredExplorer, MakeOptions, make_explorer};
use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use crate::common;

/// An index of the style-training games keeping Kasparov's tree.
fn kasparov_index(name: &str) -> std::path::PathBuf {
    let dir = common::temp_dir(name);
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
    dir
}

/// The moves Kasparov played as White at `pos`; none when his games did not reach it.
fn kasparov_moves(tree: &FilteredExplorer, pos: &Chess) -> Vec<Move> {
    tree.stats_at(pos)
        .moves
        .iter()
        .filter(|m| m.games() > 0)
        .map(|m| m.raw_move.to_move(pos).unwrap())
        .collect()
}

/// The book's candidates at `pos` (the drill's graph, its lines' popularity).
fn book_moves(session: &Session, pos: &Chess) -> Vec<Move> {
    MoveSource::graph(session.graph())
        .distribution(pos, session.style(), 1.0, None)
        .candidates
        .iter()
        .map(|c| c.mv)
        .collect()
}

#[test]
fn the_drill_plays_the_players_moves_where_he_has_games_and_the_books_elsewhere() {
    let dir = kasparov_index("explorer-prepare");
    let index = Arc::new(ExplorerIndex::open(&dir).unwrap());
    let filter = index
        .player_filter(ExplorerFilter::default(), "kasparov", Color::White)
        .unwrap();
    let tree = FilteredExplorer::new(Arc::clone(&index), filter);

    let settings = Settings {
        learner: Side::White,
        seed: "5".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        explorer_evals: false,
        ..crate::common::settings()
    };
    let mut coach = Coach::new(common::eco(), settings, None);
    coach.apply(Command::Explorer(ExplorerCommand::Open(dir)));
    let source = ExplorerSource::Player {
        name: index.players()[0].clone(),
        color: Color::White,
    };
    assert!(coach.explorer().sources().contains(&source));
    coach.apply(Command::Explorer(ExplorerCommand::SetSource(
        source.clone(),
    )));
    coach.apply(Command::Explorer(ExplorerCommand::Prepare));
    assert_eq!(coach.explorer().preparing(), Some(&source));
    assert_eq!(coach.session().learner(), Color::Black, "the other colour");
    assert!(coach.session().has_explorer());
    let message = coach.message().unwrap();
    assert!(message.contains("Preparing against Kasparov"), "{message}");

    let (mut his, mut book) = (0, 0);
    for line in 0..40 {
        for _ in 0..40 {
            let before = coach.session().position().clone();
            let plies = coach.session().moves().len();
            match coach.session().phase() {
                Phase::ComputerToMove => {
                    // The first frame schedules the reply, the next plays it.
                    for _ in 0..3 {
                        if coach.session().moves().len() > plies {
                            break;
                        }
                        common::coach_frame(&mut coach);
                    }
                    let moves = coach.session().moves();
                    assert_eq!(moves.len(), plies + 1, "the computer replied");
                    let played = moves[plies].mv;
                    let his_moves = kasparov_moves(&tree, &before);
                    if his_moves.is_empty() {
                        let book_moves = book_moves(coach.session(), &before);
                        assert!(
                            book_moves.contains(&played),
                            "{played} is no book move at {}",
                            Fen::from_position(&before, EnPassantMode::Legal)
                        );
                        book += 1;
                    } else {
                        // Or, with τ > 0, an implied transposition: a move into a
                        // position his games reached.
                        let mut after = before.clone();
                        after.play_unchecked(played);
                        assert!(
                            his_moves.contains(&played) || tree.games_at(&after) > 0,
                            "{played} is not Kasparov's at {}",
                            Fen::from_position(&before, EnPassantMode::Legal)
                        );
                        his += 1;
                    }
                }
                Phase::LearnerToMove => {
                    // Any book move, so that the lines leave his games too.
                    let book_moves = book_moves(coach.session(), &before);
                    match book_moves.get((line * 7 + plies * 3) % book_moves.len().max(1)) {
                        Some(&mv) => coach.apply(Command::Play(mv)),
                        None => coach.apply(Command::Action(Action::ShowMe)),
                    }
                }
                _ => break,
            }
        }
        coach.apply(Command::Action(Action::NewLine));
    }
    assert!(his > 20 && book > 5, "Kasparov's {his}, the book's {book}");

    // Stopping gives the book back to the computer.
    coach.apply(Command::Explorer(ExplorerCommand::StopPreparing));
    assert!(coach.explorer().preparing().is_none());
    assert!(!coach.session().has_explorer());
}
