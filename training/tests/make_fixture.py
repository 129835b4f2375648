"""A python-chess writer of the predictor dataset (training/DATASET.md, encoding 1).

Used by the tests (a tiny dataset when `tests/fixtures/tiny/` made by the Rust binary is
absent) and by `docs/predictor_dataset_check.py`, which re-encodes a PGN file with the
functions here and compares the result with what `hastings predictor dataset` wrote.

    python training/tests/make_fixture.py tests/fixtures/twic1599_100k.pgn -o /tmp/tiny \
        --min-ply 8 --valid-every 10

Rules, as read from DATASET.md and the Rust reader (the Rust binary is the reference
where they differ): games are numbered 0, 1, … over all files in the order python-chess
reads them, skipped games included; a game that is not standard chess has no rows; a
game with an error (an illegal move) keeps the moves before it; only the mainline is
used; a row is a position at ply >= min_ply (counted from the game's first position,
a FEN start included) together with the move played from it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn
import numpy as np

ARRAYS = ("boards", "moves", "legal", "legal_offsets", "ply", "game")
# python-chess logs each game's errors; they are read from `game.errors` instead.
logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)

PROMOTION_CODE = {None: 0, chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}


def encode_board(board: chess.Board) -> list[int]:
    """The 14 bitboards of `board` seen from the side to move."""
    if board.turn == chess.BLACK:
        board = board.mirror()
    planes = [board.pieces_mask(piece, chess.WHITE) for piece in chess.PIECE_TYPES]
    planes += [board.pieces_mask(piece, chess.BLACK) for piece in chess.PIECE_TYPES]
    has_ep = board.ep_square is not None and board.has_legal_en_passant()
    planes.append(chess.BB_SQUARES[board.ep_square] if has_ep else 0)
    planes.append(board.clean_castling_rights())
    return planes


def encode_move(move: chess.Move, turn: chess.Color) -> int:
    """`from | to << 6 | promotion << 12`, mirrored when Black moves."""
    flip = 0 if turn == chess.WHITE else 56
    return (
        (move.from_square ^ flip)
        | (move.to_square ^ flip) << 6
        | PROMOTION_CODE[move.promotion] << 12
    )


@dataclass
class Row:
    """One position of a game with the move played from it."""

    ply: int
    fen: str
    board: list[int]
    move: int
    legal: list[int]


@dataclass
class Game:
    """A game as python-chess read it; `issue` is what was wrong with it: a variant (no
    rows) or an error (the rows are those of the moves before it)."""

    index: int
    rows: list[Row] = field(default_factory=list)
    issue: str | None = None


def encode_game(index: int, game: chess.pgn.Game, min_ply: int) -> Game:
    """The rows of one game's mainline at ply >= min_ply."""
    try:
        board = game.board()
    except ValueError as error:
        return Game(index, issue=f"bad start: {error}")
    if type(board) is not chess.Board or board.chess960:
        return Game(index, issue=f"variant {board.uci_variant}")
    result = Game(index, issue=f"python-chess: {game.errors[0]}" if game.errors else None)
    for ply, move in enumerate(game.mainline_moves()):
        if ply >= min_ply:
            legal = [encode_move(m, board.turn) for m in board.legal_moves]
            result.rows.append(Row(ply, board.fen(), encode_board(board),
                                   encode_move(move, board.turn), legal))
        board.push(move)
    return result


def read_games(paths: Sequence[Path], min_ply: int, first_index: int = 0) -> Iterator[Game]:
    """Every game of the files, numbered over all of them from `first_index`."""
    index = first_index
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as pgn:
            while (game := chess.pgn.read_game(pgn)) is not None:
                yield encode_game(index, game, min_ply)
                index += 1


def split_arrays(rows: list[tuple[int, Row]], seed: int) -> dict[str, np.ndarray]:
    """The arrays of one split from (game index, row) pairs, shuffled with `seed`."""
    order = np.random.default_rng(seed).permutation(len(rows))
    rows = [rows[i] for i in order]
    counts = np.array([len(row.legal) for _, row in rows], dtype=np.uint64)
    legal = [m for _, row in rows for m in row.legal]
    return {
        "boards": np.array([row.board for _, row in rows], dtype=np.uint64).reshape(-1, 14),
        "moves": np.array([row.move for _, row in rows], dtype=np.uint16),
        "legal": np.array(legal, dtype=np.uint16),
        "legal_offsets": np.concatenate([np.zeros(1, np.uint64), np.cumsum(counts)]),
        "ply": np.array([row.ply for _, row in rows], dtype=np.uint16),
        "game": np.array([game for game, _ in rows], dtype=np.uint32),
    }


def write_dataset(
    pgn_paths: Sequence[Path], out: Path, min_ply: int = 8, valid_every: int = 50, seed: int = 0
) -> dict:
    """Write the dataset of `pgn_paths` to `out` and return its meta.json content."""
    splits: dict[str, list[tuple[int, Row]]] = {"train": [], "valid": []}
    games = {"train": 0, "valid": 0}
    sources = []
    index = 0
    for path in pgn_paths:
        first, skipped = index, 0
        for game in read_games([path], min_ply, index):
            index += 1
            skipped += game.issue is not None
            split = "valid" if valid_every and game.index % valid_every == 0 else "train"
            splits[split].extend((game.index, row) for row in game.rows)
            games[split] += bool(game.rows)
        sources.append({"path": Path(path).name, "sha256": sha256_files([Path(path)]),
                        "games": index - first, "skipped": skipped})
    meta: dict = {"format": "hastings-predictor-dataset", "encoding": 1, "planes": 14,
                  "seed": seed, "min_ply": min_ply, "valid_every": valid_every}
    files = []
    for i, (name, rows) in enumerate(splits.items()):
        arrays = split_arrays(rows, seed + i)
        (out / name).mkdir(parents=True, exist_ok=True)
        for array_name in ARRAYS:
            np.save(out / name / f"{array_name}.npy", arrays[array_name])
            files.append(out / name / f"{array_name}.npy")
        meta[name] = {"positions": len(rows), "legal_moves": int(arrays["legal"].size),
                      "games": games[name]}
    meta["sources"] = sources
    meta["sha256"] = sha256_files(files)
    meta["command"] = "make_fixture.py " + " ".join(str(p) for p in pgn_paths)
    (out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    return meta


def sha256_files(paths: Sequence[Path]) -> str:
    """The SHA-256 of the files' bytes, one after the other."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


def main() -> None:
    """Command line: write a dataset from PGN files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+", type=Path)
    parser.add_argument("-o", "--out", type=Path, required=True)
    parser.add_argument("--min-ply", type=int, default=8)
    parser.add_argument("--valid-every", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    meta = write_dataset(args.pgn, args.out, args.min_ply, args.valid_every, args.seed)
    print(json.dumps({k: meta[k] for k in ("train", "valid", "sources")}))


if __name__ == "__main__":
    main()
