#!/usr/bin/env sh
# `hastings explorer`: whole-process figures for the explorer's targets (issue 43: the
# build at most 1.5 × Scid's PGN import wall time, peak memory ≤ 256 MB at any number of
# games with the default `--memory-mb`, an index ≤ 0.6 × the PGN; README, "Opening
# explorer": 10,000 games added in ≤ 2 s, a cold query process in ≤ 100 ms), with GNU
# time (wall time, CPU time, peak memory) on generated games: Scid 4.7's import of the
# same PGN into a new database (Debian's `scid`, `tkscid` under `xvfb-run`, when it is
# installed: `apt-get install scid xvfb`), then the build from N games on 2 threads with
# the default memory bound, the index size against the PGN's and Scid's database, adding
# 10,000 games, cold open and query (each `query` is a whole process: open + one query +
# print).
#
#   cargo build --release --bin hastings
#   cargo bench -p hastings-bench --bench explorer -- --write-pgn /tmp/explorer-200k.pgn 200000
#   cargo bench -p hastings-bench --bench explorer -- --write-pgn /tmp/explorer-10k.pgn 10000
#   sh docs/explorer_bench.sh target/release/hastings /tmp/explorer-200k.pgn /tmp/explorer-10k.pgn
#
# The query latency itself (p50, p99, no process start) is `cargo bench -p hastings-bench --bench
# explorer`. Needs /usr/bin/time (Debian `time`).
set -eu
bin="${1:-target/release/hastings}"
pgn="${2:-/tmp/explorer-200k.pgn}"
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

echo "PGN bytes:   $(stat -c %s "$pgn")"
if [ -x /usr/games/tkscid ] && command -v xvfb-run >/dev/null; then
    cat >"$out/scid_make.tcl" <<'EOF'
# tkscid scid_make.tcl BASE GAMES.pgn: a new Scid database BASE from GAMES.pgn.
set db [sc_base create [lindex $argv 0]]
set result [sc_base import $db [lindex $argv 1]]
puts "Imported [lindex $result 0] games"
sc_base close $db
exit 0
EOF
    # xvfb-run's own processes are outside the figures: time measures tkscid alone.
    measure "Scid 4.7 import (tkscid, sc_base import)" xvfb-run -a /usr/bin/time -v -o "$out/scid-time" \
        /usr/games/tkscid "$out/scid_make.tcl" "$out/scid" "$pgn"
    echo "-- tkscid alone:"
    grep -E "Elapsed|Maximum resident|User time|System time" "$out/scid-time"
    echo "Scid database bytes: $(cat "$out"/scid.s* | wc -c)"
fi
measure "explorer make, 2 threads, default memory bound" "$bin" explorer make "$pgn" -o "$index" \
    --threads 2
echo "index bytes: $(du -sb "$index" | cut -f1)"
measure "explorer add (10,000 games)" "$bin" explorer add "$index" "$more" --threads 2
sync
measure "explorer query (start position)" "$bin" explorer query "$index" --json
measure "explorer query (after 1. e4 e5 2. Nf3, filtered)" "$bin" explorer query "$index" \
    --moves "e4 e5 Nf3" --ratings 1600-2000 --speeds blitz,rapid --years 2015-2020 --json
rm -r "$out"
