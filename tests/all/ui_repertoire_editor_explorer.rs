//! The Repertoire tab's "What is missing here" from the Explorer tab's games: ticked,
//! the replies the repertoire does not answer are the moves the index's games played,
//! most played first; unticked, the book's again.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use egui_kittest::kittest::Queryable as _;
use hastings::book::explorer::ExplorerFilter;
use hastings::coach::Command;
use hastings::coach::repertoire::RepertoireCommand;
use hastings::coach::repertoire::{MissingHere, MissingReply};
use hastings::coach::settings::{Settings, Side};
use shakmaty::Chess;

use crate::common;
use common::explorer::{make_index, open_index, window};
use common::{AppHarness, san_moves, square_label, temp_dir};

/// Clicks `label` and draws two frames (an edit or the tick starts the gaps on a
/// thread, whose spinner keeps the window repainting: `run` would not settle).
fn click(h: &mut AppHarness, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(2);
}

/// The replies missing at the cursor, the gaps computed for the document as it is.
fn missing(h: &mut AppHarness) -> Vec<MissingReply> {
    h.state_mut().coach_mut().finish_repertoire_gaps();
    h.run();
    match h.state().coach().repertoire_gaps().missing() {
        MissingHere::OpponentToMove(replies) => replies.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_missing_replies_come_from_the_explorer_games_when_ticked() {
    let (dir, index) = make_index(
        "repertoire-editor-explorer-index",
        "lichess_db_100k.pgn",
        &[],
    );
    let settings = Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        explorer_evals: false,
        ..crate::common::settings()
    };
    let mut h = window(settings, (1280.0, 800.0));
    open_index(&mut h, &dir);

    // A White repertoire with 1.e4 alone (made by the tab's commands: the tab's own
    // widgets are driven in tests/all/ui_repertoire_editor.rs).
    click(&mut h, "Repertoire");
    let path = temp_dir("repertoire-editor-explorer").join("mine.pgn");
    let repertoire =
        |h: &mut AppHarness, c| h.state_mut().coach_mut().apply(Command::Repertoire(c));
    repertoire(&mut h, RepertoireCommand::New(Side::White, path));
    h.run();
    click(&mut h, "Add moves");
    let e4 = san_moves("e4")[0];
    let start = Chess::default();
    click(&mut h, &square_label(&start, e4.from().unwrap()));
    click(&mut h, &square_label(&start, e4.to()));
    let book = missing(&mut h);

    // From the games: the moves they played after 1.e4, most played first.
    click(&mut h, "From the explorer's games");
    assert!(h.state().coach().settings().repertoire_explorer);
    let games = missing(&mut h);
    let mut after = start.clone();
    shakmaty::Position::play_unchecked(&mut after, e4);
    let stats = index
        .query_position(&after, &ExplorerFilter::default())
        .unwrap();
    let played: Vec<shakmaty::Move> = stats
        .moves
        .iter()
        .filter(|m| m.games() > 0)
        .map(|m| m.raw_move.to_move(&after).unwrap())
        .collect();
    assert!(played.len() >= 3, "{played:?}");
    assert!(
        games.iter().all(|r| played.contains(&r.mv)),
        "{games:?} against {played:?}"
    );
    assert_eq!(games.first().map(|r| r.mv), played.first().copied());
    assert_ne!(
        games.iter().map(|r| r.mv).collect::<Vec<_>>(),
        book.iter().map(|r| r.mv).collect::<Vec<_>>(),
        "the book's replies differ from the games'"
    );

    // Unticked: the book's replies again.
    click(&mut h, "From the explorer's games");
    assert_eq!(missing(&mut h), book);
}
