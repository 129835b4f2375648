"""Validation metrics: loss, top-1, top-3, from-square accuracy, top-1 per moving piece."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import torch
import torch.nn.functional as F

from .data import PIECES, DeviceSplit, moving_piece, unpack_planes
from .model import legal_logits


@torch.no_grad()
def evaluate(forward: Callable[[torch.Tensor], torch.Tensor], split: DeviceSplit,
             prior: torch.Tensor, batch_size: int = 4096,
             autocast: Callable[[], contextlib.AbstractContextManager] = contextlib.nullcontext,
             memory_format: torch.memory_format = torch.contiguous_format) -> dict:
    """Metrics of `forward` (planes → [B, 2, 64], in eval mode) over the whole split.

    top1: the argmax over legal moves is the played move; top3: the played move is among
    the three best; from: the argmax of the from-map over the from-squares of legal moves
    is the played from-square; top1_by_piece: top1 grouped by the moving piece.
    """
    device = split.boards.device
    sums = torch.zeros(4, dtype=torch.float64, device=device)  # loss, top1, top3, from
    piece_hits = torch.zeros(len(PIECES), dtype=torch.float64, device=device)
    piece_counts = torch.zeros(len(PIECES), dtype=torch.float64, device=device)
    for lo in range(0, len(split), batch_size):
        index = torch.arange(lo, min(lo + batch_size, len(split)), device=device)
        batch = split.batch(index)
        planes = unpack_planes(batch.boards).contiguous(memory_format=memory_format)
        with autocast():
            head = forward(planes)
        head = head.float()
        logits = legal_logits(head, batch.legal, prior)
        target = batch.target
        top1 = logits.argmax(dim=1) == target
        best = logits.topk(min(3, logits.shape[1]), dim=1).indices
        top3 = (best == target.unsqueeze(1)).any(dim=1)
        from_square = torch.where(batch.legal >= 0, batch.legal & 63, 64)
        is_from = torch.zeros(len(index), 65, dtype=torch.bool, device=device)
        is_from.scatter_(1, from_square, True)
        from_logits = head[:, 0].masked_fill(~is_from[:, :64], float("-inf"))
        from_hit = from_logits.argmax(dim=1) == (batch.moves & 63)
        sums += torch.stack([F.cross_entropy(logits, target, reduction="sum").double(),
                             top1.sum().double(), top3.sum().double(), from_hit.sum().double()])
        piece = moving_piece(batch.boards, batch.moves)
        piece_hits.index_add_(0, piece, top1.double())
        piece_counts.index_add_(0, piece, torch.ones_like(top1, dtype=torch.float64))
    n = len(split)
    loss, top1, top3, from_acc = (sums / n).tolist()
    by_piece = {name: (hits / count if count else None)
                for name, hits, count in zip(PIECES, piece_hits.tolist(), piece_counts.tolist())}
    return {"positions": n, "loss": loss, "top1": top1, "top3": top3, "from": from_acc,
            "top1_by_piece": by_piece, "chance_top1": split.mean_chance()}
