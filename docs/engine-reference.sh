#!/bin/sh
# Stockfish's verdict on the positions the engine tests assert (tests/all/engine_search.rs,
# tests/all/engine_uci.rs, tests/all/engine_client.rs). Needs Debian's `stockfish`
# (apt-get install stockfish); the tests were written against Stockfish 15.1.
#
#   sh docs/engine-reference.sh
#
# Prints, per position, Stockfish's last score and its best move at depth 14.
set -eu
SF=$(command -v stockfish || echo /usr/games/stockfish)
for fen in \
  "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4" \
  "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1" \
  "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2" \
  "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1" \
  "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1" \
  "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1" \
  "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1" \
  "r2qkb1r/pp2nppp/3p1N2/2p1N1B1/2BnP3/3P4/PPP2PPP/R2bK2R b KQkq - 2 1" \
  "rnb1kbnr/pppp1ppp/8/4p3/3q4/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 3"
do
  out=$( (printf 'uci\nposition fen %s\ngo depth 14\n' "$fen"; sleep 2; echo quit) | "$SF" 2>/dev/null)
  score=$(echo "$out" | grep ' score ' | tail -1 | sed 's/.* score \([a-z]* -*[0-9]*\).*/\1/')
  best=$(echo "$out" | grep '^bestmove' | cut -d' ' -f2)
  echo "$fen: score $score, bestmove $best"
done
