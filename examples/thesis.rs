//! Reproduces the thesis's experiments (§5.1–§5.3) on the embedded ECO data.
//!
//! `cargo run --release -p hastings-bench --example thesis` prints Markdown tables: for each experiment,
//! the next-move distribution from the start position and from one deeper position, as
//! exact probabilities `P` and as the frequencies of 100, 1,000 and 10,000 sampled lines
//! (seeded, so the output is the same on every machine).

#![allow(clippy::unwrap_used, clippy::expect_used)] // an example may stop on a bug

use hastings::book::{LineFilter, NodeId, PositionGraph};
use hastings::sampler::{Distribution, ExploreLimits, Style, explore, move_share};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Position, san::San};

const ITERATIONS: [u32; 3] = [100, 1_000, 10_000];

/// One style's exact distribution and its sampled next-move frequencies per iteration count.
type Column = (Distribution, Vec<Vec<(NodeId, f64)>>);

struct Experiment {
    title: &'static str,
    min_moves: u32,
    styles: Vec<(&'static str, [u8; 5], [f64; 5])>,
    deeper: &'static str,
}

fn main() {
    let experiments = [
        Experiment {
            title: "5.1 Variance in iterations: params [1,0,1,0,1], weights [0.2,0.2,0.05,0.05,0.05], lines with >= 7 moves per side",
            min_moves: 7,
            styles: vec![("5.1", [1, 0, 1, 0, 1], [0.2, 0.2, 0.05, 0.05, 0.05])],
            deeper: "d4 d5",
        },
        Experiment {
            title: "5.2 Variance in weights: all params on, lines with >= 8 moves per side",
            min_moves: 8,
            styles: vec![
                ("equal 0.1", [1; 5], [0.1; 5]),
                ("c4 0.3, gambit 0.2", [1; 5], [0.2, 0.05, 0.3, 0.05, 0.05]),
                ("e4 0.6", [1; 5], [0.05, 0.05, 0.05, 0.05, 0.6]),
                ("d4 0.8, gambit 0.4", [1; 5], [0.4, 0.05, 0.05, 0.8, 0.05]),
                ("d4 0.4, gambit 0.2", [1; 5], [0.2, 0.05, 0.05, 0.4, 0.05]),
            ],
            deeper: "d4",
        },
        Experiment {
            title: "5.3 Variance in parameters: one parameter on, weights 0.4, lines with >= 5 moves per side",
            min_moves: 5,
            styles: vec![
                ("e4", [0, 0, 0, 0, 1], [0.4; 5]),
                ("d4", [0, 0, 0, 1, 0], [0.4; 5]),
                ("c4", [0, 0, 1, 0, 0], [0.4; 5]),
                ("uncommon", [0, 1, 0, 0, 0], [0.4; 5]),
                ("gambits", [1, 0, 0, 0, 0], [0.4; 5]),
            ],
            deeper: "e4",
        },
    ];
    for exp in &experiments {
        let filter = LineFilter {
            min_moves_per_side: exp.min_moves,
            ..LineFilter::default()
        };
        let graph = PositionGraph::eco_filtered(&filter).unwrap();
        let s = graph.stats();
        println!("## {}\n", exp.title);
        println!(
            "Subsample: {} lines, {} positions. Cells: exact P (sampled frequency at 100 / 1,000 / 10,000 lines); tau = 1.\n",
            s.lines, s.nodes
        );
        let styles: Vec<(&str, Style)> = exp
            .styles
            .iter()
            .map(|(name, p, w)| (*name, Style::from_vectors(*p, *w, 1.0).unwrap()))
            .collect();
        for moves in ["", exp.deeper] {
            table(&graph, moves, &styles);
        }
    }
}

/// One table: rows are moves at the position after `moves`, columns are styles.
fn table(graph: &PositionGraph, moves: &str, styles: &[(&str, Style)]) {
    let mut pos = Chess::default();
    let mut path = vec![graph.start().unwrap()];
    let mut before = None;
    for san in moves.split_whitespace() {
        let mv = San::from_ascii(san.as_bytes())
            .unwrap()
            .to_move(&pos)
            .unwrap();
        before = Some((pos.clone(), mv));
        pos.play_unchecked(mv);
        path.push(graph.lookup(&pos).unwrap());
    }
    let node = *path.last().unwrap();
    let label = if moves.is_empty() {
        "the start".to_owned()
    } else {
        format!("1.{moves}")
    };
    println!("From {label}:\n");
    // Per style: exact P per move, and sampled frequencies per iteration count.
    let mut columns: Vec<Column> = Vec::new();
    for (_, style) in styles {
        let s_prev = before
            .as_ref()
            .map_or(1.0, |(p, mv)| move_share(graph, p, *mv, style));
        let exact = Distribution::at(graph, node, &pos, style, s_prev);
        let sampled = ITERATIONS
            .iter()
            .map(|&n| {
                let mut rng = ChaCha8Rng::seed_from_u64(2021);
                let limits = ExploreLimits {
                    iterations: n,
                    ply_limit: 40,
                };
                let start = graph.start().unwrap();
                explore(
                    graph,
                    start,
                    &Chess::default(),
                    style,
                    1.0,
                    limits,
                    &mut rng,
                )
                .next_distribution(node)
            })
            .collect();
        columns.push((exact, sampled));
    }
    // Rows: the moves with the highest P under any style.
    let mut rows: Vec<(NodeId, f64)> = Vec::new();
    for (d, _) in &columns {
        // ECO candidates always lead to a node of the graph.
        for c in &d.candidates {
            let Some(to) = c.to else { continue };
            match rows.iter_mut().find(|(n, _)| *n == to) {
                Some(r) => r.1 = r.1.max(c.p),
                None => rows.push((to, c.p)),
            }
        }
    }
    rows.sort_by(|a, b| b.1.total_cmp(&a.1));
    rows.truncate(8);
    print!("| move |");
    for (name, _) in styles {
        print!(" {name} |");
    }
    println!();
    print!("|---|");
    for _ in styles {
        print!("---|");
    }
    println!();
    for (to, _) in &rows {
        let c = columns[0]
            .0
            .candidate_to(*to)
            .or_else(|| columns.iter().find_map(|(d, _)| d.candidate_to(*to)))
            .unwrap();
        print!("| {} |", graph.san(node, c.mv));
        for (d, sampled) in &columns {
            let p = d.candidate_to(*to).map_or(0.0, |c| c.p);
            let f: Vec<String> = sampled
                .iter()
                .map(|s| {
                    format!(
                        "{:.3}",
                        s.iter().find(|(n, _)| n == to).map_or(0.0, |(_, f)| *f)
                    )
                })
                .collect();
            print!(" {p:.3} ({}) |", f.join(" / "));
        }
        println!();
    }
    println!();
}
