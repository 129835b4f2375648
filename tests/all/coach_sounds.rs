//! Sounds. The coach, without a window: which [`Sound`] each move of the drill (the
//! learner's, "Show me"'s, the computer's reply) and of the play-on game asks for, one
//! per event, and none when the settings mute them. The window (egui_kittest): the
//! mute switch in the Style tab, and its note when there is no sound device.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::time::{Duration, Instant};

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::play_on::{EngineKind, PlayOnCommand, PlayOnSettings};
use hastings::coach::settings::{Settings, Side};
use hastings::coach::{Action, Coach, Command, Notice, Sound};
use hastings::trainer::Phase;
use hastings::ui::TrainerApp;
use hastings::ui::sounds::SoundPlayer;
use shakmaty::{Chess, Move, Position as _};

use crate::common;
use common::coach_frame as frame;
use common::eco;

fn settings() -> Settings {
    Settings {
        learner: Side::White,
        seed: "3".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        ..crate::common::settings()
    }
}

fn coach_with(settings: Settings) -> Coach {
    let mut coach = Coach::new(eco(), settings, None);
    frame(&mut coach);
    coach
}

/// The sounds asked for since the last call.
fn sounds(coach: &mut Coach) -> Vec<Sound> {
    coach
        .take_notices()
        .into_iter()
        .filter_map(|n| match n {
            Notice::Sound(s) => Some(s),
            _ => None,
        })
        .collect()
}

/// The first book line's moves up to a move `wanted` picks, played from the standard
/// position (the move last); never the line's last move, so the line goes on after it.
fn book_moves_to(coach: &Coach, wanted: impl Fn(&Chess, Move) -> bool) -> Vec<Move> {
    for line in coach.graph().lines().iter().filter(|l| l.start.is_none()) {
        let moves = &line.moves;
        let mut pos = Chess::default();
        for (i, &mv) in moves.iter().enumerate().take(moves.len().saturating_sub(1)) {
            if wanted(&pos, mv) {
                return moves[..=i].to_vec();
            }
            pos.play_unchecked(mv);
        }
    }
    panic!("no book move as wanted");
}

/// Drills from the moves before the last of `moves` and plays the last as the learner;
/// returns the sounds it made.
fn learner_plays_last(coach: &mut Coach, moves: &[Move]) -> Vec<Sound> {
    let (&last, before) = moves.split_last().unwrap();
    coach.apply(Command::DrillFrom(before.to_vec()));
    assert_eq!(coach.session().phase(), &Phase::LearnerToMove);
    sounds(coach);
    coach.apply(Command::Play(last));
    assert_eq!(
        coach.session().moves().len(),
        moves.len(),
        "the move was kept"
    );
    sounds(coach)
}

/// Plays book moves ("Show me", the computer's replies) until the learner can leave
/// the book; returns a move outside it.
fn to_a_wrong_move(coach: &mut Coach) -> Move {
    for _ in 0..200 {
        match coach.session().phase() {
            Phase::LearnerToMove => {
                let book: Vec<Move> = coach.session().book_moves().iter().map(|b| b.mv).collect();
                let legal = coach.session().position().legal_moves();
                match legal.into_iter().find(|m| !book.contains(m)) {
                    Some(wrong) => return wrong,
                    None => coach.apply(Command::Action(Action::ShowMe)),
                }
            }
            Phase::EndOfLine { .. } => coach.apply(Command::Action(Action::NextLine)),
            _ => frame(coach),
        }
    }
    panic!("no move outside the book");
}

fn gives_check(pos: &Chess, mv: Move) -> bool {
    pos.clone().play(mv).is_ok_and(|after| after.is_check())
}

#[test]
fn a_plain_book_move_clicks() {
    let mut coach = coach_with(settings());
    coach.apply(Command::Play(common::san_moves("e4")[0]));
    assert_eq!(sounds(&mut coach), [Sound::Move]);
}

#[test]
fn a_capture_in_the_book_sounds_as_a_capture() {
    let mut coach = coach_with(settings());
    let moves = book_moves_to(&coach, |pos, mv| mv.is_capture() && !gives_check(pos, mv));
    assert_eq!(learner_plays_last(&mut coach, &moves), [Sound::Capture]);
}

#[test]
fn a_check_in_the_book_sounds_as_a_check() {
    let mut coach = coach_with(settings());
    let moves = book_moves_to(&coach, gives_check);
    assert_eq!(learner_plays_last(&mut coach, &moves), [Sound::Check]);
}

#[test]
fn a_move_out_of_the_book_is_a_mistake() {
    let mut coach = coach_with(settings());
    let wrong = to_a_wrong_move(&mut coach);
    sounds(&mut coach);
    coach.apply(Command::Play(wrong));
    assert!(matches!(coach.session().phase(), Phase::OutOfBook { .. }));
    assert_eq!(sounds(&mut coach), [Sound::Mistake]);
    // A move that cannot be played now (nothing happens) makes no sound.
    coach.apply(Command::Play(wrong));
    assert_eq!(sounds(&mut coach), []);
}

#[test]
fn the_computers_reply_makes_the_sound_of_its_move() {
    let mut coach = coach_with(settings());
    coach.apply(Command::Play(common::san_moves("e4")[0]));
    sounds(&mut coach);
    // The learner's move is drawn first; the reply comes a frame later.
    frame(&mut coach);
    frame(&mut coach);
    assert_eq!(coach.session().moves().len(), 2, "the computer replied");
    let reply = coach.session().moves()[1].mv;
    let expected = Sound::of_move(coach.session().position_at(1), reply);
    assert_eq!(sounds(&mut coach), [expected]);
}

#[test]
fn the_move_that_ends_the_line_chimes_instead_of_clicking() {
    let mut coach = coach_with(settings());
    sounds(&mut coach);
    for _ in 0..120 {
        match coach.session().phase() {
            Phase::LearnerToMove => coach.apply(Command::Action(Action::ShowMe)),
            _ => frame(&mut coach),
        }
        let heard = sounds(&mut coach);
        if matches!(coach.session().phase(), Phase::EndOfLine { .. }) {
            assert_eq!(heard, [Sound::EndOfLine]);
            return;
        }
        assert!(heard.len() <= 1, "one sound a move: {heard:?}");
        assert!(!heard.contains(&Sound::EndOfLine), "{heard:?}");
    }
    panic!("the line did not end");
}

#[test]
fn muted_the_coach_asks_for_no_sound() {
    let mut coach = coach_with(Settings {
        sounds: false,
        ..settings()
    });
    for _ in 0..200 {
        match coach.session().phase() {
            Phase::EndOfLine { .. } => break,
            Phase::LearnerToMove => coach.apply(Command::Action(Action::ShowMe)),
            Phase::OutOfBook { .. } => coach.apply(Command::Action(Action::TryAgain)),
            Phase::ComputerToMove => frame(&mut coach),
        }
    }
    assert!(matches!(coach.session().phase(), Phase::EndOfLine { .. }));
    coach.apply(Command::Action(Action::NextLine));
    let wrong = to_a_wrong_move(&mut coach);
    coach.apply(Command::Play(wrong));
    assert_eq!(sounds(&mut coach), []);

    // Switched on again in the settings, as the checkbox does.
    let mut on = coach.settings().clone();
    on.sounds = true;
    coach.apply(Command::SetSettings(Box::new(on)));
    coach.apply(Command::Action(Action::TryAgain));
    coach.apply(Command::Play(wrong));
    assert_eq!(sounds(&mut coach), [Sound::Mistake]);
}

#[test]
fn playing_on_the_learners_and_the_engines_moves_sound() {
    let mut coach = coach_with(Settings {
        play_on: PlayOnSettings {
            engine: EngineKind::AlphaBeta,
            movetime_ms: 50,
            ..PlayOnSettings::default()
        },
        ..settings()
    });
    coach.apply(Command::Action(Action::PlayOn));
    assert!(coach.play_on().game().is_some());
    sounds(&mut coach);
    coach.apply(Command::PlayOn(PlayOnCommand::Play(
        common::san_moves("e4")[0],
    )));
    assert_eq!(sounds(&mut coach), [Sound::Move]);
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut heard = Vec::new();
    while coach.play_on().game().unwrap().game().played().len() < 2 {
        assert!(Instant::now() < deadline, "the engine did not move");
        std::thread::sleep(Duration::from_millis(5));
        frame(&mut coach);
        heard.extend(sounds(&mut coach));
    }
    let game = coach.play_on().game().unwrap().game();
    let reply = game.played()[1].mv;
    let expected = Sound::of_move(&common::position_after("e4"), reply);
    assert_eq!(heard, [expected]);
}

fn harness(app: TrainerApp) -> Harness<'static, TrainerApp> {
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

#[test]
fn the_sounds_checkbox_in_the_style_tab_mutes_and_unmutes() {
    let mut h = harness(TrainerApp::new(eco(), settings()));
    h.run();
    assert!(h.state().coach().settings().sounds, "on by default");
    // The Style tab is long: scroll the switch into view first, as a user would.
    h.get_by_label("Sounds").scroll_to_me();
    h.run();
    h.get_by_label("Sounds").click();
    h.run();
    assert!(!h.state().coach().settings().sounds, "muted");
    h.get_by_label("Sounds").click();
    h.run();
    assert!(h.state().coach().settings().sounds);
}

#[test]
fn without_a_sound_device_the_switch_says_so_after_the_first_sound() {
    let mut app = TrainerApp::new(eco(), settings());
    app.set_sound_player(SoundPlayer::with_opener(|| {
        Err("no sound card here".to_owned())
    }));
    let mut h = harness(app);
    h.run();
    // Opened lazily: nothing was tried before the first sound.
    assert!(h.query_by_label("No sound device").is_none());
    h.state_mut()
        .coach_mut()
        .apply(Command::Play(common::san_moves("e4")[0]));
    // The audio thread fails to open the device and wakes the window.
    let deadline = Instant::now() + Duration::from_secs(10);
    while h.query_by_label("No sound device").is_none() {
        assert!(Instant::now() < deadline, "no note");
        std::thread::sleep(Duration::from_millis(5));
        h.step();
    }
    h.get_by_label("No sound device").scroll_to_me();
    h.run();
    let note = h.get_by_label("No sound device");
    note.hover();
    h.run();
    h.get_by_label_contains("no sound card here");
    // Muted, the note goes.
    h.get_by_label("Sounds").click();
    h.run();
    assert!(h.query_by_label("No sound device").is_none());
}
