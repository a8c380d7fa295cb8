"""How well the calibration rows identify each fitted factor: the factors refitted without each source group against
the refit on all calibration rows, and each group's rows in-sample against leave-one-source-out.

`python -m tests.core.loso_swings [--cache FILE]` (PYTHONPATH = the repository root). Prints
1. per fitted factor: its prior, the full refit, the independent groups whose calibration rows it moves, and its
   largest relative change when one group is left out (and which group);
2. a group × factor table of the relative changes above 5 %;
3. per group: in-sample (the full refit) against LOSO median and share within 1.35× of its speed rows.
The refits (one per group with calibration rows) are cached in FILE (JSON) when given, so the tables can be read
again without refitting.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import multiprocessing
import os
from pathlib import Path

from gpucheck.catalog import read_toml
from gpucheck.estimate.factors import parse_factors
from gpucheck.evidence import load_evidence
from gpucheck.resources import resource_path
from tests.core import accuracy as A
from tests.core import refit as R

SPEED_FACTORS = tuple(p for p in A.FITTED if not p.memory)  # this report refits on the speed rows only


def factor_groups(calib: list) -> dict[str, list[str]]:
    """Per fitted factor, the independent source groups whose calibration speed rows it moves (from its prior)."""
    doc = read_toml(resource_path("factors.toml"))
    for p in A.FITTED:
        A.set_fitted(doc, p, p.prior)
    with A.with_factors(parse_factors(copy.deepcopy(doc), "prior")):
        base = {r.id: A.log_sq(r) for r in calib}
    moved = R._moved_rows(calib, doc, base, SPEED_FACTORS, moves=R.NEAR)  # the groups that are its evidence
    return {name: sorted({r.group for r in rows}) for name, rows in moved.items()}


def _refit_all(calib: list) -> dict[str, float]:
    return R.refit(calib)[1]


def refits(calib: list, groups: list[str]) -> dict[str, dict[str, float]]:
    R._CALIB = calib
    with multiprocessing.get_context("fork").Pool(min(2, os.cpu_count() or 1)) as pool:
        vals = pool.map(R._values_without, ["<none>", *groups])
    return dict(zip(["<all>", *groups], vals, strict=True))


def _table(values: dict[str, float]):
    doc = read_toml(resource_path("factors.toml"))
    for p in SPEED_FACTORS:
        A._set(doc, p.path, values[p.name])
    return parse_factors(doc, "refit")


def _stats(xs: list[float]) -> str:
    s = A.speed_stats(xs)
    return f"{s['median']:.2f}x {s['within_135'] * 100:3.0f}% worst {s['worst']:.2f}x"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", type=Path)
    args = ap.parse_args()
    rows = list(load_evidence())
    calib = [r for r in rows if r.role == "calibration" and not r.measured.is_memory]
    groups = sorted({r.group for r in calib})
    fg = factor_groups(calib)
    if args.cache and args.cache.exists():
        vals = json.loads(args.cache.read_text())
    else:
        vals = refits(calib, groups)
        if args.cache:
            args.cache.write_text(json.dumps(vals, indent=1))
    full = vals["<all>"]
    print("factor | prior | full refit | groups moved (n) | worst swing when one group is left out")
    for p in SPEED_FACTORS:
        sw = {g: vals[g][p.name] / full[p.name] - 1 for g in groups}
        g_worst = max(sw, key=lambda g: abs(sw[g]))
        print(f"{p.name:48s}{'*' if p.held else ' '} {p.prior:<9.4g} {full[p.name]:<9.4g} {len(fg[p.name]):2d} "
              f"{sw[g_worst] * 100:+6.0f}% ({g_worst})  [{', '.join(fg[p.name])}]")
    print("\ngroup x factor: relative change of the LOSO refit against the full refit (|change| > 5 %)")
    for g in groups:
        cells = [f"{p.name.split('.', 1)[1]} {(vals[g][p.name] / full[p.name] - 1) * 100:+.0f}%"
                 for p in SPEED_FACTORS if abs(vals[g][p.name] / full[p.name] - 1) > 0.05]
        print(f"{g:28s} {'; '.join(cells) or '-'}")
    print("\nper group speed rows: in-sample (full refit) -> LOSO (median, within 1.35x, worst)")
    f_full = _table(full)
    ins_all, loso_all = [], []
    for g in sorted({r.group for r in rows if not r.measured.is_memory}):
        mine = [r for r in rows if r.group == g and not r.measured.is_memory]
        with A.with_factors(f_full):
            ins = [A.speed_ratio(r) for r in mine]
        if g in vals:
            with A.with_factors(_table(vals[g])):
                lo = [A.speed_ratio(r) for r in mine]
        else:
            lo = ins
        ins_all += ins
        loso_all += lo
        lost = sum(abs(math.log(x)) <= math.log(1.35) for x in ins) - sum(abs(math.log(x)) <= math.log(1.35) for x in lo)
        print(f"{g:28s} {len(mine):4d}  {_stats(ins)}  ->  {_stats(lo)}   rows lost within 1.35x: {lost:+d}")
    print(f"\nALL {len(ins_all)}: in-sample {_stats(ins_all)} -> LOSO {_stats(loso_all)}")


if __name__ == "__main__":
    main()
