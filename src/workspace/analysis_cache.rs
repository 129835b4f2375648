//! Engine analyses kept on disk, so a re-check of a repertoire analyses only the
//! positions it has not seen: one file per engine and limit in the data folder's
//! `analysis/` (or a folder the learner names), appended to as each analysis finishes.
//!
//! # Format
//!
//! A text file, one line per position, tab-separated:
//!
//! ```text
//! # hastings analysis 1→Stockfish 16→depth 12
//! rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -→cp -25→12→c7c5 g1f3 d7d6
//! ```
//!
//! (`→` stands for a tab.)
//!
//! The first line names the engine (its UCI `id name`, version included) and the limit;
//! then the position as EPD, the score from the side to move (`cp N` or `mate N`), the
//! depth, and the best line in UCI. A position analysed twice keeps its last line.
//!
//! # Safety
//!
//! Each line is written with one `write` and synced before [`AnalysisCache::put`]
//! returns, so a run that is killed keeps every analysis it finished and resumes from
//! there. A line cut off by a crash is moved aside (`FILE.torn-<time>`) and the file
//! truncated to its last whole line; a line that cannot be read is skipped with a
//! warning naming its line number, and the rest loads. A file with another header (damaged,
//! or another engine's) is moved aside (`FILE.damaged-<time>`) with a warning, and the
//! cache starts afresh. A second copy kept aside in the same second gets `-<n>` added.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::num::{NonZeroU32, NonZeroU64};
use std::path::{Path, PathBuf};

use rustc_hash::FxHashMap;
use shakmaty::fen::Epd;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use super::data_dir::data_dir;
use super::store::{create_aside, move_aside};
use crate::engine::analysis::Analysis;
use crate::engine::spec::{EngineKind, EngineSpec};
use crate::engine::{Limits, Score, discover};
use crate::trainer::check::{AnalysisStore, epd_key};

/// The first word of a cache file's header.
const HEADER: &str = "# hastings analysis 1";

/// The search depth of a UCI engine (Stockfish) when none is given.
pub const DEFAULT_UCI_DEPTH: u32 = 12;
/// The search depth of the built-in engine when none is given (it is slower per ply).
pub const DEFAULT_BUILTIN_DEPTH: u32 = 6;

/// The engine of a check and its limit, as the CLI and the window choose them.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisEngine {
    /// The engine.
    pub spec: EngineSpec,
    /// Each position's search.
    pub limits: Limits,
    /// The limit in words for the cache and reports: `depth 12`, `movetime 100`.
    pub limit: String,
}

impl AnalysisEngine {
    /// `spec` (default: Stockfish when installed, else the built-in engine) searching
    /// for `movetime` milliseconds, else to `depth` (default
    /// [`DEFAULT_UCI_DEPTH`] for a UCI engine, [`DEFAULT_BUILTIN_DEPTH`] built-in).
    pub fn choose(
        spec: Option<EngineSpec>,
        depth: Option<NonZeroU32>,
        movetime: Option<NonZeroU64>,
    ) -> AnalysisEngine {
        let spec = spec.unwrap_or_else(|| {
            let uci = discover::stockfish().is_some();
            EngineSpec {
                text: if uci { "stockfish" } else { "builtin" }.to_owned(),
                kind: if uci {
                    EngineKind::Uci("stockfish".to_owned())
                } else {
                    EngineKind::AlphaBeta
                },
                options: Vec::new(),
                weights: None,
            }
        });
        let limits = match (movetime, depth) {
            (Some(ms), _) => Limits::millis(ms),
            (None, Some(d)) => Limits::plies(d),
            (None, None) => Limits::depth(if matches!(spec.kind, EngineKind::Uci(_)) {
                DEFAULT_UCI_DEPTH
            } else {
                DEFAULT_BUILTIN_DEPTH
            })
            .unwrap_or(Limits::ONE_PLY),
        };
        AnalysisEngine {
            spec,
            limits,
            limit: limits.to_string(),
        }
    }
}

/// The folder of analyses in the data folder.
pub fn default_cache_dir() -> Option<PathBuf> {
    data_dir().map(|d| d.join("analysis"))
}

/// Analyses of one engine at one limit, on disk.
#[derive(Debug)]
pub struct AnalysisCache {
    path: PathBuf,
    header: String,
    analyses: FxHashMap<String, Analysis>,
    warnings: Vec<String>,
    file: Option<File>,
}

impl AnalysisCache {
    /// Opens (or starts) the cache of `engine` at `limit` in `dir`.
    ///
    /// # Errors
    ///
    /// The I/O error, with the path, when the folder or file cannot be read, or a cut-off
    /// line or a damaged file cannot be moved aside. A file whose first line is not this
    /// engine's and limit's header (damaged, or another engine's whose name makes the
    /// same file name) is moved aside to `FILE.damaged-<time>` with a warning, and the
    /// cache starts empty.
    pub fn open(dir: &Path, engine: &str, limit: &str) -> io::Result<AnalysisCache> {
        let path = dir.join(file_name(engine, limit));
        let header = format!("{HEADER}\t{}\t{limit}", engine.replace(['\t', '\n'], " "));
        let text = match fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(with_path(&path, e)),
        };
        let mut warnings = Vec::new();
        let complete = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if complete < text.len() {
            let aside = create_aside(&path, "torn", &text[complete..])
                .map_err(|e| io::Error::other(e.to_string()))?;
            let f = OpenOptions::new()
                .write(true)
                .open(&path)
                .map_err(|e| with_path(&path, e))?;
            f.set_len(complete as u64)
                .map_err(|e| with_path(&path, e))?;
            f.sync_all().map_err(|e| with_path(&path, e))?;
            warnings.push(format!(
                "{}: the last line was cut off (a crash?); it was kept in {}",
                path.display(),
                aside.display()
            ));
        }
        let text = String::from_utf8_lossy(&text[..complete]);
        let mut analyses = FxHashMap::default();
        let mut lines = text.lines().enumerate();
        if let Some((_, first)) = lines.next()
            && first != header
        {
            // Damaged, or another engine's: kept aside, and the cache starts afresh.
            let aside =
                move_aside(&path, "damaged").map_err(|e| io::Error::other(e.to_string()))?;
            let found: String = first
                .trim_start_matches(HEADER)
                .trim()
                .chars()
                .take(80)
                .collect();
            warnings.push(format!(
                "{} held `{found}`, not analyses of {engine} at {limit}; it was kept as {} and the analyses start afresh",
                path.display(),
                aside.display()
            ));
            lines = "".lines().enumerate();
        }
        for (n, line) in lines {
            match parse_line(line) {
                Ok((key, analysis)) => {
                    analyses.insert(key, analysis);
                }
                Err(why) => warnings.push(format!(
                    "{} line {}: {why}; the line is skipped",
                    path.display(),
                    n + 1
                )),
            }
        }
        Ok(AnalysisCache {
            path,
            header,
            analyses,
            warnings,
            file: None,
        })
    }

    /// The cache file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What opening the file found worth telling (cut-off or unreadable lines).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Holds in memory, not in its file, the analyses of `other` (another limit of the
    /// same engine: a repertoire check's) of the positions it lacks or has analysed less
    /// deeply; `other`'s warnings come along.
    pub fn absorb(&mut self, other: AnalysisCache) {
        for (key, analysis) in other.analyses {
            let deeper = self
                .analyses
                .get(&key)
                .is_none_or(|mine| mine.depth < analysis.depth);
            if deeper {
                self.analyses.insert(key, analysis);
            }
        }
        self.warnings.extend(other.warnings);
    }

    fn file(&mut self) -> io::Result<&mut File> {
        if self.file.is_none() {
            if let Some(dir) = self.path.parent() {
                fs::create_dir_all(dir).map_err(|e| with_path(dir, e))?;
            }
            let mut f = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.path)
                .map_err(|e| with_path(&self.path, e))?;
            if f.metadata()?.len() == 0 {
                f.write_all(format!("{}\n", self.header).as_bytes())?;
            }
            self.file = Some(f);
        }
        self.file
            .as_mut()
            .ok_or_else(|| io::Error::other("the cache file is not open"))
    }
}

impl AnalysisStore for AnalysisCache {
    fn get(&self, pos: &Chess) -> Option<Analysis> {
        self.analyses.get(&epd_key(pos)).cloned()
    }

    fn put(&mut self, pos: &Chess, analysis: &Analysis) -> io::Result<()> {
        let key = epd_key(pos);
        let line = format_line(&key, pos, analysis);
        let path = self.path.clone();
        let file = self.file()?;
        file.write_all(line.as_bytes())
            .and_then(|()| file.sync_data())
            .map_err(|e| with_path(&path, e))?;
        self.analyses.insert(key, analysis.clone());
        Ok(())
    }

    fn remember(&mut self, pos: &Chess, analysis: &Analysis) -> io::Result<()> {
        self.analyses.insert(epd_key(pos), analysis.clone());
        Ok(())
    }

    fn len(&self) -> usize {
        self.analyses.len()
    }
}

/// The file name of an engine's analyses at a limit: the names with anything but
/// letters, digits and `-` made `-`.
fn file_name(engine: &str, limit: &str) -> String {
    let slug: String = format!("{engine}-{limit}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("{}.tsv", slug.trim_matches('-'))
}

fn format_line(key: &str, pos: &Chess, a: &Analysis) -> String {
    let score = match a.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let pv: Vec<String> =
        a.pv.iter()
            .map(|m| m.to_uci(pos.castles().mode()).to_string())
            .collect();
    format!("{key}\t{score}\t{}\t{}\n", a.depth, pv.join(" "))
}

fn parse_line(line: &str) -> Result<(String, Analysis), String> {
    let mut fields = line.split('\t');
    let (Some(epd), Some(score), Some(depth), Some(pv)) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err("it needs four tab-separated fields".to_owned());
    };
    let pos: Chess = epd
        .parse::<Epd>()
        .map_err(|e| format!("`{epd}` is not a position: {e}"))?
        .into_position(CastlingMode::Standard)
        .map_err(|e| format!("`{epd}` is not a legal position: {e}"))?;
    let score = match score.split_once(' ') {
        Some(("cp", n)) => n.parse().map(Score::Cp),
        Some(("mate", n)) => n.parse().map(Score::Mate),
        _ => return Err(format!("`{score}` is not a score (cp N or mate N)")),
    }
    .map_err(|e| format!("`{score}`: {e}"))?;
    let depth = depth.parse().map_err(|e| format!("depth `{depth}`: {e}"))?;
    let mut after = pos.clone();
    let mut moves = Vec::new();
    for uci in pv.split_whitespace() {
        let m = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&after).ok())
            .ok_or_else(|| format!("`{uci}` is not a legal move of the line"))?;
        after.play_unchecked(m);
        moves.push(m);
    }
    Ok((
        epd_key(&pos),
        Analysis {
            score,
            pv: moves,
            depth,
        },
    ))
}

fn with_path(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}
