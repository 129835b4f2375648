//! Fitting with an opening explorer's games as the popularity: the tables' `P` is the
//! sampler's exact `P` with the ECO graph and an explorer index (its games where some
//! game reached the position, the lines where none did), and the fit reports the
//! explorer's popularity.

#![allow(clippy::unwrap_used)]

mod common;

use std::sync::Arc;

use hastings::book::explorer::{ExplorerCounts, ExplorerFilter};
use hastings::book::pgn::read_pgn;
use hastings::book::{ImportMode, ImportOptions, OpeningLine, SourceId};
use hastings::sampler::fit::{FitData, GaConfig, fit};
use hastings::sampler::{MoveSource, Popularity, Style};
use hastings::workspace::explorer::{ExplorerIndex, FilteredExplorer};
use shakmaty::{Chess, Move, Position};

/// Karpov's first 40 games of the style-training fixture (16 plies each).
fn karpov() -> Vec<OpeningLine> {
    let options = ImportOptions {
        mode: ImportMode::Games,
        max_plies: Some(16),
    };
    let text = common::fixture_bytes("style_training.pgn");
    read_pgn(&text[..], SourceId(1), &options, None)
        .unwrap()
        .lines
        .into_iter()
        .filter(|l| {
            let t = l.tags.as_ref().unwrap();
            [t.get("White"), t.get("Black")]
                .into_iter()
                .flatten()
                .any(|n| n.contains("Karpov"))
        })
        .take(40)
        .collect()
}

fn moves_of(line: &OpeningLine, plies: usize) -> Vec<Move> {
    let mut pos = Chess::default();
    line.moves
        .iter()
        .take(plies)
        .map(|san| {
            let mv = san.to_move(&pos).unwrap();
            pos.play_unchecked(mv);
            mv
        })
        .collect()
}

#[test]
fn the_tables_give_the_samplers_exact_p_with_an_explorer_and_its_fallback() {
    let graph = common::eco_graph();
    let (dir, _) = common::explorer::make_index("fit-explorer", "twic1599_100k.pgn", &[]);
    let index = Arc::new(ExplorerIndex::open(&dir).unwrap());
    let explorer = FilteredExplorer::new(index, ExplorerFilter::default());
    let lines = karpov();
    let data = FitData::from_games_with_explorer(graph, &explorer, &lines, "karpov", 16);
    assert!(data.has_explorer() && !data.has_books());
    let c = *data.counts();
    assert!(c.distinct_terms >= 100, "{c:?}");
    let styles = [
        Style::neutral(),
        Style::from_vectors([1, 0, 1, 0, 1], [0.3, 0.0, 0.6, 0.0, 0.2], 0.5).unwrap(),
        Style::from_vectors([0, 1, 0, 1, 0], [0.0, 0.8, 0.0, 0.1, 0.0], 0.0).unwrap(),
    ];
    let source = MoveSource::graph(graph).with_explorer(&explorer);
    let (mut with_games, mut fallback) = (0, 0);
    for style in &styles {
        // The popularity asked is the explorer's whatever it is.
        for term in data.terms(style, Popularity::Lines) {
            let moves = moves_of(&lines[term.game], term.ply + 1);
            let (before, played) = moves.split_at(term.ply);
            let (pos, s_prev) = source.replay(before, style);
            let named = source.name_of(before);
            let d = source.distribution(&pos, style, s_prev, named);
            let expected = d.candidate_for(played[0]).map_or(0.0, |c| c.p);
            assert!(
                (term.p - expected).abs() < 1e-12,
                "{style:?}: game {} ply {}: tables {} vs sampler {expected}",
                term.game,
                term.ply,
                term.p
            );
            if explorer.games_at(&pos) > 0 {
                with_games += 1;
            } else {
                fallback += 1;
            }
        }
    }
    assert!(with_games > 0 && fallback > 0, "{with_games} {fallback}");

    let config = GaConfig {
        population: 10,
        generations: 3,
        ..GaConfig::default()
    };
    let report = fit(&data, &config, 1);
    assert_eq!(report.popularity, Popularity::Explorer);
    assert!(report.fitted.log_likelihood.is_finite());
}
