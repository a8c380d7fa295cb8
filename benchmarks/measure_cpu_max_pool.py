"""What PyTorch's max pooling costs on a CPU, by memory layout (factors.toml [cpu.max_pool]).

    /path/to/python-with-torch benchmarks/measure_cpu_max_pool.py [--out FILE]

Runs with the trial's Python (one with torch), one PyTorch thread, CPU seconds (time.process_time), best of 7 after two
warm-up calls. torch.nn.functional.max_pool2d forward, and forward + backward, on the max pools of the built-in conv nets
(pytorch/examples' MNIST net: 2x2 over 64 x 24 x 24; torchvision's ResNet stem: 3x3 stride 2 over 64 x 112 x 112) and
two more shapes, in NCHW (PyTorch's default layout) and channels_last, fp32 and bf16. The NCHW forward is fitted as
a + b x window taps per output element (least squares over its rows): aten's max_pool2d CPU kernel walks each
output's window one element at a time in NCHW and vectorizes over the channels only in channels_last
(aten/src/ATen/native/cpu/MaxPoolKernel.cpp: cpu_max_pool against cpu_max_pool_channels_last).
"""

from __future__ import annotations

import argparse
import platform
import sys
from pathlib import Path

import torch
import torch.nn.functional as F  # noqa: N812
from bench_cpu_matrix_gain import best_cpu_seconds
from count_io import write_counts

# (N, C, H, W, window, stride)
SHAPES = [(64, 64, 24, 24, 2, 2), (8, 64, 112, 112, 3, 2), (128, 64, 32, 32, 2, 2), (64, 32, 26, 26, 2, 2)]



def _row(dtype: torch.dtype, shape: tuple, channels_last: bool) -> dict:
    n, c, h, w, k, s = shape
    x = torch.randn(n, c, h, w, dtype=dtype)
    if channels_last:
        x = x.contiguous(memory_format=torch.channels_last)
    x.requires_grad_()
    y = F.max_pool2d(x, k, s)
    g = torch.randn_like(y)

    def both():
        F.max_pool2d(x, k, s).backward(g)

    fwd = best_cpu_seconds(lambda: F.max_pool2d(x, k, s), 7)
    train = best_cpu_seconds(both, 7)
    return {"window_taps": k * k, "outputs": y.numel(), "forward_ms": round(fwd * 1e3, 3),
            "forward_ns_per_output": round(fwd / y.numel() * 1e9, 2),
            "backward_ns_per_input": round(max(train - fwd, 0.0) / x.numel() * 1e9, 3)}


def _fit(rows: list[dict]) -> dict:
    """ns per output = a + b x taps, least squares."""
    xs = [r["window_taps"] for r in rows]
    ys = [r["forward_ns_per_output"] for r in rows]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
    return {"ns_per_output": round(my - b * mx, 2), "ns_per_tap": round(b, 3)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "data" / "cpu-max-pool.json"))
    a = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    rows = {}
    for dtype in (torch.float32, torch.bfloat16):
        for shape in SHAPES:
            for cl in (False, True):
                key = f"{str(dtype).split('.')[1]} {'channels_last' if cl else 'NCHW'} {shape[:4]} window {shape[4]}"
                rows[key] = _row(dtype, shape, cl)
                print(key, rows[key], flush=True)
    nchw = [v for k, v in rows.items() if " NCHW " in k]
    fit = _fit(nchw)
    print("NCHW forward fit", fit)
    write_counts(a.out, __doc__, rows, machine=platform.machine(), cpu_capability=torch.backends.cpu.get_cpu_capability(),
                 nchw_forward_fit=fit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
