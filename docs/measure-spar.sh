#!/bin/sh
# The sparring table of docs/explorer.md ("Sparring at a rating"): the real games of
# tests/fixtures (lichess and TWIC) split by game, two in three into an explorer index
# the temperature is fitted on, one in three held out into another index it is measured
# on; then `hastings explorer fit-band` for each band with games in both.
#
#   sh docs/measure-spar.sh [HASTINGS] [OUT]
#
# HASTINGS defaults to target/debug/hastings; OUT (a new folder) to a temporary one.
set -eu
bin=${1:-target/debug/hastings}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
here=$(dirname "$0")/..
for f in lichess_db_100k twic1599_100k; do
    awk -v fit="$out/fit-$f.pgn" -v held="$out/held-$f.pgn" \
        '/^\[Event /{n++} {print > ((n % 3 == 0) ? held : fit)}' \
        "$here/tests/fixtures/$f.pgn"
done
"$bin" explorer make "$out"/fit-*.pgn -o "$out/fit.explorer" >/dev/null
"$bin" explorer make "$out"/held-*.pgn -o "$out/held.explorer" >/dev/null
echo "| band | games fitted on | held-out games | held-out moves | top-1 | log-lik. fitted | log-lik. T 1 | fitted T |"
echo "|---|---|---|---|---|---|---|---|"
for band in 0 1000 1200 1400 1600 1800 2000 2200 2500; do
    fit_games=$("$bin" explorer query "$out/fit.explorer" --ratings "$band" --json |
        sed -n 's/.*"games": *\([0-9]*\).*/\1/p' | head -n 1)
    held_games=$("$bin" explorer query "$out/held.explorer" --ratings "$band" --json |
        sed -n 's/.*"games": *\([0-9]*\).*/\1/p' | head -n 1)
    json=$("$bin" explorer fit-band "$out/fit.explorer" --band "$band" \
        --held-out "$out/held.explorer" --json 2>/dev/null) || continue
    field() { echo "$json" | sed -n "s/.*\"$1\": *\([-0-9.e]*\).*/\1/p" | head -n 1; }
    printf '| %s | %s | %s | %s | %.1f %% | %.3f | %.3f | %.2f |\n' \
        "$(echo "$json" | sed -n 's/.*"whose": *"\(.*\) players".*/\1/p')" \
        "${fit_games:-?}" "${held_games:-?}" "$(field held_out_moves)" \
        "$(echo "$(field top_choice) * 100" | bc -l)" \
        "$(field log_likelihood)" "$(field default_log_likelihood)" "$(field temperature)"
done
