//! Coverage: the exposure of a 2,000-line repertoire against the ECO book to depth 20,
//! and `compare` on 10,000 games (docs/coverage.md has the numbers).

#![allow(clippy::unwrap_used, clippy::expect_used)] // benches may panic

use std::hint::black_box;

#[path = "shared/fixture_games.rs"]
mod fixture_games;

use criterion::{Criterion, criterion_group, criterion_main};
use fixture_games::fixture_games;
use hastings::book::pgn::{ImportMode, ImportOptions, read_pgn};
use hastings::book::{LineSource, NodeId, OpeningLine, PositionGraph, SourceId};
use hastings::sampler::Style;
use hastings::trainer::compare::{CompareOptions, compare, games_ply_limit};
use hastings::trainer::coverage::{CoverageOptions, exposure};
use shakmaty::{Chess, Color, Move, Position};

/// A walk of the ECO graph that makes a repertoire (see [`eco_repertoire`]).
struct Walk<'a> {
    eco: &'a PositionGraph,
    learner: Color,
    choices: usize,
    wanted: usize,
    lines: Vec<Vec<Move>>,
}

impl Walk<'_> {
    fn from(&mut self, node: NodeId, pos: &Chess, path: &mut Vec<Move>) {
        if self.lines.len() >= self.wanted {
            return;
        }
        let mut next: Vec<_> = self
            .eco
            .continuations(node)
            .iter()
            .filter(|c| pos.is_legal(c.mv))
            .collect();
        if pos.turn() == self.learner {
            next.sort_by(|a, b| b.weight.total_cmp(&a.weight));
            next.truncate(self.choices);
        }
        if next.is_empty() || path.len() >= 40 {
            self.lines.push(path.clone());
            return;
        }
        for c in next {
            let mut after = pos.clone();
            path.push(c.mv);
            after.play_unchecked(c.mv);
            self.from(c.to, &after, path);
            path.pop();
        }
    }
}

/// A repertoire for `learner` made by walking the ECO graph depth first: at the
/// learner's positions the `choices` most popular continuations, at the opponent's all of
/// them; every path to a position where the walk stops is a line, up to `wanted` lines.
fn eco_repertoire(
    eco: &PositionGraph,
    learner: Color,
    wanted: usize,
    choices: usize,
) -> Vec<OpeningLine> {
    let mut walk = Walk {
        eco,
        learner,
        choices,
        wanted,
        lines: Vec::new(),
    };
    walk.from(eco.start().unwrap(), &Chess::default(), &mut Vec::new());
    walk.lines
        .into_iter()
        .enumerate()
        .map(|(i, moves)| {
            OpeningLine::new(
                LineSource::Pgn {
                    source: SourceId(1),
                    game: u32::try_from(i + 1).unwrap(),
                },
                moves,
            )
        })
        .collect()
}

/// The fixtures' games repeated to exactly `n` games, every one played by "Bench
/// Player" as White (so every game is compared).
fn games_text(n: usize) -> Vec<u8> {
    let games: Vec<String> = fixture_games(&["twic1599_100k.pgn", "lichess_db_100k.pgn"])
        .iter()
        .map(|game| {
            game.lines()
                .map(|line| match line.starts_with("[White ") {
                    true => "[White \"Bench Player\"]\n".to_owned(),
                    false => format!("{line}\n"),
                })
                .collect()
        })
        .collect();
    let mut out = String::new();
    for game in games.iter().cycle().take(n) {
        out.push_str(game);
        out.push_str("\n\n");
    }
    out.into_bytes()
}

fn bench(c: &mut Criterion) {
    let eco = PositionGraph::eco().unwrap();
    // One move per White position if that gives 2,000 lines, else two, three.
    let (choices, lines) = (1..=3)
        .map(|k| (k, eco_repertoire(&eco, Color::White, 2000, k)))
        .find(|(_, l)| l.len() == 2000)
        .expect("the ECO walk gives 2,000 lines");
    let rep = PositionGraph::build(lines).graph;
    let style = Style::neutral();
    let options = CoverageOptions {
        depth: 20,
        ..CoverageOptions::new(Color::White)
    };
    let ex = exposure(&rep, &eco, &style, &options);
    eprintln!(
        "repertoire ({choices} White moves per position): {} lines, {} positions; exposure: {} states, {} positions, {} gaps, mass cut {:.2e}",
        rep.stats().lines,
        rep.stats().nodes,
        ex.state_count(),
        ex.positions().len(),
        ex.gaps().len(),
        ex.mass_cut()
    );
    let mut group = c.benchmark_group("coverage");
    group.sample_size(10);
    group.bench_function("exposure, 2,000-line repertoire vs ECO, depth 20", |b| {
        b.iter(|| black_box(exposure(&rep, &eco, &style, &options)))
    });
    // The heaviest repertoire the ECO book allows: all of it, every White move.
    let all = exposure(&eco, &eco, &style, &options);
    eprintln!(
        "ECO as repertoire: {} states, {} positions, mass cut {:.2e}",
        all.state_count(),
        all.positions().len(),
        all.mass_cut()
    );
    group.bench_function(
        "exposure, ECO as the repertoire (3,807 lines), depth 20",
        |b| b.iter(|| black_box(exposure(&eco, &eco, &style, &options))),
    );

    let text = games_text(10_000);
    let read = ImportOptions {
        mode: ImportMode::Games,
        max_plies: Some(games_ply_limit(&rep)),
    };
    let import = read_pgn(&text[..], SourceId(1), &read, Some(&eco)).unwrap();
    eprintln!(
        "games: {} read, {} imported, {} lines, {} issues (first: {:?})",
        import.report.games,
        import.report.imported,
        import.lines.len(),
        import.report.issue_count,
        import.report.issues.first().map(ToString::to_string)
    );
    assert_eq!(import.report.games, 10_000);
    let games = import.lines;
    let who = CompareOptions {
        player: "bench player".to_owned(),
        learner: Color::White,
    };
    let result = compare(&rep, &games, &who, ex.gaps());
    eprintln!(
        "compare: {} games compared, player left {}, opponent left {}, ended {}",
        result.summary.compared,
        result.summary.player_left,
        result.summary.opponent_left,
        result.summary.repertoire_ended
    );
    group.bench_function("compare 10,000 games (lines read)", |b| {
        b.iter(|| black_box(compare(&rep, &games, &who, ex.gaps())))
    });
    group.bench_function("compare 10,000 games from PGN text (read + compare)", |b| {
        b.iter(|| {
            let games = read_pgn(&text[..], SourceId(1), &read, Some(&eco))
                .unwrap()
                .lines;
            black_box(compare(&rep, &games, &who, ex.gaps()))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
