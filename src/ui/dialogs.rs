//! Choosing files: the system's file dialog (rfd: the desktop portal, or zenity where
//! there is none) on its own thread so the window keeps drawing, the "how to read these
//! files" window, and a path field when no file dialog exists on the system.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eframe::egui;
use egui::RichText;

use super::command::Command;
use super::import_report::open_dialog_ui;
use crate::book::OpeningLine;
use crate::coach::coverage::CoverageCommand;
use crate::coach::explorer::ExplorerCommand;
use crate::coach::play_on::PlayOnCommand;
use crate::coach::repertoire::RepertoireTarget;
use crate::job::{Job, JobPoll};
use crate::sampler::profile::StyleProfile;
use crate::workspace::FileMode;
use crate::workspace::save_dir::{save_dir, save_path_in};

/// What a file is chosen for: what the choice becomes, and what the dialog and the path
/// field say.
enum Purpose {
    /// PGN files or Polyglot books to load into the book.
    Open,
    /// A PGN file of the learner's games, to compare with the repertoire.
    Games,
    /// An explorer index (a directory) for the Explorer tab.
    Explorer,
    /// Where to export these lines as PGN, and the file name proposed.
    SaveLines(Vec<OpeningLine>, String),
    /// A style profile to load (and maybe the fitted player's games to add).
    LoadProfile { add_games: bool },
    /// Where to save this profile.
    SaveProfile(Box<StyleProfile>),
    /// Where to save the play-on game.
    SaveGame,
    /// A file for the Repertoire tab.
    Repertoire(RepertoireTarget),
    /// A folder whose PGN files are opened.
    Folder,
}

/// How the system's dialog asks.
#[derive(Clone, Copy)]
enum Ask {
    /// Several files to open.
    Files,
    /// One file to open.
    File,
    /// A file to write.
    Save,
    /// A directory to open.
    Folder,
}

/// What the dialog shows: its title, the kind, filters and a proposed file name.
#[derive(Clone)]
struct Spec {
    title: &'static str,
    /// The path field's button.
    button: &'static str,
    ask: Ask,
    filters: &'static [(&'static str, &'static [&'static str])],
    name: String,
}

const PGN: (&str, &[&str]) = ("PGN", &["pgn", "PGN"]);
const PROFILE: (&str, &[&str]) = ("Style profile", &["ron"]);

impl Purpose {
    fn spec(&self) -> Spec {
        let spec = |title, button, ask, filters, name: &str| Spec {
            title,
            button,
            ask,
            filters,
            name: name.to_owned(),
        };
        match self {
            Purpose::Open => spec(
                "Open PGN files or opening books (.bin)",
                "Open",
                Ask::Files,
                &[
                    (
                        "PGN or opening book (Polyglot .bin)",
                        &["pgn", "PGN", "bin", "BIN"],
                    ),
                    PGN,
                    ("Opening book (Polyglot .bin)", &["bin", "BIN"]),
                ],
                "",
            ),
            Purpose::Folder => spec(
                "Open a folder: every PGN file in it is read",
                "Open",
                Ask::Folder,
                &[],
                "",
            ),
            Purpose::Games => spec(
                "Check my games: a PGN file of your games",
                "Check",
                Ask::File,
                &[PGN],
                "",
            ),
            Purpose::Explorer => spec(
                "Open an explorer index (a NAME.explorer folder)",
                "Open",
                Ask::Folder,
                &[],
                "",
            ),
            Purpose::SaveLines(_, name) => spec("Export as PGN", "Save", Ask::Save, &[PGN], name),
            Purpose::LoadProfile { add_games } => spec(
                if *add_games {
                    "Play like…"
                } else {
                    "Load a style profile"
                },
                "Load",
                Ask::File,
                &[PROFILE],
                "",
            ),
            Purpose::SaveProfile(p) => spec(
                "Save the style as a profile",
                "Save",
                Ask::Save,
                &[PROFILE],
                &format!("{}.ron", profile_file_stem(&p.name)),
            ),
            Purpose::SaveGame => spec(
                "Save the game as PGN",
                "Save",
                Ask::Save,
                &[PGN],
                "play-on.pgn",
            ),
            Purpose::Repertoire(RepertoireTarget::Open) => {
                spec("Open a repertoire to edit", "Open", Ask::File, &[PGN], "")
            }
            Purpose::Repertoire(RepertoireTarget::New(side)) => spec(
                "Where to create the new repertoire",
                "Create",
                Ask::Save,
                &[PGN],
                &format!("{}-repertoire.pgn", side.name().to_lowercase()),
            ),
            Purpose::Repertoire(RepertoireTarget::SaveAs) => {
                spec("Save the repertoire as", "Save", Ask::Save, &[PGN], "")
            }
        }
    }

    /// What the chosen files become.
    fn chosen(self, mut paths: Vec<PathBuf>) -> Option<Command> {
        if paths.is_empty() {
            return None;
        }
        Some(match self {
            Purpose::Open | Purpose::Folder => Command::OpenFiles(paths),
            Purpose::Games => {
                Command::Coverage(CoverageCommand::CompareGames(paths.swap_remove(0)))
            }
            Purpose::Explorer => Command::Explorer(ExplorerCommand::Open(paths.swap_remove(0))),
            Purpose::SaveLines(lines, _) => Command::SaveLines(lines, paths.swap_remove(0)),
            Purpose::LoadProfile { add_games } => Command::LoadProfile {
                path: paths.swap_remove(0),
                add_games,
            },
            Purpose::SaveProfile(profile) => Command::SaveProfileTo(profile, paths.swap_remove(0)),
            Purpose::SaveGame => Command::PlayOn(PlayOnCommand::SaveTo(paths.swap_remove(0))),
            Purpose::Repertoire(what) => Command::Repertoire(what.chosen(paths.swap_remove(0))),
        })
    }

    /// What is said when the learner cancelled the dialog.
    fn cancelled(&self) -> Option<Command> {
        match self {
            Purpose::SaveGame => Some(play_on_notice(
                "Not saved (no file chosen); \"Copy PGN\" copies the game.".to_owned(),
            )),
            // As Cancel in "read as": what waited for the file goes on without it.
            Purpose::Open => Some(Command::CancelOpen),
            _ => None,
        }
    }

    /// What is said when the dialog could not run.
    fn failed(&self, why: &str) -> Command {
        match self {
            Purpose::SaveGame => play_on_notice(format!("Cannot save: {why}.")),
            _ => Command::Message(format!("{}: {why}.", self.spec().title)),
        }
    }
}

/// The system's file dialog running on its own thread, when it was opened, and what for.
struct Asking {
    job: Job<Option<Vec<PathBuf>>>,
    opened: Instant,
    purpose: Purpose,
}

/// The path field shown when the system has no file dialog.
struct PathEntry {
    purpose: Purpose,
    text: String,
    /// Whether the field has had the keyboard focus given to it.
    focused: bool,
}

/// The file dialogs and the windows that go with them: every open and save goes through
/// [`Dialogs::choose`], with the same path field where no file dialog exists.
#[derive(Default)]
pub(super) struct Dialogs {
    /// "Read as": the chosen files and the mode picked so far.
    mode: Option<(Vec<PathBuf>, FileMode)>,
    /// A file dialog running on its own thread.
    asking: Option<Asking>,
    path_entry: Option<PathEntry>,
    /// Never open the system's dialog: always the path field (tests, and systems where
    /// it is known not to work).
    path_field_only: bool,
    /// Commands to hand over at the next poll (a dialog that could not start).
    pending: Vec<Command>,
    /// The mode the next "read as" starts with.
    next_mode: Option<FileMode>,
}

impl Dialogs {
    /// Asks how to read `paths` ("Decide from the file" chosen, or the mode said
    /// before: [`Dialogs::read_next_as`]).
    pub(super) fn ask_mode(&mut self, paths: Vec<PathBuf>) {
        let mode = self.next_mode.take().unwrap_or(FileMode::Auto);
        self.mode = Some((paths, mode));
    }

    /// The next "read as" starts with `mode` chosen (Start here's "My repertoire": the
    /// learner said what the file is, it is not asked again).
    pub(super) fn read_next_as(&mut self, mode: FileMode) {
        self.next_mode = Some(mode);
    }

    /// Closes the "read as" window.
    pub(super) fn close_mode(&mut self) {
        self.mode = None;
    }

    /// Whether a window of these dialogs is open ("read as", the path field): the keys
    /// that type are theirs, not the shortcuts'.
    pub(super) fn is_open(&self) -> bool {
        self.mode.is_some() || self.path_entry.is_some()
    }

    /// Whether a file dialog is open (a second one is not started).
    pub(super) fn is_choosing(&self) -> bool {
        self.asking.is_some()
    }

    /// From now on, the path field instead of the system's file dialog.
    pub(super) fn use_path_field_only(&mut self) {
        self.path_field_only = true;
    }

    fn ask_path(&mut self, purpose: Purpose) {
        let spec = purpose.spec();
        // A file to write is proposed with its whole path, in the folder it will go to.
        let text = match spec.ask {
            Ask::Save if !spec.name.is_empty() => {
                save_path_in(Path::new(&spec.name), save_dir().as_deref())
                    .display()
                    .to_string()
            }
            _ => spec.name,
        };
        self.path_entry = Some(PathEntry {
            purpose,
            text,
            focused: false,
        });
    }

    /// Opens the system's file dialog for `purpose` on its own thread (the window keeps
    /// drawing); the path field where there is none.
    fn choose(&mut self, ctx: &egui::Context, purpose: Purpose) {
        if self.asking.is_some() {
            return;
        }
        if self.path_field_only {
            self.ask_path(purpose);
            return;
        }
        let spec = purpose.spec();
        let job = Job::spawn("file-dialog", repaint(ctx), move |_| {
            let mut dialog = rfd::FileDialog::new().set_title(spec.title);
            for (name, extensions) in spec.filters {
                dialog = dialog.add_filter(*name, extensions);
            }
            if !spec.name.is_empty() {
                dialog = dialog.set_file_name(&spec.name);
            }
            // A file to write starts in the documents folder's Hastings (made if need be).
            if let (Ask::Save, Some(dir)) = (spec.ask, save_dir())
                && std::fs::create_dir_all(&dir).is_ok()
            {
                dialog = dialog.set_directory(dir);
            }
            match spec.ask {
                Ask::Files => dialog.pick_files(),
                Ask::File => dialog.pick_file().map(|p| vec![p]),
                Ask::Save => dialog.save_file().map(|p| vec![p]),
                Ask::Folder => dialog.pick_folder().map(|p| vec![p]),
            }
        });
        match job {
            Ok(job) => {
                self.asking = Some(Asking {
                    job,
                    opened: Instant::now(),
                    purpose,
                });
            }
            Err(_) => self.ask_path(purpose),
        }
    }

    /// Opens the file dialog for a file of the Repertoire tab.
    pub(super) fn start_repertoire_dialog(&mut self, ctx: &egui::Context, what: RepertoireTarget) {
        self.choose(ctx, Purpose::Repertoire(what));
    }

    /// Opens the file dialog for PGN files and Polyglot books.
    pub(super) fn start_file_dialog(&mut self, ctx: &egui::Context) {
        self.choose(ctx, Purpose::Open);
    }

    /// Opens the folder dialog for a folder of PGN files.
    pub(super) fn start_folder_dialog(&mut self, ctx: &egui::Context) {
        self.choose(ctx, Purpose::Folder);
    }

    /// Opens the file dialog for one PGN file of the learner's games.
    pub(super) fn start_games_dialog(&mut self, ctx: &egui::Context) {
        self.choose(ctx, Purpose::Games);
    }

    /// Opens the folder dialog for an explorer index.
    pub(super) fn start_explorer_dialog(&mut self, ctx: &egui::Context) {
        self.choose(ctx, Purpose::Explorer);
    }

    /// Asks where to export `lines`; the coach writes them there.
    pub(super) fn start_export(
        &mut self,
        ctx: &egui::Context,
        lines: Vec<OpeningLine>,
        name: String,
    ) {
        self.choose(ctx, Purpose::SaveLines(lines, name));
    }

    /// Asks where to save the play-on game; the coach writes it there.
    pub(super) fn start_game_save(&mut self, ctx: &egui::Context) {
        self.choose(ctx, Purpose::SaveGame);
    }

    /// Asks for a style profile to load; `add_games` goes with the choice.
    pub(super) fn start_profile_load(&mut self, ctx: &egui::Context, add_games: bool) {
        self.choose(ctx, Purpose::LoadProfile { add_games });
    }

    /// Asks where to save `profile`; the coach writes it there.
    pub(super) fn start_profile_save(&mut self, ctx: &egui::Context, profile: StyleProfile) {
        self.choose(ctx, Purpose::SaveProfile(Box::new(profile)));
    }

    /// Takes what the dialogs brought: commands for the app (files to open, messages).
    /// Dropped files are asked about like chosen ones.
    pub(super) fn poll(&mut self, ctx: &egui::Context) -> Vec<Command> {
        let mut commands = std::mem::take(&mut self.pending);
        if let Some(asking) = &self.asking {
            let polled = asking.job.poll();
            if !matches!(polled, JobPoll::Running)
                && let Some(Asking {
                    opened, purpose, ..
                }) = self.asking.take()
            {
                match polled {
                    JobPoll::Running => {}
                    JobPoll::Finished(Some(paths)) if !paths.is_empty() => {
                        commands.extend(purpose.chosen(paths));
                    }
                    JobPoll::Finished(_) => {
                        if no_file_dialog(opened.elapsed()) {
                            self.ask_path(purpose);
                        } else {
                            commands.extend(purpose.cancelled());
                        }
                    }
                    JobPoll::Died(e) => commands.push(purpose.failed(&e.to_string())),
                }
            }
        }
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        if !dropped.is_empty() {
            commands.push(Command::OpenFiles(dropped));
        }
        commands
    }

    /// The windows: "read as" and the path field.
    pub(super) fn windows_ui(&mut self, ctx: &egui::Context, commands: &mut Vec<Command>) {
        // The path fields' Browse… buttons open no system dialog either.
        ctx.data_mut(|d| {
            d.insert_temp(
                egui::Id::unique(super::browse::NO_DIALOG),
                self.path_field_only,
            );
        });
        if let Some((paths, mode)) = &mut self.mode {
            open_dialog_ui(ctx, paths, mode, commands);
        }
        let Some(entry) = &mut self.path_entry else {
            return;
        };
        let spec = entry.purpose.spec();
        let mut done = None;
        egui::Window::new(spec.title)
            .id(egui::Id::unique("path_entry"))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(ctx, |ui| {
                // As wide as its title: a narrower window cuts it ("Open an explorer
                // index (a NAME.ex…").
                let title = egui::WidgetText::from(spec.title).into_galley(
                    ui,
                    Some(egui::TextWrapMode::Extend),
                    f32::INFINITY,
                    egui::TextStyle::Heading,
                );
                let width = title.size().x.max(320.0);
                ui.set_min_width(width);
                if !self.path_field_only {
                    ui.add(
                        egui::Label::new(
                            RichText::new(
                                "No file dialog is available on this system (no desktop \
                                 portal and no zenity). Type the file's path:",
                            )
                            .italics(),
                        )
                        .wrap(),
                    );
                }
                let label = ui.label("Path");
                let field = ui
                    .add(egui::TextEdit::singleline(&mut entry.text).desired_width(width))
                    .labelled_by(label.id);
                if !entry.focused {
                    field.request_focus();
                    entry.focused = true;
                }
                let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                ui.horizontal(|ui| {
                    if ui.button(spec.button).clicked() || enter {
                        done = Some(true);
                    }
                    if ui.button("Cancel").clicked() {
                        done = Some(false);
                    }
                });
            });
        match done {
            Some(true) if !entry.text.trim().is_empty() => {
                let typed = PathBuf::from(entry.text.trim());
                // A name alone goes into the save folder (not the process's folder);
                // the folder is made if it is not there yet.
                let path = match spec.ask {
                    Ask::Save => {
                        let path = save_path_in(&typed, save_dir().as_deref());
                        if let Some(parent) = path.parent() {
                            let _ = std::fs::create_dir_all(parent);
                        }
                        path
                    }
                    _ => std::path::absolute(&typed).unwrap_or(typed),
                };
                if let Some(entry) = self.path_entry.take() {
                    commands.extend(entry.purpose.chosen(vec![path]));
                }
            }
            Some(false) => {
                if let Some(entry) = self.path_entry.take() {
                    commands.extend(entry.purpose.cancelled());
                }
            }
            _ => {}
        }
    }

    /// Shows the path field for opening a PGN file (what happens when the system has no
    /// file dialog).
    pub(super) fn ask_open_path(&mut self) {
        self.ask_path(Purpose::Open);
    }

    /// Shows the path field for loading a profile (as when no file dialog exists).
    pub(super) fn ask_profile_load_path(&mut self, add_games: bool) {
        self.ask_path(Purpose::LoadProfile { add_games });
    }
}

/// A notice for the play-on panel.
fn play_on_notice(text: String) -> Command {
    Command::PlayOn(PlayOnCommand::Notice(text))
}

/// A file name for a profile: its name with letters, digits and dashes only.
fn profile_file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let stem = stem.trim_matches('-').to_owned();
    if stem.is_empty() {
        "style".to_owned()
    } else {
        stem
    }
}

fn repaint(ctx: &egui::Context) -> crate::job::Wake {
    let ctx = ctx.clone();
    std::sync::Arc::new(move || ctx.request_repaint())
}

/// Whether a dialog that returned no file never showed: rfd gives nothing both when the
/// learner cancels and when no dialog exists (no desktop portal, no zenity).
fn no_file_dialog(open_for: Duration) -> bool {
    dialog_missing(
        program_on_path("zenity"),
        std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some(),
        open_for,
    )
}

/// The rule of [`no_file_dialog`]: without zenity, a dialog that came back at once (no
/// one cancels a dialog in half a second) or with no session bus (so no portal) never
/// showed.
fn dialog_missing(zenity: bool, session_bus: bool, open_for: Duration) -> bool {
    !zenity && (!session_bus || open_for < Duration::from_millis(500))
}

/// Whether an executable named `name` is in one of the `PATH` directories.
fn program_on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(name).is_file()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests may panic

    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable as _;

    use super::*;
    use crate::coach::settings::Side;
    use crate::sampler::Style;

    /// Every purpose a path field can be asked for.
    fn purposes() -> Vec<Purpose> {
        vec![
            Purpose::Open,
            Purpose::Games,
            Purpose::Explorer,
            Purpose::SaveLines(Vec::new(), "lines.pgn".to_owned()),
            Purpose::LoadProfile { add_games: false },
            Purpose::LoadProfile { add_games: true },
            Purpose::SaveProfile(Box::new(StyleProfile::manual("Mine", Style::default()))),
            Purpose::SaveGame,
            Purpose::Repertoire(RepertoireTarget::Open),
            Purpose::Repertoire(RepertoireTarget::New(Side::White)),
            Purpose::Repertoire(RepertoireTarget::SaveAs),
            Purpose::Folder,
        ]
    }

    /// Issue 41, item 12: "Open an explorer index (a NAME.ex…" — the path field's
    /// window cut its title at 800×600. Every title is whole: its text as wide as the
    /// title laid out on one line, inside the window.
    #[test]
    fn every_path_window_shows_its_whole_title_at_800_by_600() {
        for purpose in purposes() {
            let title = purpose.spec().title;
            let mut dialogs = Dialogs {
                path_field_only: true,
                ..Dialogs::default()
            };
            dialogs.ask_path(purpose);
            let mut harness = Harness::builder()
                .with_size(egui::vec2(800.0, 600.0))
                .build_ui(move |ui| dialogs.windows_ui(ui.ctx(), &mut Vec::new()));
            harness.run();
            let font = egui::TextStyle::Heading.resolve(&harness.ctx.global_style());
            let full = harness.ctx.fonts_mut(|f| {
                f.layout_no_wrap(title.to_owned(), font, egui::Color32::WHITE)
                    .size()
                    .x
            });
            let margins = harness.ctx.global_style().spacing.window_margin.sum().x;
            // The window is named by its title.
            let window = harness.get_by_label(title).rect();
            assert!(
                window.width() + 0.5 >= full + margins,
                "{title:?}: the window {window:?}, the title {full} wide on one line"
            );
            assert!(
                window.min.x >= 0.0 && window.max.x <= 800.0,
                "{title:?} at {window:?}"
            );
        }
    }

    #[test]
    fn a_dialog_is_missing_only_without_zenity_and_without_a_portal_or_at_once() {
        let slow = Duration::from_secs(5);
        let fast = Duration::from_millis(20);
        assert!(
            dialog_missing(false, false, slow),
            "no zenity, no session bus"
        );
        assert!(
            dialog_missing(false, true, fast),
            "a portal that failed at once"
        );
        assert!(
            !dialog_missing(false, true, slow),
            "the learner cancelled a portal"
        );
        assert!(!dialog_missing(true, false, fast), "zenity shows a dialog");
    }
}
