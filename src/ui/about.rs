//! Help → About Hastings: the version, the commit it was built from, the licence, the
//! credits, and the data folder with a button that opens it.

use std::path::Path;

use eframe::egui;
use egui::RichText;

use super::build_info::{CREDITS, LICENCE, VERSION, commit};
use super::open_path::open_or_say;

/// The About window's state: open or not, and what went wrong opening the folder.
#[derive(Debug, Default)]
pub(super) struct About {
    pub(super) open: bool,
    problem: Option<String>,
}

impl About {
    /// Says `problem` (a failure to open something) in the window, and opens it to say
    /// so; `None` clears it.
    pub(super) fn set_problem(&mut self, problem: Option<String>) {
        if problem.is_some() {
            self.open = true;
        }
        self.problem = problem;
    }
}

/// Draws the About window while it is open; `data_dir` is the data folder (none when
/// the system has no home folder).
pub(super) fn about_window_ui(ctx: &egui::Context, about: &mut About, data_dir: Option<&Path>) {
    let mut open = about.open;
    egui::Window::new("About Hastings")
        .id(egui::Id::unique("hastings_about"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.set_max_width(420.0);
            ui.label(RichText::new(format!("Hastings {VERSION}")).heading());
            ui.label(format!("Built from commit {}", commit()));
            ui.add(egui::Label::new("A chess opening trainer.").wrap());
            ui.add(egui::Label::new(LICENCE).wrap());
            ui.add_space(6.0);
            ui.label(RichText::new("Credits").strong());
            for line in CREDITS {
                ui.add(egui::Label::new(line).wrap());
            }
            ui.add_space(6.0);
            ui.label(RichText::new("Your data folder").strong());
            match data_dir {
                Some(dir) => {
                    ui.add(egui::Label::new(dir.display().to_string()).wrap());
                    if ui
                        .button("Open the data folder")
                        .on_hover_text("Settings, progress, analyses and the log live here")
                        .clicked()
                    {
                        about.problem = open_or_say(dir);
                    }
                }
                None => {
                    ui.label("None: this system has no home folder, so nothing is saved.");
                }
            }
            if let Some(problem) = &about.problem {
                ui.add(egui::Label::new(problem.as_str()).wrap());
            }
        });
    about.open = open;
}
