//! Issue 41, item 12: texts that were cut or broken. The play-on move list never
//! breaks a move from its number at a line's end ("cxd4 4." / "Nxd4"), at 1280×800 and
//! 800×600.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::accesskit::Role;
use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::play_on::{EngineKind, PlayOnCommand, PlayOnSettings};
use hastings::coach::settings::{Settings, Side};
use hastings::coach::{Action, Command};
use hastings::ui::TrainerApp;

use crate::common;
use common::{AppHarness, eco};

const SIZES: [(f32, f32); 2] = [(1280.0, 800.0), (800.0, 600.0)];

/// The moves the learner plays on: long enough for the move list to wrap.
const MOVES: usize = 14;

fn window(size: (f32, f32)) -> AppHarness {
    let settings = Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        play_on: PlayOnSettings {
            engine: EngineKind::AlphaBeta,
            movetime_ms: 50,
            ..PlayOnSettings::default()
        },
        ..common::settings()
    };
    let mut harness: AppHarness = Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(20)
        .build_ui_state(
            |ui, app: &mut TrainerApp| app.frame_ui(ui),
            TrainerApp::new(eco(), settings),
        );
    harness.run();
    harness
}

/// Whether `text` is a move of the list with its number: `"4. Nxd4"`, `"12… b4"` (one
/// move: the engine's line under the board, `"15. cxd5 exd3+ 16. Kxc1 …"`, is a
/// paragraph that may wrap).
fn numbered_move(text: &str) -> bool {
    let digits = text.chars().take_while(char::is_ascii_digit).count();
    digits > 0
        && (text[digits..].starts_with(". ") || text[digits..].starts_with("… "))
        && text.split_whitespace().count() == 2
}

#[test]
fn the_play_on_move_list_keeps_each_number_with_its_move_at_both_sizes() {
    for size in SIZES {
        let mut harness = window(size);
        harness
            .state_mut()
            .coach_mut()
            .apply(Command::Action(Action::PlayOn));
        common::settle(&mut harness);
        for i in 1..=MOVES {
            let game = harness.state().coach().play_on().game().unwrap().game();
            if game.end().is_some() {
                break;
            }
            // A quiet move: the first legal one that captures nothing.
            let position = game.position().clone();
            let mv = shakmaty::Position::legal_moves(&position)
                .into_iter()
                .find(|m| !m.is_capture())
                .unwrap();
            harness
                .state_mut()
                .coach_mut()
                .apply(Command::PlayOn(PlayOnCommand::Play(mv)));
            common::wait_until(&mut harness, "the engine's reply", |app| {
                app.coach()
                    .play_on()
                    .game()
                    .is_some_and(|p| p.game().played().len() >= 2 * i || p.game().end().is_some())
            });
        }
        common::settle(&mut harness);
        let line = harness.get_by_label("Moves").rect().height();
        let moves: Vec<_> = harness
            .query_all_by(|n| n.value().is_some_and(|v| numbered_move(&v)))
            .map(|n| (n.value().unwrap(), n.rect()))
            .collect();
        assert!(moves.len() >= 12, "the list at {size:?}: {moves:?}");
        let rows: std::collections::BTreeSet<i32> =
            moves.iter().map(|(_, r)| r.min.y.round() as i32).collect();
        assert!(rows.len() >= 2, "the list wraps at {size:?}: {moves:?}");
        for (text, r) in &moves {
            assert!(
                // (a row may be taller than a line of text; two lines are not)
                r.height() < 1.5 * line,
                "{text:?} at {r:?} is broken over two lines at {size:?} (a line is {line})"
            );
            assert!(
                r.max.x <= size.0,
                "{text:?} at {r:?} is cut by the window at {size:?}"
            );
        }
    }
}

/// The Book tab's five ECO volume boxes stay in one row inside the side panel ("E" was
/// wrapped alone to a line of its own at 800×600).
#[test]
fn the_eco_volumes_stay_in_one_row_inside_the_side_panel_at_both_sizes() {
    for size in SIZES {
        let mut harness = window(size);
        harness.get_all_by_label("Book").next().unwrap().click();
        common::settle(&mut harness);
        // As the window sizes the side panel (8 points in, its content as wide as it).
        let right = 8.0 + ((size.0 - 16.0) * 0.2).clamp(180.0, 300.0) + 0.5;
        let boxes: Vec<_> = ["A", "B", "C", "D", "E"]
            .iter()
            .map(|v| harness.get_by_role_and_label(Role::CheckBox, v).rect())
            .collect();
        let top = boxes[0].min.y;
        for (v, r) in ["A", "B", "C", "D", "E"].iter().zip(&boxes) {
            assert!(
                (r.min.y - top).abs() < 1.0,
                "{v} at {r:?} is not in the row of A ({top}) at {size:?}"
            );
            assert!(
                r.max.x <= right,
                "{v} at {r:?} past the panel ({right}) at {size:?}"
            );
        }
    }
}
