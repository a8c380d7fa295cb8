"""How a CPU step's two kinds of work grow with PyTorch's threads: the memory-bound kernels' bytes per second and the
linear layers' GFLOP/s by rows — factors.toml [cpu.core_mem_bandwidth_gbps] and the rows term
(gpucheck/estimate/cpu_core.py cpu_rows_efficiency).

    python benchmarks/measure_cpu_threads.py OUT.json [--threads 1 2 ...]

Runs with a Python that has torch (the trial's). Wall-clock medians on an idle machine (the load average is kept):
- streaming kernels over 64 Mi elements (256 MiB in fp32, far above any cache): copy_, an out-of-place add, an
  in-place mul_ and a ReLU, fp32 and bf16, as bytes read and written per second (what gpucheck's element-wise traffic
  counts; an out-of-place write also reads its line for ownership, which is not counted);
- pure bf16 linear layers at BERT / GPT-2 block shapes (768×768, 768×3,072, 3,072×768), forward + backward, by rows
  (tokens per call), 32 to 1,024: whether more threads split a call's rows (each thread then sees rows ÷ threads, and
  the per-call cost grows with the threads) or its columns (each keeps every row).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROWS = (32, 64, 128, 256, 512, 1024)
SHAPES = ((768, 768), (768, 3072), (3072, 768))


def timed(fn, n: int = 7) -> float:
    """Wall-clock median of `n` calls after two warm-up calls."""
    fn()
    fn()
    xs = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        xs.append(time.perf_counter() - t)
    return statistics.median(xs)


def _gbps(nbytes: float, fn) -> float:
    return round(nbytes / timed(fn, 5) / 1e9, 1)


def streaming(torch) -> dict[str, float]:
    out = {}
    for dt_name, dtype in (("fp32", torch.float32), ("bf16", torch.bfloat16)):
        a = torch.randn(64 * 2**20).to(dtype)
        b = torch.randn(64 * 2**20).to(dtype)
        c = torch.empty_like(a)
        e = a.element_size() * a.numel()
        out[f"{dt_name} copy_ (read 1, write 1)"] = _gbps(2 * e, lambda a=a, c=c: c.copy_(a))
        out[f"{dt_name} add, out= (read 2, write 1)"] = _gbps(3 * e, lambda a=a, b=b, c=c: torch.add(a, b, out=c))
        out[f"{dt_name} mul_ in place (read 1, write 1)"] = _gbps(2 * e, lambda b=b: b.mul_(1.0))
        out[f"{dt_name} relu, out= (read 1, write 1)"] = _gbps(2 * e, lambda a=a, c=c: torch.clamp_min(a, 0.0, out=c))
    return out


def _linear_step(lin, x):
    def step():
        lin.weight.grad = None
        x.grad = None
        lin(x).float().sum().backward()
    return step


def linear_rows(torch) -> dict[str, dict[int, float]]:
    out = {}
    for k, n in SHAPES:
        lin = torch.nn.Linear(k, n).to(torch.bfloat16)
        rates = {}
        for r in ROWS:
            x = torch.randn(r, k, dtype=torch.bfloat16, requires_grad=True)
            rates[r] = round(6 * r * k * n / timed(_linear_step(lin, x)) / 1e9)
        out[f"linear {k}x{n} bf16, forward + backward, GFLOP/s by rows"] = rates
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--threads", type=int, nargs="*")
    a = ap.parse_args()
    import torch

    threads = a.threads or sorted({1, 2, os.cpu_count() or 1})
    load = [os.getloadavg()[0]]
    res: dict[str, dict] = {}
    for th in threads:
        torch.set_num_threads(th)
        res[str(th)] = {"streaming GB/s (bytes read + written)": streaming(torch), **linear_rows(torch)}
        load.append(os.getloadavg()[0])
    out = {"about": __doc__.split("\n\n")[0], "at": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
           "cpu": platform.processor() or platform.machine(), "torch": torch.__version__,
           "cores": os.cpu_count(), "load_average": [round(min(load), 2), round(max(load), 2)], "by_threads": res}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            out["cpu"] = next(x.split(":", 1)[1].strip() for x in fh if x.startswith("model name"))
    except (OSError, StopIteration):
        pass
    Path(a.out).write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
