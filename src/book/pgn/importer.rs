//! A recorded game into lines: plays its events into a [`Tree`], reports the first
//! problem, and turns every root-to-leaf path into an [`OpeningLine`] with its name,
//! ECO code, annotations and the game's tags (one copy shared by the game's lines).

use std::sync::Arc;

use super::distinct::DistinctPositions;
use super::report::{ImportIssue, IssueReason, Summary};
use super::scan::Unknown;
use super::tree::{NONE, Tree, TreeNode};
use super::visitor::GameRecord;
use super::{ImportMode, ImportOptions, MAX_KEPT_ISSUES, PgnImport};
use crate::book::graph::{LineId, PositionGraph};
use crate::book::line::{LineSource, MoveAnnotation, OpeningLine, SourceId, Start};
use crate::book::tags::GameTags;

/// Collects the lines and the report of one file, game by game.
pub(super) struct Importer<'a> {
    source: SourceId,
    options: ImportOptions,
    names: Option<&'a PositionGraph>,
    out: PgnImport,
    positions: &'a mut DistinctPositions,
    /// Whether to keep the lines, or only count them (a report of the file).
    keep_lines: bool,
    /// The last game's tree nodes, reused.
    spare: Vec<TreeNode>,
}

impl<'a> Importer<'a> {
    pub fn new(
        source: SourceId,
        options: ImportOptions,
        names: Option<&'a PositionGraph>,
        keep_lines: bool,
        positions: &'a mut DistinctPositions,
    ) -> Importer<'a> {
        Importer {
            source,
            options,
            names,
            out: PgnImport::default(),
            positions,
            keep_lines,
            spare: Vec::new(),
        }
    }

    fn issue(&mut self, issue: ImportIssue) {
        let report = &mut self.out.report;
        report.issue_count += 1;
        if report.issues.len() < MAX_KEPT_ISSUES {
            report.issues.push(issue);
        }
    }

    /// Imports game `number` (at byte `offset`), read in `mode`; `unknown` is the first
    /// token the reader skipped, `parse_error` what stopped the reader.
    pub fn game(
        &mut self,
        number: u32,
        offset: u64,
        mode: ImportMode,
        game: &mut GameRecord,
        unknown: Option<Unknown>,
        parse_error: Option<IssueReason>,
    ) {
        let tags = &game.tags;
        // A report keeps only some tags: whether there were any is `tagged`.
        let tagged = game.tagged;
        let issue = |ply: u32, san: String, reason: IssueReason| ImportIssue {
            game: number,
            offset,
            summary: Summary::of(tags),
            ply,
            san,
            reason,
        };
        let start = match &game.start {
            Some(Ok(start)) => start.clone(),
            Some(Err(reason)) => {
                self.out.report.games += 1;
                let reason = reason.clone();
                self.issue(issue(0, String::new(), reason));
                return;
            }
            // The reader failed inside the tags.
            None => {
                if tagged {
                    self.out.report.games += 1;
                }
                let reason = parse_error.unwrap_or(IssueReason::UnterminatedTag);
                self.issue(issue(0, String::new(), reason));
                return;
            }
        };
        let line_start = start.clone().map(Start::new);
        let start_pos = start.unwrap_or_default();
        let games_mode = mode == ImportMode::Games;
        let spare = std::mem::take(&mut self.spare);
        let mut tree = Tree::new(start_pos, self.options.limit(mode), games_mode, spare);
        let cut = unknown.as_ref().map_or(game.events.len(), |u| u.event);
        let played = tree.play(&game.events[..cut.min(game.events.len())]);
        let (outcome, ply) = (played.outcome, played.depth + 1);
        let problem = if let Some(stop) = played.stop {
            Some(issue(stop.ply, stop.san, stop.reason))
        } else if let Some(u) = unknown {
            let reason = if u.last && !outcome && parse_error.is_none() {
                IssueReason::Truncated
            } else {
                IssueReason::UnknownToken
            };
            Some(issue(ply, u.token, reason))
        } else if let Some(reason) = parse_error {
            Some(issue(ply, String::new(), reason))
        } else if game.stopped || tree.nodes.len() == 1 {
            // Stopped at the ply limit: the rest of the game is not needed.
            None
        } else if played.open > 1 && !games_mode {
            Some(issue(ply, String::new(), IssueReason::UnclosedVariation))
        } else if !outcome {
            Some(issue(ply, String::new(), IssueReason::Truncated))
        } else {
            None
        };
        let truncated = problem.is_some();
        // A game has tags, or starts with moves (junk starts with an unknown token).
        let move_problem = problem.as_ref().is_some_and(|p| {
            matches!(
                p.reason,
                IssueReason::IllegalMove | IssueReason::AmbiguousMove | IssueReason::NullMove
            )
        });
        if tagged || tree.nodes.len() > 1 || move_problem {
            self.out.report.games += 1;
        }
        if tree.nodes.len() == 1 {
            // A game without moves (a forfeit) has nothing to import; junk is reported.
            match problem {
                Some(problem) => self.issue(problem),
                None if !tagged => {
                    self.issue(issue(0, String::new(), IssueReason::NotAGame));
                }
                None => self.out.report.without_moves += 1,
            }
            return;
        }
        if let Some(problem) = problem {
            self.issue(problem);
        }
        self.emit(number, &tree, &mut game.tags, line_start, truncated);
        self.spare = tree.into_nodes();
    }

    fn emit(
        &mut self,
        number: u32,
        tree: &Tree,
        game_tags: &mut GameTags,
        start: Option<Start>,
        truncated: bool,
    ) {
        for node in &tree.nodes {
            self.positions.insert(&node.key);
        }
        if !self.keep_lines {
            // Games mode keeps the mainline only (the tree has no other branch).
            let lines = if tree.games_mode {
                1
            } else {
                tree.leaf_count()
            };
            self.out.report.lines += lines;
            self.out.report.imported += 1;
            return;
        }
        // The lines keep the tags; a report leaves them to be reused.
        let mut tags = std::mem::take(game_tags);
        let tag_name = line_name(&tags);
        let named = match (&tag_name, self.names) {
            (None, Some(names)) => eco_names(tree, names),
            _ => Vec::new(),
        };
        let eco_tag = tags.known("ECO").map(str::to_owned);
        let shared_tags = (!tags.is_empty()).then(|| {
            tags.shrink_to_fit();
            Arc::new(tags)
        });
        let leaves = if tree.games_mode {
            // Games mode: the mainline only (the tree has no other branch).
            tree.leaves().into_iter().take(1).collect()
        } else {
            tree.leaves()
        };
        for leaf in leaves {
            // A paused move and what follows it are not in the book.
            let Some(path) = tree.kept_path(leaf) else {
                continue;
            };
            let end = path.last().copied().unwrap_or(leaf);
            let mut moves = Vec::with_capacity(path.len());
            let mut annotations = Vec::new();
            for (ply, &n) in path.iter().enumerate() {
                let node = &tree.nodes[n as usize];
                if let Some((_, mv)) = node.mv {
                    moves.push(mv);
                }
                if let Some(note) = &node.note {
                    annotations.push(MoveAnnotation {
                        ply: u32::try_from(ply).unwrap_or(u32::MAX),
                        ..(**note).clone()
                    });
                }
            }
            let eco_line = named
                .get(end as usize)
                .copied()
                .flatten()
                .and_then(|id| self.names.map(|g| g.line(id)));
            let name = match (&tag_name, eco_line) {
                (Some(name), _) => name.clone(),
                (None, Some(line)) => line.name.clone(),
                (None, None) => String::new(),
            };
            let eco = eco_tag.clone().or_else(|| {
                eco_line
                    .filter(|_| tag_name.is_none())
                    .and_then(|l| l.eco.clone())
            });
            self.out.lines.push(OpeningLine {
                source: LineSource::Pgn {
                    source: self.source,
                    game: number,
                },
                eco,
                name,
                start: start.clone(),
                moves,
                weight: 1.0,
                annotations,
                truncated,
                tags: shared_tags.clone(),
            });
            self.out.report.lines += 1;
        }
        self.out.report.imported += 1;
    }

    /// The import, with the distinct positions counted and the mode decided.
    pub fn finish(mut self, mode: Option<ImportMode>) -> PgnImport {
        self.out.report.positions = self.positions.len();
        self.out.report.mode = mode.unwrap_or(self.options.mode);
        self.out
    }
}

/// `Opening: Variation` from the tags, or either alone.
pub(crate) fn line_name(tags: &GameTags) -> Option<String> {
    match (tags.known("Opening"), tags.known("Variation")) {
        (Some(o), Some(v)) => Some(format!("{o}: {v}")),
        (Some(o), None) => Some(o.to_owned()),
        (None, Some(v)) => Some(v.to_owned()),
        (None, None) => None,
    }
}

/// For each tree node, the ECO line that names it: the deepest named position on the
/// way from the root.
fn eco_names(tree: &Tree, names: &PositionGraph) -> Vec<Option<LineId>> {
    let mut out: Vec<Option<LineId>> = Vec::with_capacity(tree.nodes.len());
    for node in &tree.nodes {
        let own = names.node(&node.key).and_then(|n| names.name(n));
        let inherited = match node.parent {
            NONE => None,
            p => out.get(p as usize).copied().flatten(),
        };
        out.push(own.or(inherited));
    }
    out
}
