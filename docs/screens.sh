#!/bin/bash
# The README's screens of every tab, at 1280×800 and 800×600, retaken from the binary:
# docs/screens/round4/TAB-WIDTHxHEIGHT.png (`hastings --screenshot`, see CONTRIBUTING.md,
# "Screenshots"), the verdict after 3…Bg4? included. Run from the repository root after `cargo build --release` (or give the
# binary), under Xvfb:
#   xvfb-run -a -s "-screen 0 1280x800x24" bash docs/screens.sh [HASTINGS]
# Needs Stockfish for the engine check's report (`check`) and the verdict; the screens
# that need it are skipped without it. Look at every PNG it writes before committing.
set -u
B=${1:-target/release/hastings}
OUT=docs/screens/round4
FIX=tests/fixtures
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"

# A fresh data folder for every run: the screens are what a new user sees.
fresh() {
  H=$(mktemp -d -p "$TMP")
  export HOME=$H XDG_CONFIG_HOME=$H/.config XDG_DATA_HOME=$H/.local/share
}

# shot NAME SIZE ARGS…: one --screenshot run.
shot() {
  local name=$1 size=$2
  shift 2
  fresh
  if ! "$B" --screenshot "$OUT/$name-$size.png" --size "$size" "$@" 2>"$TMP/err"; then
    echo "failed: $name $size: $(tail -3 "$TMP/err")" >&2
  elif command -v convert >/dev/null; then
    # 256 colours: a third of the size, the same to the eye.
    convert "$OUT/$name-$size.png" -colors 256 "PNG8:$OUT/$name-$size.png"
  fi
}

"$B" explorer make "$FIX/lichess_db_100k.pgn" -o "$TMP/lichess.explorer" --players-min 2 \
  >/dev/null 2>&1 || echo "failed: explorer make" >&2

for size in 1280x800 800x600; do
  shot start "$size" --tab start
  shot my-repertoires "$size" --tab repertoires "$FIX/repertoire.pgn" "$FIX/mixed_sides.pgn"
  shot book "$size" --tab book "$FIX/repertoire.pgn"
  shot style "$size" --tab style --moves "e4 e5 Nf3"
  shot progress "$size" --tab progress
  shot coverage "$size" --tab coverage "$FIX/repertoire.pgn"
  shot repertoire "$size" --tab repertoire --moves "e4 e5" "$FIX/repertoire.pgn"
  shot find-opening "$size" --tab find-opening
  shot learn-new-lines "$size" --tab learn "$FIX/repertoire.pgn"
  shot review-session-menu "$size" --tab review-session "$FIX/repertoire.pgn"
  shot blindfold "$size" --tab blindfold --moves "e4 e5 Nf3 Nc6"
  shot explorer "$size" --tab explorer --moves "e4" "$TMP/lichess.explorer"
  shot explorer-game "$size" --tab explorer-game --moves "e4" "$TMP/lichess.explorer"
  shot play-on "$size" --tab play-on --moves "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"
  shot play-on-settings "$size" --tab play-on-saved --moves "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"
  if command -v stockfish >/dev/null || [ -x /usr/games/stockfish ]; then
    shot check "$size" --tab check "$FIX/check_one_planted.pgn"
    # The verdict after 3…Bg4? (1.e4 c5 2.Nf3 d6 3.d4): `--moves` plays a last move that
    # leaves the book as the learner's answer, and the shot waits for its verdict.
    shot verdict-bg4 "$size" --moves "e4 c5 Nf3 d6 d4 Bg4"
  fi
done

echo "written: $(ls "$OUT" | wc -l) files in $OUT"
