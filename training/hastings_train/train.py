"""Train ChessNet on a predictor dataset and export it.

    python -m hastings_train.train --data DIR --out RUNDIR [--blocks 6] [--channels 64]
        [--epochs 4] [--batch 1024] [--lr 2e-3] [--weight-decay 1e-4] [--seed 0]
        [--head-dim 0] [--min-ply 0] [--valid-min-ply 8] [--head-loss 0]
        [--device auto|cpu|cuda] [--resume] [--max-minutes M] [--budget-minutes M]
        [--max-steps S] [--log-every 200] [--threads T] [--compile] [--amp]

The whole dataset is put on the device and batches are indexed there. Each epoch visits
the training positions in an order drawn from (seed, epoch) alone, so `--resume` from a
checkpoint taken in the middle of an epoch goes on at the next batch of that epoch and
repeats the uninterrupted run step for step (bit for bit on CPU; on CUDA up to the
non-determinism of its kernels).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch

from .data import (DeviceSplit, load_split, mirror_files, promotion_log_prior, read_meta,
                   unpack_planes)
from .evaluate import evaluate
from .export import export
from .loss import training_loss
from .model import ChessNet

# Options that define the training run: taken from the checkpoint on --resume.
HYPERPARAMETERS = {"blocks": 6, "channels": 64, "head_dim": 0, "epochs": 4, "batch": 1024,
                   "lr": 2e-3, "weight_decay": 1e-4, "seed": 0, "head_loss": 0.0,
                   "mirror": 0.0, "min_ply": 0, "valid_min_ply": 8}
WARMUP_FRACTION = 0.02
MAX_WARMUP_STEPS = 1000
# --budget-minutes: the steps timed to fit the schedule to the time left (after the
# first few, which include cuDNN's autotuning), and the share of the time kept back for
# validation, the checkpoint and the export.
BUDGET_SKIP_STEPS = 50
BUDGET_TIMED_STEPS = 250
BUDGET_RESERVE = 0.04


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line; the hyper-parameters are None when not given."""
    parser = argparse.ArgumentParser(description="Train the Hastings move predictor (ChessNet).")
    parser.add_argument("--data", type=Path, required=True, help="dataset directory")
    parser.add_argument("--out", type=Path, required=True, help="run directory")
    parser.add_argument("--blocks", type=int, help="residual blocks (6)")
    parser.add_argument("--channels", type=int, help="convolution channels (64)")
    parser.add_argument("--head-dim", type=int,
                        help="query and key maps of the head whose dot product scores a "
                             "move's (from, to) pair; 0 is the seed's head (0)")
    parser.add_argument("--min-ply", type=int,
                        help="train on the positions after this many half-moves (0)")
    parser.add_argument("--valid-min-ply", type=int,
                        help="validate on the positions after this many half-moves (8)")
    parser.add_argument("--epochs", type=int, help="epochs (4)")
    parser.add_argument("--batch", type=int, help="batch size (1024)")
    parser.add_argument("--lr", type=float, help="peak learning rate of AdamW (2e-3)")
    parser.add_argument("--weight-decay", type=float,
                        help="AdamW weight decay of the convolution weights (1e-4)")
    parser.add_argument("--seed", type=int, help="seed of the initialisation and batch order (0)")
    parser.add_argument("--mirror", type=float,
                        help="flip the files (a↔h) of positions without castling rights with "
                             "this probability, an augmentation (0)")
    parser.add_argument("--head-loss", type=float,
                        help="weight of the from- and to-square cross-entropies (0)")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    parser.add_argument("--resume", action="store_true", help="go on from RUNDIR/checkpoint.pt")
    parser.add_argument("--max-minutes", type=float,
                        help="stop cleanly (checkpoint, validation, export) after this long")
    parser.add_argument("--budget-minutes", type=float,
                        help="fit the learning-rate schedule to this many minutes: after "
                             f"{BUDGET_SKIP_STEPS + BUDGET_TIMED_STEPS} steps the speed is "
                             "measured and the cosine decay ends when the time is up "
                             "(--epochs is then the most that is trained)")
    parser.add_argument("--max-steps", type=int,
                        help="stop cleanly once this many optimiser steps are done in all")
    parser.add_argument("--log-every", type=int, default=200, help="steps between progress lines")
    parser.add_argument("--threads", type=int, help="CPU threads for torch (default: torch's)")
    parser.add_argument("--compile", action="store_true", help="torch.compile the training forward")
    parser.add_argument("--amp", action="store_true", help="bfloat16 autocast (CUDA only)")
    return parser.parse_args(argv)


class CosineWithWarmup:
    """LR factor: linear warm-up over `warmup` steps, then cosine decay to 0 at `total`."""

    def __init__(self, total: int, warmup: int) -> None:
        self.total = total
        self.warmup = warmup

    def __call__(self, step: int) -> float:
        if step < self.warmup:
            return (step + 1) / self.warmup
        progress = (step - self.warmup) / max(1, self.total - self.warmup)
        return 0.5 * (1.0 + math.cos(math.pi * min(1.0, progress)))


def pick_device(name: str) -> torch.device:
    """CUDA when asked for or, with "auto", when present; else the CPU."""
    if name == "cuda" or (name == "auto" and torch.cuda.is_available()):
        return torch.device("cuda")
    return torch.device("cpu")


def epoch_order(seed: int, epoch: int, n: int, device: torch.device) -> torch.Tensor:
    """The permutation of the training positions for one epoch, from (seed, epoch) only."""
    generator = torch.Generator().manual_seed(seed * 1_000_003 + epoch)
    return torch.randperm(n, generator=generator).to(device)


def rng_states() -> dict:
    """The global random states, for the checkpoint."""
    states = {"torch": torch.get_rng_state(), "numpy": np.random.get_state()}
    if torch.cuda.is_available():
        states["cuda"] = torch.cuda.get_rng_state_all()
    return states


def set_rng_states(states: dict) -> None:
    """Restore what `rng_states` saved."""
    torch.set_rng_state(states["torch"])
    np.random.set_state(states["numpy"])
    if "cuda" in states and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(states["cuda"])


def make_optimizer(model: ChessNet, lr: float, weight_decay: float) -> torch.optim.AdamW:
    """AdamW with weight decay on the convolution weights only (not biases, not BN)."""
    decay = [p for p in model.parameters() if p.dim() > 1]
    no_decay = [p for p in model.parameters() if p.dim() <= 1]
    return torch.optim.AdamW([{"params": decay, "weight_decay": weight_decay},
                              {"params": no_decay, "weight_decay": 0.0}], lr=lr)


def log_line(path: Path, record: dict) -> None:
    """Append `record` to log.jsonl and print it."""
    line = json.dumps(record)
    with open(path, "a") as log:
        log.write(line + "\n")
    print(line, flush=True)


def resolve_hyperparameters(args: argparse.Namespace, checkpoint: dict | None) -> dict:
    """The run's hyper-parameters: the defaults overridden by the command line, or on
    --resume the checkpoint's, which the command line may repeat but not change."""
    # A checkpoint of an older trainer lacks the newer options: theirs were the defaults.
    hyper = dict(HYPERPARAMETERS, **({} if checkpoint is None else checkpoint["args"]))
    for name in HYPERPARAMETERS:
        given = getattr(args, name)
        if given is not None and checkpoint is not None and given != hyper[name]:
            raise SystemExit(f"--resume: --{name.replace('_', '-')} {given} differs from the "
                             f"checkpoint's {hyper[name]}")
        if given is not None:
            hyper[name] = given
    hyper["data"] = str(args.data)
    return hyper


class Trainer:
    """One training run: the data and model on the device, the optimiser and schedule,
    and where the run stands (epoch, step in it, steps done)."""

    def __init__(self, args: argparse.Namespace, command: str) -> None:
        self.args = args
        self.run_dir: Path = args.out
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.checkpoint_path = self.run_dir / "checkpoint.pt"
        checkpoint = None
        if args.resume:
            if not self.checkpoint_path.exists():
                raise SystemExit(f"--resume: no {self.checkpoint_path}")
            checkpoint = torch.load(self.checkpoint_path, map_location="cpu", weights_only=False)
        self.hyper = resolve_hyperparameters(args, checkpoint)
        torch.manual_seed(self.hyper["seed"])
        np.random.seed(self.hyper["seed"])

        self.device = pick_device(args.device)
        cuda = self.device.type == "cuda"
        if cuda:
            torch.backends.cudnn.benchmark = True
            torch.set_float32_matmul_precision("high")
        if args.amp and not cuda:
            print("--amp: bfloat16 autocast is used on CUDA only; training in float32",
                  flush=True)
        self.autocast: Callable[[], contextlib.AbstractContextManager] = (
            (lambda: torch.autocast("cuda", dtype=torch.bfloat16)) if args.amp and cuda
            else contextlib.nullcontext)
        self.memory_format = torch.channels_last if cuda else torch.contiguous_format

        read_meta(args.data)
        train_split = load_split(args.data / "train")
        if train_split is None:
            raise SystemExit(f"{args.data}/train: no positions")
        valid_split = load_split(args.data / "valid")
        self.train = DeviceSplit(train_split, self.device, self.hyper["min_ply"])
        if len(self.train) == 0:
            raise SystemExit(f"{args.data}/train: no positions from ply {self.hyper['min_ply']}")
        self.valid = (None if valid_split is None
                      else DeviceSplit(valid_split, self.device, self.hyper["valid_min_ply"]))
        if self.valid is not None and len(self.valid) == 0:
            self.valid = None

        self.model = ChessNet(self.hyper["blocks"], self.hyper["channels"],
                              self.hyper["head_dim"])
        self.model.promotion_log_prior.copy_(promotion_log_prior(train_split.moves))
        self.model.to(device=self.device, memory_format=self.memory_format)
        self.optimizer = make_optimizer(self.model, self.hyper["lr"], self.hyper["weight_decay"])
        self.batch_size = self.hyper["batch"]
        self.steps_per_epoch = max(1, len(self.train) // self.batch_size)
        total = self.hyper["epochs"] * self.steps_per_epoch
        warmup = max(1, min(MAX_WARMUP_STEPS, round(WARMUP_FRACTION * total)))
        self.schedule = CosineWithWarmup(total, warmup)
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, self.schedule)
        self.epoch, self.step_in_epoch, self.global_step = 0, 0, 0
        self.metrics: dict | None = None
        self.command = command
        self.last_validated_step = -1
        # --budget-minutes: (when the timed steps began, the step the run began at).
        self.budget_timing: tuple[float, int] | None = None
        if checkpoint is not None:
            self.model.load_state_dict(checkpoint["model"])
            self.optimizer.load_state_dict(checkpoint["optimizer"])
            self.scheduler.load_state_dict(checkpoint["scheduler"])
            self.epoch, self.step_in_epoch = checkpoint["epoch"], checkpoint["step_in_epoch"]
            self.global_step, self.metrics = checkpoint["global_step"], checkpoint["metrics"]
            self.command = checkpoint["command"]
            self.schedule.total = checkpoint.get("total_steps", total)
            self.last_validated_step = self.global_step
            set_rng_states(checkpoint["rng"])
            print(f"resuming at epoch {self.epoch + 1}, step {self.global_step}", flush=True)
        self.forward = torch.compile(self.model) if args.compile else self.model
        print(f"device {self.device}, {len(self.train)} training positions, "
              f"{0 if self.valid is None else len(self.valid)} validation, "
              f"{self.steps_per_epoch} steps per epoch, "
              f"{sum(p.numel() for p in self.model.parameters())} parameters", flush=True)

    def train_step(self, index: torch.Tensor) -> torch.Tensor:
        """One optimiser step on the training positions at `index`; the loss (on device)."""
        batch = self.train.batch(index)
        planes = unpack_planes(batch.boards)
        if self.hyper.get("mirror", 0.0) > 0:
            batch, planes = mirror_files(batch, planes, self.hyper["mirror"])
        planes = planes.contiguous(memory_format=self.memory_format)
        with self.autocast():
            head = self.forward(planes)
        loss = training_loss(head, batch, self.model.promotion_log_prior, self.hyper["head_loss"])
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        self.scheduler.step()
        self.step_in_epoch += 1
        self.global_step += 1
        return loss.detach()

    def out_of_time(self, deadline: float | None) -> bool:
        """Whether --max-minutes, --max-steps or the end of the schedule says to stop now."""
        return ((deadline is not None and time.monotonic() >= deadline)
                or (self.args.max_steps is not None and self.global_step >= self.args.max_steps)
                or self.global_step >= self.schedule.total)

    def synchronize(self) -> None:
        """Wait for the device's queued work (so that a clock read times it)."""
        if self.device.type == "cuda":
            torch.cuda.synchronize()

    def fit_schedule(self, budget_end: float, timed_from: float, timed_steps: int) -> None:
        """Shorten the schedule so that its cosine decay ends at `budget_end`, at the speed
        of the last `timed_steps` steps (timed since `timed_from`)."""
        seconds_per_step = (time.monotonic() - timed_from) / timed_steps
        left = (budget_end - time.monotonic()) * (1 - BUDGET_RESERVE)
        # At least one more step, even when the budget is spent already (a loaded
        # machine): the step after the fit is what sets the learning rate of the new
        # schedule's end; without it the run ended at the old schedule's rate.
        fitted = self.global_step + max(1, int(left / seconds_per_step))
        if fitted < self.schedule.total:
            self.schedule.total = fitted
            self.schedule.warmup = min(self.schedule.warmup, max(1, fitted // 50))
        print(f"budget: {1 / seconds_per_step:.1f} steps/s, the schedule ends at step "
              f"{self.schedule.total} ({self.schedule.total / self.steps_per_epoch:.2f} epochs)",
              flush=True)

    def run_epoch(self, deadline: float | None, budget_end: float | None = None) -> bool:
        """Train to the end of the current epoch, or until told to stop; validate, log
        and checkpoint. Return whether training was stopped early."""
        order = epoch_order(self.hyper["seed"], self.epoch, len(self.train), self.device)
        start, steps = time.monotonic(), 0
        epoch_loss = torch.zeros((), device=self.device)
        window_loss = torch.zeros((), device=self.device)
        window_start, window_steps = start, 0
        stopped = False
        while self.step_in_epoch < self.steps_per_epoch:
            if self.out_of_time(deadline):
                stopped = True
                break
            lo = self.step_in_epoch * self.batch_size
            loss = self.train_step(order[lo:lo + self.batch_size])
            steps += 1
            if budget_end is not None and self.budget_timing is not None:
                timed_from, first_step = self.budget_timing
                if self.global_step == first_step + BUDGET_SKIP_STEPS:
                    self.synchronize()
                    self.budget_timing = (time.monotonic(), first_step)
                elif self.global_step == first_step + BUDGET_SKIP_STEPS + BUDGET_TIMED_STEPS:
                    self.synchronize()
                    self.fit_schedule(budget_end, timed_from, BUDGET_TIMED_STEPS)
                    self.budget_timing = None
            epoch_loss += loss
            window_loss += loss
            window_steps += 1
            if self.global_step % self.args.log_every == 0:
                positions = window_steps * min(self.batch_size, len(self.train))
                rate = positions / (time.monotonic() - window_start)
                print(f"step={self.global_step} epoch={self.epoch + 1} positions/s={rate:.0f} "
                      f"loss={window_loss.item() / window_steps:.4f} "
                      f"lr={self.scheduler.get_last_lr()[0]:.6g}", flush=True)
                window_loss.zero_()
                window_start, window_steps = time.monotonic(), 0
        if stopped and self.global_step == self.last_validated_step:
            return True
        seconds = time.monotonic() - start
        if not stopped:
            self.epoch, self.step_in_epoch = self.epoch + 1, 0
        self.validate_and_log(not stopped, epoch_loss.item() / steps if steps else None,
                              seconds, min(steps * self.batch_size, len(self.train)))
        self.save_checkpoint()
        return stopped

    def validate_and_log(self, complete: bool, train_loss: float | None, seconds: float,
                         positions: int) -> None:
        """Validate (when there is a validation split) and append the epoch's log line."""
        record = {"epoch": round(self.global_step / self.steps_per_epoch, 4),
                  "step": self.global_step, "complete": complete, "train_loss": train_loss,
                  "lr": self.scheduler.get_last_lr()[0], "seconds": round(seconds, 1),
                  "positions_per_s": round(positions / max(seconds, 1e-9))}
        if self.valid is not None:
            self.model.eval()
            self.metrics = evaluate(self.model, self.valid, self.model.promotion_log_prior,
                                    autocast=self.autocast, memory_format=self.memory_format)
            self.model.train()
            record.update({f"valid_{name}": value for name, value in self.metrics.items()})
        self.last_validated_step = self.global_step
        log_line(self.run_dir / "log.jsonl", record)

    def save_checkpoint(self) -> None:
        """Write RUNDIR/checkpoint.pt (through a temporary file)."""
        state = {"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                 "scheduler": self.scheduler.state_dict(), "epoch": self.epoch,
                 "step_in_epoch": self.step_in_epoch, "global_step": self.global_step,
                 "epochs_done": self.global_step / self.steps_per_epoch,
                 "total_steps": self.schedule.total,
                 "metrics": self.metrics, "rng": rng_states(), "args": self.hyper,
                 "command": self.command}
        temporary = self.checkpoint_path.with_suffix(".pt.tmp")
        torch.save(state, temporary)
        os.replace(temporary, self.checkpoint_path)

    def run(self) -> dict | None:
        """Train the remaining epochs (or until --max-minutes/--max-steps), then export;
        return the last validation metrics."""
        now = time.monotonic()
        deadline = None if self.args.max_minutes is None else now + 60 * self.args.max_minutes
        budget_end = (None if self.args.budget_minutes is None
                      else now + 60 * self.args.budget_minutes)
        self.budget_timing = (now, self.global_step)
        self.model.train()
        stopped = False
        while self.epoch < self.hyper["epochs"] and not stopped:
            stopped = self.run_epoch(deadline, budget_end)
        if stopped and self.global_step >= self.schedule.total:
            print(f"the schedule ended at step {self.global_step} "
                  f"({self.global_step / self.steps_per_epoch:.2f} epochs)", flush=True)
        elif stopped:
            print(f"stopped at step {self.global_step} (epoch {self.epoch + 1}, step "
                  f"{self.step_in_epoch} of {self.steps_per_epoch}); --resume goes on from there",
                  flush=True)
        self.model.eval()
        export(self.model, self.run_dir, self.args.data, self.command,
               self.global_step / self.steps_per_epoch, self.metrics)
        print(f"exported {self.run_dir / 'predictor.safetensors'}", flush=True)
        return self.metrics


def main(argv: list[str] | None = None) -> dict | None:
    """Train (or resume), validate each epoch, checkpoint, export; return the last
    validation metrics (None without a validation split)."""
    args = parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    command = "python -m hastings_train.train " + shlex.join(sys.argv[1:] if argv is None else argv)
    return Trainer(args, command).run()


if __name__ == "__main__":
    main()
