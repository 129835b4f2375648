//! "Prepare against" any regular player (egui_kittest, real widgets): an index of the
//! style-training games made with `players_min` keeps a tree for every player with 20
//! games or more; typing part of a name in "Find a player" lists that player as White
//! and as Black, a click shows his games, and "Prepare against" makes the computer play
//! his moves, the learner the other colour. A name the index does not know says so.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use egui_kittest::kittest::Queryable as _;
use hastings::coach::explorer::ExplorerSource;
use hastings::job::JobProgress;
use hastings::workspace::explorer::{ExplorerIndex, MakeOptions, make_explorer};
use shakmaty::Color;

use crate::common;
use common::explorer::{drill_settings, open_index, window};

#[test]
fn a_player_found_by_name_is_prepared_against() {
    let dir = common::temp_dir("ui-explorer-find-player");
    let options = MakeOptions {
        max_plies: 10,
        players_min: Some(20),
        ..MakeOptions::default()
    };
    make_explorer(
        &[common::fixture("style_training.pgn")],
        &dir,
        &options,
        &JobProgress::new(),
    )
    .unwrap();
    let index = ExplorerIndex::open(&dir).unwrap();
    // A regular player, not one of the few most frequent.
    let name = index
        .players()
        .iter()
        .find(|p| p.to_lowercase().contains("timman"))
        .unwrap()
        .clone();
    let mut h = window(drill_settings(false), (800.0, 600.0));
    open_index(&mut h, &dir);
    h.get_by_label("Find a player").click();
    h.run();
    h.get_by_label("Find a player").type_text("TIMM");
    h.run();
    h.get_by_label(&format!("{name} as Black"));
    h.get_by_label(&format!("{name} as White")).click();
    h.run();
    let source = ExplorerSource::Player {
        name: name.clone(),
        color: Color::White,
    };
    assert_eq!(h.state().coach().explorer().source(), &source);
    h.get_by_label(&format!("Prepare against {name}")).click();
    h.run();
    assert_eq!(h.state().coach().explorer().preparing(), Some(&source));
    // The learner (White until now) takes Black against his White.
    assert_eq!(h.state().coach().session().learner(), Color::Black);

    // A name the index does not know.
    h.get_by_label("Find a player").click();
    h.run();
    h.get_by_label("Find a player").type_text("zzqx");
    h.run();
    h.get_by_label("No player of that name in this index");
}
