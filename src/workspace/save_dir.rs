//! Where the files the learner saves go when they name no folder: `Hastings` in their
//! documents folder (`~/Documents/Hastings`, as the desktop's `XDG_DOCUMENTS_DIR` says),
//! else the data folder — never the process's working folder, which for a desktop
//! launcher is the home folder or `/`. A name typed without a folder goes there too.

use std::path::{Path, PathBuf};

/// The folder for saved games and new repertoires: `Hastings` in the documents folder
/// (the desktop's, else `~/Documents` where it exists), else the data folder; `None`
/// without a home folder.
pub fn save_dir() -> Option<PathBuf> {
    save_dir_in(
        dirs::document_dir(),
        dirs::home_dir(),
        super::data_dir::data_dir(),
    )
}

/// [`save_dir`] from the system's folders: `documents` (the desktop's documents folder),
/// `home`, `data` (the data folder).
pub fn save_dir_in(
    documents: Option<PathBuf>,
    home: Option<PathBuf>,
    data: Option<PathBuf>,
) -> Option<PathBuf> {
    documents
        .or_else(|| home.map(|h| h.join("Documents")).filter(|d| d.is_dir()))
        .map(|d| d.join("Hastings"))
        .or(data)
}

/// The path a typed or chosen `path` means for a file to write: a name or a relative
/// path goes into `dir` (the [`save_dir`]); an absolute path stays.
pub fn save_path_in(path: &Path, dir: Option<&Path>) -> PathBuf {
    match dir {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documents_folder_first_then_home_documents_then_the_data_folder() {
        let docs = PathBuf::from("/home/ana/Dokumente");
        let data = PathBuf::from("/home/ana/.local/share/hastings");
        assert_eq!(
            save_dir_in(Some(docs.clone()), None, Some(data.clone())),
            Some(docs.join("Hastings"))
        );
        // A home without a Documents folder: the data folder.
        let home = std::env::temp_dir().join("hastings-save-dir-no-documents");
        assert_eq!(
            save_dir_in(None, Some(home.clone()), Some(data.clone())),
            Some(data.clone())
        );
        // With one: there.
        let home = std::env::temp_dir().join("hastings-save-dir-home");
        std::fs::create_dir_all(home.join("Documents")).unwrap();
        assert_eq!(
            save_dir_in(None, Some(home.clone()), Some(data)),
            Some(home.join("Documents").join("Hastings"))
        );
        assert_eq!(save_dir_in(None, None, None), None);
    }

    #[test]
    fn a_name_goes_into_the_folder_and_an_absolute_path_stays() {
        let dir = Path::new("/home/ana/Documents/Hastings");
        assert_eq!(
            save_path_in(Path::new("play-on.pgn"), Some(dir)),
            dir.join("play-on.pgn")
        );
        assert_eq!(
            save_path_in(Path::new("/tmp/game.pgn"), Some(dir)),
            PathBuf::from("/tmp/game.pgn")
        );
        assert!(save_path_in(Path::new("game.pgn"), None).is_absolute());
    }
}
