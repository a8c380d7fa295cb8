"""Advice speed: every built-in workload on every recorded machine (tests/fixtures/machines).

Prints the time per advice (tweak ladder + bottlenecks + software + upgrades + cloud) and for a whole
`gpucheck check` worth of advice on one machine. No thresholds: figures to watch over time.

    .venv/bin/python benchmarks/bench_advise.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()

    from gpucheck import estimate as E
    from gpucheck.advise import advise
    from gpucheck.catalog import load_workloads
    from gpucheck.machine import Machine

    machines = [Machine.load(p) for p in sorted((ROOT / "tests/fixtures/machines").glob("*.json"))]
    workloads = load_workloads()
    t0 = time.perf_counter()
    advise(machines[0], workloads[0], E.Target.from_machine(machines[0]))  # catalogs into the cache
    print(f"first advice (loads catalogs): {(time.perf_counter() - t0) * 1000:.0f} ms")

    per_machine: dict[str, list[float]] = {}
    for _ in range(args.runs):
        for m in machines:
            target = E.Target.from_machine(m)
            t0 = time.perf_counter()
            for w in workloads:
                advise(m, w, target)
            per_machine.setdefault(m.label or "?", []).append(time.perf_counter() - t0)
    total = [min(v) for v in per_machine.values()]
    n = len(workloads)
    print(f"{len(machines)} machines × {n} workloads, best of {args.runs} runs:")
    for label, times in sorted(per_machine.items(), key=lambda kv: -min(kv[1])):
        print(f"  {label:28s} {min(times) * 1000:7.1f} ms for all {n} jobs  ({min(times) / n * 1000:5.1f} ms each)")
    print(f"median per machine: {statistics.median(total) * 1000:.1f} ms; slowest: {max(total) * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
