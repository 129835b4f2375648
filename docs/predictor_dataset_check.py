#!/usr/bin/env python3
"""Independent check of `hastings predictor dataset` with python-chess.

python-chess (pip install chess; 1.11.2 here) reads the same PGN files and encodes every
position of every game's mainline as training/DATASET.md says (the encoder is
training/tests/make_fixture.py, which the trainer's tests also use). The dataset's rows
of both splits are sorted by (game, ply) and compared with python-chess's, game by game:
the 14 bitboards, the move played and the set of legal moves (the order of legal moves
is free). Also checked: dtypes and shapes, legal_offsets, meta.json's counts and hash,
no repeated (game, ply) or legal move, the split of each game (`valid_every`).

    target/release/hastings predictor dataset tests/fixtures/twic1599_100k.pgn -o /tmp/ds
    python3 docs/predictor_dataset_check.py tests/fixtures/twic1599_100k.pgn --data /tmp/ds

--min-ply and --valid-every default to meta.json's. A game that python-chess reports an
error in (it keeps the moves before the error) may be absent from the dataset, or
present with exactly those moves; non-standard games (Chess960…) must be absent.
--games N checks the first N games only. Prints counts and the first mismatches; exit
status 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "training" / "tests"))
from make_fixture import ARRAYS, Game, read_games, sha256_files  # noqa: E402

SPLITS = ("train", "valid")
DTYPES = {"boards": np.uint64, "moves": np.uint16, "legal": np.uint16,
          "legal_offsets": np.uint64, "ply": np.uint16, "game": np.uint32}


class Mismatches:
    """Counts mismatches and prints the first ones."""

    def __init__(self, show: int) -> None:
        self.show = show
        self.count = 0

    def __call__(self, message: str) -> None:
        self.count += 1
        if self.count <= self.show:
            print(f"MISMATCH {message}")


def load_splits(data: Path, meta: dict, mismatch: Mismatches) -> dict[str, dict[str, np.ndarray]]:
    """Both splits' arrays (memory-mapped), with their dtypes, shapes and offsets checked."""
    splits = {}
    for name in SPLITS:
        if not (data / name).is_dir():  # DATASET.md does not say whether an empty split is written
            splits[name] = {a: np.zeros((0, 14) if a == "boards" else 1 if a == "legal_offsets"
                                        else 0, dtype=DTYPES[a]) for a in ARRAYS}
            continue
        arrays = {a: np.load(data / name / f"{a}.npy", mmap_mode="r") for a in ARRAYS}
        for a, dtype in DTYPES.items():
            if arrays[a].dtype != dtype:
                mismatch(f"{name}/{a}.npy: dtype {arrays[a].dtype}, expected {np.dtype(dtype)}")
        n = len(arrays["moves"])
        for a, shape in (("boards", (n, 14)), ("ply", (n,)), ("game", (n,)),
                         ("legal_offsets", (n + 1,))):
            if arrays[a].shape != shape:
                mismatch(f"{name}/{a}.npy: shape {arrays[a].shape}, expected {shape}")
        offsets = np.asarray(arrays["legal_offsets"], dtype=np.int64)
        if offsets[0] != 0 or offsets[-1] != len(arrays["legal"]) or (np.diff(offsets) <= 0).any():
            mismatch(f"{name}/legal_offsets.npy: not 0, increasing, to len(legal)")
        counts = meta.get(name, {})
        if (counts.get("positions", 0), counts.get("legal_moves", 0)) != (n, len(arrays["legal"])):
            mismatch(f"meta.json {name}: {counts}, the arrays have {n} positions and "
                     f"{len(arrays['legal'])} legal moves")
        splits[name] = arrays
    files = [data / name / f"{a}.npy" for name in SPLITS for a in ARRAYS
             if (data / name).is_dir()]
    if meta.get("sha256") != sha256_files(files):
        mismatch("meta.json sha256 is not the SHA-256 of the .npy files of train then valid "
                 f"in the order {', '.join(ARRAYS)}")
    return splits


def compare_game(game: Game, rows: list[tuple[int, int]], splits: dict, valid_every: int,
                 mismatch: Mismatches) -> int:
    """Compare one game's dataset rows ((split, row) pairs) with python-chess's; return
    how many rows were compared."""
    expected = {row.ply: row for row in game.rows}
    found = {int(splits[SPLITS[s]]["ply"][r]): (s, r) for s, r in rows}
    for ply in sorted(set(expected) ^ set(found)):
        where = "only in the dataset" if ply in found else "missing from the dataset"
        mismatch(f"game {game.index} ply {ply}: {where}")
    want_split = 1 if valid_every and game.index % valid_every == 0 else 0
    compared = 0
    for ply in sorted(set(expected) & set(found)):
        s, r = found[ply]
        arrays, row = splits[SPLITS[s]], expected[ply]
        where = f"game {game.index} ply {ply} ({SPLITS[s]} row {r}, {row.fen})"
        compared += 1
        if s != want_split:
            mismatch(f"{where}: in {SPLITS[s]}, expected {SPLITS[want_split]}")
        board = [int(b) for b in arrays["boards"][r]]
        if board != row.board:
            planes = [i for i in range(14) if board[i] != row.board[i]]
            mismatch(f"{where}: planes {planes} differ: {[hex(board[i]) for i in planes]}, "
                     f"expected {[hex(row.board[i]) for i in planes]}")
        if int(arrays["moves"][r]) != row.move:
            mismatch(f"{where}: move {int(arrays['moves'][r])}, expected {row.move}")
        lo, hi = (int(x) for x in arrays["legal_offsets"][r:r + 2])
        legal = [int(m) for m in arrays["legal"][lo:hi]]
        if len(set(legal)) != len(legal):
            mismatch(f"{where}: a legal move is repeated")
        if set(legal) != set(row.legal):
            mismatch(f"{where}: legal moves only in the dataset "
                     f"{sorted(set(legal) - set(row.legal))}, missing "
                     f"{sorted(set(row.legal) - set(legal))}")
    return compared


def main() -> int:
    """Run the check; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+", type=Path, help="the PGN files, in the dataset's order")
    parser.add_argument("--data", type=Path, required=True, help="the dataset directory")
    parser.add_argument("--min-ply", type=int, help="default: meta.json's")
    parser.add_argument("--valid-every", type=int, help="default: meta.json's")
    parser.add_argument("--games", type=int, help="check only the first N games")
    parser.add_argument("--show", type=int, default=20, help="mismatches printed (20)")
    args = parser.parse_args()
    meta = json.loads((args.data / "meta.json").read_text())
    min_ply = meta["min_ply"] if args.min_ply is None else args.min_ply
    valid_every = meta["valid_every"] if args.valid_every is None else args.valid_every
    mismatch = Mismatches(args.show)
    if (meta.get("format"), meta.get("encoding"), meta.get("planes")) != (
            "hastings-predictor-dataset", 1, 14):
        mismatch("meta.json: format, encoding or planes is not hastings-predictor-dataset, 1, 14")
    splits = load_splits(args.data, meta, mismatch)

    games = np.concatenate([np.asarray(splits[s]["game"], dtype=np.int64) for s in SPLITS])
    plies = np.concatenate([np.asarray(splits[s]["ply"], dtype=np.int64) for s in SPLITS])
    which = np.concatenate([np.full(len(splits[s]["game"]), i) for i, s in enumerate(SPLITS)])
    rows = np.concatenate([np.arange(len(splits[s]["game"])) for s in SPLITS])
    order = np.lexsort((plies, games))
    games, plies, which, rows = games[order], plies[order], which[order], rows[order]
    repeated = np.flatnonzero((games[1:] == games[:-1]) & (plies[1:] == plies[:-1]))
    for i in repeated[:args.show]:
        mismatch(f"game {games[i]} ply {plies[i]}: more than one row")
    mismatch.count += max(0, len(repeated) - args.show)

    read = compared = left_out = kept_with_error = 0
    for game in read_games(args.pgn, min_ply):
        if args.games is not None and game.index >= args.games:
            break
        read += 1
        lo, hi = np.searchsorted(games, [game.index, game.index + 1])
        found = list(zip(which[lo:hi].tolist(), rows[lo:hi].tolist()))
        if game.issue is not None and not found:
            left_out += 1
            continue
        if game.issue is not None and not game.rows:
            mismatch(f"game {game.index}: {len(found)} rows, python-chess has none: {game.issue}")
            continue
        kept_with_error += game.issue is not None
        compared += compare_game(game, found, splits, valid_every, mismatch)
    if args.games is None:
        extra = np.unique(games[games >= read])
        for g in extra[:args.show]:
            mismatch(f"game {g}: rows for a game python-chess did not read ({read} games)")
        mismatch.count += max(0, len(extra) - args.show)

    print(f"games read by python-chess: {read}; with an issue and left out of the dataset: "
          f"{left_out}; with an error and kept up to it: {kept_with_error}")
    print(f"rows: {len(games)} in the dataset, {compared} compared; min_ply {min_ply}, "
          f"valid_every {valid_every}")
    print(f"mismatches: {mismatch.count}")
    return 1 if mismatch.count else 0


if __name__ == "__main__":
    sys.exit(main())
