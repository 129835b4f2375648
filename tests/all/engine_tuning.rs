//! Tuning seed 003's evaluation: training positions, the GA on master moves on a small
//! problem (it improves, and a seed repeats it on any number of threads), co-evolution,
//! and `hastings train eval` (resuming, refusing the held-out files).

#![allow(clippy::unwrap_used)]

use crate::common;

use std::fs::File;
use std::io::BufReader;

use hastings::engine::tuned::Weights;
use hastings::engine::tuning::{
    CoEvolution, MoveMatching, Sample, coevolution_config, first_population, generation_rng,
    next_generation, random_population, sample_positions,
};
use hastings::genetic::{GaConfig, Population, Problem};
use shakmaty::Position;

fn positions(count: usize, seed: u64) -> Vec<Sample> {
    let file = BufReader::new(File::open(common::fixture("twic1599_100k.pgn")).unwrap());
    sample_positions([file], count, 8, seed).unwrap()
}

#[test]
fn training_positions_come_one_per_game_from_the_ply_asked_and_repeat_with_the_seed() {
    let a = positions(50, 1);
    assert_eq!(a.len(), 50);
    for (pos, mv) in &a {
        assert!(pos.is_legal(*mv));
        // Ply 8 or later: move 5 or later.
        assert!(pos.fullmoves().get() >= 5, "{pos:?}");
    }
    assert_eq!(a, positions(50, 1));
    assert_ne!(a, positions(50, 2));
    // Asking for more positions than there are games gives one per game.
    let all = positions(100_000, 1);
    assert!(all.len() > 50 && all.len() < 100_000, "{}", all.len());
}

/// A small problem: 12 organisms, 40 positions, depth 1.
const SMALL: GaConfig = GaConfig {
    population: 12,
    generations: 5,
    crossover_rate: 0.75,
    mutation_rate: 0.005,
    elitism: 0.1,
};

fn run(samples: &[Sample], threads: usize, seed: u64) -> Vec<Population> {
    let mut problem = MoveMatching::new(samples, 1, threads);
    let first = random_population(&problem, SMALL.population, seed);
    let mut generations = vec![Population::initial(first, &mut problem)];
    for _ in 0..SMALL.generations {
        let next = next_generation(generations.last().unwrap(), &SMALL, &mut problem, seed);
        generations.push(next);
    }
    generations
}

#[test]
fn the_ga_on_master_moves_improves_and_its_seed_repeats_it_on_any_threads() {
    let samples = positions(40, 7);
    let one = run(&samples, 1, 11);
    let best = |p: &Population| p.best().unwrap().score;
    // Fitness is moves matched: the random first generation's best is beaten.
    assert!(
        best(&one[SMALL.generations]) > best(&one[0]),
        "{:?}",
        one.iter().map(best).collect::<Vec<_>>()
    );
    assert!(one.last().unwrap().mean() > one[0].mean());
    // Elitism: the best never gets worse.
    assert!(one.windows(2).all(|w| best(&w[1]) >= best(&w[0])));
    // The same seed on two threads: the same populations, generation by generation.
    assert_eq!(one, run(&samples, 2, 11));
    assert_ne!(one.last(), run(&samples, 1, 12).last());
    // The best organism's score is what its weights score alone.
    let top = one.last().unwrap().best().unwrap();
    let weights = Weights::from_chromosome(&top.chromosome).unwrap();
    let alone = MoveMatching::new(&samples, 1, 1).score_weights(weights);
    assert_eq!(f64::from(alone), top.score);
}

#[test]
fn coevolution_starts_from_the_winners_and_their_crossovers_and_scores_a_round_robin() {
    let winners = [Weights::seed_ga(), Weights::seed_coevolved()];
    let first = first_population(&winners, &mut generation_rng(1, 0));
    assert_eq!(first.len(), 3);
    assert_eq!(first[0], winners[0].to_chromosome());
    assert_eq!(first[1], winners[1].to_chromosome());
    // The crossover's genes each come from one parent.
    for (i, g) in first[2].iter().enumerate() {
        assert!(*g == first[0][i] || *g == first[1][i]);
    }
    let mut problem = CoEvolution::new(1, 2).unwrap();
    assert!(problem.is_relative());
    let points = problem.score(&first);
    // +1 a win, −1 a loss: the points of a round robin add up to 0; 4 games a pair.
    assert_eq!(points.iter().sum::<f64>(), 0.0);
    assert!(points.iter().all(|p| p.abs() <= 8.0), "{points:?}");
    let config = coevolution_config(3);
    assert_eq!(
        (config.elitism, config.mutation_rate, config.generations),
        (0.2, 0.0, 4)
    );
}

#[test]
fn train_eval_writes_weights_resumes_and_refuses_held_out_files() {
    let dir = common::temp_dir("train_eval");
    let out = dir.join("eval.ron");
    let games = common::fixture("twic1599_100k.pgn");
    let args = |generations: &str| {
        vec![
            "train".to_string(),
            "eval".into(),
            "--games".into(),
            games.display().to_string(),
            "--positions".into(),
            "20".into(),
            "--population".into(),
            "6".into(),
            "--generations".into(),
            generations.into(),
            "--seed".into(),
            "4".into(),
            "-o".into(),
            out.display().to_string(),
        ]
    };
    let run = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        common::hastings(&args)
    };
    let (code, stdout, stderr) = run(args("2"));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("generation 2/2"), "{stdout}");
    let (weights, file) = hastings::workspace::eval_files::read_weights(&out).unwrap();
    assert!(file.made_by.contains("train eval"), "{}", file.made_by);
    assert_eq!(file.fitness.unwrap().1, 20);
    // Two more generations resume from the saved state…
    let (code, stdout, stderr) = run(args("4"));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("resuming") && !stdout.contains("generation 1/"),
        "{stdout}"
    );
    let resumed = std::fs::read_to_string(&out).unwrap();
    // It names the command that finished it (which gives these weights from scratch).
    assert!(resumed.contains("--generations 4"), "{resumed}");
    // …and give what an unbroken run of four gives.
    std::fs::remove_file(hastings::workspace::eval_files::state_path(&out)).unwrap();
    let (code, _, stderr) = run(args("4"));
    assert_eq!(code, 0, "{stderr}");
    let unbroken = std::fs::read_to_string(&out).unwrap();
    let body = |s: &str| {
        s.lines()
            .filter(|l| !l.contains("made_by"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&resumed), body(&unbroken));
    assert_ne!(weights, Weights::seed_ga());
    // Other settings do not resume a run.
    let mut other = args("4");
    other[7] = "7".into();
    let (code, _, stderr) = run(other);
    assert_eq!(code, 1);
    assert!(stderr.contains("--fresh"), "{stderr}");
    // The held-out benchmark files are never training data.
    let held_out = dir.join("twic1599_1000k.pgn");
    std::fs::copy(&games, &held_out).unwrap();
    let mut refused = args("1");
    refused[3] = held_out.display().to_string();
    refused.push("--fresh".into());
    let (code, _, stderr) = run(refused);
    assert_eq!(code, 1);
    assert!(stderr.contains("held-out"), "{stderr}");
}
