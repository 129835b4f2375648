//! Finding an opening by name or ECO code as one types ("Najdorf", "C65", "king's
//! indian", "B90-B99"): the lines of a [`PositionGraph`] matched word by word, ignoring
//! case, accents and punctuation, ranked, one result per position.
//!
//! Ranking, best first:
//! 1. every word is an ECO code (`C65`), a code's start (`C6`) or a range (`B90-B99`)
//!    that the line's code matches;
//! 2. the name, or one of its parts (after `:` or `,`), starts with the words
//!    ("Berlin" → "Ruy Lopez: Berlin Defense");
//! 3. each word starts a word of the name ("sicilian najdorf");
//! 4. each word is somewhere in the name.
//!
//! Within a rank, the position more lines of the book go through comes first (the main
//! Berlin, C65, before the Bishop's Opening's, C24), then the shorter line: an opening's
//! own position before its sidelines.

use super::graph::{LineId, NodeId, PositionGraph};
use shakmaty::Move;

/// The lines of a book, ready to be searched by name or ECO code.
///
/// ```
/// use hastings::book::{PositionGraph, search::OpeningIndex};
///
/// let graph = PositionGraph::eco()?;
/// let index = OpeningIndex::new(&graph);
/// let hits = index.search(&graph, "berlin", 5);
/// assert_eq!(hits[0].eco.as_deref(), Some("C65"));
/// assert_eq!(hits[0].name, "Ruy Lopez: Berlin Defense");
/// # Ok::<(), hastings::book::BookError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct OpeningIndex {
    entries: Vec<Entry>,
}

/// One line as the index keeps it.
#[derive(Clone, Debug)]
struct Entry {
    line: LineId,
    node: NodeId,
    /// The ECO code in capitals, empty when the line has none.
    code: String,
    /// The name folded ([`fold`]): lower case, no accents, words separated by one space.
    folded: String,
    /// Where in `folded` the name and each of its parts start.
    part_starts: Vec<usize>,
    /// `T(x)` of the node the line ends at.
    weight: f64,
    plies: usize,
}

/// An opening found: a line of the book and where it ends.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningHit {
    /// The line.
    pub line: LineId,
    /// The position it ends at.
    pub node: NodeId,
    /// The line's ECO code, if any.
    pub eco: Option<String>,
    /// The line's name.
    pub name: String,
    /// The moves from the standard start position that reach the position.
    pub moves: Vec<Move>,
}

impl OpeningIndex {
    /// The index of the lines of `graph` that have a name or an ECO code and start at the
    /// standard position (a drill starts from there).
    pub fn new(graph: &PositionGraph) -> OpeningIndex {
        let entries = graph
            .lines()
            .iter()
            .enumerate()
            .filter(|(_, line)| line.start.is_none())
            .filter_map(|(i, line)| {
                let id = LineId(u32::try_from(i).ok()?);
                let code = line
                    .eco
                    .as_deref()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_uppercase();
                let (folded, part_starts) = fold_parts(&line.name);
                if folded.is_empty() && code.is_empty() {
                    return None;
                }
                let node = graph.line_end(id);
                Some(Entry {
                    line: id,
                    node,
                    code,
                    folded,
                    part_starts,
                    weight: graph.weight(node),
                    plies: line.moves.len(),
                })
            })
            .collect();
        OpeningIndex { entries }
    }

    /// The number of lines indexed.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no line is indexed.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The best `limit` openings of `graph` (the graph the index was made of) matching
    /// `query`, best first, one per position. Empty when the query has no word or
    /// nothing matches ([`not_found`] says so).
    pub fn search(&self, graph: &PositionGraph, query: &str, limit: usize) -> Vec<OpeningHit> {
        let terms = terms(query);
        if terms.is_empty() || limit == 0 {
            return Vec::new();
        }
        let mut ranked: Vec<(u8, &Entry)> = self
            .entries
            .iter()
            .filter_map(|e| rank(e, &terms).map(|r| (r, e)))
            .collect();
        ranked.sort_by(|(ra, a), (rb, b)| {
            ra.cmp(rb)
                .then(b.weight.total_cmp(&a.weight))
                .then(a.plies.cmp(&b.plies))
                .then(a.code.cmp(&b.code))
                .then(a.folded.cmp(&b.folded))
                .then(a.line.cmp(&b.line))
        });
        let mut seen = std::collections::HashSet::new();
        ranked
            .into_iter()
            .filter(|(_, e)| seen.insert(e.node))
            .take(limit)
            .map(|(_, e)| {
                let line = graph.line(e.line);
                OpeningHit {
                    line: e.line,
                    node: e.node,
                    eco: line.eco.clone().filter(|c| !c.is_empty()),
                    name: line.name.clone(),
                    moves: line.moves.clone(),
                }
            })
            .collect()
    }
}

/// What to say when `query` found nothing.
pub fn not_found(query: &str) -> String {
    format!(
        "No opening in the book is called \"{}\": try a name such as Najdorf or a code such as C65.",
        query.trim()
    )
}

/// A word of the query: text to find in names, and the ECO codes it stands for, if it
/// looks like a code.
#[derive(Debug, PartialEq)]
struct Term {
    /// The word folded; empty for a range.
    text: String,
    code: Option<CodeMatch>,
}

/// The ECO codes a word stands for.
#[derive(Debug, PartialEq)]
enum CodeMatch {
    /// `C65` or its start `C6`.
    Prefix(String),
    /// `B90-B99`, both ends included.
    Range(String, String),
}

impl CodeMatch {
    fn matches(&self, code: &str) -> bool {
        match self {
            CodeMatch::Prefix(p) => !code.is_empty() && code.starts_with(p.as_str()),
            CodeMatch::Range(from, to) => {
                !code.is_empty() && code >= from.as_str() && code <= to.as_str()
            }
        }
    }
}

/// The words of a query: split at spaces; each code or range kept whole, other words
/// folded (and split again where folding makes spaces: "Milner-Barry").
fn terms(query: &str) -> Vec<Term> {
    let mut out = Vec::new();
    for raw in query.split_whitespace() {
        if let Some((from, to)) = code_range(raw) {
            out.push(Term {
                text: String::new(),
                code: Some(CodeMatch::Range(from, to)),
            });
            continue;
        }
        let code = is_code_start(raw).then(|| CodeMatch::Prefix(raw.to_ascii_uppercase()));
        let folded = fold(raw);
        let mut words = folded.split(' ').filter(|w| !w.is_empty()).peekable();
        if words.peek().is_none() {
            continue;
        }
        if code.is_some() {
            out.push(Term {
                text: folded.clone(),
                code,
            });
        } else {
            out.extend(words.map(|w| Term {
                text: w.to_owned(),
                code: None,
            }));
        }
    }
    out
}

/// `A00` to `E99`, or its start `A0` (a volume and one digit).
fn is_code_start(word: &str) -> bool {
    let b = word.as_bytes();
    (2..=3).contains(&b.len())
        && matches!(b[0].to_ascii_uppercase(), b'A'..=b'E')
        && b[1..].iter().all(u8::is_ascii_digit)
}

/// `B90-B99` (a hyphen or a dash between two full codes), in capitals, the lower first.
fn code_range(word: &str) -> Option<(String, String)> {
    let (from, to) = word.split_once(['-', '–', '—'])?;
    let full = |c: &str| c.len() == 3 && is_code_start(c);
    if !full(from) || !full(to) {
        return None;
    }
    let (from, to) = (from.to_ascii_uppercase(), to.to_ascii_uppercase());
    Some(if from <= to { (from, to) } else { (to, from) })
}

/// The rank of a line for the query (0 best), or `None` when a word matches neither
/// its code nor its name.
fn rank(e: &Entry, terms: &[Term]) -> Option<u8> {
    let mut all_code = true;
    let mut text: Vec<&str> = Vec::new();
    for t in terms {
        if t.code.as_ref().is_some_and(|c| c.matches(&e.code)) {
            continue;
        }
        all_code = false;
        if t.text.is_empty() || !e.folded.contains(t.text.as_str()) {
            return None;
        }
        text.push(&t.text);
    }
    if all_code {
        return Some(0);
    }
    let phrase = text.join(" ");
    let starts_part = e
        .part_starts
        .iter()
        .any(|&s| e.folded[s..].starts_with(phrase.as_str()));
    if starts_part {
        return Some(1);
    }
    let starts_words = text.iter().all(|w| {
        e.folded
            .match_indices(w)
            .any(|(i, _)| i == 0 || e.folded.as_bytes()[i - 1] == b' ')
    });
    Some(if starts_words { 2 } else { 3 })
}

/// `text` in lower case without accents or apostrophes, other punctuation made spaces,
/// words separated by one space: "King's Indian: Sämisch" → "kings indian samisch".
pub fn fold(text: &str) -> String {
    fold_parts(text).0
}

/// [`fold`], and where in the result the text and each of its parts (after `:` or `,`)
/// start.
fn fold_parts(text: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut starts = vec![0];
    let mut space = false;
    for c in text.chars() {
        if matches!(c, ':' | ',') && !out.is_empty() {
            space = true;
            starts.push(out.len() + 1);
            continue;
        }
        if matches!(c, '\'' | '’' | '`') {
            continue;
        }
        let lower = c.to_lowercase().next().unwrap_or(c);
        if !lower.is_alphanumeric() {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        match fold_char(lower) {
            Some(plain) => out.push_str(plain),
            None => out.push(lower),
        }
    }
    starts.retain(|&s| s <= out.len());
    starts.dedup();
    (out, starts)
}

/// A lower-case letter without its accent (`ß` is `ss`, `æ` is `ae`); `None` for a
/// letter or digit that has none.
fn fold_char(c: char) -> Option<&'static str> {
    Some(match c {
        'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' | 'ą' | 'ă' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'č' => "c",
        'ď' | 'đ' => "d",
        'é' | 'è' | 'ê' | 'ë' | 'ę' | 'ě' => "e",
        'í' | 'ì' | 'î' | 'ï' => "i",
        'ł' => "l",
        'ñ' | 'ń' | 'ň' => "n",
        'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'ø' | 'ő' => "o",
        'œ' => "oe",
        'ř' => "r",
        'ś' | 'š' | 'ş' => "s",
        'ß' => "ss",
        'ť' | 'ţ' => "t",
        'ú' | 'ù' | 'û' | 'ü' | 'ů' | 'ű' => "u",
        'ý' | 'ÿ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_drops_case_accents_apostrophes_and_punctuation() {
        assert_eq!(fold("King's Indian: Sämisch"), "kings indian samisch");
        assert_eq!(
            fold("Grünfeld, Hjørring  Counter-gambit"),
            "grunfeld hjorring counter gambit"
        );
        assert_eq!(fold("  Petronić  "), "petronic");
        let (folded, starts) = fold_parts("Ruy Lopez: Berlin Defense, Rio Gambit");
        let parts: Vec<&str> = starts.iter().map(|&s| &folded[s..]).collect();
        assert_eq!(
            parts,
            [
                "ruy lopez berlin defense rio gambit",
                "berlin defense rio gambit",
                "rio gambit"
            ]
        );
    }

    #[test]
    fn codes_prefixes_and_ranges_are_read_as_codes() {
        assert_eq!(
            terms("b90-B99 c6 Najdorf"),
            [
                Term {
                    text: String::new(),
                    code: Some(CodeMatch::Range("B90".into(), "B99".into()))
                },
                Term {
                    text: "c6".into(),
                    code: Some(CodeMatch::Prefix("C6".into()))
                },
                Term {
                    text: "najdorf".into(),
                    code: None
                },
            ]
        );
        // Reversed ends are put in order; a word that only looks like one is text.
        assert_eq!(
            terms("C99–C60")[0].code,
            Some(CodeMatch::Range("C60".into(), "C99".into()))
        );
        assert_eq!(terms("F65")[0].code, None);
        assert!(terms(" ,; ").is_empty());
    }
}
