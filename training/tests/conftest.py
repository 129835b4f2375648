"""Shared fixtures: a tiny dataset (the Rust binary's when present) and one trained run."""

from __future__ import annotations

import contextlib
import io
import math
from dataclasses import dataclass
from pathlib import Path

import pytest
import torch

from hastings_train import train
from hastings_train.data import load_split
from make_fixture import write_dataset

torch.set_num_threads(1)

TRAINING = Path(__file__).resolve().parent.parent
REPO = TRAINING.parent
RUST_FIXTURE = TRAINING / "tests" / "fixtures" / "tiny"
PGN = REPO / "tests" / "fixtures" / "twic1599_100k.pgn"
SMALL_PGN = REPO / "tests" / "fixtures" / "lichess_db_100k.pgn"
TRAIN_BATCH = 64
TRAIN_STEPS = 300
# The trained fixture's query·key width (the shipped net's head has one too).
HEAD_DIM = 4


@dataclass
class TrainedRun:
    """A finished training run: its directory, dataset, printed output and metrics."""

    run_dir: Path
    data: Path
    output: str
    metrics: dict | None


def run_main(argv: list[str]) -> tuple[str, dict | None]:
    """hastings_train.train.main with its printed output captured."""
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        metrics = train.main(argv)
    return output.getvalue(), metrics


@pytest.fixture(scope="session")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """training/tests/fixtures/tiny when the Rust binary's fixture is there, else the
    python-chess encoding of twic1599_100k.pgn (110 games, a game in 10 for validation)."""
    if (RUST_FIXTURE / "meta.json").exists():
        return RUST_FIXTURE
    out = tmp_path_factory.mktemp("dataset")
    write_dataset([PGN], out, min_ply=8, valid_every=10, seed=0)
    return out


@pytest.fixture(scope="session")
def trained(dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> TrainedRun:
    """A 2 × 16 net with a query·key head trained for about TRAIN_STEPS steps of
    TRAIN_BATCH positions."""
    run_dir = tmp_path_factory.mktemp("run")
    steps_per_epoch = max(1, len(load_split(dataset / "train")) // TRAIN_BATCH)
    epochs = max(2, math.ceil(TRAIN_STEPS / steps_per_epoch))
    output, metrics = run_main(["--data", str(dataset), "--out", str(run_dir), "--blocks", "2",
                                "--channels", "16", "--head-dim", str(HEAD_DIM),
                                "--epochs", str(epochs),
                                "--batch", str(TRAIN_BATCH), "--log-every", "20"])
    return TrainedRun(run_dir, dataset, output, metrics)
