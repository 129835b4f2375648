//! Sparring "like my opponent" through the headless coach: with the Explorer tab showing
//! Praggnanandhaa's tree as Black (an index of the TWIC fixture), play-on's computer
//! plays his moves while his games reach the position, then the model, and says so
//! (the saved game names both);
//! the temperature fitted to his games is kept beside the index and read back by the
//! next window without fitting again.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::sync::Arc;
use std::time::{Duration, Instant};

use hastings::book::explorer::{ExplorerCounts, ExplorerFilter};
use hastings::coach::explorer::{ExplorerCommand, ExplorerSource};
use hastings::coach::play_on::{PlayOnCommand, PlayOnSettings, SparSettings};
use hastings::coach::settings::{Settings, Side};
use hastings::coach::{Action, Coach, Command};
use hastings::job::JobProgress;
use hastings::trainer::play_on::Turn;
use hastings::trainer::spar::{SparSource, switch_sentence};
use hastings::workspace::explorer::spar_fits::SPAR_FITS;
use hastings::workspace::explorer::{ExplorerIndex, FilteredExplorer, MakeOptions, make_explorer};
use shakmaty::{Chess, Color, Move, Position};

use crate::common;
use common::coach_frame as frame;

fn spar_settings() -> SparSettings {
    SparSettings {
        on: true,
        like_opponent: true,
        min_games: 1,
        ..SparSettings::default()
    }
}

/// A coach with Praggnanandhaa's tree as Black shown in the Explorer tab, sparring like him.
fn coach(dir: &std::path::Path, name: &str) -> Coach {
    let settings = Settings {
        learner: Side::White,
        seed: "5".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        explorer_evals: false,
        play_on: PlayOnSettings {
            movetime_ms: 50,
            spar: spar_settings(),
            ..PlayOnSettings::default()
        },
        ..common::settings()
    };
    let mut coach = Coach::new(common::eco(), settings, None);
    coach.apply(Command::Explorer(ExplorerCommand::Open(dir.to_owned())));
    coach.apply(Command::Explorer(ExplorerCommand::SetSource(
        ExplorerSource::Player {
            name: name.to_owned(),
            color: Color::Black,
        },
    )));
    frame(&mut coach);
    coach
}

fn until(coach: &mut Coach, what: &str, done: impl Fn(&Coach) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done(coach) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
        frame(coach);
    }
}

/// His tree's moves at `pos`, most played first.
fn his_moves(tree: &FilteredExplorer, pos: &Chess) -> Vec<(Move, u64)> {
    let mut moves: Vec<(Move, u64)> = tree
        .stats_at(pos)
        .moves
        .iter()
        .filter(|m| m.games() > 0)
        .map(|m| (m.raw_move.to_move(pos).unwrap(), m.games()))
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
    moves
}

#[test]
fn sparring_like_my_opponent_plays_his_games_then_the_model_and_keeps_the_fit() {
    let dir = common::temp_dir("coach-spar");
    let options = MakeOptions {
        players: vec!["Praggnanandhaa,R".to_owned()],
        ..MakeOptions::default()
    };
    let pgn = common::fixture("twic1599_100k.pgn");
    make_explorer(&[pgn], &dir, &options, &JobProgress::new()).unwrap();
    let index = Arc::new(ExplorerIndex::open(&dir).unwrap());
    let name = index
        .players()
        .iter()
        .find(|p| p.starts_with("Praggnanandhaa"))
        .unwrap()
        .clone();
    let filter = index
        .player_filter(ExplorerFilter::default(), &name, Color::Black)
        .unwrap();
    let tree = FilteredExplorer::new(Arc::clone(&index), filter);

    let mut coach = coach(&dir, &name);
    assert_eq!(coach.play_on().spar().player(), Some(name.as_str()));
    let target = coach.play_on().spar().target(&spar_settings()).unwrap();
    assert_eq!(target.whose, name);
    until(&mut coach, "the fit", |c| {
        c.play_on().spar().fit(&target).is_some()
    });
    let temperature = coach.play_on().spar().temperature(&target);
    assert!(dir.join(SPAR_FITS).is_file());

    // Play on from the start: the learner (White) moves first.
    coach.apply(Command::Action(Action::PlayOn));
    let (mut his, mut switched) = (0, false);
    for _ in 0..40 {
        let run = coach.play_on().game().unwrap();
        let game = run.game();
        if !matches!(game.turn(), Turn::Learner) {
            break;
        }
        // The learner plays as his opponents did, where they did.
        let pos = game.position().clone();
        let reply = his_moves(&tree, &pos)
            .first()
            .map(|m| m.0)
            .unwrap_or_else(|| pos.legal_moves()[0]);
        let mut before = pos.clone();
        before.play_unchecked(reply);
        let plies = game.moves().len();
        coach.apply(Command::PlayOn(PlayOnCommand::Play(reply)));
        until(&mut coach, "the computer's move", |c| {
            let game = c.play_on().game().unwrap().game();
            game.moves().len() > plies + 1 || matches!(game.turn(), Turn::Over(_))
        });
        let run = coach.play_on().game().unwrap();
        let Some((ply, source)) = run.sources().last().cloned() else {
            break; // the learner's move ended the game
        };
        assert_eq!(ply, plies + 1);
        let played = run.game().moves()[ply].mv;
        let mine = his_moves(&tree, &before);
        let games: u64 = mine.iter().map(|m| m.1).sum();
        match source {
            SparSource::Games {
                with_move,
                games: n,
            } => {
                assert_eq!(n, games);
                let (_, count) = mine
                    .iter()
                    .find(|(m, _)| *m == played)
                    .unwrap_or_else(|| panic!("{played:?} is not {name}'s: {mine:?}"));
                assert_eq!(*count, with_move);
                his += 1;
            }
            SparSource::Model {
                games: n,
                temperature: t,
            } => {
                assert_eq!(
                    (n, games),
                    (0, 0),
                    "K = 1: the model only where he has none"
                );
                assert_eq!(t, temperature);
                assert_eq!(
                    coach.play_on().notice(),
                    Some(switch_sentence(&name, 0, temperature).as_str())
                );
                switched = true;
                break;
            }
        }
    }
    assert!(his >= 2, "{his} of his moves");
    assert!(switched, "the switch to the model was announced");
    // The saved game names who played the computer's side: his games, then the model.
    let pgn = coach.play_on().pgn("Ana").unwrap();
    let black = format!("[Black \"{name} (explorer's games), Human-like engine\"]");
    assert!(pgn.contains(&black), "{pgn}");
    // Each of the computer's moves says where it came from.
    assert!(pgn.contains(&format!("games of {name}}}")), "{pgn}");
    assert!(pgn.contains("{the human-like model (T "), "{pgn}");

    // The next window reads the fit kept beside the index: no fit runs.
    let mut again = self::coach(&dir, &name);
    frame(&mut again);
    assert_eq!(again.play_on().spar().fitting(), None);
    assert_eq!(again.play_on().spar().temperature(&target), temperature);
}
