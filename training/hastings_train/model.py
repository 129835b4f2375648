"""ChessNet: a residual convolutional network giving a from-square and a to-square map,
its batch-norm folding for export, and the move logits over legal moves."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from .data import PLANES, PROMOTIONS


class ResidualBlock(nn.Module):
    """conv3×3 → BN → SELU → conv3×3 → BN → + input → SELU."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.selu(self.bn1(self.conv1(x)))
        return F.selu(x + self.bn2(self.conv2(y)))


class ChessNet(nn.Module):
    """Planes [B, 14, 8, 8] → stem (conv, BN, ReLU) → residual blocks → head conv giving
    [B, 2 + 2·head_dim, 64]: channel 0 the from-square logits, channel 1 the to-square
    logits, then (with `head_dim` d > 0) d query maps and d key maps, whose dot product
    between a move's from- and to-square is added to its logit (`legal_logits`).

    `head_dim` 0 is the seed's head: a move's logit is from-logit + to-logit, so which
    square a piece leaves and where a piece lands are scored apart. The query·key term
    scores the pair together (as Leela's attention policy does) at the cost of 2d more
    output maps of the head's convolution. The queries are scaled by 1/√d here (a fixed
    factor, folded into the exported head weights)."""

    def __init__(self, blocks: int, channels: int, head_dim: int = 0) -> None:
        super().__init__()
        self.head_dim = head_dim
        self.stem = nn.Conv2d(PLANES, channels, 3, padding=1, bias=False)
        self.stem_bn = nn.BatchNorm2d(channels)
        self.blocks = nn.ModuleList(ResidualBlock(channels) for _ in range(blocks))
        self.head = nn.Conv2d(channels, 2 + 2 * head_dim, 3, padding=1)
        self.register_buffer("promotion_log_prior", torch.zeros(PROMOTIONS))
        scale = torch.ones(2 + 2 * head_dim)
        if head_dim:
            scale[2:2 + head_dim] = head_dim ** -0.5
        self.register_buffer("head_scale", scale, persistent=False)

    def forward(self, planes: torch.Tensor) -> torch.Tensor:
        x = F.relu(self.stem_bn(self.stem(planes)))
        for block in self.blocks:
            x = block(x)
        head = self.head(x)
        if self.head_dim:
            head = head * self.head_scale.view(1, -1, 1, 1).to(head.dtype)
        return head.flatten(2)


def _fold(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> tuple[torch.Tensor, torch.Tensor]:
    """A convolution followed by eval-mode batch norm as one convolution (float32)."""
    scale = bn.weight.double() / torch.sqrt(bn.running_var.double() + bn.eps)
    bias = conv.bias.double() if conv.bias is not None else torch.zeros_like(scale)
    weight = conv.weight.double() * scale.view(-1, 1, 1, 1)
    bias = (bias - bn.running_mean.double()) * scale + bn.bias.double()
    return weight.float().contiguous(), bias.float().contiguous()


@torch.no_grad()
def fold_batchnorm(model: ChessNet) -> dict[str, torch.Tensor]:
    """The exported tensors (CPU, float32): every batch norm folded into its convolution."""
    tensors: dict[str, torch.Tensor] = {}
    tensors["stem.weight"], tensors["stem.bias"] = _fold(model.stem, model.stem_bn)
    for i, block in enumerate(model.blocks):
        for name, conv, bn in (("conv1", block.conv1, block.bn1),
                               ("conv2", block.conv2, block.bn2)):
            weight, bias = _fold(conv, bn)
            tensors[f"blocks.{i}.{name}.weight"], tensors[f"blocks.{i}.{name}.bias"] = weight, bias
    scale = model.head_scale.detach().double()
    tensors["head.weight"] = (model.head.weight.detach().double()
                              * scale.view(-1, 1, 1, 1)).float().contiguous()
    tensors["head.bias"] = (model.head.bias.detach().double() * scale).float().contiguous()
    tensors["promotion_log_prior"] = model.promotion_log_prior.detach().float().contiguous()
    return {name: tensor.cpu() for name, tensor in tensors.items()}


def folded_forward(tensors: dict[str, torch.Tensor], planes: torch.Tensor) -> torch.Tensor:
    """The exported network's forward pass: planes [B, 14, 8, 8] → [B, 2 + 2d, 64]."""
    x = F.relu(F.conv2d(planes, tensors["stem.weight"], tensors["stem.bias"], padding=1))
    i = 0
    while f"blocks.{i}.conv1.weight" in tensors:
        y = F.selu(F.conv2d(x, tensors[f"blocks.{i}.conv1.weight"],
                            tensors[f"blocks.{i}.conv1.bias"], padding=1))
        y = F.conv2d(y, tensors[f"blocks.{i}.conv2.weight"], tensors[f"blocks.{i}.conv2.bias"],
                     padding=1)
        x = F.selu(x + y)
        i += 1
    return F.conv2d(x, tensors["head.weight"], tensors["head.bias"], padding=1).flatten(2)


def legal_logits(head: torch.Tensor, legal: torch.Tensor, prior: torch.Tensor) -> torch.Tensor:
    """The logit of each legal move, -inf at padding.

    head: [B, 2 + 2d, 64] (from, to, d queries, d keys); legal: int64 [B, L] moves, -1
    padding; prior: [5].
    logit = from_logit[from] + to_logit[to] + Σᵢ queryᵢ[from] · keyᵢ[to] + prior[promotion].
    """
    valid = legal >= 0
    move = legal.clamp_min(0)
    from_square, to_square = move & 63, (move >> 6) & 63
    logits = (head[:, 0].gather(1, from_square) + head[:, 1].gather(1, to_square)
              + prior[move >> 12])
    d = (head.shape[1] - 2) // 2
    if d:
        queries = head[:, 2:2 + d].gather(2, from_square.unsqueeze(1).expand(-1, d, -1))
        keys = head[:, 2 + d:2 + 2 * d].gather(2, to_square.unsqueeze(1).expand(-1, d, -1))
        logits = logits + (queries * keys).sum(dim=1)
    return logits.masked_fill(~valid, float("-inf"))
