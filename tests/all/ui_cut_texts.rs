//! Issue 41, item 12: texts that were cut or broken. The play-on move list never
//! breaks a move from its number at a line's end ("cxd4 4." / "Nxd4"), at 1280×800 and
//! 800×600.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::accesskit::Role;
use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
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
        .with_max_steps(64)
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
            // A quiet move: the first legal one that captures nothing (a capture where
            // every move is one: the engine's moves vary with its time).
            let position = game.position().clone();
            let legal = shakmaty::Position::legal_moves(&position);
            let mv = *legal
                .iter()
                .find(|m| !m.is_capture())
                .or_else(|| legal.first())
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

/// As the window sizes the side panel: its content's right edge (8 points in, as wide as
/// the panel).
fn side_panel_right(size: (f32, f32)) -> f32 {
    8.0 + ((size.0 - 16.0) * 0.2).clamp(180.0, 300.0)
}

/// "(side not said)" ended under the side panel's scroll bar; the tabs' texts wrap
/// before the bar now (its width: 10 points), in the Book tab and My repertoires with a
/// study whose chapters do not say their side, at both sizes.
#[test]
fn nothing_in_the_side_panel_is_under_its_scroll_bar_at_both_sizes() {
    let dir = common::temp_dir("cut-side-not-said");
    // A chapter title long enough to wrap in the side panel.
    let untagged = crate::ui_sides::untagged_black(&dir);
    let text = std::fs::read_to_string(&untagged).unwrap();
    let title = "Caro-Kann: the Advance Variation with 3...Bf5 4.Nf3 e6 5.Be2 c5 6.Be3";
    let path = dir.join("long-titles.pgn");
    std::fs::write(&path, text.replace("Caro-Kann\"]", &format!("{title}\"]"))).unwrap();
    for size in SIZES {
        let mut harness = window(size);
        common::open_in_window(&mut harness, vec![path.clone()], "My repertoire");
        harness.get_by_label("Both / don't know").click();
        common::settle(&mut harness);
        if let Some(close) = harness.query_by_label("Close") {
            close.click();
            common::settle(&mut harness);
        }
        let bar = harness.ctx.global_style().spacing.scroll.bar_width;
        let right = side_panel_right(size);
        let top = harness
            .get_all_by_label("Style")
            .next()
            .unwrap()
            .rect()
            .bottom();
        for tab in [
            "Book",
            "My repertoires",
            "Repertoire",
            "Style",
            "Progress",
            "Coverage",
            "Explorer",
        ] {
            harness.get_all_by_label(tab).next().unwrap().click();
            common::settle(&mut harness);
            let in_panel = || {
                harness
                    .query_all_by(|n| {
                        n.bounding_box().is_some() && (n.label().is_some() || n.value().is_some())
                    })
                    .filter(|n| n.rect().min.x < right && n.rect().min.y > top)
            };
            // A tab shorter than the window has no bar: its texts may go to the edge.
            if !in_panel().any(|n| n.rect().max.y > size.1) {
                continue;
            }
            let under: Vec<_> = in_panel()
                .filter(|n| n.rect().max.x > right - bar + 0.5)
                .map(|n| {
                    (
                        n.accesskit_node().label(),
                        n.accesskit_node().value(),
                        n.rect(),
                    )
                })
                .collect();
            assert!(
                under.is_empty(),
                "{tab} at {size:?}, under the bar (from {}): {under:#?}",
                right - bar
            );
        }
    }
}

/// "Coordina tes": the Board section's menus had their names beside them, broken
/// mid-word at 800×600. Each name is one line, inside the side panel, at both sizes.
#[test]
fn the_board_menus_names_are_whole_at_both_sizes() {
    for size in SIZES {
        let mut harness = window(size);
        harness.get_all_by_label("Style").next().unwrap().click();
        common::settle(&mut harness);
        let line = harness
            .get_by_role_and_label(Role::Label, "Board")
            .rect()
            .height();
        for name in ["Squares", "Pieces", "Coordinates"] {
            let label = harness.get_by_role_and_label(Role::Label, name).rect();
            let menu = harness.get_by_role_and_label(Role::ComboBox, name).rect();
            assert!(
                label.height() < 1.5 * line,
                "{name} at {label:?} is broken over lines at {size:?} (a line is {line})"
            );
            for r in [label, menu] {
                assert!(
                    r.max.x <= side_panel_right(size) + 0.5,
                    "{name} at {r:?} past the side panel at {size:?}"
                );
            }
        }
    }
}

/// The move box's hint, whole inside the box: `node`'s placeholder laid out in the
/// box's font, with the box's margins, is no wider than the box.
fn assert_hint_fits(harness: &AppHarness, place: &str, size: (f32, f32)) {
    let node = harness
        .get_all_by_role(Role::TextInput)
        .find(|n| {
            n.accesskit_node()
                .placeholder()
                .is_some_and(|p| p.starts_with("Type a move"))
        })
        .unwrap_or_else(|| panic!("{place}, {size:?}: no move box"));
    let hint = node.accesskit_node().placeholder().unwrap().to_owned();
    assert_eq!(hint, "Type a move (/)");
    let font = eframe::egui::TextStyle::Body.resolve(&harness.ctx.global_style());
    let wide = harness.ctx.fonts_mut(|f| {
        f.layout_no_wrap(hint.clone(), font, eframe::egui::Color32::WHITE)
            .size()
            .x
    });
    let r = node.rect();
    // TextEdit's margins: 4 points each side.
    assert!(
        wide + 8.0 <= r.width() + 0.5,
        "{place}, {size:?}: {hint:?} ({wide} wide) cut in the box {r:?}"
    );
    assert!(r.max.x <= size.0, "{place}, {size:?}: the box {r:?}");
}

/// Issue 41, item 12: "Type a move: e4, Nf3, O-…" was cut at 800×600. The hint is
/// whole in the drill panel's box and in play-on's, at both sizes.
#[test]
fn the_move_boxs_hint_is_whole_in_the_drill_and_in_play_on_at_both_sizes() {
    for size in SIZES {
        let mut harness = window(size);
        assert_hint_fits(&harness, "the drill", size);
        harness
            .state_mut()
            .coach_mut()
            .apply(Command::Action(Action::PlayOn));
        common::settle(&mut harness);
        assert_hint_fits(&harness, "play on", size);
    }
}
