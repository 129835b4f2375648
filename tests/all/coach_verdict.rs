//! Wrong moves explained, through the headless coach: a move outside the book gets the
//! engine's verdict while the coach goes on (a stub engine answering fixed evaluations,
//! a store filled beforehand, the real built-in engine and Stockfish), a move that is
//! also good can be accepted or added to the repertoire, the setting that such moves
//! are not mistakes, and review grades (a blunder is Again; an alternative found good
//! with the setting on is no lapse).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use hastings::coach::review::DrillMode;
use hastings::coach::settings::{Settings, Side};
use hastings::coach::verdict::VerdictCommand;
use hastings::coach::{Action, Coach, Command};
use hastings::engine::analysis::Analysis;
use hastings::engine::{Limits, Score, WorkerGone};
use hastings::review::Rating;
use hastings::trainer::Phase;
use hastings::trainer::check::{AnalysisStore, MemoryStore};
use hastings::trainer::review_drill::ReviewStep;
use hastings::trainer::verdict::checker::{
    CHECK_TIME, CheckEngine, CheckFailure, SharedStore, memory_store,
};
use hastings::trainer::verdict::{Judgement, Verdict};
use hastings::workspace::review_store::ReviewStore;
use shakmaty::{Chess, Move, Position};

use crate::common;
use common::stub_engine::{Stub, knight_hangs, level, no_line, qxg5_line};
use common::{coach_frame, eco, fixture, san_moves, temp_dir};

/// 1.d4 loses (in this stub's world).
fn d4_loses(pos: &Chess) -> Score {
    if pos.board().piece_at(shakmaty::Square::D4).is_some() {
        Score::Cp(400)
    } else {
        Score::Cp(-20)
    }
}

fn stub(
    score: fn(&Chess) -> Score,
    line: fn(&Chess) -> Vec<Move>,
) -> (CheckEngine, Arc<AtomicUsize>) {
    let (engine, searches) = Stub::new(score, line);
    (CheckEngine::Given(Box::new(engine)), searches)
}

fn settings(alternatives_not_mistakes: bool) -> Settings {
    Settings {
        learner: Side::White,
        seed: "5".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        alternatives_not_mistakes,
        ..Settings::default()
    }
}

/// A coach on ECO whose moves are checked by `engine`, the drill at the position after
/// `moves` with the learner to move, once the book moves there are analysed ahead.
fn coach_at(moves: &str, engine: CheckEngine, store: SharedStore, settings: Settings) -> Coach {
    let mut coach = Coach::new(eco(), settings, None);
    coach.set_move_checker(engine, Some(store), Limits::depth(1).unwrap());
    coach.apply(Command::DrillFrom(san_moves(moves)));
    coach_frame(&mut coach);
    let deadline = Instant::now() + Duration::from_secs(120);
    while coach.is_analysing_ahead() {
        assert!(Instant::now() < deadline, "the analyses ahead did not end");
        std::thread::sleep(Duration::from_millis(2));
        coach_frame(&mut coach);
    }
    coach
}

/// The move `san` at the drill's position.
fn mv(coach: &Coach, san: &str) -> Move {
    san.parse::<shakmaty::san::San>()
        .unwrap()
        .to_move(coach.session().position())
        .unwrap()
}

/// Frames until the verdict has come (the engine works on its own thread).
fn wait_for_verdict(coach: &mut Coach) -> Verdict {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        coach_frame(coach);
        if let Some(v) = coach.verdict().answer() {
            return v.clone();
        }
        assert!(
            coach.verdict().failure().is_none(),
            "{:?}",
            coach.verdict().failure()
        );
        assert!(Instant::now() < deadline, "no verdict came");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// An evaluation that kills the engine's thread.
fn panics(_: &Chess) -> Score {
    panic!("the evaluation divided by zero")
}

/// The engine's thread dies (its evaluation panics while it analyses ahead): the move
/// played next is a failure that says why, as the verdict panel shows it, not a
/// verdict "on its way" for ever.
#[test]
fn a_dead_engine_thread_is_a_failure_shown_not_a_verdict_on_its_way() {
    let (engine, _) = stub(panics, qxg5_line);
    let mut coach = coach_at("e4 e5 Nf3 Nc6", engine, memory_store(), settings(true));
    let ng5 = mv(&coach, "Ng5");
    coach.apply(Command::Play(ng5));
    let deadline = Instant::now() + Duration::from_secs(120);
    while coach.verdict().failure().is_none() {
        assert!(
            Instant::now() < deadline,
            "the dead engine still looks like one thinking"
        );
        std::thread::sleep(Duration::from_millis(2));
        coach_frame(&mut coach);
    }
    assert!(!coach.is_checking_move(), "nothing is on its way");
    assert_eq!(coach.verdict().answer(), None);
    let gone = WorkerGone::Panicked("the evaluation divided by zero".into());
    assert_eq!(
        coach.verdict().failure(),
        Some(&CheckFailure::Died(gone.clone()))
    );
    // What the panel prints after "Your move could not be checked: ".
    let failure = coach.verdict().failure().unwrap().to_string();
    assert_eq!(failure, gone.to_string());
    assert!(
        failure.contains("the evaluation divided by zero"),
        "{failure}"
    );
}

#[test]
fn a_wrong_move_is_checked_in_the_background_and_explained() {
    let (engine, searches) = stub(knight_hangs, qxg5_line);
    let mut coach = coach_at("e4 e5 Nf3 Nc6", engine, memory_store(), settings(true));
    // While the learner thought, the book's main move was analysed (the verdict
    // compares with it only).
    assert_eq!(searches.load(Ordering::SeqCst), 1);
    assert_eq!(coach.verdict().store().lock().unwrap().len(), 1);
    let ng5 = mv(&coach, "Ng5");
    coach.apply(Command::Play(ng5));
    assert!(matches!(coach.session().phase(), Phase::OutOfBook { .. }));
    assert!(
        coach.is_checking_move(),
        "the coach does not wait for the engine"
    );
    assert_eq!(coach.verdict().answer(), None);
    let v = wait_for_verdict(&mut coach);
    assert!(!coach.is_checking_move());
    assert_eq!(v.judgement, Judgement::Blunder);
    assert_eq!(
        v.headline(),
        "Blunder: after 3.Ng5 Qxg5 Black wins a knight"
    );
    assert_eq!(v.refutation_san, "3...Qxg5 4.d4");
    assert_eq!(coach.verdict().engine(), Some("stub engine"));
    // Then only the move played was left to analyse; both are kept.
    assert_eq!(searches.load(Ordering::SeqCst), 2);
    assert_eq!(coach.verdict().store().lock().unwrap().len(), 2);
    // A blunder stays a mistake, whatever the setting.
    assert!(!coach.verdict().is_forgiven());
    assert_eq!(coach.session().mistakes_in_line(), 1);
    // Accepting is only for moves that are also good.
    coach.apply(Command::Verdict(VerdictCommand::Accept));
    assert!(matches!(coach.session().phase(), Phase::OutOfBook { .. }));

    // Taken back and played again: the store answers, the engine is not asked.
    coach.apply(Command::Action(Action::TryAgain));
    coach_frame(&mut coach);
    assert_eq!(
        coach.verdict().answer(),
        None,
        "no verdict without a wrong move"
    );
    coach.apply(Command::Play(ng5));
    let again = wait_for_verdict(&mut coach);
    assert_eq!(again, v);
    assert_eq!(searches.load(Ordering::SeqCst), 2);
}

#[test]
fn analyses_in_the_store_answer_without_the_engine() {
    let before = common::position_after("e4 e5 Nf3 Nc6");
    let mut filled = MemoryStore::new();
    for san in [
        "Ng5", "Nc3", "Bc4", "Bb5", "d4", "c3", "Be2", "g3", "Nxe5", "d3",
    ] {
        let Ok(m) = san.parse::<shakmaty::san::San>().unwrap().to_move(&before) else {
            continue;
        };
        let mut after = before.clone();
        after.play_unchecked(m);
        let analysis = Analysis {
            score: Score::Cp(if san == "Ng5" { 310 } else { -25 }),
            pv: qxg5_line(&after),
            depth: 20,
        };
        filled.put(&after, &analysis).unwrap();
    }
    let store: SharedStore = Arc::new(std::sync::Mutex::new(filled));
    let (engine, searches) = stub(level, no_line);
    let mut coach = coach_at("e4 e5 Nf3 Nc6", engine, store, settings(false));
    coach.apply(Command::Play(mv(&coach, "Ng5")));
    let v = wait_for_verdict(&mut coach);
    assert_eq!(v.judgement, Judgement::Blunder);
    assert_eq!(v.depth, 20, "the store's analysis");
    assert_eq!(
        searches.load(Ordering::SeqCst),
        0,
        "the engine was not asked"
    );
}

#[test]
fn an_alternative_that_is_also_good_is_no_mistake_with_the_setting_on() {
    for on in [false, true] {
        let (engine, _) = stub(level, no_line);
        let mut coach = coach_at("e4 e5 Nf3 Nc6", engine, memory_store(), settings(on));
        let before = coach.session().position().clone();
        coach.apply(Command::Play(mv(&coach, "h3")));
        let Phase::OutOfBook { book_moves, .. } = coach.session().phase().clone() else {
            panic!("h3 is in the book")
        };
        let share = format!("{:.0} %", 100.0 * book_moves[0].p);
        let v = wait_for_verdict(&mut coach);
        assert_eq!(v.book_move, book_moves[0].mv, "the book's main move");
        assert_eq!(v.judgement, Judgement::AlsoGood);
        assert_eq!(
            v.headline(),
            format!(
                "Also good: 0.0 against {}, the book's main move ({share})",
                v.book_san
            )
        );
        let key = hastings::trainer::progress::position_key(&before);
        let recorded = coach.progress().positions[&key];
        assert_eq!(recorded.attempts, 1);
        if on {
            assert!(coach.verdict().is_forgiven());
            assert_eq!(coach.session().mistakes_in_line(), 0);
            assert_eq!(coach.session().mistakes_total(), 0);
            assert_eq!(recorded.mistakes, 0);
        } else {
            // Every behaviour of before: the move counts as a mistake.
            assert!(!coach.verdict().is_forgiven());
            assert_eq!(coach.session().mistakes_in_line(), 1);
            assert_eq!(recorded.mistakes, 1);
        }
    }
}

#[test]
fn accepting_an_alternative_goes_on_with_the_book_move_without_a_mistake() {
    let (engine, _) = stub(level, no_line);
    let mut coach = coach_at("e4 e5 Nf3 Nc6", engine, memory_store(), settings(false));
    coach.apply(Command::Play(mv(&coach, "a3")));
    let v = wait_for_verdict(&mut coach);
    assert!(v.judgement.is_good());
    coach.apply(Command::Verdict(VerdictCommand::Accept));
    assert_eq!(coach.session().mistakes_in_line(), 0);
    let last = coach.session().moves().last().unwrap();
    assert_eq!(last.mv, v.book_move, "the line goes on with the book move");
    assert!(last.by_learner);
    assert_eq!(
        coach.message(),
        Some(
            format!(
                "3.a3 is not counted as a mistake; the line goes on with the book's main move {}.",
                v.book_san
            )
            .as_str()
        )
    );
    coach_frame(&mut coach);
    assert_eq!(coach.verdict().answer(), None);
}

#[test]
fn an_alternative_is_added_to_a_copy_of_the_repertoire() {
    let dir = temp_dir("verdict-add-to-repertoire");
    let original = dir.join("italian.pgn");
    std::fs::copy(fixture("repertoire.pgn"), &original).unwrap();
    let mut coach = Coach::new(eco(), settings(false), None);
    common::load_repertoire_alone(&mut coach, &original);
    let (engine, _) = stub(level, no_line);
    coach.set_move_checker(engine, Some(memory_store()), Limits::depth(1).unwrap());
    coach.apply(Command::DrillFrom(san_moves("e4 e5 Nf3 Nc6")));
    coach_frame(&mut coach);
    assert!(coach.repertoire_file().is_some());
    coach.apply(Command::Play(mv(&coach, "Nc3")));
    let v = wait_for_verdict(&mut coach);
    assert_eq!(v.book_san, "3.Bc4", "the repertoire's move");
    coach.apply(Command::Verdict(VerdictCommand::AddToRepertoire));
    let copy = dir.join("italian-updated.pgn");
    let text = std::fs::read_to_string(&copy).unwrap();
    assert!(text.contains("1. e4 e5 2. Nf3 Nc6 3. Nc3"), "{text}");
    assert!(
        coach.message().unwrap().contains("Added"),
        "{:?}",
        coach.message()
    );
}

/// The review log's ratings after `play` in review mode on the repertoire fixture,
/// with moves checked by a stub scoring positions by `score`.
fn review_ratings(score: fn(&Chess) -> Score, setting: bool, name: &str) -> Vec<Rating> {
    let dir = temp_dir(name);
    let original = dir.join("italian.pgn");
    std::fs::copy(fixture("repertoire.pgn"), &original).unwrap();
    let mut coach = Coach::new(eco(), settings(setting), Some(dir.join("progress.ron")));
    coach.review_mut().set_fuzz(false);
    common::load_repertoire_alone(&mut coach, &original);
    let (engine, _) = stub(score, no_line);
    coach.set_move_checker(engine, Some(memory_store()), Limits::depth(1).unwrap());
    coach.apply(Command::SetDrillMode(DrillMode::Review));
    if let Some(ReviewStep::Learn(_)) = coach.review().step() {
        coach.apply(Command::GotIt);
    }
    assert!(matches!(
        coach.review().step(),
        Some(ReviewStep::Ask { .. })
    ));
    let start = Chess::default();
    let d4 = san_moves("d4")[0];
    let e4 = san_moves("e4")[0];
    assert!(start.is_legal(d4));
    coach.apply(Command::Play(d4));
    assert!(matches!(coach.session().phase(), Phase::OutOfBook { .. }));
    wait_for_verdict(&mut coach);
    coach.apply(Command::Action(Action::TryAgain));
    coach.apply(Command::Play(e4));
    coach.apply(Command::SetDrillMode(DrillMode::Free));
    let store = ReviewStore::open(&dir.join("reviews.log")).unwrap();
    store.records().iter().map(|r| r.rating).collect()
}

#[test]
fn in_review_a_blunder_is_again_and_a_good_alternative_is_no_lapse_with_the_setting() {
    assert_eq!(
        review_ratings(d4_loses, true, "verdict-review-blunder"),
        [Rating::Again]
    );
    // Also good, the setting off: a wrong answer, as before.
    assert_eq!(
        review_ratings(level, false, "verdict-review-off"),
        [Rating::Again]
    );
    // Also good, the setting on: not a lapse, but not recalled at once either.
    assert_eq!(
        review_ratings(level, true, "verdict-review-on"),
        [Rating::Hard]
    );
}

/// The learner plays 3.Ng5?? after 1.e4 e5 2.Nf3 Nc6 against a real engine, as the
/// window does (300 ms a position on a cache miss), once the book moves there are
/// analysed (a learner who thinks a second or two); prints how long the verdict took.
fn ng5_against(engine: CheckEngine, what: &str) {
    let mut coach = Coach::new(eco(), settings(false), None);
    coach.set_move_checker(
        engine,
        Some(memory_store()),
        Limits::movetime_ms(CHECK_TIME.as_millis() as u64).unwrap(),
    );
    let started = Instant::now();
    coach.apply(Command::DrillFrom(san_moves("e4 e5 Nf3 Nc6")));
    coach_frame(&mut coach);
    // The learner thinks while the engine starts and analyses the book moves.
    while coach.is_analysing_ahead() {
        assert!(started.elapsed() < Duration::from_secs(120), "no end ahead");
        std::thread::sleep(Duration::from_millis(2));
        coach_frame(&mut coach);
    }
    let ahead = started.elapsed();
    let ng5 = mv(&coach, "Ng5");
    coach.apply(Command::Play(ng5));
    let (v, first_frame) = wait_timed(&mut coach);
    let first = coach.verdict().took().unwrap();
    assert_eq!(v.judgement, Judgement::Blunder, "{v:?}");
    assert!(
        v.refutation_san.starts_with("3...Qxg5"),
        "{}",
        v.refutation_san
    );
    assert!(
        v.headline().starts_with("Blunder: after 3.Ng5 Qxg5"),
        "{}",
        v.headline()
    );
    // Once more with the engine started and another move (a cache miss again).
    coach.apply(Command::Action(Action::TryAgain));
    coach.apply(Command::Play(mv(&coach, "h3")));
    let (_, warm_frame) = wait_timed(&mut coach);
    let warm = coach.verdict().took().unwrap();
    println!(
        "verdict latency ({what}, {}): engine start and book moves analysed ahead in {} ms; \
         then first {} ms, next {} ms; longest Coach::logic {:.2} ms / {:.2} ms; {}",
        coach.verdict().engine().unwrap_or("?"),
        ahead.as_millis(),
        first.as_millis(),
        warm.as_millis(),
        first_frame.as_secs_f64() * 1000.0,
        warm_frame.as_secs_f64() * 1000.0,
        v.headline()
    );
}

/// As [`wait_for_verdict`], with the longest frame of the coach's work meanwhile.
fn wait_timed(coach: &mut Coach) -> (Verdict, Duration) {
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut longest = Duration::ZERO;
    loop {
        let frame = Instant::now();
        coach_frame(coach);
        longest = longest.max(frame.elapsed());
        if let Some(v) = coach.verdict().answer() {
            return (v.clone(), longest);
        }
        assert!(Instant::now() < deadline, "no verdict came");
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn ng5_is_a_blunder_refuted_by_qxg5_for_the_built_in_engine() {
    ng5_against(CheckEngine::builtin(), "built-in α-β");
}

#[test]
fn ng5_is_a_blunder_refuted_by_qxg5_for_stockfish() {
    let Some(_) = common::stockfish_or_skip() else {
        return;
    };
    ng5_against(CheckEngine::discover(), "Stockfish");
}

/// Frames until the analyses ahead are done (the cache opened, the book moves
/// analysed).
fn wait_ahead(coach: &mut Coach) {
    let deadline = Instant::now() + Duration::from_secs(120);
    coach_frame(coach);
    while coach.is_analysing_ahead() {
        assert!(Instant::now() < deadline, "the analyses ahead did not end");
        std::thread::sleep(Duration::from_millis(2));
        coach_frame(coach);
    }
}

#[test]
fn analyses_are_kept_in_the_data_folder_and_used_at_the_next_start() {
    let dir = temp_dir("verdict-cache");
    let progress = dir.join("progress.ron");
    let play_ng5 = |searches_expected: Option<usize>| {
        let (engine, searches) = stub(knight_hangs, qxg5_line);
        let mut coach = Coach::new(eco(), settings(false), Some(progress.clone()));
        coach.set_move_checker(engine, None, Limits::depth(1).unwrap());
        coach.apply(Command::DrillFrom(san_moves("e4 e5 Nf3 Nc6")));
        wait_ahead(&mut coach);
        coach.apply(Command::Play(mv(&coach, "Ng5")));
        let v = wait_for_verdict(&mut coach);
        if let Some(n) = searches_expected {
            assert_eq!(searches.load(Ordering::SeqCst), n);
        }
        (v, searches.load(Ordering::SeqCst))
    };
    // First start: the book's main move ahead, then 3.Ng5: two searches, each
    // appended to the cache file of the stub engine at depth 1.
    let (first, _) = play_ng5(Some(2));
    let file = dir.join("analysis").join("stub-engine-depth-1.tsv");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        text.lines().count(),
        1 + 2,
        "a header and two analyses:\n{text}"
    );
    // Next start: everything comes from the file, the engine searches nothing.
    let (again, _) = play_ng5(Some(0));
    assert_eq!(again, first);

    // The repertoire check's deeper analyses by the same engine answer too (held in
    // memory only: the move checker's file does not grow).
    let check_limit =
        hastings::workspace::analysis_cache::AnalysisEngine::choose(None, None, None).limit;
    let before = common::position_after("e4 e5 Nf3 Nc6");
    let h3 = "h3"
        .parse::<shakmaty::san::San>()
        .unwrap()
        .to_move(&before)
        .unwrap();
    let mut after = before.clone();
    after.play_unchecked(h3);
    let mut check = hastings::workspace::analysis_cache::AnalysisCache::open(
        &dir.join("analysis"),
        "stub engine",
        &check_limit,
    )
    .unwrap();
    let deep = Analysis {
        score: Score::Cp(-40),
        pv: Vec::new(),
        depth: 18,
    };
    check.put(&after, &deep).unwrap();
    let (engine, searches) = stub(knight_hangs, qxg5_line);
    let mut coach = Coach::new(eco(), settings(false), Some(progress.clone()));
    coach.set_move_checker(engine, None, Limits::depth(1).unwrap());
    coach.apply(Command::DrillFrom(san_moves("e4 e5 Nf3 Nc6")));
    wait_ahead(&mut coach);
    coach.apply(Command::Play(h3));
    let v = wait_for_verdict(&mut coach);
    assert_eq!(v.depth, 18, "the check's analysis: {v:?}");
    assert_eq!(searches.load(Ordering::SeqCst), 0);
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 1 + 2);
}

#[test]
fn with_the_setting_off_no_engine_starts_and_no_verdict_comes() {
    let (engine, searches) = stub(knight_hangs, qxg5_line);
    let mut off = settings(false);
    off.explain_wrong_moves = false;
    let mut coach = Coach::new(eco(), off, None);
    coach.set_move_checker(engine, Some(memory_store()), Limits::depth(1).unwrap());
    coach.apply(Command::DrillFrom(san_moves("e4 e5 Nf3 Nc6")));
    wait_ahead(&mut coach);
    coach.apply(Command::Play(mv(&coach, "Ng5")));
    for _ in 0..20 {
        coach_frame(&mut coach);
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(matches!(coach.session().phase(), Phase::OutOfBook { .. }));
    assert!(!coach.is_checking_move());
    assert_eq!(coach.verdict().answer(), None);
    assert_eq!(coach.verdict().engine(), None, "no engine started");
    assert_eq!(searches.load(Ordering::SeqCst), 0);
    assert_eq!(coach.session().mistakes_in_line(), 1);
}
