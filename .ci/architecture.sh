#!/usr/bin/env bash
# The map: fails unless ARCHITECTURE.md names every module and folder of src/, and
# when it names a folder that no longer exists. The rule (stated at the top of
# ARCHITECTURE.md):
# - every folder src/X/…/ appears as its path relative to src/, backticked, with a
#   trailing slash: `book/pgn/`;
# - every file src/X/…/name.rs other than mod.rs and tests.rs appears as `name` on a
#   line that also holds its folder's backticked path: "- `book/pgn/` `importer`: …";
# - every top-level file src/name.rs other than lib.rs and main.rs appears as `name`
#   on a line that also holds `src/`;
# - every backticked path that ends with a slash (`book/pgn/`, `tests/all/common/`) exists
#   under src/ or under the repository's root.
set -euo pipefail
cd "$(dirname "$0")/.."

map=ARCHITECTURE.md
if [ ! -f "$map" ]; then
  echo "architecture: $map does not exist"
  exit 1
fi

status=0
# Lines of the map holding the backticked text $1.
lines_with() { grep -F -- "\`$1\`" "$map" || true; }

while IFS= read -r dir; do
  rel="${dir#src/}/"
  if [ -z "$(lines_with "$rel")" ]; then
    echo "architecture: folder src/$rel is not named in $map (as \`$rel\`)"
    status=1
  fi
done < <(find src -mindepth 1 -type d | sort)

while IFS= read -r file; do
  name=$(basename "$file" .rs)
  dir=$(dirname "$file")
  if [ "$dir" = src ]; then
    case "$name" in lib | main) continue ;; esac
    folder="src/"
  else
    case "$name" in mod | tests) continue ;; esac
    folder="${dir#src/}/"
  fi
  if ! lines_with "$folder" | grep -qF -- "\`$name\`"; then
    echo "architecture: $file is not named in $map (\`$name\` on a line with \`$folder\`)"
    status=1
  fi
done < <(find src -name '*.rs' | sort)

# Stale folders: a backticked path ending with a slash that is nowhere.
while IFS= read -r path; do
  if [ ! -d "src/$path" ] && [ ! -d "$path" ]; then
    echo "architecture: $map names \`$path\`, which is neither src/$path nor $path"
    status=1
  fi
done < <(grep -oE '`[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*/`' "$map" | tr -d '`' | sort -u)

if [ "$status" -ne 0 ]; then
  echo "architecture: $map does not name every module and folder of src/ (see its first section)"
  exit 1
fi
echo "architecture: $map names every module and folder of src/"
