//! A drill past the book: where the repertoire ends, the move predictor's moves go on
//! for the chosen number of plies, with exact P; sampled replies follow P.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;

use std::sync::Arc;

use hastings::book::PositionGraph;
use hastings::engine::predictor::Predictor;
use hastings::sampler::{CandidateKind, Style};
use hastings::trainer::{MoveOutcome, PastBook, Phase, Session};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::san::San;
use shakmaty::{Color, Position};

/// A one-line repertoire for White: 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O (nine
/// plies: the predictor was trained on positions from ply 8 on).
fn ruy_lopez() -> Arc<PositionGraph> {
    let text = "eco\tname\tpgn\nC78\tMy Ruy\t1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O\n";
    Arc::new(PositionGraph::build(hastings::book::eco::parse_tsv("c.tsv", text).lines).graph)
}

fn play(s: &mut Session, san: &str) -> MoveOutcome {
    let m = San::from_ascii(san.as_bytes())
        .unwrap()
        .to_move(s.position())
        .unwrap();
    s.play(m)
}

fn drill(plies: u32, seed: u64) -> Session {
    let mut s = Session::new(ruy_lopez(), Color::White, Style::neutral(), seed);
    s.set_past_book(Some(PastBook::new(Predictor::shared().unwrap(), plies)));
    for (learner, computer) in [("e4", "e5"), ("Nf3", "Nc6"), ("Bb5", "a6"), ("Ba4", "Nf6")] {
        assert!(matches!(
            play(&mut s, learner),
            MoveOutcome::Accepted { .. }
        ));
        assert_eq!(s.reply().unwrap().san, computer);
    }
    assert!(matches!(play(&mut s, "O-O"), MoveOutcome::Accepted { .. }));
    s
}

#[test]
fn without_past_the_book_the_line_ends_with_the_repertoire() {
    let mut s = Session::new(ruy_lopez(), Color::White, Style::neutral(), 1);
    for san in ["e4", "Nf3", "Bb5", "Ba4", "O-O"] {
        assert!(matches!(play(&mut s, san), MoveOutcome::Accepted { .. }));
        s.reply();
    }
    assert!(matches!(s.phase(), Phase::EndOfLine { plies: 9, .. }));
}

#[test]
fn the_drill_goes_on_for_the_chosen_plies_with_every_legal_move_a_candidate() {
    let mut s = drill(4, 3);
    // The computer's turn after 5.O-O: the predictor's distribution over all legal moves.
    assert_eq!(s.phase(), &Phase::ComputerToMove);
    let d = s.distribution().clone();
    assert_eq!(d.candidates.len(), s.position().legal_moves().len());
    assert!(
        d.candidates
            .iter()
            .all(|c| c.kind == CandidateKind::Predicted)
    );
    let total: f64 = d.candidates.iter().map(|c| c.p).sum();
    assert!((total - 1.0).abs() < 1e-9);
    let shares: f64 = d.candidates.iter().map(|c| c.share).sum();
    assert!((shares - 1.0).abs() < 1e-9);
    // Masters answer 5.O-O with Be7 (the Closed Ruy Lopez) or Nxe4 (the Open); the
    // predictor's most likely reply is one of them.
    let best = d
        .candidates
        .iter()
        .max_by(|a, b| a.share.total_cmp(&b.share))
        .unwrap();
    let best_san = San::from_move(s.position(), best.mv).to_string();
    assert!(["Be7", "Nxe4"].contains(&best_san.as_str()), "{best_san}");
    // Reply, then the learner's move past the book (any legal move is kept), and so on
    // until four plies past the book; then the line ends.
    let reply = s.reply().unwrap();
    assert_eq!(reply.candidate.kind, CandidateKind::Predicted);
    assert!(d.candidates.contains(&reply.candidate));
    assert_eq!(s.plies_past_book(s.moves().len()), 1);
    let any = s.position().legal_moves()[0];
    assert!(matches!(s.play(any), MoveOutcome::Accepted { .. }));
    s.reply().unwrap();
    let any = s.position().legal_moves()[0];
    assert!(matches!(s.play(any), MoveOutcome::Accepted { .. }));
    assert_eq!(s.plies_past_book(s.moves().len()), 4);
    assert!(
        matches!(s.phase(), Phase::EndOfLine { plies: 13, .. }),
        "{:?}",
        s.phase()
    );
    // Taking back returns into the predicted part, where the distribution is back.
    assert!(s.take_back());
    assert_eq!(s.phase(), &Phase::LearnerToMove);
    assert!(
        s.distribution()
            .candidates
            .iter()
            .all(|c| c.kind == CandidateKind::Predicted)
    );
}

#[test]
fn sampled_replies_past_the_book_follow_exact_p() {
    let s = drill(2, 5);
    let d = s.distribution().clone();
    let mut rng = ChaCha8Rng::seed_from_u64(2027);
    let n = 20_000usize;
    let mut counts = vec![0usize; d.candidates.len()];
    for _ in 0..n {
        counts[d.step(&mut rng).unwrap().index] += 1;
    }
    let expected: Vec<f64> = d.candidates.iter().map(|c| c.p * n as f64).collect();
    let (chi2, df) = common::pooled_chi2(&expected, &counts);
    let critical = common::chi2_critical(df);
    assert!(chi2 < critical, "chi2 {chi2:.1} ≥ {critical:.1} (df {df})");
    // And the session's own reply is one of the candidates, drawn the same way.
    let mut s = s;
    let reply = s.reply().unwrap();
    assert!(d.candidates.contains(&reply.candidate));
}

#[test]
fn the_positions_the_drill_can_reach_next_are_predicted_ahead_off_the_drills_thread() {
    let predictor = Predictor::shared().unwrap();
    let past = PastBook::new(std::sync::Arc::clone(&predictor), 4);
    let mut s = Session::new(ruy_lopez(), Color::White, Style::neutral(), 3);
    s.set_past_book(Some(past.clone()));
    // Up to 4...Nf6, the book's last position for the learner: 5.O-O ends the book, so
    // the position after it is predicted ahead.
    for (learner, computer) in [("e4", "e5"), ("Nf3", "Nc6"), ("Bb5", "a6"), ("Ba4", "Nf6")] {
        assert!(matches!(
            play(&mut s, learner),
            MoveOutcome::Accepted { .. }
        ));
        assert_eq!(s.reply().unwrap().san, computer);
    }
    let mut after_castling = s.position().clone();
    after_castling.play_unchecked(
        San::from_ascii(b"O-O")
            .unwrap()
            .to_move(s.position())
            .unwrap(),
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !past.predictions.knows(&after_castling) {
        assert!(std::time::Instant::now() < deadline, "never predicted");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // Made ahead or now, the predictions are the network's.
    assert!(matches!(play(&mut s, "O-O"), MoveOutcome::Accepted { .. }));
    let d = s.distribution();
    let fresh = predictor.predict(s.position());
    assert_eq!(d.candidates.len(), fresh.len());
    for m in fresh {
        assert!(d.candidates.iter().any(|c| c.mv == m.mv && c.share == m.p));
    }
    // Past the book, every reply's position is predicted ahead in turn.
    let replies: Vec<_> = d.candidates.iter().map(|c| c.mv).collect();
    for mv in replies {
        let mut next = s.position().clone();
        next.play_unchecked(mv);
        while !past.predictions.knows(&next) {
            assert!(std::time::Instant::now() < deadline, "never predicted");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}
