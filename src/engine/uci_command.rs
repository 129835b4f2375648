//! Reading what a GUI sends to `hastings uci`, leniently: `go` by our own reader, the
//! other commands by shakmaty-uci.
//!
//! shakmaty-uci refuses a whole `go` line for one value out of its range: a clock past
//! zero (`go wtime -50`, which GUIs send after lag), a depth above 255. A GUI waits
//! for a `bestmove` after every `go`, so refusing it hangs the game. Here each field is
//! read alone: a negative number is 0 (no time left), a number too large is the
//! largest there is, and what cannot be read is skipped and named.

use std::fmt;
use std::time::Duration;

use shakmaty_uci::UciMessage;

use super::limits::Limits;

/// One line from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum GuiCommand {
    /// A blank line.
    Empty,
    /// `go …`, read field by field.
    Go(Go),
    /// Any other command shakmaty-uci reads.
    Message(UciMessage),
    /// A line that is no command.
    Unknown(String),
}

/// Reads one line from the GUI.
///
/// ```
/// use hastings::engine::uci_command::{GuiCommand, parse_command};
/// let GuiCommand::Go(go) = parse_command("go wtime -50 btime -50") else { panic!() };
/// assert_eq!(go.wtime, Some(std::time::Duration::ZERO));
/// ```
pub fn parse_command(line: &str) -> GuiCommand {
    let line = line.trim();
    let mut tokens = line.split_whitespace();
    match tokens.next() {
        None => GuiCommand::Empty,
        Some("go") => GuiCommand::Go(Go::read(tokens)),
        Some(_) => match line.parse::<UciMessage>() {
            Ok(message) => GuiCommand::Message(message),
            Err(_) => GuiCommand::Unknown(line.to_string()),
        },
    }
}

/// The fields of a `go` command. Times are never negative (a clock past zero is 0 ms
/// left); a field given twice keeps the last value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// White's time left.
    pub wtime: Option<Duration>,
    /// Black's time left.
    pub btime: Option<Duration>,
    /// White's increment.
    pub winc: Option<Duration>,
    /// Black's increment.
    pub binc: Option<Duration>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search to this depth.
    pub depth: Option<u32>,
    /// Search this many nodes.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Think this long.
    pub movetime: Option<Duration>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Think on the opponent's time until `stop` or `ponderhit`.
    pub ponder: bool,
    /// Search only these moves (as sent, in UCI notation).
    pub searchmoves: Vec<String>,
    /// Tokens that were not understood (an unknown field, a value that is no number).
    pub skipped: Vec<String>,
}

/// The keywords of `go` (a `searchmoves` list ends at one of them).
const KEYWORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// A number as `go` gives it: negative is 0, too large is `u64::MAX`; `None` when the
/// token is no integer.
fn number(token: &str) -> Option<u64> {
    let (negative, digits) = match token.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, token.strip_prefix('+').unwrap_or(token)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if negative {
        return Some(0);
    }
    Some(digits.parse::<u64>().unwrap_or(u64::MAX))
}

impl Go {
    /// Reads the tokens after `go`.
    fn read<'a>(tokens: impl Iterator<Item = &'a str>) -> Go {
        let mut go = Go::default();
        let mut tokens = tokens.peekable();
        while let Some(key) = tokens.next() {
            match key {
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "searchmoves" => {
                    while let Some(m) = tokens.next_if(|t| !KEYWORDS.contains(t)) {
                        go.searchmoves.push(m.to_string());
                    }
                }
                "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "mate"
                | "movetime" => {
                    let Some(value) = tokens.next_if(|t| !KEYWORDS.contains(t)) else {
                        go.skipped.push(key.to_string());
                        continue;
                    };
                    let Some(n) = number(value) else {
                        go.skipped.push(format!("{key} {value}"));
                        continue;
                    };
                    go.set(key, n);
                }
                _ => go.skipped.push(key.to_string()),
            }
        }
        go
    }

    fn set(&mut self, key: &str, n: u64) {
        let ms = Duration::from_millis(n);
        let small = u32::try_from(n).unwrap_or(u32::MAX);
        match key {
            "wtime" => self.wtime = Some(ms),
            "btime" => self.btime = Some(ms),
            "winc" => self.winc = Some(ms),
            "binc" => self.binc = Some(ms),
            "movetime" => self.movetime = Some(ms),
            "movestogo" => self.movestogo = Some(small),
            "depth" => self.depth = Some(small),
            "mate" => self.mate = Some(small),
            _ => self.nodes = Some(n),
        }
    }

    /// The search's limits, whether it is infinite (`go infinite`, `go ponder` or a bare
    /// `go`), and a note for each limit of 0 (read as 1, the least there is: a GUI
    /// waits for a move, so the command is not refused). A clock (`wtime`/`btime`)
    /// becomes a move time: a 25th of the time left plus three quarters of the
    /// increment, at most half the time left, less 20 ms of overhead, at least 5 ms (so
    /// a clock at or past zero still gets a move).
    pub fn limits(&self, white_to_move: bool) -> (Limits, bool, Vec<String>) {
        let mut notes = Vec::new();
        let mut least = |what: &str, zero: bool| {
            if zero {
                notes.push(format!("{what} 0 is no limit; searching with {what} 1"));
            }
        };
        let mut limits = Limits::default();
        if let Some(d) = self.depth {
            least("depth", d == 0);
            limits = limits.with_depth(d.max(1)).unwrap_or(limits);
        }
        if let Some(n) = self.nodes {
            least("nodes", n == 0);
            limits = limits.with_nodes(n.max(1)).unwrap_or(limits);
        }
        let (left, inc) = if white_to_move {
            (self.wtime, self.winc)
        } else {
            (self.btime, self.binc)
        };
        let movetime = match (self.movetime, left) {
            (Some(t), _) => {
                least("movetime", t.is_zero());
                Some(t.max(Duration::from_millis(1)))
            }
            (None, Some(left)) => {
                let inc = inc.unwrap_or_default();
                let budget = (left / 25 + inc * 3 / 4).min(left / 2);
                Some(
                    budget
                        .saturating_sub(Duration::from_millis(20))
                        .max(Duration::from_millis(5)),
                )
            }
            (None, None) => None,
        };
        if let Some(t) = movetime {
            limits = limits.with_movetime(t).unwrap_or(limits);
        }
        let infinite = self.infinite || self.ponder || limits.is_infinite();
        (limits, infinite, notes)
    }
}

/// The command as a GUI would send it (the fields set, in a fixed order; skipped
/// tokens are left out).
impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if !self.searchmoves.is_empty() {
            write!(f, " searchmoves {}", self.searchmoves.join(" "))?;
        }
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let times = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
            ("movetime", self.movetime),
        ];
        for (key, time) in times {
            if let Some(t) = time {
                write!(f, " {key} {}", t.as_millis())?;
            }
        }
        let counts = [
            ("movestogo", self.movestogo.map(u64::from)),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("mate", self.mate.map(u64::from)),
        ];
        for (key, count) in counts {
            if let Some(n) = count {
                write!(f, " {key} {n}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn go(line: &str) -> Go {
        match parse_command(line) {
            GuiCommand::Go(go) => go,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn a_clock_becomes_a_move_time() {
        let (limits, infinite, notes) =
            go("go wtime 60000 btime 1000 winc 1000 binc 0").limits(true);
        // White to move: 60 s / 25 + ¾ × 1 s − 20 ms overhead.
        assert_eq!(limits.movetime_limit(), Some(Duration::from_millis(3130)));
        assert!(!infinite && notes.is_empty());
        assert!(go("go infinite").limits(true).1);
        assert!(go("go").limits(true).1);
    }

    #[test]
    fn a_clock_past_zero_is_no_time_left_and_still_a_limit() {
        let g = go("go wtime -50 btime -50 winc 0 binc 0");
        assert_eq!(
            (g.wtime, g.btime),
            (Some(Duration::ZERO), Some(Duration::ZERO))
        );
        assert!(g.skipped.is_empty(), "{g:?}");
        for white in [true, false] {
            let (limits, infinite, _) = g.limits(white);
            assert_eq!(limits.movetime_limit(), Some(Duration::from_millis(5)));
            assert!(!infinite);
        }
    }

    #[test]
    fn zero_limits_are_read_as_one_with_a_note() {
        let (limits, infinite, notes) = go("go depth 0 nodes 0 movetime 0").limits(true);
        assert_eq!(limits.depth_limit(), Some(1));
        assert_eq!(limits.nodes_limit(), Some(1));
        assert_eq!(limits.movetime_limit(), Some(Duration::from_millis(1)));
        assert!(!infinite);
        assert_eq!(notes.len(), 3, "{notes:?}");
    }

    #[test]
    fn out_of_range_and_unreadable_values_do_not_lose_the_command() {
        let g = go(
            "go depth 300 nodes 99999999999999999999999 movetime x wdl 3 searchmoves e2e4 d2d4 infinite",
        );
        assert_eq!(g.depth, Some(300));
        assert_eq!(g.nodes, Some(u64::MAX));
        assert_eq!(g.movetime, None);
        assert_eq!(g.searchmoves, ["e2e4", "d2d4"]);
        assert!(g.infinite);
        assert_eq!(g.skipped, ["movetime x", "wdl", "3"]);
    }

    #[test]
    fn other_commands_go_to_shakmaty_uci() {
        assert_eq!(parse_command("  "), GuiCommand::Empty);
        assert_eq!(
            parse_command("isready"),
            GuiCommand::Message(UciMessage::IsReady)
        );
        assert!(matches!(
            parse_command("hello there"),
            GuiCommand::Unknown(_)
        ));
    }

    fn ms() -> impl Strategy<Value = Option<Duration>> {
        proptest::option::of((0u64..10_000_000).prop_map(Duration::from_millis))
    }

    fn well_formed_go() -> impl Strategy<Value = Go> {
        (
            (ms(), ms(), ms(), ms(), ms()),
            (
                proptest::option::of(any::<u32>()),
                proptest::option::of(any::<u32>()),
                proptest::option::of(any::<u64>()),
                proptest::option::of(any::<u32>()),
            ),
            (any::<bool>(), any::<bool>()),
            proptest::collection::vec("[a-h][1-8][a-h][1-8][qrbn]?", 0..4),
        )
            .prop_map(
                |(
                    (wtime, btime, winc, binc, movetime),
                    (movestogo, depth, nodes, mate),
                    (infinite, ponder),
                    searchmoves,
                )| Go {
                    wtime,
                    btime,
                    winc,
                    binc,
                    movestogo,
                    depth,
                    nodes,
                    mate,
                    movetime,
                    infinite,
                    ponder,
                    searchmoves,
                    skipped: Vec::new(),
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

        /// Any bytes, read as the server reads them (what is not UTF-8 replaced), give a
        /// command or `Unknown`, never a panic; a `go` always gives its fields.
        #[test]
        fn any_line_of_bytes_is_read_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let line = String::from_utf8_lossy(&bytes);
            let _ = parse_command(&line);
            let go_line = format!("go {line}");
            let GuiCommand::Go(g) = parse_command(&go_line) else {
                return Err(TestCaseError::fail(format!("not a go: {go_line:?}")));
            };
            let _ = g.limits(true);
            let _ = g.limits(false);
        }

        /// A well-formed `go` reads back as the fields written, and its limits are those
        /// fields' (the clock of the side to move when no move time is given).
        #[test]
        fn a_well_formed_go_reads_back_as_its_limits(g in well_formed_go(), white in any::<bool>()) {
            let line = g.to_string();
            let read = go(&line);
            prop_assert_eq!(&read, &g, "{}", line);
            let (limits, infinite, notes) = read.limits(white);
            prop_assert_eq!(limits.depth_limit(), g.depth.map(|d| d.max(1)));
            prop_assert_eq!(limits.nodes_limit(), g.nodes.map(|n| n.max(1)));
            let zeros = usize::from(g.depth == Some(0))
                + usize::from(g.nodes == Some(0))
                + usize::from(g.movetime.is_some_and(|t| t.is_zero()));
            prop_assert_eq!(notes.len(), zeros);
            let clock = if white { g.wtime } else { g.btime };
            match g.movetime {
                Some(t) => prop_assert_eq!(limits.movetime_limit(), Some(t.max(Duration::from_millis(1)))),
                None => prop_assert_eq!(limits.movetime_limit().is_some(), clock.is_some()),
            }
            prop_assert_eq!(infinite, g.infinite || g.ponder || limits.is_infinite());
        }
    }
}
