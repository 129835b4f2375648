#!/usr/bin/env bash
# Renders the icon's PNGs (icons/hicolor/SIZExSIZE/apps/hastings.png) from icons/hastings.svg
# with rsvg-convert (Debian: librsvg2-bin). The PNGs are committed; run this after editing
# the SVG.
set -euo pipefail
cd "$(dirname "$0")/icons"
for size in 16 24 32 48 64 128 256 512; do
  mkdir -p "hicolor/${size}x${size}/apps"
  rsvg-convert -w "$size" -h "$size" hastings.svg -o "hicolor/${size}x${size}/apps/hastings.png"
done
