//! Starting the window: [`run`] opens it (or takes a screenshot and exits) with the
//! book, the settings from eframe's storage and the learner's progress.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

pub use super::error::UiError;
use super::screenshot::ScreenshotPlan;
use super::timings::Timings;
use crate::book::{BookError, PositionGraph};
use crate::coach::board_look::BoardLook;
use crate::coach::moves::book_moves;
use crate::trainer::progress::Progress;
use crate::workspace::data_dir::{ClaimedFolder, claim, data_dir};
use crate::workspace::store;
use eframe::egui;

/// How to start the window.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Write a PNG of the window here after a few frames, then exit.
    pub screenshot: Option<PathBuf>,
    /// Moves (SAN, from the start) to show in the screenshot.
    pub moves: Option<String>,
    /// With the screenshot: the left panel's tab to show (`progress`: in review mode,
    /// on the review log of the data directory).
    pub tab: Option<String>,
    /// With the screenshot: the board's look (else the default look).
    pub board: Option<BoardLook>,
    /// Window size in points.
    pub size: Option<(u32, u32)>,
    /// PGN files to load at start (read in auto mode).
    pub files: Vec<PathBuf>,
    /// Start with empty progress (the saved progress is overwritten).
    pub reset_progress: bool,
}

/// Opens the trainer window and runs it until it is closed (or the screenshot is taken).
///
/// Set `HASTINGS_TIMINGS=1` to print the time to the first frame and frame-time
/// statistics (while dragging, while files load) to stderr on exit.
///
/// `options.files` are imported in the background once the window is up; the settings
/// and the remembered files come from eframe's storage, the progress from the data
/// folder ([`crate::workspace::data_dir`]; emptied first with `options.reset_progress`).
/// A second window on the same folder keeps its progress in memory only and says so.
///
/// # Errors
///
/// [`UiError`] if the book or a `--moves` move is bad, the window fails, or the
/// screenshot cannot be written.
pub fn run(options: &RunOptions) -> Result<(), UiError> {
    let started = Instant::now();
    let mut eco = EcoBuild::start();
    let (width, height) = options.size.unwrap_or((1280, 800));
    let screenshot = match &options.screenshot {
        Some(path) => {
            let graph = eco.wait()?;
            let moves = book_moves(&graph, options.moves.as_deref().unwrap_or(""))?;
            Some((path.clone(), moves))
        }
        None => None,
    };
    let screenshot_path = options.screenshot.clone();
    // One window per data folder: a second one keeps its progress in memory only.
    let folder = if screenshot.is_some() {
        None
    } else {
        Some(claim(data_dir()))
    };
    let progress_file = folder.as_ref().and_then(|f| f.progress_file.clone());
    let settings_file = folder
        .as_ref()
        .and_then(|_| crate::workspace::data_dir::settings_path());
    let notice = folder.as_ref().and_then(|f| f.warning.clone());
    let writable = folder.as_ref().is_some_and(ClaimedFolder::is_writable);
    if options.reset_progress
        && let Some(path) = &progress_file
    {
        store::save_progress(path, &Progress::new())?;
    }
    let files = options.files.clone();
    let tab = options.tab.clone();
    let board = options.board.unwrap_or_default();
    let outcome: Arc<std::sync::Mutex<Option<Result<(), UiError>>>> = Arc::default();
    let native = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport: egui::ViewportBuilder::default()
            .with_title("Hastings")
            .with_app_id("hastings")
            .with_inner_size([width as f32, height as f32])
            .with_min_inner_size([(width as f32).min(800.0), (height as f32).min(600.0)]),
        persist_window: screenshot.is_none(),
        ..Default::default()
    };
    let app_outcome = Arc::clone(&outcome);
    let book_failed = Arc::clone(&outcome);
    let timings = std::env::var_os("HASTINGS_TIMINGS").is_some();
    // Engines start once the first frame is painted (the app says when).
    crate::job::first_frame::opening();
    let ran = eframe::run_native(
        "Hastings",
        native,
        Box::new(move |cc| {
            // The window is open: the graph was built meanwhile.
            let graph = match eco.wait() {
                Ok(graph) => graph,
                Err(e) => {
                    let message = e.to_string();
                    *book_failed
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Err(e));
                    return Err(message.into());
                }
            };
            let start = super::app::Start {
                graph,
                screenshot: screenshot
                    .map(|(path, moves)| (moves, board, ScreenshotPlan::new(path, app_outcome))),
                progress_file,
                settings_file,
                writable,
                notice,
                files,
                tab,
                timings: timings.then(|| Timings::new(started)),
            };
            let app = super::app::start(cc, start);
            if let Err(e) = super::shutdown::close_on_termination(&cc.egui_ctx) {
                eprintln!("hastings: SIGTERM will not save the settings: {e}");
            }
            Ok(app)
        }),
    );
    let result = outcome
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    if let Err(e) = ran {
        // The book's error, when it is what stopped the window.
        return Err(match result {
            Some(Err(error)) => error,
            _ => UiError::Window(e.to_string()),
        });
    }
    match (result, screenshot_path) {
        (Some(result), _) => result,
        (None, None) => Ok(()),
        (None, Some(path)) => Err(UiError::Screenshot {
            path,
            reason: "the window closed before the screenshot was taken".to_owned(),
        }),
    }
}

/// The ECO graph, built on a thread of its own while the window opens: the first frame
/// needs it, and opening the window (the OpenGL context, the display's configurations)
/// takes longer than the build.
struct EcoBuild {
    thread: Option<std::thread::JoinHandle<Result<PositionGraph, BookError>>>,
    built: Option<Arc<PositionGraph>>,
}

impl EcoBuild {
    /// Starts the build (it is made by [`EcoBuild::wait`] when no thread can start).
    fn start() -> EcoBuild {
        let thread = std::thread::Builder::new()
            .name("eco graph".to_owned())
            .spawn(PositionGraph::eco)
            .ok();
        EcoBuild {
            thread,
            built: None,
        }
    }

    /// The graph, once built.
    fn wait(&mut self) -> Result<Arc<PositionGraph>, UiError> {
        if let Some(graph) = &self.built {
            return Ok(Arc::clone(graph));
        }
        let built = match self.thread.take().map(std::thread::JoinHandle::join) {
            Some(Ok(built)) => built,
            // The thread panicked, or none started: built here.
            Some(Err(_)) | None => PositionGraph::eco(),
        };
        let graph = Arc::new(built?);
        self.built = Some(Arc::clone(&graph));
        Ok(graph)
    }
}
