//! The next-move chart under the board: hovering a bar shows what it stands for in a
//! tooltip with a background, whole inside the window, even above the tallest bar.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::{self, Pos2, Rect, accesskit::Role, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use hastings::coach::settings::{Settings, Side};
use hastings::ui::TrainerApp;

use crate::common;

fn harness(size: (f32, f32)) -> Harness<'static, TrainerApp> {
    let settings = Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        hide_answer: false,
        ..crate::common::settings()
    };
    let app = TrainerApp::new(common::eco(), settings);
    Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

/// The plot's rectangle: the chart's figure, named by its description.
fn plot_rect(h: &Harness<'_, TrainerApp>) -> Rect {
    h.get_by(|n| {
        n.role() == Role::Figure && n.label().is_some_and(|l| l.starts_with("Next move for"))
    })
    .rect()
}

/// The hover text of the bar `san`, if a label shows it: (its text, its rectangle).
fn hover_label(h: &Harness<'_, TrainerApp>, san: &str) -> Option<(String, Rect)> {
    let start = format!("{san} (book move)");
    h.query_all_by(|n| n.role() == Role::Label && n.value().is_some_and(|v| v.starts_with(&start)))
        .next()
        .map(|n| (n.value().unwrap_or_default(), n.rect()))
}

#[test]
fn hovering_the_top_of_the_tallest_bar_shows_its_numbers_whole_on_a_tooltip() {
    for size in [(1280.0, 800.0), (800.0, 600.0)] {
        let mut h = harness(size);
        h.run();
        let tallest = h.state_mut().chart().rows[0].san.clone();
        let plot = plot_rect(&h);
        let window = Rect::from_min_size(Pos2::ZERO, vec2(size.0, size.1));
        // The first bar is the tallest; sweep its column just under the plot's top edge,
        // where the old text above the bar was cut off.
        let mut found = None;
        let mut x = plot.left() + 2.0;
        while x < plot.left() + plot.width() * 0.3 && found.is_none() {
            h.hover_at(egui::pos2(x, plot.top() + 4.0));
            h.run();
            found = hover_label(&h, &tallest);
            x += 3.0;
        }
        let Some((text, rect)) = found else {
            panic!("{size:?}: no hover text for {tallest} above its bar");
        };
        assert!(text.contains("P = "), "{text:?}");
        assert!(
            window.contains_rect(rect),
            "{size:?}: the hover text at {rect:?} leaves the window"
        );
        // On a tooltip (a framed popup in its own layer), not painted into the plot.
        let label = h
            .query_all_by(|n| n.role() == Role::Label && n.value().as_deref() == Some(&text))
            .next()
            .unwrap();
        let mut parent = label.accesskit_node().parent();
        while parent.as_ref().is_some_and(|p| p.role() != Role::Tooltip) {
            parent = parent.and_then(|p| p.parent());
        }
        assert!(
            parent.is_some(),
            "{size:?}: the hover text is not on a tooltip"
        );
        // Moving away from the bars hides it.
        h.hover_at(egui::pos2(plot.right() - 4.0, plot.bottom() - 4.0));
        h.run();
        assert!(hover_label(&h, &tallest).is_none(), "{size:?}");
    }
}

/// Issue 41, item 4: one line above the chart says what its percentages mean (with the
/// default popularity, the book's lines, not how often players choose a move), inside
/// the window at both sizes.
#[test]
fn one_line_says_what_the_percentages_mean_at_both_sizes() {
    for size in [(1280.0, 800.0), (800.0, 600.0)] {
        let mut h = harness(size);
        h.run();
        let line = h.get_by_label_contains("How often the computer plays each move");
        let text = line.accesskit_node().value().unwrap_or_default();
        assert!(text.contains("your book's lines, not games"), "{text}");
        let window = Rect::from_min_size(Pos2::ZERO, vec2(size.0, size.1));
        assert!(
            window.contains_rect(line.rect()),
            "{:?} at {size:?}",
            line.rect()
        );
    }
}

/// The moves the chart leaves out are summed up in words ("played 2.2% of the time
/// together"), the exact probability named in its hover text only.
#[test]
fn the_moves_not_drawn_are_said_in_words() {
    let mut h = harness((1280.0, 800.0));
    h.run();
    let rows = h.state_mut().chart().rows.clone();
    let line = h.get_by_label_contains("more moves not drawn");
    let text = line.accesskit_node().value().unwrap_or_default();
    assert!(text.ends_with("% of the time together"), "{text}");
    assert!(!text.contains(" P "), "{text}");
    // The share said is the sum of the moves left out (as the chart's rows give them).
    let drawn = rows.len() - text.split(' ').next().unwrap().parse::<usize>().unwrap();
    let rest: f64 = rows[drawn..].iter().map(|r| r.p).sum();
    assert!(text.contains(&format!("{:.1}%", rest * 100.0)), "{text}");
}
