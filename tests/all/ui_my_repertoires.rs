//! My repertoires and a side per chapter in the window (issue 40, items 1 and 2), through
//! the real widgets with egui_kittest at 1280×800 and 800×600: the tab first in the
//! left panel with each file's numbers, Train from a row drilling that repertoire alone,
//! a side set per chapter (in My repertoires, in the Book tab's chapter picker) and
//! drilled from it, and the Repertoire tab's "What is missing here" once the chapter's
//! side is set there.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::book::{LineSource, PositionGraph, Side};
use hastings::coach::Command;
use hastings::coach::repertoire::RepertoireCommand;
use hastings::coach::settings::Settings;
use hastings::ui::TrainerApp;
use shakmaty::Color;

use crate::common;
use common::{eco, fixture};

const SIZES: [(f32, f32); 2] = [(1280.0, 800.0), (800.0, 600.0)];

fn harness(size: (f32, f32)) -> Harness<'static, TrainerApp> {
    let settings = Settings {
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..common::settings()
    };
    Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut TrainerApp| app.frame_ui(ui),
            TrainerApp::new(eco(), settings),
        )
}

/// Opens `paths` as "My repertoire", answers a side question with "Both / don't
/// know", closes the report, waits for the book, shows My repertoires.
fn load(h: &mut Harness<'static, TrainerApp>, paths: Vec<PathBuf>) {
    common::open_in_window(h, paths, "My repertoire");
    h.state_mut().coach_mut().finish_loading();
    common::settle(h);
    while let Some(both) = h.query_by_label("Both / don't know") {
        both.click();
        h.step();
        h.state_mut().coach_mut().finish_loading();
        common::settle(h);
    }
    if let Some(close) = h.query_by_label("Close") {
        close.click();
        common::settle(h);
    }
    h.get_by_label("My repertoires").click();
    common::settle(h);
    common::settle(h);
}

/// The games (chapters) of the lines in the drill's book.
fn games_in_book(h: &Harness<'static, TrainerApp>) -> HashSet<u32> {
    h.state()
        .coach()
        .graph()
        .lines()
        .iter()
        .filter_map(|l| match l.source {
            LineSource::Pgn { game, .. } => Some(game),
            LineSource::Eco { .. } => None,
        })
        .collect()
}

#[test]
fn my_repertoires_is_the_first_tab_and_shows_each_files_numbers() {
    let path = fixture("mixed_sides.pgn");
    let ws = &common::import_fixture("mixed_sides.pgn", hastings::book::ImportMode::Repertoire);
    let positions = PositionGraph::build(ws.lines.iter().cloned())
        .graph
        .stats()
        .nodes;
    for size in SIZES {
        let mut h = harness(size);
        load(&mut h, vec![path.clone()]);
        let tab = h.get_by_label("My repertoires").rect();
        let style = h.get_by_label("Style").rect();
        assert!(
            tab.min.y < style.max.y && tab.max.x <= style.min.x,
            "{size:?}: the first tab"
        );
        h.get_by_label("for White and Black");
        // The side panel's right edge, as the window sizes it (8 points in, its width
        // a fifth of the window within 180 to 300 points).
        let right = 8.0 + ((size.0 - 16.0) * 0.2).clamp(180.0, 300.0) + 0.5;
        let numbers = format!("3 chapters · 12 lines · {positions} positions");
        // No review yet: every card (each chapter's deck) is new.
        let cards = crate::my_repertoires::cards_by_deck(h.state().coach().workspace()).len();
        let due = format!("Due today 0 · this week 0 · new {cards}");
        for label in [
            "mixed_sides.pgn",
            numbers.as_str(),
            due.as_str(),
            "Last trained: never",
            "Train",
            "Learn new lines",
            "Review",
            "Edit",
            "Check with an engine",
            "Gaps and coverage",
            "train together",
        ] {
            // "Review" is also the drill panel's: the side panel's is the leftmost.
            let leftmost = |h: &Harness<'static, TrainerApp>| {
                h.get_all_by_label(label)
                    .map(|n| n.rect())
                    .min_by(|a, b| a.min.x.total_cmp(&b.min.x))
                    .unwrap()
            };
            let before = leftmost(&h);
            if let Some(node) = h.get_all_by_label(label).find(|n| n.rect() == before) {
                node.scroll_to_me();
            }
            common::settle(&mut h);
            let r = leftmost(&h);
            assert!(
                r.min.x >= 0.0 && r.max.x <= right && r.min.y >= 0.0 && r.max.y <= size.1,
                "{size:?}: {label:?} at {r:?} is not inside the side panel"
            );
        }
    }
}

#[test]
fn train_from_a_row_drills_only_that_repertoire() {
    let (first, second) = (fixture("mixed_sides.pgn"), fixture("coverage_e4.pgn"));
    for size in SIZES {
        let mut h = harness(size);
        load(&mut h, vec![first.clone(), second.clone()]);
        // Both files are in the book: Train on the second row drills it alone.
        let trains: Vec<_> = h.get_all_by_label("Train").collect();
        assert_eq!(trains.len(), 2, "{size:?}: a Train button per repertoire");
        trains[1].scroll_to_me();
        common::settle(&mut h);
        let trains: Vec<_> = h.get_all_by_label("Train").collect();
        trains[1].click();
        h.step();
        h.state_mut().coach_mut().finish_loading();
        h.step();
        h.state_mut().coach_mut().finish_loading();
        common::settle(&mut h);
        let coach = h.state().coach();
        let choice = coach.workspace().choice();
        assert!(!choice.eco, "{size:?}: ECO is the theory, not drilled");
        let ticked: Vec<_> = choice.files.iter().filter(|f| f.enabled).collect();
        assert_eq!(ticked.len(), 1, "{size:?}");
        assert_eq!(ticked[0].path, second, "{size:?}");
        let id = coach.workspace().file(&second).unwrap().id;
        let lines = coach.graph().lines();
        assert!(!lines.is_empty());
        assert!(
            lines
                .iter()
                .all(|l| matches!(l.source, LineSource::Pgn { source, .. } if source == id)),
            "{size:?}: every line of the book is the second file's"
        );
        assert_eq!(coach.session().learner(), Color::White, "{size:?}");
        h.get_by_label("drilled now");
    }
}

#[test]
fn a_side_set_per_chapter_in_my_repertoires_is_drilled_from_that_side() {
    let path = fixture("study_chapters.pgn");
    let wanted = [
        (1, Side::White),
        (2, Side::Black),
        (3, Side::White),
        (4, Side::Black),
    ];
    for size in SIZES {
        let mut h = harness(size);
        load(&mut h, vec![path.clone()]);
        let header = h.get_by_label("Sides of its 4 chapters");
        assert!(
            header.rect().max.y <= size.1,
            "{size:?}: the chapters' header is shown"
        );
        header.click();
        common::settle(&mut h);
        for (game, side) in wanted {
            let label = format!("Side of chapter {game}");
            h.get_by_label(&label).scroll_to_me();
            common::settle(&mut h);
            h.get_by_label(&label).click();
            common::settle(&mut h);
            let option = format!("as {}", side.name());
            let item = h
                .get_all_by_label_contains(&option)
                .last()
                .expect("the popup's item");
            item.click();
            h.step();
            h.state_mut().coach_mut().finish_loading();
            common::settle(&mut h);
        }
        let coach = h.state().coach();
        let file = coach.workspace().choice().file(&path).unwrap();
        assert_eq!(
            file.chapter_sides,
            wanted.into_iter().collect::<BTreeMap<_, _>>(),
            "{size:?}: kept with the file's settings"
        );
        // Each side drills its own chapters: White chapters 1 and 3, Black 2 and 4
        // (the top bar's "You play" switches).
        let mut seen = HashSet::new();
        for side in [Side::White, Side::Black, Side::White] {
            if h.state().coach().session().learner() != Color::from(side) {
                h.get_by_label(side.name()).click();
                h.step();
                h.state_mut().coach_mut().finish_loading();
                common::settle(&mut h);
            }
            let learner = h.state().coach().session().learner();
            assert_eq!(learner, Color::from(side), "{size:?}");
            let expected: HashSet<u32> = wanted
                .iter()
                .filter(|(_, s)| *s == side)
                .map(|(g, _)| *g)
                .collect();
            assert_eq!(
                games_in_book(&h),
                expected,
                "{size:?}: {side:?} drills its chapters"
            );
            seen.insert(learner);
        }
        assert_eq!(seen.len(), 2, "{size:?}: both sides drilled");
    }
}

#[test]
fn the_repertoire_tab_sets_the_chapters_side_then_says_what_is_missing() {
    let path = fixture("study_chapters.pgn");
    for size in SIZES {
        let mut h = harness(size);
        h.state_mut()
            .coach_mut()
            .apply(Command::Repertoire(RepertoireCommand::Open(path.clone())));
        h.get_by_label("Repertoire").click();
        common::settle(&mut h);
        h.state_mut().coach_mut().finish_repertoire_gaps();
        common::settle(&mut h);
        let ask = h.get_by_label("Which side do you play in this chapter? Set it here:");
        assert!(ask.rect().max.y <= size.1, "{size:?}");
        // The chapter list and the missing panel both offer it: the first is clicked.
        h.get_all_by_label("Side of chapter 1")
            .next()
            .unwrap()
            .click();
        common::settle(&mut h);
        h.get_all_by_label_contains("as Black")
            .last()
            .expect("the popup's item")
            .click();
        common::settle(&mut h);
        h.state_mut().coach_mut().finish_repertoire_gaps();
        common::settle(&mut h);
        h.state_mut().coach_mut().finish_repertoire_gaps();
        common::settle(&mut h);
        assert!(
            h.query_by_label("Which side do you play in this chapter? Set it here:")
                .is_none(),
            "{size:?}: the side is set"
        );
        let coach = h.state().coach();
        assert_eq!(coach.repertoire().side(), Some(Side::Black), "{size:?}");
        let file = coach.workspace().choice().file(&path).unwrap();
        assert_eq!(file.chapter_sides.get(&1), Some(&Side::Black), "{size:?}");
        // At the start White is to move: the missing panel lists the replies the
        // chapter (1.e4 e6) does not answer.
        h.get_by_label("Book replies without your answer (click one to go there):");
    }
}

#[test]
fn the_book_tabs_chapter_picker_sets_an_untagged_chapters_side() {
    let path = fixture("study_chapters.pgn");
    for size in SIZES {
        let mut h = harness(size);
        load(&mut h, vec![path.clone()]);
        h.get_by_label("Book").click();
        common::settle(&mut h);
        // The French study's chapters say no side: each has its picker.
        let label = "Side of chapter 2";
        h.get_by_label(label).scroll_to_me();
        common::settle(&mut h);
        let r = h.get_by_label(label).rect();
        let right = 8.0 + ((size.0 - 16.0) * 0.2).clamp(180.0, 300.0) + 0.5;
        assert!(r.max.x <= right && r.max.y <= size.1, "{size:?}: {r:?}");
        h.get_by_label(label).click();
        common::settle(&mut h);
        h.get_all_by_label_contains("as Black")
            .last()
            .expect("the popup's item")
            .click();
        h.step();
        h.state_mut().coach_mut().finish_loading();
        common::settle(&mut h);
        let coach = h.state().coach();
        let file = coach.workspace().choice().file(&path).unwrap();
        assert_eq!(
            file.chapter_sides,
            [(2, Side::Black)].into_iter().collect::<BTreeMap<_, _>>(),
            "{size:?}"
        );
        let loaded = coach.workspace().file(&path).unwrap();
        let chapter = loaded.chapters.iter().find(|c| c.game == 2).unwrap();
        assert_eq!(
            coach.workspace().chapter_side(&path, chapter),
            Some(Side::Black),
            "{size:?}"
        );
    }
}

#[test]
fn learn_new_lines_on_a_row_teaches_that_repertoires_first_new_line() {
    let (first, second) = (fixture("mixed_sides.pgn"), fixture("coverage_e4.pgn"));
    for size in SIZES {
        // Review mode keeps its log in the data folder: a window with one.
        let dir = common::temp_dir(&format!("ui-my-repertoires-learn-{}", size.0));
        let settings = Settings {
            seed: "7".to_owned(),
            reply_delay_ms: 0,
            ..common::settings()
        };
        let app = TrainerApp::with_progress_file(eco(), settings, Some(dir.join("progress.ron")));
        let mut h = Harness::builder()
            .with_size(vec2(size.0, size.1))
            .with_max_steps(64)
            .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
        common::settle(&mut h);
        load(&mut h, vec![first.clone(), second.clone()]);
        // The second row's "Learn new lines": the book becomes that file alone, then
        // the lesson starts on it (not on the book the click was made in).
        // (the drill panel, on the right, has one too)
        let in_rows = |h: &Harness<'static, TrainerApp>| {
            h.get_all_by_label("Learn new lines")
                .filter(|n| n.rect().min.x < size.0 / 2.0)
                .count()
        };
        assert_eq!(in_rows(&h), 2, "{size:?}: one per repertoire");
        h.get_all_by_label("Learn new lines")
            .filter(|n| n.rect().min.x < size.0 / 2.0)
            .nth(1)
            .unwrap()
            .scroll_to_me();
        common::settle(&mut h);
        h.get_all_by_label("Learn new lines")
            .filter(|n| n.rect().min.x < size.0 / 2.0)
            .nth(1)
            .unwrap()
            .click();
        h.step();
        h.state_mut().coach_mut().finish_loading();
        h.step();
        h.state_mut().coach_mut().finish_loading();
        common::settle(&mut h);
        let coach = h.state().coach();
        let ticked: Vec<_> = coach
            .workspace()
            .choice()
            .files
            .iter()
            .filter(|f| f.enabled)
            .collect();
        assert_eq!(ticked.len(), 1, "{size:?}");
        assert_eq!(ticked[0].path, second, "{size:?}");
        let lesson = coach
            .review()
            .drill()
            .and_then(|d| d.lesson())
            .cloned()
            .unwrap_or_else(|| {
                panic!(
                    "{size:?}: no lesson started: {:?} {:?} building {}",
                    coach.message(),
                    coach.review().drill().is_some(),
                    coach.workspace().is_building()
                )
            });
        let id = coach.workspace().file(&second).unwrap().id;
        let line = coach.graph().line(lesson.line());
        assert!(
            matches!(line.source, LineSource::Pgn { source, .. } if source == id),
            "{size:?}: the lesson's line is the second file's"
        );
        let title = line.title();
        h.get_by_label_contains("Learning line 1 of ");
        h.get_by_label_contains(&title);
    }
}
