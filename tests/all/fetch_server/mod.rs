//! A local HTTP/1.1 server on 127.0.0.1 for the fetch tests: it answers as lichess's
//! and chess.com's API documentation say (PGN streamed in chunks, the archives JSON,
//! 429 with `Retry-After`, 404, a web page, a connection cut in the middle) and keeps
//! every request it got; and the helpers the fetch tests share (the fixtures, running
//! `hastings fetch`, the games' keys in a file).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::thread;

/// A request the server got.
#[derive(Debug, Clone)]
pub struct Got {
    /// The path, without the query.
    pub path: String,
    /// The query's pairs, decoded as far as the tests need (`%2C` is `,`).
    pub query: Vec<(String, String)>,
    /// The `User-Agent`.
    pub user_agent: String,
    /// The `Accept`.
    pub accept: String,
}

impl Got {
    /// The query's value of `name`.
    pub fn q(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// How to answer.
pub enum Reply {
    /// 200 with this content type, the body sent in chunks of `chunk` bytes; with
    /// `cut_after`, the connection is closed after that many bytes of the body.
    Chunked {
        content_type: &'static str,
        body: Vec<u8>,
        chunk: usize,
        cut_after: Option<usize>,
    },
    /// 200, PGN streamed in chunks: the first half, then the rest once `release`
    /// says so.
    Held {
        body: Vec<u8>,
        release: std::sync::mpsc::Receiver<()>,
    },
    /// A status with extra headers and a body (sent with its length).
    Status {
        code: u16,
        headers: Vec<(&'static str, String)>,
        content_type: &'static str,
        body: Vec<u8>,
    },
}

impl Reply {
    /// 200, PGN streamed as lichess streams it.
    pub fn pgn(body: impl Into<Vec<u8>>) -> Reply {
        Reply::Chunked {
            content_type: "application/x-chess-pgn",
            body: body.into(),
            chunk: 4096,
            cut_after: None,
        }
    }

    /// 200, JSON.
    pub fn json(body: impl Into<Vec<u8>>) -> Reply {
        Reply::Status {
            code: 200,
            headers: Vec::new(),
            content_type: "application/json",
            body: body.into(),
        }
    }

    /// A status with a small body.
    pub fn status(code: u16, content_type: &'static str, body: &str) -> Reply {
        Reply::Status {
            code,
            headers: Vec::new(),
            content_type,
            body: body.as_bytes().to_vec(),
        }
    }

    /// 429 asking to wait `secs`.
    pub fn too_many(secs: u32) -> Reply {
        Reply::Status {
            code: 429,
            headers: vec![("Retry-After", secs.to_string())],
            content_type: "application/json",
            body: br#"{"error":"Too many requests. Try again later."}"#.to_vec(),
        }
    }
}

type Route = dyn Fn(&Got, usize) -> Reply + Send + Sync;

/// A running server.
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    got: Arc<Mutex<Vec<Got>>>,
}

impl Server {
    /// Starts a server that answers each request with `route(request, n)`, `n` the
    /// number of requests to that path before this one.
    pub fn start(route: impl Fn(&Got, usize) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let got = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&got);
        let route: Arc<Route> = Arc::new(route);
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let _ = serve(stream, &log, &*route);
            }
        });
        Server { url, got }
    }

    /// The requests so far.
    pub fn got(&self) -> Vec<Got> {
        self.got.lock().unwrap().clone()
    }
}

fn serve(stream: TcpStream, log: &Mutex<Vec<Got>>, route: &Route) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let target = line.split_whitespace().nth(1).unwrap_or("/").to_owned();
    let (mut user_agent, mut accept) = (String::new(), String::new());
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = h.split_once(':') {
            match name.trim().to_ascii_lowercase().as_str() {
                "user-agent" => user_agent = value.trim().to_owned(),
                "accept" => accept = value.trim().to_owned(),
                _ => {}
            }
        }
    }
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    let query = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (k.to_owned(), v.replace("%2C", ",").replace("%2c", ","))
        })
        .collect();
    let got = Got {
        path: path.to_owned(),
        query,
        user_agent,
        accept,
    };
    let n = {
        let mut log = log.lock().unwrap();
        let n = log.iter().filter(|g| g.path == got.path).count();
        log.push(got.clone());
        n
    };
    let mut out = stream;
    match route(&got, n) {
        Reply::Chunked {
            content_type,
            body,
            chunk,
            cut_after,
        } => {
            write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            )?;
            let end = cut_after.unwrap_or(body.len()).min(body.len());
            for part in body[..end].chunks(chunk.max(1)) {
                write!(out, "{:x}\r\n", part.len())?;
                out.write_all(part)?;
                out.write_all(b"\r\n")?;
            }
            if cut_after.is_none() {
                out.write_all(b"0\r\n\r\n")?;
            }
            out.flush()?;
            out.shutdown(std::net::Shutdown::Both)?;
        }
        Reply::Held { body, release } => {
            write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Type: application/x-chess-pgn\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            )?;
            let (first, rest) = body.split_at(body.len() / 2);
            for (k, part) in [first, rest].into_iter().enumerate() {
                if k == 1 {
                    let _ = release.recv();
                }
                write!(out, "{:x}\r\n", part.len())?;
                out.write_all(part)?;
                out.write_all(b"\r\n")?;
                out.flush()?;
            }
            out.write_all(b"0\r\n\r\n")?;
            out.flush()?;
        }
        Reply::Status {
            code,
            headers,
            content_type,
            body,
        } => {
            let reason = match code {
                200 => "OK",
                403 => "Forbidden",
                404 => "Not Found",
                429 => "Too Many Requests",
                _ => "Status",
            };
            write!(
                out,
                "HTTP/1.1 {code} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n",
                body.len()
            )?;
            for (k, v) in headers {
                write!(out, "{k}: {v}\r\n")?;
            }
            out.write_all(b"\r\n")?;
            out.write_all(&body)?;
            out.flush()?;
        }
    }
    Ok(())
}

/// The games of a PGN text, each with its text (cut before each `[Event `).
pub fn games_of(text: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    for part in text.split_inclusive('\n') {
        if part.starts_with("[Event ") || games.is_empty() {
            games.push(String::new());
        }
        games.last_mut().unwrap().push_str(part);
    }
    games.retain(|g| !g.trim().is_empty());
    games
}

/// The text of a file in `tests/fixtures`.
pub fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    fs::read_to_string(path).unwrap()
}

/// A fresh, empty directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("hastings-fetch-{}", std::process::id()))
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `hastings fetch ARGS` with no site address in the environment: (code, stdout,
/// stderr).
pub fn fetch(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hastings"))
        .arg("fetch")
        .args(args)
        .env_remove("HASTINGS_LICHESS_URL")
        .env_remove("HASTINGS_CHESSCOM_URL")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The `[Site]`/`[Link]` of each game of `text`, in order.
pub fn keys(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            l.strip_prefix("[Link \"")
                .or_else(|| l.strip_prefix("[Site \"https://"))
        })
        .map(|v| v.trim_end_matches("\"]").to_owned())
        .collect()
}

/// The files in `dir` (no temporary or lock file may be left).
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
