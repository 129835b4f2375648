#!/bin/sh
# The strength table of docs/engine.md: built-in α-β and MCTS against each other and
# against Stockfish (Debian's `stockfish`: Skill Level 0, 5, and UCI_Elo 1350) at
# 100 ms per move, from ECO openings (each played with both colours).
#
#   cargo build --release
#   GAMES=100 OUT=engine-runs sh docs/measure-engines.sh
#
# Each pairing's log (one line per game, the result line last) and PGN go to $OUT.
# The machine's load is written before and after each pairing: the engines think for
# a fixed wall-clock time, so a loaded machine weakens both sides.
set -eu
HASTINGS=${HASTINGS:-target/release/hastings}
GAMES=${GAMES:-100}
MOVETIME=${MOVETIME:-100}
OUT=${OUT:-engine-runs}
mkdir -p "$OUT"
run() {
  name=$1; shift
  {
    echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)"
    nice -n 19 "$HASTINGS" match "$@" --games "$GAMES" --movetime "$MOVETIME" --pgn "$OUT/$name.pgn"
    echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  } > "$OUT/$name.txt" 2>&1
  tail -2 "$OUT/$name.txt" | head -1
}
run alphabeta-mcts --engine builtin --engine mcts
run alphabeta-sf-skill0 --engine builtin --engine "stockfish,Skill Level=0"
run alphabeta-sf-skill5 --engine builtin --engine "stockfish,Skill Level=5"
run alphabeta-sf-elo1350 --engine builtin --engine "stockfish,UCI_LimitStrength=true,UCI_Elo=1350"
run mcts-sf-skill0 --engine mcts --engine "stockfish,Skill Level=0"
run mcts-sf-skill5 --engine mcts --engine "stockfish,Skill Level=5"
run mcts-sf-elo1350 --engine mcts --engine "stockfish,UCI_LimitStrength=true,UCI_Elo=1350"
