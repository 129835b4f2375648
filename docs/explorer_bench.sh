#!/usr/bin/env sh
# `hastings explorer`: whole-process figures for the explorer's targets (README, "Opening
# explorer": 1,000,000 games built in ≤ 60 s with ≤ 1 GB, an index no bigger than the
# PGN, 10,000 games added in ≤ 2 s, a cold query process in ≤ 100 ms), with GNU time
# (wall time, CPU time, peak memory) on generated games: build from N games on 2
# threads, index size against the PGN's, adding 10,000 games, cold open and query
# (each `query` is a whole process: open + one query + print).
#
#   cargo build --release --bin hastings
#   cargo bench --bench explorer -- --write-pgn /tmp/explorer-1m.pgn 1000000
#   cargo bench --bench explorer -- --write-pgn /tmp/explorer-10k.pgn 10000
#   sh docs/explorer_bench.sh target/release/hastings /tmp/explorer-1m.pgn /tmp/explorer-10k.pgn
#
# The query latency itself (p50 and spread, no process start) is `cargo bench --bench
# explorer`. Needs /usr/bin/time (Debian `time`).
set -eu
bin="${1:-target/release/hastings}"
pgn="${2:-/tmp/explorer-1m.pgn}"
more="${3:-/tmp/explorer-10k.pgn}"
out="$(mktemp -d)"
index="$out/games.explorer"

measure() {
    label="$1"
    shift
    echo "== $label (load: $(cut -d' ' -f1-3 /proc/loadavg))"
    /usr/bin/time -v "$@" >"$out/stdout" 2>"$out/time"
    grep -E "Elapsed|Maximum resident|User time|System time" "$out/time"
    cat "$out/stdout"
}

measure "explorer make, 2 threads, 1024 MB" "$bin" explorer make "$pgn" -o "$index" \
    --threads 2 --memory 1024
echo "PGN bytes:   $(stat -c %s "$pgn")"
echo "index bytes: $(du -sb "$index" | cut -f1)"
measure "explorer add (10,000 games)" "$bin" explorer add "$index" "$more" --threads 2
sync
measure "explorer query (start position)" "$bin" explorer query "$index" --json
measure "explorer query (after 1. e4 e5 2. Nf3, filtered)" "$bin" explorer query "$index" \
    --moves "e4 e5 Nf3" --ratings 1600-2000 --speeds blitz,rapid --years 2015-2020 --json
rm -r "$out"
