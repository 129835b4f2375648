//! The chart panel under the board: the next-move chart of the position shown, the
//! "Explore" button with its progress, and "Hide the answer until I move".

use eframe::egui;
use egui::{RichText, Ui};
use shakmaty::Color;

use super::chart::{ChartData, chart_ui};
use super::command::{Action, ActionUi, Command};
use crate::coach::Coach;
use crate::coach::sampled_lines::ChartKey;
use crate::sampler::Popularity;
use crate::trainer::Phase;

/// How many of the predictor's moves the chart's line names.
const HUMAN_MOVES: usize = 3;

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
    key: Option<(ChartKey, Option<usize>, u64)>,
    data: ChartData,
    shown: Option<Shown>,
}

impl ChartCache {
    /// The chart as last computed.
    pub(super) fn data(&self) -> &ChartData {
        &self.data
    }
}

/// The position the chart shows: the one viewed, else the current one, unless that
/// would show the learner the answer (then the position of their last choice): their
/// move with "Hide the answer", or the opponent's replies while they are asked.
fn shown(coach: &Coach) -> Shown {
    let session = &coach.ctx.session;
    let current = session.moves().len();
    if let Some(ply) = session.viewing() {
        return Shown::Ply(ply);
    }
    let sampled = coach.sampled_lines();
    let explored_here = sampled.is_running()
        || sampled
            .explored()
            .is_some_and(|e| e.key == coach.chart_key(current));
    // "Quiz the replies I cover": the chart would list the answers.
    let asking = session.asks_replies();
    if !asking
        && (!coach.ctx.settings.hide_answer
            || explored_here
            || *session.phase() != Phase::LearnerToMove)
    {
        return Shown::Ply(current);
    }
    match session.moves().iter().rposition(|m| m.by_learner) {
        Some(ply) => Shown::LastChoice(ply),
        None => Shown::Hidden,
    }
}

/// Recomputes the chart if the position, the style, the book or the exploration changed.
pub(super) fn refresh(coach: &Coach, chart: &mut ChartCache) {
    let shown = shown(coach);
    let ply = match shown {
        Shown::Ply(p) | Shown::LastChoice(p) => Some(p),
        Shown::Hidden => None,
    };
    let key = ply.map(|p| coach.chart_key(p));
    let explored = coach
        .sampled_lines()
        .explored()
        .filter(|e| Some(&e.key) == key.as_ref());
    let cache_key = key.map(|k| {
        (
            k,
            explored.map(|e| e.exploration.iterations as usize),
            coach.chart_generation(),
        )
    });
    if chart.key == cache_key && chart.shown == Some(shown) && cache_key.is_some() {
        return;
    }
    chart.data = match ply {
        Some(p) => ChartData::new(
            &coach.ctx.session.distribution_at(p),
            coach.ctx.session.position_at(p),
            explored.map(|e| (&e.exploration, e.reached.as_slice())),
        ),
        None => ChartData {
            side_to_move: Some(coach.ctx.session.learner()),
            ..ChartData::default()
        },
    };
    chart.key = cache_key;
    chart.shown = Some(shown);
}

/// What strong players are predicted to play at the position shown, in one line; while
/// it is being computed, an empty line of the same height, so that the chart does not
/// jump when it comes.
fn human_moves_ui(ui: &mut Ui, coach: &Coach) {
    if !coach.settings().show_human_moves {
        return;
    }
    let Some(line) = coach
        .predictor()
        .human_moves()
        .and_then(|moves| crate::coach::predictor::top_moves_line(moves, HUMAN_MOVES))
    else {
        ui.label(RichText::new(" ").small());
        return;
    };
    ui.add(
        egui::Label::new(RichText::new(format!("Strong players (predicted): {line}")).small())
            .wrap(),
    )
    .on_hover_text(
        "The moves a network trained on 146,000 master games expects strong players to \
         play here, with their shares (Style tab: \"Show what strong players play here\")",
    );
}

/// Whether the chart (and the book arrows) hide the learner's candidates now.
pub(super) fn hides_answer(coach: &Coach) -> bool {
    !matches!(shown(coach), Shown::Ply(_))
}

/// The chart panel.
pub(super) fn chart_panel_ui(
    ui: &mut Ui,
    coach: &Coach,
    chart: &mut ChartCache,
    commands: &mut Vec<Command>,
) {
    refresh(coach, chart);
    let side = match chart.data.side_to_move {
        Some(Color::Black) => "Black",
        _ => "White",
    };
    ui.horizontal_wrapped(|ui| {
        let title = match chart.shown {
            Some(Shown::LastChoice(_)) => format!("Before your last move ({side})"),
            Some(Shown::Hidden) => "Next move".to_owned(),
            _ => format!("Next move for {side}"),
        };
        ui.label(RichText::new(title).strong());
        Action::Explore.button_ui(ui, !coach.sampled_lines().is_running(), commands);
        if let Some((done, total, seed)) = coach.sampled_lines().progress() {
            ui.add(
                egui::ProgressBar::new(done as f32 / total.max(1) as f32)
                    .desired_width(120.0)
                    .text(format!("{done}/{total} (seed {seed})")),
            );
        }
        let mut hide = coach.settings().hide_answer;
        if ui
            .checkbox(&mut hide, "Hide the answer until I move")
            .on_hover_text(
                "While it is your move in a drill, the chart shows the position of your \
                 last choice instead of your candidates (always shown when exploring or \
                 viewing an earlier position)",
            )
            .changed()
        {
            let mut settings = coach.settings().clone();
            settings.hide_answer = hide;
            commands.push(Command::SetSettings(Box::new(settings)));
        }
    });
    if matches!(chart.shown, Some(Shown::Ply(_))) {
        human_moves_ui(ui, coach);
    }
    if chart.shown == Some(Shown::Hidden) {
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
    let popularity = coach.settings().book.popularity;
    ui.add(egui::Label::new(RichText::new(percent_meaning(popularity)).weak()).wrap())
        .on_hover_text(
            "P: the exact probability that the computer plays the move here (docs/sampler.md): \
             the popularity (Style tab) times the style's bonuses, normalised",
        );
    chart_ui(ui, &chart.data);
}

/// What the chart's percentages mean, in one line, for the popularity in use.
pub(super) fn percent_meaning(popularity: Popularity) -> &'static str {
    match popularity {
        Popularity::Lines => "How often the computer plays each move: your book's lines, not games",
        Popularity::Games => "How often the computer plays each move: as in the games book",
        Popularity::Blend(_) => {
            "How often the computer plays each move: lines and games book mixed"
        }
        Popularity::Explorer => {
            "How often the computer plays each move: as in the explorer's games"
        }
    }
}
