"""The host time a training loop spends per optimizer step besides the model's own operators.

Usage (a Python with torch, transformers and accelerate: the trial's, not gpucheck's):
    python benchmarks/measure_trainer_step_overhead.py [--steps 400] [--rounds 5] [--out FILE]

A model so small that its kernels cost nothing (one 8 × 8 linear layer and a mean-squared loss) is trained on the CPU
three ways for the same number of optimizer steps, each step with the same operators: forward, backward, gradient
clipping to norm 1.0, AdamW (foreach), a linear learning-rate schedule, zero_grad. What differs is the loop around
them:
- `plain`: a for-loop over a list of ready batches (the loop of a hand-written script: llm.c's, airbench's, nanoGPT's);
- `dataloader`: the same loop over torch.utils.data.DataLoader (batch 1, default collate, no workers);
- `trainer`: transformers.Trainer (report_to none, logging every 500 steps, no evaluation or saving), which adds its
  callbacks, accelerate's gradient-accumulation and autocast contexts, its loss bookkeeping and the DataLoader.
The per-step seconds of each, the median over rounds, and their differences are written as JSON. The differences are
host time the GPU waits for only when the step is too short to hide it; gpucheck's dispatch model prices the
operators themselves ([dispatch] launch_us per operator), so the per-step cost left to price is the difference
between a loop and the plain one, scaled to the reference clock of [dispatch] by this CPU's clock.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time

import torch
from count_io import write_counts
from torch import nn

BATCH_SHAPE = (1, 8)


class Tiny(nn.Module):
    """One 8 × 8 linear layer returning its mean-squared loss the way a Hugging Face model returns it."""

    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x: torch.Tensor, labels: torch.Tensor) -> dict:
        return {"loss": nn.functional.mse_loss(self.lin(x), labels)}


class Rows(torch.utils.data.Dataset):
    def __init__(self, n: int) -> None:
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(n, 8, generator=g)

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int) -> dict:
        return {"x": self.x[i], "labels": self.x[i]}


def _optim(model: nn.Module, steps: int):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, foreach=True)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: max(0.0, 1 - s / steps))
    return opt, sched


def _step(model, batch, opt, sched) -> None:
    loss = model(**batch)["loss"]
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    opt.zero_grad(set_to_none=True)


def _timed_loop(steps: int, batches_of) -> float:
    """Seconds per step of the same operators over `batches_of(data)`: a list of ready batches or a DataLoader."""
    torch.manual_seed(0)
    model, data = Tiny(), Rows(steps)
    opt, sched = _optim(model, steps)
    batches = batches_of(data)
    t0 = time.perf_counter()
    for b in batches:
        _step(model, b, opt, sched)
    return (time.perf_counter() - t0) / steps


def plain(steps: int) -> float:
    return _timed_loop(steps, lambda d: [{"x": d.x[i:i + 1], "labels": d.x[i:i + 1]} for i in range(steps)])


def dataloader(steps: int) -> float:
    return _timed_loop(steps, lambda d: torch.utils.data.DataLoader(d, batch_size=1))


def trainer(steps: int) -> float:
    import tempfile

    from transformers import Trainer, TrainingArguments

    torch.manual_seed(0)
    with tempfile.TemporaryDirectory() as tmp:
        args = TrainingArguments(output_dir=tmp, per_device_train_batch_size=1, max_steps=steps, learning_rate=1e-3,
                                 max_grad_norm=1.0, logging_steps=500, save_strategy="no", eval_strategy="no",
                                 report_to=[], use_cpu=True, disable_tqdm=True, dataloader_num_workers=0, seed=0)
        tr = Trainer(model=Tiny(), args=args, train_dataset=Rows(steps))
        out = tr.train()
    # the Trainer's own clock (train_runtime) covers its loop, not the model's construction
    return out.metrics["train_runtime"] / steps


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out")
    a = ap.parse_args()
    torch.set_num_threads(1)
    loops = {"plain": plain, "dataloader": dataloader, "trainer": trainer}
    per_round: dict[str, list[float]] = {k: [] for k in loops}
    for _ in range(a.rounds):
        for name, fn in loops.items():
            per_round[name].append(fn(a.steps))
    med = {k: statistics.median(v) for k, v in per_round.items()}
    over = {k: round((v - med["plain"]) * 1e3, 3) for k, v in med.items() if k != "plain"}
    print(json.dumps({"seconds_per_step": med, "over_plain_ms": over}))
    if a.out:
        write_counts(a.out, __doc__, per_round, transformers=__import__("transformers").__version__,
                     accelerate=__import__("accelerate").__version__,
                     processor=platform.processor() or platform.machine(), steps=a.steps, rounds=a.rounds,
                     seconds_per_step={k: round(v, 7) for k, v in med.items()}, over_plain_ms=over)
    return 0


if __name__ == "__main__":
    sys.exit(main())
