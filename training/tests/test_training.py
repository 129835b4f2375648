"""Training, validation, checkpoint and resume, export and parity (CPU, small nets)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import chess
import numpy as np
import pytest
import torch
from safetensors import safe_open
from safetensors.numpy import load_file

from hastings_train.data import DeviceSplit, load_split, read_meta, unpack_planes
from hastings_train.evaluate import evaluate
from hastings_train.model import ChessNet, folded_forward
from make_fixture import encode_board, encode_move

from conftest import HEAD_DIM, TrainedRun, run_main


def progress(output: str) -> list[tuple[int, float]]:
    """(step, loss) of each progress line."""
    return [(int(step), float(loss))
            for step, loss in re.findall(r"^step=(\d+) .*loss=([\d.]+)", output, re.M)]


def trained_model(run_dir: Path) -> ChessNet:
    """The checkpoint's model, in eval mode."""
    checkpoint = torch.load(run_dir / "checkpoint.pt", weights_only=False)
    model = ChessNet(checkpoint["args"]["blocks"], checkpoint["args"]["channels"],
                     checkpoint["args"]["head_dim"])
    model.load_state_dict(checkpoint["model"])
    return model.eval()


def eval_split(data: Path):
    """The validation split, or train when there is none."""
    return load_split(data / "valid") or load_split(data / "train")


def move_logits(head: np.ndarray, legal: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """Each legal move's logit, written out apart from the trainer's `legal_logits`:
    from + to + Σᵢ queryᵢ[from] · keyᵢ[to] + prior[promotion]."""
    d = (head.shape[0] - 2) // 2
    f, t = legal & 63, (legal >> 6) & 63
    pair = sum(head[2 + i, f] * head[2 + d + i, t] for i in range(d))
    return head[0, f] + head[1, t] + pair + prior[legal >> 12]


def test_training_loss_falls_and_top1_beats_chance(trained: TrainedRun) -> None:
    losses = progress(trained.output)
    assert len(losses) >= 10
    assert losses[-1][1] < 0.9 * losses[0][1], losses
    model = trained_model(trained.run_dir)
    metrics = evaluate(model, DeviceSplit(eval_split(trained.data), torch.device("cpu")),
                       model.promotion_log_prior)
    assert metrics["top1"] > 2 * metrics["chance_top1"], metrics
    assert metrics["top3"] > metrics["top1"]


def test_log_has_one_line_per_epoch(trained: TrainedRun) -> None:
    lines = [json.loads(line) for line in (trained.run_dir / "log.jsonl").read_text().splitlines()]
    checkpoint = torch.load(trained.run_dir / "checkpoint.pt", weights_only=False)
    assert [line["epoch"] for line in lines] == [float(e) for e in range(1, len(lines) + 1)]
    assert len(lines) == checkpoint["args"]["epochs"] and all(line["complete"] for line in lines)
    if load_split(trained.data / "valid") is not None:
        assert lines[-1]["valid_top1"] == trained.metrics["top1"]
        assert set(lines[-1]["valid_top1_by_piece"]) == set("pnbrqk")


def test_evaluate_matches_a_plain_computation(trained: TrainedRun) -> None:
    split = eval_split(trained.data)
    model = trained_model(trained.run_dir)
    metrics = evaluate(model, DeviceSplit(split, torch.device("cpu")), model.promotion_log_prior,
                       batch_size=100)
    boards = np.array(split.boards).view(np.int64)
    with torch.no_grad():
        head = model(unpack_planes(torch.from_numpy(boards))).numpy()
    prior = model.promotion_log_prior.numpy()
    top1 = from_hits = 0
    for i, played in enumerate(split.moves.tolist()):
        legal = split.legal[int(split.offsets[i]):int(split.offsets[i + 1])].astype(np.int64)
        logits = move_logits(head[i], legal, prior)
        top1 += legal[np.argmax(logits)] == played
        froms = sorted(set((legal & 63).tolist()))
        from_hits += froms[int(np.argmax(head[i, 0, froms]))] == played & 63
    assert metrics["top1"] == pytest.approx(top1 / len(split.moves))
    assert metrics["from"] == pytest.approx(from_hits / len(split.moves))


def test_export_is_the_folded_net(trained: TrainedRun) -> None:
    path = trained.run_dir / "predictor.safetensors"
    tensors = {name: torch.from_numpy(t) for name, t in load_file(str(path)).items()}
    with safe_open(str(path), framework="numpy") as exported:
        metadata = exported.metadata()
    model = trained_model(trained.run_dir)
    boards = np.array(eval_split(trained.data).boards[:500]).view(np.int64)
    planes = unpack_planes(torch.from_numpy(boards))
    with torch.no_grad():
        assert torch.allclose(folded_forward(tensors, planes), model(planes), atol=1e-4, rtol=0)
    assert all(t.dtype == torch.float32 for t in tensors.values())
    assert tensors["stem.weight"].shape == (16, 14, 3, 3)
    assert tensors["head.weight"].shape == (2 + 2 * HEAD_DIM, 16, 3, 3)
    assert sorted(n for n in tensors if n.startswith("blocks.")) == sorted(
        f"blocks.{i}.{conv}.{part}"
        for i in range(2) for conv in ("conv1", "conv2") for part in ("weight", "bias"))
    prior = tensors["promotion_log_prior"]
    assert prior[0] == 0 and abs(float(torch.logsumexp(prior[1:], 0))) < 1e-5
    assert {k: metadata[k] for k in ("format", "architecture", "blocks", "channels", "encoding",
                                     "planes", "stem_activation", "block_activation",
                                     "head_dim")} == {
        "format": "hastings-predictor", "architecture": "chessnet", "blocks": "2",
        "channels": "16", "encoding": "1", "planes": "14", "stem_activation": "relu",
        "block_activation": "selu", "head_dim": str(HEAD_DIM)}
    assert metadata["dataset_sha256"] == read_meta(trained.data)["sha256"]
    assert metadata["command"].startswith("python -m hastings_train.train --data ")
    assert metadata["torch"] == torch.__version__
    assert float(metadata["epochs"]) >= 2
    if trained.metrics is not None:
        assert float(metadata["valid_top1"]) == pytest.approx(trained.metrics["top1"], abs=1e-6)
        assert float(metadata["valid_from"]) == pytest.approx(trained.metrics["from"], abs=1e-6)


def test_parity_file(trained: TrainedRun) -> None:
    parity = load_file(str(trained.run_dir / "parity.safetensors"))
    split = eval_split(trained.data)
    k = min(100, len(split))
    assert parity["boards"].dtype == np.uint64 and parity["boards"].shape == (k, 14)
    maps = 2 + 2 * HEAD_DIM
    assert parity["logits"].dtype == np.float32 and parity["logits"].shape == (k, maps * 64)
    assert parity["moves"].dtype == np.uint16 and parity["moves"].shape == (k,)
    assert (parity["boards"] == split.boards[:k]).all()
    assert (parity["moves"] == split.moves[:k]).all()
    tensors = {n: torch.from_numpy(t) for n, t in
               load_file(str(trained.run_dir / "predictor.safetensors")).items()}
    planes = unpack_planes(torch.from_numpy(parity["boards"].view(np.int64)))
    with torch.no_grad():
        logits = folded_forward(tensors, planes)
    assert np.allclose(parity["logits"].reshape(k, maps, 64), logits.numpy(), atol=1e-5)


def test_resume_repeats_the_uninterrupted_run(dataset: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    common = ["--data", str(dataset), "--blocks", "1", "--channels", "8", "--epochs", "2",
              "--batch", "512", "--log-every", "1", "--head-loss", "0.1"]
    steps_per_epoch = max(1, len(load_split(dataset / "train")) // 512)
    stop, end = steps_per_epoch // 2 + 1, steps_per_epoch + 3  # mid-epoch, then past an epoch
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    straight, _ = run_main(common + ["--out", str(whole), "--max-steps", str(end)])
    first, _ = run_main(common + ["--out", str(parts), "--max-steps", str(stop)])
    assert f"stopped at step {stop}" in first
    resumed, _ = run_main(common + ["--out", str(parts), "--max-steps", str(end), "--resume"])
    assert f"resuming at epoch 1, step {stop}" in resumed
    assert progress(resumed) == progress(straight)[stop:]
    assert progress(resumed)[0][0] == stop + 1
    a = torch.load(whole / "checkpoint.pt", weights_only=False)
    b = torch.load(parts / "checkpoint.pt", weights_only=False)
    assert a["global_step"] == b["global_step"] == end
    assert all(torch.equal(a["model"][name], b["model"][name]) for name in a["model"])
    assert (whole / "predictor.safetensors").read_bytes() != b""
    with pytest.raises(SystemExit, match="--channels 16 differs"):
        run_main(common[:4] + ["--channels", "16", "--out", str(parts), "--resume"])


@pytest.mark.parametrize("fen, count", [
    (chess.STARTING_FEN, 20),
    ("8/4P1k1/8/8/8/8/1p4K1/8 b - - 0 1", 11),  # promotions, Black to move
    ("r3k2r/8/8/8/3pP3/8/8/R3K2R b KQkq e3 0 1", 28),  # en passant and castling
])
def test_rust_predicts_with_the_export(trained: TrainedRun, fen: str, count: int) -> None:
    binary = os.environ.get("HASTINGS_BIN", "")
    if not (binary and shutil.which(binary)):
        reason = (f"HASTINGS_BIN={binary!r} is not an executable" if binary else
                  "HASTINGS_BIN is not set (point it at target/release/hastings to run this)")
        if os.environ.get("CI"):
            pytest.fail(f"CI is set: {reason}")
        pytest.skip(reason)
    weights = trained.run_dir / "predictor.safetensors"
    result = subprocess.run([binary, "predict", "--weights", str(weights), "--fen", fen, "--json"],
                            capture_output=True, text=True, timeout=120, check=True)
    moves = json.loads(result.stdout)["moves"]
    assert len(moves) == count and all({"uci", "san", "p"} <= set(m) for m in moves)
    assert sum(m["p"] for m in moves) == pytest.approx(1.0, abs=1e-4)
    board = chess.Board(fen)
    tensors = {n: torch.from_numpy(t) for n, t in load_file(str(weights)).items()}
    boards = np.array([encode_board(board)], dtype=np.uint64).view(np.int64)
    with torch.no_grad():
        head = folded_forward(tensors, unpack_planes(torch.from_numpy(boards)))[0]
    legal = list(board.legal_moves)
    codes = torch.tensor([encode_move(m, board.turn) for m in legal])
    logits = torch.from_numpy(move_logits(head.numpy(), codes.numpy(),
                                          tensors["promotion_log_prior"].numpy()))
    expected = dict(zip((m.uci() for m in legal), logits.softmax(0).tolist()))
    assert {m["uci"]: m["p"] for m in moves} == pytest.approx(expected, abs=1e-5)
    # hastings writes SAN without the check marks
    assert {m["san"].rstrip("+#") for m in moves} == {board.san(m).rstrip("+#") for m in legal}


def test_min_ply_keeps_the_later_positions(dataset: Path) -> None:
    split = load_split(dataset / "train")
    assert split.ply is not None
    lowest = int(np.min(split.ply))
    cut = lowest + 6
    kept = DeviceSplit(split, torch.device("cpu"), min_ply=cut)
    expected = np.asarray(split.ply) >= cut
    assert 0 < len(kept) == int(expected.sum()) < len(split)
    assert torch.equal(kept.moves, torch.from_numpy(split.moves[expected].astype(np.int32)))


def test_a_budget_spent_before_the_fit_still_ends_the_schedule_one_step_later() -> None:
    # On a loaded machine the timed steps can use up the whole budget: the schedule then
    # ends at the next step (CI saw the run end at the old schedule's learning rate).
    import time
    from types import SimpleNamespace

    from hastings_train.train import CosineWithWarmup, Trainer

    run = SimpleNamespace(global_step=300, schedule=CosineWithWarmup(100_000, 2_000),
                          steps_per_epoch=10)
    now = time.monotonic()
    Trainer.fit_schedule(run, budget_end=now - 1.0, timed_from=now - 3.0, timed_steps=250)
    assert run.schedule.total == 301
    assert run.schedule.warmup == 6
    assert run.schedule(301) == 0.0


def test_budget_ends_the_schedule_in_time(dataset: Path, tmp_path: Path) -> None:
    # 1000 epochs could never be trained in six seconds: the schedule is fitted to them.
    output, _ = run_main(["--data", str(dataset), "--out", str(tmp_path), "--blocks", "1",
                          "--channels", "8", "--epochs", "1000", "--batch", "64",
                          "--log-every", "50", "--budget-minutes", "0.1"])
    fitted = int(re.search(r"the schedule ends at step (\d+)", output).group(1))
    assert f"the schedule ended at step {fitted}" in output
    checkpoint = torch.load(tmp_path / "checkpoint.pt", weights_only=False)
    assert checkpoint["global_step"] == checkpoint["total_steps"] == fitted
    steps_per_epoch = max(1, len(load_split(dataset / "train")) // 64)
    assert fitted < 1000 * steps_per_epoch
    assert checkpoint["scheduler"]["_last_lr"][0] < 1e-3 * 2e-3 + 1e-9
    assert (tmp_path / "predictor.safetensors").exists()
