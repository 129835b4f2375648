//! The Explorer tab, like lichess's opening explorer: the source (all games, or a
//! player's tree as White or Black, with "Prepare against" that player), then the
//! moves at the position on the board as lichess lays them out
//! ([`super::explorer_rows`]: one row per move, a click plays it; the total last), the
//! options ("Hide while I answer", "Engine's evaluation"), then the position's
//! top games: the move, the players (a click opens the game in its window), the
//! result, the year and the rating; last the filters (rating bands and speeds as toggle
//! buttons, years from and to). The numbers come from the coach's cached view ([`crate::coach::explorer`]); the panel does no
//! work of its own.

use eframe::egui;
use egui::{RichText, Ui};

use super::command::Command;
use super::explorer_build_panel::explorer_build_ui;
use super::explorer_rows::explorer_rows_ui;
use crate::book::explorer::{RatingBand, Speed, group_digits};
use crate::coach::explorer::{
    ExplorerCommand, ExplorerSource, ExplorerState, ExplorerTopGame, parse_years,
};

/// The settings the Explorer tab shows.
pub(super) struct PanelSettings<'a> {
    /// The learner's name in PGN files: their own games are marked in the chooser.
    pub learner_name: &'a str,
    /// "Hide while I answer".
    pub hide_answer: bool,
    /// "Engine's evaluation".
    pub evals: bool,
    /// The fewest games that give a player a tree in an explorer built here.
    pub players_min: u32,
}

/// The Explorer tab.
pub(super) fn explorer_panel_ui(
    ui: &mut Ui,
    state: &ExplorerState,
    settings: &PanelSettings<'_>,
    commands: &mut Vec<Command>,
) {
    let (learner_name, players_min) = (settings.learner_name, settings.players_min);
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
            "No explorer open: build one from your PGN files here, or with `hastings \
             explorer make GAMES.pgn -o NAME.explorer`.",
        );
        explorer_build_ui(ui, state, players_min, commands);
        return;
    };
    let name = index.dir().file_name().map_or_else(
        || index.dir().display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    ui.label(format!("{name}: {} games", group_digits(index.games())));
    source_ui(ui, state, learner_name, commands);
    ui.separator();
    moves_ui(ui, state, commands);
    options_ui(ui, state, settings, commands);
    top_games_ui(ui, state, commands);
    ui.separator();
    ui.strong("Filters");
    filters_ui(ui, state, commands);
    ui.separator();
    explorer_build_ui(ui, state, players_min, commands);
}

/// The moves at the position (one row each, the total last), or why there are none.
fn moves_ui(ui: &mut Ui, state: &ExplorerState, commands: &mut Vec<Command>) {
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
    if let Some(i) = explorer_rows_ui(ui, view, state.evaluates())
        && let Some(row) = view.rows.get(i)
    {
        commands.push(Command::Explorer(ExplorerCommand::Play(row.mv)));
    }
}

/// "Hide while I answer" and "Engine's evaluation", and why the engine failed.
fn options_ui(
    ui: &mut Ui,
    state: &ExplorerState,
    settings: &PanelSettings<'_>,
    commands: &mut Vec<Command>,
) {
    let mut hide = settings.hide_answer;
    if ui
        .checkbox(&mut hide, "Hide while I answer")
        .on_hover_text(
            "In a free drill, hide the explorer's moves while it is your turn: the most \
             played move is often your book's. Review always hides them until you move.",
        )
        .changed()
    {
        commands.push(Command::Explorer(ExplorerCommand::SetHideAnswer(hide)));
    }
    let mut evals = settings.evals;
    if ui
        .checkbox(&mut evals, "Engine's evaluation")
        .on_hover_text(
            "The engine's evaluation of the position after each move, in pawns (+ good \
             for White), found in the background: Stockfish when installed, else the \
             built-in engine",
        )
        .changed()
    {
        commands.push(Command::Explorer(ExplorerCommand::SetEvals(evals)));
    }
    if let Some(why) = state.eval_failure().filter(|_| evals) {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!("The engine could not evaluate a move: {why}"),
        );
    }
}

/// The position's top games: the players (a click opens the game), then the move, the
/// result, the year and the rating.
fn top_games_ui(ui: &mut Ui, state: &ExplorerState, commands: &mut Vec<Command>) {
    let view = state.view();
    if view.hidden || view.top.is_empty() {
        return;
    }
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
                for source in sources.iter().cloned() {
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
        find_player_ui(ui, state, &sources, learner_name, commands);
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

/// The most players "Find a player" lists.
const FOUND_SHOWN: usize = 6;

/// "Find a player": a name typed (any part, any case) lists the index's players of that
/// name as White and as Black; a click shows that player's games.
fn find_player_ui(
    ui: &mut Ui,
    state: &ExplorerState,
    sources: &[ExplorerSource],
    learner_name: &str,
    commands: &mut Vec<Command>,
) {
    let id = egui::Id::unique("explorer_find_player");
    let mut typed = ui.data(|d| d.get_temp::<String>(id)).unwrap_or_default();
    let label = ui.label("Find a player");
    ui.add(
        egui::TextEdit::singleline(&mut typed)
            .id_salt("explorer_find_player")
            .hint_text("a name")
            .desired_width(ui.available_width() - 8.0),
    )
    .labelled_by(label.id)
    .on_hover_text("Any part of a player's name, as in the games' White and Black tags");
    let wanted = typed.trim().to_lowercase();
    if !wanted.is_empty() {
        let found: Vec<&ExplorerSource> = sources
            .iter()
            .filter(|s| {
                matches!(s, ExplorerSource::Player { name, .. }
                    if name.to_lowercase().contains(&wanted))
            })
            .collect();
        if found.is_empty() {
            ui.label(RichText::new("No player of that name in this index").weak());
        }
        for source in found.iter().take(FOUND_SHOWN) {
            let text = source_text(source, learner_name);
            if ui
                .selectable_label(*source == state.source(), text)
                .clicked()
            {
                commands.push(Command::Explorer(ExplorerCommand::SetSource(
                    (*source).clone(),
                )));
            }
        }
        if found.len() > FOUND_SHOWN {
            let more = found.len() - FOUND_SHOWN;
            ui.label(RichText::new(format!("… and {more} more: type more of the name")).weak());
        }
    }
    ui.data_mut(|d| d.insert_temp(id, typed));
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
/// sets the tab's, one that does not says why above them.
fn years_ui(ui: &mut Ui, state: &ExplorerState, commands: &mut Vec<Command>) {
    let id = egui::Id::unique("explorer_years");
    let years = state.years();
    let mut fields = ui
        .data(|d| d.get_temp::<YearFields>(id))
        .filter(|f| f.years == years)
        .unwrap_or_else(|| YearFields::of(years));
    let mut changed = false;
    ui.label("Years");
    // Why the years do not read, above the fields: in view when they are (the
    // filters end the panel).
    let shown = fields.error.clone();
    if let Some(error) = &shown {
        ui.colored_label(ui.visuals().warn_fg_color, error);
    }
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        let mut field = |ui: &mut Ui, name: &str, text: &mut String| {
            let label = ui.label(name);
            // A fixed id: the rows above come and go, the focus stays in the field.
            let edit = egui::TextEdit::singleline(text)
                .id_salt(("explorer_years", name))
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
    if fields.error != shown {
        ui.ctx().request_repaint();
    }
    ui.data_mut(|d| d.insert_temp(id, fields));
}
