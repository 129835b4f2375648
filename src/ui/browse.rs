//! A path field with a **Browse…** button beside it, written once for every path field
//! of the window (the explorer's build form and "Add games…", the make-book form): the
//! button opens the system's file dialog (rfd: the desktop portal, or zenity) on a
//! thread of its own, and the path chosen goes into the field; where the system has no
//! dialog (or the window was told to use none), the field stays for typing.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use eframe::egui;
use egui::Ui;

/// The egui temporary-data key that says no system dialog may open (tests, and the
/// systems where the window uses the path field only): Browse… is then disabled.
pub(super) const NO_DIALOG: &str = "browse_no_system_dialog";

/// What the dialog asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BrowseFor {
    /// PGN files or folders to read: the files chosen are added to the field,
    /// separated by `;`.
    PgnFiles,
    /// A file to write, with this extension.
    SaveAs(&'static str),
}

/// The answer of a dialog still open or just closed: `None` while it is open.
type Slot = Arc<Mutex<Option<Vec<PathBuf>>>>;

/// The field's text after the dialog chose `chosen`: for [`BrowseFor::PgnFiles`] the
/// files are added after what was typed (`;` between), for [`BrowseFor::SaveAs`] the
/// file replaces it. Nothing chosen leaves the text as it was.
pub(super) fn with_chosen(text: &str, chosen: &[PathBuf], what: BrowseFor) -> String {
    if chosen.is_empty() {
        return text.to_owned();
    }
    let shown: Vec<String> = chosen.iter().map(|p| p.display().to_string()).collect();
    match what {
        BrowseFor::SaveAs(_) => shown.join("; "),
        BrowseFor::PgnFiles => {
            let mut parts: Vec<String> = text
                .split(';')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            parts.extend(shown.into_iter().filter(|s| !text.contains(s.as_str())));
            parts.join("; ")
        }
    }
}

/// A path field `name` (its label above it) with Browse… beside it, as wide as
/// `width`; returns the field's response.
pub(super) fn path_field_ui(
    ui: &mut Ui,
    name: &str,
    text: &mut String,
    hint: &str,
    what: BrowseFor,
    width: f32,
) -> egui::Response {
    let id = ui.make_persistent_id(("browse", name));
    // A dialog that answered: its paths go into the field.
    let slot: Option<Slot> = ui.data(|d| d.get_temp(id));
    if let Some(slot) = &slot {
        let answer = slot
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(chosen) = answer {
            *text = with_chosen(text, &chosen, what);
            ui.data_mut(|d| d.remove::<Slot>(id));
        }
    }
    let asking = ui.data(|d| d.get_temp::<Slot>(id)).is_some();
    let no_dialog = ui
        .ctx()
        .data(|d| d.get_temp::<bool>(egui::Id::unique(NO_DIALOG)))
        .unwrap_or(false);
    let label = ui.label(name);
    ui.horizontal(|ui| {
        // The button's room: its text and padding, and the gap before it.
        let button = egui::WidgetText::from("Browse…")
            .into_galley(
                ui,
                Some(egui::TextWrapMode::Extend),
                f32::INFINITY,
                egui::TextStyle::Button,
            )
            .size()
            .x
            + 2.0 * ui.spacing().button_padding.x;
        let gap = ui.spacing().item_spacing.x;
        // TextEdit's margins (4 points each side) come on top of its desired width.
        let field = ui
            .add(
                egui::TextEdit::singleline(text)
                    .id_salt(("path_field", name))
                    .hint_text(hint)
                    .desired_width((width - button - gap - 8.0).max(60.0)),
            )
            .labelled_by(label.id);
        let browse = ui
            .add_enabled(!asking && !no_dialog, egui::Button::new("Browse…"))
            .on_hover_text("Choose with your system's file dialog")
            .on_disabled_hover_text(if asking {
                "The file dialog is open"
            } else {
                "No file dialog here: type the path"
            });
        if browse.clicked() {
            let slot: Slot = Arc::default();
            ui.data_mut(|d| d.insert_temp(id, Arc::clone(&slot)));
            ask(ui.ctx(), slot, what);
        }
        field
    })
    .inner
}

/// Opens the system's dialog for `what` on a thread; its answer (nothing when cancelled
/// or when there is no dialog) goes into `slot`, and the window is woken.
fn ask(ctx: &egui::Context, slot: Slot, what: BrowseFor) {
    let ctx = ctx.clone();
    std::thread::spawn(move || {
        let dialog = rfd::FileDialog::new();
        let chosen = match what {
            BrowseFor::PgnFiles => dialog
                .set_title("Choose PGN files")
                .add_filter("PGN", &["pgn", "PGN"])
                .pick_files()
                .unwrap_or_default(),
            BrowseFor::SaveAs(extension) => {
                let mut dialog = dialog.set_title("Where to write it");
                if let Some(dir) = crate::workspace::save_dir::save_dir()
                    && std::fs::create_dir_all(&dir).is_ok()
                {
                    dialog = dialog.set_directory(dir);
                }
                dialog
                    .add_filter(extension, &[extension])
                    .save_file()
                    .into_iter()
                    .collect()
            }
        };
        *slot
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(chosen);
        ctx.request_repaint();
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_chosen_are_added_to_what_was_typed_and_a_save_replaces_it() {
        let a = PathBuf::from("/home/ana/games/club.pgn");
        let b = PathBuf::from("/home/ana/games/more.pgn");
        assert_eq!(
            with_chosen("mine.pgn", &[a.clone(), b.clone()], BrowseFor::PgnFiles),
            "mine.pgn; /home/ana/games/club.pgn; /home/ana/games/more.pgn"
        );
        // Chosen twice: once in the field.
        assert_eq!(
            with_chosen(
                "/home/ana/games/club.pgn",
                std::slice::from_ref(&a),
                BrowseFor::PgnFiles
            ),
            "/home/ana/games/club.pgn"
        );
        assert_eq!(
            with_chosen(
                "games.bin",
                std::slice::from_ref(&b),
                BrowseFor::SaveAs("bin")
            ),
            "/home/ana/games/more.pgn"
        );
        // Cancelled: the typed path stays.
        assert_eq!(
            with_chosen("typed.pgn", &[], BrowseFor::PgnFiles),
            "typed.pgn"
        );
    }
}
