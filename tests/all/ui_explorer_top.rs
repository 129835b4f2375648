//! The Explorer tab's years fields and top games (egui_kittest, real widgets): typing
//! years "from" and "to" counts only those years' games (the counts equal a direct
//! query with that filter), a field that holds no year says so and changes nothing,
//! emptying the fields counts every game again; the position's top games are listed
//! with their players, result, year and rating, as the index's query gives them, and
//! follow the board; a click on one opens it in its window, stepped through by its
//! buttons, its moves and the arrows.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use egui_kittest::kittest::Queryable as _;
use hastings::book::explorer::ExplorerFilter;
use hastings::coach::Command;
use shakmaty::Chess;

use crate::common;
use common::explorer::{
    assert_shows, drill_settings, labels, make_index, open_index, top_labels, window,
};

/// Clicks the field `label` (it takes the focus, the cursor at the end) and types
/// `text`.
fn type_into(h: &mut common::AppHarness, label: &str, text: &str) {
    // The filters are under the moves and top games: scrolled into view as a user would.
    h.get_by_label(label).scroll_to_me();
    h.run();
    h.get_by_label(label).click();
    h.run();
    h.get_by_label(label).type_text(text);
    h.run();
}

/// Plays 1.e4 (the computer replies) and steps back to the position after it, which
/// it returns.
fn show_after_e4(h: &mut common::AppHarness) -> Chess {
    h.state_mut()
        .coach_mut()
        .apply(Command::Play(common::san_moves("e4")[0]));
    h.run();
    h.state_mut().coach_mut().apply(Command::ShowPly(1));
    h.run();
    common::position_after("e4")
}

/// Clicks the top game of `players` (below the moves: scrolled to first, as a user
/// would) and waits until its window shows it.
fn open_top_game(h: &mut common::AppHarness, players: &str) {
    h.get_by_label(players).scroll_to_me();
    h.run();
    h.get_by_label(players).click();
    h.run();
    h.state_mut().coach_mut().finish_explorer_game();
    h.run();
}

#[test]
fn years_from_and_to_count_only_those_games() {
    // The style-training games span 1970 to 1997.
    let (dir, index) = make_index("ui-explorer-years", "style_training.pgn", &[]);
    let mut h = window(drill_settings(false), (800.0, 600.0));
    open_index(&mut h, &dir);
    let start = Chess::default();
    let all = index
        .query_position(&start, &ExplorerFilter::default())
        .unwrap();
    h.get_by_label(&common::explorer::total_label(all.total().games()));

    type_into(&mut h, "from", "1985");
    type_into(&mut h, "to", "1990");
    h.run();
    assert_eq!(h.state().coach().explorer().years(), Some((1985, 1990)));
    let filter = ExplorerFilter::default().with_years("1985-1990").unwrap();
    let some = index.query_position(&start, &filter).unwrap();
    assert!(
        0 < some.total().games() && some.total().games() < all.total().games(),
        "the fixture has games of 1985-1990 and of other years"
    );
    assert_shows(&h, &labels(&some, &start));
    h.get_by_label(&common::explorer::total_label(some.total().games()));
    assert!(
        h.query_by_label(&common::explorer::total_label(all.total().games()))
            .is_none()
    );

    // A field that holds no year says so and keeps the years.
    // (the field keeps the focus, the cursor after "1990")
    h.get_by_label("to").type_text("x");
    h.run();
    h.get_by_label("`1990x` is not a year.");
    assert_eq!(h.state().coach().explorer().years(), Some((1985, 1990)));

    // Only "from": every year since.
    for _ in 0.."1990x".len() {
        h.key_press(eframe::egui::Key::Backspace);
        h.run();
    }
    assert_eq!(h.state().coach().explorer().years(), Some((1985, u16::MAX)));
    let since = index
        .query_position(
            &start,
            &ExplorerFilter::default().with_years("1985-65535").unwrap(),
        )
        .unwrap();
    assert_shows(&h, &labels(&since, &start));
    h.get_by_label(&common::explorer::total_label(since.total().games()));
    assert!(h.query_by_label("`1990x` is not a year.").is_none());
}

#[test]
fn the_top_games_are_listed_with_their_players_and_follow_the_board() {
    let (dir, index) = make_index("ui-explorer-top", "lichess_db_100k.pgn", &[]);
    let mut h = window(drill_settings(false), (800.0, 600.0));
    open_index(&mut h, &dir);
    let start = Chess::default();
    let stats = index
        .query_position(&start, &ExplorerFilter::default())
        .unwrap();
    let tops = top_labels(&index, &stats, &start);
    assert!(
        !tops.is_empty(),
        "the fixture's games have ratings and players"
    );
    h.get_by_label("Top games");
    for (players, details) in &tops {
        h.get_by_label(players);
        h.get_by_label(details);
    }

    let after_e4 = show_after_e4(&mut h);
    let stats = index
        .query_position(&after_e4, &ExplorerFilter::default())
        .unwrap();
    let after = top_labels(&index, &stats, &after_e4);
    assert!(!after.is_empty());
    assert_ne!(after, tops, "the top games follow the position");
    for (players, details) in &after {
        h.get_by_label(players);
        h.get_by_label(details);
    }
}

#[test]
fn a_click_on_a_top_game_opens_it_at_the_position_and_steps_through_it() {
    let (dir, index) = make_index("ui-explorer-open-game", "lichess_db_100k.pgn", &[]);
    let mut h = window(drill_settings(false), (1280.0, 800.0));
    open_index(&mut h, &dir);
    let after_e4 = show_after_e4(&mut h);
    let stats = index
        .query_position(&after_e4, &ExplorerFilter::default())
        .unwrap();
    let tops = top_labels(&index, &stats, &after_e4);
    let (players, _) = &tops[1];
    let top = index.top_game(&stats.top[1]).unwrap();
    let game = top.read().unwrap();

    open_top_game(&mut h, players);
    let g = h.state().coach().explorer().game();
    let shown = g
        .shown()
        .unwrap_or_else(|| panic!("not shown: {:?} {:?}", g.message(), g.loading()))
        .clone();
    // The window: the game's players and where it is, and its moves.
    h.get_by_label(&shown.title);
    assert!(shown.title.contains(&top.game.white), "{}", shown.title);
    assert!(
        shown
            .details
            .ends_with(&format!("lichess_db_100k.pgn, game {}", top.game.number)),
        "{}",
        shown.details
    );
    h.get_by_label(&shown.details);
    assert_eq!(shown.sans, game.sans());
    // It opens just after its move at the tab's position (1.e4 and Black's reply).
    assert_eq!(shown.ply(), 2);
    assert_eq!(shown.position(), &game.position(2));
    assert_eq!(
        shown.last_move(),
        Some(&top.raw_move.to_move(&after_e4).unwrap())
    );

    // The buttons and the moves step through it.
    h.get_by_label("Forward").click();
    h.run();
    assert_eq!(
        h.state().coach().explorer().game().shown().unwrap().ply(),
        3
    );
    h.get_by_label("Game start").click();
    h.run();
    assert_eq!(
        h.state().coach().explorer().game().shown().unwrap().ply(),
        0
    );
    // Each White move with its number, in one widget (issue 41, item 12).
    h.get_by_label(&format!("3. {}", shown.sans[4])).click();
    h.run();
    let now = h.state().coach().explorer().game().shown().unwrap();
    assert_eq!((now.ply(), now.position()), (5, &game.position(5)));
    h.get_by_label("Game end").click();
    h.run();
    assert_eq!(
        h.state().coach().explorer().game().shown().unwrap().ply(),
        game.moves.len()
    );
    // At both sizes, no number dangles at a line's end without its move.
    for size in [(1280.0, 800.0), (800.0, 600.0)] {
        h.set_size(eframe::egui::vec2(size.0, size.1));
        h.run();
        moves_keep_their_numbers(&h, &shown.sans, size);
    }
    h.set_size(eframe::egui::vec2(1280.0, 800.0));
    h.run();
    // The arrows and Home step through the game, not the drill.
    h.key_press(eframe::egui::Key::ArrowLeft);
    h.run();
    assert_eq!(
        h.state().coach().explorer().game().shown().unwrap().ply(),
        game.moves.len() - 1
    );
    h.key_press(eframe::egui::Key::Home);
    h.run();
    h.key_press(eframe::egui::Key::ArrowRight);
    h.run();
    assert_eq!(
        h.state().coach().explorer().game().shown().unwrap().ply(),
        1
    );
    // The drill's board did not move.
    assert_eq!(h.state().coach().session().viewing(), Some(1));

    // Closed with the window's cross.
    h.get_by_label("Close window").click();
    h.run();
    assert!(!h.state().coach().explorer().game().is_open());
    assert!(h.query_by_label(&shown.title).is_none());
    // The arrows are the drill's again.
    h.key_press(eframe::egui::Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().coach().session().viewing(), Some(0));
}

/// The game window's moves (`sans`, from the start) wrap over several lines, each White
/// move in one widget with its number ("4. Nxd4", never "4." at a line's end and
/// "Nxd4" on the next), on one line, inside the window of `size`.
fn moves_keep_their_numbers(h: &common::AppHarness, sans: &[String], size: (f32, f32)) {
    let line = h.get_by_label("Forward").rect().height();
    let mut rows = std::collections::BTreeSet::new();
    for (i, san) in sans.iter().enumerate().step_by(2) {
        let text = format!("{}. {san}", i / 2 + 1);
        let r = h.get_by_label(&text).rect();
        rows.insert(r.min.y.round() as i32);
        assert!(
            r.height() <= line + 0.5,
            "{text:?} at {r:?} over two lines at {size:?}"
        );
        assert!(r.max.x <= size.0, "{text:?} at {r:?} cut at {size:?}");
    }
    assert!(rows.len() >= 2, "the moves wrap at {size:?}: {rows:?}");
}

#[test]
fn a_game_is_shown_in_the_repertoire_where_it_leaves_it() {
    let (dir, index) = make_index("ui-explorer-game-rep", "lichess_db_100k.pgn", &[]);
    let mut h = window(drill_settings(false), (1280.0, 800.0));
    open_index(&mut h, &dir);
    let after_e4 = show_after_e4(&mut h);
    let stats = index
        .query_position(&after_e4, &ExplorerFilter::default())
        .unwrap();
    let (players, _) = &top_labels(&index, &stats, &after_e4)[0];
    open_top_game(&mut h, players);
    for _ in 0..5 {
        h.get_by_label("Forward").click();
        h.run();
    }
    let shown = h.state().coach().explorer().game().shown().unwrap().clone();
    assert!(shown.ply() >= 5, "{}", shown.ply());

    // No repertoire open: the button does nothing.
    h.get_by_label("Show in my repertoire").click();
    h.run();
    assert!(h.state().coach().repertoire().file().is_none());
    assert!(
        h.query_by_label("Add moves").is_none(),
        "the Repertoire tab is not shown"
    );

    // With a repertoire open: its file at the game's position, the Repertoire tab shown.
    let rep = dir.with_extension("pgn");
    std::fs::copy(common::fixture("repertoire.pgn"), &rep).unwrap();
    h.state_mut().coach_mut().apply(Command::Repertoire(
        hastings::coach::repertoire::RepertoireCommand::Open(rep.clone()),
    ));
    h.run();
    h.get_by_label("Show in my repertoire").click();
    h.run();
    h.get_by_label("Add moves");
    let w = h.state().coach().repertoire();
    assert_eq!(w.moves(), shown.moves_played());
    // The moves the chapter does not have are past its cursor.
    let in_tree = shown.moves_played().len() - w.beyond().len();
    assert!(in_tree >= 1, "1. e4 is in the chapters");
    assert_eq!(
        std::fs::read(&rep).unwrap(),
        std::fs::read(common::fixture("repertoire.pgn")).unwrap(),
        "nothing was written"
    );
}
