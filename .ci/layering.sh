#!/usr/bin/env bash
# Layering: imports only go down. Each top-level module of src/ has a rank; code in a
# module may name `crate::X` only for a module X of a lower rank (modules of one rank
# never name each other). Comments (doc links) are not imports and are skipped.
#   clock, job, genetic < book < engine, sampler, review < trainer < workspace < coach < cli, ui
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A rank=(
  [clock]=0 [job]=0 [genetic]=0 [book]=1 [engine]=2 [sampler]=2 [review]=2 [trainer]=3
  [workspace]=4 [coach]=5 [cli]=6 [ui]=6
)

# Every top-level module must have a rank.
status=0
for path in src/*; do
  name=$(basename "$path" .rs)
  case "$name" in main | lib) continue ;; esac
  if [ -z "${rank[$name]+x}" ]; then
    echo "layering: src/$name has no rank in .ci/layering.sh"
    status=1
  fi
done

for module in "${!rank[@]}"; do
  files=()
  [ -d "src/$module" ] && while IFS= read -r f; do files+=("$f"); done < <(find "src/$module" -name '*.rs')
  [ -f "src/$module.rs" ] && files+=("src/$module.rs")
  [ ${#files[@]} -eq 0 ] && continue
  mine=${rank[$module]}
  # `crate::x` outside comments, one per line: file:line:x
  while IFS=: read -r file line target; do
    [ "$target" = "$module" ] && continue
    theirs=${rank[$target]:-}
    [ -z "$theirs" ] && continue
    if [ "$theirs" -ge "$mine" ]; then
      echo "layering: $file:$line: $module (rank $mine) names crate::$target (rank $theirs)"
      status=1
    fi
  done < <(grep -nE 'crate::[a-z_]+' "${files[@]}" /dev/null \
    | grep -vE '^[^:]+:[0-9]+:\s*//' \
    | sed -E 's/\/\/.*$//' \
    | grep -oE '^[^:]+:[0-9]+:|crate::[a-z_]+' \
    | awk '/^src/ {loc=$0; next} {sub("crate::", ""); print loc $0}')
done

# Only the window and the binary name egui and the audio crates (the core only says
# which sound).
core=$(ls -d src/*/ src/*.rs | grep -vE '^src/(ui/|main\.rs|lib\.rs)$')
if grep -rnE '\b(egui|eframe|egui_plot|egui_extras|egui_kittest)::' $core | grep -vE ':\s*//'; then
  echo "layering: egui used outside src/ui"
  status=1
fi
if grep -rnE '\b(rodio|cpal)::' $core | grep -vE ':\s*//'; then
  echo "layering: an audio crate used outside src/ui"
  status=1
fi
# The window reaches files through the workspace, and no panel names the app.
if grep -rnE 'book::(pgn|export|sources)\b' src/ui; then
  echo "layering: the window uses book's file formats directly instead of the workspace"
  status=1
fi
# The app is src/ui/app/ (the shell and how it starts) and src/ui/mod.rs.
if grep -rlw 'TrainerApp' src/ui | grep -vE '^src/ui/(app/[a-z_]+|mod)\.rs$'; then
  echo "layering: a panel names TrainerApp (panels take the coach and push commands)"
  status=1
fi
# Feature folders of the coach (src/coach/<feature>/) own their state: a feature names
# only itself and the coach's shared modules (the context, the notices, the settings,
# the buttons' actions, formatting), never another feature, the commands (which name
# every feature) nor the coach itself (`crate::coach::Coach`, `super::` from a feature's mod.rs); what crosses
# features is an event sent through the context.
shared='action|context|notice|settings|board_look|format|moves|sounds'
for dir in src/coach/*/; do
  dir=${dir%/}
  feature=$(basename "$dir")
  # Each `crate::coach::x` outside comments (file:line:path), then `super::` where it
  # leaves the feature.
  while IFS=: read -r file line path; do
    name=${path#crate::coach::}
    if ! [[ "$name" =~ ^($shared|$feature)$ ]]; then
      echo "layering: $file:$line: the coach's feature $feature names $path"
      status=1
    fi
  done < <(grep -rnE 'crate::coach::[A-Za-z_]+' "$dir" \
    | grep -vE '^[^:]+:[0-9]+:\s*//' \
    | sed -E 's/\/\/.*$//' \
    | grep -oE '^[^:]+:[0-9]+:|crate::coach::[A-Za-z_]+' \
    | awk '/^src/ {loc=$0; next} {print loc $0}')
  if grep -nE '(^|[^a-z_])super::[A-Za-z_]' "$dir/mod.rs" | grep -vE '^[0-9]+:\s*//'; then
    echo "layering: $dir/mod.rs names the coach with super:: (name the shared module)"
    status=1
  fi
  if grep -rnE 'super::super' "$dir" | grep -vE '^[^:]+:[0-9]+:\s*//'; then
    echo "layering: $dir leaves its folder with super::super (name the shared module)"
    status=1
  fi
done
# No import cycle of files inside src/coach/ or src/ui/: each file names other files of
# its layer (`crate::coach::x::y`, `super::x`, `self::x` in a mod.rs); the edges must
# sort (tsort finds no loop). A name resolves to the file that holds it: `x/y.rs`, else
# `x/mod.rs`, else `x.rs`, else the folder's mod.rs (an item defined there).
layer_file() { # $1: folder (src/coach or src/coach/x), $2: name, $3: next name
  local d=$1 a=$2 b=$3
  if [ -n "$b" ] && [ -f "$d/$a/$b.rs" ]; then echo "$d/$a/$b.rs"
  elif [ -f "$d/$a/mod.rs" ]; then echo "$d/$a/mod.rs"
  elif [ -f "$d/$a.rs" ]; then echo "$d/$a.rs"
  else echo "$d/mod.rs"; fi
}
for layer in coach ui; do
  edges=$(for f in $(find src/$layer -name '*.rs' | sort); do
    dir=$(dirname "$f")
    sed -E 's|//.*$||' "$f" | grep -oE "(crate::$layer|super|self)(::[a-z_]+){1,2}" | sort -u |
    while IFS= read -r path; do
      IFS=: read -r head _ a _ b <<<"$path"
      case "$head" in
        crate) IFS=: read -r _ _ _ _ a _ b <<<"$path"; base=src/$layer ;;
        super) [ "$(basename "$f")" = mod.rs ] && base=$(dirname "$dir") || base=$dir ;;
        self) [ "$(basename "$f")" = mod.rs ] || continue; base=$dir ;;
      esac
      [ "$base" = src ] && continue
      target=$(layer_file "$base" "$a" "$b")
      [ "$target" != "$f" ] && echo "$f $target"
    done
  done)
  if ! echo "$edges" | tsort >/dev/null 2>/tmp/layer-tsort.$$; then
    echo "layering: an import cycle among the files of src/$layer/:"
    grep -v 'input contains a loop' /tmp/layer-tsort.$$ | sed 's/^tsort: /  /'
    status=1
  fi
  rm -f /tmp/layer-tsort.$$
done
exit $status
