"""The training objective: cross-entropy over the legal moves, plus optional square heads."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from .data import Batch
from .model import legal_logits


def training_loss(head: torch.Tensor, batch: Batch, prior: torch.Tensor,
                  head_loss: float = 0.0) -> torch.Tensor:
    """Mean cross-entropy of the played move among the legal moves (float32).

    With `head_loss` W > 0, adds W × (from-square CE over 64 + to-square CE over 64),
    the thesis's two heads trained on the played move's squares.
    """
    head = head.float()
    loss = F.cross_entropy(legal_logits(head, batch.legal, prior), batch.target)
    if head_loss:
        square_ce = (F.cross_entropy(head[:, 0], batch.moves & 63)
                     + F.cross_entropy(head[:, 1], (batch.moves >> 6) & 63))
        loss = loss + head_loss * square_ce
    return loss
