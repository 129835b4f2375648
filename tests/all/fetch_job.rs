//! The core of a fetch as the window runs it: on a [`Job`] with the games counted as
//! they arrive, and a cancel that leaves the file as it was.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::fetch_server;

use std::fs;
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use fetch_server::{Reply, Server, fixture, games_of};
use hastings::job::{Job, JobProgress};
use hastings::workspace::fetch::{Fetch, FetchError, LichessGames, Sites, fetch};

fn lichess_games() -> String {
    fixture("lichess_db_100k.pgn")
}

fn games_of_alice() -> Fetch {
    Fetch::LichessGames(LichessGames {
        user: "alice".to_owned(),
        ..LichessGames::default()
    })
}

/// Waits until `done` says yes (the job runs on its own thread).
fn wait_for(progress: &JobProgress, done: impl Fn(u64) -> bool) {
    for _ in 0..3000 {
        if done(progress.snapshot().items) {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the job never got there: {:?}", progress.snapshot());
}

#[test]
fn a_job_counts_the_games_and_a_cancel_leaves_the_file_as_it_was() {
    let (release, held) = mpsc::channel();
    let held = Mutex::new(Some(held));
    let text = lichess_games();
    let body = text.clone();
    let server = Server::start(move |_, _| match held.lock().unwrap().take() {
        Some(release) => Reply::Held {
            body: body.clone().into_bytes(),
            release,
        },
        None => Reply::pgn(body.clone()),
    });
    let sites = Sites::resolve(Some(&server.url), None);
    let dir = std::env::temp_dir().join(format!("hastings-fetch-job-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("alice.pgn");
    fs::write(&path, "[Event \"mine\"]\n\n1. e4 e5 *\n").unwrap();

    // Cancelled in the middle of the answer.
    let (s, p) = (sites.clone(), path.clone());
    let job = Job::spawn("fetch", Arc::new(|| {}), move |progress| {
        fetch(&s, &games_of_alice(), &p, progress)
    })
    .unwrap();
    let progress = Arc::clone(job.progress());
    wait_for(&progress, |n| n > 0);
    job.cancel();
    release.send(()).unwrap();
    let err = job.wait().unwrap().unwrap_err();
    assert!(matches!(err, FetchError::Cancelled { .. }), "{err}");
    assert!(err.to_string().contains("alice.pgn is unchanged"), "{err}");
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "[Event \"mine\"]\n\n1. e4 e5 *\n"
    );
    assert_eq!(
        fs::read_dir(&dir).unwrap().count(),
        1,
        "no temporary file left"
    );

    // Run to its end: every game counted, added after the file's own game.
    let (s, p) = (sites, path.clone());
    let job = Job::spawn("fetch", Arc::new(|| {}), move |progress| {
        fetch(&s, &games_of_alice(), &p, progress)
    })
    .unwrap();
    let progress = Arc::clone(job.progress());
    let report = job.wait().unwrap().unwrap();
    let n = games_of(&text).len() as u64;
    assert_eq!((report.kept, report.added, report.already), (1, n, 0));
    assert_eq!(progress.snapshot().items, n);
    let written = fs::read_to_string(&path).unwrap();
    assert!(written.starts_with("[Event \"mine\"]\n\n1. e4 e5 *\n\n[Event "));
    fs::remove_dir_all(&dir).unwrap();
}
