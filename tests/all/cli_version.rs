//! `hastings --version`: the version the package installs, as clap prints it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::process::Command;

#[test]
fn version_prints_the_package_version_and_exits() {
    let out = Command::new(env!("CARGO_BIN_EXE_hastings"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.trim_end(),
        format!("hastings {}", env!("CARGO_PKG_VERSION"))
    );
}
