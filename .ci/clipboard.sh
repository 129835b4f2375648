#!/usr/bin/env sh
# CI check that copying in the window reaches the system clipboard, where another
# program can paste it (issue: eframe was once built without its `clipboard` feature,
# and "Copy PGN" said "copied" while nothing was).
#
#   sh .ci/clipboard.sh            # uses $CARGO_TARGET_DIR (default: target), debug build
#
# Under Xvfb: start the trainer with a fresh data folder, press S ("Show me": the book's
# move, then the computer replies), press Ctrl+C (copy the line as PGN), and read the X11
# CLIPBOARD with xclip, as a text editor's paste would. Fails unless it holds the line.
set -eu

need=""
command -v xvfb-run >/dev/null 2>&1 || need="$need xvfb xauth"
command -v xdotool >/dev/null 2>&1 || need="$need xdotool"
command -v xclip >/dev/null 2>&1 || need="$need xclip"
if [ -n "$need" ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $need >/dev/null
fi

target="${CARGO_TARGET_DIR:-target}"
cargo build --quiet --bin hastings
bin="$(cd "$target/debug" && pwd)/hastings"
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT

# The steps, run inside the virtual X server.
cat >"$home/steps.sh" <<'STEPS'
set -eu
"$HASTINGS" --size 1280x800 >"$HOME/hastings.log" 2>&1 &
app=$!
wid=""
for _ in $(seq 1 120); do
    wid="$(xdotool search --name '^Hastings' 2>/dev/null | head -n 1 || true)"
    [ -n "$wid" ] && break
    sleep 0.5
done
[ -n "$wid" ] || { echo "clipboard: no window" >&2; cat "$HOME/hastings.log" >&2; exit 1; }
sleep 3 # the first frames
xdotool windowfocus --sync "$wid"
xdotool mousemove --window "$wid" 640 400
# A new user is greeted by "Start here"; Escape skips it.
xdotool key Escape
sleep 1
xdotool key s
sleep 3 # the computer's reply
xdotool key ctrl+c
sleep 2
pasted="$(timeout 10 xclip -o -selection clipboard 2>/dev/null || true)"
kill "$app" 2>/dev/null || true
wait "$app" 2>/dev/null || true
printf '%s\n' "$pasted" >"$HOME/pasted.txt"
STEPS

HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" HASTINGS="$bin" \
    LIBGL_ALWAYS_SOFTWARE=1 timeout 300 \
    xvfb-run -a -s "-screen 0 1280x800x24" sh "$home/steps.sh"

pasted="$(cat "$home/pasted.txt")"
case "$pasted" in
*"1. e4 "*)
    echo "clipboard: another program pasted the line: $(printf '%s' "$pasted" | tail -n 1)"
    ;;
*)
    echo "clipboard: the clipboard does not hold the drilled line; it holds: '$pasted'" >&2
    exit 1
    ;;
esac
