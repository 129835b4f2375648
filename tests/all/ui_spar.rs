//! Sparring at a rating through the window's real widgets (egui_kittest), at 1280×800
//! and 800×600: a book line, "Play on", "Spar at a rating" at the band with the most
//! games there (an index of the lichess fixture); the temperature is fitted in the
//! background and kept beside the index (the second window reads it there); each
//! computer move comes from that band's
//! games (checked against a direct query of the index) while at least K games reach
//! the position, then the switch to the model is announced.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::accesskit::Role;
use egui_kittest::kittest::Queryable as _;
use hastings::book::explorer::{ExplorerFilter, RatingBand};
use hastings::coach::play_on::{PlayOnCommand, PlayOnSettings, SparSettings};
use hastings::coach::settings::{Settings, Side};
use hastings::coach::{Action, Command};
use hastings::trainer::play_on::Turn;
use hastings::trainer::spar::{SparSource, band_players, band_range, switch_sentence};
use hastings::workspace::explorer::ExplorerIndex;
use hastings::workspace::explorer::spar_fits::SPAR_FITS;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

use crate::common;
use common::explorer::{make_index, open_index, window};
use common::{AppHarness, wait_until};

/// K: the fewest games for the band's games to choose.
const K: u32 = 2;

fn settings() -> Settings {
    Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        explorer_evals: false,
        play_on: PlayOnSettings {
            movetime_ms: 50,
            spar: SparSettings {
                min_games: K,
                ..SparSettings::default()
            },
            ..PlayOnSettings::default()
        },
        ..common::settings()
    }
}

fn band_filter(band: RatingBand) -> ExplorerFilter {
    ExplorerFilter {
        bands: 1 << band.index(),
        ..ExplorerFilter::default()
    }
}

/// The band's moves at `pos` with their games, most played first.
fn band_moves(index: &ExplorerIndex, band: RatingBand, pos: &Chess) -> Vec<(Move, u64)> {
    let stats = index.query_position(pos, &band_filter(band)).unwrap();
    let mut moves: Vec<(Move, u64)> = stats
        .moves
        .iter()
        .filter(|m| m.games() > 0)
        .map(|m| (m.raw_move.to_move(pos).unwrap(), m.games()))
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
    moves
}

fn game_position(h: &AppHarness) -> Chess {
    let run = h.state().coach().play_on().game().unwrap();
    run.game().position().clone()
}

fn spar_at(size: (f32, f32), dir: &std::path::Path, index: &ExplorerIndex) {
    let mut h = window(settings(), size);
    open_index(&mut h, dir);
    // A line of the book: 1.e4 and the computer's reply, then play on.
    h.state_mut()
        .coach_mut()
        .apply(Command::Play(common::san_moves("e4")[0]));
    wait_until(&mut h, "the computer's reply", |app| {
        app.coach().session().moves().len() == 2
    });
    h.state_mut()
        .coach_mut()
        .apply(Command::Action(Action::PlayOn));
    h.run();
    // The band with the most games at the end of the book.
    let start = game_position(&h);
    let band = RatingBand::all()
        .filter(|b| b.lower_bound().is_some())
        .max_by_key(|b| {
            let games: u64 = band_moves(index, *b, &start).iter().map(|m| m.1).sum();
            (games, std::cmp::Reverse(b.index()))
        })
        .unwrap();
    let bound = band.lower_bound().unwrap();

    // At 800×600 the panel scrolls: each control is brought into view, then clicked.
    h.get_by_label("Spar at a rating").scroll_to_me();
    h.run();
    h.get_by_label("Spar at a rating").click();
    common::settle(&mut h);
    if bound != SparSettings::default().band {
        h.get_by_role_and_label(Role::ComboBox, "Rating band")
            .scroll_to_me();
        h.run();
        h.get_by_role_and_label(Role::ComboBox, "Rating band")
            .click();
        h.run();
        h.get_by_label(&band_range(band)).click();
        common::settle(&mut h);
    }
    // The controls keep to the panel: none reaches past the window's right edge.
    for node in [
        h.get_by_label("Spar at a rating"),
        h.get_by_role_and_label(Role::ComboBox, "Rating band"),
        h.get_by_role_and_label(Role::ComboBox, "Speed"),
    ] {
        assert!(node.rect().max.x <= size.0, "{node:?} is cut at {size:?}");
    }
    let spar = &h.state().coach().settings().play_on.spar;
    assert!(spar.on);
    assert_eq!(spar.band, bound);
    let spar = spar.clone();
    let whose = band_players(band, None);

    // The temperature is fitted in the background and kept beside the index.
    wait_until(&mut h, "the fit", |app| {
        let state = app.coach().play_on().spar();
        state.target(&spar).is_some_and(|t| state.fit(&t).is_some())
    });
    let state = h.state().coach().play_on().spar();
    let temperature = state
        .fit(&state.target(&spar).unwrap())
        .unwrap()
        .temperature;
    assert!(dir.join(SPAR_FITS).is_file());
    h.get_by_label(&format!(
        "The model's temperature for {whose}: {temperature:.2} (top choice {:.0}% of \
         their moves).",
        100.0 * state.fit(&state.target(&spar).unwrap()).unwrap().top_choice
    ));

    let mut from_games = 0;
    let mut switched = false;
    for _ in 0..12 {
        let pos = game_position(&h);
        if h.state().coach().play_on().game().unwrap().game().turn() != Turn::Learner {
            break;
        }
        // The learner follows the band's games where it can.
        let mv = band_moves(index, band, &pos)
            .first()
            .map(|m| m.0)
            .unwrap_or_else(|| pos.legal_moves()[0]);
        let mut after = pos.clone();
        after.play_unchecked(mv);
        let games: Vec<(Move, u64)> = band_moves(index, band, &after);
        let total: u64 = games.iter().map(|m| m.1).sum();
        let played = h
            .state()
            .coach()
            .play_on()
            .game()
            .unwrap()
            .game()
            .moves()
            .len();
        h.state_mut()
            .coach_mut()
            .apply(Command::PlayOn(PlayOnCommand::Play(mv)));
        wait_until(&mut h, "the computer's move", |app| {
            let game = app.coach().play_on().game().unwrap().game();
            game.moves().len() == played + 2 || matches!(game.turn(), Turn::Over(_))
        });
        common::settle(&mut h);
        let run = h.state().coach().play_on().game().unwrap();
        let Some((ply, source)) = run.sources().last().cloned() else {
            break; // the learner's move ended the game
        };
        assert_eq!(ply, played + 1);
        let reply = run.game().moves()[ply].mv;
        if total >= u64::from(K) {
            // The band's games chose: a move of theirs, and the panel says so.
            let (_, n) = games
                .iter()
                .find(|(m, _)| *m == reply)
                .unwrap_or_else(|| panic!("{reply:?} is none of the band's moves {games:?}"));
            assert_eq!(
                source,
                SparSource::Games {
                    with_move: *n,
                    games: total
                }
            );
            let san = SanPlus::from_move(after.clone(), reply).to_string();
            h.get_by_label(&format!("{san}: {}", source.describe(&whose)));
            from_games += 1;
        } else {
            assert_eq!(
                source,
                SparSource::Model {
                    games: total,
                    temperature
                }
            );
            h.get_by_label(&switch_sentence(&whose, total, temperature));
            switched = true;
            break;
        }
    }
    assert!(from_games >= 1, "no move came from the band's games");
    assert!(switched, "the switch to the model was not announced");
    // The heading names the opponent sparred against, not the model alone.
    assert!(
        h.query_by_label_contains(&format!("Your opponent: {whose}, then "))
            .is_some(),
        "the heading does not name {whose}"
    );
}

/// Both sizes on one index: the second window reads the temperature the first one
/// fitted from the index's file.
#[test]
fn sparring_plays_the_bands_games_then_announces_the_model() {
    let (dir, index) = make_index("ui-spar", "lichess_db_100k.pgn", &[]);
    spar_at((1280.0, 800.0), &dir, &index);
    spar_at((800.0, 600.0), &dir, &index);
}
