//! The learner's settings on disk (`settings.json` in the data folder), with the
//! guarantees of the progress file: written atomically, never silently reset.
//!
//! The file is a JSON object written one setting a line, so that any tool reads it and a
//! file cut short or edited by hand still gives up most of what it holds:
//!
//! ```text
//! {
//! "learner": "Black",
//! "iterations": 1000,
//! "board_look": {"theme":"Green","pieces":"Chessnut","coordinates":"Outside"}
//! }
//! ```
//!
//! [`load_settings`] reads the whole file when it can. When it cannot (a cut file, an
//! entry that does not decode), it keeps every entry that still reads, resets the
//! others to their defaults, keeps the file aside under a name of its own
//! ([`move_aside`]) and says both in
//! [`SettingsLoaded::warning`]. The settings type decides what a setting is: every
//! top-level field of its serialised form is one entry.
//!
//! ```
//! use hastings::workspace::settings_file::{load_settings, save_settings};
//! # #[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
//! # #[serde(default)]
//! # struct Settings { name: String, size: u32 }
//! let dir = std::env::temp_dir().join(format!("hastings-doc-settings-{}", std::process::id()));
//! let path = dir.join("settings.json");
//! let mine = Settings { name: "Ana".into(), size: 3 };
//! save_settings(&path, &mine)?;
//! // One entry damaged: it is reset, the other is kept, and the user is told.
//! std::fs::write(&path, "{\n\"name\": \"Ana\",\n\"size\": \"three\"\n}\n")?;
//! let loaded = load_settings::<Settings>(&path);
//! assert_eq!(loaded.value.as_ref().map(|s| s.name.as_str()), Some("Ana"));
//! assert_eq!(loaded.reset, ["size"]);
//! assert!(loaded.kept_aside.is_some() && loaded.warning.is_some());
//! # std::fs::remove_dir_all(&dir).ok();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::store::{StoreError, move_aside, write_atomic};

/// The settings file's name in the data folder.
pub const SETTINGS_FILE: &str = "settings.json";

/// What [`load_settings`] found.
#[derive(Debug)]
pub struct SettingsLoaded<T> {
    /// The settings read (with the entries that did not read reset to their defaults);
    /// `None` when there is no file (a first start, or settings kept elsewhere before).
    pub value: Option<T>,
    /// The settings (top-level entries) that were reset to their defaults because the
    /// file lost them or they did not read, in the order of the settings type.
    pub reset: Vec<String>,
    /// Where the damaged file was kept.
    pub kept_aside: Option<PathBuf>,
    /// Why the file did not read whole (the parser's words: where and what).
    pub damage: Option<String>,
    /// What to tell the user, in one line, when the file was not read whole.
    pub warning: Option<String>,
}

/// Reads the settings file `path` (see the [module docs](self)).
pub fn load_settings<T>(path: &Path) -> SettingsLoaded<T>
where
    T: Serialize + DeserializeOwned + Default,
{
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return SettingsLoaded {
                value: None,
                reset: Vec::new(),
                kept_aside: None,
                damage: None,
                warning: None,
            };
        }
        Err(e) => {
            // Unreadable but present: the defaults for this run, the file left alone
            // (it is not damaged, only not readable now), and the user told.
            return SettingsLoaded {
                value: Some(T::default()),
                reset: Vec::new(),
                kept_aside: None,
                damage: None,
                warning: Some(format!(
                    "Your settings could not be read ({}: {e}); this window uses the defaults.",
                    path.display()
                )),
            };
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    let whole = serde_json::from_str::<T>(&text);
    let whole_error = match whole {
        Ok(value) => {
            return SettingsLoaded {
                value: Some(value),
                reset: Vec::new(),
                kept_aside: None,
                damage: None,
                warning: None,
            };
        }
        Err(e) => e,
    };
    let (value, reset) = recover::<T>(&text);
    let kept_aside = move_aside(path, "corrupt");
    let kept = match &kept_aside {
        Ok(aside) => format!("it was kept as {}", aside.display()),
        Err(e) => format!("it could not be kept aside ({e})"),
    };
    let which = if reset.is_empty() {
        "no setting was lost".to_owned()
    } else {
        format!("reset to their defaults: {}", reset.join(", "))
    };
    let warning = format!(
        "Your settings file {} was damaged ({whole_error}); {kept}. The other settings \
         were kept; {which}.",
        path.display()
    );
    log::warn!("{warning}");
    SettingsLoaded {
        value: Some(value),
        reset,
        kept_aside: kept_aside.ok(),
        damage: Some(whole_error.to_string()),
        warning: Some(warning),
    }
}

/// The settings that still read in `text`, entry by entry, and the names of those reset.
fn recover<T>(text: &str) -> (T, Vec<String>)
where
    T: Serialize + DeserializeOwned + Default,
{
    let Ok(Value::Object(defaults)) = serde_json::to_value(T::default()) else {
        // Not a struct: nothing to recover entry by entry.
        return (T::default(), Vec::new());
    };
    let mut found = entries(text);
    let mut map = defaults.clone();
    let mut reset = Vec::new();
    for (name, default) in &defaults {
        let Some(entry) = found.remove(name) else {
            reset.push(name.clone());
            continue;
        };
        map.insert(name.clone(), entry);
        if serde_json::from_value::<T>(Value::Object(map.clone())).is_err() {
            map.insert(name.clone(), default.clone());
            reset.push(name.clone());
        }
    }
    let value = serde_json::from_value(Value::Object(map)).unwrap_or_default();
    (value, reset)
}

/// The entries of a settings file that read on their own: one `"name": value` a line.
fn entries(text: &str) -> Map<String, Value> {
    // A file that is still a JSON object (edited by hand, laid out otherwise) whole.
    if let Ok(Value::Object(all)) = serde_json::from_str(text) {
        return all;
    }
    let mut found = Map::new();
    // The file's last line, cut, may parse and still not be the value written
    // (`"iterations": 25` may be the start of `"iterations": 250,`): without its
    // newline it is an entry only when a comma ends it or its value cannot be the start
    // of a longer one (a string, an object, an array, `true`: only a number can).
    for line in text.split_inclusive('\n') {
        let (line, whole) = match line.strip_suffix('\n') {
            Some(line) => (line.trim(), true),
            None => (line.trim(), false),
        };
        let (line, comma) = match line.strip_suffix(',') {
            Some(line) => (line, true),
            None => (line, false),
        };
        // `"name": value`, the value whole: a line cut inside an object (`"book":
        // {"eco":true,`) is not an entry, though closing it would parse.
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        if let (Ok(name), Ok(value)) = (
            serde_json::from_str::<String>(name.trim()),
            serde_json::from_str::<Value>(value.trim()),
        ) && (whole || comma || !value.is_number())
        {
            found.insert(name, value);
        }
    }
    found
}

/// Writes `settings` to `path` atomically, one setting a line.
///
/// # Errors
///
/// [`StoreError::Encode`] when the settings cannot be written as JSON (nothing is
/// written), otherwise as [`write_atomic`].
pub fn save_settings<T: Serialize>(path: &Path, settings: &T) -> Result<(), StoreError> {
    let value = serde_json::to_value(settings).map_err(|e| StoreError::encode(path, e))?;
    let text = match value {
        Value::Object(map) => {
            let mut lines = Vec::with_capacity(map.len());
            for (name, value) in &map {
                let name = serde_json::to_string(name).map_err(|e| StoreError::encode(path, e))?;
                let value =
                    serde_json::to_string(value).map_err(|e| StoreError::encode(path, e))?;
                lines.push(format!("{name}: {value}"));
            }
            format!("{{\n{}\n}}\n", lines.join(",\n"))
        }
        other => serde_json::to_string(&other).map_err(|e| StoreError::encode(path, e))?,
    };
    write_atomic(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(default)]
    struct Sample {
        name: String,
        size: u32,
        nested: Vec<u8>,
    }

    impl Default for Sample {
        fn default() -> Sample {
            Sample {
                name: "default".into(),
                size: 1,
                nested: vec![1],
            }
        }
    }

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "hastings-settings-file-{name}-{}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    /// Saves settings far from the defaults to `path`, and returns them.
    fn saved(path: &Path) -> Sample {
        let mine = Sample {
            name: "Ana".into(),
            size: 7,
            nested: vec![3, 4],
        };
        save_settings(path, &mine).unwrap();
        mine
    }

    #[test]
    fn settings_round_trip_one_entry_a_line() {
        let dir = dir("round");
        let path = dir.join(SETTINGS_FILE);
        let mine = saved(&path);
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 5, "{text}");
        let loaded = load_settings::<Sample>(&path);
        assert_eq!(loaded.value, Some(mine));
        assert!(loaded.warning.is_none() && loaded.reset.is_empty());
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_missing_file_is_no_settings_and_no_warning() {
        let loaded = load_settings::<Sample>(&dir("missing").join(SETTINGS_FILE));
        assert!(loaded.value.is_none() && loaded.warning.is_none());
    }

    #[test]
    fn a_cut_file_keeps_the_entries_before_the_cut() {
        let dir = dir("cut");
        let path = dir.join(SETTINGS_FILE);
        saved(&path);
        let text = fs::read_to_string(&path).unwrap();
        let cut = &text[..text.find("\"nested\"").unwrap() + 12];
        fs::write(&path, cut).unwrap();
        let loaded = load_settings::<Sample>(&path);
        // One entry a line, in the order of the names: `size` came after the cut too.
        let value = loaded.value.unwrap();
        assert_eq!((value.name.as_str(), value.size), ("Ana", 1));
        assert_eq!(value.nested, vec![1]);
        assert_eq!(loaded.reset, ["nested", "size"]);
        let aside = loaded.kept_aside.unwrap();
        assert_eq!(fs::read_to_string(&aside).unwrap(), cut);
        assert!(!path.exists());
        let warning = loaded.warning.unwrap();
        assert!(warning.contains(&aside.display().to_string()), "{warning}");
        assert!(warning.contains("nested"), "{warning}");
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_number_cut_short_on_the_last_line_is_reset_not_taken() {
        let dir = dir("cut-number");
        let path = dir.join(SETTINGS_FILE);
        let mine = Sample {
            size: 250,
            ..saved(&path)
        };
        save_settings(&path, &mine).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        // `"size": 25` of `"size": 250`: it parses, but it is not what was written.
        let cut = &text[..text.find("250").unwrap() + 2];
        fs::write(&path, cut).unwrap();
        let loaded = load_settings::<Sample>(&path);
        let value = loaded.value.unwrap();
        assert_eq!(value.size, 1, "reset, not 25");
        assert_eq!((value.name.as_str(), value.nested), ("Ana", vec![3, 4]));
        assert_eq!(loaded.reset, ["size"]);
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn two_damaged_files_in_one_second_are_both_kept() {
        let dir = dir("twice");
        let path = dir.join(SETTINGS_FILE);
        fs::create_dir_all(&dir).unwrap();
        fs::write(&path, "{ first").unwrap();
        let first = load_settings::<Sample>(&path).kept_aside.unwrap();
        fs::write(&path, "{ second").unwrap();
        let second = load_settings::<Sample>(&path).kept_aside.unwrap();
        assert_ne!(first, second);
        assert_eq!(fs::read_to_string(first).unwrap(), "{ first");
        assert_eq!(fs::read_to_string(second).unwrap(), "{ second");
        fs::remove_dir_all(&dir).ok();
    }
}
