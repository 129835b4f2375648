//! Review mode: the queue of 100,000 cards, the review term of one reply, appending a
//! synced review, and replaying a log.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use hastings::book::PositionGraph;
use hastings::book::line::{LineSource, OpeningLine, SourceId};
use hastings::review::log::{format, parse};
use hastings::review::study::{DEFAULT_NEW_PER_DAY, SessionKind};
use hastings::review::{
    Deck, DeckStates, Rating, ReviewRecord, ReviewTerm, Schedule, Scheduler, SteerSettings, Study,
    Timestamp,
};
use hastings::sampler::{Distribution, Style};
use hastings::workspace::review_store::ReviewStore;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::san::San;
use shakmaty::{Chess, Color, Position};

/// A book of `lines` random games of 22 plies (seeded): about 11 White cards a line.
fn random_book(lines: usize) -> PositionGraph {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let lines = (0..lines).map(|i| {
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        for _ in 0..22 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.random_range(0..legal.len())];
            moves.push(mv);
            pos.play_unchecked(mv);
        }
        OpeningLine::new(
            LineSource::Pgn {
                source: SourceId(1),
                game: i as u32 + 1,
            },
            moves,
        )
    });
    PositionGraph::build(lines).graph
}

fn now() -> Timestamp {
    Timestamp::from_unix_ms(1_760_000_000_000, 60)
}

/// One review per card of `deck`, spread over the last 60 days (so some are due).
fn reviews(deck: &Deck) -> Vec<ReviewRecord> {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    deck.cards()
        .iter()
        .map(|c| ReviewRecord {
            time: now().plus_ms(-rng.random_range(0..60 * 86_400_000i64)),
            color: Color::White,
            rating: Rating::ALL[rng.random_range(0..4usize)],
            seconds: 3.0,
            fuzz: true,
            card: c.key.clone(),
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let scheduler = Scheduler::default();

    // ----- the queue of 100,000 cards -----
    let big = random_book(11_300);
    let started = std::time::Instant::now();
    let deck = Deck::new(&big, Color::White);
    let deck_ms = started.elapsed().as_secs_f64() * 1e3;
    let records = reviews(&deck);
    let schedule = Schedule::replay(&scheduler, &records);
    c.bench_function(
        &format!("join {} cards with their states", deck.len()),
        |b| b.iter(|| black_box(DeckStates::new(&deck, &schedule))),
    );
    let states = DeckStates::new(&deck, &schedule);
    let study = Study {
        deck: &deck,
        schedule: &schedule,
        states: &states,
        scheduler: &scheduler,
        now: now(),
    };
    eprintln!(
        "random book: {} nodes, {} White cards, {} due; the deck took {deck_ms:.0} ms to build",
        big.node_count(),
        deck.len(),
        study.counts(DEFAULT_NEW_PER_DAY).due
    );
    c.bench_function(&format!("queue of {} cards", deck.len()), |b| {
        b.iter(|| black_box(study.queue(SessionKind::Due, DEFAULT_NEW_PER_DAY)))
    });
    c.bench_function(
        &format!("counts + 30-day forecast of {} cards", deck.len()),
        |b| {
            b.iter(|| {
                black_box(study.counts(DEFAULT_NEW_PER_DAY));
                black_box(study.forecast(30))
            })
        },
    );
    let bytes = format(&records);
    c.bench_function(
        &format!("parse + replay a log of {} reviews", records.len()),
        |b| {
            b.iter(|| {
                let read = parse(black_box(&bytes));
                black_box(Schedule::replay(&scheduler, &read.records))
            })
        },
    );

    // ----- the review term -----
    let Ok(eco) = PositionGraph::eco() else {
        panic!("the embedded book builds");
    };
    c.bench_function("deck of the ECO book for White", |b| {
        b.iter(|| black_box(Deck::new(&eco, Color::White)))
    });
    let eco_deck = Deck::new(&eco, Color::White);
    // Every 7th card is due.
    let targets: Vec<_> = eco_deck
        .cards()
        .iter()
        .step_by(7)
        .map(|c| (c.node, 1.0))
        .collect();
    let term = Arc::new(ReviewTerm::new(
        &eco,
        Color::White,
        SteerSettings::default(),
        targets,
    ));
    let mut pos = Chess::default();
    let e4 = San::from_ascii(b"e4")
        .map_err(|_| ())
        .and_then(|s| s.to_move(&pos).map_err(|_| ()));
    let Ok(e4) = e4 else { panic!("e4") };
    pos.play_unchecked(e4);
    let Some(node) = eco.lookup(&pos) else {
        panic!("1.e4 in the book");
    };
    let style = Style::neutral();
    let plain = Distribution::at(&eco, node, &pos, &style, 0.53);
    eprintln!(
        "review term after 1.e4: {} candidates",
        plain.candidates.len()
    );
    c.bench_function("review term: d(y) of one reply (cached)", |b| {
        let Some(y) = plain.candidates[0].to else {
            panic!("ECO candidates lead to nodes");
        };
        b.iter(|| black_box(term.d(black_box(y))))
    });
    c.bench_function("review term: added to every candidate after 1.e4", |b| {
        b.iter_batched(
            || plain.clone(),
            |d| black_box(d.with_review(1.0, |y| term.d(y))),
            BatchSize::SmallInput,
        )
    });
    c.bench_function("reply distribution after 1.e4 without the term", |b| {
        b.iter(|| black_box(Distribution::at(&eco, node, &pos, &style, 0.53)))
    });
    c.bench_function("reply distribution after 1.e4 with the term", |b| {
        b.iter(|| {
            black_box(
                Distribution::at(&eco, node, &pos, &style, 0.53).with_review(1.0, |y| term.d(y)),
            )
        })
    });
    let some_card = eco_deck.cards()[100].node;
    c.bench_function(
        "review term: update after a grade (ECO, 7,851 nodes)",
        |b| {
            let mut t = (*term).clone();
            let mut u = 0.0;
            b.iter(|| {
                u = 1.0 - u;
                t.set_urgency(&eco, some_card, u);
            })
        },
    );
    let big_targets: Vec<_> = deck
        .cards()
        .iter()
        .step_by(7)
        .map(|c| (c.node, 1.0))
        .collect();
    let mut big_term = ReviewTerm::new(&big, Color::White, SteerSettings::default(), big_targets);
    let big_card = deck.cards()[100].node;
    c.bench_function(
        &format!(
            "review term: update after a grade ({} nodes)",
            big.node_count()
        ),
        |b| {
            let mut u = 0.0;
            b.iter(|| {
                u = 1.0 - u;
                big_term.set_urgency(&big, big_card, u);
            })
        },
    );

    // ----- appending a review -----
    let dir = std::path::PathBuf::from(
        std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".to_owned()),
    )
    .join("review-bench");
    let _ = std::fs::remove_dir_all(&dir);
    if std::fs::create_dir_all(&dir).is_err() {
        panic!("create {}", dir.display());
    }
    let path = dir.join("reviews.log");
    let Ok(mut store) = ReviewStore::open(&path) else {
        panic!("open {}", path.display());
    };
    let record = records[0].clone();
    let Ok(mut raw) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("sync-only"))
    else {
        panic!("open the sync test file");
    };
    c.bench_function("write one byte + sync_data (the disk alone)", |b| {
        b.iter(|| {
            use std::io::Write;
            if raw.write_all(b"x").and_then(|()| raw.sync_data()).is_err() {
                panic!("sync failed");
            }
        })
    });
    c.bench_function("append one review (write + flush + sync_data)", |b| {
        b.iter(|| {
            if store.append(&record).is_err() {
                panic!("append failed");
            }
        })
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// A session menu choice, from the click to its first position: the queue drawn
/// (`Study::session`), the drill made on it (the review term over the queue, the first
/// line started at the first card), and the card states kept from the session before
/// (a clone of the schedule); on a 50,000-position book (`REVIEW_SESSION_LINES` lines
/// of the random book, 2,600 by default). The exact reach of "the most common" is timed
/// apart: it is computed once, at the first such session, and kept.
fn sessions(c: &mut Criterion) {
    use hastings::review::SessionChoice;
    use hastings::trainer::Session;
    use hastings::trainer::review_drill::{ReviewDrill, ReviewSettings};

    let lines = std::env::var("REVIEW_SESSION_LINES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2_600);
    let scheduler = Scheduler::default();
    let graph = Arc::new(random_book(lines));
    let mut deck = Deck::new(&graph, Color::White);
    let records = reviews(&deck);
    // Half the cards reviewed: the others new.
    let records: Vec<ReviewRecord> = records.into_iter().step_by(2).collect();
    let schedule = Schedule::replay(&scheduler, &records);
    let started = std::time::Instant::now();
    hastings::trainer::coverage::set_exact_reach(&mut deck, &graph, &Style::neutral());
    eprintln!(
        "sessions: {} positions, {} White cards; the exact reach took {:.0} ms",
        graph.node_count(),
        deck.len(),
        started.elapsed().as_secs_f64() * 1e3
    );
    let deck = Arc::new(deck);
    let states = DeckStates::new(&deck, &schedule);
    let branch = deck.cards()[1].moves.clone();
    let session = Session::new(Arc::clone(&graph), Color::White, Style::neutral(), 1);
    let settings = ReviewSettings {
        lead_in: Some(0),
        ..ReviewSettings::default()
    };
    for choice in [
        SessionChoice::Due,
        SessionChoice::Week,
        SessionChoice::Common(20),
        SessionChoice::Difficult(20),
        SessionChoice::All,
        SessionChoice::Branch(branch),
        SessionChoice::Chapter(1),
    ] {
        let name = format!("session {choice} to its first position");
        c.bench_function(&name, |b| {
            b.iter(|| {
                let kept = schedule.clone();
                let queue: Vec<usize> = Study {
                    deck: &deck,
                    schedule: &kept,
                    states: &states,
                    scheduler: &scheduler,
                    now: now(),
                }
                .session(&choice, &graph, DEFAULT_NEW_PER_DAY)
                .into_iter()
                .map(|e| e.card)
                .collect();
                black_box(ReviewDrill::with_queue(
                    session.clone(),
                    Arc::clone(&deck),
                    scheduler.clone(),
                    kept,
                    settings,
                    queue,
                    now(),
                ))
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_group!(session_benches, sessions);
criterion_main!(benches, session_benches);
