//! Issue 41, item 14: every tab of the window, the play-on panel with its engine
//! settings open for each engine, in a club player's words. The researcher's and the
//! engine programmer's terms (τ, iterations, ply limit, exact P, Seed 003, UCI_Elo,
//! plies, α-β, MCTS, λ, node counts, Polyglot, …) are only in hover texts, or under the
//! Style tab's and play-on's Advanced folds, which start folded.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use hastings::coach::Command;
use hastings::coach::play_on::{EngineKind, PlayOnCommand, PlayOnSettings};
use hastings::coach::settings::{Settings, Side};
use hastings::ui::TrainerApp;

use crate::common;
use common::{AppHarness, eco, fixture};

/// Words a club player should not meet outside a hover text.
const BANNED: [&str; 22] = [
    "τ",
    "Iterations",
    "Ply limit",
    "exact P",
    "Seed 003",
    "thesis",
    "UCI_Elo",
    "plies",
    "α-β",
    "MCTS",
    "nodes",
    "Polyglot",
    "[Orientation]",
    "(s)",
    "Measured retention",
    "memory model",
    "Cards",
    "Lines reached",
    "sample lines",
    "together P",
    "λ",
    "Temperature",
];

/// Whether `node` is inside a tooltip (a hover text, where the exact terms belong).
fn in_tooltip(node: &egui_kittest::kittest::AccessKitNode<'_>) -> bool {
    let mut parent = node.parent();
    while let Some(p) = parent {
        if p.role() == eframe::egui::accesskit::Role::Tooltip {
            return true;
        }
        parent = p.parent();
    }
    false
}

/// Whether `text` holds `word` as a word of its own ("plies", not "replies").
fn holds(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        let letter = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
        let glued_before = letter(before) && word.starts_with(char::is_alphanumeric);
        let glued_after = letter(after) && word.ends_with(char::is_alphanumeric);
        !glued_before && !glued_after
    })
}

/// Every text the window shows now (labels' texts, widgets' names), outside tooltips.
fn shown_texts(harness: &AppHarness) -> Vec<String> {
    harness
        .query_all_by(|n| n.bounding_box().is_some())
        .filter(|n| !in_tooltip(&n.accesskit_node()))
        .flat_map(|n| {
            let node = n.accesskit_node();
            // An unnamed widget is named by its hover text (egui): a hover text still.
            let label = node
                .label()
                .filter(|l| Some(l.as_str()) != node.description().as_deref());
            [label, node.value()]
        })
        .flatten()
        .collect()
}

/// The banned words in what the window shows, with the text each is in.
fn jargon(harness: &AppHarness, place: &str) -> Vec<String> {
    shown_texts(harness)
        .into_iter()
        .flat_map(|text| {
            BANNED
                .iter()
                .filter(|w| holds(&text, w))
                .map(|w| format!("{place}: {w:?} in {text:?}"))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn window(size: (f32, f32)) -> AppHarness {
    let settings = Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        play_on: PlayOnSettings {
            engine: EngineKind::AlphaBeta,
            skill: 20,
            movetime_ms: 50,
            ..PlayOnSettings::default()
        },
        ..common::settings()
    };
    let mut harness: AppHarness = Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut TrainerApp| app.frame_ui(ui),
            TrainerApp::new(eco(), settings),
        );
    harness.run();
    harness
}

#[test]
fn every_tab_and_play_on_speak_a_club_players_words() {
    for size in [(1280.0, 800.0), (800.0, 600.0)] {
        let found = jargon_everywhere(size);
        assert!(found.is_empty(), "at {size:?}: {found:#?}");
    }
}

/// The banned words of every tab and of play-on, in a window of `size`.
fn jargon_everywhere(size: (f32, f32)) -> Vec<String> {
    let mut harness = window(size);
    common::load_repertoire_in_window(&mut harness, fixture("compare_white.pgn"));
    let mut found = jargon(&harness, "the drill");
    for tab in [
        "Style",
        "Book",
        "Progress",
        "Coverage",
        "Explorer",
        "Repertoire",
    ] {
        harness.get_all_by_label(tab).next().unwrap().click();
        common::settle(&mut harness);
        found.extend(jargon(&harness, tab));
    }
    // Play on, the engine settings open, each engine.
    harness
        .state_mut()
        .coach_mut()
        .apply(Command::Action(hastings::coach::Action::PlayOn));
    common::settle(&mut harness);
    for _ in 0..20 {
        if harness
            .query_all_by(|n| n.label().is_some_and(|l| l == "Time per move"))
            .next()
            .is_some()
        {
            break;
        }
        harness.get_by_label("Engine settings").click();
        harness.run();
    }
    for kind in EngineKind::ALL {
        let settings = PlayOnSettings {
            engine: kind,
            ..harness.state().coach().settings().play_on.clone()
        };
        harness
            .state_mut()
            .coach_mut()
            .apply(Command::PlayOn(PlayOnCommand::Settings(settings)));
        common::settle(&mut harness);
        found.extend(jargon(&harness, &format!("play on, {kind:?}")));
    }
    // A game played on: the engine's evaluation under the board.
    common::wait_until(&mut harness, "the learner's turn", |app| {
        app.coach()
            .play_on()
            .game()
            .is_some_and(|p| p.game().turn() == hastings::trainer::play_on::Turn::Learner)
    });
    let game = harness.state().coach().play_on().game().unwrap().game();
    let mv = shakmaty::Position::legal_moves(game.position())
        .into_iter()
        .next()
        .unwrap();
    harness
        .state_mut()
        .coach_mut()
        .apply(Command::PlayOn(PlayOnCommand::Play(mv)));
    common::wait_until(&mut harness, "the engine's evaluation", |app| {
        app.coach()
            .play_on()
            .game()
            .is_some_and(|p| p.evaluation().is_some())
    });
    common::settle(&mut harness);
    let texts = shown_texts(&harness);
    assert!(
        texts.iter().any(|t| t.contains(" for you, looking ")),
        "no evaluation shown: {texts:?}"
    );
    found.extend(jargon(&harness, "play on, a game"));
    found.sort();
    found.dedup();
    found
}
