//! "Find an opening" in the top bar: type a name or an ECO code ("Najdorf", "C65",
//! "Berlin") and the openings of the book that match are listed under the box as one
//! types (name, code, moves; a small board on hover). Choosing one drills from its
//! position, the learner keeping their colour; Enter takes the first (or the one the
//! arrow keys moved to), Escape closes the list, Ctrl+F comes to the box.
//!
//! When the book is the learner's repertoire, its own names come first, then the
//! theory's (ECO): a repertoire rarely names the Najdorf, but often plays it. The drill
//! starts on the repertoire where it has the position, else on the theory (as the
//! Coverage tab's "Drill this gap" does), and the list says which.
//!
//! The search is the book's ([`crate::book::search`]); the window keeps the text, the
//! indexes of the book shown (made again when the book changes) and of the theory, and
//! the results.

use eframe::egui;
use egui::{Key, KeyboardShortcut, Modifiers, RichText, Ui};
use shakmaty::Color;

use super::board::{BoardView, board_ui};
use super::command::{Command, DrillBook};
use crate::book::NodeKey;
use crate::book::line::sans_of;
use crate::book::search::{OpeningHit, OpeningIndex, not_found};
use crate::coach::Coach;
use crate::coach::coverage::CoverageCommand;
use crate::coach::format::numbered_line;

/// The box's accessible name.
pub const SEARCH_BOX_LABEL: &str = "Find an opening";

/// How many openings the list shows.
const SHOWN: usize = 8;

/// The list's widest (it is narrower in a narrow window).
const LIST_WIDTH: f32 = 460.0;

/// What is typed, the indexes it searches and what it found.
#[derive(Default)]
pub struct OpeningSearch {
    text: String,
    /// The index of the book and the book generation it was made for.
    index: Option<(u64, OpeningIndex)>,
    /// The index of the theory (in repertoire mode), made the first time it is needed.
    theory: Option<OpeningIndex>,
    /// The results of `searched`.
    hits: Vec<Found>,
    searched: String,
    /// Whether the list is shown.
    open: bool,
    /// The result Enter takes (moved with the arrow keys).
    selected: usize,
}

/// An opening listed.
struct Found {
    hit: OpeningHit,
    /// Whether the hit is the theory's (its node is in the theory's graph).
    from_theory: bool,
    /// Whether the book has its position (a theory result in repertoire mode may not:
    /// it is drilled with the theory then).
    in_book: bool,
}

impl std::fmt::Debug for OpeningSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpeningSearch")
            .field("text", &self.text)
            .field("hits", &self.hits.len())
            .field("open", &self.open)
            .finish_non_exhaustive()
    }
}

impl OpeningSearch {
    /// The box with `text` typed and its list open (`hastings --screenshot --tab
    /// find-opening`).
    pub(super) fn show_typed(&mut self, text: &str) {
        text.clone_into(&mut self.text);
        self.open = true;
    }

    /// Searches again when the text or the book changed: the book's openings, then, in
    /// repertoire mode, the theory's at positions not listed yet.
    fn refresh(&mut self, coach: &Coach) {
        if self.text.trim().is_empty() {
            // Nothing to search: no index is made (the window's first frame does not
            // wait for one; the first letter typed makes it).
            self.searched.clone_from(&self.text);
            self.hits.clear();
            return;
        }
        let generation = coach.book_generation();
        let stale = self.index.as_ref().is_none_or(|(g, _)| *g != generation);
        if stale {
            self.index = Some((generation, OpeningIndex::new(coach.graph())));
            self.searched.clear();
            self.hits.clear();
        }
        if self.searched == self.text {
            return;
        }
        self.searched.clone_from(&self.text);
        self.selected = 0;
        let graph = coach.graph();
        self.hits = match &self.index {
            Some((_, index)) => index.search(graph, &self.text, SHOWN),
            None => Vec::new(),
        }
        .into_iter()
        .map(|hit| Found {
            hit,
            from_theory: false,
            in_book: true,
        })
        .collect();
        let Some(theory) = coach.session().theory() else {
            return;
        };
        if self.hits.len() >= SHOWN {
            return;
        }
        let index = self.theory.get_or_insert_with(|| OpeningIndex::new(theory));
        let listed: Vec<NodeKey> = self.hits.iter().map(|f| graph.key(f.hit.node)).collect();
        for hit in index.search(theory, &self.text, SHOWN) {
            if self.hits.len() >= SHOWN {
                break;
            }
            let position = theory.position(hit.node);
            if listed.contains(&NodeKey::from_position(&position)) {
                continue;
            }
            let in_book = graph.lookup(&position).is_some();
            self.hits.push(Found {
                hit,
                from_theory: true,
                in_book,
            });
        }
    }
}

/// The box's id.
fn box_id() -> egui::Id {
    egui::Id::unique("hastings_opening_search")
}

/// Ctrl+F (Cmd+F on a Mac) gives the box the keyboard (not while a dialog is open).
pub(super) fn focus_key_pressed(ctx: &egui::Context, dialog_open: bool) -> bool {
    let shortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::F);
    !dialog_open && ctx.input_mut(|i| i.consume_shortcut(&shortcut))
}

/// Gives the box the keyboard and shows the list again.
pub(super) fn focus(ctx: &egui::Context, search: &mut OpeningSearch) {
    ctx.memory_mut(|m| m.request_focus(box_id()));
    search.open = true;
}

/// The box and, under it while one types, the openings found.
pub(super) fn opening_search_ui(
    ui: &mut Ui,
    search: &mut OpeningSearch,
    coach: &Coach,
    commands: &mut Vec<Command>,
) {
    // The arrows move through the list (before the box reads them as cursor moves).
    if ui.memory(|m| m.has_focus(box_id())) && search.open && !search.hits.is_empty() {
        let (down, up) = ui.input_mut(|i| {
            (
                i.consume_key(Modifiers::NONE, Key::ArrowDown),
                i.consume_key(Modifiers::NONE, Key::ArrowUp),
            )
        });
        let last = search.hits.len() - 1;
        if down {
            search.selected = (search.selected + 1).min(last);
        }
        if up {
            search.selected = search.selected.saturating_sub(1);
        }
    }
    let response = ui
        .add(
            egui::TextEdit::singleline(&mut search.text)
                .id(box_id())
                .hint_text("Find an opening: Najdorf, C65")
                .desired_width(200.0),
        )
        .on_hover_text(
            "Type an opening's name or its ECO code (Najdorf, Berlin, King's Indian, C65, \
             B90-B99) and choose one to drill from there. Enter takes the one marked (↓ and \
             ↑ move the mark), Escape closes the list, Ctrl+F comes here.",
        );
    ui.ctx()
        .accesskit_node_builder(response.id, |node| node.set_label(SEARCH_BOX_LABEL));
    if response.changed() || response.gained_focus() {
        search.open = true;
    }
    search.refresh(coach);
    let escape = ui.input(|i| i.key_pressed(Key::Escape));
    if response.lost_focus() && escape {
        search.open = false;
    }
    let repertoire = coach.session().theory().is_some();
    if response.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
        if let Some(found) = search.hits.get(search.selected) {
            let moves = found.hit.moves.clone();
            choose(search, moves, repertoire, commands);
        }
        return;
    }
    if !search.open || search.text.trim().is_empty() {
        return;
    }
    let list = list_ui(ui, &response.rect, search, coach);
    match list.inner {
        Some(moves) => choose(search, moves, repertoire, commands),
        None => {
            // A click elsewhere closes the list.
            let clicked_away = ui.input(|i| {
                i.pointer.any_pressed()
                    && i.pointer.interact_pos().is_some_and(|p| {
                        !list.response.rect.contains(p) && !response.rect.contains(p)
                    })
            });
            if clicked_away {
                search.open = false;
            }
        }
    }
}

/// Drills from the position after `moves` (in `repertoire` mode on the repertoire where
/// it has the position, else on the theory); the list closes, the box is emptied for
/// the next search and lets go of the keyboard (the single-key shortcuts work again).
fn choose(
    search: &mut OpeningSearch,
    moves: Vec<shakmaty::Move>,
    repertoire: bool,
    commands: &mut Vec<Command>,
) {
    search.open = false;
    search.text.clear();
    commands.push(if repertoire {
        Command::Coverage(CoverageCommand::DrillAt(moves, DrillBook::Repertoire))
    } else {
        Command::DrillOpening(moves)
    });
}

/// The list under the box: the openings found (the selected one marked: Enter takes it), or
/// why there is none. Returns the moves of the one chosen.
fn list_ui(
    ui: &Ui,
    anchor: &egui::Rect,
    search: &OpeningSearch,
    coach: &Coach,
) -> egui::InnerResponse<Option<Vec<shakmaty::Move>>> {
    let screen = ui.ctx().content_rect();
    let width = LIST_WIDTH.min(screen.width() - 16.0);
    let x = anchor
        .left()
        .min(screen.right() - width - 8.0)
        .max(screen.left() + 8.0);
    let pos = egui::pos2(x, anchor.bottom() + 4.0);
    let learner = color_name(coach.session().learner());
    egui::Area::new(box_id().with("list"))
        .order(egui::Order::Foreground)
        .fixed_pos(pos)
        .show(ui.ctx(), |ui| {
            egui::Frame::popup(ui.style())
                .show(ui, |ui| {
                    ui.set_width(width - 16.0);
                    let mut chosen = None;
                    if search.hits.is_empty() {
                        ui.add(egui::Label::new(not_found(&search.text)).wrap());
                        return None;
                    }
                    ui.label(
                        RichText::new(format!(
                            "Choose one to drill from there (you play {learner}):"
                        ))
                        .small()
                        .weak(),
                    );
                    for (i, found) in search.hits.iter().enumerate() {
                        if hit_ui(ui, i == search.selected, found, coach, learner) {
                            chosen = Some(found.hit.moves.clone());
                        }
                    }
                    chosen
                })
                .inner
        })
}

/// One opening: its code and name (a button), its moves under it (and whether the
/// repertoire has it). Whether it was clicked.
fn hit_ui(ui: &mut Ui, selected: bool, found: &Found, coach: &Coach, learner: &str) -> bool {
    let hit = &found.hit;
    let title = match &hit.eco {
        Some(code) => format!("{code} {}", hit.name),
        None => hit.name.clone(),
    };
    let graph = match coach.session().theory() {
        Some(theory) if found.from_theory => theory,
        _ => coach.graph(),
    };
    let clicked = ui
        .add(egui::Button::selectable(selected, title).wrap_mode(egui::TextWrapMode::Wrap))
        .on_hover_ui(|ui| {
            ui.label(format!(
                "Drill from here: you play {learner}{}",
                if selected { " (Enter)" } else { "" }
            ));
            let position = graph.position(hit.node);
            let view = BoardView {
                last_move: hit.moves.last(),
                interactive: false,
                ..BoardView::new(&position)
            };
            ui.allocate_ui(egui::vec2(176.0, 176.0), |ui| {
                board_ui(ui, &view, coach.orientation());
            });
        })
        .clicked();
    let mut moves = numbered_line(&sans_of(&shakmaty::Chess::default(), &hit.moves));
    if !found.in_book {
        moves.push_str(" (not in your repertoire: drilled with the theory)");
    }
    ui.add(egui::Label::new(RichText::new(moves).weak()).wrap());
    clicked
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::book::PositionGraph;
    use crate::coach::settings::Settings;

    #[test]
    fn no_index_is_made_until_something_is_typed() {
        let graph = Arc::new(PositionGraph::eco().unwrap());
        let coach = Coach::new(graph, Settings::default(), None);
        let mut search = OpeningSearch::default();
        // What every frame does with the box empty (the first frame included).
        search.refresh(&coach);
        search.text = "  ".to_owned();
        search.refresh(&coach);
        assert!(search.index.is_none() && search.hits.is_empty());
        search.text = "Najdorf".to_owned();
        search.refresh(&coach);
        assert!(search.index.is_some());
        assert!(search.hits.iter().any(|f| f.hit.name.contains("Najdorf")));
        // Emptied again: nothing listed.
        search.text.clear();
        search.refresh(&coach);
        assert!(search.hits.is_empty());
    }
}
