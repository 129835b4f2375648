#!/usr/bin/env bash
# Whole-process figures of `hastings check` (README, "Repertoire check"): a repertoire
# of about 1,500 positions (the ECO lines C40-C99 exported as White's repertoire),
# Stockfish at depth 12 on 2 threads, then the same check again with the cache full.
# Usage: docs/check_bench.sh [path/to/hastings]   (default: target/release/hastings)
set -euo pipefail
hastings=${1:-target/release/hastings}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$hastings" export --eco C40-C99 -o "$dir/rep.pgn" 2>/dev/null
run() {
  /usr/bin/time -f "%e s wall, %M KiB peak" "$hastings" check --pgn "$dir/rep.pgn" \
    --color white --engine stockfish --depth 12 --threads 2 --cache "$dir/cache" --json \
    2> >(tail -1 >&2) | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["positions_analysed"], "analysed,", d["cached"], "cached")'
}
echo "first check:";  run
echo "second check:"; run
