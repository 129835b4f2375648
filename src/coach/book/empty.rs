//! Why the book is empty, when it is: no source ticked in the Book tab, or a filter
//! that leaves no line (a leftover "Name contains"). The drill panel says so instead of
//! a fake "End of line", offers to clear the filter, and Next line and Play on wait.

use crate::book::LineFilter;
use crate::coach::context::Context;
use crate::workspace::BookChoice;

/// Why the book has no line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmptyBook {
    /// No source is ticked in the Book tab: neither ECO nor a loaded file.
    NoSource,
    /// The sources have lines, but the Book tab's filters leave none: `filter` says
    /// which ("Name contains: Najdorf").
    Filtered {
        /// The filters set, as the Book tab names them.
        filter: String,
    },
}

impl EmptyBook {
    /// The sentence the drill panel shows.
    pub fn sentence(&self) -> String {
        match self {
            EmptyBook::NoSource => "The book is empty: no source is ticked in the Book tab. \
                                    Tick ECO or one of your files to drill."
                .to_owned(),
            EmptyBook::Filtered { filter } => format!(
                "The book is empty: the Book tab's filter ({filter}) leaves no line of the \
                 sources ticked."
            ),
        }
    }

    /// Why a button that needs a book is disabled (its hover text).
    pub fn why_disabled(&self) -> &'static str {
        match self {
            EmptyBook::NoSource => "The book is empty: tick a source in the Book tab first",
            EmptyBook::Filtered { .. } => "The book is empty: clear the Book tab's filter first",
        }
    }
}

/// Why the book drilled is empty, if it is (`None` while files load or the book is
/// being built: it may not be empty for long).
pub(crate) fn empty_book(ctx: &Context) -> Option<EmptyBook> {
    if !ctx.graph.lines().is_empty() || ctx.workspace.is_busy() {
        return None;
    }
    let choice = ctx.workspace.choice();
    if !choice.eco && !choice.files.iter().any(|f| f.enabled) {
        return Some(EmptyBook::NoSource);
    }
    let filter = filters_set(&choice.filter);
    (!filter.is_empty()).then(|| EmptyBook::Filtered {
        filter: filter.join(", "),
    })
}

/// The same sources with no filter: what "Clear the filter" sets.
pub fn without_filter(choice: &BookChoice) -> BookChoice {
    BookChoice {
        filter: LineFilter::default(),
        ..choice.clone()
    }
}

/// The filters set, in the Book tab's words.
fn filters_set(filter: &LineFilter) -> Vec<String> {
    let mut out = Vec::new();
    if filter.min_moves_per_side > 0 {
        out.push(format!(
            "at least {} moves per side",
            filter.min_moves_per_side
        ));
    }
    if !filter.volumes.is_empty() {
        let volumes: String = filter.volumes.iter().collect();
        out.push(format!("ECO volumes {volumes}"));
    }
    if let Some((from, to)) = &filter.eco_range {
        out.push(format!("ECO {from}–{to}"));
    }
    if let Some(name) = filter.name_contains.as_deref().filter(|n| !n.is_empty()) {
        out.push(format!("Name contains: {name}"));
    }
    out
}
