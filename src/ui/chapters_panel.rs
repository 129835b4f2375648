//! The chapter picker of a loaded repertoire (Book tab): which chapters are drilled,
//! and which side each is for.

use eframe::egui;
use egui::{RichText, Ui};

use crate::book::chapters::Chapter;
use crate::book::{LineSource, Side};
use crate::coach::format::numbered_line;
use crate::workspace::{BookFile, LoadedFile, Workspace};

/// The chapters of `file`, with a checkbox each, "only", "all", and the side the file
/// is for when its chapters do not say. Edits `chosen`; returns whether it changed.
pub fn chapters_ui(
    ui: &mut Ui,
    workspace: &Workspace,
    file: &LoadedFile,
    chosen: &mut BookFile,
) -> bool {
    let mut changed = false;
    let all = file.chapters.len();
    let picked = file
        .chapters
        .iter()
        .filter(|c| workspace.chapter_chosen(&file.path, c.game))
        .count();
    let mut title = if picked == all {
        format!("Chapters ({all})")
    } else {
        format!("Chapters ({picked} of {all} drilled)")
    };
    if let Some(lines) = &chosen.lines {
        title = format!(
            "{title}, {} line{} picked",
            lines.len(),
            if lines.len() == 1 { "" } else { "s" }
        );
    }
    egui::CollapsingHeader::new(title)
        .id_salt(("chapters", &file.path))
        // A study's few chapters are shown at once; a long list waits for a click.
        .default_open(all <= 12)
        .show(ui, |ui| {
            if file.chapters.iter().any(|c| c.tagged.is_none()) {
                changed |= file_side_ui(ui, chosen);
            }
            if workspace.file_sides(&file.path).mixed() {
                ui.add(
                    egui::Label::new(
                        RichText::new(
                            "Chapters for both sides: each is drilled from its own side, \
                             and the side changes with each next line.",
                        )
                        .small()
                        .italics(),
                    )
                    .wrap(),
                );
            }
            let every = picked == all && chosen.lines.is_none();
            if ui
                .add_enabled(!every, egui::Button::new("all").small())
                .on_hover_text("Drill every chapter and line")
                .clicked()
            {
                chosen.chapters = None;
                chosen.lines = None;
                changed = true;
            }
            // The side panel scrolls: no scroll area of its own.
            for c in &file.chapters {
                let row = ChapterRow {
                    workspace,
                    file,
                    chapter: c,
                };
                changed |= chapter_row_ui(ui, &row, chosen);
            }
        });
    changed
}

/// A chapter of a loaded file, with the workspace that knows its side.
struct ChapterRow<'a> {
    workspace: &'a Workspace,
    file: &'a LoadedFile,
    chapter: &'a Chapter,
}

/// One chapter: "only", its checkbox and title, its side.
fn chapter_row_ui(ui: &mut Ui, row: &ChapterRow<'_>, chosen: &mut BookFile) -> bool {
    let ChapterRow {
        workspace,
        file,
        chapter: c,
    } = *row;
    let mut changed = false;
    let mut on = workspace.chapter_chosen(&file.path, c.game);
    let side = workspace
        .chapter_side(&file.path, c)
        .map_or("side not said", Side::name);
    let hover = format!(
        "Chapter {}: {} line{}; for {side}{}",
        c.game,
        c.lines,
        if c.lines == 1 { "" } else { "s" },
        if c.tagged.is_some() {
            " (its tags say)"
        } else {
            ""
        }
    );
    // "only" first, the side after the title: a narrow panel wraps the text only.
    ui.horizontal(|ui| {
        if ui
            .small_button("only")
            .on_hover_text("Drill this chapter alone")
            .clicked()
        {
            chosen.chapters = Some(vec![c.game]);
            changed = true;
        }
        let text = format!("{} ({side})", c.title);
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
        if ui.checkbox(&mut on, text).on_hover_text(hover).changed() {
            let all: Vec<u32> = file.chapters.iter().map(|c| c.game).collect();
            toggle(&mut chosen.chapters, &all, c.game, on);
            changed = true;
        }
    });
    changed |= chapter_side_ui(ui, row, chosen);
    if c.lines > 1 {
        egui::CollapsingHeader::new(format!("its {} lines", c.lines))
            .id_salt(("lines_of", &file.path, c.game))
            .show(ui, |ui| {
                changed |= lines_ui(ui, workspace, file, c.game, chosen)
            });
    }
    changed
}

/// The lines of chapter `game`: a checkbox each (its moves) and "only".
fn lines_ui(
    ui: &mut Ui,
    workspace: &Workspace,
    file: &LoadedFile,
    game: u32,
    chosen: &mut BookFile,
) -> bool {
    let mut changed = false;
    let of_game = file
        .lines
        .iter()
        .enumerate()
        .filter(|(_, l)| matches!(l.source, LineSource::Pgn { game: g, .. } if g == game));
    for (i, line) in of_game {
        let sans = line.sans();
        let moves = match line.start {
            None => numbered_line(&sans),
            Some(_) => sans
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" "),
        };
        let mut on = workspace.line_chosen(&file.path, i);
        ui.horizontal(|ui| {
            if ui
                .small_button("only")
                .on_hover_text("Drill this line alone")
                .clicked()
            {
                chosen.chapters = None;
                chosen.lines = Some(vec![index(i)]);
                changed = true;
            }
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
            if ui.checkbox(&mut on, moves).changed() {
                let all: Vec<u32> = (0..file.lines.len()).map(index).collect();
                toggle(&mut chosen.lines, &all, index(i), on);
                changed = true;
            }
        });
    }
    changed
}

/// "Drilled as White / as Black" for one chapter whose tags do not say, the suggestion
/// marked (its name, the shape of its tree); kept in `chosen`
/// ([`BookFile::chapter_sides`]).
fn chapter_side_ui(ui: &mut Ui, row: &ChapterRow<'_>, chosen: &mut BookFile) -> bool {
    let ChapterRow {
        workspace,
        file,
        chapter: c,
    } = *row;
    let set = workspace.chapter_side_set(&file.path, c);
    // A chapter whose tags say its side shows it in its title; My repertoires and the
    // Repertoire tab change it.
    if c.tagged.is_some() && !set {
        return false;
    }
    let side = workspace.chapter_side(&file.path, c);
    let suggested = c.tagged.or(c.guessed);
    side_picker_ui(
        ui,
        ("chapter_side", &file.path, c.game),
        c.game,
        side,
        suggested,
        set,
    )
    .map(|picked| chosen.set_chapter_side(c.game, picked))
    .is_some()
}

/// The side picker of chapter `game` (from 1): the side now, the suggested one marked;
/// returns the side picked (`None` inside: back to what the tags or the file say).
pub fn side_picker_ui(
    ui: &mut Ui,
    id: impl std::hash::Hash + std::fmt::Debug,
    game: u32,
    side: Option<Side>,
    suggested: Option<Side>,
    set: bool,
) -> Option<Option<Side>> {
    let mut picked = None;
    ui.horizontal(|ui| {
        let shown = side.map_or_else(
            || "side not said".to_owned(),
            |s| format!("drilled {}", as_side(s)),
        );
        let name = format!("Side of chapter {game}");
        // As wide as the panel allows (a narrow panel must not grow for it).
        let width = (ui.available_width() - 2.0 * ui.spacing().icon_width).clamp(60.0, 150.0);
        let response = egui::ComboBox::from_id_salt(id)
            .selected_text(shown)
            .width(width)
            .show_ui(ui, |ui| {
                for s in [Side::White, Side::Black] {
                    let text = if suggested == Some(s) {
                        format!("{} (suggested)", as_side(s))
                    } else {
                        as_side(s)
                    };
                    if ui.selectable_label(side == Some(s) && set, text).clicked() {
                        picked = Some(Some(s));
                    }
                }
                if set && ui.selectable_label(false, "as its tags say").clicked() {
                    picked = Some(None);
                }
            })
            .response;
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::ComboBox, true, &name));
        let hint = match suggested {
            Some(s) => format!(
                "The side you play in this chapter (its orientation): the drill plays it, \
                 the computer the other. Suggested: {} (its tags, its name, or the shape of \
                 its moves: the side with several moves from one position is the opponent)",
                s.name()
            ),
            None => "The side you play in this chapter (its orientation): the drill plays \
                     it, the computer the other"
                .to_owned(),
        };
        response.on_hover_text(hint);
    });
    picked
}

/// "as White", "as Black".
fn as_side(side: Side) -> String {
    format!("as {}", side.name())
}

/// A line's index in its file, as the choice keeps it.
fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// "Untagged chapters are drilled as White / as Black / from either side".
fn file_side_ui(ui: &mut Ui, chosen: &mut BookFile) -> bool {
    let mut changed = false;
    ui.horizontal_wrapped(|ui| {
        ui.label("Untagged chapters are drilled");
        for (side, text) in [
            (Some(Side::White), "as White"),
            (Some(Side::Black), "as Black"),
            (None, "from either side"),
        ] {
            if ui
                .radio(chosen.side == side, text)
                .on_hover_text(
                    "The drill plays this side in them; chapters with a side tag keep theirs",
                )
                .clicked()
                && chosen.side != side
            {
                chosen.side = side;
                chosen.side_asked = true;
                changed = true;
            }
        }
    });
    changed
}

/// Ticks or unticks `item` in a pick list (`None`: every one of `all` picked, which is
/// what it becomes again once every one is ticked).
fn toggle(picks: &mut Option<Vec<u32>>, all: &[u32], item: u32, on: bool) {
    let mut list = picks.clone().unwrap_or_else(|| all.to_vec());
    list.retain(|x| *x != item);
    if on {
        list.push(item);
        list.sort_unstable();
    }
    *picks = (list.len() < all.len()).then_some(list);
}
