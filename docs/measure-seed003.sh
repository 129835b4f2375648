#!/bin/sh
# Seed 003's tables in docs/seed003.md, stage by stage (each stage reads what the ones
# before it wrote in OUT):
#
#   sh docs/measure-seed003.sh target/release/hastings OUT ga coevolve matching lambda \
#      roundrobin coevolution-check players stockfish plot
#
# - ga: five GA runs on master moves (seeds 1-5; 75 organisms, 1,000 positions of
#   book_1.02.pgn, depth 1; seed 1 the seed's 150 generations, seeds 2-5 50 generations
#   each, for the time a shared 2-core machine had): OUT/ga1.ron … ga5.ron and their
#   histories.
#   BOOK is the GNU Chess book source, book_1.02.pgn (training/fetch-gnuchess-book.sh
#   fetches and checks the tarball; unpack it). The runs resume from OUT/gaN.ron.state.
# - coevolve: the five winners and their ten crossovers, four generations of round
#   robins at depth 3: OUT/coevolved.ron.
# - ga3k: beyond the seed, one run on 3,000 positions (seed 6, 100 generations):
#   OUT/ga3k.ron (matching then scores it too).
# - matching: top-1 on the held-out files (every move from ply 8 on) of the tuned
#   evaluation at depth 1 and 2, before (the best GA winner) and after co-evolution.
# - lambda: the blend for λ = 0, 0.1, …, 1 at depth 1 (top-move and probability
#   bonus; one command scores them all with one prediction a position) and the
#   predictor alone, on the first 10,000 positions from ply 8 of each held-out file.
# - roundrobin: the λ bots at depth 1, the seed's ten openings with both colours.
# - coevolution-check: the co-evolved weights against the best GA winner, depth 3, the
#   seed's ten openings with both colours.
# - players: a round robin of the predictor alone (`human` at temperature 0), the best
#   λ bot of the roundrobin stage (BEST_LAMBDA), probability-bonus bots at λ = 0.1,
#   0.3, 0.5, 0.7 and the evaluation alone, depth 1, the ten openings with both colours.
# - stockfish: the best λ bot and the tuned evaluation at depth 4 against Stockfish at
#   Skill Level 0-5, 8, 12, 16 and 20 (LEVELS; depth 4 both), 20 games each.
# - plot: docs/seed003-ga-fitness.png from the histories (Python 3 with matplotlib).
#
# sh reads a script as it runs it: copy it elsewhere before editing it during a run.
#
# The held-out files are pgn-reader 0.29's benchmark files, in the cargo registry once
# the project has been built; they are never training data (`train eval` refuses them).
set -eu
bin=$(realpath "$1"); out=$2; shift 2
mkdir -p "$out"
out=$(realpath "$out")
book=${BOOK:-/tmp/book/gnuchess-book-1.02/book_1.02.pgn}
dir=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/pgn-reader-0.29.*/benches | head -1)
twic=$dir/twic1599_1000k.pgn
lichess=$dir/lichess_db_1000k.pgn
best_lambda=${BEST_LAMBDA:-0.2}  # the roundrobin stage's winner with the shipped predictor (0.1 with the previous one)
run() { echo "\$ $*" >&2; nice -n 19 "$@"; }

for stage in "$@"; do
  case $stage in
  ga)
    ln -sf "$book" "$out/book_1.02.pgn"
    (cd "$out" && run "$bin" train eval --games book_1.02.pgn --seed 1 -o ga1.ron --history ga1.csv)
    for s in 2 3 4 5; do
      (cd "$out" && run "$bin" train eval --games book_1.02.pgn --seed $s --generations 50 \
        -o ga$s.ron --history ga$s.csv)
    done
    ;;
  ga3k)
    ln -sf "$book" "$out/book_1.02.pgn"
    (cd "$out" && run "$bin" train eval --games book_1.02.pgn --seed 6 --positions 3000 \
      --generations 100 -o ga3k.ron --history ga3k.csv)
    ;;
  coevolve)
    (cd "$out" && run "$bin" train eval --coevolve ga1.ron ga2.ron ga3.ron ga4.ron ga5.ron \
      --seed 1 -o coevolved.ron --history coevolved.csv)
    ;;
  matching)
    best=$(grep -l . "$out"/ga?.ron | while read -r f; do
      printf '%s %s\n' "$(sed -n 's/.*fitness: Some((\([0-9]*\),.*/\1/p' "$f")" "$f"; done | sort -n | tail -1 | cut -d' ' -f2)
    cp "$best" "$out/ga-best.ron"
    for w in ga-best coevolved $(test -f "$out/ga3k.ron" && echo ga3k); do
      for d in 1 2; do
        for f in twic1599_1000k lichess_db_1000k; do
          run "$bin" predict --eval "$dir/$f.pgn" --min-ply 8 --agent eval --depth $d \
            --eval-weights "$out/$w.ron" --json > "$out/match-$w-d$d-$f.json"
        done
      done
    done
    ;;
  lambda)
    subset="--min-ply 8 --max-positions 10000 --json"
    for f in twic1599_1000k lichess_db_1000k; do
      run "$bin" predict --eval "$dir/$f.pgn" $subset --agent cnn > "$out/lambda-cnn-$f.json"
      run "$bin" predict --eval "$dir/$f.pgn" $subset --agent blend --depth 1 \
        --lambda 0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1 --bonus top,probability \
        > "$out/lambda-$f.json"
    done
    ;;
  roundrobin)
    set --
    for l in 0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1; do set -- "$@" --engine "blend,Lambda=$l,Depth=1"; done
    run "$bin" match "$@" --games 20 --depth 1 --openings seed003 --pgn "$out/roundrobin.pgn" \
      > "$out/roundrobin.md"
    ;;
  coevolution-check)
    (cd "$out" && run "$bin" match --engine eval,Depth=3 --engine eval,Depth=3,Weights=ga-best.ron \
      --games 20 --depth 3 --openings seed003 > coevolution-check.txt)
    ;;
  players)
    run "$bin" match --engine human,Temperature=0 --engine "blend,Lambda=$best_lambda,Depth=1" \
      --engine blend,Lambda=0.1,Depth=1,Bonus=probability \
      --engine blend,Lambda=0.3,Depth=1,Bonus=probability \
      --engine blend,Lambda=0.5,Depth=1,Bonus=probability \
      --engine blend,Lambda=0.7,Depth=1,Bonus=probability --engine eval,Depth=1 \
      --games 20 --depth 1 --openings seed003 > "$out/players.md"
    ;;
  stockfish)
    for level in ${LEVELS:-0 1 2 3 4 5 8 12 16 20}; do
      for e in "blend,Lambda=$best_lambda,Depth=4" "eval,Depth=4"; do
        run "$bin" match --engine "$e" --engine "stockfish,Skill Level=$level" --games 20 \
          --depth 4 --openings seed003 > "$out/stockfish-$level-$(echo "$e" | cut -d, -f1).txt"
      done
    done
    ;;
  plot)
    python3 "$(dirname "$0")/seed003_plot.py" "$out" "$(dirname "$0")/seed003-ga-fitness.png"
    ;;
  *) echo "unknown stage $stage" >&2; exit 2 ;;
  esac
done
