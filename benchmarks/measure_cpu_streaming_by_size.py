"""How fast one core streams PyTorch's element-wise kernels by the size of their tensors: from the caches or from
memory. The figure behind docs/accuracy.md's note on the Intel Xeon's L3 cache ("Calibration on this PC").

    /path/to/python-with-torch benchmarks/measure_cpu_streaming_by_size.py [--out FILE]

Runs with the trial's Python (one with torch), one PyTorch thread, wall-clock median of 9 calls after two warm-up
calls (each call repeats the kernel up to 64 MiB of work, so small tensors are timed over many passes). An
out-of-place add (reads 2, writes 1), a clamp_min into a preallocated output (ReLU's forward: reads 1, writes 1) and a
copy_ (reads 1, writes 1), fp32 and bf16, on tensors of 0.5 MiB to 1 GiB: bytes read and written per second, as
gpucheck's element-wise traffic counts them (an out-of-place write also reads its line for ownership, not counted).
The core's clock is measured before and after, as the scan measures it (gpucheck/probe/clock.py): a VM's host
may change it between runs. The speed model prices these kernels at one core's rate from memory ([cpu.core_mem_bandwidth_gbps], measured at
256 MiB by benchmarks/measure_cpu_threads.py); a tensor that stays in the caches runs faster.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

import torch
from count_io import write_counts
from measure_cpu_threads import timed

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gpucheck.probe.clock import measure_core_clock_mhz  # noqa: E402  (the scan's own clock measurement)

SIZES_MIB = (0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)


def _rates(dtype: torch.dtype, mib: float) -> dict[str, float]:
    n = int(mib * 2**20 / torch.empty((), dtype=dtype).element_size())
    gen = torch.Generator().manual_seed(0)
    a = torch.randn(n, generator=gen).to(dtype)
    b = torch.randn(n, generator=gen).to(dtype)
    c = torch.empty_like(a)
    reps = max(1, int(64 / mib))
    kernels = {"add (read 2, write 1)": (lambda: torch.add(a, b, out=c), 3),
               "relu (read 1, write 1)": (lambda: torch.clamp_min(a, 0, out=c), 2),
               "copy_ (read 1, write 1)": (lambda: c.copy_(a), 2)}
    out = {}
    for name, (kernel, tensors) in kernels.items():
        def calls(kernel=kernel):
            for _ in range(reps):
                kernel()
        out[name] = round(tensors * n * a.element_size() / (timed(calls, 9) / reps) / 1e9, 1)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "data" / "cpu-streaming-by-size.json"))
    a = ap.parse_args()
    torch.set_num_threads(1)
    clock_before = measure_core_clock_mhz(platform.system().lower(), platform.machine())
    runs = {}
    for dtype in (torch.float32, torch.bfloat16):
        for mib in SIZES_MIB:
            key = f"{str(dtype).split('.')[1]} {mib:g} MiB"
            runs[key] = _rates(dtype, mib)
            print(key, runs[key], flush=True)
    clocks = [x for x in (clock_before, measure_core_clock_mhz(platform.system().lower(), platform.machine())) if x]
    write_counts(a.out, __doc__, runs, machine=platform.machine(), core_clock_mhz=[round(x) for x in clocks],
                 load_average=[round(x, 2) for x in os.getloadavg()[:2]])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
