#!/usr/bin/env bash
# Fails when README.md, ARCHITECTURE.md, CONTRIBUTING.md, docs/*.md or the user guide
# (docs/guide/src/*.md) names a path under
# src/, tests/, benches/ or docs/ that does not exist. Paths with wildcards or placeholders (`*`, `{`, `<`, `…`) are
# not checked; a trailing `:line` or punctuation is dropped.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=0
for doc in README.md ARCHITECTURE.md CONTRIBUTING.md docs/*.md docs/guide/src/*.md; do
  # Candidates: src/…, tests/…, benches/…, docs/… not preceded by a path character.
  while IFS=: read -r line path; do
    case "$path" in
      *'*'* | *'{'* | *'<'* | *'…'* ) continue ;;
    esac
    path="${path%%:*}"
    path="${path%.}"
    path="${path%,}"
    if [ ! -e "$path" ]; then
      echo "$doc:$line: $path does not exist"
      missing=1
    fi
  done < <(grep -noE '(^|[^A-Za-z0-9_./-])(src|tests|benches|docs)/[A-Za-z0-9_./*{}<>…-]*' "$doc" \
           | sed -E 's/^([0-9]+):[^a-z]?/\1:/')
done
if [ "$missing" -ne 0 ]; then
  echo "doc-paths: the docs name files that do not exist"
  exit 1
fi
echo "doc-paths: every path the docs name exists"
