//! Every button and label of every tab, and of play-on with its engine settings open,
//! lies inside the window at 1280×800 and 800×600: nothing cut at the sides, nothing
//! below the window that no scroll area can bring up.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::{self, Rect, accesskit::Role, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use hastings::coach::play_on::{EngineKind, PlayOnSettings};
use hastings::coach::settings::{Settings, Side};
use hastings::sampler::Popularity;
use hastings::ui::TrainerApp;

use crate::common;

const SIZES: [(f32, f32); 2] = [(1280.0, 800.0), (800.0, 600.0)];

fn harness(size: (f32, f32)) -> Harness<'static, TrainerApp> {
    harness_with(size, |_| {})
}

fn harness_with(
    size: (f32, f32),
    change: impl FnOnce(&mut Settings),
) -> Harness<'static, TrainerApp> {
    let mut settings = Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        play_on: PlayOnSettings {
            engine: EngineKind::AlphaBeta,
            skill: 20,
            movetime_ms: 50,
            ..PlayOnSettings::default()
        },
        ..Settings::default()
    };
    change(&mut settings);
    let app = TrainerApp::new(common::eco(), settings);
    Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

/// The labelled buttons and texts that are cut by the window's edges: wider than the
/// window allows, or out of it even once scrolled into view (as a user would scroll).
fn cut(harness: &mut Harness<'_, TrainerApp>, size: (f32, f32)) -> Vec<String> {
    let window = Rect::from_min_size(egui::Pos2::ZERO, vec2(size.0, size.1));
    let outside = |r: Rect| {
        r.min.x < window.min.x - 0.5
            || r.max.x > window.max.x + 0.5
            || r.min.y < window.min.y - 0.5
            || r.max.y > window.max.y + 0.5
    };
    let kinds = |role: Role, label: Option<String>| {
        matches!(
            role,
            Role::Button
                | Role::Label
                | Role::CheckBox
                | Role::ComboBox
                | Role::Slider
                | Role::SpinButton
                | Role::TextInput
        ) && label.is_some_and(|l| !l.is_empty())
    };
    let shown =
        |n: &egui_kittest::Node<'_>| kinds(n.accesskit_node().role(), n.accesskit_node().label());
    let suspects: Vec<String> = harness
        .query_all_by(|n| kinds(n.role(), n.label()))
        .filter(|n| outside(n.rect()))
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    let mut out = Vec::new();
    for label in suspects {
        // Scrolled into view where a scroll area holds it; then it must fit.
        if let Some(node) = harness.query_all_by_label(&label).find(|n| shown(n)) {
            node.scroll_to_me();
        }
        // Scrolling glides over a few frames.
        for _ in 0..4 {
            harness.run();
        }
        let fits_now = |harness: &Harness<'_, TrainerApp>| {
            harness
                .query_all_by_label(&label)
                .filter(|n| shown(n))
                .any(|n| !outside(n.rect()))
        };
        // Where "scroll into view" does not reach it, the mouse wheel: 100 points at a
        // time, to the end of the scroll area.
        let mut fits = fits_now(harness);
        for _ in 0..30 {
            if fits {
                break;
            }
            if let Some(node) = harness.query_all_by_label(&label).find(|n| shown(n)) {
                node.scroll_down();
            }
            harness.run();
            fits = fits_now(harness);
        }
        if !fits {
            let rects: Vec<Rect> = harness
                .query_all_by_label(&label)
                .map(|n| n.rect())
                .collect();
            out.push(format!("{label:?} at {rects:?}"));
        }
    }
    out
}

/// The widgets and texts of the side panel that stick out of it on the right (where the
/// panel cuts them): those that start in the panel's column below its tabs, outside
/// tooltips and windows.
fn cut_by_the_side_panel(harness: &Harness<'_, TrainerApp>, size: (f32, f32)) -> Vec<String> {
    // As the window sizes the panel; the harness puts the app 8 points in, and the
    // panel keeps a margin of 8 points, so its content ends at the panel's width.
    let width = ((size.0 - 16.0) * 0.2).clamp(180.0, 300.0);
    let top = harness
        .get_all_by_label("Style")
        .next()
        .unwrap()
        .rect()
        .top();
    cut_by_column(harness, 8.0, width + 0.5, top)
}

/// The widgets and texts of the right panel that stick out of it, on either side: its
/// left edge cuts their first letters, the window their last.
fn cut_by_the_right_panel(
    harness: &Harness<'_, TrainerApp>,
    size: (f32, f32),
    top: f32,
) -> Vec<String> {
    // As the window sizes the panel, 8 points in from the window's right edge.
    let width = ((size.0 - 16.0) * 0.22).clamp(190.0, 360.0);
    let right = size.0 - 8.0;
    cut_by_column(harness, right - width, right, top)
}

/// The named widgets and texts below `top`, outside tooltips and windows, that reach
/// into the column from `left` to `right` and out of it on one side or the other.
fn cut_by_column(
    harness: &Harness<'_, TrainerApp>,
    left: f32,
    right: f32,
    top: f32,
) -> Vec<String> {
    let name = |n: &egui_kittest::kittest::AccessKitNode<'_>| match n.role() {
        Role::Label => n.value(),
        Role::Button
        | Role::CheckBox
        | Role::RadioButton
        | Role::ComboBox
        | Role::Slider
        | Role::SpinButton
        | Role::TextInput
        | Role::DisclosureTriangle => n.label(),
        _ => None,
    };
    let floating = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
        let mut parent = n.parent();
        while let Some(p) = parent {
            // The root is a window too.
            let window = p.role() == Role::Window && p.parent().is_some();
            if window || matches!(p.role(), Role::Tooltip | Role::Dialog) {
                return true;
            }
            parent = p.parent();
        }
        false
    };
    harness
        .query_all_by(|n| name(n).is_some_and(|l| !l.is_empty()) && n.bounding_box().is_some())
        .filter(|n| !floating(&n.accesskit_node()))
        .filter(|n| {
            let r = n.rect();
            r.min.y >= top
                && r.min.x < right
                && r.max.x > left + 0.5
                && (r.min.x < left - 0.5 || r.max.x > right + 0.5)
        })
        .map(|n| {
            format!(
                "{:?} at {:?}",
                name(&n.accesskit_node()).unwrap_or_default(),
                n.rect()
            )
        })
        .collect()
}

fn open_tab(harness: &mut Harness<'_, TrainerApp>, tab: &str) {
    // The tab's button is the first node so named (a heading may repeat the name).
    harness.get_all_by_label(tab).next().unwrap().click();
    harness.run();
}

#[test]
fn every_tab_fits_the_window_at_both_sizes() {
    for size in SIZES {
        let mut h = harness(size);
        h.run();
        for tab in ["Style", "Book", "Progress", "Coverage"] {
            open_tab(&mut h, tab);
            let cut = cut(&mut h, size);
            assert!(cut.is_empty(), "{tab} at {size:?}: {cut:#?}");
        }
    }
}

#[test]
fn every_tab_stays_inside_the_side_panel_at_both_sizes_with_a_blended_popularity() {
    for size in SIZES {
        let mut h = harness_with(size, |s| s.book.popularity = Popularity::Blend(0.5));
        h.run();
        for tab in ["Style", "Book", "Progress", "Coverage"] {
            open_tab(&mut h, tab);
            if tab == "Book" {
                h.get_by_label("Book from games…").click();
                h.run();
            }
            // The panel settles in a frame or two (a scroll area learns its content).
            h.run();
            let cut = cut_by_the_side_panel(&h, size);
            assert!(cut.is_empty(), "{tab} at {size:?}: {cut:#?}");
        }
    }
}

/// Plays on after `line`, plays `moves` learner's moves (each answered by the engine),
/// then saves the game through the path field as a user without a file dialog does.
fn play_a_game_and_save_it(h: &mut Harness<'static, TrainerApp>, line: &str, moves: usize) {
    use hastings::coach::Command;
    use hastings::coach::play_on::PlayOnCommand;
    use shakmaty::Position as _;
    h.state_mut().use_path_field_only();
    h.state_mut()
        .coach_mut()
        .apply(Command::DrillFrom(common::san_moves(line)));
    h.run();
    h.state_mut()
        .coach_mut()
        .apply(Command::Action(hastings::coach::Action::PlayOn));
    h.run();
    for i in 0..moves {
        common::wait_until(h, "the learner's turn", |app| {
            app.coach().play_on().game().is_some_and(|p| {
                p.game().turn() == hastings::trainer::play_on::Turn::Learner
                    && p.game().played().iter().filter(|m| m.by_learner).count() == i
            })
        });
        let game = h.state().coach().play_on().game().unwrap().game();
        let mv = game
            .position()
            .legal_moves()
            .into_iter()
            .find(|m| m.promotion().is_none())
            .unwrap();
        h.state_mut()
            .coach_mut()
            .apply(Command::PlayOn(PlayOnCommand::Play(mv)));
        // The move's animation repaints for a while: more steps on a loaded machine.
        common::settle(h);
    }
    common::wait_until(h, "the engine's last reply", |app| {
        app.coach()
            .play_on()
            .game()
            .is_some_and(|p| p.game().turn() != hastings::trainer::play_on::Turn::Engine)
    });
    h.get_by_label("Save PGN…").click();
    h.run();
    let path = common::temp_dir("layout-play-on-save").join("my-game-against-the-engine.pgn");
    // The field has the keyboard focus, a name proposed: typing replaces it.
    let proposed = h
        .get_by_label("Path")
        .accesskit_node()
        .value()
        .unwrap_or_default();
    for _ in proposed.chars() {
        h.key_press(egui::Key::Backspace);
    }
    h.get_by_label("Path")
        .type_text(&path.display().to_string());
    h.run();
    h.get_by_label("Save").click();
    h.run();
    assert!(path.exists(), "the game was saved to {}", path.display());
}

#[test]
fn play_on_with_its_engine_settings_open_fits_the_window_at_both_sizes() {
    use hastings::coach::Command;
    use hastings::coach::play_on::PlayOnCommand;
    for size in SIZES {
        let mut h = harness(size);
        h.run();
        // The state a user reaches: a game played on after a named line and saved
        // (its notice shown), then the engine settings opened.
        play_a_game_and_save_it(&mut h, "e4 e5 Nf3 Nc6 Bb5 a6", 2);
        for _ in 0..20 {
            if h.query_by_role_and_label(Role::ComboBox, "Engine")
                .is_some()
            {
                break;
            }
            h.get_by_label("Engine settings").click();
            h.run();
        }
        assert!(
            h.query_by_role_and_label(Role::ComboBox, "Engine")
                .is_some()
        );
        // And its Advanced fold (the right panel's, right of the Style tab's).
        for _ in 0..20 {
            if h.query_by_role_and_label(Role::ComboBox, "All engines")
                .is_some()
            {
                break;
            }
            h.get_all_by_label("Advanced")
                .max_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
                .unwrap()
                .click();
            h.run();
        }
        assert!(
            h.query_by_role_and_label(Role::ComboBox, "All engines")
                .is_some()
        );
        // Each engine shows its own settings: every one of them fits.
        for kind in EngineKind::ALL {
            let settings = PlayOnSettings {
                engine: kind,
                ..h.state().coach().settings().play_on.clone()
            };
            h.state_mut()
                .coach_mut()
                .apply(Command::PlayOn(PlayOnCommand::Settings(settings)));
            h.run();
            h.run();
            // The panels' tops, below the top bar (the left panel's first tab).
            let top = h.get_all_by_label("Style").next().unwrap().rect().top();
            let cut_in = cut_by_the_right_panel(&h, size, top);
            assert!(
                cut_in.is_empty(),
                "play-on, {kind:?}, at {size:?}: {cut_in:#?}"
            );
            let cut = cut(&mut h, size);
            assert!(cut.is_empty(), "play-on, {kind:?}, at {size:?}: {cut:#?}");
        }
    }
}

#[test]
fn the_side_panel_and_the_chart_fold_away_for_a_bigger_board_and_come_back() {
    let mut h = harness((1280.0, 800.0));
    h.run();
    let board = |h: &Harness<'_, TrainerApp>| h.get_by_label("a1 white rook").rect();
    let before = board(&h);
    h.get_by_label("«").click();
    h.run();
    assert!(
        !h.state().coach().settings().panels.side,
        "saved in the settings"
    );
    assert!(
        h.query_by_label("Style").is_none(),
        "the tabs are folded away"
    );
    h.get_by_label("Hide the chart").click();
    h.run();
    assert!(!h.state().coach().settings().panels.chart);
    let bigger = board(&h);
    assert!(
        bigger.width() > before.width() * 1.2,
        "{before:?} -> {bigger:?}"
    );
    h.get_by_label("»").click();
    h.run();
    h.get_by_label("Show the chart").click();
    h.run();
    assert_eq!(h.state().coach().settings().panels, Default::default());
    assert_eq!(board(&h), before);
}

#[test]
fn most_often_missed_reads_as_lines_of_words_at_both_sizes() {
    for size in SIZES {
        let mut h = harness(size);
        h.run();
        // 1.d4 d5 2.Kd2 leaves the book: the position after 1.d4 d5 is missed once.
        let moves = common::san_moves("d4 d5 Kd2");
        h.state_mut()
            .coach_mut()
            .apply(hastings::coach::Command::DrillFrom(moves[..2].to_vec()));
        h.run();
        h.state_mut()
            .coach_mut()
            .apply(hastings::coach::Command::Play(moves[2]));
        h.run();
        open_tab(&mut h, "Progress");
        h.run();
        let line = h.get_by_label("Most often missed").rect().height();
        for text in ["D00 Queen's Pawn Game", "1 mistake in 1 try"] {
            // The one in the side panel (the drill panel names the opening too).
            let r = h
                .get_all_by_label(text)
                .map(|n| n.rect())
                .min_by(|a, b| a.left().total_cmp(&b.left()))
                .unwrap();
            // Two lines at most: never a word per line, nor letters broken off words.
            assert!(
                r.height() < 2.5 * line && r.width() > 60.0,
                "{text:?} at {size:?} is {r:?}"
            );
        }
        let cut = cut_by_the_side_panel(&h, size);
        assert!(cut.is_empty(), "{size:?}: {cut:#?}");
    }
}

#[test]
fn the_book_tab_with_two_studies_and_their_chapters_fits_at_both_sizes() {
    for size in SIZES {
        let mut h = harness(size);
        h.run();
        let files = vec![
            common::fixture("mixed_sides.pgn"),
            common::fixture("study_chapters.pgn"),
        ];
        common::open_in_window(&mut h, files, "My repertoire");
        // The French study has no side tags: the question comes, once.
        let window = Rect::from_min_size(egui::Pos2::ZERO, vec2(size.0, size.1));
        let answer = h.get_by_label("Both / don't know");
        assert!(window.contains_rect(answer.rect()), "{size:?}");
        answer.click();
        h.run();
        if let Some(close) = h.query_by_label("Close") {
            close.click();
            h.run();
        }
        open_tab(&mut h, "Book");
        h.get_by_label("Chapters (3)");
        h.get_by_label("Chapters (4)");
        h.get_by_label("as Black");
        // A chapter's lines, opened.
        h.get_by_label("its 5 lines").click();
        h.run();
        h.get_by_label("1.e4 c6 2.d4 d5 3.exd5 cxd5");
        let cut_out = cut(&mut h, size);
        assert!(cut_out.is_empty(), "Book at {size:?}: {cut_out:#?}");
        let cut_in = cut_by_the_side_panel(&h, size);
        assert!(cut_in.is_empty(), "Book at {size:?}: {cut_in:#?}");
    }
}
