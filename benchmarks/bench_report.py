"""Report speed and size: every format for a few recorded machines (tests/fixtures/machines).

Prints, per machine and language, the time to build the report model (estimates + advice for the
whole ladder), to render HTML and JSON, to lay out and print the PDF, the PDF's pages and bytes, and
how many rows/headings the pagination pass moved. No thresholds: figures to watch over time.

    .venv/bin/python benchmarks/bench_report.py [MACHINE.json ...]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if sys.platform.startswith("linux"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

DEFAULT = ("rtx3060-12gb-hdd-desktop", "cpu-only-vm", "h100x8-server")


def main(argv: list[str]) -> int:
    from gpucheck.machine import Machine
    from gpucheck.report import build_report
    from gpucheck.report import pdf as pdf_mod
    from gpucheck.report.html import render_html
    from gpucheck.report.json import render_json

    paths = [Path(a) for a in argv] or [ROOT / "tests" / "fixtures" / "machines" / f"{n}.json" for n in DEFAULT]
    pdf_mod._ensure_app()
    moved: list[int] = []
    real_paginate = pdf_mod.paginate

    def counting(*a, **k):
        n = real_paginate(*a, **k)
        moved.append(n)
        return n

    pdf_mod.paginate = counting
    print(f"{'machine':28} {'lang':5} {'model s':>8} {'html s':>7} {'json s':>7} {'pdf s':>6} {'pages':>5} "
          f"{'pdf KB':>7} {'moved':>5}")
    for p in paths:
        machine = Machine.load(p)
        for lang in ("en", "zh_CN"):
            t0 = time.perf_counter()
            model = build_report(machine, lang=lang, paper="a4")
            t1 = time.perf_counter()
            render_html(model)
            t2 = time.perf_counter()
            render_json(model)
            t3 = time.perf_counter()
            data = pdf_mod.render_pdf(model)
            t4 = time.perf_counter()
            pages = data.count(b"/Type /Page\n") or data.count(b"/Type /Page ") or data.count(b"/Type/Page")
            print(f"{p.stem:28} {lang:5} {t1 - t0:8.2f} {t2 - t1:7.3f} {t3 - t2:7.3f} {t4 - t3:6.2f} "
                  f"{pages:5} {len(data) / 1024:7.0f} {moved[-1]:5}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
