//! The style panel: the presets, the five parameters, where popularity comes from, an
//! "Advanced" fold (τ and the exploration settings), and the board's look. Labels are
//! in a club player's words, the exact term in the hover text (`docs/labels.md`).

use eframe::egui;
use egui::{RichText, Ui, WidgetInfo};

use super::board_look_panel::board_look_ui;
use super::command::Command;
use crate::book::Flag;
use crate::coach::settings::Settings;
use crate::sampler::{Popularity, Style};
use crate::workspace::books::books_label;

/// Draws the style panel. A changed style is pushed as [`Command::SetStyle`]; the
/// exploration settings (iterations, ply limit, seed) and the board's look are edited in
/// place.
///
/// `last_seed` is the seed the current drill was started with, shown under the field.
pub fn style_panel_ui(
    ui: &mut Ui,
    settings: &mut Settings,
    last_seed: Option<u64>,
    commands: &mut Vec<Command>,
) {
    ui.heading("Style");
    ui.label("Steer the computer's replies towards the lines you want to practise.");
    ui.add_space(4.0);

    let mut style = settings.style.clone();
    let mut changed = false;

    let label = ui.label("Preset");
    egui::ComboBox::from_id_salt("style_preset")
        .selected_text(preset_name(&style))
        .width(ui.available_width() - 8.0)
        .show_ui(ui, |ui| {
            for preset in Style::presets() {
                let selected = preset.style == style;
                if ui
                    .selectable_label(selected, preset.name)
                    .on_hover_text(preset_hover(preset.detail))
                    .clicked()
                    && !selected
                {
                    style = preset.style;
                    changed = true;
                }
            }
        })
        .response
        .labelled_by(label.id);
    ui.add_space(4.0);

    // Each parameter: its checkbox, then its weight slider across the panel.
    ui.spacing_mut().slider_width = (ui.available_width() - 70.0).max(60.0);
    for flag in Flag::ALL {
        let param = style.param(flag);
        let mut enabled = param.enabled;
        let what = flag.label().to_lowercase();
        if ui
            .checkbox(&mut enabled, flag.label())
            .on_hover_text(format!(
                "Prefer {what}: the weight is added to the acceptance of a move in proportion \
                 to the share of its lines that are {what}"
            ))
            .changed()
        {
            style.set_enabled(flag, enabled);
            changed = true;
        }
        let mut weight = param.weight;
        let name = format!("{} weight", flag.label());
        let r = ui.add_enabled(
            enabled,
            egui::Slider::new(&mut weight, 0.0..=1.0)
                .step_by(0.05)
                .fixed_decimals(2),
        );
        r.widget_info(|| slider_info(&name, weight, enabled));
        if r.changed() && style.set_weight(flag, weight).is_ok() {
            changed = true;
        }
    }
    ui.separator();
    popularity_ui(ui, settings, commands);

    ui.separator();
    // The researcher's controls, folded away under the five sliders; egui keeps the
    // fold's state with the window's (saved between runs).
    super::folding::advanced_fold_ui(ui, "style_advanced", |ui| {
        if tau_ui(ui, &mut style) {
            changed = true;
        }
        exploration_ui(ui, settings, last_seed);
    });
    if changed {
        commands.push(Command::SetStyle(style));
    }

    ui.separator();
    let label = ui.label("Reply delay (ms)");
    ui.add(
        egui::DragValue::new(&mut settings.reply_delay_ms)
            .range(0..=5000)
            .speed(10),
    )
    .labelled_by(label.id)
    .on_hover_text("How long the computer waits before it replies");
    ui.checkbox(&mut settings.show_arrows, "Arrows for book moves")
        .on_hover_text("Draw the book moves of the position as arrows, thicker when more likely");
    ui.checkbox(
        &mut settings.explain_wrong_moves,
        "Explain wrong moves with an engine",
    )
    .on_hover_text(
        "A move outside the book is judged against the book's main move (also good, \
         inaccuracy, mistake, blunder) and the engine's line after it shown (called a \
         refutation when it wins something); the engine analyses the book moves while you \
         think, so the verdict comes at once",
    );
    ui.checkbox(
        &mut settings.show_human_moves,
        "Show what strong players play here",
    )
    .on_hover_text(
        "Under the chart, and after a move outside the book: the moves a network trained on \
         146,000 master games expects strong players to play at the position, with their \
         shares",
    );
    ui.checkbox(
        &mut settings.alternatives_not_mistakes,
        "Alternatives that are also good are not mistakes",
    )
    .on_hover_text(
        "When the engine finds your move outside the book as good as the book move, it is \
         not counted as a mistake (nor, in review, as a lapse)",
    );
    ui.checkbox(
        &mut settings.alternatives_asked_again,
        "My other moves: ask for my main move",
    )
    .on_hover_text(
        "Alternatives asked again: in your repertoire, a move after the main one at its \
         position (an alternative, [%hastings alt]) is not kept: the drill names your main move and asks again. \
         Off: it counts as right and the drill names your main move",
    );
    ui.checkbox(&mut settings.quiz_all_moves, "Quiz all my moves here")
        .on_hover_text(
            "Quiz all moves: where your repertoire has two or more moves for you (not paused), \
         the drill asks until you have played each of them",
        );
    ui.checkbox(&mut settings.quiz_replies, "Quiz the replies I cover")
        .on_hover_text(
            "Replies quiz: in your repertoire, before the computer moves, play each reply \
             of your opponent's that your repertoire answers; then the computer plays one",
        );
    super::board_panel::blindfold_setting_ui(ui, settings);
    ui.checkbox(
        &mut settings.review_at_position,
        "Review: start each card at its position",
    )
    .on_hover_text(
        "Review mode jumps to the card's position, the moves before it played at once, \
         instead of replaying the line from move 1",
    );
    super::review_session::review_settings_ui(ui, settings);

    ui.separator();
    board_look_ui(ui, &mut settings.board_look);
}

/// The weight of moves that transpose (τ); whether it changed.
fn tau_ui(ui: &mut Ui, style: &mut Style) -> bool {
    let name = "Moves that transpose";
    ui.label(name).on_hover_text(
        "Transpositions τ: how much weight moves get that transpose into another book line \
         (0: none)",
    );
    let mut tau = style.tau();
    let r = ui.add(
        egui::Slider::new(&mut tau, 0.0..=1.0)
            .step_by(0.05)
            .fixed_decimals(2),
    );
    r.widget_info(|| slider_info(name, tau, true));
    r.changed() && style.set_tau(tau).is_ok()
}

/// What Explore samples: how many lines, how long, from which seed.
fn exploration_ui(ui: &mut Ui, settings: &mut Settings, last_seed: Option<u64>) {
    ui.label(RichText::new("Explore").strong());
    egui::Grid::new("explore_settings")
        .num_columns(2)
        .spacing([8.0, 6.0])
        .show(ui, |ui| {
            let label = ui.label("Lines to explore");
            ui.add(
                egui::DragValue::new(&mut settings.iterations)
                    .range(1..=100_000)
                    .speed(10),
            )
            .labelled_by(label.id)
            .on_hover_text("Iterations: how many lines Explore samples");
            ui.end_row();
            let label = ui.label("Longest line (half-moves)");
            ui.add(egui::DragValue::new(&mut settings.ply_limit).range(1..=200))
                .labelled_by(label.id)
                .on_hover_text("Ply limit: the most half-moves (plies) a sampled line plays");
            ui.end_row();
            let label = ui.label("Repeat number");
            ui.add(
                egui::TextEdit::singleline(&mut settings.seed)
                    .hint_text("random")
                    .desired_width(120.0),
            )
            .labelled_by(label.id)
            .on_hover_text(
                "Seed: a number makes drills and explorations repeatable; empty = random",
            );
            ui.end_row();
        });
    if !settings.seed.trim().is_empty() && settings.fixed_seed().is_none() {
        ui.colored_label(
            ui.visuals().error_fg_color,
            "The repeat number must be a whole number.",
        );
    }
    if let Some(seed) = last_seed {
        ui.label(format!("Repeat number in use: {seed}"))
            .on_hover_text("The seed the current drill was started with");
    }
}

/// Where popularity comes from: the lines, a games book, or a blend. A
/// change is pushed as [`Command::SetBook`].
fn popularity_ui(ui: &mut Ui, settings: &Settings, commands: &mut Vec<Command>) {
    let current = settings.book.popularity;
    let mut chosen = current;
    ui.label(RichText::new("How the computer picks its replies").strong())
        .on_hover_text(
            "Popularity: what makes a reply likely — how many book lines play it, how often \
             masters played it (a Polyglot games book), or a mix",
        );
    ui.horizontal_wrapped(|ui| {
        if ui
            .radio(matches!(current, Popularity::Lines), "As the book's lines")
            .on_hover_text(
                "Book lines: the lines of the book (ECO, your files), each counted once, as \
                 the research study Hastings's opponent is built on counts them",
            )
            .clicked()
        {
            chosen = Popularity::Lines;
        }
        if ui
            .radio(matches!(current, Popularity::Games), "As masters play")
            .on_hover_text(
                "Games book: the weights of a Polyglot games book (master games); the drill \
                 goes on past the end of the lines",
            )
            .clicked()
        {
            chosen = Popularity::Games;
        }
        if ui
            .radio(
                matches!(current, Popularity::Blend(_)),
                "Mostly as masters play",
            )
            .on_hover_text(
                "Blend: the games book's weights and the lines' mixed (the default, 0.8 of \
                 the games book; a repertoire you never chose this for keeps its own lines)",
            )
            .clicked()
            && !matches!(current, Popularity::Blend(_))
        {
            chosen = Popularity::RECOMMENDED;
        }
    });
    if let Popularity::Blend(l) = current {
        let mut lambda = l;
        // The name on its own line, as the other sliders: beside the slider it would
        // stick out of the panel (and widen everything under it).
        let hover = "λ, the games book's part: 0 = the lines only, 1 = the book only";
        ui.label("Games book's share").on_hover_text(hover);
        let r = ui
            .add(egui::Slider::new(&mut lambda, 0.0..=1.0))
            .on_hover_text(hover);
        r.widget_info(|| slider_info("Games book's share", lambda, true));
        if r.changed() {
            chosen = Popularity::Blend(lambda);
        }
    }
    if current.uses_book() {
        ui.label(format!("From: {}", books_label(&settings.book)))
            .on_hover_text("Add a .bin book in the Book tab (Open…)");
    }
    if chosen != current {
        let mut book = settings.book.clone();
        book.popularity = chosen;
        book.popularity_chosen = true;
        commands.push(Command::SetBook(book));
    }
    let mut plies = settings.past_book_plies;
    let label = ui.label("Moves past the book (half-moves; 0 = off)");
    let r = ui
        .add(egui::Slider::new(&mut plies, 0..=12))
        .labelled_by(label.id)
        .on_hover_text(
            "Past the book (plies): where the book ends, the drill goes on this many half-moves \
         with what strong players play there, as a network trained on master games \
         predicts (0: off)",
        );
    if r.changed() && plies != settings.past_book_plies {
        commands.push(Command::SetPastBook(plies));
    }
}

fn slider_info(name: &str, value: f64, enabled: bool) -> WidgetInfo {
    WidgetInfo {
        value: Some(value),
        ..WidgetInfo::labeled(egui::Role::Slider, enabled, name)
    }
}

fn preset_name(style: &Style) -> &'static str {
    Style::presets()
        .into_iter()
        .find(|p| &p.style == style)
        .map_or("Custom", |p| p.name)
}

/// A preset's hover text: where it comes from and its weights, and what the thesis is
/// when it is named.
fn preset_hover(detail: &str) -> String {
    if detail.contains("Thesis") {
        format!("{detail}\n\n{}", Style::THESIS)
    } else {
        detail.to_owned()
    }
}
