//! Options shared by several commands: which sources and lines make the book
//! ([`BookArgs`]), and the window's options ([`GuiArgs`]).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use clap::Args;

use super::CliError;
use crate::book::polyglot::SharedBook;
use crate::book::{LineFilter, PositionGraph, SourceId};
use crate::coach::board_look::BoardLook;
use crate::sampler::Popularity;
use crate::workspace::explorer::{ExplorerIndex, FilteredExplorer};
use crate::workspace::polyglot::PolyglotFile;
use crate::workspace::{BookChoice, FileMode, Workspace};

/// Options of the trainer window (used when no command is given).
#[derive(Debug, Clone, Default, Args)]
pub struct GuiArgs {
    /// Render a few frames in a real window, write them to this PNG file, and exit.
    #[arg(long, value_name = "PNG")]
    pub screenshot: Option<PathBuf>,
    /// With `--screenshot`: the moves to show, in SAN from the start: `--moves "e4 e5"`.
    #[arg(long, value_name = "SAN", requires = "screenshot")]
    pub moves: Option<String>,
    /// With `--screenshot`: open this tab of the left panel (`progress`: review mode on
    /// the review log in the data directory, read only; `coverage`: the exposure of the
    /// files given, e.g. a repertoire; `check`: that tab after an engine check of the
    /// files; `explorer`: the Explorer tab with the explorer index given as the file
    /// (showing its first player's tree, as the learner's opponent, when it keeps any);
    /// `explorer-game`: the same with the position's first top game open in its window;
    /// `book`, `style`; `play-on`: play on after the
    /// moves against the built-in engine (it moves first), the eval bar and arrow on;
    /// `play-on-settings`: the same with its engine settings open; `play-on-saved`: the
    /// same after the game was saved (to the documents folder, as "Save PGN…" saves);
    /// `start`: the window a new user sees first; `repertoire`: the Repertoire tab with
    /// the file given open, at the moves; `find-opening`: the top bar's "Find an opening"
    /// with "Najdorf" typed and its list open; `learn`: review mode on the files given,
    /// "Learn new lines" started; `review-session`: review mode with its session menu
    /// open; `repertoires`: My repertoires with the files given read as repertoires;
    /// `blindfold`: the drill with the pieces hidden after move 1, the Style tab shown).
    #[arg(long, value_name = "TAB", requires = "screenshot", value_parser = ["progress", "coverage", "check", "book", "style", "play-on", "play-on-settings", "play-on-saved", "start", "explorer", "explorer-game", "repertoire", "find-opening", "learn", "review-session", "repertoires", "blindfold"])]
    pub tab: Option<String>,
    /// With `--screenshot`: the board's look, `THEME[,PIECES[,COORDINATES]]`, e.g.
    /// `blue,chessnut,outside` (themes brown, blue, green; pieces cburnett, chessnut,
    /// xboard; coordinates inside, outside, off). In the window: Style tab, Board.
    #[arg(long, value_name = "LOOK", requires = "screenshot")]
    pub board: Option<BoardLook>,
    /// The window size in points, `WIDTHxHEIGHT`.
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<(u32, u32)>,
    /// Start with empty progress (the saved progress is overwritten).
    #[arg(long)]
    pub reset_progress: bool,
    /// PGN files to load into the book (a repertoire or a game collection, decided from
    /// each file).
    #[arg(value_name = "FILE.pgn")]
    pub files: Vec<PathBuf>,
}

/// The value parser of every option where 0 would mean nothing or "no limit" (a search
/// depth, a move time, a node or ply count): a whole number from 1 up, as `N` (`u32`,
/// `u64`, `usize`, `NonZeroU32`, …). Clap names the option in its message.
pub(crate) fn positive<N: std::str::FromStr>(s: &str) -> Result<N, String> {
    let text = s.trim();
    match text.parse::<u64>() {
        Ok(0) => Err("0 is no limit: give a whole number from 1 up".to_owned()),
        Ok(_) => text.parse::<N>().map_err(|_| format!("`{s}` is too large")),
        Err(_) => Err(format!("`{s}` is not a whole number from 1 up")),
    }
}

/// The value parser of an option that is a probability: a number from 0 to 1 (not
/// `nan`, not `inf`).
pub(crate) fn probability(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|p| (0.0..=1.0).contains(p))
        .ok_or_else(|| format!("`{s}` is not a probability: give a number from 0 to 1"))
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("`{s}` is not a window size like 1280x800");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if !(200..=16384).contains(&w) || !(200..=16384).contains(&h) {
        return Err(format!(
            "window size `{s}` must be between 200x200 and 16384x16384"
        ));
    }
    Ok((w, h))
}

/// Where the popularity shares come from: the lines of the graph, Polyglot books, or a
/// blend of the two.
#[derive(Debug, Clone, Default, Args)]
pub struct PopularityArgs {
    /// A Polyglot opening book (.bin) to draw popularity from (repeatable: the books'
    /// weights add up). Without one, `--popularity book` uses the embedded gnuchess book.
    #[arg(long = "book", value_name = "FILE.bin")]
    pub books: Vec<PathBuf>,
    /// `eco` (the ECO lines' weights, as in the research study the opponent is built
    /// on), `book` (the Polyglot book's
    /// weights), `blend:λ` (λ of the book, 1 − λ of the lines) or `explorer` (the games
    /// of `--explorer`). Default: `explorer` when `--explorer` is given, `book` when
    /// `--book` is, else `eco`.
    #[arg(long, value_name = "eco|book|blend:λ|explorer")]
    pub popularity: Option<Popularity>,
    /// The explorer index and its filters.
    #[command(flatten)]
    pub explorer: ExplorerArgs,
}

/// An explorer index as the popularity, with its filters (`sample`, `coverage`, `fit`).
#[derive(Debug, Clone, Default, Args)]
pub struct ExplorerArgs {
    /// An explorer index (`hastings explorer make`) to draw popularity from: the games
    /// of each move under the filters below (the book's lines where no game reached a
    /// position).
    #[arg(long, value_name = "NAME.explorer")]
    pub explorer: Option<PathBuf>,
    /// The explorer's filters.
    #[command(flatten)]
    pub explorer_filter: super::explorer::ExplorerFilterArgs,
    /// The explorer's tree of this player (the index must have been made with
    /// `--player NAME`).
    #[arg(long, value_name = "NAME", requires = "explorer_color")]
    pub explorer_player: Option<String>,
    /// The colour of `--explorer-player`'s games.
    #[arg(long, value_enum, requires = "explorer_player")]
    pub explorer_color: Option<super::explorer::ColorArg>,
}

impl ExplorerArgs {
    /// The index of `--explorer` under the filters, if one is given.
    ///
    /// # Errors
    ///
    /// [`CliError`] when the index cannot be opened or a filter is malformed.
    pub fn open(&self) -> Result<Option<FilteredExplorer>, CliError> {
        let Some(path) = &self.explorer else {
            return Ok(None);
        };
        let index = ExplorerIndex::open(path)?;
        let player = self.explorer_player.as_deref().zip(self.explorer_color);
        let filter = self.explorer_filter.filter(&index, player)?;
        Ok(Some(FilteredExplorer::new(Arc::new(index), filter)))
    }
}

impl PopularityArgs {
    /// The popularity these options ask for.
    pub fn popularity(&self) -> Popularity {
        self.popularity
            .unwrap_or(if self.explorer.explorer.is_some() {
                Popularity::Explorer
            } else if self.books.is_empty() {
                Popularity::Lines
            } else {
                Popularity::Games
            })
    }

    /// The explorer to read under its filters, when the popularity is the explorer's.
    ///
    /// # Errors
    ///
    /// [`CliError`] when `--popularity explorer` comes without `--explorer`, or the
    /// index cannot be opened, or a filter is malformed.
    pub fn explorer(&self) -> Result<Option<FilteredExplorer>, CliError> {
        if self.popularity() != Popularity::Explorer {
            return Ok(None);
        }
        if self.explorer.explorer.is_none() {
            return Err(CliError::Usage(
                "--popularity explorer needs --explorer NAME.explorer".to_owned(),
            ));
        }
        self.explorer.open()
    }

    /// The books to read: the `--book` files, or the embedded gnuchess book when the
    /// popularity needs a book and none was given; none for the lines' popularity.
    ///
    /// # Errors
    ///
    /// [`CliError::PolyglotFile`] when a file cannot be opened or is not a book.
    pub fn books(&self) -> Result<Vec<SharedBook>, CliError> {
        if !self.popularity().uses_book() || self.popularity() == Popularity::Explorer {
            return Ok(Vec::new());
        }
        if self.books.is_empty() {
            return SharedBook::gnuchess()
                .map(|b| vec![b])
                .map_err(|e| CliError::Usage(format!("the embedded gnuchess book: {e}")));
        }
        self.books
            .iter()
            .map(|path| Ok(PolyglotFile::open(path)?.into_shared()?))
            .collect()
    }
}

/// Which lines the graph is built from (the subsamples of §5.4 of the research study
/// the opponent is built on, `ARCHITECTURE.md`, References).
#[derive(Debug, Clone, Default, Args)]
pub struct BookArgs {
    /// Keep lines in which both sides make at least N moves.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub min_moves: u32,
    /// Keep lines of these ECO volumes, e.g. `--volumes A,B`.
    #[arg(long, value_delimiter = ',', value_name = "LETTERS")]
    pub volumes: Vec<char>,
    /// Keep lines whose ECO code lies in this range, e.g. `--eco C60-C99`.
    #[arg(long, value_name = "FROM-TO", value_parser = parse_eco_range)]
    pub eco: Option<(String, String)>,
    /// Keep lines whose name contains this text (case, accents and apostrophes ignored).
    #[arg(long, value_name = "TEXT")]
    pub name: Option<String>,
    /// Add the lines of a PGN file (repeatable; numbered 1, 2, … as sources).
    #[arg(long = "pgn", value_name = "FILE")]
    pub pgn: Vec<PathBuf>,
    /// Leave out the embedded ECO list.
    #[arg(long)]
    pub no_eco: bool,
    /// Keep lines of these sources: `eco` or the number of a `--pgn` file, e.g.
    /// `--source eco,2`.
    #[arg(long = "source", value_delimiter = ',', value_name = "SOURCES", value_parser = parse_source)]
    pub sources: Vec<SourceId>,
}

impl BookArgs {
    /// The line filter these options describe (`sources` included).
    pub fn filter(&self) -> LineFilter {
        LineFilter {
            min_moves_per_side: self.min_moves,
            volumes: self.volumes.clone(),
            eco_range: self.eco.clone(),
            name_contains: self.name.clone(),
            sources: (!self.sources.is_empty()).then(|| self.sources.clone()),
        }
    }

    /// Whether `--source` keeps `id` (no `--source`: every source).
    fn keeps(&self, id: SourceId) -> bool {
        self.sources.is_empty() || self.sources.contains(&id)
    }

    /// The workspace these options describe: the ECO list unless `--no-eco`, then every
    /// `--pgn` file in order (auto-detected mode, default ply limit), each kept or left
    /// out by `--source`. Problems within the files are summed up on stderr.
    ///
    /// # Errors
    ///
    /// [`CliError::Usage`] for a `--source` that names no source,
    /// [`CliError::Workspace`] when a file cannot be read or holds no game.
    pub fn workspace(&self) -> Result<Workspace, CliError> {
        self.check_sources()?;
        let mut ws = Workspace::new(BookChoice {
            eco: !self.no_eco && self.keeps(SourceId::ECO),
            files: Vec::new(),
            filter: LineFilter {
                sources: None,
                ..self.filter()
            },
            ..BookChoice::default()
        })?;
        for path in &self.pgn {
            let file = ws.import_now_with(
                path,
                FileMode::Auto,
                None,
                &super::progress_bar::terminal_progress(&path.display().to_string()),
            )?;
            if let Some(first) = file.report.issues.first() {
                eprintln!(
                    "hastings: {}: {} problem(s), first: {first}",
                    path.display(),
                    file.report.issue_count
                );
            }
        }
        let mut choice = ws.choice().clone();
        for (i, f) in choice.files.iter_mut().enumerate() {
            let id = u16::try_from(i + 1).map_or(SourceId(u16::MAX), SourceId);
            f.enabled = self.keeps(id);
        }
        ws.set_choice(choice);
        Ok(ws)
    }

    /// Builds the graph these options select, and the time it took in milliseconds
    /// (reading the embedded ECO list and any `--pgn` file included).
    ///
    /// # Errors
    ///
    /// As [`BookArgs::workspace`].
    pub fn build(&self) -> Result<(PositionGraph, f64), CliError> {
        let started = Instant::now();
        let build = self.workspace()?.into_build();
        if !build.issues.is_empty() {
            eprintln!(
                "hastings: {} lines could not be replayed and were left out; first: {}",
                build.issues.len(),
                build.issues[0]
            );
        }
        Ok((build.graph, started.elapsed().as_secs_f64() * 1e3))
    }

    /// Whether every `--source` names a loaded source.
    fn check_sources(&self) -> Result<(), CliError> {
        for s in &self.sources {
            let known = if *s == SourceId::ECO {
                !self.no_eco
            } else {
                usize::from(s.0) <= self.pgn.len()
            };
            if !known {
                let name = if *s == SourceId::ECO {
                    "eco (left out by --no-eco)".to_owned()
                } else {
                    format!("{} (there are {} --pgn files)", s.0, self.pgn.len())
                };
                return Err(CliError::Usage(format!("--source {name}: no such source")));
            }
        }
        Ok(())
    }
}

fn parse_eco_range(s: &str) -> Result<(String, String), String> {
    let valid = |c: &str| {
        let b = c.as_bytes();
        b.len() == 3 && b[0].is_ascii_alphabetic() && b[1..].iter().all(u8::is_ascii_digit)
    };
    let (from, to) = s.split_once('-').unwrap_or((s, s));
    if valid(from) && valid(to) {
        Ok((from.to_ascii_uppercase(), to.to_ascii_uppercase()))
    } else {
        Err(format!("`{s}` is not an ECO range like C60-C99"))
    }
}

fn parse_source(s: &str) -> Result<SourceId, String> {
    if s.eq_ignore_ascii_case("eco") {
        return Ok(SourceId::ECO);
    }
    match s.parse::<u16>() {
        Ok(n) if n > 0 => Ok(SourceId(n)),
        _ => Err(format!(
            "`{s}` is not a source: `eco`, or the number of a --pgn file (1, 2, …)"
        )),
    }
}
