#!/bin/bash
# The README's docs/move-box.png: the move box in use after 1.e4 and the reply, "N" typed and the
# legal knight moves offered. A real window driven with xdotool (the --screenshot mode
# types nothing). Run from the repository root after `cargo build --release`:
#   xvfb-run -a -s "-screen 0 1280x800x24" bash docs/move_box_screenshot.sh [HASTINGS] [OUT.png]
set -u
B=${1:-target/release/hastings}
OUT=${2:-docs/move-box.png}
H=$(mktemp -d)
export HOME=$H XDG_CONFIG_HOME=$H/.config XDG_DATA_HOME=$H/.local/share
$B --size 1280x800 &
PID=$!
sleep 6
WID=$(xdotool search --name Hastings | head -1)
xdotool windowactivate --sync $WID 2>/dev/null; xdotool windowfocus $WID
sleep 0.5
xdotool key Escape; sleep 0.5
xdotool mousemove 640 400 click 1; sleep 0.3
xdotool key slash; sleep 0.3; xdotool type --delay 150 "e4"; xdotool key Return; sleep 2
xdotool key slash; sleep 0.3
xdotool type --delay 150 "N"; sleep 1
import -window root "$OUT"
kill $PID
