//! The Explorer tab's source chooser and "Prepare against" (egui_kittest, real widgets),
//! on an index of the style-training games made with `--player Kasparov`: choosing
//! "Kasparov as White" (marked "my games" for a learner of that name) shows his moves
//! with their white/draw/black shares and the position's results; "Prepare against
//! Kasparov" makes the learner Black and the computer open with one of Kasparov's first
//! moves.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::accesskit::Role;
use egui_kittest::kittest::Queryable as _;
use hastings::book::explorer::ExplorerFilter;
use hastings::coach::explorer::ExplorerSource;
use hastings::coach::settings::{Settings, Side};
use shakmaty::{Chess, Color};

use crate::common;
use common::explorer::{assert_shows, labels, make_index, open_index, window};

#[test]
fn choosing_a_player_shows_his_moves_and_prepare_starts_a_drill_against_them() {
    let (dir, index) = make_index("ui-explorer-players", "style_training.pgn", &["Kasparov"]);
    let settings = Settings {
        learner: Side::White,
        seed: "4".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        hide_answer: false,
        // The learner's own games are marked as such in the chooser.
        learner_name: "kasparov".to_owned(),
        explorer_evals: false,
        ..crate::common::settings()
    };
    let mut h = window(settings, (1280.0, 800.0));
    open_index(&mut h, &dir);
    let start = Chess::default();
    let all = index
        .query_position(&start, &ExplorerFilter::default())
        .unwrap();
    assert_shows(&h, &labels(&all, &start));

    let name = index.players()[0].clone();
    h.get_by_role_and_label(Role::ComboBox, "Games").click();
    h.run();
    h.get_by_label(&format!("{name} as White (my games)"))
        .click();
    h.run();
    let source = ExplorerSource::Player {
        name: name.clone(),
        color: Color::White,
    };
    assert_eq!(h.state().coach().explorer().source(), &source);
    let filter = index
        .player_filter(ExplorerFilter::default(), &name, Color::White)
        .unwrap();
    let his = index.query_position(&start, &filter).unwrap();
    assert!(his.total().games() < all.total().games());
    assert_shows(&h, &labels(&his, &start));
    let total = his.total();
    let games = total.games() as f64;
    h.get_by_label(&common::explorer::total_label(total.games()));
    h.get_by_label(&format!(
        "All moves: White {:.0}% Draws {:.0}% Black {:.0}%",
        100.0 * total.white as f64 / games,
        100.0 * total.draws as f64 / games,
        100.0 * total.black as f64 / games
    ));

    h.get_by_label(&format!("Prepare against {name}")).click();
    h.run();
    assert_eq!(h.state().coach().explorer().preparing(), Some(&source));
    assert_eq!(h.state().coach().session().learner(), Color::Black);
    h.get_by_label(&format!("Preparing against {name} as White"));
    // The computer (White) opened with one of his moves.
    let first = h.state().coach().session().moves()[0].mv;
    let his_first: Vec<_> = his
        .moves
        .iter()
        .map(|m| m.raw_move.to_move(&start).unwrap())
        .collect();
    assert!(his_first.contains(&first), "{first}");

    h.get_by_label("Stop preparing").click();
    h.run();
    assert!(h.state().coach().explorer().preparing().is_none());
    assert!(!h.state().coach().session().has_explorer());
}
