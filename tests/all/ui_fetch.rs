//! "Get games online…" in the Book tab (issue 42, item 3): a lichess study or a
//! player's games fetched as a job, kept in the data folder's `fetched` folder, then
//! asked how to read like a file opened. Against a server on the loopback address that
//! answers as the sites' docs say (tests/fetch_server), through the real widgets and
//! through the coach without a window.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::fs;
use std::time::{Duration, Instant};

use eframe::egui::accesskit::Role;
use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::book::fetch::{FetchCommand, FetchKind};
use hastings::coach::settings::Settings;
use hastings::coach::{Coach, Command, Notice};
use hastings::ui::TrainerApp;
use hastings::workspace::fetch::Sites;

use crate::common;
use crate::fetch_server;

use fetch_server::{Reply, Server, fixture, games_of, temp_dir};

fn settings() -> Settings {
    Settings {
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..crate::common::settings()
    }
}

fn study_server() -> Server {
    let study = fixture("study_chapters.pgn");
    Server::start(move |got, _| {
        if got.path == "/api/study/Fr3nch01.pgn" {
            Reply::pgn(study.clone())
        } else {
            Reply::status(404, "text/plain", "Not Found")
        }
    })
}

/// A window at `size` on the data folder `dir`, asking `server` for what it fetches, with
/// the Book tab's "Get games online…" open.
fn fetch_form(dir: &std::path::Path, size: (f32, f32), server: &Server) -> common::AppHarness {
    let app =
        TrainerApp::with_progress_file(common::eco(), settings(), Some(dir.join("progress.ron")));
    let mut h = Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
    h.run();
    h.state_mut()
        .coach_mut()
        .apply(Command::Fetch(FetchCommand::Sites(Sites::resolve(
            Some(&server.url),
            None,
        ))));
    h.get_by_label("Book").click();
    h.run();
    h.get_by_label_contains("Get games online").click();
    h.run();
    h
}

#[test]
fn a_study_fetched_in_the_window_is_kept_and_asked_how_to_read() {
    let server = study_server();
    let dir = temp_dir("ui-fetch");
    let mut h = fetch_form(&dir, (1280.0, 800.0), &server);

    // Not a study: said under the field, nothing asked of the site.
    let field = h.get_by_label("The study's link");
    field.focus();
    field.type_text("not a study");
    h.run();
    h.get_by_label("Fetch").click();
    h.run();
    h.get_by_label_contains("is not a lichess study");
    assert!(server.got().is_empty());

    // Select the text and type the study's link over it.
    h.get_by_label("The study's link").focus();
    h.run();
    h.key_press_modifiers(eframe::egui::Modifiers::COMMAND, eframe::egui::Key::A);
    h.run();
    let field = h.get_by_label("The study's link");
    field.type_text("https://lichess.org/study/Fr3nch01/Ch4pt02b");
    h.run();
    h.get_by_label("Fetch").click();
    common::wait_until(&mut h, "the fetch", |app| {
        app.coach().book().fetch().outcome().is_some()
    });
    h.run();

    let kept = dir.join("fetched").join("lichess-study-fr3nch01.pgn");
    let text = fs::read_to_string(&kept).unwrap();
    assert_eq!(
        games_of(&text).len(),
        games_of(&fixture("study_chapters.pgn")).len()
    );
    let outcome = h
        .state()
        .coach()
        .book()
        .fetch()
        .outcome()
        .unwrap()
        .to_owned();
    assert!(outcome.contains(&kept.display().to_string()), "{outcome}");
    // The same question as for a file opened: how to read it.
    h.get_by_label("My repertoire");
    h.get_by_label("Import");
}

#[test]
fn a_players_games_fetched_by_the_coach_add_only_the_new_ones() {
    let games = fixture("lichess_db_100k.pgn");
    let all = games_of(&games);
    let first: String = all[..3].concat();
    let answers = std::sync::Mutex::new(vec![games.clone(), first]);
    let server = Server::start(move |got, _| {
        assert_eq!(got.path, "/api/games/user/alice");
        Reply::pgn(answers.lock().unwrap().pop().unwrap())
    });
    let dir = temp_dir("coach-fetch");
    let mut coach = Coach::new(common::eco(), settings(), Some(dir.join("progress.ron")));
    coach.finish_loading();
    coach.apply(Command::Fetch(FetchCommand::Sites(Sites::resolve(
        Some(&server.url),
        None,
    ))));
    let kind = FetchKind::LichessGames;
    let fetch_once = |coach: &mut Coach| {
        coach.apply(Command::Fetch(FetchCommand::Start(
            kind.request(" alice ").unwrap(),
        )));
        let deadline = Instant::now() + Duration::from_secs(60);
        while coach.book().fetch().progress().is_some() {
            assert!(Instant::now() < deadline, "the fetch never ended");
            std::thread::sleep(Duration::from_millis(10));
            common::coach_frame(coach);
        }
        coach.book().fetch().outcome().unwrap().to_owned()
    };
    let outcome = fetch_once(&mut coach);
    assert!(outcome.starts_with("3 new games"), "{outcome}");
    let asked: Vec<Notice> = coach.take_notices();
    assert!(
        asked.iter().any(
            |n| matches!(n, Notice::AskHowToRead(p) if p[0].ends_with("fetched/lichess-alice.pgn"))
        ),
        "{asked:?}"
    );
    let outcome = fetch_once(&mut coach);
    assert!(
        outcome.contains(" new games (3 you had already left out)"),
        "{outcome}"
    );
    let kept = fs::read_to_string(dir.join("fetched").join("lichess-alice.pgn")).unwrap();
    assert_eq!(
        games_of(&kept),
        all,
        "the three kept, then the new ones in order"
    );
}

/// Issue 42's bad input, through the coach as the Book tab's fetch runs it: a player
/// that does not exist (404, on lichess and chess.com), a site that answers a web page,
/// a private study (403) and a missing one (404) are each one line, nothing is asked to
/// be read, and nothing is written in the data folder's `fetched` folder.
#[test]
fn a_missing_player_a_web_page_and_a_private_study_are_one_line_each_and_keep_nothing() {
    let server = Server::start(|got, _| match got.path.as_str() {
        "/api/games/user/portal" => Reply::status(
            200,
            "text/html; charset=utf-8",
            "<!DOCTYPE html><html><body>Sign in to the Wi-Fi</body></html>",
        ),
        "/api/study/Pr1vate0.pgn" => Reply::status(403, "text/plain", "Forbidden"),
        _ => Reply::status(404, "application/json", r#"{"error":"Not found"}"#),
    });
    let dir = temp_dir("coach-fetch-bad-input");
    let mut coach = Coach::new(common::eco(), settings(), Some(dir.join("progress.ron")));
    coach.finish_loading();
    let _ = coach.take_notices();
    coach.apply(Command::Fetch(FetchCommand::Sites(Sites::resolve(
        Some(&server.url),
        Some(&server.url),
    ))));
    for (kind, text, says) in [
        (
            FetchKind::LichessGames,
            "nobody",
            "has no user nobody (HTTP 404)",
        ),
        (FetchKind::ChesscomGames, "nobody", "(HTTP 404)"),
        (
            FetchKind::LichessGames,
            "portal",
            "answered a web page, not PGN",
        ),
        (
            FetchKind::LichessStudy,
            "Pr1vate0",
            "it is private (HTTP 403)",
        ),
        (
            FetchKind::LichessStudy,
            "N0tThere",
            "has no study N0tThere (or it is private) (HTTP 404)",
        ),
    ] {
        coach.apply(Command::Fetch(FetchCommand::Start(
            kind.request(text).unwrap(),
        )));
        let deadline = Instant::now() + Duration::from_secs(60);
        while coach.book().fetch().progress().is_some() {
            assert!(Instant::now() < deadline, "the fetch never ended");
            std::thread::sleep(Duration::from_millis(10));
            common::coach_frame(&mut coach);
        }
        let outcome = coach.book().fetch().outcome().unwrap();
        assert!(
            outcome.starts_with("Nothing was fetched: "),
            "{text}: {outcome}"
        );
        assert!(outcome.contains(says), "{text}: {outcome}");
        assert!(!outcome.contains('\n'), "{outcome}");
        let asked = coach.take_notices();
        assert!(
            !asked.iter().any(|n| matches!(n, Notice::AskHowToRead(_))),
            "{text}: {asked:?}"
        );
        let kept: Vec<_> = fs::read_dir(dir.join("fetched"))
            .map(|d| d.map(|e| e.unwrap().file_name()).collect())
            .unwrap_or_default();
        assert!(kept.is_empty(), "{text}: {kept:?} left in fetched/");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_players_games_fetched_in_the_window_wait_out_a_429_and_a_cut_connection_changes_nothing() {
    let games = fixture("lichess_db_100k.pgn");
    let first: String = games_of(&games)[..3].concat();
    let half = games.len() / 2;
    // The first request is told to wait 1 s; the second gets three games; the third (the
    // next fetch) is cut in the middle of the stream.
    let server = Server::start(move |got, n| {
        assert_eq!(got.path, "/api/games/user/alice");
        match n {
            0 => Reply::too_many(1),
            1 => Reply::pgn(first.clone()),
            _ => Reply::Chunked {
                content_type: "application/x-chess-pgn",
                body: games.clone().into_bytes(),
                chunk: 1000,
                cut_after: Some(half),
            },
        }
    });
    let dir = temp_dir("ui-fetch-429");
    let mut h = fetch_form(&dir, (800.0, 600.0), &server);
    // At 800×600 the form is below the fold: scrolled to, as a user would.
    h.get_by_role_and_label(Role::ComboBox, "What to fetch")
        .scroll_to_me();
    h.run();
    h.get_by_role_and_label(Role::ComboBox, "What to fetch")
        .click();
    h.run();
    h.get_by_label("A lichess player's games").click();
    h.run();
    let field = h.get_by_label("The player's name");
    field.focus();
    field.type_text("alice");
    h.run();
    let fetch = |h: &mut common::AppHarness| {
        h.get_by_label("Fetch").scroll_to_me();
        h.run();
        h.get_by_label("Fetch").click();
        common::wait_until(h, "the fetch", |app| {
            let fetch = app.coach().book().fetch();
            fetch.progress().is_none() && fetch.outcome().is_some()
        });
        // (the "read as" dialog opens, fading in)
        common::settle(h);
        h.state()
            .coach()
            .book()
            .fetch()
            .outcome()
            .unwrap()
            .to_owned()
    };

    let outcome = fetch(&mut h);
    let kept = dir.join("fetched").join("lichess-alice.pgn");
    assert!(outcome.starts_with("3 new games"), "{outcome}");
    assert!(outcome.contains("waited 1 s"), "{outcome}");
    h.get_by_label_contains("The site asked to wait");
    assert_eq!(server.got().len(), 2, "asked again once, after the wait");
    let before = fs::read_to_string(&kept).unwrap();
    assert_eq!(games_of(&before).len(), 3);
    // The file is offered to read, as any fetched file; not read here.
    h.get_by_label("Cancel").click();
    h.run();

    let outcome = fetch(&mut h);
    assert!(outcome.starts_with("Nothing was fetched"), "{outcome}");
    assert!(outcome.contains("was cut after"), "{outcome}");
    assert!(outcome.contains("unchanged"), "{outcome}");
    h.get_by_label_contains("was cut after");
    assert_eq!(fs::read_to_string(&kept).unwrap(), before);
    assert_eq!(
        fetch_server::names_in(&dir.join("fetched")),
        ["lichess-alice.pgn"],
        "no temporary file left"
    );
}
