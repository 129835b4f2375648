//! A window on the repertoire fixture alone, past the questions a new file asks (its side,
//! its import report), and a review log written beforehand: the set-up the review, blindfold
//! and line-mastery kittests share.

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::review::{CardKey, Rating, ReviewRecord, Timestamp};
use hastings::ui::TrainerApp;
use hastings::workspace::data_dir::review_log_in;
use hastings::workspace::review_store::ReviewStore;
use shakmaty::Color;

use super::AppHarness;

/// Writes to `dir`'s review log a review by `color`, a day ago, of the position after each
/// of `reviews`' moves with its rating.
pub fn reviews_a_day_ago(dir: &std::path::Path, color: Color, reviews: &[(&str, Rating)]) {
    let mut store = ReviewStore::open(&review_log_in(dir)).unwrap();
    let time = Timestamp::now(0).plus_days(-1);
    for &(moves, rating) in reviews {
        store
            .append(&ReviewRecord {
                time,
                color,
                rating,
                seconds: 4.0,
                fuzz: false,
                card: CardKey::from_position(&super::position_after(moves)),
            })
            .unwrap();
    }
}

/// The window at `size` on `app`, whose file `file` was loaded: the side question answered
/// with `side` ("For White", "For Black") when asked, the import report closed.
pub fn past_the_questions(app: TrainerApp, size: (f32, f32), file: &str, side: &str) -> AppHarness {
    let mut h = Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
    super::settle(&mut h);
    let asked = h
        .query_all_by(|n| n.label().is_some_and(|l| l.starts_with(side)))
        .next()
        .map(|button| button.click())
        .is_some();
    if asked {
        super::settle(&mut h);
    }
    if h.query_by_label(&format!("Import report: {file}"))
        .is_some()
    {
        h.get_by_label("Close").click();
        super::settle(&mut h);
    }
    h
}
