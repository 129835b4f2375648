#!/usr/bin/env sh
# Measures how long a wrong move's verdict takes to be on screen, on a cache miss, with
# the built-in α-β engine and with Stockfish (where installed), in release:
#
#   sh docs/measure-verdict.sh
#
# The window is driven by egui_kittest (tests/all/ui_verdict.rs): 3.Ng5?? after 1.e4 e5
# 2.Nf3 Nc6 is clicked and frames are stepped until the verdict's label is there. While
# the learner thinks, the engine starts and analyses the three most played book moves
# (300 ms each; the time is printed first); then the wrong move's verdict needs one
# search, of the position after it; so does the next one (3.h3, after "Try again").
# Each line also gives the longest frame
# meanwhile (kittest's frame: the coach's work and the layout, no painting). The
# headless coach's numbers (tests/all/coach_verdict.rs) leave the window out.
set -eu
cargo test --release --test all -- --nocapture --test-threads=1 ng5 2>&1 \
    | grep -oE 'verdict (latency|on screen).*'
