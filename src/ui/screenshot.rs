//! `hastings --screenshot`: draw a few frames once the exploration is done, grab one,
//! write it as PNG, close the window.

use std::path::PathBuf;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use eframe::egui;

use super::error::UiError;

/// Screenshot mode: wait for the exploration, draw a few frames, grab one, write it, quit.
pub(super) struct ScreenshotPlan {
    path: PathBuf,
    frames_left: u32,
    requested: bool,
    rx: Option<mpsc::Receiver<Arc<egui::ColorImage>>>,
    outcome: Arc<std::sync::Mutex<Option<Result<(), UiError>>>>,
    started: Instant,
    done: bool,
}

impl ScreenshotPlan {
    pub(super) fn new(
        path: PathBuf,
        outcome: Arc<std::sync::Mutex<Option<Result<(), UiError>>>>,
    ) -> Self {
        ScreenshotPlan {
            path,
            frames_left: 5,
            requested: false,
            rx: None,
            outcome,
            started: Instant::now(),
            done: false,
        }
    }

    pub(super) fn step(&mut self, ctx: &egui::Context, exploring: bool) -> Result<(), String> {
        if self.done {
            return Ok(());
        }
        if self.started.elapsed() > Duration::from_secs(120) {
            return Err("no frame was captured within 120 s".to_owned());
        }
        if exploring {
            ctx.request_repaint_after(Duration::from_millis(20));
            return Ok(());
        }
        if self.frames_left > 0 {
            self.frames_left -= 1;
            ctx.request_repaint();
            return Ok(());
        }
        if !self.requested {
            let (tx, rx) = mpsc::channel();
            ctx.request_screenshot(move |image| {
                let _ = tx.send(image);
            });
            self.rx = Some(rx);
            self.requested = true;
            ctx.request_repaint();
            return Ok(());
        }
        let Some(rx) = &self.rx else {
            return Ok(());
        };
        match rx.try_recv() {
            Ok(image) => {
                let result = write_png(&self.path, &image);
                self.finish(ctx, result);
                Ok(())
            }
            Err(mpsc::TryRecvError::Empty) => {
                ctx.request_repaint_after(Duration::from_millis(10));
                Ok(())
            }
            Err(mpsc::TryRecvError::Disconnected) => {
                Err("the window system returned no image".to_owned())
            }
        }
    }

    pub(super) fn finish(&mut self, ctx: &egui::Context, result: Result<(), String>) {
        self.done = true;
        let result = result.map_err(|reason| UiError::Screenshot {
            path: self.path.clone(),
            reason,
        });
        if let Ok(mut o) = self.outcome.lock() {
            *o = Some(result);
        }
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

fn write_png(path: &std::path::Path, image: &egui::ColorImage) -> Result<(), String> {
    let [w, h] = image.size;
    let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    let (Ok(w), Ok(h)) = (u32::try_from(w), u32::try_from(h)) else {
        return Err(format!("the image is too large ({w}x{h})"));
    };
    image::save_buffer(path, &bytes, w, h, image::ExtendedColorType::Rgba8)
        .map_err(|e| e.to_string())
}
