//! The trainer window driven through its real widgets with egui_kittest: pointer events
//! on the squares and buttons found by their accessible labels.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::sync::Arc;

use eframe::egui::{self, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use hastings::book::PositionGraph;
use hastings::coach::settings::{Settings, Side};
use hastings::sampler::Distribution;
use hastings::trainer::Phase;
use hastings::ui::TrainerApp;
use hastings::ui::board::{BoardView, Orientation, board_ui, square_label};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position, Role, Square};

use crate::common;

fn graph() -> Arc<PositionGraph> {
    common::eco()
}

fn settings(learner: Side) -> Settings {
    Settings {
        learner,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..crate::common::settings()
    }
}

fn app_harness(learner: Side) -> Harness<'static, TrainerApp> {
    let app = TrainerApp::new(graph(), settings(learner));
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        // A reply takes a few frames: the delay, the move, its animation.
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

/// The centre of the board square `sq` (found by its accessible label).
fn square_center(harness: &Harness<'_, impl Sized>, sq: Square) -> Pos2 {
    harness
        .get_by(|node| {
            node.label()
                .is_some_and(|l| l == sq.to_string() || l.starts_with(&format!("{sq} ")))
        })
        .rect()
        .center()
}

fn click_square(harness: &mut Harness<'_, impl Sized>, sq: Square) {
    let center = square_center(harness, sq);
    harness.hover_at(center);
    harness.event(egui::Event::PointerButton {
        pos: center,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    harness.event(egui::Event::PointerButton {
        pos: center,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.step();
}

fn drag(harness: &mut Harness<'_, impl Sized>, from: Square, to: Square) {
    let (a, b) = (square_center(harness, from), square_center(harness, to));
    harness.hover_at(a);
    harness.drag_at(a);
    for t in [0.1, 0.3, 0.6, 1.0] {
        harness.hover_at(a + (b - a) * t);
    }
    harness.drop_at(b);
    harness.run();
}

/// The exact P of `san` in the chart, read from the chart's accessible description
/// (`Next move for White: e4 P 53.06%, d4 P 33.81%, …`).
fn chart_p(harness: &Harness<'_, TrainerApp>, san: &str) -> f64 {
    let chart = harness.get_by(|n| n.label().is_some_and(|l| l.starts_with("Next move for")));
    let label = chart.accesskit_node().label().unwrap_or_default();
    let needle = format!("{san} P ");
    let bars = label.split_once(": ").map_or("", |(_, bars)| bars);
    let bar = bars
        .split(", ")
        .find(|bar| bar.starts_with(&needle))
        .unwrap_or_else(|| panic!("no bar for {san} in {label:?}"));
    let percent: f64 = bar[needle.len()..]
        .split('%')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("cannot read P in {bar:?}"));
    percent / 100.0
}

#[test]
fn clicking_e2_then_e4_names_the_kings_pawn_game_then_the_computer_replies_from_the_book() {
    let mut harness = app_harness(Side::White);
    harness.run();
    harness.get_by_label("e2 white pawn").click();
    harness.run();
    harness.get_by_label("e4").click();
    // The release frame plays the move; the next frame draws it (the reply waits a frame).
    harness.step();
    harness.step();
    harness.get_by_label("B00 King's Pawn Game");
    harness.get_by_label("e4 white pawn");
    assert!(harness.query_by_label("e2 white pawn").is_none());

    harness.run();
    let app = harness.state().coach();
    let moves = app.session().moves();
    assert_eq!(moves.len(), 2, "the computer replied once");
    let reply = moves[1].mv;
    assert!(!moves[1].by_learner);

    // The reply is a candidate of the book at 1.e4 ...
    let graph = graph();
    let mut after_e4 = Chess::default();
    after_e4.play_unchecked(moves[0].mv);
    let node = graph.lookup(&after_e4).expect("1.e4 is in the book");
    let dist = Distribution::at(&graph, node, &after_e4, app.session().style(), 1.0);
    assert!(
        dist.candidate_for(reply).is_some(),
        "{} is not a book move after 1.e4",
        moves[1].san
    );
    // ... and it is on the board: its piece stands on the target, the origin is empty.
    let mut expected = after_e4.clone();
    expected.play_unchecked(reply);
    let to = reply.to();
    harness.get_by_label(&square_label(&expected, to));
    let from = reply.from().expect("a board move");
    harness.get_by_label(&from.to_string());
    assert!(square_label(&expected, to).contains("black"));
    assert_eq!(*app.session().phase(), Phase::LearnerToMove);
}

#[test]
fn dragging_a_knight_plays_it_and_an_illegal_drop_snaps_back() {
    let mut harness = app_harness(Side::White);
    harness.run();

    drag(&mut harness, Square::E2, Square::E5);
    assert!(
        harness.state().coach().session().moves().is_empty(),
        "e2-e5 is illegal"
    );
    harness.get_by_label("e2 white pawn");
    harness.get_by_label("e5");

    drag(&mut harness, Square::G1, Square::F3);
    let moves = harness.state().coach().session().moves();
    assert_eq!(moves.first().map(|m| m.san.as_str()), Some("Nf3"));
    harness.get_by_label("f3 white knight");
    harness.get_by_label("g1");
}

#[test]
fn an_out_of_book_move_shows_the_book_moves_and_try_again_takes_it_back() {
    let mut harness = app_harness(Side::White);
    harness.run();
    harness.get_by_label("e2 white pawn").click();
    harness.run();
    harness.get_by_label("e4").click();
    harness.run();

    // A legal move of the learner that leaves the book.
    let graph = graph();
    let pos = harness.state().coach().session().position().clone();
    let wrong = pos
        .legal_moves()
        .into_iter()
        .find(|m| {
            matches!(
                m,
                Move::Normal {
                    promotion: None,
                    ..
                }
            ) && {
                let mut next = pos.clone();
                next.play_unchecked(*m);
                graph.lookup(&next).is_none()
            }
        })
        .expect("some move leaves the book");
    let from = wrong.from().expect("a board move");
    click_square(&mut harness, from);
    harness.run();
    click_square(&mut harness, wrong.to());
    harness.run();

    let Phase::OutOfBook {
        san, book_moves, ..
    } = harness.state().coach().session().phase().clone()
    else {
        panic!("the move was not reported out of book");
    };
    harness.get_by_label(&format!("{san} is not in the book."));
    harness.get_by_label("Book moves here:");
    assert!(!book_moves.is_empty());
    for b in &book_moves {
        assert!(
            harness.query_all_by_label(&b.san).count() >= 1,
            "book move {} is not listed",
            b.san
        );
        // The chart's P, not the book's share (issue 21: one number for the learner).
        let p = format!("{:.1}%", b.p * 100.0);
        assert!(
            harness.query_all_by_label(&p).count() >= 1,
            "P {p} is not listed"
        );
    }
    assert_eq!(harness.state().coach().session().mistakes_in_line(), 1);

    harness.get_by_label("Try again").click();
    harness.run();
    assert_eq!(
        *harness.state().coach().session().phase(),
        Phase::LearnerToMove
    );
    harness.get_by_label(&square_label(&pos, from));
    assert_eq!(harness.state().coach().session().moves().len(), 2);
}

#[test]
fn preferring_c4_lines_as_black_grows_the_c4_bar() {
    let mut harness = app_harness(Side::Black);
    harness.run();
    assert_eq!(
        harness.state().coach().orientation(),
        Orientation::BlackBottom
    );
    assert_eq!(
        harness.state().coach().session().moves().len(),
        1,
        "White opened"
    );

    // Look at the start position, where White chooses the first move.
    harness.get_by_label("Start").click();
    harness.run();
    let before = chart_p(&harness, "c4");
    assert!((before - 0.0531).abs() < 1e-4, "neutral P(c4) = {before}");

    harness.get_by_label("1.c4 lines").click();
    harness.run();
    let after = chart_p(&harness, "c4");
    assert!(harness.state().coach().settings().style.params()[2].enabled);
    assert!(after > 0.3, "P(c4) with 1.c4 lines on = {after}");
    assert!(after > 5.0 * before);
}

struct BoardTest {
    position: Chess,
    played: Vec<Move>,
}

fn board_harness(fen: &str) -> Harness<'static, BoardTest> {
    let setup: Fen = fen.parse().expect("valid FEN");
    let position: Chess = setup
        .into_position(CastlingMode::Standard)
        .expect("legal position");
    Harness::builder()
        .with_size(vec2(480.0, 480.0))
        .build_ui_state(
            |ui, test: &mut BoardTest| {
                let view = BoardView::new(&test.position);
                let response = board_ui(ui, &view, Orientation::WhiteBottom);
                if let Some(mv) = response.played {
                    test.position.play_unchecked(mv);
                    test.played.push(mv);
                }
            },
            BoardTest {
                position,
                played: Vec::new(),
            },
        )
}

#[test]
fn promoting_a_pawn_opens_the_picker_and_plays_the_chosen_piece() {
    let mut harness = board_harness("8/4P2k/8/8/8/8/8/K7 w - - 0 1");
    harness.run();
    harness.get_by_label("e7 white pawn").click();
    harness.run();
    harness.get_by_label("e8").click();
    harness.run();
    assert!(harness.state().played.is_empty(), "waits for the choice");
    for piece in ["queen", "rook", "bishop"] {
        harness.get_by_label(&format!("Promote to {piece}"));
    }
    harness.get_by_label("Promote to knight").click();
    harness.run();
    let played = &harness.state().played;
    assert_eq!(played.len(), 1);
    assert_eq!(played[0].promotion(), Some(Role::Knight));
    harness.get_by_label("e8 white knight");
    assert!(harness.query_by_label("Promote to queen").is_none());
}

#[test]
fn pressing_f_flips_the_board_and_ctrl_z_takes_back() {
    let mut harness = app_harness(Side::White);
    harness.run();
    let e2 = square_center(&harness, Square::E2);
    harness.key_press(egui::Key::F);
    harness.run();
    assert_eq!(
        harness.state().coach().orientation(),
        Orientation::BlackBottom
    );
    let flipped = square_center(&harness, Square::E2);
    assert!(flipped.y < e2.y, "e2 moved to the top half");

    drag(&mut harness, Square::D2, Square::D4);
    assert_eq!(harness.state().coach().session().moves().len(), 2);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run();
    assert!(harness.state().coach().session().moves().is_empty());
    harness.get_by_label("d2 white pawn");
}

#[test]
fn an_earlier_position_is_read_only_until_continue_from_here() {
    let mut harness = app_harness(Side::White);
    harness.run();
    drag(&mut harness, Square::E2, Square::E4);
    assert_eq!(harness.state().coach().session().moves().len(), 2);

    harness.get_by_label("Start").click();
    harness.run();
    harness.get_by_label("Viewing the starting position (read-only)");
    harness
        .state_mut()
        .coach_mut()
        .apply(hastings::coach::Command::ShowPly(1));
    harness.run();
    harness.get_by_label("Viewing the position after 1.e4 (read-only)");
    harness.get_by_label("Start").click();
    harness.run();
    harness.get_by_label("e2 white pawn");
    drag(&mut harness, Square::D2, Square::D4);
    assert_eq!(
        harness.state().coach().session().moves().len(),
        2,
        "read-only"
    );
    harness.get_by_label("d2 white pawn");

    harness.get_by_label("Continue from here").click();
    harness.run();
    assert!(harness.state().coach().session().moves().is_empty());
    assert_eq!(
        *harness.state().coach().session().phase(),
        Phase::LearnerToMove
    );
    drag(&mut harness, Square::D2, Square::D4);
    assert_eq!(harness.state().coach().session().moves().len(), 2);
    harness.get_by_label("d4 white pawn");
}

#[test]
fn the_chart_hides_the_learners_candidates_until_they_move() {
    let mut harness = app_harness(Side::White);
    harness.run();
    assert!(
        harness.state_mut().chart().rows.is_empty(),
        "hidden at first"
    );
    harness.get_by_label_contains("Hidden until you move");
    // After the learner's move and the reply, the chart shows the position of their
    // last choice: the start, with e4 as a candidate.
    harness.get_by_label("e2 white pawn").click();
    harness.run();
    harness.get_by_label("e4").click();
    harness.run();
    assert_eq!(harness.state().coach().session().moves().len(), 2);
    harness.get_by_label("Before your last move (White)");
    let start = Distribution::at(
        common::eco_graph(),
        common::eco_graph().lookup(&Chess::default()).unwrap(),
        &Chess::default(),
        &hastings::sampler::Style::neutral(),
        1.0,
    );
    let p_e4 = harness.state_mut().chart().row("e4").unwrap().p;
    let expected = start
        .candidates
        .iter()
        .find(|c| c.mv.to() == Square::E4 && c.mv.role() == Role::Pawn)
        .unwrap()
        .p;
    assert!((p_e4 - expected).abs() < 1e-12);
    // Unticked, the chart shows the candidates now.
    harness.get_by_label("Hide the answer until I move").click();
    harness.run();
    let now = harness.state().coach().session().distribution().clone();
    let rows = harness.state_mut().chart().rows.len();
    assert_eq!(rows, now.candidates.len());
    harness.get_by_label("Hide the answer until I move").click();
    harness.run();
    assert_ne!(harness.state_mut().chart().rows.len(), rows);
    // Exploring shows them too.
    harness.state_mut().coach_mut().settings_mut().iterations = 50;
    harness.get_by_label("Explore").click();
    for _ in 0..200 {
        harness.step();
        if !harness.state().coach().sampled_lines().is_running() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    harness.run();
    assert_eq!(harness.state_mut().chart().rows.len(), rows);
}

#[test]
fn the_computers_reply_glides_to_its_square_and_then_the_window_is_idle() {
    let app = TrainerApp::new(graph(), settings(Side::White));
    let mut harness = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_step_dt(0.05)
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
    harness.run();
    harness.get_by_label("e2 white pawn").click();
    harness.step();
    harness.get_by_label("e4").click();
    let mut animating_frames = 0;
    for _ in 0..20 {
        harness.step();
        if harness.state().is_animating() {
            animating_frames += 1;
        } else if animating_frames > 0 {
            break;
        }
    }
    assert_eq!(
        harness.state().coach().session().moves().len(),
        2,
        "the computer replied"
    );
    // 150 ms at 50 ms a frame: the reply is drawn on its way for a few frames.
    assert!(
        (2..=4).contains(&animating_frames),
        "{animating_frames} frames"
    );
    // Then nothing asks for another frame: `run` settles.
    harness.run();
    assert!(!harness.state().is_animating());
    // "Show me" glides too; with animation off, nothing glides.
    harness.get_by_label("Show me").click();
    harness.step();
    assert!(harness.state().is_animating());
    harness.run();
    harness.state_mut().coach_mut().settings_mut().animate_moves = false;
    harness.get_by_label("Take back").click();
    harness.run();
    harness.get_by_label("Show me").click();
    harness.step();
    assert!(!harness.state().is_animating());
}

#[test]
fn the_wrong_move_panel_shows_the_same_p_as_the_chart_not_the_share() {
    // A style that moves P away from the book's shares.
    let style = hastings::sampler::Style::presets()
        .into_iter()
        .find(|p| p.name == "Sharp gambits")
        .unwrap()
        .style;
    let app = TrainerApp::new(
        graph(),
        Settings {
            style,
            ..settings(Side::White)
        },
    );
    let mut harness = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
    harness.run();
    let moves = |sans: &str| hastings::book::movelist::parse_moves(&Chess::default(), sans);
    harness
        .state_mut()
        .coach_mut()
        .apply(hastings::coach::Command::DrillFrom(moves("e4 e5").unwrap()));
    harness.run();
    // The chart's bars at this position: the drill's exact distribution.
    let session = harness.state().coach().session();
    let node = session.node().unwrap();
    let dist = Distribution::at(
        session.graph(),
        node,
        session.position(),
        session.style(),
        session.s_prev(),
    );
    let h4 = moves("e4 e5 h4").unwrap()[2];
    harness
        .state_mut()
        .coach_mut()
        .apply(hastings::coach::Command::Play(h4));
    harness.run();
    let Phase::OutOfBook { book_moves, .. } = harness.state().coach().session().phase().clone()
    else {
        panic!("2.h4 leaves the book");
    };
    let mut differ = 0;
    for b in &book_moves {
        let bar = dist.candidates.iter().find(|c| c.mv == b.mv).unwrap();
        assert!((b.p - bar.p).abs() < 1e-12, "{}", b.san);
        let shown = format!("{:.1}%", b.p * 100.0);
        assert!(
            harness.query_all_by_label(&shown).count() >= 1,
            "{} {shown}",
            b.san
        );
        if format!("{:.1}%", b.share * 100.0) != shown {
            differ += 1;
        }
    }
    assert!(
        differ >= 3,
        "the style changes P from the share for several moves"
    );
    // P first, as the chart orders its bars.
    assert!(book_moves.windows(2).all(|w| w[0].p >= w[1].p));
}

/// Presses `key` as a keyboard does: the key, then the text it types.
fn type_key(harness: &mut Harness<'_, TrainerApp>, modifiers: egui::Modifiers, key: egui::Key) {
    let name = key.name();
    let text = if modifiers.shift {
        name.to_uppercase()
    } else {
        name.to_lowercase()
    };
    harness.key_press_modifiers(modifiers, key);
    harness.event_modifiers(egui::Event::Text(text), modifiers);
    harness.run();
}

#[test]
fn single_keys_do_nothing_while_a_dialog_is_open_and_its_field_has_the_keyboard() {
    let mut harness = app_harness(Side::White);
    harness.run();
    drag(&mut harness, Square::E2, Square::E4);
    assert_eq!(harness.state().coach().session().moves().len(), 2);
    let none = egui::Modifiers::NONE;

    // The path field has the keyboard as soon as it opens: the keys type the path.
    harness.state_mut().ask_for_path();
    harness.run();
    type_key(&mut harness, none, egui::Key::F);
    type_key(&mut harness, none, egui::Key::N);
    type_key(&mut harness, egui::Modifiers::SHIFT, egui::Key::N);
    assert_eq!(
        harness.state().coach().orientation(),
        Orientation::WhiteBottom
    );
    assert_eq!(
        harness.state().coach().session().moves().len(),
        2,
        "no new line"
    );
    assert_eq!(
        harness.get_by_label("Path").value().as_deref(),
        Some("fnN"),
        "typed into the field"
    );
    harness.get_by_label("Cancel").click();
    harness.run();
    assert!(harness.query_by_label("Path").is_none());

    // The "read as" window has no text field: single keys still wait for it.
    harness
        .state_mut()
        .open_files(vec![common::fixture("repertoire.pgn")]);
    harness.run();
    harness.get_by_label("Read as");
    type_key(&mut harness, none, egui::Key::N);
    type_key(&mut harness, none, egui::Key::F);
    assert_eq!(
        harness.state().coach().orientation(),
        Orientation::WhiteBottom
    );
    assert_eq!(
        harness.state().coach().session().moves().len(),
        2,
        "no new line"
    );
    harness.get_by_label("Cancel").click();
    harness.run();

    // With no dialog open the keys work again.
    harness.key_press(egui::Key::F);
    harness.run();
    assert_eq!(
        harness.state().coach().orientation(),
        Orientation::BlackBottom
    );
}

#[test]
fn ctrl_c_copies_the_drilled_line_as_pgn() {
    let mut harness = app_harness(Side::White);
    harness.run();
    harness
        .state_mut()
        .coach_mut()
        .apply(hastings::coach::Command::Action(
            hastings::coach::Action::ShowMe,
        ));
    harness.run();
    assert_eq!(
        harness.state().coach().session().moves().len(),
        2,
        "1.e4 and a reply"
    );
    // Ctrl+C: egui turns the keys into a Copy event.
    harness.event(egui::Event::Copy);
    harness.step();
    let copied: Vec<&String> = harness
        .output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            egui::OutputCommand::CopyText(text) => Some(text),
            _ => None,
        })
        .collect();
    assert_eq!(copied.len(), 1, "{copied:?}");
    let reply = &harness.state().coach().session().moves()[1].san;
    assert!(
        copied[0].contains(&format!("1. e4 {reply} *")),
        "{}",
        copied[0]
    );
}
