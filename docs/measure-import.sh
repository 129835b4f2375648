#!/usr/bin/env sh
# Loads a large PGN file in the trainer window under Xvfb (Mesa llvmpipe, 1280x800) and
# reports the frame times while it loads, with a piece dragged over the board meanwhile.
#
#   cargo build --release --bin hastings
#   sh docs/measure-import.sh target/release/hastings /tmp/big100k.pgn
#
# The big file is made by repeating the fixtures (not committed):
#   for i in $(seq 910); do cat tests/fixtures/twic1599_100k.pgn; echo; done > /tmp/big100k.pgn
#
# Needs xvfb-run and xdotool. HASTINGS_TIMINGS makes the app print, on exit, the CPU time
# of every frame drawn while files loaded or the book was built (eframe's frame time
# without the buffer swap), the wall time between those frames, and how many different
# percentages the progress bar showed. A fresh data directory makes every run start alike.
set -eu
bin="${1:-target/release/hastings}"
pgn="${2:-/tmp/big100k.pgn}"
log="$(mktemp)"
data="$(mktemp -d)"

export HASTINGS_TIMINGS=1 LIBGL_ALWAYS_SOFTWARE=1 XDG_DATA_HOME="$data"
export BIN="$bin" PGN="$pgn" LOG="$log"
xvfb-run -a -s "-screen 0 1280x800x24" sh -c '
    set -eu
    "$BIN" --size 1280x800 "$PGN" 2>"$LOG" &
    pid=$!
    wid=$(xdotool search --sync --name "^Hastings" | head -n 1)
    # Drag the e2 pawn around while the file loads (see docs/measure-gui.sh for the
    # board geometry at 1280x800), until the app says the book is built.
    x0=371; y0=37; sq=64
    ex=$((x0 + 4 * sq + sq / 2)); ey=$((y0 + 6 * sq + sq / 2))
    while ! grep -q "files loaded" "$LOG"; do
        xdotool mousemove --window "$wid" "$ex" "$ey" sleep 0.05 mousedown 1
        i=0
        while [ $i -lt 40 ]; do
            dx=$(awk "BEGIN { printf \"%d\", 150 * sin($i / 6) }")
            xdotool mousemove --window "$wid" $((ex + dx)) $((ey - 120)) sleep 0.01
            i=$((i + 1))
        done
        xdotool mousemove --window "$wid" "$ex" "$ey" sleep 0.05 mouseup 1
        if ! kill -0 $pid 2>/dev/null; then break; fi
    done
    sleep 1
    xdotool windowfocus --sync "$wid" key --window "$wid" ctrl+q
    wait $pid
' 2>&1
cat "$log"
echo "file: $(wc -c <"$pgn") bytes, $(grep -c "^\[Event " "$pgn") games"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$log" "$data"
