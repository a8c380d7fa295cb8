"""Verdicts for every built-in workload on one machine: the estimator's speed budget is < 5 ms.

Run: .venv/bin/python benchmarks/bench_verdicts.py
Prints cold (first call: catalogs parsed) and warm timings for a catalog GPU and for recorded
machines. No assertions: figures for people to read (the product aims at < 5 ms warm, median of 50 runs;
the p95 is shown too: on a shared machine it catches other processes' noise).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    t0 = time.perf_counter()
    from gpucheck.catalog import find_gpu, load_gpus, load_workloads
    from gpucheck.estimate import Target, check
    from gpucheck.estimate.factors import load_factors
    from gpucheck.machine import Machine

    t_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    load_gpus(), load_workloads(), load_factors()
    t_catalogs = time.perf_counter() - t0
    print(f"import gpucheck.estimate: {t_import * 1000:7.1f} ms")
    print(f"parse catalogs (cold):    {t_catalogs * 1000:7.1f} ms  "
          f"({len(load_gpus())} GPUs, {len(load_workloads())} workloads)")

    targets = [("RTX 4090 (catalog)", Target.from_gpu(find_gpu("4090"))),
               ("8× H100 (catalog)", Target.from_gpu(find_gpu("h100"), gpus=8))]
    machines = ROOT / "tests" / "fixtures" / "machines"
    for name in ("rtx3060-12gb-hdd-desktop", "m2max-macbookpro", "office-pc-cpu-only"):
        p = machines / f"{name}.json"
        if p.is_file():
            targets.append((name, Target.from_machine(Machine.load(p))))

    worst = 0.0
    worst_median = 0.0
    for label, target in targets:
        runs = []
        for _ in range(50):
            t0 = time.perf_counter()
            check(target)
            runs.append(time.perf_counter() - t0)
        med, p95 = statistics.median(runs), sorted(runs)[int(0.95 * len(runs)) - 1]
        worst = max(worst, p95)
        worst_median = max(worst_median, med)
        print(f"check(all {len(load_workloads())} workloads) on {label:28}: median {med * 1000:6.2f} ms, "
              f"p95 {p95 * 1000:6.2f} ms")
    all_gpus = load_gpus()
    t0 = time.perf_counter()
    for g in all_gpus:
        check(Target.from_gpu(g))
    total = time.perf_counter() - t0
    print(f"every workload × every catalog GPU ({len(all_gpus) * len(load_workloads())} estimates): "
          f"{total * 1000:.1f} ms")
    print(f"budget 5 ms per machine: {'met' if worst_median < 0.005 else 'MISSED'} (worst median "
          f"{worst_median * 1000:.2f} ms, worst p95 {worst * 1000:.2f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
