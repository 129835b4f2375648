#!/usr/bin/env bash
# Makes the move predictor's training set from the GNU Chess book source with the
# hastings binary, then trains on it (on CUDA when there is a GPU, else the CPU).
#
#   training/make-weights.sh HASTINGS BOOK_TAR_GZ WORKDIR [train options…]
#
# HASTINGS is a hastings binary; BOOK_TAR_GZ is gnuchess-book_1.02.orig.tar.gz
# (training/fetch-gnuchess-book.sh fetches it and checks its hash). The weights land in
# WORKDIR/run/predictor.safetensors; docs/human.md names the options of the shipped run.
# DATASET_MIN_PLY (default 8) is the dataset's first ply; the trainer's --min-ply can
# keep fewer of its positions.
set -euo pipefail
bin=$(realpath "$1"); tarball=$(realpath "$2"); work=$(realpath -m "$3"); shift 3
echo "d673ffa6986a3beca27cc23ef126ea0a73f1098762e3ccd00f791c096f2bfb48  $tarball" | sha256sum -c --quiet -
mkdir -p "$work"
tar -xzf "$tarball" -C "$work"
"$bin" predictor dataset "$work/gnuchess-book-1.02/book_1.02.pgn" -o "$work/data" --min-ply "${DATASET_MIN_PLY:-8}" --seed 0
cd "$(dirname "$0")"
python3 -m hastings_train.train --data "$work/data" --out "$work/run" "$@"
