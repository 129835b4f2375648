#!/usr/bin/env bash
# The reliability battery (issue "Nothing a user owns is lost"): real processes of the
# `hastings` binary against bad input, concurrent writers and damaged files. One line per
# case, `ok` or `FAIL` with the reason; every command runs under a timeout (a hang fails),
# and any `panicked` on stderr or exit code 101 fails. The last line counts the cases.
#
#   bash docs/reliability.sh [path/to/hastings]     (default: the debug build of CI)
#
# .ci/run runs it after the tests. The cases, what each checks and the figures of the
# last run are in docs/reliability.md.
set -uo pipefail
cd "$(dirname "$0")/.."

B="${1:-${CARGO_TARGET_DIR:-target}/debug/hastings}"
B="$(cd "$(dirname "$B")" && pwd)/$(basename "$B")"
[ -x "$B" ] || { echo "reliability: no binary at $B (build it first)" >&2; exit 2; }
FIX="$PWD/tests/fixtures"
W="$(mktemp -d "${TMPDIR:-/tmp}/hastings-reliability.XXXXXX")"
trap 'rm -rf "$W"' EXIT
# A data folder of its own: nothing of the user's is read or written.
export XDG_DATA_HOME="$W/data"
cd "$W"

cases=0
failed=0
ok() { cases=$((cases + 1)); printf 'ok    %2d %s\n' "$cases" "$1"; }
fail() {
  cases=$((cases + 1))
  failed=$((failed + 1))
  printf 'FAIL  %2d %s: %s\n' "$cases" "$1" "$2"
}
# run SECONDS CMD...: runs with a timeout; sets $rc, $out, $err. A hang (124), a panic
# (101 or "panicked" on stderr) is reported by `clean`.
run() {
  local limit=$1
  shift
  timeout "$limit" "$@" >"$W/out" 2>"$W/err"
  rc=$?
}
clean() {
  if [ "$rc" = 124 ]; then echo "hung (timeout)"; return 1; fi
  if [ "$rc" = 101 ] || grep -q panicked "$W/err"; then echo "panicked: $(head -c 300 "$W/err")"; return 1; fi
  return 0
}
# check NAME COND-DESCRIPTION: after `run`, passes when clean and the test command succeeds.
check() {
  local name=$1 why
  shift
  if ! why=$(clean); then fail "$name" "$why"; return; fi
  if "$@"; then ok "$name"; else fail "$name" "rc=$rc; $(head -c 300 "$W/err")"; fi
}
refused() { [ "$rc" != 0 ]; }
says() { grep -qi -- "$1" "$W/err" "$W/out"; }

# ---------------------------------------------------------------- bad input, no panic
head -c 200000 /dev/urandom >random.pgn
head -c 100000 /dev/zero >nul.pgn
printf '[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n' | iconv -f UTF-8 -t UTF-16 >utf16.pgn
head -c 3000 "$FIX/twic1599_100k.pgn" >cut.pgn
# A 20 MB line (one token repeated), and a game of 20,000 legal moves.
awk 'BEGIN { printf "1. "; for (i = 0; i < 7000000; i++) printf "e4 "; print "*" }' >longline.pgn
awk 'BEGIN { for (i = 0; i < 5000; i++) printf "%d. Nf3 Nf6 %d. Ng1 Ng8 ", 2 * i + 1, 2 * i + 2; print "1/2-1/2" }' >longgame.pgn
for f in random nul utf16 cut longline longgame; do
  run 60 "$B" import "$f.pgn"
  check "import of a $f file ends with a report or a clear error" true
  run 60 "$B" book make "$f.pgn" -o "$f.bin"
  check "book make of a $f file ends with a report or a clear error" true
  run 60 "$B" explorer make "$f.pgn" -o "$f.explorer"
  check "explorer make of a $f file ends with a report or a clear error" true
done
for f in "$FIX"/garbage.pgn "$FIX"/illegal.pgn "$FIX"/truncated.pgn "$FIX"/chess960.pgn "$FIX"/empty.pgn; do
  run 60 "$B" import "$f"
  check "import of $(basename "$f") (a fixture of bad games)" true
done

# ---------------------------------------------------------------- repertoire files
new_rep() { "$B" repertoire new --color white -o "$1" >/dev/null 2>&1; }
# Adds each reply after MOVE in turn, retrying while the file is locked or changed.
adder() {
  local file=$1 first=$2 reply tries
  for reply in a6 a5 b6 b5 c6 c5 d6 d5 e6 e5 f6 f5 g6 g5 h6 h5 Na6 Nc6 Nf6 Nh6; do
    tries=0
    until "$B" repertoire add "$file" --at "1. $first $reply" >/dev/null 2>"$W/adder-$first.err"; do
      tries=$((tries + 1))
      [ "$tries" -ge 50 ] && { echo "gave up on $first $reply: $(cat "$W/adder-$first.err")"; return 1; }
      sleep 0.05
    done
  done
}
new_rep two.pgn
"$B" repertoire add two.pgn --at "1. e4" >/dev/null 2>&1
"$B" repertoire add two.pgn --at "1. d4" >/dev/null 2>&1
adder two.pgn e4 >a.log &
pa=$!
adder two.pgn d4 >b.log &
pb=$!
wait $pa; ra=$?
wait $pb; rb=$?
run 60 "$B" stats --no-eco --pgn two.pgn --json
lines=$(grep -oE '"lines": *[0-9]+' "$W/out" | grep -oE '[0-9]+$' | head -1)
if [ "$ra" = 0 ] && [ "$rb" = 0 ] && [ "${lines:-0}" = 40 ]; then
  ok "two processes adding 20 moves each to one repertoire: all 40 lines kept"
else
  fail "two processes adding 20 moves each to one repertoire" "lines=${lines:-?} ($(cat a.log b.log))"
fi

new_rep real.pgn
ln -s real.pgn link.pgn
run 30 "$B" repertoire add link.pgn --at "1. e4"
check "a symlinked repertoire stays a link and its target gets the edit" \
  bash -c '[ -L link.pgn ] && grep -q "e4" real.pgn'

new_rep private.pgn
chmod 600 private.pgn
run 30 "$B" repertoire add private.pgn --at "1. e4"
check "a 0600 repertoire keeps its mode" bash -c '[ "$(stat -c %a private.pgn)" = 600 ]'

new_rep readonly.pgn
chmod 444 readonly.pgn
cp readonly.pgn readonly.before
run 30 "$B" repertoire add readonly.pgn --at "1. e4"
check "a 0444 repertoire is refused, unchanged and still 0444" \
  bash -c '[ '"$rc"' != 0 ] && cmp -s readonly.pgn readonly.before && [ "$(stat -c %a readonly.pgn)" = 444 ]'

new_rep chapters.pgn
run 30 "$B" repertoire delete chapters.pgn --at "1. e4" --chapter 99
check "a missing chapter is an error that names the file" bash -c '[ '"$rc"' != 0 ] && grep -q chapters.pgn "'"$W"'/err"'

# ---------------------------------------------------------------- outputs and inputs
cp "$FIX/twic1599_100k.pgn" g.pgn
cp g.pgn g.before
run 60 "$B" book make g.pgn -o g.pgn
check "book make -o its own input is refused and the input unchanged" \
  bash -c '[ '"$rc"' != 0 ] && cmp -s g.pgn g.before'
ln -s g.pgn g-link.pgn
run 60 "$B" book make g.pgn -o g-link.pgn
check "book make -o a link to its input is refused" bash -c '[ '"$rc"' != 0 ] && cmp -s g.pgn g.before'

mkdir mine
echo "my notes" >mine/seg-000001
echo "draft" >mine/notes.tmp
run 60 "$B" explorer make g.pgn -o mine
check "explorer make into a folder of the user's files is refused and deletes nothing" \
  bash -c '[ '"$rc"' != 0 ] && [ -f mine/seg-000001 ] && [ -f mine/notes.tmp ]'
run 60 "$B" explorer make missing.pgn -o nothing.explorer
check "explorer make of a missing file leaves no index folder" bash -c '[ '"$rc"' != 0 ] && [ ! -e nothing.explorer ]'

# ---------------------------------------------------------------- explorer indexes
total() { "$B" explorer query "$1" --json 2>/dev/null | grep -oE '"games": *[0-9]+' | head -1 | grep -oE '[0-9]+$'; }
"$B" explorer make "$FIX/twic1599_100k.pgn" -o base.explorer >/dev/null 2>&1
cp -r base.explorer two.explorer
base=$(total base.explorer)
run 60 "$B" explorer make "$FIX/lichess_db_100k.pgn" -o lichess.explorer
lichess=$(total lichess.explorer)
run 60 "$B" explorer make "$FIX/compare_games.pgn" -o compare.explorer
compare=$(total compare.explorer)
"$B" explorer add two.explorer "$FIX/lichess_db_100k.pgn" >add1.log 2>&1 &
p1=$!
"$B" explorer add two.explorer "$FIX/compare_games.pgn" >add2.log 2>&1 &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
after=$(total two.explorer)
expected=$base
[ "$r1" = 0 ] && expected=$((expected + lichess))
[ "$r2" = 0 ] && expected=$((expected + compare))
if [ -n "$after" ] && [ "$after" = "$expected" ]; then
  ok "two explorer adds at once: every game counted once (exits $r1 and $r2, $after games)"
else
  fail "two explorer adds at once" "games $after, expected $expected (exits $r1, $r2)"
fi

# Flip one byte at a time in a segment: the start position's count stays exact or the
# query fails naming the damage; it never answers another count.
seg=$(ls base.explorer/seg-* | head -1)
size=$(stat -c %s "$seg")
wrong=0
for i in $(seq 1 40); do
  cp -r base.explorer flip.explorer
  s=$(ls flip.explorer/seg-* | head -1)
  at=$(( (i * 7919 * 131) % size ))
  byte=$(od -An -tu1 -j "$at" -N1 "$s" | tr -d ' ')
  printf "$(printf '\\%03o' $(( (byte + 1) % 256 )))" | dd of="$s" bs=1 seek="$at" conv=notrunc status=none
  run 30 "$B" explorer query flip.explorer --json
  if ! clean >/dev/null; then wrong=$((wrong + 1));
  elif [ "$rc" = 0 ] && [ "$(grep -oE '"games": *[0-9]+' "$W/out" | head -1 | grep -oE '[0-9]+$')" != "$base" ]; then wrong=$((wrong + 1)); fi
  rm -rf flip.explorer
done
if [ "$wrong" = 0 ]; then ok "40 one-byte damages of a segment: each detected or harmless"; else fail "one-byte damages of a segment" "$wrong of 40 answered another count"; fi

cp -r base.explorer damaged.explorer
s=$(ls damaged.explorer/seg-* | head -1)
printf '\377\377\377\377' | dd of="$s" bs=1 seek=$((size / 2)) conv=notrunc status=none
cp damaged.explorer/manifest* manifest.before 2>/dev/null || true
run 60 "$B" explorer add damaged.explorer "$FIX/compare_games.pgn"
# An add that fails has not committed; one that commits exits 0, and the index then
# answers the exact count or an error naming the damage (a query reads only the blocks
# it needs, so damage elsewhere does not stop it).
if ! why=$(clean); then
  fail "explorer add over a damaged segment" "$why"
elif [ "$rc" != 0 ]; then
  if cmp -s damaged.explorer/manifest* manifest.before; then
    ok "explorer add over a damaged segment is refused before it commits"
  else
    fail "explorer add over a damaged segment" "exit $rc after the manifest changed"
  fi
else
  run 30 "$B" explorer query damaged.explorer --json
  got=$(grep -oE '"games": *[0-9]+' "$W/out" | head -1 | grep -oE '[0-9]+$')
  if { [ "$rc" = 0 ] && [ "$got" = $((base + compare)) ]; } || { [ "$rc" != 0 ] && grep -qiE "seg-|damaged|checksum" "$W/err"; }; then
    ok "explorer add over a damaged segment commits once; the index answers exactly or names the damage"
  else
    fail "explorer add over a damaged segment" "rc=$rc, $got games (expected $((base + compare)))"
  fi
fi

# ---------------------------------------------------------------- engines
run 30 "$B" check --pgn "$FIX/repertoire.pgn" --no-eco --engine builtin --depth 0
check "check --depth 0 is refused at once" refused
run 30 "$B" check --pgn "$FIX/repertoire.pgn" --no-eco --min-mass nan
check "check --min-mass nan is refused" refused
run 30 "$B" check --pgn "$FIX/repertoire.pgn" --no-eco --min-mass 2
check "check --min-mass 2 is refused" refused
run 30 "$B" explorer make g.pgn -o zero.explorer --max-plies 0
check "explorer make --max-plies 0 is refused" refused
: >empty.pgn
run 30 "$B" predict --eval empty.pgn
check "predict --eval of an empty file is an error" refused
run 30 "$B" predict --eval missing.pgn
check "predict --eval of a missing file says it cannot read it" bash -c '[ '"$rc"' != 0 ] && grep -qi "cannot read" "'"$W"'/err"'

uci() { (printf "$1"; sleep "${2:-3}"; printf 'quit\n') | timeout 30 "$B" uci "${@:3}" >"$W/out" 2>"$W/err"; rc=$?; }
uci 'uci\nisready\nposition startpos\ngo wtime -50 btime -50\n'
check "go with a clock past zero gets a bestmove" grep -q '^bestmove' "$W/out"
uci 'uci\nsetoption name Foo value caf\351 cr\350me\nisready\nposition startpos\ngo depth 1\n'
check "bytes that are not UTF-8 on stdin do not end the engine" bash -c 'grep -q readyok "'"$W"'/out" && grep -q "^bestmove" "'"$W"'/out"'
# Random UCI streams: any words in any order, never a panic or a hang.
words=(uci isready ucinewgame position startpos fen moves go wtime btime winc binc movestogo depth nodes movetime infinite stop ponderhit setoption name value quit e2e4 e7e5 -1 0 99999999999999999999 x "" debug on off register)
bad=0
for i in $(seq 1 30); do
  stream=""
  for j in $(seq 1 20); do
    line=""
    for k in $(seq 1 $((RANDOM % 6 + 1))); do line="$line ${words[$((RANDOM % ${#words[@]}))]}"; done
    stream="$stream$line\n"
  done
  uci "${stream}isready\n" 1
  if [ "$rc" = 124 ] || [ "$rc" = 101 ] || grep -q panicked "$W/err"; then bad=$((bad + 1)); fi
done
if [ "$bad" = 0 ]; then ok "30 random UCI streams: no panic, no hang"; else fail "random UCI streams" "$bad of 30 panicked or hung"; fi

echo
echo "reliability: $cases cases, $failed failed"
[ "$failed" = 0 ]
