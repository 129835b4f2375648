//! A save keeps what the file is (a symbolic link, its permissions, read-only), and an
//! output never overwrites an input: through `hastings repertoire`, `book make` and
//! `export`, run as the user runs them.

#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use crate::common;

fn run(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hastings"))
        .env("XDG_DATA_HOME", data)
        .env("HOME", data)
        .args(args)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn ok(out: &Output) {
    assert!(out.status.success(), "{}", stderr(out));
}

#[cfg(unix)]
#[test]
fn an_edit_through_a_symbolic_link_writes_the_target_and_the_link_stays() {
    let d = common::temp_dir("save-symlink");
    let data = d.join("data");
    fs::create_dir_all(d.join("real")).unwrap();
    let real = d.join("real/rep.pgn");
    fs::copy("tests/fixtures/repertoire.pgn", &real).unwrap();
    let link = d.join("link.pgn");
    std::os::unix::fs::symlink("real/rep.pgn", &link).unwrap();
    let l = link.to_str().unwrap();
    ok(&run(
        &data,
        &[
            "repertoire",
            "comment",
            l,
            "--at",
            "1. e4",
            "--text",
            "via the link",
        ],
    ));
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link stays a link"
    );
    assert!(
        fs::read_to_string(&real).unwrap().contains("via the link"),
        "the target has the edit"
    );
    let names: Vec<_> = fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        names.len(),
        3,
        "nothing but real/, link.pgn and data/: {names:?}"
    );
    // A second edit through the link keeps the first.
    ok(&run(
        &data,
        &[
            "repertoire",
            "comment",
            l,
            "--at",
            "1. e4 e5",
            "--text",
            "second edit",
        ],
    ));
    let text = fs::read_to_string(&real).unwrap();
    assert!(
        text.contains("via the link") && text.contains("second edit"),
        "{text}"
    );
}

#[cfg(unix)]
#[test]
fn an_edit_keeps_the_permissions_and_a_read_only_file_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let d = common::temp_dir("save-mode");
    let data = d.join("data");
    let file = d.join("rep.pgn");
    let f = file.to_str().unwrap();
    fs::copy("tests/fixtures/repertoire.pgn", &file).unwrap();
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
    ok(&run(
        &data,
        &[
            "repertoire",
            "comment",
            f,
            "--at",
            "1. e4",
            "--text",
            "private",
        ],
    ));
    assert_eq!(mode(&file), 0o600, "a 0600 file stays 0600");
    assert!(fs::read_to_string(&file).unwrap().contains("private"));
    // Read-only: refused with the reason, nothing written, the mode kept (tests may run
    // as root, who could write it anyway: the save looks at the mode bits).
    fs::set_permissions(&file, fs::Permissions::from_mode(0o444)).unwrap();
    let before = fs::read(&file).unwrap();
    let out = run(
        &data,
        &["repertoire", "comment", f, "--at", "1. e4", "--text", "no"],
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("is read-only") && err.contains(f), "{err}");
    assert_eq!(fs::read(&file).unwrap(), before, "nothing written");
    assert_eq!(mode(&file), 0o444);
    // The same through the library's one way of saving a file.
    let err = hastings::workspace::store::write_atomic(&file, b"x").unwrap_err();
    assert!(err.to_string().contains("is read-only"), "{err}");
    assert_eq!(fs::read(&file).unwrap(), before);
    let names: Vec<_> = fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "no temporary or lock file left: {names:?}");
}

#[test]
fn book_make_with_its_input_as_output_is_refused_and_the_input_kept() {
    let d = common::temp_dir("output-is-input");
    let data = d.join("data");
    let games = d.join("g.pgn");
    fs::copy("tests/fixtures/repertoire.pgn", &games).unwrap();
    let before = fs::read(&games).unwrap();
    let g = games.to_str().unwrap();
    let out = run(&data, &["book", "make", g, "-o", g]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("is the input"), "{}", stderr(&out));
    assert_eq!(fs::read(&games).unwrap(), before, "the games are kept");
    // Another name of the same file (a symbolic link) is the same input.
    #[cfg(unix)]
    {
        let link = d.join("link.bin");
        std::os::unix::fs::symlink(&games, &link).unwrap();
        let out = run(&data, &["book", "make", g, "-o", link.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(fs::read(&games).unwrap(), before);
    }
    // Another output is written.
    let book = d.join("g.bin");
    ok(&run(
        &data,
        &["book", "make", g, "-o", book.to_str().unwrap()],
    ));
    assert!(book.exists());
}

#[test]
fn export_and_repertoire_with_an_input_as_output_are_refused() {
    let d = common::temp_dir("output-is-input-2");
    let data = d.join("data");
    let file = d.join("rep.pgn");
    fs::copy("tests/fixtures/repertoire.pgn", &file).unwrap();
    let before = fs::read(&file).unwrap();
    let f = file.to_str().unwrap();
    for args in [
        &["export", "--no-eco", "--pgn", f, "-o", f][..],
        &["repertoire", "add", f, "--at", "1. e4 c5 2. Nf3", "-o", f][..],
    ] {
        let out = run(&data, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("is the input"), "{}", stderr(&out));
        assert_eq!(
            fs::read(&file).unwrap(),
            before,
            "{args:?}: the input is kept"
        );
    }
}

#[cfg(unix)]
#[test]
fn book_make_writes_through_a_link_keeps_the_mode_and_refuses_a_read_only_book() {
    use std::os::unix::fs::PermissionsExt;
    let d = common::temp_dir("book-make-keeps");
    let data = d.join("data");
    let g = "tests/fixtures/repertoire.pgn";
    let real = d.join("real.bin");
    fs::write(&real, "an old book").unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
    let link = d.join("link.bin");
    std::os::unix::fs::symlink("real.bin", &link).unwrap();
    ok(&run(
        &data,
        &["book", "make", g, "-o", link.to_str().unwrap()],
    ));
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let book = fs::read(&real).unwrap();
    assert!(
        book.len().is_multiple_of(16) && !book.is_empty(),
        "a Polyglot book"
    );
    assert_eq!(
        fs::metadata(&real).unwrap().permissions().mode() & 0o777,
        0o600
    );
    fs::set_permissions(&real, fs::Permissions::from_mode(0o444)).unwrap();
    let out = run(&data, &["book", "make", g, "-o", real.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("is read-only"), "{}", stderr(&out));
    assert_eq!(fs::read(&real).unwrap(), book, "nothing written");
    let names: Vec<_> = fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "no temporary or lock file left: {names:?}");
}

#[cfg(unix)]
#[test]
fn a_round_robin_writes_its_games_through_a_link() {
    let d = common::temp_dir("round-robin-link");
    let data = d.join("data");
    let real = d.join("games.pgn");
    fs::write(&real, "old games").unwrap();
    let link = d.join("link.pgn");
    std::os::unix::fs::symlink("games.pgn", &link).unwrap();
    let mut args = vec!["match"];
    args.extend(["--engine", "random"].repeat(3));
    args.extend(["--games", "2", "--pgn", link.to_str().unwrap()]);
    ok(&run(&data, &args));
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let text = fs::read_to_string(&real).unwrap();
    assert_eq!(
        text.matches("[Event \"hastings match\"]").count(),
        6,
        "{text}"
    );
}
