//! The board in the centre: the drill's position with the last move, the hint, the
//! arrows (book moves, a wrong move's refutation, a repertoire's `[%cal]` arrows, the
//! hint's arrow) and the
//! computer's move gliding to its square.

use eframe::egui;
use egui::{Color32, Ui};
use shakmaty::Move;

use super::app::{Animation, MOVE_ANIMATION};
use super::board::{
    Arrow, BoardView, Pieces, SlidingPiece, board_ui, board_ui_pieces, rect_from_square,
    square_from_pos,
};
use super::chart::ChartData;
use super::command::Command;
use super::drill_panel::last_move_annotation;
use crate::book::MoveAnnotation;
use crate::coach::Coach;
use crate::coach::repertoire::RepertoireCommand;
use crate::trainer::Phase;
use crate::trainer::review_drill::ReviewStep;

/// What the board draws besides the drill: the move gliding to its square, the chart
/// (for the likely-move arrows) and whether it hides the learner's answer now.
pub(super) struct BoardExtras<'a> {
    pub(super) animation: Option<Animation>,
    pub(super) chart: &'a ChartData,
    pub(super) hides_answer: bool,
}

/// The board panel.
pub(super) fn board_panel_ui(
    ui: &mut Ui,
    coach: &Coach,
    extras: &BoardExtras<'_>,
    commands: &mut Vec<Command>,
) {
    let position = coach.session().display_position();
    let last_move = coach.session().display_last_move();
    let arrows = board_arrows(coach, extras);
    let now = ui.input(|i| i.time);
    let animation = extras
        .animation
        .filter(|a| Some(a.mv) == last_move)
        .and_then(|a| SlidingPiece::of_move(&a.mv, ((now - a.started) / MOVE_ANIMATION) as f32));
    let view = BoardView {
        position: &position,
        last_move: last_move.as_ref(),
        interactive: coach.session().viewing().is_none()
            && (*coach.session().phase() == Phase::LearnerToMove || coach.session().asks_replies()),
        arrows: &arrows,
        hint: coach.session().hint().map(|h| h.from),
        animation,
    };
    let response = if coach.hides_pieces() {
        blindfold_board_ui(ui, coach, &view)
    } else {
        ui.centered_and_justified(|ui| board_ui(ui, &view, coach.orientation()))
            .inner
    };
    if let Some(mv) = response.played {
        commands.push(Command::Play(mv));
    }
}

/// The board without its pieces (blindfold training), the last move said in words
/// under it ("Black played 5...Nc6").
fn blindfold_board_ui(
    ui: &mut Ui,
    coach: &Coach,
    view: &BoardView<'_>,
) -> super::board::BoardResponse {
    let line = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y * 2.0;
    let size = ui.available_size() - egui::vec2(0.0, line);
    let response = ui
        .allocate_ui(size, |ui| {
            ui.centered_and_justified(|ui| {
                board_ui_pieces(ui, view, coach.orientation(), Pieces::Hidden)
            })
            .inner
        })
        .inner;
    ui.vertical_centered(|ui| {
        ui.label(last_move_words(coach.session()))
            .on_hover_text(BLINDFOLD_HOVER);
    });
    response
}

/// The blindfold's words: what the setting does, with its exact terms.
const BLINDFOLD_HOVER: &str = "Blindfold training: from the position after Black's move N \
     the board is drawn without its pieces (squares and coordinates only); play your \
     moves by typing them in the move box or by clicking the squares on the empty board. \
     After a wrong move the pieces come back until your next right move";

/// The last move of the drill in words, `Black played 5...Nc6`; what to do at the start.
pub(super) fn last_move_words(session: &crate::trainer::Session) -> String {
    let ply = session.viewing().unwrap_or(session.moves().len());
    let Some(last) = ply.checked_sub(1).and_then(|i| session.moves().get(i)) else {
        return "Blindfold: play your first move".to_owned();
    };
    let before = session.position_at(ply - 1);
    let mover = shakmaty::Position::turn(before);
    let side = match mover {
        shakmaty::Color::White => "White",
        shakmaty::Color::Black => "Black",
    };
    let number = shakmaty::Position::fullmoves(before).get();
    let numbered = crate::coach::format::numbered(number, mover, &last.san);
    format!("{side} played {numbered}")
}

/// "Hide the pieces after move N" (blindfold training), for the drill's settings.
pub(super) fn blindfold_setting_ui(ui: &mut Ui, settings: &mut crate::coach::settings::Settings) {
    ui.horizontal_wrapped(|ui| {
        let label = ui
            .checkbox(&mut settings.hide_pieces, "Hide the pieces after move")
            .on_hover_text(BLINDFOLD_HOVER);
        ui.add_enabled(
            settings.hide_pieces,
            egui::DragValue::new(&mut settings.hide_pieces_after).range(0..=60),
        )
        .labelled_by(label.id)
        .on_hover_text("The pieces go after Black's move N (0: from the start)");
    });
}

/// The board in the Repertoire tab: the position at the repertoire editor's cursor, the last
/// move, the move's `[%cal]` arrows and `[%csl]` circles; a move played goes to the
/// repertoire editor (added with "Add moves" on). The right button draws marks as on lichess: a
/// drag an arrow, a click a circle, green, red with Shift (or Ctrl), blue with Alt,
/// yellow with both; the same mark again takes it away.
pub(super) fn repertoire_board_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    let w = coach.repertoire();
    let Some(position) = w.position() else {
        return;
    };
    let last_move = w.last_move();
    let note = if w.beyond().is_empty() {
        w.tree()
            .and_then(|t| t.node(w.node()))
            .map(crate::book::repertoire::Node::annotation)
            .unwrap_or_default()
    } else {
        MoveAnnotation::default()
    };
    let arrows = annotation_arrows(&note);
    let view = BoardView {
        position: &position,
        last_move: last_move.as_ref(),
        interactive: true,
        arrows: &arrows,
        hint: None,
        animation: None,
    };
    let orientation = match w.side() {
        Some(side) => crate::coach::settings::Orientation::from_color(side.into()),
        None => coach.orientation(),
    };
    let response = ui
        .centered_and_justified(|ui| board_ui(ui, &view, orientation))
        .inner;
    if let Some(mv) = response.played {
        commands.push(Command::Repertoire(RepertoireCommand::Play(mv)));
    }
    let painter = ui.painter_at(response.squares);
    for (colour, sq) in &note.circles {
        let r = rect_from_square(response.squares, *sq, orientation);
        let stroke = egui::Stroke::new(r.width() * 0.07, mark_color(*colour));
        painter.circle_stroke(r.center(), r.width() * 0.44, stroke);
    }
    if let Some(command) = right_button_mark(ui, response.squares, orientation) {
        commands.push(Command::Repertoire(command));
    }
}

/// The colour of a mark's letter, as lichess draws them.
fn mark_color(letter: char) -> Color32 {
    match letter.to_ascii_uppercase() {
        'R' => Color32::from_rgba_unmultiplied(136, 32, 32, 170),
        'Y' => Color32::from_rgba_unmultiplied(230, 143, 0, 170),
        'B' => Color32::from_rgba_unmultiplied(0, 48, 136, 170),
        _ => Color32::from_rgba_unmultiplied(21, 120, 27, 170),
    }
}

/// A mark drawn with the right button this frame: press on one square, release on
/// another (an arrow) or the same (a circle). The pressed square is kept in egui's
/// memory between frames.
fn right_button_mark(
    ui: &Ui,
    squares: egui::Rect,
    orientation: crate::ui::board::Orientation,
) -> Option<RepertoireCommand> {
    let id = ui.make_persistent_id("hastings_repertoire_marks");
    let (pressed, released, pos, modifiers) = ui.input(|i| {
        (
            i.pointer.button_pressed(egui::PointerButton::Secondary),
            i.pointer.button_released(egui::PointerButton::Secondary),
            i.pointer.interact_pos().or(i.pointer.latest_pos()),
            i.modifiers,
        )
    });
    let at = pos.and_then(|p| square_from_pos(squares, p, orientation));
    if pressed {
        ui.data_mut(|d| match at {
            Some(sq) => {
                d.insert_temp(id, sq);
            }
            None => d.remove::<shakmaty::Square>(id),
        });
    }
    if !released {
        return None;
    }
    let from: Option<shakmaty::Square> = ui.data_mut(|d| {
        let from = d.get_temp(id);
        d.remove::<shakmaty::Square>(id);
        from
    });
    let (from, to) = (from?, at?);
    let red = modifiers.shift || modifiers.ctrl || modifiers.command;
    let colour = match (red, modifiers.alt) {
        (false, false) => 'G',
        (true, false) => 'R',
        (false, true) => 'B',
        (true, true) => 'Y',
    };
    Some(if from == to {
        RepertoireCommand::ToggleCircle(colour, from)
    } else {
        RepertoireCommand::ToggleArrow(colour, from, to)
    })
}

/// The arrows on the board: after a wrong move the book moves and the refutation's
/// first moves; else the repertoire's
/// arrows for the last move, the hint's arrow, and (when chosen, and unless it would
/// give the answer away) the likely moves.
fn board_arrows(coach: &Coach, extras: &BoardExtras<'_>) -> Vec<Arrow> {
    if let Phase::OutOfBook { book_moves, .. } = coach.session().phase() {
        let mut arrows = weighted_arrows(book_moves.iter().map(|b| (b.mv, b.share)));
        arrows.extend(super::verdict_panel::refutation_arrows(coach));
        return arrows;
    }
    // Review mode: a new card shows its move and the source's arrows; a card being
    // asked shows no likely moves (they would give the answer away).
    let step = coach.review().step();
    if let Some(ReviewStep::Learn(card)) = &step {
        let mut arrows = vec![Arrow {
            from: card.mv.from().unwrap_or(card.mv.to()),
            to: card.mv.to(),
            weight: 1.0,
            color: Color32::from_rgba_unmultiplied(0, 48, 136, 200),
        }];
        arrows.extend(annotation_arrows(&MoveAnnotation {
            arrows: card.arrows.clone(),
            ..MoveAnnotation::default()
        }));
        return arrows;
    }
    let asked = matches!(step, Some(ReviewStep::Ask { .. }));
    let mut arrows = Vec::new();
    if let Some((_, a)) = last_move_annotation(coach.session()) {
        arrows.extend(annotation_arrows(a));
    }
    if let Some(hint) = coach.session().hint()
        && let Some(to) = hint.to
    {
        arrows.push(Arrow {
            from: hint.from,
            to,
            weight: 0.6,
            color: Color32::from_rgba_unmultiplied(0, 48, 136, 170),
        });
    }
    // Blindfold: the likely moves would show where the pieces are.
    if coach.settings().show_arrows && !asked && !extras.hides_answer && !coach.hides_pieces() {
        let rows: Vec<(Move, f64)> = extras.chart.rows.iter().map(|r| (r.mv, r.p)).collect();
        arrows.extend(weighted_arrows(rows.into_iter()));
    }
    arrows
}

/// The arrows of an annotation (`[%cal]`), in lichess's colours.
fn annotation_arrows(a: &MoveAnnotation) -> Vec<Arrow> {
    a.arrows
        .iter()
        .map(|(c, from, to)| Arrow {
            from: *from,
            to: *to,
            weight: 0.7,
            color: mark_color(*c),
        })
        .collect()
}

/// Green arrows for weighted moves: thickness and opacity by weight relative to the
/// heaviest; the eight heaviest with at least 5 % of its weight.
fn weighted_arrows(moves: impl Iterator<Item = (Move, f64)>) -> Vec<Arrow> {
    let mut moves: Vec<(Move, f64)> = moves.collect();
    moves.sort_by(|a, b| b.1.total_cmp(&a.1));
    let top = moves.first().map_or(1.0, |m| m.1).max(1e-12);
    moves
        .iter()
        .map(|(mv, w)| (mv, (w / top) as f32))
        .filter(|(_, rel)| *rel >= 0.05)
        .take(8)
        .filter_map(|(mv, rel)| {
            let alpha = (90.0 + 110.0 * rel) as u8;
            Arrow::of_move(mv, rel, Color32::from_rgba_unmultiplied(21, 120, 27, alpha))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Position, Square};

    use super::*;

    #[test]
    fn arrows_stand_out_on_both_squares_of_every_board_theme() {
        use crate::coach::board_look::BoardTheme;
        use crate::ui::board_theme::{board_colors, tint_distance};

        let pos = Chess::default();
        let moves: Vec<(Move, f64)> = pos
            .legal_moves()
            .into_iter()
            .enumerate()
            .map(|(i, m)| (m, if i == 0 { 1.0 } else { 0.05 }))
            .collect();
        let faintest = weighted_arrows(moves.into_iter())
            .last()
            .map(|a| a.color)
            .unwrap();
        let mut colors = vec![("faintest book arrow", faintest)];
        for (c, name) in [('R', "red"), ('Y', "yellow"), ('B', "blue"), ('G', "green")] {
            let a = MoveAnnotation {
                arrows: vec![(c, Square::E2, Square::E4)],
                ..MoveAnnotation::default()
            };
            colors.push((name, annotation_arrows(&a)[0].color));
        }
        for theme in BoardTheme::ALL {
            let squares = board_colors(theme);
            for (name, color) in &colors {
                for square in [squares.light, squares.dark] {
                    let d = tint_distance(square, *color);
                    assert!(d >= 40.0, "{theme:?}: {name} arrow on {square:?}: {d:.0}");
                }
            }
        }
    }

    #[test]
    fn book_arrows_keep_the_eight_likeliest_and_scale_by_the_top_one() {
        let pos = Chess::default();
        let moves: Vec<(Move, f64)> = pos
            .legal_moves()
            .into_iter()
            .enumerate()
            .map(|(i, m)| (m, if i == 3 { 0.5 } else { 0.03 + 0.001 * i as f64 }))
            .collect();
        let arrows = weighted_arrows(moves.iter().copied());
        assert_eq!(arrows.len(), 8);
        assert_eq!(arrows[0].weight, 1.0);
        assert_eq!(Some(arrows[0].from), moves[3].0.from());
        assert!(arrows[1..].iter().all(|a| a.weight < 0.11));
        let rare = [(moves[0].0, 1.0), (moves[1].0, 0.01)];
        assert_eq!(
            weighted_arrows(rare.into_iter()).len(),
            1,
            "under 5 % of the top"
        );
    }
}
