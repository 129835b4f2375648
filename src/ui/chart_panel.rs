//! The chart panel under the board: the next-move chart of the position shown, the
//! "Explore" button with its progress, and "Hide the answer until I move".

use eframe::egui;
use egui::{RichText, Ui};
use shakmaty::{Color, Move};

use super::app::TrainerApp;
use super::chart::{ChartData, chart_ui};
use super::command::{Action, Command};
use crate::sampler::Style;
use crate::trainer::Phase;

/// What a chart was computed for: the game up to the position, the style, the book.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ChartKey {
    moves: Vec<Move>,
    style: Style,
    book: u64,
}

impl ChartKey {
    /// The key of the position after `ply` moves of the drill.
    pub(super) fn of(app: &TrainerApp, ply: usize) -> ChartKey {
        let moves = app.session.moves();
        ChartKey {
            moves: moves[..ply.min(moves.len())].iter().map(|m| m.mv).collect(),
            style: app.session.style().clone(),
            book: app.book_generation,
        }
    }
}

/// Which position the chart shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shown {
    /// The position after this many plies.
    Ply(usize),
    /// The position before the learner's last move (the answer is hidden).
    LastChoice(usize),
    /// Nothing: the learner has not moved yet and the answer is hidden.
    Hidden,
}

/// The chart and what it was computed for.
#[derive(Debug, Default)]
pub(super) struct ChartCache {
    key: Option<(ChartKey, Option<usize>)>,
    data: ChartData,
    shown: Option<Shown>,
}

impl ChartCache {
    /// The chart as last computed.
    pub(super) fn data(&self) -> &ChartData {
        &self.data
    }

    /// Forgets the chart (the book or the exploration changed).
    pub(super) fn invalidate(&mut self) {
        self.key = None;
    }
}

/// The position the chart shows: the one viewed, else the current one, unless that
/// would show the learner the answer (then the position of their last choice).
fn shown(app: &TrainerApp) -> Shown {
    let session = &app.session;
    let current = session.moves().len();
    if let Some(ply) = session.viewing() {
        return Shown::Ply(ply);
    }
    let explored_here = app.explore.is_some()
        || app
            .explored
            .as_ref()
            .is_some_and(|e| e.key == ChartKey::of(app, current));
    if !app.settings.hide_answer || explored_here || *session.phase() != Phase::LearnerToMove {
        return Shown::Ply(current);
    }
    match session.moves().iter().rposition(|m| m.by_learner) {
        Some(ply) => Shown::LastChoice(ply),
        None => Shown::Hidden,
    }
}

/// Recomputes the chart if the position, the style, the book or the exploration changed.
pub(super) fn refresh(app: &mut TrainerApp) {
    let shown = shown(app);
    let ply = match shown {
        Shown::Ply(p) | Shown::LastChoice(p) => Some(p),
        Shown::Hidden => None,
    };
    let key = ply.map(|p| ChartKey::of(app, p));
    let explored = app
        .explored
        .as_ref()
        .filter(|e| Some(&e.key) == key.as_ref());
    let cache_key = key.map(|k| (k, explored.map(|e| e.exploration.iterations as usize)));
    if app.chart.key == cache_key && app.chart.shown == Some(shown) && cache_key.is_some() {
        return;
    }
    app.chart.data = match ply {
        Some(p) => ChartData::new(
            &app.session.distribution_at(p),
            app.session.position_at(p),
            explored.map(|e| (&e.exploration, e.reached.as_slice())),
        ),
        None => ChartData {
            side_to_move: Some(app.session.learner()),
            ..ChartData::default()
        },
    };
    app.chart.key = cache_key;
    app.chart.shown = Some(shown);
}

/// Whether the chart (and the book arrows) hide the learner's candidates now.
pub(super) fn hides_answer(app: &TrainerApp) -> bool {
    !matches!(shown(app), Shown::Ply(_))
}

/// The chart panel.
pub(super) fn chart_panel_ui(ui: &mut Ui, app: &mut TrainerApp, commands: &mut Vec<Command>) {
    refresh(app);
    let side = match app.chart.data.side_to_move {
        Some(Color::Black) => "Black",
        _ => "White",
    };
    ui.horizontal_wrapped(|ui| {
        let title = match app.chart.shown {
            Some(Shown::LastChoice(_)) => format!("Before your last move ({side})"),
            Some(Shown::Hidden) => "Next move".to_owned(),
            _ => format!("Next move for {side}"),
        };
        ui.label(RichText::new(title).strong());
        Action::Explore.button_ui(ui, app.explore.is_none(), commands);
        if let Some(run) = &app.explore {
            ui.add(
                egui::ProgressBar::new(run.done() as f32 / run.total.max(1) as f32)
                    .desired_width(120.0)
                    .text(format!("{}/{} (seed {})", run.done(), run.total, run.seed)),
            );
        }
        let mut hide = app.settings.hide_answer;
        if ui
            .checkbox(&mut hide, "Hide the answer until I move")
            .on_hover_text(
                "While it is your move in a drill, the chart shows the position of your \
                 last choice instead of your candidates (always shown when exploring or \
                 viewing an earlier position)",
            )
            .changed()
        {
            app.settings.hide_answer = hide;
        }
    });
    if app.chart.shown == Some(Shown::Hidden) {
        ui.add_space(12.0);
        ui.label(
            RichText::new(
                "Hidden until you move: the chart would give the answer away. It shows your \
                 position after you move, or now with Explore.",
            )
            .italics(),
        );
        return;
    }
    chart_ui(ui, &app.chart.data);
}
