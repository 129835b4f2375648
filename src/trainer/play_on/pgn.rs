//! A play-on game as PGN, with the book part and the engine part marked.
//!
//! The switch is a comment after the last book move, `{Book ends: C60 Ruy Lopez}`, the
//! way lichess studies and ChessBase annotate where theory ends: every PGN reader shows
//! a comment, and PGN has no standard tag for it. The engine's moves carry their
//! evaluation as lichess does, `{[%eval 0.35]}` (pawns, from White's side; `#-3` for a
//! mate), so lichess and En Croissant draw it as a graph; a sparring game's engine moves
//! say where they came from (`{from 3 of 7 games of 1600–1800 players}`). `[Annotator "Hastings"]`
//! says who wrote the comments, and a non-standard `[BookPlies "6"]` tag lets a program
//! find the switch without reading comments (PGN readers keep unknown tags).

use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Position};

use super::PlayOnGame;
use crate::book::export::GameWriter;
use crate::engine::Score;

impl PlayOnGame {
    /// The game as PGN; `engine` names the engine's side, `date` is `YYYY.MM.DD` (see
    /// [`pgn_date`]) or `None` for an unknown date; the learner's side is unknown
    /// (`"?"`, see [`PlayOnGame::to_pgn_of`]).
    pub fn to_pgn_dated(&self, engine: &str, date: Option<&str>) -> String {
        self.to_pgn_of("", engine, date)
    }

    /// The game as PGN with the learner's name (`learner`, as the settings' "Your name
    /// in PGN files" says; empty: `"?"`, PGN's unknown player, not a made-up name).
    pub fn to_pgn_of(&self, learner: &str, engine: &str, date: Option<&str>) -> String {
        let learner = match learner.trim() {
            "" => "?",
            name => name,
        };
        let (white, black) = match self.learner {
            Color::White => (learner, engine),
            Color::Black => (engine, learner),
        };
        let mut out = GameWriter::new();
        out.tag("Event", "Play on after the book");
        out.tag("Site", "Hastings");
        out.tag("Date", date.unwrap_or("????.??.??"));
        out.tag("Round", "-");
        out.tag("White", white);
        out.tag("Black", black);
        out.tag("Result", self.result());
        if let Some(opening) = &self.opening {
            out.tag("Opening", opening);
        }
        out.tag("Annotator", "Hastings");
        out.tag("BookPlies", &self.book_plies.to_string());
        out.tag("PlyCount", &self.moves.len().to_string());
        let start = self.game.start();
        if *start != Chess::default() {
            out.tag("SetUp", "1");
            out.tag(
                "FEN",
                &Fen::from_position(start, EnPassantMode::Legal).to_string(),
            );
        }
        if self.end.is_some() {
            out.tag("Termination", "normal");
        }
        // An unnamed line says where the book ends, not "unnamed line".
        let book_end = match self.opening.as_deref() {
            Some(name) => format!("Book ends: {name}"),
            None => "The book ends here".to_owned(),
        };
        if self.book_plies == 0 {
            out.comment(&book_end);
        }
        let mut pos = start.clone();
        for (i, m) in self.moves.iter().enumerate() {
            out.san(&pos, m.mv);
            if let Some(score) = m.eval {
                out.comment(&format!("[%eval {}]", eval_text(score)));
            }
            if let Some(note) = &m.note {
                out.comment(note);
            }
            if i + 1 == self.book_plies {
                out.comment(&book_end);
            }
            pos.play_unchecked(m.mv);
        }
        if let Some(end) = &self.end {
            out.comment(&end.to_string());
        }
        out.finish(self.result())
    }

    /// The game as PGN with an unknown date (see [`PlayOnGame::to_pgn_dated`]).
    pub fn to_pgn(&self, engine: &str) -> String {
        self.to_pgn_dated(engine, None)
    }
}

/// An evaluation as lichess writes it in `[%eval]`: pawns with two decimals, or `#n`.
fn eval_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:.2}", f64::from(cp) / 100.0),
        Score::Mate(n) => format!("#{n}"),
    }
}

/// The PGN date (`YYYY.MM.DD`, UTC) of a time in seconds since 1970.
///
/// ```
/// use hastings::trainer::play_on::pgn_date;
/// assert_eq!(pgn_date(0), "1970.01.01");
/// assert_eq!(pgn_date(951_782_400), "2000.02.29");
/// ```
pub fn pgn_date(unix_seconds: u64) -> String {
    // Howard Hinnant's civil_from_days.
    let days = i64::try_from(unix_seconds / 86_400).unwrap_or(0) + 719_468;
    let era = days.div_euclid(146_097);
    let doe = days.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use shakmaty::Move;
    use shakmaty::san::San;

    use super::*;
    use crate::trainer::play_on::PlayOnGame;

    fn play(game: &mut PlayOnGame, san: &str, score: Option<Score>) {
        let mv: Move = San::from_ascii(san.as_bytes())
            .unwrap()
            .to_move(game.position())
            .unwrap();
        if game.position().turn() == game.learner() {
            game.play_learner(mv).unwrap();
        } else {
            game.play_engine(mv, score).unwrap();
        }
    }

    /// The book part `sans`, the learner playing Black.
    fn book(sans: &str) -> PlayOnGame {
        let moves = crate::book::movelist::parse_moves(&Chess::default(), sans).unwrap();
        PlayOnGame::new(
            Chess::default(),
            &moves,
            Some("C60 Ruy Lopez".into()),
            Color::Black,
        )
        .unwrap()
    }

    #[test]
    fn the_switch_is_a_comment_and_engine_moves_carry_evals_from_whites_side() {
        let mut g = book("e4 e5 Nf3 Nc6 Bb5");
        play(&mut g, "a6", None);
        // White (the engine) reports +0.40 from its side.
        play(&mut g, "Ba4", Some(Score::Cp(40)));
        play(&mut g, "Nf6", None);
        play(&mut g, "O-O", Some(Score::Mate(12)));
        let pgn = g.to_pgn_of("Ana Ruiz", "Stockfish 15.1", Some("2026.11.23"));
        assert!(pgn.contains("[White \"Stockfish 15.1\"]\n[Black \"Ana Ruiz\"]"));
        // Without a name, PGN's unknown player, not a made-up "Learner".
        let unnamed = g.to_pgn_dated("Stockfish 15.1", None);
        assert!(unnamed.contains("[White \"Stockfish 15.1\"]\n[Black \"?\"]"));
        assert!(pgn.contains("[Opening \"C60 Ruy Lopez\"]"));
        assert!(pgn.contains("[BookPlies \"5\"]\n[PlyCount \"9\"]"));
        assert!(pgn.contains("[Result \"*\"]"));
        let movetext = pgn.split("\n\n").nth(1).unwrap();
        assert_eq!(
            movetext.replace('\n', " "),
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 {Book ends: C60 Ruy Lopez} 3... a6 4. Ba4 \
             {[%eval 0.40]} 4... Nf6 5. O-O {[%eval #12]} *"
        );
    }

    #[test]
    fn a_finished_game_has_its_result_and_how_it_ended() {
        let mut g = book("f3 e5");
        // The learner plays Black; White (the engine) blunders, Black mates.
        play(&mut g, "g4", Some(Score::Cp(-300)));
        play(&mut g, "Qh4#", None);
        let pgn = g.to_pgn("Hastings α-β");
        assert!(pgn.contains("[Result \"0-1\"]"));
        assert!(pgn.contains("[Termination \"normal\"]"));
        assert!(
            pgn.replace('\n', " ")
                .trim_end()
                .ends_with("2... Qh4# {checkmate} 0-1"),
            "{pgn}"
        );
    }

    #[test]
    fn a_game_from_the_start_marks_the_switch_before_the_first_move_and_wraps() {
        let mut g = PlayOnGame::new(Chess::default(), &[], None, Color::White).unwrap();
        for _ in 0..10 {
            for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
                if g.end().is_some() {
                    break;
                }
                play(&mut g, san, Some(Score::Cp(0)));
            }
        }
        let pgn = g.to_pgn("MCTS");
        let movetext = pgn.split("\n\n").nth(1).unwrap();
        assert!(
            movetext.starts_with("{The book ends here} 1. Nf3"),
            "{movetext}"
        );
        assert!(
            movetext.lines().all(|l| l.chars().count() <= 79),
            "{movetext}"
        );
        assert!(pgn.contains("[Result \"1/2-1/2\"]"));
    }

    #[test]
    fn a_position_start_writes_its_fen() {
        let fen: Fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".parse().unwrap();
        let start: Chess = fen.into_position(shakmaty::CastlingMode::Standard).unwrap();
        let g = PlayOnGame::new(start, &[], None, Color::White).unwrap();
        let pgn = g.to_pgn("x");
        assert!(pgn.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]"));
    }

    #[test]
    fn dates_follow_the_calendar() {
        assert_eq!(pgn_date(1_795_000_000), "2026.11.18");
        assert_eq!(pgn_date(86_399), "1970.01.01");
        assert_eq!(pgn_date(86_400 * 365), "1971.01.01");
    }
}
