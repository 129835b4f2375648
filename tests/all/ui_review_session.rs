//! The review session menu and "Learn new lines" in the window, driven through the real
//! widgets (egui_kittest) at 1280×800 and 800×600 on the repertoire fixture alone, with a
//! review log made here: each menu choice starts the positions it promises (checked
//! against a direct computation on the repertoire) at its first position; "Practise
//! anyway" when nothing is due; Learn new lines shows a line move by move, then asks
//! it, and the log keeps the grades.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::collections::BTreeSet;

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::book::LineSource;
use hastings::coach::review::DrillMode;
use hastings::coach::settings::{Settings, Side};
use hastings::review::{CardKey, Rating, SessionChoice};
use hastings::trainer::review_drill::ReviewStep;
use hastings::ui::TrainerApp;
use hastings::workspace::review_store::ReviewStore;
use shakmaty::{Chess, Color, Move, Position};

use crate::common;

const SIZES: [(f32, f32); 2] = [(1280.0, 800.0), (800.0, 600.0)];

/// The window at `size` on the repertoire fixture alone, its data folder `name` with a
/// review log: Again on 1.e4 c5 and Good on 1.e4 e5 2.Nf3 Nc6, a day ago.
fn window(name: &str, size: (f32, f32), reviews: bool) -> Harness<'static, TrainerApp> {
    let dir = common::temp_dir(name);
    if reviews {
        common::repertoire_window::reviews_a_day_ago(
            &dir,
            Color::White,
            &[("e4 c5", Rating::Again), ("e4 e5 Nf3 Nc6", Rating::Good)],
        );
    }
    let settings = Settings {
        learner: Side::White,
        seed: "5".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        ..common::settings()
    };
    let mut app =
        TrainerApp::with_progress_file(common::eco(), settings, Some(dir.join("progress.ron")));
    app.coach_mut().review_mut().set_fuzz(false);
    common::load_repertoire_alone(app.coach_mut(), &common::fixture("repertoire.pgn"));
    let h = common::repertoire_window::past_the_questions(app, size, "repertoire.pgn", "For White");
    assert!(h.state().coach().style().side_question().is_none());
    h
}

/// Opens the session menu and clicks the entry whose text starts with `text`.
fn choose(h: &mut Harness<'static, TrainerApp>, text: &str) {
    let matches = |h: &Harness<'static, TrainerApp>| -> Vec<egui::Rect> {
        h.query_all_by(|n| n.label().is_some_and(|l| l.starts_with(text)))
            .map(|n| n.rect())
            .collect()
    };
    let before = matches(h);
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Session")
        .click();
    h.run();
    // The menu's entry: the one the open menu added.
    let at = matches(h)
        .into_iter()
        .position(|r| !before.contains(&r))
        .unwrap_or_else(|| panic!("no entry {text}"));
    h.query_all_by(|n| n.label().is_some_and(|l| l.starts_with(text)))
        .nth(at)
        .unwrap()
        .click();
    h.run();
}

/// The cards queued now, as (moves there), first first.
fn queued(h: &Harness<'static, TrainerApp>) -> Vec<Vec<Move>> {
    let drill = h.state().coach().review().drill().unwrap();
    drill
        .queue()
        .map(|i| drill.deck().cards()[i].moves.clone())
        .collect()
}

fn key(pos: &Chess) -> String {
    CardKey::from_position(pos).to_string()
}

fn after(moves: &[Move]) -> Chess {
    moves.iter().fold(Chess::default(), |mut p, m| {
        p.play_unchecked(*m);
        p
    })
}

/// The positions before a White move in chapter `game`, walked from the fixture here.
fn chapter_keys(game: u32) -> BTreeSet<String> {
    let import = common::import_fixture("repertoire.pgn", hastings::book::ImportMode::Repertoire);
    let mut keys = BTreeSet::new();
    for line in &import.lines {
        if matches!(line.source, LineSource::Pgn { game: g, .. } if g == game) {
            let mut pos = Chess::default();
            for &mv in &line.moves {
                if pos.turn() == Color::White {
                    keys.insert(key(&pos));
                }
                pos.play_unchecked(mv);
            }
        }
    }
    keys
}

/// The session started at its first card: the board shows that card's position.
fn starts_at_first(h: &Harness<'static, TrainerApp>, what: &str) {
    let q = queued(h);
    assert!(!q.is_empty(), "{what}: nothing queued");
    assert_eq!(
        key(h.state().coach().session().position()),
        key(&after(&q[0])),
        "{what}: the board shows the first position"
    );
    assert!(matches!(
        h.state().coach().review().step(),
        Some(ReviewStep::Ask { .. } | ReviewStep::Learn(_))
    ));
}

/// `label`'s widget lies inside the window.
fn inside(h: &Harness<'static, TrainerApp>, label: &str, size: (f32, f32)) {
    let rect = h.get_by_label(label).rect();
    assert!(
        rect.min.x >= 0.0 && rect.max.x <= size.0 && rect.max.y <= size.1,
        "{label} at {rect:?} leaves the {size:?} window"
    );
}

#[test]
fn each_session_choice_starts_the_positions_it_promises() {
    for size in SIZES {
        let mut h = window(&format!("ui_review_session_menu_{}", size.0), size, true);
        h.get_by_label("Review").click();
        h.run();
        inside(&h, "Learn new lines", size);
        let cards = h.state().coach().review().drill().unwrap().deck().len();

        choose(&mut h, "Whole repertoire");
        assert_eq!(
            h.state().coach().review().choice(),
            Some(&SessionChoice::All)
        );
        let all = queued(&h);
        assert_eq!(all.len(), cards);
        assert!(
            all.windows(2).all(|w| w[0].len() <= w[1].len()),
            "nearest first"
        );
        starts_at_first(&h, "all");

        choose(&mut h, "Chapter 2");
        let keys: BTreeSet<String> = queued(&h).iter().map(|m| key(&after(m))).collect();
        assert_eq!(keys, chapter_keys(2));
        starts_at_first(&h, "chapter 2");

        // The branch of the position on the board: after 1.e4 c5.
        let c5 = common::san_moves("e4 c5");
        h.state_mut()
            .coach_mut()
            .apply(hastings::coach::Command::DrillFrom(c5.clone()));
        h.run();
        choose(&mut h, "This branch");
        let branch = queued(&h);
        assert!(branch.len() >= 3);
        assert!(branch.iter().all(|m| m.starts_with(&c5)), "{branch:?}");
        assert_eq!(
            branch.len(),
            chapter_keys(2).len() - 1,
            "chapter 2 but the start"
        );
        starts_at_first(&h, "branch");

        choose(&mut h, "The 20 hardest");
        assert_eq!(
            queued(&h),
            [
                common::san_moves("e4 c5"),
                common::san_moves("e4 e5 Nf3 Nc6")
            ],
            "the two reviewed cards, the one answered Again first"
        );
        starts_at_first(&h, "hardest");

        choose(&mut h, "Due this week");
        assert_eq!(
            queued(&h),
            [
                common::san_moves("e4 c5"),
                common::san_moves("e4 e5 Nf3 Nc6")
            ],
            "due now (Again), then in about two days (Good)"
        );
        starts_at_first(&h, "week");

        choose(&mut h, "The 20 most common");
        // The exact reach is found in the background (started with review mode).
        common::wait_until(&mut h, "the most common session", |app| {
            app.coach().review().choice() == Some(&SessionChoice::Common(20))
        });
        let common_ = queued(&h);
        assert_eq!(common_.len(), 20.min(cards));
        assert!(
            common_[0].is_empty(),
            "every drill starts at the first position"
        );
        starts_at_first(&h, "common");

        choose(&mut h, "Due now");
        assert_eq!(
            h.state().coach().review().choice(),
            Some(&SessionChoice::Due)
        );
        assert_eq!(
            queued(&h)[0],
            common::san_moves("e4 c5"),
            "the due card first"
        );
        assert_eq!(h.state().coach().review().drill_mode(), DrillMode::Review);
    }
}

#[test]
fn with_nothing_due_the_panel_offers_to_practise_the_most_common() {
    for size in SIZES {
        let mut h = window(&format!("ui_review_session_anyway_{}", size.0), size, true);
        h.get_by_label("Review").click();
        h.run();
        choose(&mut h, "The 20 hardest");
        // Answer both cards: then nothing is left.
        for _ in 0..40 {
            match h.state().coach().review().step().unwrap() {
                ReviewStep::Done => break,
                ReviewStep::Learn(_) => {
                    h.get_by_label("Got it").click();
                    h.run();
                }
                ReviewStep::Ask { .. } => {
                    let mv = h.state().coach().session().book_moves()[0].mv;
                    common::click_move(&mut h, mv);
                    h.run();
                }
                ReviewStep::Play => {
                    h.get_by_label("New line").click();
                    h.run();
                }
            }
        }
        h.get_by_label("Nothing left to review now.");
        inside(&h, "Practise anyway", size);
        h.get_by_label("Practise anyway").click();
        h.run();
        common::wait_until(&mut h, "the most common session", |app| {
            app.coach().review().choice() == Some(&SessionChoice::Common(20))
        });
        assert_eq!(
            h.state().coach().review().choice(),
            Some(&SessionChoice::Common(20))
        );
        starts_at_first(&h, "practise anyway");
    }
}

#[test]
fn learn_new_lines_shows_a_line_then_asks_it_and_logs_the_grades() {
    for size in SIZES {
        let name = format!("ui_review_session_learn_{}", size.0);
        let mut h = window(&name, size, false);
        h.get_by_label("Learn new lines").click();
        h.run();
        let lesson = h
            .state()
            .coach()
            .review()
            .drill()
            .unwrap()
            .lesson()
            .cloned()
            .expect("a lesson started");
        let graph = h.state().coach().graph().clone();
        let moves = graph.line_moves(lesson.line()).to_vec();
        let title = graph.line(lesson.line()).title();
        h.get_by_label(&format!("Learning line 1 of 3: {title}"));
        inside(&h, &format!("Learning line 1 of 3: {title}"), size);

        // Shown: the board waits for each White move of the line, Black's are played.
        let mut shown = 0;
        while let Some(ReviewStep::Learn(card)) = h.state().coach().review().step() {
            assert!(shown <= moves.len(), "the line is shown once");
            let ply = h.state().coach().session().moves().len();
            assert_eq!(card.mv, moves[ply]);
            h.get_by_label(&format!("Play the move shown: {}", card.san));
            common::click_move(&mut h, card.mv);
            h.run();
            shown += 1;
        }
        assert_eq!(shown, moves.len().div_ceil(2), "each White move shown once");

        // The line's last position is shown, then asked from the start, from memory.
        assert_eq!(
            h.state().coach().session().moves().len(),
            moves.len(),
            "the last position of the line is on the board"
        );
        h.get_by_label("That is the whole line: its last position");
        inside(&h, "Now play it from memory", size);
        h.get_by_label("Now play it from memory").click();
        h.run();
        h.get_by_label("Now from memory: play the line");
        assert!(h.state().coach().session().moves().is_empty());
        let mut asked = 0;
        while h
            .state()
            .coach()
            .review()
            .drill()
            .unwrap()
            .lesson()
            .is_some_and(|l| l.line() == lesson.line())
        {
            assert!(asked <= moves.len(), "the line is asked once");
            let ply = h.state().coach().session().moves().len();
            assert!(matches!(
                h.state().coach().review().step(),
                Some(ReviewStep::Ask { .. })
            ));
            common::click_move(&mut h, moves[ply]);
            h.run();
            asked += 1;
        }
        assert_eq!(asked, shown);
        let graded = h.state().coach().review().drill().unwrap().graded();
        assert_eq!(
            graded as usize, shown,
            "each new position of the line graded"
        );
        // The grades are in the log on disk (the last once the next move commits it).
        let log = h
            .state()
            .coach()
            .review()
            .store()
            .unwrap()
            .path()
            .to_owned();
        let on_disk = ReviewStore::open(&log).unwrap().records().len();
        assert!(
            on_disk + 1 >= shown && on_disk >= 1,
            "{on_disk} of {shown} on disk"
        );
    }
}

#[test]
fn train_branch_in_the_repertoire_tab_reviews_the_positions_after_the_move_shown() {
    for size in SIZES {
        let mut h = window(&format!("ui_review_session_branch_{}", size.0), size, false);
        h.get_by_label("Repertoire").click();
        h.run();
        let field = h.get_by_label("Or type its path");
        field.focus();
        field.type_text(&common::fixture("repertoire.pgn").display().to_string());
        common::settle(&mut h);
        h.get_by_label("Open").click();
        common::settle(&mut h);
        // Chapter 2, Against the Sicilian: to 1...c5 in its move tree.
        let chapter = h
            .query_all_by(|n| {
                n.label()
                    .is_some_and(|l| l.contains("Against the Sicilian"))
            })
            .next()
            .map(|n| n.click())
            .is_some();
        assert!(chapter, "the chapter is listed");
        common::settle(&mut h);
        h.get_by_label("1... c5").click();
        common::settle(&mut h);
        inside(&h, "Train branch", size);
        h.get_by_label("Train branch").click();
        common::settle(&mut h);
        let c5 = common::san_moves("e4 c5");
        assert_eq!(
            h.state().coach().review().choice(),
            Some(&SessionChoice::Branch(c5.clone()))
        );
        let branch = queued(&h);
        assert_eq!(
            branch.len(),
            chapter_keys(2).len() - 1,
            "chapter 2 but the start"
        );
        assert!(branch.iter().all(|m| m.starts_with(&c5)));
        starts_at_first(&h, "train branch");
        // The drill is shown: its session menu is there.
        h.get_by_label("Learn new lines");
    }
}

/// Opening the session menu in the free drill starts finding "the most common"'s exact
/// reach in the background, so that choosing it a moment later starts the session at
/// once (before, the reach was found only once review mode was on, and a choice from
/// the free drill waited for it: 0.17 s in release on 50,000 positions).
#[test]
fn opening_the_session_menu_prepares_the_most_common_session() {
    let mut h = window("session-prepare", SIZES[1], false);
    assert_eq!(h.state().coach().review().drill_mode(), DrillMode::Free);
    let reach = |h: &Harness<'static, TrainerApp>| {
        let r = h.state().coach().review().reach();
        (r.is_counting(), r.is_found())
    };
    assert_eq!(reach(&h), (false, false));
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Session")
        .click();
    h.run();
    assert_ne!(
        reach(&h),
        (false, false),
        "opening the menu starts the count"
    );
    common::wait_until(&mut h, "the exact reach", |app| {
        !app.coach().review().reach().is_counting()
    });
    // The menu is still open: its entry starts the session in the click's frame.
    h.query_all_by(|n| {
        n.label()
            .is_some_and(|l| l.starts_with("The 20 most common"))
    })
    .last()
    .unwrap()
    .click();
    h.run();
    assert_eq!(
        h.state().coach().review().choice(),
        Some(&SessionChoice::Common(20))
    );
    assert!(h.state().coach().review().reach().waiting().is_none());
}
