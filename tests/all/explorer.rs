//! The opening explorer: an index made from the PGN fixtures holds, at every position of
//! the first 12 plies and under every filter, the counts python-chess gives by the same
//! rules; a build then an add equals one build of both; segments merge without changing
//! an answer; a damaged index says what is wrong.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use common::{fixture, temp_dir};
use hastings::book::explorer::{ExplorerFilter, PositionStats};
use hastings::book::polyglot::key;
use hastings::job::JobProgress;
use hastings::workspace::explorer::{
    BuildOptions, ExplorerError, ExplorerIndex, MAX_SEGMENTS, MakeOptions, TopGame,
    add_to_explorer, make_explorer,
};
use shakmaty::{Chess, Color, Position};

fn lichess() -> Vec<PathBuf> {
    vec![fixture("twic1599_100k.pgn"), fixture("lichess_db_100k.pgn")]
}

fn make(inputs: &[PathBuf], dir: &Path, players: &[&str], build: BuildOptions) -> ExplorerIndex {
    let options = MakeOptions {
        max_plies: 12,
        players: players.iter().map(|p| p.to_string()).collect(),
        players_min: None,
        build,
    };
    make_explorer(inputs, dir, &options, &JobProgress::new()).unwrap();
    ExplorerIndex::open(dir).unwrap()
}

/// A filter as `docs/explorer_reference.py` names it: `key=value` items joined by `;`.
fn filter(index: &ExplorerIndex, spec: &str) -> ExplorerFilter {
    let mut f = ExplorerFilter::default();
    let mut player = None;
    for item in spec.split(';').filter(|s| *s != "all") {
        let (name, value) = item.split_once('=').unwrap();
        match name {
            "ratings" => f = f.with_ratings(value).unwrap(),
            "speeds" => f = f.with_speeds(value).unwrap(),
            "years" => f = f.with_years(value).unwrap(),
            "player" => player = Some(value.to_owned()),
            "color" => {
                let color = if value == "white" {
                    Color::White
                } else {
                    Color::Black
                };
                f = index
                    .player_filter(f, player.as_deref().unwrap(), color)
                    .unwrap();
            }
            other => panic!("unknown filter {other}"),
        }
    }
    f
}

/// Every position the index reaches from the start under `filter` (following its
/// moves), with its answer.
fn walk(index: &ExplorerIndex, filter: &ExplorerFilter) -> BTreeMap<u64, (Chess, PositionStats)> {
    let mut out = BTreeMap::new();
    let mut seen = HashSet::new();
    let mut stack = vec![Chess::default()];
    while let Some(pos) = stack.pop() {
        let k = key(&pos);
        if !seen.insert(k) {
            continue;
        }
        let stats = index.query(k, filter).unwrap();
        for m in &stats.moves {
            let mv = m.raw_move.to_move(&pos).unwrap();
            let mut next = pos.clone();
            next.play_unchecked(mv);
            stack.push(next);
        }
        if !stats.moves.is_empty() {
            out.insert(k, (pos, stats));
        }
    }
    out
}

/// The reference: `(set, filter)` → rows `(key, move) → [games, white, draws, black,
/// rating_sum, rated, last_year]` and the sums over every pair.
type Reference = BTreeMap<(String, String), (BTreeMap<(u64, String), Vec<u64>>, Vec<u64>)>;

/// `tests/fixtures/explorer_counts_12.tsv`: python-chess 1.11.2 counting the first 12
/// plies by the explorer's rules (`docs/explorer_reference.py`).
fn reference() -> Reference {
    let text = std::fs::read_to_string(fixture("explorer_counts_12.tsv")).unwrap();
    let mut out: Reference = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let entry = out
            .entry((cols[1].to_owned(), cols[2].to_owned()))
            .or_default();
        let numbers =
            |from: usize| -> Vec<u64> { cols[from..].iter().map(|c| c.parse().unwrap()).collect() };
        match cols[0] {
            "row" => {
                let k = u64::from_str_radix(cols[3], 16).unwrap();
                entry.0.insert((k, cols[4].to_owned()), numbers(5));
            }
            "sum" => entry.1 = numbers(3),
            other => panic!("bad line kind {other}"),
        }
    }
    out
}

fn row(stats: &PositionStats, raw: &str) -> Option<Vec<u64>> {
    let m = stats.moves.iter().find(|m| m.raw_move.to_string() == raw)?;
    Some(vec![
        m.games(),
        m.white,
        m.draws,
        m.black,
        m.rating_sum,
        m.rated_games,
        u64::from(m.last_year.unwrap_or(0)),
    ])
}

fn check_set(
    index: &ExplorerIndex,
    spec: &str,
    rows: &BTreeMap<(u64, String), Vec<u64>>,
    sums: &[u64],
) {
    let f = filter(index, spec);
    let positions = walk(index, &f);
    // Every listed row, and no move the reference does not list at a listed position.
    let listed: HashSet<u64> = rows.keys().map(|(k, _)| *k).collect();
    for ((k, mv), expected) in rows {
        let (_, stats) = positions
            .get(k)
            .unwrap_or_else(|| panic!("{spec}: position {k:016x} not reached"));
        assert_eq!(
            row(stats, mv).as_ref(),
            Some(expected),
            "{spec}: {k:016x} {mv}"
        );
    }
    for k in &listed {
        let (_, stats) = &positions[k];
        for m in &stats.moves {
            assert!(
                rows.contains_key(&(*k, m.raw_move.to_string())),
                "{spec}: {k:016x} {} is not in the reference",
                m.raw_move
            );
        }
    }
    // The sums over every (position, move), listed or not.
    let mut got = vec![0u64; 6];
    for (_, stats) in positions.values() {
        for m in &stats.moves {
            got[0] += 1;
            got[1] += m.games();
            got[2] += m.white;
            got[3] += m.draws;
            got[4] += m.black;
            got[5] += m.rating_sum;
        }
    }
    assert_eq!(
        got, sums,
        "{spec}: pairs, games, white, draws, black, rating sum"
    );
}

#[test]
fn counts_equal_python_chess_at_every_position_of_12_plies_under_every_filter() {
    let reference = reference();
    let dir = temp_dir("explorer-reference-games");
    // Small maps and chunks: spills and several chunks per file are exercised.
    let build = BuildOptions {
        threads: 2,
        map_capacity: Some(500),
        chunk_bytes: Some(16 << 10),
        ..BuildOptions::default()
    };
    let games = make(&lichess(), &dir, &[], build);
    let players_dir = temp_dir("explorer-reference-players");
    let players = make(
        &[fixture("style_training.pgn")],
        &players_dir,
        &["kasparov"],
        BuildOptions::default(),
    );
    let mut checked = 0;
    for ((set, spec), (rows, sums)) in &reference {
        let index = if set == "games" { &games } else { &players };
        check_set(index, spec, rows, sums);
        checked += 1;
    }
    assert_eq!(checked, 12, "every filter of the reference was checked");
}

#[test]
fn unfiltered_start_position_matches_the_reference_total() {
    // python-chess: 156 of the 157 games play a move from the start within 12 plies.
    let reference = reference();
    let (rows, _) = &reference[&("games".to_owned(), "all".to_owned())];
    let start = key(&Chess::default());
    let expected: u64 = rows
        .iter()
        .filter(|((k, _), _)| *k == start)
        .map(|(_, c)| c[0])
        .sum();
    let dir = temp_dir("explorer-start");
    let index = make(&lichess(), &dir, &[], BuildOptions::default());
    let stats = index
        .query_position(&Chess::default(), &ExplorerFilter::default())
        .unwrap();
    assert_eq!(stats.total().games(), expected);
    assert_eq!(index.games(), 157);
    assert!(!stats.top.is_empty());
    let top = index.top_game(&stats.top[0]).unwrap();
    assert!(top.file.ends_with(".pgn"));
    assert!(top.game.rating.is_some_and(|r| r >= 2500), "{top:?}");
}

/// Every position's answer, with top games' details, for comparing indexes.
fn snapshot(index: &ExplorerIndex, filter: &ExplorerFilter) -> Vec<String> {
    walk(index, filter)
        .into_iter()
        .map(|(k, (_, stats))| {
            let top: Vec<String> = stats
                .top
                .iter()
                .map(|t| {
                    let g = index.top_game(t).unwrap();
                    format!(
                        "{} {} {} {} {}",
                        g.raw_move, g.game.white, g.game.black, g.file, g.game.number
                    )
                })
                .collect();
            format!("{k:016x} {:?} {top:?}", stats.moves)
        })
        .collect()
}

#[test]
fn a_build_then_an_add_equals_one_build_of_both() {
    let [twic, lichess] = [fixture("twic1599_100k.pgn"), fixture("lichess_db_100k.pgn")];
    let both = temp_dir("explorer-both");
    let one = make(
        &[lichess.clone(), twic.clone()],
        &both,
        &[],
        BuildOptions::default(),
    );
    let added = temp_dir("explorer-added");
    make(
        std::slice::from_ref(&lichess),
        &added,
        &[],
        BuildOptions::default(),
    );
    add_to_explorer(
        &added,
        &[twic],
        &BuildOptions::default(),
        &JobProgress::new(),
    )
    .unwrap();
    let two = ExplorerIndex::open(&added).unwrap();
    assert_eq!(two.manifest().segments.len(), 2);
    assert_eq!(one.games(), two.games());
    for spec in ["all", "ratings=2500", "speeds=blitz,rapid"] {
        let f = filter(&one, spec);
        let a = snapshot(&one, &f);
        assert!(a.len() > 100, "{spec}: {} positions", a.len());
        assert_eq!(a, snapshot(&two, &f), "{spec}");
    }
}

#[test]
fn too_many_segments_merge_into_one_with_the_same_answers() {
    let lichess = fixture("lichess_db_100k.pgn");
    let twic = fixture("twic1599_100k.pgn");
    let mut inputs = vec![lichess.clone()];
    let added = temp_dir("explorer-merged");
    make(
        std::slice::from_ref(&lichess),
        &added,
        &[],
        BuildOptions::default(),
    );
    for i in 0..MAX_SEGMENTS {
        let file = if i % 2 == 0 { &twic } else { &lichess };
        inputs.push(file.clone());
        add_to_explorer(
            &added,
            std::slice::from_ref(file),
            &BuildOptions::default(),
            &JobProgress::new(),
        )
        .unwrap();
    }
    let merged = ExplorerIndex::open(&added).unwrap();
    assert_eq!(
        merged.manifest().segments.len(),
        1,
        "merged after the last add"
    );
    let files: Vec<_> = std::fs::read_dir(&added).unwrap().collect();
    assert_eq!(
        files.len(),
        3,
        "the manifest, one segment and the writers' lock file: {files:?}"
    );
    let both = temp_dir("explorer-merged-ref");
    let one = make(&inputs, &both, &[], BuildOptions::default());
    assert_eq!(one.games(), merged.games());
    let f = ExplorerFilter::default();
    assert_eq!(snapshot(&one, &f), snapshot(&merged, &f));
}

#[test]
fn a_damaged_index_says_what_is_wrong() {
    let dir = temp_dir("explorer-damaged");
    make(&lichess(), &dir, &[], BuildOptions::default());
    let segment = dir.join("seg-000001.seg");
    let bytes = std::fs::read(&segment).unwrap();

    // Cut short.
    std::fs::write(&segment, &bytes[..bytes.len() / 2]).unwrap();
    let err = ExplorerIndex::open(&dir).unwrap_err().to_string();
    assert!(
        err.contains("seg-000001.seg") && err.contains("damaged"),
        "{err}"
    );

    // Not a segment at all.
    std::fs::write(&segment, b"garbage").unwrap();
    let err = ExplorerIndex::open(&dir).unwrap_err().to_string();
    assert!(err.contains("not an explorer segment"), "{err}");

    // Blocks overwritten with junk, header intact: queries fail with an error, no panic.
    let mut junk = bytes.clone();
    for b in &mut junk[64..bytes.len() / 2] {
        *b = 0xff;
    }
    std::fs::write(&segment, &junk).unwrap();
    let index = ExplorerIndex::open(&dir).unwrap();
    let err = index
        .query_position(&Chess::default(), &ExplorerFilter::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("damaged"), "{err}");

    // The segment missing.
    std::fs::remove_file(&segment).unwrap();
    let err = ExplorerIndex::open(&dir).unwrap_err().to_string();
    assert!(err.contains("seg-000001.seg"), "{err}");

    // The manifest missing, or not JSON.
    let manifest = dir.join("manifest.json");
    std::fs::write(&manifest, "{ not json").unwrap();
    let err = ExplorerIndex::open(&dir).unwrap_err().to_string();
    assert!(
        err.contains("manifest") && err.contains("cannot be read"),
        "{err}"
    );
    std::fs::remove_file(&manifest).unwrap();
    let err = ExplorerIndex::open(&dir).unwrap_err();
    assert!(matches!(err, ExplorerError::NotAnIndex { .. }), "{err}");
}

#[test]
fn top_games_are_read_from_their_files() {
    // Every top game of every position of the fixture's index within 6 plies: its
    // file holds it at its number, with the table's players, and its moves from the
    // start reach the position and then play the top game's move.
    let dir = temp_dir("explorer-top-read");
    let index = make(&lichess(), &dir, &[], BuildOptions::default());
    let mut read = 0;
    for (_, (pos, stats)) in walk(&index, &ExplorerFilter::default()) {
        let ply = pos.fullmoves().get() as usize * 2 - 2 + usize::from(pos.turn() == Color::Black);
        if ply > 6 {
            continue;
        }
        for t in &stats.top {
            let top = index.top_game(t).unwrap();
            assert!(Path::new(&top.file).is_absolute(), "{}", top.file);
            let game = top.read().unwrap();
            assert_eq!(game.number, top.game.number);
            assert_eq!(game.tag("White"), Some(top.game.white.as_str()));
            let at = game.position(ply);
            assert_eq!(
                key(&at),
                key(&pos),
                "game {} after {ply} plies",
                game.number
            );
            assert_eq!(
                game.moves.get(ply).copied(),
                Some(top.raw_move.to_move(&pos).unwrap()),
                "game {}",
                game.number
            );
            read += 1;
        }
    }
    assert!(read > 50, "{read} top games read");

    // The file changed under the index: an error that says so, not another game.
    let copy = dir.with_extension("pgn");
    std::fs::copy(&lichess()[0], &copy).unwrap();
    let moved_dir = temp_dir("explorer-top-moved");
    let moved = make(
        std::slice::from_ref(&copy),
        &moved_dir,
        &[],
        BuildOptions::default(),
    );
    let stats = moved
        .query_position(&Chess::default(), &ExplorerFilter::default())
        .unwrap();
    let top = moved.top_game(&stats.top[0]).unwrap();
    std::fs::write(&copy, "[White \"Someone\"]\n[Black \"Else\"]\n\n1. e4 *\n").unwrap();
    let err = top.read().unwrap_err().to_string();
    assert!(err.contains("not the one the index counted"), "{err}");
    std::fs::remove_file(&copy).unwrap();
    let err = top.read().unwrap_err().to_string();
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn an_index_of_an_older_format_asks_to_be_made_again() {
    let dir = temp_dir("explorer-old-format");
    make(&lichess(), &dir, &[], BuildOptions::default());
    let segment = dir.join("seg-000001.seg");
    let bytes = std::fs::read(&segment).unwrap();
    for version in [1u32, 2] {
        // Formats 1 and 2 had no checksums: the header's checksum field was zero.
        let mut old = bytes.clone();
        old[8..12].copy_from_slice(&version.to_le_bytes());
        old[12..16].fill(0);
        std::fs::write(&segment, &old).unwrap();
        let err = ExplorerIndex::open(&dir).unwrap_err().to_string();
        assert!(
            err.contains(&format!(
                "explorer format {version}, made by an earlier Hastings"
            )) && err.contains("explorer make")
                && !err.contains("damaged"),
            "{err}"
        );
    }
    // Format 3 had checksums (its header's is valid) and byte-aligned records.
    let mut three = bytes.clone();
    three[8..12].copy_from_slice(&3u32.to_le_bytes());
    three[12..16].fill(0);
    let sum = crc32c::crc32c(&three[..64]);
    three[12..16].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&segment, &three).unwrap();
    let err = ExplorerIndex::open(&dir).unwrap_err().to_string();
    assert!(
        err.contains("explorer format 3, made by an earlier Hastings")
            && err.contains("explorer make")
            && !err.contains("damaged"),
        "{err}"
    );
    // A version damaged in a segment of this format is damage, not an old format.
    let mut flipped = bytes.clone();
    flipped[8] ^= 1;
    std::fs::write(&segment, &flipped).unwrap();
    let err = ExplorerIndex::open(&dir).unwrap_err().to_string();
    assert!(err.contains("seg-000001.seg is damaged"), "{err}");
}

#[test]
fn no_damaged_byte_makes_a_query_panic_or_answer_other_counts() {
    // Each of 300 bytes spread over the whole segment (records, index, game facts and
    // lines) set to a value that breaks its field: opening, querying 60 positions and
    // reading their top games either give the undamaged answer or an error naming the
    // damaged segment, never a panic nor other counts; checking the whole index finds
    // every one of them.
    let dir = temp_dir("explorer-flips");
    make(&lichess(), &dir, &[], BuildOptions::default());
    let segment = dir.join("seg-000001.seg");
    let bytes = std::fs::read(&segment).unwrap();
    let undamaged: Vec<(Chess, PositionStats, Vec<TopGame>)> = {
        let index = ExplorerIndex::open(&dir).unwrap();
        walk(&index, &ExplorerFilter::default())
            .into_values()
            .take(60)
            .map(|(pos, stats)| {
                let tops = stats
                    .top
                    .iter()
                    .map(|t| index.top_game(t).unwrap())
                    .collect();
                (pos, stats, tops)
            })
            .collect()
    };
    let named = |e: &ExplorerError| {
        let e = e.to_string();
        assert!(e.contains("seg-000001.seg") && e.contains("damaged"), "{e}");
    };
    let (mut errors, mut answers, mut variants) = (0, 0, 0);
    for i in 0..300usize {
        let at = 64 + (i * 7919) % (bytes.len() - 64);
        for value in [0xff, 0x00, 0x1f] {
            if bytes[at] == value {
                continue;
            }
            variants += 1;
            let mut damaged = bytes.clone();
            damaged[at] = value;
            std::fs::write(&segment, &damaged).unwrap();
            let index = match ExplorerIndex::open(&dir) {
                Ok(index) => index,
                Err(e) => {
                    named(&e);
                    errors += 1;
                    continue;
                }
            };
            named(&index.verify().expect_err("the damage is found"));
            for (pos, stats, tops) in &undamaged {
                match index.query_position(pos, &ExplorerFilter::default()) {
                    Ok(got) => {
                        answers += 1;
                        assert_eq!(&got, stats, "byte {at} = {value:#04x}");
                        for (t, top) in got.top.iter().zip(tops) {
                            match index.top_game(t) {
                                Ok(got) => assert_eq!(&got, top, "byte {at} = {value:#04x}"),
                                Err(e) => named(&e),
                            }
                        }
                    }
                    Err(e) => {
                        errors += 1;
                        named(&e);
                    }
                }
            }
        }
    }
    assert!(
        variants > 800 && errors > 0 && answers > 0,
        "{variants} damaged files, {errors} errors, {answers} answers"
    );
}

#[test]
fn an_index_is_not_made_twice_and_unknown_players_are_named() {
    let dir = temp_dir("explorer-twice");
    let index = make(&lichess(), &dir, &[], BuildOptions::default());
    let again = make_explorer(
        &lichess(),
        &dir,
        &MakeOptions::default(),
        &JobProgress::new(),
    );
    assert!(matches!(again, Err(ExplorerError::Exists { .. })));
    let err = index
        .player_filter(ExplorerFilter::default(), "Carlsen", Color::White)
        .unwrap_err()
        .to_string();
    assert!(err.contains("Carlsen") && err.contains("--player"), "{err}");
    let none = make_explorer(
        &[fixture("empty.pgn")],
        &temp_dir("explorer-empty"),
        &MakeOptions::default(),
        &JobProgress::new(),
    );
    assert!(matches!(none, Err(ExplorerError::NoGames { .. })));
}

#[test]
fn the_index_is_shared_between_threads() {
    fn shared<T: Send + Sync>(_: &T) {}
    let dir = temp_dir("explorer-shared");
    let index = std::sync::Arc::new(make(&lichess(), &dir, &[], BuildOptions::default()));
    shared(&*index);
    let e4 = {
        let mut pos = Chess::default();
        let mv = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to().to_string() == "e4")
            .unwrap();
        pos.play_unchecked(mv);
        pos
    };
    let handle = {
        let index = std::sync::Arc::clone(&index);
        let e4 = e4.clone();
        std::thread::spawn(move || {
            index
                .query_position(&e4, &ExplorerFilter::default())
                .unwrap()
        })
    };
    let here = index
        .query_position(&e4, &ExplorerFilter::default())
        .unwrap();
    assert_eq!(handle.join().unwrap(), here);
    assert!(here.total().games() > 50);
}
