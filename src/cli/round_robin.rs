//! `hastings match` with three engines or more: a round robin (each pair plays every
//! opening with both colours), printed as a cross table.

use std::io::Write;

use super::CliError;
use super::matches::MatchArgs;
use super::progress_bar::terminal_count_progress;
use crate::engine::Limits;
use crate::engine::matches::{self, to_pgn};
use crate::engine::spec::EngineSpec;
use crate::engine::tournament::{CrossTable, TournamentConfig, round_robin};

pub(super) fn run(
    args: &MatchArgs,
    engines: &[EngineSpec],
    out: &mut impl Write,
) -> Result<(), CliError> {
    let openings = matches::openings(args.openings, args.games.div_ceil(2) as usize, args.seed)?;
    let limits = args
        .depth
        .map_or(Limits::millis(args.movetime), Limits::plies);
    let config = TournamentConfig {
        limits,
        openings,
        max_plies: args.max_plies,
        material_at_cap: false,
        threads: args.threads,
    };
    let n = engines.len();
    writeln!(
        out,
        "round robin: {n} engines, {} games a pair ({} openings × 2 colours), move cap {} plies \
         after the opening, seed {}",
        2 * config.openings.len(),
        config.openings.len(),
        args.max_plies,
        args.seed
    )?;
    let progress = terminal_count_progress("pairs");
    progress.set_total((n * (n - 1) / 2) as u64);
    let games = round_robin(
        n,
        &config,
        |i| engines[i].start(args.seed.wrapping_add(i as u64)),
        || progress.advance(1),
    )?;
    progress.finish();
    let names: Vec<String> = engines.iter().map(|e| e.text.clone()).collect();
    if let Some(path) = &args.pgn {
        let mut text = String::new();
        for (number, g) in games.iter().enumerate() {
            let record = matches::GameRecord {
                number: number as u32 + 1,
                opening: config.openings[g.opening].0.clone(),
                opening_plies: config.openings[g.opening].1.moves().len(),
                first_is_white: true,
                game: g.game.clone(),
                end: g.end.clone(),
            };
            text.push_str(&to_pgn(&record, &names[g.white], &names[g.black]));
        }
        crate::workspace::store::write_atomic(path, text.as_bytes())
            .map_err(crate::workspace::WorkspaceError::from)?;
    }
    let table = CrossTable::new(names, &games);
    writeln!(
        out,
        "\nEach cell: the row's points with White + with Black against the column.\n"
    )?;
    write!(out, "{}", table.to_markdown())?;
    Ok(())
}
