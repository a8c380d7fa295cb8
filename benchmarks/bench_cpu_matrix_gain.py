"""How much faster a CPU core runs the training step's matrix kernels in bf16 than in fp32: the figure behind
factors.toml [cpu.bf16] (amx_gemm_gain on cores with AMX).

    python benchmarks/bench_cpu_matrix_gain.py [--out FILE]     # with the Python that has torch (.venv-trial)

One PyTorch thread; each layer's forward + backward in fp32 and in bf16 (modules and inputs in that dtype, no
autocast: the speed model prices autocast's casts apart, in the memory-bound part), timed as the process's CPU
seconds (best of 4) at the shapes of the five CPU trial jobs' convolutions (ResNet stages, MNIST's second
convolution) and of their linear layers (BERT-base, GPT-2 at 256 and 1,024 rows). The gain is the median over
shapes. Writes benchmarks/data/calibration-cpu-matrix-gain.json by default.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "data" / "calibration-cpu-matrix-gain.json"
CONVS = [(32, 64, 56, 64), (128, 64, 32, 64), (8, 256, 14, 256), (64, 32, 26, 64), (16, 128, 28, 128),
         (128, 512, 4, 512)]  # batch, channels in, map size, channels out; 3×3, padding 1
LINEARS = [(256, 768, 768), (256, 768, 3072), (1024, 768, 3072), (1024, 768, 768), (2048, 1024, 4096)]


def best_cpu_seconds(fn, reps: int = 4) -> float:
    fn()
    fn()
    best = float("inf")
    for _ in range(reps):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def _rates(torch, make, flops: float) -> dict[str, float]:
    out = {}
    for dtype in (torch.float32, torch.bfloat16):
        module, x, grad = make(dtype)

        def step(module=module, x=x, grad=grad):
            module(x).backward(grad)
        out[str(dtype).split(".")[1] + "_gflops"] = round(flops / best_cpu_seconds(step) / 1e9, 1)
    out["gain"] = round(out["bfloat16_gflops"] / out["float32_gflops"], 2)
    return out


def measure() -> dict:
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(0)
    rows: dict[str, dict[str, float]] = {}
    for b, c, h, o in CONVS:
        def conv(dtype, b=b, c=c, h=h, o=o):
            layer = torch.nn.Conv2d(c, o, 3, padding=1, bias=False).to(dtype)
            return layer, torch.randn(b, c, h, h, dtype=dtype, requires_grad=True), torch.randn(b, o, h, h, dtype=dtype)
        rows[f"conv3x3 batch {b}, {c}->{o} channels, {h}x{h}"] = _rates(torch, conv, 3 * 2 * b * o * c * 9 * h * h)
    for m, k, n in LINEARS:
        def linear(dtype, m=m, k=k, n=n):
            layer = torch.nn.Linear(k, n).to(dtype)
            return layer, torch.randn(m, k, dtype=dtype, requires_grad=True), torch.randn(m, n, dtype=dtype)
        rows[f"linear {m} rows, {k}->{n}"] = _rates(torch, linear, 6 * m * k * n)
    flags = ""
    try:
        flags = " ".join(sorted({f for line in Path("/proc/cpuinfo").read_text().splitlines()
                                 if line.startswith("flags") for f in line.split(":", 1)[1].split()
                                 if f.startswith(("amx", "avx512_bf16", "avx512f", "avx2"))}))
    except OSError:
        pass
    return {"about": "benchmarks/bench_cpu_matrix_gain.py: forward + backward, one thread, CPU seconds, best of 4",
            "torch": torch.__version__, "cpu_capability": torch.backends.cpu.get_cpu_capability(),
            "machine": platform.processor() or platform.machine(), "flags": flags, "rows": rows,
            "median_gain": round(statistics.median(r["gain"] for r in rows.values()), 2),
            "median_gain_convolutions": round(statistics.median(r["gain"] for k, r in rows.items()
                                                                if k.startswith("conv")), 2),
            "median_gain_linear": round(statistics.median(r["gain"] for k, r in rows.items()
                                                          if k.startswith("linear")), 2)}


def linear_shares(paths: list[Path]) -> list[float]:
    """The share of its vector units' peak each linear layer reached in these files, where the file states the peak
    at the clock it ran (`vector_peak_gflops`, by dtype): fp32 and bf16 on the vector units, not AMX's tiles (a file
    without a bf16 peak ran bf16 on AMX). factors.toml [cpu] linear_efficiency is their median."""
    out = []
    for path in paths:
        d = json.loads(path.read_text())
        peaks = d.get("vector_peak_gflops", {})
        for name, r in d["rows"].items():
            if name.startswith("linear"):
                out += [r[f"{dt}_gflops"] / peaks[dt] for dt in ("float32", "bfloat16") if dt in peaks]
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(OUT))
    a = ap.parse_args()
    data = measure()
    for name, r in data["rows"].items():
        print(f"{r['float32_gflops']:8.1f} {r['bfloat16_gflops']:8.1f}  ×{r['gain']:.2f}  {name}")
    print("median gain", data["median_gain"])
    Path(a.out).write_text(json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
