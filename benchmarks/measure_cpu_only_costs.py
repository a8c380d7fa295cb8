"""What a CPU step pays that a GPU's does not, measured on one core: dropout's random mask, a fresh page, and fused
attention's cost per score — factors.toml [cpu.dropout], [cpu.page_faults] and [cpu.attention].

    python benchmarks/measure_cpu_only_costs.py OUT.json [--repeats 20]

Runs with a Python that has torch (the trial's). Times, per element, `torch.empty_like(x).bernoulli_(0.9)` (the mask
PyTorch's CPU dropout draws), `torch.nn.functional.dropout(x, 0.1, True)` (mask and multiply) and a ReLU for
comparison, in fp32 and bf16, over shapes from a BERT-base layer's hidden stream to a 4 M-element vector, with one
thread and with every core (the mask is drawn by one thread under the generator's mutex, so more threads do not
help). The core's clock is measured too when a C compiler is at hand: a chain of dependent 64-bit multiplies, three
cycles each on current x86 cores (Intel and AMD optimization manuals: IMUL r64, r64 latency 3), so the per-element
time can be stated in cycles and priced on another clock. Page faults: filling a freshly allocated 154.5 MB tensor
(GPT-2's fp32 embedding gradient; above glibc's 32 MiB mmap ceiling, so mapped afresh each time) against filling
the same bytes already mapped, with the minor faults and kernel time of each (getrusage): the difference per fault
is what a step pays for each 4 KiB page of a tensor it maps again. Attention: scaled_dot_product_attention (PyTorch's
fused CPU kernel, no mask, no dropout) forward and forward + backward in bf16 on one thread, 4 × 8 heads × 1,024 ×
1,024 scores, head dims 8 to 128; the time per score is a + b × head_dim, b the multiplies' part (4 FLOPs per score
and head dim forward) and a what each score costs whatever its width (the softmax's exponential, its max and sum,
the kernel's per-block bookkeeping; backward recomputes the probabilities).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHAPES = [(8, 128, 768), (8, 12, 128, 128), (64, 64, 12, 12), (1 << 22,)]
CLOCK_C = r"""
#include <stdio.h>
#include <time.h>
int main(void) {
  for (int rep = 0; rep < 5; rep++) {
    struct timespec a, b; unsigned long n = 300000000UL, x = (unsigned long)rep + 3;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (unsigned long i = 0; i < n; i++)
      __asm__ volatile("imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0" : "+r"(x));
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.1f\n", 12.0 * n / ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9) / 1e6);
  }
  return 0;
}
"""


def core_clock_mhz() -> float | None:
    """The clock one busy core runs at, from a dependent IMUL chain (x86 only; None without a C compiler)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or platform.machine() not in ("x86_64", "AMD64"):
        return None
    with tempfile.TemporaryDirectory() as d:
        src, exe = Path(d) / "clock.c", Path(d) / "clock"
        src.write_text(CLOCK_C)
        if subprocess.run([cc, "-O1", str(src), "-o", str(exe)], capture_output=True).returncode:
            return None
        out = subprocess.run([str(exe)], capture_output=True, text=True).stdout.split()
    return statistics.median(float(v) for v in out) if out else None


def per_element_ns(fn, n: int, repeats: int) -> float:
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) / n * 1e9


def page_faults(torch, repeats: int, nbytes: int = 154_500_000) -> dict:
    """Filling a fresh tensor against filling a mapped one: ms, minor faults, kernel ms (medians), µs per fault."""
    keep = torch.empty(nbytes // 4)

    def fresh() -> None:
        torch.empty(nbytes // 4).fill_(1.0)

    def mapped() -> None:
        keep.fill_(1.0)

    out = {}
    for name, fn in (("fresh", fresh), ("mapped", mapped)):
        fn()
        rows = []
        for _ in range(repeats):
            a = resource.getrusage(resource.RUSAGE_SELF)
            t0 = time.perf_counter()
            fn()
            dt = time.perf_counter() - t0
            z = resource.getrusage(resource.RUSAGE_SELF)
            rows.append((dt, z.ru_minflt - a.ru_minflt, z.ru_stime - a.ru_stime))
        out[name] = {"ms": round(statistics.median(r[0] for r in rows) * 1e3, 2),
                     "minor_faults": int(statistics.median(r[1] for r in rows)),
                     "kernel_ms": round(statistics.median(r[2] for r in rows) * 1e3, 2)}
    faults = out["fresh"]["minor_faults"] - out["mapped"]["minor_faults"]
    out["bytes"] = nbytes
    out["us_per_fault"] = round((out["fresh"]["ms"] - out["mapped"]["ms"]) * 1e3 / faults, 3) if faults else None
    return out


def kernels(torch, x) -> list[tuple[str, object]]:
    """(name, call) of what is timed on `x`: the mask alone, dropout (mask and multiply), a ReLU."""
    return [("bernoulli_ns", lambda: torch.empty_like(x).bernoulli_(0.9)),
            ("dropout_ns", lambda: torch.nn.functional.dropout(x, 0.1, True)),
            ("relu_ns", lambda: torch.relu(x))]


def _line(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """Least squares y = a + b·x: (a, b)."""
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
    return my - b * mx, b


def _attention_calls(torch, q, k, v):
    """(forward, forward + backward) of scaled_dot_product_attention on these tensors."""
    sdpa = torch.nn.functional.scaled_dot_product_attention

    def fwd() -> None:
        sdpa(q, k, v)

    def both() -> None:
        o = sdpa(q, k, v)
        o.backward(torch.ones_like(o))

    return fwd, both


def attention(torch, repeats: int, heads: int = 8, tokens: int = 1024, batch: int = 4) -> dict:
    """ns per score of the fused CPU attention, forward and backward, by head dim, and the a + b × head_dim fits."""
    rows = []
    for d in (8, 16, 40, 64, 128):
        q, k, v = (torch.randn(batch, heads, tokens, d, dtype=torch.bfloat16, requires_grad=True) for _ in range(3))
        scores = batch * heads * tokens * tokens
        fwd, both = _attention_calls(torch, q, k, v)
        f = per_element_ns(fwd, scores, repeats)
        b = per_element_ns(both, scores, repeats) - f
        rows.append({"head_dim": d, "forward_ns_per_score": round(f, 3), "backward_ns_per_score": round(b, 3)})
    dims = [r["head_dim"] for r in rows]
    fa, fb = _line(dims, [r["forward_ns_per_score"] for r in rows])
    ba, bb = _line(dims, [r["backward_ns_per_score"] for r in rows])
    return {"shape": f"{batch} x {heads} heads x {tokens} x {tokens}, bf16, one thread", "rows": rows,
            "forward_fit": {"ns_per_score": round(fa, 3), "ns_per_score_and_head_dim": round(fb, 5)},
            "backward_fit": {"ns_per_score": round(ba, 3), "ns_per_score_and_head_dim": round(bb, 5)}}


def measure(repeats: int) -> dict:
    import torch

    torch.manual_seed(0)
    threads = sorted({1, os.cpu_count() or 1})
    rows = []
    for th in threads:
        torch.set_num_threads(th)
        for dtype in (torch.float32, torch.bfloat16):
            for shape in SHAPES:
                x = torch.randn(shape, dtype=dtype)
                n = x.numel()
                rows.append({"threads": th, "dtype": str(dtype).replace("torch.", ""), "shape": list(shape),
                             **{name: round(per_element_ns(fn, n, repeats), 3) for name, fn in kernels(torch, x)}})
    one = [r["bernoulli_ns"] for r in rows if r["threads"] == 1]
    torch.set_num_threads(1)
    return {"torch": torch.__version__, "cpu_capability": torch.backends.cpu.get_cpu_capability(), "rows": rows,
            "bernoulli_ns_one_thread": {"min": min(one), "median": statistics.median(one), "max": max(one)},
            "page_faults": page_faults(torch, repeats), "attention": attention(torch, max(3, repeats // 4))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--repeats", type=int, default=20)
    a = ap.parse_args()
    brand = next((ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text().splitlines()
                  if ln.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() \
        else platform.processor()
    data = {"about": __doc__.strip().splitlines()[0], "at": time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()),
            "cpu": brand, "logical_cores": os.cpu_count(), "core_clock_mhz": core_clock_mhz(),
            "python": sys.version.split()[0], **measure(a.repeats)}
    Path(a.out).write_text(json.dumps(data, indent=1) + "\n")
    b = data["bernoulli_ns_one_thread"]
    att = data["attention"]
    print(f"bernoulli_ one thread: {b['median']:.2f} ns an element ({b['min']:.2f}-{b['max']:.2f}); "
          f"a fresh page {data['page_faults']['us_per_fault']} us; attention per score "
          f"{att['forward_fit']['ns_per_score']} ns forward, {att['backward_fit']['ns_per_score']} ns backward; "
          f"core clock {data['core_clock_mhz']} MHz")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
