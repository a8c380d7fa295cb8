"""What a busy CPU does to a trial's figures: wall-clock step and CPU seconds per step and thread, with one PyTorch
thread and with all of them, alone and beside programs that keep every core busy.

Why (gpucheck/trial/calibrate.py): on a busy PC the wall-clock step stretches by however much the other programs
take, so calibrate once used the step's CPU seconds per thread instead. That holds for one thread. With several, the
threads meet at a barrier after every parallel region (OpenMP; PyTorch's default wait policy spins before it
sleeps), and a thread whose partner was pre-empted spins on the CPU until it returns: the CPU seconds grow with the
load too. This measures by how much.

Run: .venv-trial/bin/python benchmarks/bench_busy_threads.py [--steps 4] [--out benchmarks/data/busy-threads.json]
(a CIFAR ResNet-18 step, batch 64, the precision the estimate uses on this CPU; the hogs are plain Python loops).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import statistics
import time
from pathlib import Path


def _hog(stop) -> None:  # noqa: ANN001 — a multiprocessing.Event
    while not stop.is_set():
        pass


def _step_fn(threads: int, bf16: bool):
    import torch
    import torchvision

    torch.set_num_threads(threads)
    torch.manual_seed(0)
    m = torchvision.models.resnet18(num_classes=10)
    m.conv1 = torch.nn.Conv2d(3, 64, 3, 1, 1, bias=False)  # the CIFAR stem of gpucheck's cifar10-resnet18 job
    m.maxpool = torch.nn.Identity()
    opt = torch.optim.AdamW(m.parameters())
    x, y = torch.randn(64, 3, 32, 32), torch.randint(0, 10, (64,))

    def step() -> None:
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            loss = torch.nn.functional.cross_entropy(m(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()

    return step


def _measure(threads: int, bf16: bool, steps: int) -> dict:
    step = _step_fn(threads, bf16)
    step()  # warm-up
    walls, cpus = [], []
    for _ in range(steps):
        t, c = time.perf_counter(), time.process_time()
        step()
        walls.append(time.perf_counter() - t)
        cpus.append((time.process_time() - c) / threads)
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    return {"threads": threads, "wall_s": round(wall, 4), "cpu_s_per_thread": round(cpu, 4),
            "share": round(cpu / wall, 3)}


def _run(threads: int, hogs: int, bf16: bool, steps: int) -> dict:
    stop = multiprocessing.Event()
    procs = [multiprocessing.Process(target=_hog, args=(stop,), daemon=True) for _ in range(hogs)]
    for p in procs:
        p.start()
    try:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(1) as pool:  # a fresh interpreter: the thread count is set before any parallel region
            out = pool.apply(_measure, (threads, bf16, steps))
    finally:
        stop.set()
        for p in procs:
            p.join(timeout=5)
    return dict(out, hogs=hogs, load_average_after=round(os.getloadavg()[0], 2))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--fp32", action="store_true", help="fp32 instead of bf16 autocast")
    ap.add_argument("--out")
    a = ap.parse_args()
    cores = os.cpu_count() or 1
    rows = []
    for hogs in (0, cores):
        for threads in sorted({1, cores}):
            r = _run(threads, hogs, not a.fp32, a.steps)
            rows.append(r)
            print(json.dumps(r), flush=True)
    import torch

    doc = {"what": __doc__.split("\n\n")[0], "cpu": platform.processor() or platform.machine(), "logical_cpus": cores,
           "torch": torch.__version__, "precision": "fp32" if a.fp32 else "bf16", "job": "CIFAR ResNet-18, batch 64",
           "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "rows": rows}
    if a.out:
        Path(a.out).write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
