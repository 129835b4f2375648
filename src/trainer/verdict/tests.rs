use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};

use super::*;

fn mv(pos: &Chess, san: &str) -> Move {
    San::from_ascii(san.as_bytes())
        .unwrap()
        .to_move(pos)
        .unwrap_or_else(|e| panic!("{san}: {e}"))
}

fn after(sans: &str) -> Chess {
    let mut pos = Chess::default();
    for san in sans.split_whitespace() {
        let m = mv(&pos, san);
        pos.play_unchecked(m);
    }
    pos
}

/// The moves `sans` one after another from `pos`.
fn line(pos: &Chess, sans: &str) -> Vec<Move> {
    let mut pos = pos.clone();
    sans.split_whitespace()
        .map(|san| {
            let m = mv(&pos, san);
            pos.play_unchecked(m);
            m
        })
        .collect()
}

/// An analysis of the position after `played` at `before`: `score` for the side to
/// move there, the line `pv`.
fn analysis_after(before: &Chess, played: Move, score: Score, pv: &str) -> Analysis {
    let mut pos = before.clone();
    pos.play_unchecked(played);
    Analysis {
        score,
        pv: line(&pos, pv),
        depth: 12,
    }
}

/// The verdict on `played` at the position after `moves`, against `book` (SAN, with
/// the scores of the positions after them, the side to move's).
fn verdict(
    moves: &str,
    played: (&str, Score, &str),
    book: &[(&str, Score)],
) -> (Question, Verdict) {
    let before = after(moves);
    let played_mv = mv(&before, played.0);
    let book_moves: Vec<Move> = book.iter().map(|(san, _)| mv(&before, san)).collect();
    let q = Question::new(before.clone(), played_mv, book_moves.iter().copied());
    let played_analysis = analysis_after(&before, played_mv, played.1, played.2);
    let book_analyses: Vec<Analysis> = book_moves
        .iter()
        .zip(book)
        .map(|(&m, (_, s))| analysis_after(&before, m, *s, ""))
        .collect();
    let v = Verdict::of(&q, &played_analysis, &book_analyses).unwrap();
    (q, v)
}

#[test]
fn thresholds_are_lichess_drops_in_winning_chances() {
    assert_eq!(Judgement::of_drop(0.0), Judgement::AlsoGood);
    assert_eq!(Judgement::of_drop(0.099), Judgement::AlsoGood);
    assert_eq!(Judgement::of_drop(0.1), Judgement::Inaccuracy);
    assert_eq!(Judgement::of_drop(0.2), Judgement::Mistake);
    assert_eq!(Judgement::of_drop(0.3), Judgement::Blunder);
    assert_eq!(
        Judgement::of_drop(-0.5),
        Judgement::AlsoGood,
        "a better move"
    );
    // lichess's curve: +1 pawn is 59.1 % ("win %" 50 + 50 · 0.182).
    let one_pawn = Outlook::Cp(100).winning_chances();
    assert!((one_pawn - 0.182).abs() < 0.001, "{one_pawn}");
    assert!((Outlook::Cp(-100).winning_chances() + one_pawn).abs() < 1e-12);
    assert_eq!(Outlook::Mates(3).winning_chances(), 1.0);
    assert_eq!(Outlook::Mated(1).winning_chances(), -1.0);
}

#[test]
fn the_same_centipawns_weigh_less_in_a_decided_position() {
    // Losing a pawn and a half from equality is a mistake; from +8 it changes little.
    assert_eq!(judge(Outlook::Cp(0), Outlook::Cp(-150)), Judgement::Mistake);
    assert_eq!(
        judge(Outlook::Cp(800), Outlook::Cp(650)),
        Judgement::AlsoGood
    );
    assert_eq!(
        judge(Outlook::Cp(20), Outlook::Cp(-60)),
        Judgement::Inaccuracy
    );
    assert_eq!(
        judge(Outlook::Cp(20), Outlook::Cp(-290)),
        Judgement::Blunder
    );
}

#[test]
fn allowing_or_missing_a_mate_is_a_blunder() {
    assert_eq!(
        judge(Outlook::Cp(950), Outlook::Mated(5)),
        Judgement::Blunder
    );
    assert_eq!(
        judge(Outlook::Mates(2), Outlook::Cp(900)),
        Judgement::Blunder
    );
    assert_eq!(
        judge(Outlook::Mates(1), Outlook::Mates(3)),
        Judgement::AlsoGood
    );
    assert_eq!(
        judge(Outlook::Mated(2), Outlook::Mated(1)),
        Judgement::AlsoGood
    );
}

#[test]
fn a_hanging_knight_is_a_blunder_and_the_sentence_counts_the_knight() {
    let (_, v) = verdict(
        "e4 e5 Nf3 Nc6",
        ("Ng5", Score::Cp(320), "Qxg5 Nc3"),
        &[
            ("Bc4", Score::Cp(-30)),
            ("Bb5", Score::Cp(-40)),
            ("d4", Score::Cp(-20)),
        ],
    );
    assert_eq!(v.judgement, Judgement::Blunder);
    assert_eq!(v.book_san, "3.Bb5", "the best of the book moves");
    assert_eq!(v.played_san, "3.Ng5");
    assert_eq!(v.played_outlook, Outlook::Cp(-320));
    assert_eq!(v.loss_cp, Some(360));
    assert_eq!(v.refutation_san, "3...Qxg5 4.Nc3");
    assert_eq!(v.sentence, "after 3.Ng5 Qxg5 Black wins a knight");
    assert_eq!(
        v.headline(),
        "Blunder: after 3.Ng5 Qxg5 Black wins a knight"
    );
    assert_eq!(v.comparison(), "−3.6 against your book move 3.Bb5");
}

#[test]
fn the_sentence_counts_the_material_where_the_first_exchange_is_over() {
    // The engine's line goes on (4.d4 Qxg2 5.Rg1), but the knight is what 3...Qxg5 wins.
    let (_, v) = verdict(
        "e4 e5 Nf3 Nc6",
        ("Ng5", Score::Cp(420), "Qxg5 d4 Qxg2 Rg1"),
        &[("Bc4", Score::Cp(-30))],
    );
    assert_eq!(v.sentence, "after 3.Ng5 Qxg5 Black wins a knight");
    assert_eq!(v.refutation_san, "3...Qxg5 4.d4 Qxg2 5.Rg1");
    // A long line is written out to its eighth ply.
    let (_, v) = verdict(
        "e4 e5 Nf3 Nc6",
        (
            "Ng5",
            Score::Cp(600),
            "Qxg5 d4 Qxg2 Rg1 Qxe4+ Be2 exd4 Rxg7 Nf6 Rg3",
        ),
        &[("Bc4", Score::Cp(-30))],
    );
    assert_eq!(v.refutation.len(), 10);
    assert_eq!(
        v.refutation_san,
        "3...Qxg5 4.d4 Qxg2 5.Rg1 Qxe4+ 6.Be2 exd4 7.Rxg7 …"
    );
    // A pawn taken, a knight lost: counted once the exchange is over.
    let (_, v) = verdict(
        "e4 e5 Nf3 Nc6",
        ("Nxe5", Score::Cp(250), "Nxe5 d4 Ng6"),
        &[("Bc4", Score::Cp(-30))],
    );
    assert_eq!(
        v.sentence,
        "after 3.Nxe5 Nxe5 Black wins a knight for a pawn"
    );
}

#[test]
fn a_line_cut_in_the_middle_of_an_exchange_is_told_by_the_evaluation() {
    // 3.Nxe5 Nxe5: the line ends with Black a knight up, but the evaluation says
    // White gets it back (4.d4), so no knight is said to be won.
    let (_, v) = verdict(
        "e4 e5 Nf3 Nc6",
        ("Nxe5", Score::Cp(90), "Nxe5"),
        &[("Bc4", Score::Cp(-30))],
    );
    assert_eq!(v.judgement, Judgement::Mistake);
    assert_eq!(
        v.sentence,
        "after 3.Nxe5 Nxe5 Black is slightly better (−0.9)"
    );
}

#[test]
fn an_alternative_that_is_also_good_says_what_it_gives_up() {
    let (_, v) = verdict(
        "e4 e5 Nf3 Nc6",
        ("Nc3", Score::Cp(-20), "Nf6 Bb5"),
        &[("Bc4", Score::Cp(-30))],
    );
    assert_eq!(v.judgement, Judgement::AlsoGood);
    assert_eq!(
        v.headline(),
        "Also good (−0.1 against your book move 3.Bc4)"
    );
    assert_eq!(v.sentence, "after 3.Nc3 Nf6 the game is level (+0.2)");
}

#[test]
fn a_better_move_than_the_book_gains_and_is_also_good() {
    let (_, v) = verdict(
        "d4",
        ("e5", Score::Cp(-10), "dxe5"),
        &[("d5", Score::Cp(40))],
    );
    assert_eq!(v.judgement, Judgement::AlsoGood);
    assert_eq!(v.loss_cp, Some(-50));
    // Black's view: half a pawn better than 1...d5.
    assert_eq!(v.comparison(), "+0.5 against your book move 1...d5");
    // The sentence speaks from White's side, as evaluations are written.
    assert_eq!(v.sentence, "after 1...e5 2.dxe5 the game is level (−0.1)");
}

#[test]
fn allowing_mate_names_the_mate() {
    let (_, v) = verdict(
        "f3 e5",
        ("g4", Score::Mate(1), "Qh4#"),
        &[("Nc3", Score::Cp(50))],
    );
    assert_eq!(v.judgement, Judgement::Blunder);
    assert_eq!(v.played_outlook, Outlook::Mated(1));
    assert_eq!(v.loss_cp, None);
    assert_eq!(v.headline(), "Blunder: after 2.g4 Qh4# Black mates");
    assert_eq!(
        v.comparison(),
        "#−1 against −0.5 after your book move 2.Nc3"
    );
}

#[test]
fn a_long_mate_is_told_by_its_count() {
    let (_, v) = verdict(
        "f3 e5",
        ("g4", Score::Mate(4), "d5 Nc3 Qh4#"),
        &[("Nc3", Score::Cp(50))],
    );
    assert_eq!(v.sentence, "after 2.g4 Black mates in 4");
}

#[test]
fn missing_the_books_mate_is_a_blunder() {
    let before = after("e4 e5 Bc4 Nc6 Qh5 Nf6");
    let played = mv(&before, "Nc3");
    let mate = mv(&before, "Qxf7#");
    let q = Question::new(before.clone(), played, [mate]);
    let mut mated = before.clone();
    mated.play_unchecked(mate);
    let book = [Analysis::of_finished(&mated).unwrap()];
    let v = Verdict::of(
        &q,
        &analysis_after(&before, played, Score::Cp(-250), "Nxh5"),
        &book,
    )
    .unwrap();
    assert_eq!(v.book_outlook, Outlook::Mates(0));
    assert_eq!(v.judgement, Judgement::Blunder);
    assert_eq!(v.sentence, "your book move 4.Qxf7# mates");
}

#[test]
fn questions_compare_at_most_three_legal_book_moves() {
    let before = after("e4 e5 Nf3 Nc6");
    let played = mv(&before, "Ng5");
    let book: Vec<Move> = ["Bc4", "Bb5", "d4", "Nc3"]
        .iter()
        .map(|s| mv(&before, s))
        .collect();
    let q = Question::new(before.clone(), played, book.iter().copied());
    assert_eq!(q.book, book[..MAX_BOOK_MOVES]);
    let positions = q.positions();
    assert_eq!(positions.len(), 1 + MAX_BOOK_MOVES);
    let mut first = before.clone();
    first.play_unchecked(played);
    assert_eq!(positions[0], first, "the move played comes first");
    assert_eq!(q.learner(), shakmaty::Color::White);
    // No book move: no verdict.
    let lone = Question::new(before, played, []);
    let a = analysis_after(&lone.before, played, Score::Cp(300), "");
    assert_eq!(Verdict::of(&lone, &a, &[]), None);
}

#[test]
fn an_engine_line_that_turns_illegal_is_cut_there() {
    let before = after("e4 e5 Nf3 Nc6");
    let played = mv(&before, "Ng5");
    let q = Question::new(before.clone(), played, [mv(&before, "Bc4")]);
    let mut a = analysis_after(&before, played, Score::Cp(300), "Qxg5");
    // A move of another position (a corrupt cache): the line stops before it.
    a.pv.push(mv(&Chess::default(), "e4"));
    let book = [analysis_after(
        &before,
        mv(&before, "Bc4"),
        Score::Cp(-30),
        "",
    )];
    let v = Verdict::of(&q, &a, &book).unwrap();
    assert_eq!(v.refutation.len(), 1);
    assert_eq!(v.refutation_san, "3...Qxg5");
}

#[test]
fn pawns_are_written_with_one_decimal_and_a_true_minus() {
    assert_eq!(pawns(120), "+1.2");
    assert_eq!(pawns(-36), "−0.4");
    assert_eq!(pawns(4), "0.0");
    assert_eq!(pawns(-1234), "−12.3");
    assert_eq!(Outlook::Mated(2).for_white(shakmaty::Color::Black), "#2");
    assert_eq!(Outlook::Cp(-50).for_white(shakmaty::Color::Black), "+0.5");
}
