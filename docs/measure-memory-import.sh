#!/bin/sh
# Measures what docs/memory-and-import.md reports: graph memory (counting allocator),
# peak RSS, and `hastings import` against pgn-reader's examples/validate.rs.
#
#   sh docs/measure-memory-import.sh HASTINGS VALIDATE GRAPH_MEMORY
#
# HASTINGS: target/release/hastings; VALIDATE: pgn-reader 0.29's examples/validate.rs
# built in a scratch project (release, the zstd branch removed); GRAPH_MEMORY:
# target/release/examples/graph_memory. Test data (not committed):
#   cargo bench -p hastings-bench --bench polyglot -- --write-pgn /tmp/games40k.pgn 40000
#   python3 -c "one=open('tests/fixtures/twic1599_100k.pgn','rb').read(); out=b''
#   while len(out) < 10<<20: out += one + b'\n\n'
#   open('/tmp/twic10m.pgn','wb').write(out)"
set -e
H=$1; V=$2; G=$3
uptime
echo "== graph memory (counting allocator), stats --pgn path"
"$G" /tmp/games40k.pgn
echo "== peak RSS"
/usr/bin/time -f "hastings import --games --threads 1: %e s wall, %U+%S s CPU, %M KB" "$H" import /tmp/games40k.pgn --games --threads 1 >/dev/null
/usr/bin/time -f "hastings import --games: %e s wall, %U+%S s CPU, %M KB" "$H" import /tmp/games40k.pgn --games >/dev/null
/usr/bin/time -f "hastings stats --pgn: %e s wall, %U+%S s CPU, %M KB" "$H" stats --pgn /tmp/games40k.pgn --json >/dev/null
echo "== CPU and wall time, 10 runs each (perf stat): validate.rs, then hastings import"
echo "   on one thread (--threads 1) and on every core (the default)"
for f in "/tmp/games40k.pgn --games" "/tmp/twic10m.pgn --repertoire"; do
    set -- $f
    perf stat -e task-clock -r 10 "$V" "$1" 2>&1 >/dev/null | grep -E "task-clock|elapsed" | sed "s|^|validate $1: |"
    perf stat -e task-clock -r 10 "$H" import "$1" "$2" --threads 1 2>&1 >/dev/null | grep -E "task-clock|elapsed" | sed "s|^|hastings import $1 $2 --threads 1: |"
    perf stat -e task-clock -r 10 "$H" import "$1" "$2" 2>&1 >/dev/null | grep -E "task-clock|elapsed" | sed "s|^|hastings import $1 $2: |"
done
if [ -f /tmp/games1m.pgn ]; then
    # cargo bench -p hastings-bench --bench polyglot -- --write-pgn /tmp/games1m.pgn 1000000 (284 MB)
    echo "== a million games, once each"
    /usr/bin/time -f "validate games1m: %e s wall, %U+%S s CPU, %M KB" "$V" /tmp/games1m.pgn >/dev/null
    for t in 1 0; do
        /usr/bin/time -f "hastings import games1m --games --threads $t: %e s wall, %U+%S s CPU, %M KB" "$H" import /tmp/games1m.pgn --games --threads $t >/dev/null
    done
fi
echo "== ECO build (hastings stats --json build_ms, 10 runs)"
for i in 1 2 3 4 5 6 7 8 9 10; do "$H" stats --json | grep build_ms; done
perf stat -e task-clock -r 10 "$H" stats --json 2>&1 >/dev/null | grep task-clock
uptime
