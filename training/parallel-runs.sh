#!/usr/bin/env bash
# Several ChessNet trainings at once on one GPU, each fitted to the same time budget
# (--budget-minutes), from the dataset the hastings binary makes of the gnuchess book
# source; each run's weights, parity file and logs are tarred into $OUT. This is the
# script of the 2026-11-27 runs in docs/human.md, run on a lent machine from the
# repository root with an ignored folder .gpu/ holding hastings.gz (a stripped release
# binary, gzipped), libasound.so.2 (the binary links it; that machine lacks it) and
# gnuchess-book_1.02.orig.tar.gz (training/fetch-gnuchess-book.sh):
#
#   OUT=DIR bash training/parallel-runs.sh MINUTES ["NAME BLOCKS CHANNELS HEAD_DIM MIN_PLY" …]
set -uo pipefail
export PYTHONUNBUFFERED=1
budget=${1:-6.0}
root=$(pwd)
work=/tmp/w
mkdir -p "$work"
nvidia-smi -L
python3 -c 'import torch, numpy, safetensors; print("torch", torch.__version__, "cuda", torch.cuda.is_available(), "numpy", numpy.__version__, "safetensors", safetensors.__version__)'
echo "d673ffa6986a3beca27cc23ef126ea0a73f1098762e3ccd00f791c096f2bfb48  .gpu/gnuchess-book_1.02.orig.tar.gz" | sha256sum -c - || exit 1
tar -xzf .gpu/gnuchess-book_1.02.orig.tar.gz -C "$work"
export LD_LIBRARY_PATH=$root/.gpu:${LD_LIBRARY_PATH:-}; gunzip -c .gpu/hastings.gz > "$work/hastings" && chmod +x "$work/hastings"
"$work/hastings" predictor dataset "$work/gnuchess-book-1.02/book_1.02.pgn" -o "$work/data" --min-ply 0 --seed 0 || exit 1
cat "$work/data/meta.json" | head -c 600; echo
echo "dataset ready at ${SECONDS}s"
cd "$root/training"
# name blocks channels head_dim min_ply
runs=("$@")
[ ${#runs[@]} -gt 1 ] || runs=(x "b8c96d32 8 96 32 0" "b8c96d0 8 96 0 0" "b8c96d32m8 8 96 32 8" "b6c64d32 6 64 32 0")
for spec in "${runs[@]:1}"; do
  set -- $spec
  name=$1
  python3 -m hastings_train.train --data "$work/data" --out "$work/$name" \
    --blocks "$2" --channels "$3" --head-dim "$4" --min-ply "$5" --epochs 20 --batch 2048 --amp \
    --budget-minutes "$budget" --max-minutes "$(python3 -c "print($budget + 0.6)")" \
    --log-every 1000 > "$work/$name.stdout" 2>&1 &
done
wait
echo "training done at ${SECONDS}s"
for spec in "${runs[@]:1}"; do
  set -- $spec
  cp "$work/$1.stdout" "$work/$1/stdout.log"
  echo "== $1"; grep -v '^step=' "$work/$1.stdout" | tail -n 8; grep '^step=' "$work/$1.stdout" | tail -n 2
  tar -cf "$OUT/$1.tar" -C "$work/$1" $(cd "$work/$1" && ls predictor.safetensors parity.safetensors log.jsonl stdout.log 2>/dev/null)
done
cp "$work/data/meta.json" "$OUT/meta.json"
ls -la "$OUT"
echo "all done at ${SECONDS}s"
