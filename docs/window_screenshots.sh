#!/bin/bash
# The README's screenshots that need a real window driven by keys and the mouse (the
# --screenshot mode types and scrolls nothing), made with xdotool under Xvfb:
#   docs/move-box.png      the move box in use after 1.e4 and the reply: "N" typed, the
#                          legal knight moves offered;
#   docs/style-sounds.png  the Style tab scrolled down to the board's look and the
#                          Sounds switch.
# Run from the repository root after `cargo build --release`:
#   xvfb-run -a -s "-screen 0 1280x800x24" bash docs/window_screenshots.sh [HASTINGS]
set -u
B=${1:-target/release/hastings}

# Starts the trainer on a fresh configuration, past Start here; sets PID.
start() {
  H=$(mktemp -d)
  HOME=$H XDG_CONFIG_HOME=$H/.config XDG_DATA_HOME=$H/.local/share "$B" --size 1280x800 &
  PID=$!
  sleep 6
  WID=$(xdotool search --name Hastings | head -1)
  xdotool windowactivate --sync "$WID" 2>/dev/null
  xdotool windowfocus "$WID"
  sleep 0.5
  xdotool key Escape
  sleep 0.5
}

start
xdotool key slash; sleep 0.3; xdotool type --delay 150 "e4"; xdotool key Return; sleep 2
xdotool key slash; sleep 0.3; xdotool type --delay 150 "N"; sleep 1
import -window root docs/move-box.png
kill "$PID"

start
xdotool mousemove 120 400; sleep 0.2
for _ in $(seq 1 25); do xdotool click 5; sleep 0.05; done
xdotool mousemove 640 790; sleep 1
import -window root docs/style-sounds.png
kill "$PID"
