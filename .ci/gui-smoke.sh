#!/usr/bin/env sh
# CI check of the trainer window: it must open under Xvfb with Mesa's software OpenGL
# (llvmpipe, no GPU), draw, and write a non-blank screenshot that shows the board.
#
#   sh .ci/gui-smoke.sh            # uses $CARGO_TARGET_DIR (default: target), debug build
#   HASTINGS_BIN=/usr/bin/hastings sh .ci/gui-smoke.sh   # an installed binary (.ci/package.sh)
#
# Fails when the window cannot start, the PNG is missing, has the wrong size, is one
# colour, or does not show the board's light squares (#f0d9b5).
set -eu

if ! command -v xvfb-run >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq xvfb xauth >/dev/null
fi

target="${CARGO_TARGET_DIR:-target}"
out="$target/ci-gui-screenshot.png"
rm -f "$out"
if [ -n "${HASTINGS_BIN:-}" ]; then
    bin="$HASTINGS_BIN"
else
    cargo build --quiet --bin hastings
    bin="$target/debug/hastings"
fi

# Software GL: what users without a GPU get, and what every CI machine has.
LIBGL_ALWAYS_SOFTWARE=1 timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" \
    "$bin" --screenshot "$out" --moves "e4 e5 Nf3 Nc6" --size 1280x800

if [ ! -s "$out" ]; then
    echo "ci-gui: no screenshot was written to $out" >&2
    exit 1
fi

python3 - "$out" <<'PY'
"""Decode the PNG (8-bit RGB/RGBA, no libraries) and check it is a real frame."""
import struct, sys, zlib

path = sys.argv[1]
data = open(path, "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit(f"ci-gui: {path} is not a PNG")
pos, idat, width = 8, b"", None
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
if width is None or depth != 8 or color not in (2, 6) or interlace:
    sys.exit(f"ci-gui: {path}: unexpected PNG format")
if (width, height) != (1280, 800):
    sys.exit(f"ci-gui: {path} is {width}x{height}, expected 1280x800")
bpp = 4 if color == 6 else 3
stride = width * bpp
raw = zlib.decompress(idat)
rows, prev = [], bytearray(stride)
for y in range(height):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1:
            line[i] = (line[i] + a) & 255
        elif f == 2:
            line[i] = (line[i] + b) & 255
        elif f == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[i] = (line[i] + pred) & 255
    rows.append(bytes(line))
    prev = line
pixels = [row[x:x + 3] for row in rows for x in range(0, stride, bpp)]
colours = len(set(pixels))
light = sum(1 for p in pixels if p == b"\xf0\xd9\xb5") / len(pixels)
print(f"ci-gui: {path}: {width}x{height}, {colours} colours, light squares {light:.1%}")
if colours < 32:
    sys.exit("ci-gui: the screenshot is blank (fewer than 32 colours)")
if light < 0.02:
    sys.exit("ci-gui: the screenshot does not show the board")
PY

# SIGTERM (logout, shutdown) closes the window as Ctrl+Q does: the settings are saved.
data="$(mktemp -d)"
log="$data/stderr.log"
XDG_DATA_HOME="$data" HASTINGS_TIMINGS=1 LIBGL_ALWAYS_SOFTWARE=1 \
    xvfb-run -a -s "-screen 0 1280x800x24" "$target/debug/hastings" 2>"$log" &
runner=$!
for _ in $(seq 1 120); do
    grep -q "first frame painted" "$log" 2>/dev/null && break
    sleep 1
done
if ! grep -q "first frame painted" "$log"; then
    echo "ci-gui: the window did not start for the SIGTERM check" >&2
    cat "$log" >&2
    exit 1
fi
pkill -TERM -f "^$target/debug/hastings$" || pkill -TERM -x hastings
wait "$runner" || true
if [ ! -s "$data/hastings/settings.json" ]; then
    echo "ci-gui: SIGTERM did not save the settings ($data/hastings/settings.json missing)" >&2
    ls -la "$data" "$data/hastings" >&2 || true
    cat "$log" >&2
    exit 1
fi
echo "ci-gui: SIGTERM saved $(wc -c <"$data/hastings/settings.json") bytes of settings"
rm -rf "$data"
