#!/usr/bin/env sh
# `hastings book make` side by side with Debian's `polyglot make-book` on the same
# generated games: wall time, CPU time and peak memory (GNU time), and whether the books
# agree. Numbers and machine in docs/polyglot.md.
#
#   cargo build --release --bin hastings
#   cargo bench -p hastings-bench --bench polyglot -- --write-pgn /tmp/games1m.pgn 1000000   # 284 MB, not committed
#   sh docs/measure-polyglot.sh target/release/hastings /tmp/games1m.pgn
#
# Needs /usr/bin/time (Debian `time`) and /usr/games/polyglot (Debian `polyglot`).
# Both run under `nice -n 19` with 30 plies, every move kept (-min-game 1) and polyglot's
# weights, so the books can be compared entry by entry (python3 docs/polyglot_compare.py).
set -eu
bin="${1:-target/release/hastings}"
pgn="${2:-/tmp/games1m.pgn}"
out="$(mktemp -d)"

measure() {
    label="$1"
    shift
    echo "== $label (load: $(cut -d' ' -f1-3 /proc/loadavg))"
    /usr/bin/time -v nice -n 19 "$@" >"$out/stdout" 2>"$out/time"
    grep -E "Elapsed|Maximum resident|User time|System time" "$out/time"
}

measure "hastings book make" "$bin" book make "$pgn" -o "$out/hastings.bin" \
    --max-plies 30 --min-games 1 --weights polyglot
cat "$out/stdout"
measure "polyglot make-book" /usr/games/polyglot make-book -pgn "$pgn" \
    -bin "$out/polyglot.bin" -max-ply 30 -min-game 1
python3 "$(dirname "$0")/polyglot_compare.py" "$out/hastings.bin" "$out/polyglot.bin"
rm -r "$out"
