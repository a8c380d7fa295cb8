"""Does a CPU convolution run the multiplies that fall on its zero padding? (factors.toml [cpu.conv_padding])

    /path/to/python-with-torch benchmarks/measure_cpu_conv_padding.py [--out FILE]

Runs with the trial's Python (one with torch), one PyTorch thread, CPU seconds (time.process_time), best of 5 after two
warm-up calls. Each pair is one 3x3 convolution at the same batch, channels and output map, run twice: with padding 1 on
an m x m input, where the taps on the border fall on zeros, and with padding 0 on an (m + 2) x (m + 2) input, where
every tap is inside. Both do the same nominal multiply-adds (what FLOP counters count); a kernel that skips the
padded taps runs the first in the share of them that is inside, ((3m - 2) / 3m)^2. channels_last maps and weights, as
the trial runs its conv nets; forward alone and forward + backward (the input's and the weight's gradients).
"""

from __future__ import annotations

import argparse
import platform
import sys
from pathlib import Path

import torch
from bench_cpu_matrix_gain import best_cpu_seconds
from count_io import write_counts

# (channels, output map, batch): the CIFAR ResNet-18's stages at batch 128, ResNet-50's 56x56 and 7x7 at small batches
SHAPES = [(512, 4, 128), (256, 8, 128), (128, 16, 128), (64, 32, 128), (64, 56, 32), (512, 7, 8)]



def _pair(dtype: torch.dtype, c: int, m: int, b: int) -> dict:
    out = {}
    for pad in (1, 0):
        conv = torch.nn.Conv2d(c, c, 3, padding=pad, bias=False).to(dtype).to(memory_format=torch.channels_last)
        side = m + 2 * (1 - pad)
        x = torch.randn(b, c, side, side, dtype=dtype).to(memory_format=torch.channels_last).requires_grad_()
        g = torch.randn(b, c, m, m, dtype=dtype).to(memory_format=torch.channels_last)

        def both(conv=conv, x=x, g=g):
            conv(x).backward(g)

        out[pad] = (best_cpu_seconds(lambda conv=conv, x=x: conv(x), 5), best_cpu_seconds(both, 5))
    return {"forward_ms_padded": round(out[1][0] * 1e3, 2), "forward_ms_unpadded": round(out[0][0] * 1e3, 2),
            "forward_ratio": round(out[1][0] / out[0][0], 3), "train_ratio": round(out[1][1] / out[0][1], 3),
            "valid_tap_share": round(((3 * m - 2) / (3 * m)) ** 2, 3)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "data" / "cpu-conv-padding.json"))
    a = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    rows = {}
    for dtype in (torch.bfloat16, torch.float32):
        for c, m, b in SHAPES:
            key = f"{str(dtype).split('.')[1]} {c} channels, {m}x{m} output, batch {b}"
            rows[key] = _pair(dtype, c, m, b)
            print(key, rows[key], flush=True)
    write_counts(a.out, __doc__, rows, machine=platform.machine(), cpu_capability=torch.backends.cpu.get_cpu_capability())
    return 0


if __name__ == "__main__":
    sys.exit(main())
