//! The workspace the command line and the window share: sources, imports and builds
//! as jobs, warnings about remembered files, repertoire mode.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::sync::Arc;

use hastings::book::{ImportError, ImportMode};
use hastings::job::Wake;
use hastings::workspace::{
    BookChoice, BookFile, FileMode, Workspace, WorkspaceError, WorkspaceEvent,
};

use crate::common;
use common::{fixture, temp_dir};

fn no_wake() -> Wake {
    Arc::new(|| {})
}

/// Runs every queued job to its end and returns what happened.
fn settle(ws: &mut Workspace) -> Vec<WorkspaceEvent> {
    let mut events = Vec::new();
    while ws.is_busy() {
        events.extend(ws.poll(true, &no_wake()));
    }
    events
}

#[test]
fn a_file_opened_in_the_background_joins_the_book_and_is_remembered() {
    let mut ws = Workspace::new(BookChoice::default()).unwrap();
    ws.open(vec![fixture("repertoire.pgn")], FileMode::Repertoire);
    let events = settle(&mut ws);
    assert!(matches!(
        events[0],
        WorkspaceEvent::Imported {
            remembered: false,
            ..
        }
    ));
    let WorkspaceEvent::Built { graph, theory } = &events[1] else {
        panic!("then the book is built: {events:?}");
    };
    assert!(theory.is_none(), "ECO is ticked: no repertoire mode");
    let file = &ws.files()[0];
    assert_eq!(file.mode, ImportMode::Repertoire);
    assert_eq!(graph.stats().lines, 3807 + file.report.lines);
    let remembered = &ws.choice().files[0];
    assert_eq!(remembered.path, fixture("repertoire.pgn"));
    assert_eq!(remembered.mode, FileMode::Repertoire);
    assert_eq!(
        remembered.size,
        std::fs::metadata(fixture("repertoire.pgn")).unwrap().len()
    );
}

#[test]
fn without_eco_a_repertoire_is_drilled_against_eco_as_theory() {
    let mut ws = Workspace::new(BookChoice {
        eco: false,
        ..BookChoice::default()
    })
    .unwrap();
    ws.open(vec![fixture("repertoire.pgn")], FileMode::Auto);
    let events = settle(&mut ws);
    let Some(WorkspaceEvent::Built { graph, theory }) = events.last() else {
        panic!("{events:?}");
    };
    assert!(ws.is_repertoire());
    assert_eq!(theory.as_ref().unwrap().stats().lines, 3807);
    assert_eq!(graph.stats().lines, ws.files()[0].report.lines);
    // Removing the file forgets it and rebuilds an empty book.
    ws.remove(&fixture("repertoire.pgn"));
    assert!(ws.choice().files.is_empty() && ws.files().is_empty());
    let events = settle(&mut ws);
    let Some(WorkspaceEvent::Built { graph, theory }) = events.last() else {
        panic!("{events:?}");
    };
    assert_eq!(graph.stats().lines, 0);
    assert!(theory.is_none());
}

#[test]
fn remembered_files_that_are_missing_or_changed_give_warnings() {
    let dir = temp_dir("remembered");
    let changed = dir.join("changed.pgn");
    std::fs::copy(fixture("repertoire.pgn"), &changed).unwrap();
    let choice = BookChoice {
        files: vec![
            BookFile {
                path: dir.join("gone.pgn"),
                ..BookFile::default()
            },
            BookFile {
                path: changed.clone(),
                mode: FileMode::Repertoire,
                size: 1,
                ..BookFile::default()
            },
        ],
        ..BookChoice::default()
    };
    let mut ws = Workspace::new(choice).unwrap();
    ws.restore();
    let events = settle(&mut ws);
    assert!(matches!(
        &events[0],
        WorkspaceEvent::Imported {
            remembered: true,
            ..
        }
    ));
    let warnings = ws.warnings();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("gone.pgn is missing"), "{warnings:?}");
    assert!(
        warnings[1].contains("changed.pgn changed since it was loaded"),
        "{warnings:?}"
    );
    assert_eq!(ws.files().len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_without_games_fails_with_its_problems_and_is_not_remembered() {
    let mut ws = Workspace::new(BookChoice::default()).unwrap();
    ws.open(vec![fixture("empty.pgn")], FileMode::Auto);
    let events = settle(&mut ws);
    let WorkspaceEvent::ImportFailed {
        error, remembered, ..
    } = &events[0]
    else {
        panic!("{events:?}");
    };
    assert!(!remembered);
    assert!(matches!(
        error,
        WorkspaceError::Import {
            source: ImportError::NoGames { .. },
            ..
        }
    ));
    assert!(error.to_string().contains("no games found"));
    assert!(ws.choice().files.is_empty() && ws.files().is_empty());
}

#[test]
fn a_cancelled_import_reports_cancelled_and_keeps_nothing() {
    let big = temp_dir("workspace-cancel").join("big.pgn");
    let one = std::fs::read(fixture("twic1599_100k.pgn")).unwrap();
    std::fs::write(&big, one.repeat(40)).unwrap();
    let mut ws = Workspace::new(BookChoice::default()).unwrap();
    ws.open(vec![big.clone()], FileMode::Games);
    assert!(ws.poll(false, &no_wake()).is_empty(), "the import runs");
    ws.cancel_import();
    let events = settle(&mut ws);
    assert!(
        matches!(&events[0], WorkspaceEvent::Cancelled { path } if *path == big),
        "{events:?}"
    );
    assert!(ws.files().is_empty());
    std::fs::remove_file(&big).unwrap();
}
