#!/bin/sh
# The built-in α-β engine's speed as `hastings uci` reports it (`info nps`), on one core:
# the four positions of benches/engine.rs, 10 s each (`go movetime 10000`), the engine
# pinned to one CPU with taskset. Prints the last info line's depth, nodes and nps.
#
#   cargo build --release
#   sh docs/measure-nps.sh [target/release/hastings]
set -eu
HASTINGS=${1:-target/release/hastings}
echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)"
while read -r name fen; do
  out=$( (printf 'uci\nisready\nposition fen %s\ngo movetime 10000\n' "$fen"; sleep 11; echo quit) \
    | taskset -c 1 "$HASTINGS" uci)
  last=$(echo "$out" | grep '^info depth' | tail -1)
  depth=$(echo "$last" | sed 's/.*info depth \([0-9]*\).*/\1/')
  nodes=$(echo "$last" | sed 's/.* nodes \([0-9]*\).*/\1/')
  nps=$(echo "$last" | sed 's/.* nps \([0-9]*\).*/\1/')
  echo "$name: depth $depth, $nodes nodes, $nps nps"
done <<'EOF'
start rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
qgd rnbqkb1r/ppp2ppp/4pn2/3p2B1/2PP4/2N5/PP2PPPP/R2QKBNR b KQkq - 3 4
kiwipete r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1
endgame 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1
EOF
echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)"
