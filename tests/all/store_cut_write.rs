//! A file the stores create new (a paste kept in `pasted/`, a torn tail kept aside) is
//! removed when its write fails part way: nothing half-written is left in the data
//! folder. The write is cut by a file size limit in a child process (this test binary
//! run again under `ulimit -f`, SIGXFSZ ignored, so the write fails with EFBIG instead
//! of killing the process).

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::process::Command;

use hastings::workspace::store::create_unique;

use crate::common;

const TEST: &str = "a_paste_cut_by_a_full_disk_leaves_no_file";

#[cfg(unix)]
#[test]
fn a_paste_cut_by_a_full_disk_leaves_no_file() {
    if let Some(dir) = std::env::var_os("HASTINGS_CUT_WRITE_DIR") {
        // The child: 64 KB against a limit of 512 bytes.
        let err = create_unique(&PathBuf::from(dir), "pasted", "pgn", &[b'x'; 65_536]).unwrap_err();
        assert!(err.to_string().contains("pasted-"), "{err}");
        return;
    }
    let dir = common::temp_dir("store-cut-write").join("pasted");
    std::fs::create_dir_all(&dir).unwrap();
    // The child's output goes to pipes: a file bigger than the limit (CI's log) could
    // not be written to under it.
    let out = Command::new("sh")
        .args(["-c", "ulimit -f 1; trap '' XFSZ; exec \"$0\" \"$@\""])
        .arg(std::env::current_exe().unwrap())
        .args(["--exact", &common::exact_test_name(module_path!(), TEST)])
        .args(["--test-threads=1", "-q"])
        .env("HASTINGS_CUT_WRITE_DIR", &dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the child's write was not refused: {}\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(left.is_empty(), "half-written files left: {left:?}");
    // Without the limit the same call writes the whole file.
    let path = create_unique(&dir, "pasted", "pgn", &[b'x'; 65_536]).unwrap();
    assert_eq!(std::fs::metadata(path).unwrap().len(), 65_536);
}
