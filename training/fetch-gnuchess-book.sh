#!/usr/bin/env bash
# Fetches the GNU Chess opening book source, gnuchess-book_1.02.orig.tar.gz (145,716
# master games, public domain), from Debian's source archive into DIR and checks its
# SHA-256 (the hash Debian's gnuchess-book_1.02-2.1.dsc gives).
#
#   training/fetch-gnuchess-book.sh DIR
#
# Needs a deb-src source for Debian (bookworm): for example /etc/apt/sources.list.d/src.sources
# with "Types: deb-src", "URIs: http://deb.debian.org/debian", "Suites: bookworm",
# "Components: main", then `apt-get update`.
set -euo pipefail
dir=${1:-.}
tarball=gnuchess-book_1.02.orig.tar.gz
sha256=d673ffa6986a3beca27cc23ef126ea0a73f1098762e3ccd00f791c096f2bfb48
mkdir -p "$dir"
cd "$dir"
if [ ! -f "$tarball" ]; then
  # The .dsc and the tarball are what is needed; the hash below decides whether it worked.
  apt-get source --download-only gnuchess-book=1.02-2.1 || true
fi
echo "$sha256  $tarball" | sha256sum -c -
