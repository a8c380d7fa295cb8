"""Run the deep scan on this computer and print every figure (and optionally save them as JSON).

    python benchmarks/deep_scan.py [--disk FOLDER] [--budget SECONDS] [--device cuda|mps|cpu] [-o FILE]

On a machine with a GPU and PyTorch this measures the GPU too; `-o tests/fixtures/measured/NAME.json`
keeps the figures as a recorded fixture (add its line to tests/fixtures/SOURCES.md).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gpucheck.advise.software import torch_install_hint  # noqa: E402
from gpucheck.bench import run_deep  # noqa: E402
from gpucheck.machine import to_jsonable  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--disk", default=None, help="folder whose disk to measure (default: home)")
    ap.add_argument("--budget", type=float, default=30.0, help="time cap in seconds (default 30)")
    ap.add_argument("--device", default=None, help="torch device to force, e.g. cuda:0, mps, cpu")
    ap.add_argument("-o", "--output", default=None, help="write the figures as JSON here")
    args = ap.parse_args()

    last = [""]

    def progress(step: str, frac: float) -> None:
        if step != last[0]:
            last[0] = step
            print(f"  [{frac * 100:5.1f}%] {step}", file=sys.stderr)

    machine = None
    try:
        from gpucheck.probe import scan

        machine = scan()
    except Exception as e:  # the benchmark runs without the scan too
        print(f"(scan failed: {e}; measuring without it)", file=sys.stderr)
    t0 = time.monotonic()
    m = run_deep(machine, disk_path=args.disk, on_progress=progress, budget_s=args.budget,
                 gpu_device=args.device, install_hint=torch_install_hint)
    wall = time.monotonic() - t0
    data = to_jsonable(m)
    print(f"deep scan: {wall:.1f} s wall (cap {args.budget:.0f} s), {platform.node() or '?'}, "
          f"{platform.platform()}")
    for k, v in data.items():
        if k == "notes":
            continue
        if isinstance(v, float):
            v = f"{v:,.3f}"
        print(f"  {k:28} {v}")
    for n in data["notes"]:
        print(f"  note: {n}")
    if args.output:
        Path(args.output).write_text(json.dumps({"measured": data, "platform": platform.platform(),
                                                 "python": platform.python_version()}, indent=2) + "\n")
        print(f"saved {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
