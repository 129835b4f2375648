"""The network, its batch-norm folding and the move logits and loss."""

from __future__ import annotations

import pytest
import torch

from hastings_train.data import Batch
from hastings_train.loss import training_loss
from hastings_train.model import ChessNet, fold_batchnorm, folded_forward, legal_logits


def randomised_net(blocks: int = 2, channels: int = 8, head_dim: int = 0) -> ChessNet:
    """A net in eval mode whose batch norms have non-trivial statistics and affine terms."""
    torch.manual_seed(1)
    model = ChessNet(blocks, channels, head_dim)
    for module in model.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.running_mean.uniform_(-1, 1)
            module.running_var.uniform_(0.2, 3)
            module.weight.data.uniform_(0.5, 1.5)
            module.bias.data.uniform_(-0.5, 0.5)
    return model.eval()


@pytest.mark.parametrize("head_dim", [0, 3])
def test_output_shape(head_dim: int) -> None:
    model = randomised_net(3, 12, head_dim)
    assert model(torch.zeros(5, 14, 8, 8)).shape == (5, 2 + 2 * head_dim, 64)


@pytest.mark.parametrize("head_dim", [0, 4])
def test_folded_forward_matches_eval_model(head_dim: int) -> None:
    # With a query·key head the folded head carries the queries' 1/√d scale.
    model = randomised_net(head_dim=head_dim)
    planes = (torch.rand(32, 14, 8, 8) < 0.1).float()
    tensors = fold_batchnorm(model)
    with torch.no_grad():
        expected = model(planes)
    assert torch.allclose(folded_forward(tensors, planes), expected, atol=1e-4, rtol=0)


def test_fold_names_and_shapes() -> None:
    tensors = fold_batchnorm(randomised_net(2, 8))
    shapes = {name: tuple(t.shape) for name, t in tensors.items()}
    expected = {"stem.weight": (8, 14, 3, 3), "stem.bias": (8,), "head.weight": (2, 8, 3, 3),
                "head.bias": (2,), "promotion_log_prior": (5,)}
    for i in range(2):
        for conv in ("conv1", "conv2"):
            expected[f"blocks.{i}.{conv}.weight"] = (8, 8, 3, 3)
            expected[f"blocks.{i}.{conv}.bias"] = (8,)
    assert shapes == expected
    assert all(t.dtype == torch.float32 and t.is_contiguous() for t in tensors.values())


def test_legal_logits_formula_and_softmax() -> None:
    head = torch.randn(2, 2, 64)
    prior = torch.tensor([0.0, -3.0, -4.0, -2.5, -0.1])
    legal = torch.tensor([[12 | 28 << 6, 52 | 60 << 6 | 4 << 12, -1],
                          [6 | 21 << 6, 52 | 60 << 6 | 1 << 12, 1 | 18 << 6]])
    logits = legal_logits(head, legal, prior)
    assert torch.isclose(logits[0, 0], head[0, 0, 12] + head[0, 1, 28])
    assert torch.isclose(logits[0, 1], head[0, 0, 52] + head[0, 1, 60] + prior[4])
    assert torch.isclose(logits[1, 1], head[1, 0, 52] + head[1, 1, 60] + prior[1])
    assert logits[0, 2] == float("-inf")
    probabilities = logits.softmax(dim=1)
    assert torch.allclose(probabilities.sum(dim=1), torch.ones(2))
    assert probabilities[0, 2] == 0


def test_legal_logits_add_the_query_key_product() -> None:
    d = 3
    head = torch.randn(2, 2 + 2 * d, 64)
    prior = torch.tensor([0.0, -3.0, -4.0, -2.5, -0.1])
    legal = torch.tensor([[12 | 28 << 6, 52 | 60 << 6 | 4 << 12, -1],
                          [6 | 21 << 6, 52 | 60 << 6 | 1 << 12, 1 | 18 << 6]])
    logits = legal_logits(head, legal, prior)
    for b, row in enumerate(legal.tolist()):
        for column, move in enumerate(row):
            if move < 0:
                assert logits[b, column] == float("-inf")
                continue
            f, t, promotion = move & 63, (move >> 6) & 63, move >> 12
            pair = sum(float(head[b, 2 + i, f] * head[b, 2 + d + i, t]) for i in range(d))
            expected = float(head[b, 0, f] + head[b, 1, t] + prior[promotion]) + pair
            assert float(logits[b, column]) == pytest.approx(expected, abs=1e-5)


def test_head_loss_adds_the_square_cross_entropies() -> None:
    head = torch.randn(2, 2, 64)
    moves = torch.tensor([12 | 28 << 6, 1 | 18 << 6])
    batch = Batch(torch.zeros(2, 14, dtype=torch.long), moves,
                  torch.tensor([[12 | 28 << 6, 11 | 27 << 6], [6 | 21 << 6, 1 | 18 << 6]]),
                  torch.tensor([0, 1]))
    prior = torch.zeros(5)
    squares = (torch.nn.functional.cross_entropy(head[:, 0], moves & 63)
               + torch.nn.functional.cross_entropy(head[:, 1], moves >> 6))
    assert torch.isclose(training_loss(head, batch, prior, 0.5),
                         training_loss(head, batch, prior) + 0.5 * squares)
