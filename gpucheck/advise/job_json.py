"""THE estimate → JSON serializer: `gpucheck estimate --json`, `check --json` and the report's JSON all
call `job_to_json`, so one job carries the same figures and the same verdict everywhere.

Keys (DESIGN.md contract, plus details): the estimate's figures as configured (`peak_vram_gib`,
`vram_breakdown_gib`, `ram_gib`, `total_hours`, `train`, `memory` …), then what the advice decided:
`verdict` (one gpucheck.verdict.Verdict value, after the changes that keep what is trained),
`verdict_as_configured` (the exact configuration's), `tweaks` (ordered, each with what it loses),
`alternatives` (what fits instead), `expected_hours` (the one time the table, the summary and the report give:
with the advised changes and this PC's CPU/disk limits counted), `ram_need_gib` (system RAM after the changes,
when RAM is what stops the job) and the whole `advice`.
"""

from __future__ import annotations

from typing import Any

from gpucheck.advise.model import Advice
from gpucheck.advise.present import advice_to_dict
from gpucheck.estimate import estimate_to_json
from gpucheck.records import Estimate, Workload


def job_to_json(est: Estimate, workload: Workload | None = None, advice: Advice | None = None) -> dict[str, Any]:
    out = estimate_to_json(est, workload)
    if advice is None:
        return out
    d = advice_to_dict(advice)
    out.update(verdict=str(advice.verdict), verdict_as_configured=str(est.verdict), tweaks=d["tweaks"],
               alternatives=d["alternatives"], advice=d,
               # the time the verdict, the table and the summary give: with the advised changes and this PC's
               # CPU/disk limits (None when it does not run here); `total_hours` stays the GPU-alone time as configured
               expected_hours=d["expected_hours"],
               # RAM with the advised changes, given when RAM is what still stops or squeezes the job
               ram_need_gib=d["final_ram_gib"] if advice.final_limit == "ram" else None)
    return out


__all__ = ["job_to_json"]
