"""Reading the predictor dataset (DATASET.md, encoding 1) and batching it on a device."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

PLANES = 14
PIECES = "pnbrqk"
PROMOTIONS = 5
PAD = -1
_CHUNK = 1 << 18


@dataclass
class Split:
    """One split's arrays, memory-mapped from the `.npy` files."""

    boards: np.ndarray  # uint64 [N, 14]
    moves: np.ndarray  # uint16 [N]
    legal: np.ndarray  # uint16 [L]
    offsets: np.ndarray  # uint64 [N + 1]
    ply: np.ndarray | None = None  # uint16 [N], half-moves before the position

    def __len__(self) -> int:
        return len(self.moves)


def read_meta(data_dir: Path) -> dict:
    """The dataset's meta.json, checked for the format this trainer reads."""
    meta = json.loads((Path(data_dir) / "meta.json").read_text())
    if meta.get("format") != "hastings-predictor-dataset" or meta.get("encoding") != 1:
        raise ValueError(f"{data_dir}: not a hastings-predictor-dataset of encoding 1")
    if meta.get("planes") != PLANES:
        raise ValueError(f"{data_dir}: {meta.get('planes')} planes, expected {PLANES}")
    return meta


def load_split(split_dir: Path) -> Split | None:
    """The split in `split_dir`, or None when it is absent or has no positions."""
    split_dir = Path(split_dir)
    if not (split_dir / "moves.npy").exists():
        return None

    def load(name: str, dtype: type) -> np.ndarray:
        array = np.load(split_dir / f"{name}.npy", mmap_mode="r")
        if array.dtype != dtype:
            raise ValueError(f"{split_dir}/{name}.npy: {array.dtype}, expected {np.dtype(dtype)}")
        return array

    split = Split(load("boards", np.uint64), load("moves", np.uint16),
                  load("legal", np.uint16), load("legal_offsets", np.uint64),
                  load("ply", np.uint16) if (split_dir / "ply.npy").exists() else None)
    n = len(split.moves)
    if split.boards.shape != (n, PLANES) or split.offsets.shape != (n + 1,):
        raise ValueError(f"{split_dir}: shapes {split.boards.shape}, {split.offsets.shape} "
                         f"do not fit {n} positions")
    if split.ply is not None and split.ply.shape != (n,):
        raise ValueError(f"{split_dir}: ply.npy has shape {split.ply.shape}, expected ({n},)")
    if split.offsets[0] != 0 or split.offsets[-1] != len(split.legal):
        raise ValueError(f"{split_dir}: legal_offsets do not span legal.npy")
    return split if n else None


def pad_legal(legal: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Each position's legal moves in a row of an int16 [N, Lmax] array, padded with -1.

    Moves fit in 15 bits (promotion 4 << 12 | 4095), so int16 holds them.
    """
    offsets = np.asarray(offsets, dtype=np.int64)
    counts = np.diff(offsets)
    if (counts <= 0).any():
        raise ValueError("a position has no legal moves")
    n = len(counts)
    padded = np.full((n, int(counts.max())), PAD, dtype=np.int16)
    for lo in range(0, n, _CHUNK):
        hi = min(lo + _CHUNK, n)
        chunk_counts = counts[lo:hi]
        rows = np.repeat(np.arange(lo, hi), chunk_counts)
        starts = np.repeat(offsets[lo:hi], chunk_counts)
        flat = np.arange(offsets[lo], offsets[hi])
        padded[rows, flat - starts] = legal[offsets[lo]:offsets[hi]]
    return padded


def played_index(padded: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """The column of each played move in its row of `padded` (int64 [N])."""
    index = np.empty(len(moves), dtype=np.int64)
    for lo in range(0, len(moves), _CHUNK):
        hit = padded[lo:lo + _CHUNK] == moves[lo:lo + _CHUNK].astype(np.int16)[:, None]
        found = hit.any(axis=1)
        if not found.all():
            bad = lo + int(np.argmin(found))
            raise ValueError(f"position {bad}: the played move {int(moves[bad])} is not legal")
        index[lo:lo + _CHUNK] = hit.argmax(axis=1)
    return index


def promotion_log_prior(moves: np.ndarray) -> torch.Tensor:
    """float32 [5]: 0 for no promotion, then the log frequency of each promotion piece
    (knight, bishop, rook, queen) among the promotions played, with add-one smoothing."""
    promotion = np.asarray(moves) >> 12
    counts = np.bincount(promotion[promotion > 0], minlength=PROMOTIONS)[1:PROMOTIONS] + 1.0
    prior = np.zeros(PROMOTIONS, dtype=np.float64)
    prior[1:] = np.log(counts / counts.sum())
    return torch.tensor(prior, dtype=torch.float32)


@dataclass
class Batch:
    """A batch on the device."""

    boards: torch.Tensor  # int64 [B, 14] (the uint64 bits)
    moves: torch.Tensor  # int64 [B]
    legal: torch.Tensor  # int64 [B, Lmax], -1 padding
    target: torch.Tensor  # int64 [B], the played move's column in `legal`


def from_ply(split: Split, min_ply: int) -> np.ndarray | None:
    """The indices of the positions at `min_ply` or later (None: all of them)."""
    if min_ply <= 0:
        return None
    if split.ply is None:
        raise ValueError(f"a minimum ply of {min_ply} needs the dataset's ply.npy")
    return np.flatnonzero(np.asarray(split.ply) >= min_ply)


class DeviceSplit:
    """A whole split on one device, indexed there batch by batch; with `min_ply`, only
    the positions after that many half-moves."""

    def __init__(self, split: Split, device: torch.device, min_ply: int = 0) -> None:
        padded = pad_legal(split.legal, split.offsets)
        target = played_index(padded, split.moves)
        boards, moves = np.array(split.boards), np.asarray(split.moves)
        keep = from_ply(split, min_ply)
        if keep is not None:
            boards, moves, padded, target = boards[keep], moves[keep], padded[keep], target[keep]
        self.boards = torch.from_numpy(boards.view(np.int64)).to(device)
        self.moves = torch.from_numpy(moves.astype(np.int32)).to(device)
        self.legal = torch.from_numpy(padded).to(device)
        self.target = torch.from_numpy(target.astype(np.int16)).to(device)

    def __len__(self) -> int:
        return len(self.moves)

    def batch(self, index: torch.Tensor) -> Batch:
        """The positions at `index` (int64 on the split's device)."""
        return Batch(self.boards[index], self.moves[index].long(), self.legal[index].long(),
                     self.target[index].long())

    def mean_chance(self) -> float:
        """The top-1 accuracy of a uniform guess: the mean of 1 / legal-move count."""
        counts = (self.legal >= 0).sum(dim=1).double()
        return float((1.0 / counts).mean())


def unpack_planes(boards: torch.Tensor, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """[B, 14] int64 bitboards to [B, 14, 8, 8] planes ([position, plane, rank, file])."""
    shifts = torch.arange(64, device=boards.device)
    bits = (boards.unsqueeze(-1) >> shifts) & 1
    return bits.to(dtype).view(boards.shape[0], PLANES, 8, 8)


def moving_piece(boards: torch.Tensor, moves: torch.Tensor) -> torch.Tensor:
    """The mover's piece on each move's from-square: 0..5 for p n b r q k."""
    from_square = (moves & 63).unsqueeze(1)
    return ((boards[:, :6] >> from_square) & 1).argmax(dim=1)


# A move's from- and to-files flipped (square s → s ^ 7 for both squares).
FILE_FLIP = 7 | 7 << 6


def mirror_files(batch: Batch, planes: torch.Tensor, p: float) -> tuple[Batch, torch.Tensor]:
    """Flips the files (a↔h) of each position without castling rights with probability p:
    the board and its moves. Without castling, chess is symmetric under this flip, so the
    flipped position is as real as the original. The played move keeps its column."""
    flip = (batch.boards[:, 13] == 0) & (torch.rand(len(batch.moves), device=planes.device) < p)
    planes = torch.where(flip[:, None, None, None], planes.flip(-1), planes)
    legal = torch.where(flip[:, None] & (batch.legal >= 0), batch.legal ^ FILE_FLIP, batch.legal)
    moves = torch.where(flip, batch.moves ^ FILE_FLIP, batch.moves)
    # The bitboards themselves are not flipped: only the planes feed the network.
    return Batch(batch.boards, moves, legal, batch.target), planes
