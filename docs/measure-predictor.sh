#!/bin/sh
# The move predictor's accuracy tables in docs/human.md: every game move from ply 8 (and
# 10) of the two held-out files, and the baselines on the first 10,000 of those
# positions of each file.
#
#   sh docs/measure-predictor.sh target/release/hastings OUTDIR
#
# The held-out files are pgn-reader's benchmark files, in the cargo registry once the
# project has been built: twic1599_1000k.pgn and lichess_db_1000k.pgn. Stockfish's
# baseline needs `stockfish` on the PATH (or /usr/games).
set -eu
bin=$1; out=$2
dir=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/pgn-reader-0.29.*/benches | head -1)
mkdir -p "$out"
for file in twic1599_1000k lichess_db_1000k; do
  for ply in 8 10; do
    "$bin" predict --eval "$dir/$file.pgn" --min-ply $ply --json > "$out/$file-cnn-ply$ply.json"
  done
  subset="--min-ply 8 --max-positions 10000 --json"
  "$bin" predict --eval "$dir/$file.pgn" $subset > "$out/$file-10k-cnn.json"
  "$bin" predict --eval "$dir/$file.pgn" --agent book $subset > "$out/$file-10k-book.json"
  "$bin" predict --eval "$dir/$file.pgn" --agent alphabeta --depth 4 $subset > "$out/$file-10k-alphabeta4.json"
  "$bin" predict --eval "$dir/$file.pgn" --agent stockfish --depth 1 $subset > "$out/$file-10k-stockfish1.json"
done
for f in "$out"/*.json; do printf '%s\t%s\n' "$(basename "$f" .json)" "$(cat "$f")"; done
