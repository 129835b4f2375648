#!/usr/bin/env sh
# Measures the trainer window under Xvfb with Mesa's software OpenGL (llvmpipe) at
# 1280x800: time to the first frame, frame times while a piece is dragged, CPU while idle.
#
#   cargo build --release --bin hastings
#   sh docs/measure-gui.sh target/release/hastings
#
# Needs xvfb-run and xdotool. The app reports its own timings on stderr when
# HASTINGS_TIMINGS is set; this script adds the CPU time the process used while idle
# (from /proc) and drives a drag with xdotool.
set -eu
bin="${1:-target/release/hastings}"
idle_seconds="${IDLE_SECONDS:-10}"
log="$(mktemp)"
data="$(mktemp -d)"   # fresh settings: every run starts the same

export HASTINGS_TIMINGS=1 LIBGL_ALWAYS_SOFTWARE=1 XDG_DATA_HOME="$data"
export BIN="$bin" LOG="$log" IDLE_SECONDS="$idle_seconds"
xvfb-run -a -s "-screen 0 1280x800x24" sh -c '
    set -eu
    "$BIN" --size 1280x800 2>"$LOG" &
    pid=$!
    wid=$(xdotool search --sync --name "^Hastings" | head -n 1)
    sleep 3
    ticks=$(getconf CLK_TCK)
    cpu() { awk "{ print \$14 + \$15 }" /proc/$pid/stat; }
    c0=$(cpu)
    sleep "$IDLE_SECONDS"
    c1=$(cpu)
    echo "idle: $((c1 - c0)) CPU ticks (1/$ticks s) in $IDLE_SECONDS s"

    # Where the board is: read the e2 square from the window geometry. At 1280x800 the
    # board spans x 371..883, y 37..549 (64 px squares; see docs/screenshot.png).
    x0=371; y0=37; sq=64
    ex=$((x0 + 4 * sq + sq / 2)); ey=$((y0 + 6 * sq + sq / 2))
    path=""
    i=0
    while [ $i -lt 400 ]; do
        # A figure of eight over the board, 400 pointer moves 4 ms apart.
        dx=$(awk "BEGIN { printf \"%d\", 200 * sin($i / 20) }")
        dy=$(awk "BEGIN { printf \"%d\", 120 * sin($i / 10) }")
        path="$path mousemove --window $wid $((ex + dx)) $((ey - 150 + dy)) sleep 0.004"
        i=$((i + 1))
    done
    xdotool mousemove --window "$wid" "$ex" "$ey" sleep 0.2 mousedown 1 sleep 0.2 $path \
        mousemove --window "$wid" "$ex" "$ey" sleep 0.1 mouseup 1
    sleep 1
    xdotool windowfocus --sync "$wid" key --window "$wid" ctrl+q
    wait $pid
' 2>&1
cat "$log"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$log" "$data"
