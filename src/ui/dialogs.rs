//! Choosing files: the system's file dialog (rfd: the desktop portal, or zenity where
//! there is none) on its own thread so the window keeps drawing, the "how to read these
//! files" window, and a path field when no file dialog exists on the system.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use eframe::egui;
use egui::RichText;

use super::command::Command;
use super::import_report::open_dialog_ui;
use crate::book::OpeningLine;
use crate::coach::play_on::PlayOnCommand;
use crate::job::{Job, JobPoll};
use crate::sampler::profile::StyleProfile;
use crate::workspace::FileMode;

/// What a save dialog brought.
enum Saved {
    /// Where to write the lines.
    Chosen(Vec<OpeningLine>, PathBuf),
    /// No file was chosen: the lines come back, in case no dialog could be shown.
    NoFile(Vec<OpeningLine>, String),
}

/// What the path field is for.
enum PathPurpose {
    Open,
    Save(Vec<OpeningLine>),
    /// A file of the learner's games, to compare with the repertoire.
    Games,
    /// Load a style profile (and maybe add the fitted player's games).
    LoadProfile {
        add_games: bool,
    },
    /// Save this profile.
    SaveProfile(Box<StyleProfile>),
}

/// What a profile dialog brought.
enum ProfileDone {
    /// A file to load was chosen (or none).
    Load(Option<PathBuf>, bool),
    /// Where to write the profile.
    SaveTo(Box<StyleProfile>, PathBuf),
    /// No file was chosen for saving: the profile comes back.
    SaveNoFile(Box<StyleProfile>),
}

/// A file dialog running on its own thread: its answer, when it was opened, and what for.
type Picking = (Job<Option<Vec<PathBuf>>>, Instant, Pick);

/// What a file dialog chooses files for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pick {
    /// PGN files to load into the book.
    Open,
    /// A PGN file of the learner's games (Coverage tab).
    Games,
}

/// The path field shown when the system has no file dialog.
struct PathEntry {
    purpose: PathPurpose,
    text: String,
    /// Whether the field was given the keyboard (when the window first shows).
    focused: bool,
}

impl PathEntry {
    fn new(purpose: PathPurpose, text: String) -> PathEntry {
        PathEntry {
            purpose,
            text,
            focused: false,
        }
    }
}

/// The file dialogs and the windows that go with them.
#[derive(Default)]
pub(super) struct Dialogs {
    /// "Read as": the chosen files and the mode picked so far.
    mode: Option<(Vec<PathBuf>, FileMode)>,
    /// A file dialog running on its own thread, and when it was opened.
    picking: Option<Picking>,
    /// A save dialog (and the writing) running on its own thread.
    saving: Option<(Job<Saved>, Instant)>,
    /// A profile dialog (load or save) running on its own thread.
    profile: Option<(Job<ProfileDone>, Instant)>,
    /// A dialog saving the play-on game, running on its own thread.
    game: Option<Job<Option<PathBuf>>>,
    path_entry: Option<PathEntry>,
    /// Commands to hand over at the next poll (a dialog that could not start).
    pending: Vec<Command>,
}

impl Dialogs {
    /// Asks how to read `paths`.
    pub(super) fn ask_mode(&mut self, paths: Vec<PathBuf>) {
        self.mode = Some((paths, FileMode::Auto));
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
        self.picking.is_some()
    }

    /// Shows the path field for opening a file (what happens when the system has no
    /// file dialog).
    pub(super) fn ask_path(&mut self) {
        self.path_entry = Some(PathEntry::new(PathPurpose::Open, String::new()));
    }

    /// Opens the system's file dialog for PGN files and Polyglot books on its own thread.
    pub(super) fn start_file_dialog(&mut self, ctx: &egui::Context) {
        let wake = repaint(ctx);
        let job = Job::spawn("open", wake, |_| {
            rfd::FileDialog::new()
                .set_title("Open PGN files or Polyglot books")
                .add_filter("PGN or Polyglot book", &["pgn", "PGN", "bin", "BIN"])
                .add_filter("PGN", &["pgn", "PGN"])
                .add_filter("Polyglot book", &["bin", "BIN"])
                .pick_files()
        });
        match job {
            Ok(job) => self.picking = Some((job, Instant::now(), Pick::Open)),
            Err(_) => self.ask_path(),
        }
    }

    /// Opens the system's file dialog for one PGN file of the learner's games (to
    /// compare with the repertoire) on its own thread.
    pub(super) fn start_games_dialog(&mut self, ctx: &egui::Context) {
        let wake = repaint(ctx);
        let job = Job::spawn("open", wake, |_| {
            rfd::FileDialog::new()
                .set_title("Check my games: a PGN file of your games")
                .add_filter("PGN", &["pgn", "PGN"])
                .pick_file()
                .map(|p| vec![p])
        });
        match job {
            Ok(job) => self.picking = Some((job, Instant::now(), Pick::Games)),
            Err(_) => self.ask_games_path(),
        }
    }

    fn ask_games_path(&mut self) {
        self.path_entry = Some(PathEntry::new(PathPurpose::Games, String::new()));
    }

    /// Asks where to save `lines` (on a thread) and writes them there as PGN.
    pub(super) fn start_export(
        &mut self,
        ctx: &egui::Context,
        lines: Vec<OpeningLine>,
        name: String,
    ) {
        let wake = repaint(ctx);
        let job = Job::spawn("export", wake, move |_| {
            let chosen = rfd::FileDialog::new()
                .set_title("Export as PGN")
                .add_filter("PGN", &["pgn"])
                .set_file_name(&name)
                .save_file();
            match chosen {
                Some(path) => Saved::Chosen(lines, path),
                None => Saved::NoFile(lines, name),
            }
        });
        match job {
            Ok(job) => self.saving = Some((job, Instant::now())),
            Err(e) => self
                .pending
                .push(Command::Message(format!("Cannot export: {e}."))),
        }
    }

    /// Asks where to save the play-on game (on a thread); the coach writes it there.
    pub(super) fn start_game_save(&mut self, ctx: &egui::Context) {
        let job = Job::spawn("save-game", repaint(ctx), move |_| {
            rfd::FileDialog::new()
                .set_title("Save the game as PGN")
                .add_filter("PGN", &["pgn"])
                .set_file_name("play-on.pgn")
                .save_file()
        });
        match job {
            Ok(job) => self.game = Some(job),
            Err(e) => self
                .pending
                .push(play_on_notice(format!("Cannot save: {e}."))),
        }
    }

    /// Asks for a style profile to load, on a thread; `add_games` goes with the choice.
    pub(super) fn start_profile_load(&mut self, ctx: &egui::Context, add_games: bool) {
        let job = Job::spawn("profile", repaint(ctx), move |_| {
            let chosen = rfd::FileDialog::new()
                .set_title(if add_games {
                    "Play like…"
                } else {
                    "Load a style profile"
                })
                .add_filter("Style profile", &["ron"])
                .pick_file();
            ProfileDone::Load(chosen, add_games)
        });
        match job {
            Ok(job) => self.profile = Some((job, Instant::now())),
            Err(_) => self.ask_profile_path(PathPurpose::LoadProfile { add_games }),
        }
    }

    /// Asks where to save `profile` (on a thread) and writes it there.
    pub(super) fn start_profile_save(&mut self, ctx: &egui::Context, profile: StyleProfile) {
        let name = format!("{}.ron", profile_file_stem(&profile.name));
        let job = Job::spawn("profile", repaint(ctx), move |_| {
            let chosen = rfd::FileDialog::new()
                .set_title("Save the style as a profile")
                .add_filter("Style profile", &["ron"])
                .set_file_name(&name)
                .save_file();
            match chosen {
                Some(path) => ProfileDone::SaveTo(Box::new(profile), path),
                None => ProfileDone::SaveNoFile(Box::new(profile)),
            }
        });
        match job {
            Ok(job) => self.profile = Some((job, Instant::now())),
            Err(e) => self
                .pending
                .push(Command::Message(format!("Cannot save the profile: {e}."))),
        }
    }

    fn ask_profile_path(&mut self, purpose: PathPurpose) {
        let text = match &purpose {
            PathPurpose::SaveProfile(p) => format!("{}.ron", profile_file_stem(&p.name)),
            _ => String::new(),
        };
        self.path_entry = Some(PathEntry::new(purpose, text));
    }

    /// Shows the path field for loading a profile (as when no file dialog exists).
    pub(super) fn ask_profile_load_path(&mut self, add_games: bool) {
        self.ask_profile_path(PathPurpose::LoadProfile { add_games });
    }

    fn poll_profile(&mut self, commands: &mut Vec<Command>) {
        let Some((job, opened)) = &self.profile else {
            return;
        };
        let missing = no_file_dialog(opened.elapsed());
        match job.poll() {
            JobPoll::Running => return,
            JobPoll::Finished(ProfileDone::Load(Some(path), add_games)) => {
                commands.push(Command::LoadProfile { path, add_games });
            }
            JobPoll::Finished(ProfileDone::Load(None, add_games)) => {
                if missing {
                    self.ask_profile_path(PathPurpose::LoadProfile { add_games });
                }
            }
            JobPoll::Finished(ProfileDone::SaveTo(profile, path)) => {
                commands.push(Command::SaveProfileTo(profile, path));
            }
            JobPoll::Finished(ProfileDone::SaveNoFile(profile)) => {
                if missing {
                    self.ask_profile_path(PathPurpose::SaveProfile(profile));
                }
            }
            JobPoll::Died(e) => commands.push(Command::Message(format!("{e}."))),
        }
        self.profile = None;
    }

    /// Takes what the dialogs brought: commands for the app (files to open, messages).
    /// Dropped files are asked about like chosen ones.
    pub(super) fn poll(&mut self, ctx: &egui::Context) -> Vec<Command> {
        let mut commands = std::mem::take(&mut self.pending);
        if let Some(job) = &self.game {
            match job.poll() {
                JobPoll::Running => {}
                JobPoll::Finished(Some(path)) => {
                    self.game = None;
                    commands.push(Command::PlayOn(PlayOnCommand::SaveTo(path)));
                }
                JobPoll::Finished(None) => {
                    self.game = None;
                    commands.push(play_on_notice(
                        "Not saved (no file chosen); \"Copy PGN\" copies the game.".to_owned(),
                    ));
                }
                JobPoll::Died(e) => {
                    self.game = None;
                    commands.push(play_on_notice(format!("Cannot save: {e}.")));
                }
            }
        }
        if let Some((job, opened, pick)) = &self.picking {
            let pick = *pick;
            match job.poll() {
                JobPoll::Running => {}
                JobPoll::Finished(Some(mut paths)) if !paths.is_empty() => {
                    self.picking = None;
                    commands.push(match pick {
                        Pick::Open => Command::OpenFiles(paths),
                        Pick::Games => Command::CompareGames(paths.swap_remove(0)),
                    });
                }
                JobPoll::Finished(_) | JobPoll::Died(_) => {
                    if no_file_dialog(opened.elapsed()) {
                        match pick {
                            Pick::Open => self.ask_path(),
                            Pick::Games => self.ask_games_path(),
                        }
                    }
                    self.picking = None;
                }
            }
        }
        if let Some((job, opened)) = &self.saving {
            match job.poll() {
                JobPoll::Running => {}
                JobPoll::Finished(Saved::Chosen(lines, path)) => {
                    self.saving = None;
                    commands.push(Command::SaveLines(lines, path));
                }
                JobPoll::Finished(Saved::NoFile(lines, name)) => {
                    if no_file_dialog(opened.elapsed()) {
                        self.path_entry = Some(PathEntry::new(PathPurpose::Save(lines), name));
                    }
                    self.saving = None;
                }
                JobPoll::Died(e) => {
                    self.saving = None;
                    commands.push(Command::Message(format!("Cannot export: {e}.")));
                }
            }
        }
        self.poll_profile(&mut commands);
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
        if let Some((paths, mode)) = &mut self.mode {
            open_dialog_ui(ctx, paths, mode, commands);
        }
        let Some(entry) = &mut self.path_entry else {
            return;
        };
        let (title, button) = match entry.purpose {
            PathPurpose::Open => ("Open a PGN file", "Open"),
            PathPurpose::Save(_) => ("Export as PGN", "Save"),
            PathPurpose::Games => ("Check my games", "Check"),
            PathPurpose::LoadProfile { .. } => ("Load a style profile", "Load"),
            PathPurpose::SaveProfile(_) => ("Save the style as a profile", "Save"),
        };
        let mut done = None;
        egui::Window::new(title)
            .id(egui::Id::unique("path_entry"))
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.label(
                    RichText::new(
                        "No file dialog is available on this system (no desktop portal and \
                         no zenity). Type the file's path:",
                    )
                    .italics(),
                );
                let label = ui.label("Path");
                let field = ui
                    .add(egui::TextEdit::singleline(&mut entry.text).desired_width(320.0))
                    .labelled_by(label.id);
                // Typing goes to the field as soon as the window shows.
                if !entry.focused {
                    field.request_focus();
                    entry.focused = true;
                }
                let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                ui.horizontal(|ui| {
                    if ui.button(button).clicked() || enter {
                        done = Some(true);
                    }
                    if ui.button("Cancel").clicked() {
                        done = Some(false);
                    }
                });
            });
        match done {
            Some(true) if !entry.text.trim().is_empty() => {
                let path = PathBuf::from(entry.text.trim());
                if let Some(entry) = self.path_entry.take() {
                    match entry.purpose {
                        PathPurpose::Open => commands.push(Command::OpenFiles(vec![path])),
                        PathPurpose::Save(lines) => commands.push(Command::SaveLines(lines, path)),
                        PathPurpose::Games => commands.push(Command::CompareGames(path)),
                        PathPurpose::LoadProfile { add_games } => {
                            commands.push(Command::LoadProfile { path, add_games });
                        }
                        PathPurpose::SaveProfile(profile) => {
                            commands.push(Command::SaveProfileTo(profile, path));
                        }
                    }
                }
            }
            Some(false) => self.path_entry = None,
            _ => {}
        }
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
    use super::*;

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
