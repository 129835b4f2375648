//! The Explorer tab, like lichess's opening explorer: the source (all games, or a
//! player's tree as White or Black, with "Prepare against" that player), the filters
//! (rating bands and speeds as toggle buttons, years from and to), then each move at
//! the position on the board with its share, games, a white/draw/black bar with
//! percentages and the average rating (a click plays the move), then the position's
//! top games: the move, the players (a click opens the game in its window), the
//! result, the year and the rating. The numbers
//! come from the coach's cached view ([`crate::coach::explorer`]); the panel does no
//! work of its own.

use eframe::egui;
use egui::{Color32, RichText, Sense, Ui, WidgetInfo};

use super::command::Command;
use crate::book::explorer::{RatingBand, Speed, group_digits};
use crate::coach::explorer::{
    ExplorerCommand, ExplorerRow, ExplorerSource, ExplorerState, ExplorerTopGame, parse_years,
};

/// The Explorer tab; `learner_name` marks the learner's own games in the chooser.
pub(super) fn explorer_panel_ui(
    ui: &mut Ui,
    state: &ExplorerState,
    learner_name: &str,
    commands: &mut Vec<Command>,
) {
    ui.heading("Explorer");
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Open explorer index…")
            .on_hover_text("A NAME.explorer folder made by `hastings explorer make`")
            .clicked()
        {
            commands.push(Command::Explorer(ExplorerCommand::Choose));
        }
        if state.index().is_some() && ui.button("Close").clicked() {
            commands.push(Command::Explorer(ExplorerCommand::Close));
        }
    });
    if let Some(message) = state.message() {
        ui.colored_label(ui.visuals().warn_fg_color, message);
    }
    let Some(index) = state.index() else {
        ui.label(
            "No index open. Make one with `hastings explorer make GAMES.pgn -o NAME.explorer`.",
        );
        return;
    };
    let name = index.dir().file_name().map_or_else(
        || index.dir().display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    ui.label(format!("{name}: {} games", group_digits(index.games())));
    source_ui(ui, state, learner_name, commands);
    filters_ui(ui, state, commands);
    ui.separator();
    let view = state.view();
    if let Some(error) = &view.error {
        ui.colored_label(ui.visuals().error_fg_color, error);
        if view.rows.is_empty() {
            return;
        }
    }
    if view.hidden {
        ui.label("Hidden until you move: it would give the answer away.");
        return;
    }
    if view.rows.is_empty() {
        ui.label("No game reached this position under these filters.");
        return;
    }
    ui.label(format!("{} games here", group_digits(view.games)));
    let [white, draws, black] = view.results;
    wdl_bar_ui(ui, "All moves", view.games, [white, draws, black]);
    for row in &view.rows {
        if move_row_ui(ui, row) {
            commands.push(Command::Explorer(ExplorerCommand::Play(row.mv)));
        }
    }
    if !view.top.is_empty() {
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            ui.strong("Top games");
            ui.label(RichText::new("(click one to open it)").weak());
        });
        for (i, top) in view.top.iter().enumerate() {
            let (players, details) = top_game_text(top);
            ui.add_space(2.0);
            if ui
                .link(RichText::new(players).strong())
                .on_hover_text("Open this game")
                .clicked()
            {
                commands.push(Command::Explorer(ExplorerCommand::OpenGame(i)));
            }
            ui.label(RichText::new(details).monospace().weak());
        }
    }
}

/// A top game in two lines: the players (`"Carlsen - Nakamura"`), then the move, the
/// result, the year (`?` unknown) and the mean rating (`unrated` without both):
/// `"e4  1-0  2025  2850"`.
fn top_game_text(top: &ExplorerTopGame) -> (String, String) {
    let game = &top.game.game;
    let year = game.year.map_or_else(|| "?".to_owned(), |y| y.to_string());
    let rating = game
        .rating
        .map_or_else(|| "unrated".to_owned(), |r| r.to_string());
    (
        format!("{} - {}", game.white, game.black),
        format!("{}  {}  {year}  {rating}", top.san, game.result()),
    )
}

/// What the chooser calls `source`: its text, "(my games)" for the learner's own.
fn source_text(source: &ExplorerSource, learner_name: &str) -> String {
    let mine = matches!(source, ExplorerSource::Player { name, .. }
        if !learner_name.trim().is_empty() && name.eq_ignore_ascii_case(learner_name.trim()));
    if mine {
        format!("{} (my games)", source.text())
    } else {
        source.text()
    }
}

/// Whose games: the index's players as White and as Black (when it keeps any), and
/// "Prepare against" the chosen player, or what the drill prepares against.
fn source_ui(ui: &mut Ui, state: &ExplorerState, learner_name: &str, commands: &mut Vec<Command>) {
    let sources = state.sources();
    if sources.len() > 1 {
        let mut chosen = state.source().clone();
        // The label above the box: beside it, it wraps in a narrow panel (800×600).
        let label = ui.label("Games");
        egui::ComboBox::from_id_salt("explorer_source")
            .width(ui.available_width() - 8.0)
            .selected_text(source_text(&chosen, learner_name))
            .show_ui(ui, |ui| {
                for source in sources {
                    let text = source_text(&source, learner_name);
                    ui.selectable_value(&mut chosen, source, text);
                }
            })
            .response
            .labelled_by(label.id)
            .on_hover_text(
                "Every game of the index, or the games of a player it keeps a tree for \
                 (`hastings explorer make --player NAME`)",
            );
        if chosen != *state.source() {
            commands.push(Command::Explorer(ExplorerCommand::SetSource(chosen)));
        }
    }
    if let ExplorerSource::Player { name, .. } = state.source()
        && state.preparing() != Some(state.source())
        && ui
            .button(format!("Prepare against {name}"))
            .on_hover_text(format!(
                "Drill against {}: the computer plays these moves as often as they were \
                 played (the book's where there is no game), you the other colour",
                state.source().text()
            ))
            .clicked()
    {
        commands.push(Command::Explorer(ExplorerCommand::Prepare));
    }
    if let Some(source) = state.preparing() {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(format!("Preparing against {}", source.text())).italics());
            if ui
                .small_button("Stop preparing")
                .on_hover_text("The computer plays the book's moves again")
                .clicked()
            {
                commands.push(Command::Explorer(ExplorerCommand::StopPreparing));
            }
        });
    }
}

/// The rating bands and speeds as toggle buttons.
fn filters_ui(ui: &mut Ui, state: &ExplorerState, commands: &mut Vec<Command>) {
    ui.label("Average rating");
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 3.0;
        for band in RatingBand::all() {
            let name = match band.lower_bound() {
                Some(b) => b.to_string(),
                None => "unrated".to_owned(),
            };
            if ui.selectable_label(state.counts_band(band), name).clicked() {
                commands.push(Command::Explorer(ExplorerCommand::ToggleBand(band)));
            }
        }
    });
    ui.label("Speed");
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 3.0;
        for speed in Speed::ALL {
            if ui
                .selectable_label(state.counts_speed(speed), speed.name())
                .clicked()
            {
                commands.push(Command::Explorer(ExplorerCommand::ToggleSpeed(speed)));
            }
        }
    });
    years_ui(ui, state, commands);
}

/// The text of the years fields, kept between frames for the years they were typed
/// for: when the tab's years change otherwise (a new index), the fields show those.
#[derive(Debug, Clone, Default)]
struct YearFields {
    years: Option<(u16, u16)>,
    from: String,
    to: String,
    error: Option<String>,
}

impl YearFields {
    fn of(years: Option<(u16, u16)>) -> YearFields {
        let (from, to) = match years {
            None => (String::new(), String::new()),
            Some((from, to)) => {
                let bound = |y: u16, unset: u16| {
                    if y == unset {
                        String::new()
                    } else {
                        y.to_string()
                    }
                };
                (bound(from, 1), bound(to, u16::MAX))
            }
        };
        YearFields {
            years,
            from,
            to,
            error: None,
        }
    }
}

/// "Years", from … to …: two fields, empty for any year; a change that reads as years
/// sets the tab's, one that does not says why under them.
fn years_ui(ui: &mut Ui, state: &ExplorerState, commands: &mut Vec<Command>) {
    let id = egui::Id::unique("explorer_years");
    let years = state.years();
    let mut fields = ui
        .data(|d| d.get_temp::<YearFields>(id))
        .filter(|f| f.years == years)
        .unwrap_or_else(|| YearFields::of(years));
    let mut changed = false;
    ui.label("Years");
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        let mut field = |ui: &mut Ui, name: &str, text: &mut String| {
            let label = ui.label(name);
            let edit = egui::TextEdit::singleline(text)
                .desired_width(44.0)
                .hint_text("any");
            changed |= ui
                .add(edit)
                .labelled_by(label.id)
                .on_hover_text("A year such as 2015; empty for any")
                .changed();
        };
        field(ui, "from", &mut fields.from);
        field(ui, "to", &mut fields.to);
    });
    if changed {
        match parse_years(&fields.from, &fields.to) {
            Ok(parsed) => {
                fields.error = None;
                if parsed != years {
                    fields.years = parsed;
                    commands.push(Command::Explorer(ExplorerCommand::SetYears(parsed)));
                }
            }
            Err(e) => fields.error = Some(e.to_string()),
        }
    }
    if let Some(error) = &fields.error {
        ui.colored_label(ui.visuals().warn_fg_color, error);
    }
    ui.data_mut(|d| d.insert_temp(id, fields));
}

/// One move: SAN, share, games, average rating, then the W/D/L bar. Whether it was
/// clicked.
fn move_row_ui(ui: &mut Ui, row: &ExplorerRow) -> bool {
    let rating = row
        .avg_rating
        .map_or_else(|| "-".to_owned(), |r| r.to_string());
    let games = if row.games == 1 { "game" } else { "games" };
    let text = format!(
        "{}  {:.0}%  {} {games}  avg {rating}",
        row.san,
        row.share * 100.0,
        group_digits(row.games)
    );
    let clicked = ui
        .add(egui::Button::new(RichText::new(text).monospace()).frame(false))
        .on_hover_text(format!("Play {}", row.san))
        .clicked();
    wdl_bar_ui(ui, &row.san, row.games, [row.white, row.draws, row.black]);
    clicked
}

/// The white / draw / black bar of `games` games (`results`: white wins, draws, black
/// wins), each segment labelled with its percentage, the bar with `what` and them.
fn wdl_bar_ui(ui: &mut Ui, what: &str, games: u64, results: [u64; 3]) {
    let games = games.max(1) as f32;
    let [white, draws, black] = results;
    let parts = [
        (white, Color32::from_gray(245), Color32::BLACK, "White"),
        (draws, Color32::from_gray(140), Color32::WHITE, "Draws"),
        (black, Color32::from_gray(30), Color32::WHITE, "Black"),
    ];
    let percents: Vec<f32> = parts.iter().map(|p| 100.0 * p.0 as f32 / games).collect();
    let label = format!(
        "{what}: White {:.0}% Draws {:.0}% Black {:.0}%",
        percents[0], percents[1], percents[2]
    );
    let width = ui.available_width().max(60.0);
    let (rect, response) = ui.allocate_exact_size(egui::vec2(width, 16.0), Sense::hover());
    response.widget_info(|| WidgetInfo::labeled(egui::Role::Label, true, &label));
    let painter = ui.painter_at(rect);
    let mut x = rect.left();
    for ((n, fill, text, _), percent) in parts.iter().zip(&percents) {
        if *n == 0 {
            continue;
        }
        let w = rect.width() * percent / 100.0;
        let seg =
            egui::Rect::from_min_size(egui::pos2(x, rect.top()), egui::vec2(w, rect.height()));
        painter.rect_filled(seg, 0.0, *fill);
        if w > 28.0 {
            painter.text(
                seg.center(),
                egui::Align2::CENTER_CENTER,
                format!("{percent:.0}%"),
                egui::FontId::proportional(11.0),
                *text,
            );
        }
        x += w;
    }
    painter.rect_stroke(
        rect,
        0.0,
        egui::Stroke::new(1.0, Color32::from_gray(100)),
        egui::StrokeKind::Inside,
    );
}
