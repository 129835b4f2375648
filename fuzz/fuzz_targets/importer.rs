//! Fuzzes the PGN importer: any bytes, in every mode, must import without a panic
//! into lines that replay, and the graph of those lines must survive export → import.

#![no_main]

use std::sync::OnceLock;

use hastings::book::export::write_graph;
use hastings::book::pgn::{ImportMode, ImportOptions, read_pgn};
use hastings::book::{PositionGraph, SourceId};
use libfuzzer_sys::fuzz_target;

fn eco() -> Option<&'static PositionGraph> {
    static ECO: OnceLock<Option<PositionGraph>> = OnceLock::new();
    ECO.get_or_init(|| PositionGraph::eco().ok()).as_ref()
}

fuzz_target!(|data: &[u8]| {
    for (mode, max_plies) in [
        (ImportMode::Auto, None),
        (ImportMode::Games, None),
        (ImportMode::Repertoire, Some(12)),
    ] {
        let options = ImportOptions { mode, max_plies };
        let names = if mode == ImportMode::Auto { eco() } else { None };
        let Ok(import) = read_pgn(data, SourceId(1), &options, names) else {
            continue;
        };
        let report = &import.report;
        assert_eq!(report.lines, import.lines.len());
        assert!(report.imported <= report.games);
        assert!(report.issues.len() <= report.issue_count);
        let build = PositionGraph::build(import.lines);
        assert!(build.issues.is_empty(), "imported lines replay: {:?}", build.issues);
        let graph = build.graph;
        // The round trip once per input (it costs more than the import).
        if graph.stats().lines == 0 || mode != ImportMode::Repertoire {
            continue;
        }
        let mut text = Vec::new();
        assert!(write_graph(&graph, None, &mut text).is_ok());
        let back = read_pgn(&text[..], SourceId(2), &ImportOptions::default(), names);
        let Ok(back) = back else {
            panic!("the export reads back");
        };
        assert!(back.report.issues.is_empty(), "{:?}", back.report.issues);
        let again = PositionGraph::build(back.lines).graph;
        assert_eq!(again.stats(), graph.stats());
    }
});
