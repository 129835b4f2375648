"""Export a trained ChessNet for the Rust side.

RUNDIR/predictor.safetensors: the network with batch norm folded into the convolutions
(float32) and the promotion prior, with metadata describing it.
RUNDIR/parity.safetensors: the first 100 validation positions (train when there is no
validation split), the exported network's head maps for each ((2 + 2d) × 64 logits:
from-squares, to-squares, then the d query and d key maps), and the played moves,
for the Rust forward pass to be checked against.

Training calls `export` at its end; to export a run's checkpoint again:

    python -m hastings_train.export --run RUNDIR [--data DIR]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import torch
from safetensors.numpy import save_file

from .data import load_split, read_meta, unpack_planes
from .model import ChessNet, fold_batchnorm, folded_forward

PARITY_POSITIONS = 100


def _decimal(value: float | None) -> str:
    return "nan" if value is None else f"{value:.6f}"


def export(model: ChessNet, run_dir: Path, data_dir: Path, command: str, epochs: float,
           metrics: dict | None) -> dict[str, str]:
    """Write predictor.safetensors and parity.safetensors into `run_dir`; return the
    weights' metadata. `metrics` is the last validation (None when there was none)."""
    run_dir = Path(run_dir)
    tensors = fold_batchnorm(model)
    metadata = {
        "format": "hastings-predictor",
        "architecture": "chessnet",
        "blocks": str(len(model.blocks)),
        "channels": str(model.stem.out_channels),
        "head_dim": str(model.head_dim),
        "encoding": "1",
        "planes": "14",
        "stem_activation": "relu",
        "block_activation": "selu",
        "dataset_sha256": read_meta(data_dir).get("sha256", ""),
        "command": command,
        "epochs": f"{epochs:.4g}",
        "valid_top1": _decimal(metrics["top1"] if metrics else None),
        "valid_from": _decimal(metrics["from"] if metrics else None),
        "torch": torch.__version__,
    }
    save_file({name: tensor.numpy() for name, tensor in tensors.items()},
              str(run_dir / "predictor.safetensors"), metadata=metadata)
    write_parity(tensors, data_dir, run_dir / "parity.safetensors")
    return metadata


def write_parity(tensors: dict[str, torch.Tensor], data_dir: Path, path: Path) -> None:
    """The first positions of the validation split (else train) with the exported
    network's head maps: [K, (2 + 2d) × 64], the 64 from-logits, the 64 to-logits, then
    the d query maps and the d key maps of 64 squares each."""
    split = load_split(Path(data_dir) / "valid") or load_split(Path(data_dir) / "train")
    if split is None:
        raise ValueError(f"{data_dir}: no positions for the parity file")
    boards = np.array(split.boards[:PARITY_POSITIONS])
    with torch.no_grad():
        planes = unpack_planes(torch.from_numpy(boards.view(np.int64)))
        logits = folded_forward(tensors, planes).reshape(len(boards), -1)
    save_file({"boards": boards, "logits": logits.numpy().astype(np.float32),
               "moves": np.array(split.moves[:PARITY_POSITIONS])},
              str(path), metadata={"format": "hastings-predictor-parity"})


def main(argv: list[str] | None = None) -> None:
    """Export RUNDIR/checkpoint.pt again."""
    parser = argparse.ArgumentParser(description="Export a run's checkpoint for Rust.")
    parser.add_argument("--run", type=Path, required=True, help="the run directory")
    parser.add_argument("--data", type=Path, help="the dataset (default: the run's --data)")
    args = parser.parse_args(argv)
    checkpoint = torch.load(args.run / "checkpoint.pt", map_location="cpu", weights_only=False)
    train_args = checkpoint["args"]
    model = ChessNet(train_args["blocks"], train_args["channels"], train_args.get("head_dim", 0))
    model.load_state_dict(checkpoint["model"])
    metadata = export(model, args.run, args.data or Path(train_args["data"]),
                      checkpoint["command"], checkpoint["epochs_done"], checkpoint["metrics"])
    print(metadata)


if __name__ == "__main__":
    main()
