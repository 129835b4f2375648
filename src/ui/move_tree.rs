//! A chapter's move tree as lichess shows a study: the main line with move numbers, each
//! variation inline in parentheses after the move it replaces, glyphs after the moves
//! and comments in grey. The move at the cursor is highlighted; a click goes there and
//! a right click opens the move's menu (delete from here, promote, make main line,
//! the move's rank: main move, alternative, paused; comment, glyphs). A paused move is
//! drawn struck through with "paused" after it; a move whose rank its place does not
//! show (a main move after another, an alternative marked first) says so after it.
//!
//! A long chapter is drawn around the way to the move selected, at most about
//! [`MOVES_SHOWN`] moves besides it; the others are folded into "…".
//!
//! Each move is a selectable label named by its number and move ("1. e4", "1... e5",
//! also where the tree writes only "e5"), so tests find it as a screen reader would.

use eframe::egui;
use egui::{Color32, RichText, Ui};

use crate::book::repertoire::{GameTree, Node, NodeId, Rank, Standing};
use crate::coach::repertoire::RepertoireCommand;

/// The glyphs the menu offers, with their NAGs.
pub(super) const GLYPHS: [(u8, &str); 6] = [
    (1, "!"),
    (2, "?"),
    (3, "!!"),
    (4, "??"),
    (5, "!?"),
    (6, "?!"),
];

/// What the tree asks of the panel.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum TreeAction {
    /// A command for the repertoire editor.
    Command(RepertoireCommand),
    /// Open the comment editor for this move.
    EditComment(NodeId),
}

/// The text of a NAG: `!`, `?`, … for the six move glyphs, `$n` for the others.
pub(super) fn glyph(nag: u8) -> String {
    match GLYPHS.iter().find(|(n, _)| *n == nag) {
        Some((_, g)) => (*g).to_owned(),
        None => match nag {
            10 => "=".to_owned(),
            13 => "∞".to_owned(),
            14 => "⩲".to_owned(),
            15 => "⩱".to_owned(),
            16 => "±".to_owned(),
            17 => "∓".to_owned(),
            18 => "+−".to_owned(),
            19 => "−+".to_owned(),
            n => format!("${n}"),
        },
    }
}

/// A move's text: its number where it needs one (White's moves, and Black's after a
/// break), its SAN and its glyphs.
pub(super) fn move_text(tree: &GameTree, node: &Node, numbered: bool) -> String {
    let Some((_, san)) = node.mv() else {
        return String::new();
    };
    let before = node.parent().and_then(|p| tree.node(p));
    let (number, white) = before.map_or((1, true), |b| {
        let pos = b.position();
        (
            shakmaty::Position::fullmoves(pos).get(),
            shakmaty::Position::turn(pos).is_white(),
        )
    });
    let glyphs: String = node.nags().iter().map(|&n| glyph(n)).collect();
    match (white, numbered) {
        (true, _) => format!("{number}. {san}{glyphs}"),
        (false, true) => format!("{number}... {san}{glyphs}"),
        (false, false) => format!("{san}{glyphs}"),
    }
}

/// The most moves drawn in a frame: a large chapter is drawn around the way to the
/// cursor, the rest folded into "…" (a click goes into the variation).
pub(super) const MOVES_SHOWN: usize = 600;

/// The tree of one chapter; returns what was asked.
pub(super) fn move_tree_ui(ui: &mut Ui, tree: &GameTree, cursor: NodeId) -> Option<TreeAction> {
    let mut action = None;
    // Scroll to the cursor once when it moved, not every frame (the learner may scroll).
    let id = ui.make_persistent_id("hastings_move_tree_cursor");
    let scroll = ui.data(|d| d.get_temp::<NodeId>(id)) != Some(cursor);
    ui.data_mut(|d| d.insert_temp(id, cursor));
    let mut folded = false;
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing = egui::vec2(3.0, 2.0);
        if let Some(text) = comment_text(tree.root()) {
            comment_ui(ui, &text);
        }
        let mut drawer = Drawer {
            tree,
            cursor,
            path: tree.path(cursor),
            budget: MOVES_SHOWN,
            scroll,
            folded: false,
            action: &mut action,
        };
        drawer.line(ui, GameTree::ROOT, true);
        folded = drawer.folded;
    });
    if tree.root().children().is_empty() {
        ui.weak("No moves yet. Tick \"Add moves\" and play them on the board.");
    }
    if folded {
        ui.weak(format!(
            "A long chapter: about {MOVES_SHOWN} moves are shown around the move selected; \
             click … to open a line, or walk with the arrow keys."
        ));
    }
    action
}

struct Drawer<'a> {
    tree: &'a GameTree,
    cursor: NodeId,
    /// The moves from the start to the cursor: always drawn.
    path: Vec<NodeId>,
    /// How many more moves off the path may be drawn.
    budget: usize,
    /// Whether to scroll the cursor's move into view.
    scroll: bool,
    /// Whether moves were left out.
    folded: bool,
    action: &'a mut Option<TreeAction>,
}

impl Drawer<'_> {
    /// Whether `id` is drawn: on the way to the cursor, or within the budget.
    fn drawn(&mut self, id: NodeId) -> bool {
        if self.path.contains(&id) {
            return true;
        }
        if self.budget == 0 {
            self.folded = true;
            return false;
        }
        self.budget -= 1;
        true
    }

    /// "…" for moves left out; a click goes to `id`, the first of them.
    fn fold_ui(&mut self, ui: &mut Ui, id: NodeId) {
        let response = ui
            .small_button("…")
            .on_hover_text("More moves: click to go there");
        if response.clicked() {
            *self.action = Some(TreeAction::Command(RepertoireCommand::Goto(id)));
        }
    }

    /// The line from `from`'s first child on, with the variations of each move after it.
    fn line(&mut self, ui: &mut Ui, from: NodeId, numbered: bool) {
        let mut at = from;
        let mut numbered = numbered;
        loop {
            let Some(node) = self.tree.node(at) else {
                return;
            };
            let Some((&main, others)) = node.children().split_first() else {
                return;
            };
            if !self.drawn(main) {
                self.fold_ui(ui, main);
                return;
            }
            numbered = self.move_ui(ui, main, numbered);
            // The variations left out are one "( … )", after those drawn.
            let mut left_out = None;
            for &variation in others {
                if !self.drawn(variation) {
                    left_out = left_out.or(Some(variation));
                    continue;
                }
                ui.label(RichText::new("(").weak());
                let after = self.move_ui(ui, variation, true);
                self.line(ui, variation, after);
                ui.label(RichText::new(")").weak());
                numbered = true;
            }
            if let Some(first) = left_out {
                ui.label(RichText::new("(").weak());
                self.fold_ui(ui, first);
                ui.label(RichText::new(")").weak());
                numbered = true;
            }
            at = main;
        }
    }

    /// One move with its comments; returns whether the next move needs its number.
    fn move_ui(&mut self, ui: &mut Ui, id: NodeId, numbered: bool) -> bool {
        let Some(node) = self.tree.node(id) else {
            return true;
        };
        if let Some(text) = node.starting_comment().filter(|t| !t.is_empty()) {
            comment_ui(ui, text);
        }
        let text = move_text(self.tree, node, numbered);
        let current = id == self.cursor;
        let standing = self.tree.standing(id);
        let mut label = RichText::new(text).strong();
        if standing == Some(Standing::Paused) {
            label = label.strikethrough().weak();
        }
        let response = ui.selectable_label(current, label);
        // Named with its number, as if after a break ("1... e5"): a screen reader says
        // which move it is, and the name is never a square's.
        let name = move_text(self.tree, node, true);
        response
            .widget_info(|| egui::WidgetInfo::selected(egui::Role::Button, true, current, &name));
        if current && self.scroll && !ui.is_rect_visible(response.rect) {
            response.scroll_to_me(None);
        }
        if response.clicked() {
            *self.action = Some(TreeAction::Command(RepertoireCommand::Goto(id)));
        }
        response.context_menu(|ui| {
            if let Some(a) = move_menu_ui(ui, self.tree, node, id) {
                *self.action = Some(a);
                ui.close();
            }
        });
        if let Some(tag) = rank_tag(self.tree, node, id) {
            ui.label(RichText::new(tag).small().weak())
                .on_hover_text(rank_hover(standing));
        }
        match comment_text(node) {
            Some(text) => {
                comment_ui(ui, &text);
                true
            }
            None => false,
        }
    }
}

/// The comment's text without its commands (`[%cal …]`), if it says anything.
fn comment_text(node: &Node) -> Option<String> {
    node.annotation().comment.filter(|t| !t.trim().is_empty())
}

fn comment_ui(ui: &mut Ui, text: &str) {
    ui.label(RichText::new(text).italics().color(Color32::from_gray(120)));
}

/// The word after a move whose rank its place does not show: "paused", "main" after
/// another move, "alternative" when first.
fn rank_tag(tree: &GameTree, node: &Node, id: NodeId) -> Option<&'static str> {
    let first = node
        .parent()
        .and_then(|p| tree.node(p))
        .is_none_or(|p| p.children().first() == Some(&id));
    match tree.standing(id)? {
        Standing::Paused => Some("paused"),
        Standing::Main if !first => Some("main"),
        Standing::Alternative if first => Some("alternative"),
        _ => None,
    }
}

/// The exact terms behind a rank's word.
fn rank_hover(standing: Option<Standing>) -> &'static str {
    match standing {
        Some(Standing::Paused) => {
            "Paused alternative ([%hastings paused] in its comment): kept in the file,              left out of drills, reviews and coverage"
        }
        Some(Standing::Alternative) => {
            "Alternative ([%hastings alt] in its comment): drilled, but not your main move"
        }
        _ => "Main move: the first move here without a mark, the one the drill expects",
    }
}

/// The rank items of a move's menu.
fn rank_menu_ui(ui: &mut Ui, standing: Option<Standing>, id: NodeId) -> Option<RepertoireCommand> {
    let mut chosen = None;
    let mut item = |ui: &mut Ui, label: &str, hover: &str, rank: Rank| {
        if ui.button(label).on_hover_text(hover).clicked() {
            chosen = Some(RepertoireCommand::Mark(id, rank));
        }
    };
    if standing != Some(Standing::Main) {
        item(
            ui,
            "Make my main move",
            "Main move: first at this position in the file (its mark taken away), the move \
             the drill expects",
            Rank::Main,
        );
    }
    if standing == Some(Standing::Main) {
        item(
            ui,
            "Make an alternative",
            "Alternative: [%hastings alt] in its comment; the drill says your main move",
            Rank::Alternative,
        );
    }
    if standing == Some(Standing::Paused) {
        item(
            ui,
            "Un-pause",
            "Un-pause: drilled again, as an alternative",
            Rank::Unpause,
        );
    } else {
        item(
            ui,
            "Pause this move",
            "Paused: [%hastings paused] in its comment; kept in the file, left out of \
             drills, reviews and coverage",
            Rank::Pause,
        );
    }
    chosen
}

/// The right-click menu of a move.
fn move_menu_ui(ui: &mut Ui, tree: &GameTree, node: &Node, id: NodeId) -> Option<TreeAction> {
    let mut chosen: Option<RepertoireCommand> = None;
    let is_main = node
        .parent()
        .and_then(|p| tree.node(p))
        .is_none_or(|p| p.children().first() == Some(&id));
    if ui.button("Delete from here").clicked() {
        chosen = Some(RepertoireCommand::Delete(id));
    }
    if !is_main && ui.button("Promote variation").clicked() {
        chosen = Some(RepertoireCommand::Promote(id));
    }
    if !is_main && ui.button("Make main line").clicked() {
        chosen = Some(RepertoireCommand::PromoteToMain(id));
    }
    ui.separator();
    if let Some(c) = rank_menu_ui(ui, tree.standing(id), id) {
        chosen = Some(c);
    }
    ui.separator();
    ui.horizontal(|ui| {
        for (nag, g) in GLYPHS {
            let on = node.nags().contains(&nag);
            if ui.selectable_label(on, g).clicked() {
                chosen = Some(RepertoireCommand::ToggleNag(id, nag));
            }
        }
    });
    if ui.button("Comment…").clicked() {
        return Some(TreeAction::EditComment(id));
    }
    chosen.map(TreeAction::Command)
}
