//! Whole drills scripted against the real ECO book with seeded RNGs.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::sync::{Arc, LazyLock};

use hastings::book::PositionGraph;
use hastings::sampler::{CandidateKind, Style};
use hastings::trainer::{MoveOutcome, Phase, Session};
use shakmaty::{Chess, Color, Move, Position, san::San};

use crate::common;
use common::san_moves as moves;

static ECO: LazyLock<Arc<PositionGraph>> = LazyLock::new(common::eco);

fn mv(pos: &Chess, san: &str) -> Move {
    San::from_ascii(san.as_bytes())
        .unwrap()
        .to_move(pos)
        .unwrap()
}

fn play(s: &mut Session, san: &str) -> MoveOutcome {
    let m = mv(s.position(), san);
    s.play(m)
}

/// A legal move of the side to move that leaves the book.
fn out_of_book_move(s: &Session) -> Move {
    let pos = s.position();
    pos.legal_moves()
        .into_iter()
        .find(|&m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            ECO.lookup(&next).is_none()
        })
        .expect("some legal move leaves the book")
}

/// Plays the line to its end: the learner always takes the "Show me" move.
fn finish(s: &mut Session) {
    for _ in 0..200 {
        match s.phase() {
            Phase::LearnerToMove => {
                assert!(matches!(s.show_me(), Some(MoveOutcome::Accepted { .. })));
            }
            Phase::ComputerToMove => {
                let before = s.distribution().clone();
                let reply = s.reply().unwrap();
                assert!(
                    before.candidates.contains(&reply.candidate),
                    "the reply is a candidate"
                );
            }
            Phase::EndOfLine { .. } => return,
            Phase::OutOfBook { .. } => panic!("show me never leaves the book"),
        }
    }
    panic!("the line did not end");
}

#[test]
fn a_drill_as_white_runs_to_the_end_of_a_line() {
    let mut s = Session::new(ECO.clone(), Color::White, Style::neutral(), 11);
    assert_eq!(s.phase(), &Phase::LearnerToMove);
    let MoveOutcome::Accepted { san, transposed_to } = play(&mut s, "e4") else {
        panic!("1.e4 is in the book");
    };
    assert_eq!((san.as_str(), transposed_to), ("e4", None));
    assert_eq!(s.opening_title().as_deref(), Some("B00 King's Pawn Game"));
    assert_eq!(s.phase(), &Phase::ComputerToMove);
    let reply = s.reply().unwrap();
    assert_eq!(s.moves().len(), 2);
    assert!(!s.moves()[1].by_learner);
    assert_eq!(reply.san, s.moves()[1].san);
    assert!(reply.proposals >= 1);
    finish(&mut s);
    let Phase::EndOfLine {
        title,
        plies,
        mistakes,
    } = s.phase().clone()
    else {
        unreachable!()
    };
    assert_eq!(plies, s.moves().len());
    assert_eq!(mistakes, 0);
    assert_eq!(title, s.opening_title());
    assert!(title.is_some());
    assert_eq!(s.lines_completed(), 1);
    assert!(
        s.distribution().is_empty(),
        "nothing continues at the end of a line"
    );
}

#[test]
fn the_same_seed_replays_the_same_drill() {
    let run = |seed| {
        let mut s = Session::new(
            ECO.clone(),
            Color::White,
            Style::presets()[1].style.clone(),
            seed,
        );
        finish(&mut s);
        s.moves().iter().map(|m| m.san.clone()).collect::<Vec<_>>()
    };
    assert_eq!(run(5), run(5));
    let lines: std::collections::HashSet<Vec<String>> = (0..20).map(run).collect();
    assert!(lines.len() > 5, "different seeds give different lines");
}

#[test]
fn a_drill_as_black_starts_with_the_computers_move() {
    let mut s = Session::new(ECO.clone(), Color::Black, Style::neutral(), 3);
    assert_eq!(s.phase(), &Phase::ComputerToMove);
    assert_eq!(
        play(&mut s, "e4"),
        MoveOutcome::Rejected,
        "White is the computer"
    );
    let reply = s.reply().unwrap();
    assert_eq!(reply.candidate.kind, CandidateKind::Book);
    assert_eq!(s.phase(), &Phase::LearnerToMove);
    assert_eq!(s.position().turn(), Color::Black);
    finish(&mut s);
    for (i, m) in s.moves().iter().enumerate() {
        assert_eq!(m.by_learner, i % 2 == 1, "the learner plays Black's moves");
    }
}

#[test]
fn a_wrong_move_is_shown_counted_and_taken_back() {
    let mut s = Session::new(ECO.clone(), Color::Black, Style::neutral(), 8);
    s.reply().unwrap();
    let before = s.position().clone();
    let wrong = out_of_book_move(&s);
    assert_eq!(s.play(wrong), MoveOutcome::OutOfBook);
    let Phase::OutOfBook {
        attempted,
        book_moves,
        ..
    } = s.phase().clone()
    else {
        panic!("out of book");
    };
    assert_eq!(attempted, wrong);
    assert_eq!(s.mistakes_in_line(), 1);
    assert_eq!(s.moves().len(), 1, "the wrong move is not kept");
    let mut shown = before.clone();
    shown.play_unchecked(wrong);
    assert_eq!(s.display_position(), shown, "but it is shown");
    let dist = s.distribution();
    assert_eq!(book_moves.len(), dist.candidates.len());
    assert!(book_moves.windows(2).all(|w| w[0].share >= w[1].share));
    assert!(
        book_moves.iter().all(|b| b.leads_to.is_some()),
        "every first reply is named"
    );

    s.try_again();
    assert_eq!(s.phase(), &Phase::LearnerToMove);
    assert_eq!(s.display_position(), before);

    assert_eq!(s.play(wrong), MoveOutcome::OutOfBook);
    assert_eq!(s.mistakes_in_line(), 2);
    let best = book_moves[0].clone();
    assert!(matches!(s.show_me(), Some(MoveOutcome::Accepted { .. })));
    assert_eq!(
        s.moves()[1].mv,
        best.mv,
        "show me plays the most popular book move"
    );
    assert_eq!(s.mistakes_total(), 2);
}

#[test]
fn a_hint_shows_the_piece_then_the_move() {
    let mut s = Session::new(ECO.clone(), Color::White, Style::neutral(), 1);
    let first = s.ask_hint().unwrap();
    assert_eq!(first.to, None);
    assert_eq!(
        first.from.to_string(),
        "e2",
        "1.e4 is the most popular move"
    );
    let second = s.ask_hint().unwrap();
    assert_eq!(second.to.map(|t| t.to_string()).as_deref(), Some("e4"));
    play(&mut s, "e4");
    assert_eq!(s.hint(), None, "a move clears the hint");
}

#[test]
fn a_transposition_into_the_nimzo_indian_is_announced() {
    let given = moves("c4 e6 d4 Nf6 Nc3");
    let mut s =
        Session::from_moves(ECO.clone(), Color::Black, Style::neutral(), 2, &given).unwrap();
    assert_eq!(
        s.opening_title().as_deref(),
        Some("A13 English Opening: Agincourt Defense")
    );
    assert_eq!(s.announcement(), None);
    let MoveOutcome::Accepted { transposed_to, .. } = play(&mut s, "Bb4") else {
        panic!("3...Bb4 is in the book");
    };
    assert_eq!(transposed_to.as_deref(), Some("E20 Nimzo-Indian Defense"));
    assert_eq!(s.announcement(), Some("E20 Nimzo-Indian Defense"));
    assert_eq!(s.opening().unwrap().moves.len(), 6);
    // Following the Nimzo-Indian from here is no new transposition.
    let reply = s.reply().unwrap();
    if reply.transposed_to.is_some() {
        assert_ne!(
            reply.transposed_to.as_deref(),
            Some("E20 Nimzo-Indian Defense")
        );
    }
}

/// Issue 41, item 12: a line of the same name reached by another move order is no
/// transposition ("Transposed to C02 … Nimzowitsch System" while already in it).
#[test]
fn a_line_of_the_same_name_in_another_order_is_not_a_transposition() {
    let pgn = "[ECO \"E20\"]\n[Opening \"Nimzo-Indian Defense\"]\n\n1. d4 Nf6 2. c4 e6 *\n\n\
               [ECO \"E20\"]\n[Opening \"Nimzo-Indian Defense\"]\n\n1. c4 e6 2. d4 Nf6 3. Nc3 *\n";
    let lines = hastings::book::pgn::read_pgn(
        pgn.as_bytes(),
        hastings::book::SourceId(1),
        &hastings::book::pgn::ImportOptions::default(),
        None,
    )
    .unwrap()
    .lines;
    let graph = Arc::new(PositionGraph::build(lines).graph);
    let mut s = Session::from_moves(
        graph,
        Color::White,
        Style::neutral(),
        2,
        &moves("d4 Nf6 c4 e6"),
    )
    .unwrap();
    let named = s.opening_title();
    assert!(
        named
            .as_deref()
            .is_some_and(|t| t.contains("Nimzo-Indian Defense")),
        "{named:?}"
    );
    let MoveOutcome::Accepted { transposed_to, .. } = play(&mut s, "Nc3") else {
        panic!("3.Nc3 is in the book");
    };
    assert_eq!(transposed_to, None, "already in the Nimzo-Indian Defense");
    assert_eq!(s.opening_title(), named);
}

#[test]
fn playing_a_line_in_its_own_order_announces_nothing() {
    let given = moves("d4 Nf6 c4 e6 Nc3");
    let mut s =
        Session::from_moves(ECO.clone(), Color::Black, Style::neutral(), 2, &given).unwrap();
    let MoveOutcome::Accepted { transposed_to, .. } = play(&mut s, "Bb4") else {
        panic!("in book");
    };
    assert_eq!(transposed_to, None);
    assert_eq!(
        s.opening_title().as_deref(),
        Some("E20 Nimzo-Indian Defense")
    );
}

#[test]
fn take_back_undoes_the_learners_move_and_the_reply() {
    let mut s = Session::new(ECO.clone(), Color::White, Style::neutral(), 4);
    play(&mut s, "d4");
    s.reply().unwrap();
    play(&mut s, "c4");
    s.reply();
    let after_two = s.moves().len();
    assert!(after_two >= 3);
    assert!(s.take_back());
    assert_eq!(s.moves().len(), 2);
    assert_eq!(s.phase(), &Phase::LearnerToMove);
    assert!(s.take_back());
    assert!(s.moves().is_empty());
    assert_eq!(s.position(), &Chess::default());
    assert!(!s.take_back(), "nothing left to take back");
    // Given moves stay.
    let mut g = Session::from_moves(
        ECO.clone(),
        Color::White,
        Style::neutral(),
        4,
        &moves("e4 e5"),
    )
    .unwrap();
    assert!(!g.take_back());
    assert_eq!(g.moves().len(), 2);
}

#[test]
fn earlier_positions_are_read_only_until_continued_from() {
    let mut s = Session::new(ECO.clone(), Color::White, Style::neutral(), 6);
    play(&mut s, "e4");
    s.reply().unwrap();
    play(&mut s, "Nf3");
    s.reply();
    s.view(1);
    assert_eq!(s.viewing(), Some(1));
    let mut after_e4 = Chess::default();
    after_e4.play_unchecked(mv(&after_e4, "e4"));
    assert_eq!(s.display_position(), after_e4);
    let n = s.moves().len();
    let wrong = mv(s.position(), "a3");
    assert_eq!(s.play(wrong), MoveOutcome::Rejected, "viewing is read-only");
    assert_eq!(s.moves().len(), n);
    s.continue_from_here();
    assert_eq!(s.viewing(), None);
    assert_eq!(s.moves().len(), 1);
    assert_eq!(s.phase(), &Phase::ComputerToMove);
}

#[test]
fn changing_the_style_changes_the_next_reply_distribution() {
    let mut s = Session::new(ECO.clone(), Color::Black, Style::neutral(), 9);
    let neutral = s.distribution().clone();
    let c4 = |d: &hastings::sampler::Distribution| {
        d.candidates
            .iter()
            .find(|c| c.mv.to().to_string() == "c4")
            .unwrap()
            .p
    };
    s.set_style(Style::from_vectors([0, 0, 1, 0, 0], [0.4; 5], 0.0).unwrap());
    assert!(c4(s.distribution()) > 5.0 * c4(&neutral));
}

#[test]
fn a_repertoire_drill_explains_theory_moves_and_where_the_repertoire_ends() {
    // A tiny repertoire: the Ruy Lopez main move order only.
    let text = "eco\tname\tpgn\nC60\tMy Ruy\t1. e4 e5 2. Nf3 Nc6 3. Bb5\n";
    let repertoire =
        Arc::new(PositionGraph::build(hastings::book::eco::parse_tsv("c.tsv", text).lines).graph);
    let mut s = Session::new(repertoire, Color::White, Style::neutral(), 1);
    s.set_theory(Some(ECO.clone()));
    // 1.d4 is theory but not in the repertoire: a mistake, explained.
    assert_eq!(play(&mut s, "d4"), MoveOutcome::OutOfBook);
    assert_eq!(
        s.theory_note().as_deref(),
        Some("d4 is theory, but your repertoire plays e4")
    );
    s.try_again();
    play(&mut s, "e4");
    for _ in 0..10 {
        let r = s.reply().unwrap();
        assert_eq!(r.san, "e5", "the computer never leaves the repertoire");
        s.take_back();
        play(&mut s, "e4");
    }
    s.reply();
    play(&mut s, "Nf3");
    s.reply();
    play(&mut s, "Bb5");
    assert!(matches!(s.phase(), Phase::EndOfLine { .. }));
    let note = s.theory_note().unwrap();
    assert!(
        note.starts_with("Your repertoire ends here; theory continues with a6"),
        "{note}"
    );
}
