//! `hastings repertoire`: make and edit a repertoire file from the command line, with
//! the same document model as the window (`new`, `add`, `delete`, `promote`,
//! `comment`, `mark`).
//!
//! A move is named by its SAN path from the chapter's start (`--at "1. e4 e5 2. Nf3"`;
//! move numbers and glyphs are skipped). Without `-o` the file is edited in place: the
//! version replaced is kept as a backup in the data folder (the last 10), and a file
//! changed since it was read is not overwritten. A path that does not exist is an
//! error naming its first move not found, and nothing is written.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand, ValueEnum};

use super::CliError;
use crate::book::Side;
use crate::book::repertoire::{ChangeKind, Document, EditError, GameTree, NodeId, Op, Rank};
use crate::workspace::repertoire_file::{RepertoireFile, RepertoireFileError, SaveOutcome};
use crate::workspace::store::write_atomic;

/// `hastings repertoire`.
#[derive(Debug, Subcommand)]
pub enum RepertoireCommand {
    /// Write a new, empty repertoire for one side.
    New(NewArgs),
    /// Add a move (the last of the path), and the moves before it that are not there yet.
    Add(AddArgs),
    /// Delete the path's last move and its subtree.
    Delete(EditArgs),
    /// Move the path's last move one place up among its siblings (or to the main line).
    Promote(PromoteArgs),
    /// Set the comment after the path's last move (empty text clears it).
    Comment(CommentArgs),
    /// Rank the path's last move: the main move, an alternative, paused or not.
    Mark(MarkArgs),
}

/// `hastings repertoire mark`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("rank").required(true).args(["main", "alternative", "pause", "unpause"])))]
pub struct MarkArgs {
    /// File, path, chapter, output.
    #[command(flatten)]
    pub edit: EditArgs,
    /// Make it the main move: first at its position (the PGN's order), without a mark.
    #[arg(long)]
    pub main: bool,
    /// Make it an alternative (`[%hastings alt]` in its comment).
    #[arg(long)]
    pub alternative: bool,
    /// Pause it: kept in the file, not drilled (`[%hastings paused]`).
    #[arg(long)]
    pub pause: bool,
    /// Un-pause it: an alternative again.
    #[arg(long)]
    pub unpause: bool,
}

impl MarkArgs {
    /// The rank asked for (clap makes exactly one flag present).
    fn rank(&self) -> Rank {
        if self.main {
            Rank::Main
        } else if self.alternative {
            Rank::Alternative
        } else if self.pause {
            Rank::Pause
        } else {
            Rank::Unpause
        }
    }
}

/// The side of a new repertoire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

/// `hastings repertoire new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The side the repertoire is for.
    #[arg(long, value_enum)]
    pub color: Colour,
    /// The file to write (it must not exist).
    #[arg(short = 'o', long = "output", value_name = "FILE.pgn")]
    pub output: PathBuf,
    /// Its title (`[Event]`); default "White repertoire" or "Black repertoire".
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
}

/// The file, the move and where to write, shared by the edits.
#[derive(Debug, Args)]
pub struct EditArgs {
    /// The repertoire file.
    #[arg(value_name = "FILE.pgn")]
    pub file: PathBuf,
    /// The SAN path from the chapter's start, e.g. "1. e4 e5 2. Nf3".
    #[arg(long, value_name = "SAN path", allow_hyphen_values = true)]
    pub at: String,
    /// The chapter (game), from 1 in file order.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub chapter: usize,
    /// Write the result here instead of editing the file in place.
    #[arg(short = 'o', long = "output", value_name = "OUT.pgn")]
    pub output: Option<PathBuf>,
}

/// `hastings repertoire add`.
#[derive(Debug, Args)]
pub struct AddArgs {
    /// File, path, chapter, output.
    #[command(flatten)]
    pub edit: EditArgs,
    /// A comment after the added move.
    #[arg(long, value_name = "TEXT")]
    pub comment: Option<String>,
    /// A glyph after the added move: ! ? !! ?? !? ?! or $N.
    #[arg(long, value_name = "GLYPH", allow_hyphen_values = true)]
    pub nag: Option<String>,
}

/// `hastings repertoire promote`.
#[derive(Debug, Args)]
pub struct PromoteArgs {
    /// File, path, chapter, output.
    #[command(flatten)]
    pub edit: EditArgs,
    /// Make it the main line at its parent rather than one place up.
    #[arg(long)]
    pub main: bool,
}

/// `hastings repertoire comment`.
#[derive(Debug, Args)]
pub struct CommentArgs {
    /// File, path, chapter, output.
    #[command(flatten)]
    pub edit: EditArgs,
    /// The comment's text (its arrows, circles and other commands are kept).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub text: String,
}

/// The NAG of a glyph: `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6, or `$N` / `N`.
fn parse_glyph(glyph: &str) -> Result<u8, CliError> {
    let nag = match glyph.trim() {
        "!" => Some(1),
        "?" => Some(2),
        "!!" => Some(3),
        "??" => Some(4),
        "!?" => Some(5),
        "?!" => Some(6),
        other => other.trim_start_matches('$').parse().ok(),
    };
    nag.ok_or_else(|| {
        CliError::Usage(format!(
            "--nag `{glyph}`: not a glyph (! ? !! ?? !? ?! or $N)"
        ))
    })
}

pub(super) fn run(
    command: &RepertoireCommand,
    data_dir: Option<&Path>,
    out: &mut impl Write,
) -> Result<(), CliError> {
    match command {
        RepertoireCommand::New(args) => new(args, out),
        RepertoireCommand::Add(args) => {
            let nag = args.nag.as_deref().map(parse_glyph).transpose()?;
            edit(&args.edit, data_dir, out, |file, chapter, path| {
                let (before, last) = split_last(path)?;
                // The moves of the path that are not in the tree yet are added too.
                let mut at = GameTree::ROOT;
                let mut added = Vec::new();
                for san in before {
                    let change = file.edit(&Op::AddMove {
                        chapter,
                        at,
                        san: san.clone(),
                    })?;
                    if change.kind != ChangeKind::MoveSelected {
                        added.push(san.as_str());
                    }
                    at = change.node.unwrap_or(at);
                }
                let change = file.edit(&Op::AddMove {
                    chapter,
                    at,
                    san: last.to_owned(),
                })?;
                let node = change.node.unwrap_or(GameTree::ROOT);
                if let Some(text) = &args.comment {
                    file.edit(&Op::SetComment {
                        chapter,
                        node,
                        text: text.clone(),
                    })?;
                }
                if let Some(nag) = nag {
                    file.edit(&Op::AddNag { chapter, node, nag })?;
                }
                if change.kind != ChangeKind::MoveSelected {
                    added.push(last);
                }
                Ok(if added.is_empty() {
                    format!("{last} was there already")
                } else {
                    format!("added {}", added.join(" "))
                })
            })
        }
        RepertoireCommand::Delete(args) => edit(args, data_dir, out, |file, chapter, path| {
            let node = existing(file, chapter, path)?;
            file.edit(&Op::Delete { chapter, node })?;
            Ok("deleted".to_owned())
        }),
        RepertoireCommand::Promote(args) => {
            edit(&args.edit, data_dir, out, |file, chapter, path| {
                let node = existing(file, chapter, path)?;
                let op = if args.main {
                    Op::PromoteToMain { chapter, node }
                } else {
                    Op::Promote { chapter, node }
                };
                file.edit(&op)?;
                Ok("promoted".to_owned())
            })
        }
        RepertoireCommand::Mark(args) => edit(&args.edit, data_dir, out, |file, chapter, path| {
            let node = existing(file, chapter, path)?;
            file.edit(&Op::Mark {
                chapter,
                node,
                rank: args.rank(),
            })?;
            let standing = file
                .document()
                .tree(chapter)?
                .standing(node)
                .map_or("", |s| s.label());
            Ok(format!("now {standing}"))
        }),
        RepertoireCommand::Comment(args) => {
            edit(&args.edit, data_dir, out, |file, chapter, path| {
                let node = file.document().node_at(chapter, &path.join(" "))?;
                file.edit(&Op::SetComment {
                    chapter,
                    node,
                    text: args.text.clone(),
                })?;
                Ok(if args.text.trim().is_empty() {
                    "comment cleared".to_owned()
                } else {
                    "comment set".to_owned()
                })
            })
        }
    }
}

fn new(args: &NewArgs, out: &mut impl Write) -> Result<(), CliError> {
    let side = match args.color {
        Colour::White => Side::White,
        Colour::Black => Side::Black,
    };
    let title = args
        .title
        .clone()
        .unwrap_or_else(|| format!("{} repertoire", side.name()));
    let doc = Document::new_repertoire(side, &title);
    RepertoireFile::create(&args.output, &doc, None)?;
    writeln!(
        out,
        "{}: a new {} repertoire",
        args.output.display(),
        side.name()
    )?;
    Ok(())
}

/// The path's moves (numbers and glyphs left out) but the last, and the last.
fn split_last(path: &[String]) -> Result<(&[String], &str), RepertoireFileError> {
    match path.split_last() {
        Some((last, before)) => Ok((before, last.as_str())),
        None => Err(EditError::EmptyPath.into()),
    }
}

/// The node the whole path reaches, which must be a move.
fn existing(
    file: &RepertoireFile,
    chapter: usize,
    path: &[String],
) -> Result<NodeId, RepertoireFileError> {
    if path.is_empty() {
        return Err(EditError::EmptyPath.into());
    }
    Ok(file.document().node_at(chapter, &path.join(" "))?)
}

/// Opens the file, makes the edit, writes the result (to `-o`, or in place with a
/// backup); nothing is written when the edit fails.
fn edit(
    args: &EditArgs,
    data_dir: Option<&Path>,
    out: &mut impl Write,
    change: impl FnOnce(&mut RepertoireFile, usize, &[String]) -> Result<String, RepertoireFileError>,
) -> Result<(), CliError> {
    let Some(chapter) = args.chapter.checked_sub(1) else {
        return Err(CliError::Usage("--chapter counts from 1".to_owned()));
    };
    if let Some(output) = &args.output {
        super::outputs::refuse_input_as_output(output, [args.file.as_path()])?;
    }
    let in_place = args.output.is_none();
    let data_dir = data_dir.filter(|_| in_place);
    if in_place && data_dir.is_none() {
        return Err(CliError::Usage(
            "there is no data folder to keep a backup in: write to another file with -o".to_owned(),
        ));
    }
    // In place, the file is locked from the read to the rename: another Hastings
    // process editing it waits, so neither edit is lost.
    let mut file = if in_place {
        RepertoireFile::open_locked(&args.file, data_dir)?
    } else {
        RepertoireFile::open(&args.file, data_dir)?
    };
    file.set_journaling(false);
    let path: Vec<String> = args
        .at
        .split_whitespace()
        .map(|t| {
            crate::book::movelist::strip_move_number(t)
                .trim_end_matches(['!', '?'])
                .to_owned()
        })
        .filter(|t| !t.is_empty())
        .collect();
    let done = change(&mut file, chapter, &path).map_err(|e| match e {
        RepertoireFileError::Edit(source) => RepertoireFileError::EditOf {
            path: args.file.clone(),
            source,
        },
        other => other,
    })?;
    let written = match &args.output {
        Some(output) => {
            write_atomic(output, &file.document().to_pgn()).map_err(RepertoireFileError::from)?;
            output.clone()
        }
        None => match file.save()? {
            SaveOutcome::Saved { .. } => args.file.clone(),
            SaveOutcome::Conflict { .. } => {
                return Err(CliError::Usage(format!(
                    "{} changed on disk while it was edited; nothing was written",
                    args.file.display()
                )));
            }
        },
    };
    writeln!(
        out,
        "{}: chapter {}, `{}`: {done}",
        written.display(),
        args.chapter,
        args.at.trim()
    )?;
    Ok(())
}
