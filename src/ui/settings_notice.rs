//! "Your settings were damaged": the window that says, at start, which settings file
//! was kept aside and which settings were reset (the others were kept), each by the
//! name a player knows it by.

use std::path::Path;

use eframe::egui;

/// The settings notice's text: why the file did not read, where it was kept, and the
/// settings reset, in the window's words.
pub(super) fn settings_notice_text(
    damage: &str,
    kept_aside: Option<&Path>,
    reset: &[String],
) -> String {
    let kept = match kept_aside {
        Some(path) => format!("It was kept as {} so that nothing is lost.", path.display()),
        None => "It could not be kept aside.".to_owned(),
    };
    let reset = if reset.is_empty() {
        "No setting was lost.".to_owned()
    } else {
        let names: Vec<&str> = reset.iter().map(|f| setting_label(f)).collect();
        format!(
            "Reset to their defaults: {}. Every other setting was kept.",
            names.join("; ")
        )
    };
    format!("Your settings file could not be read whole ({damage}). {kept}\n\n{reset}")
}

/// The name a player knows a setting by (a field of
/// [`Settings`](crate::coach::settings::Settings)), as the window labels it; the field's
/// own name when the window has no label for it.
pub fn setting_label(field: &str) -> &str {
    match field {
        "panels" => "Panels shown",
        "learner" => "Your side",
        "style" => "Style (the five preferences, transpositions)",
        "iterations" => "Lines explored (Iterations)",
        "ply_limit" => "Longest explored line (Ply limit)",
        "seed" => "Seed",
        "reply_delay_ms" => "Reply delay",
        "show_arrows" => "Arrows for book moves",
        "orientation" => "Board orientation",
        "book" => "Book sources and filters",
        "hide_answer" => "Hide the answer until I move",
        "animate_moves" => "Moves glide to their square",
        "learner_name" => "Your name in PGN files",
        "adaptive" => "Opponent follows my style",
        "play_on" => "Engine settings for playing on",
        "past_book_plies" => "Past the book (plies)",
        "drill_mode" => "Drill mode (free drill, review, mistakes only)",
        "board_look" => "Board look",
        "sounds" => "Sounds",
        "alternatives_not_mistakes" => "Alternatives that are also good are not mistakes",
        "alternatives_asked_again" => "My other moves: ask for my main move",
        "quiz_all_moves" => "Quiz all my moves here",
        "quiz_replies" => "Quiz the replies I cover",
        "hide_pieces" | "hide_pieces_after" => "Hide the pieces after move",
        "explain_wrong_moves" => "Explain wrong moves with an engine",
        "review_at_position" => "Review starts at the position",
        "new_lines_per_day" => "New lines a day",
        "review_grade" => "When a right answer is Hard",
        "show_human_moves" => "Show what strong players play here",
        "repertoire_file" | "workshop_file" => "The file open in the Repertoire tab",
        "repertoire_train" | "workshop_train" => "What Train this drills",
        "repertoire_explorer" | "workshop_explorer" => "Missing replies from the explorer's games",
        "coverage" => "Coverage: depth, gap size and your name",
        "explorer_index" => "The explorer index open in the Explorer tab",
        "explorer_hide_answer" => "Explorer: Hide while I answer",
        "explorer_evals" => "Explorer: Engine evaluation per move",
        "explorer_players_min" => "Explorer: players with their own tree (fewest games)",
        other => other,
    }
}

/// Draws the notice; returns whether the learner closed it ("OK").
pub(super) fn settings_notice_ui(ctx: &egui::Context, text: &str) -> bool {
    let mut closed = false;
    egui::Window::new("Your settings were damaged")
        .id(egui::Id::unique("hastings_settings_notice"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.set_max_width(420.0);
            ui.add(egui::Label::new(text).wrap());
            ui.add_space(6.0);
            if ui.button("OK").clicked() {
                closed = true;
            }
        });
    closed
}
