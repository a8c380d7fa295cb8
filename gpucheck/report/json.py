"""The report as JSON: the machine, every estimate and every piece of advice, with stable keys.

The keys are documented in docs/report.md. `REPORT_SCHEMA_VERSION` changes only when a key is
renamed or removed; new keys may be added at any time. The "machine" object is exactly what
`gpucheck scan --json` writes (with identifiers removed unless the report was made with
--include-ids), so `gpucheck … --machine report.json` loads a report back.
"""

from __future__ import annotations

import json as _json
from typing import Any

from gpucheck.advise import advice_to_dict
from gpucheck.advise.job_json import job_to_json
from gpucheck.machine import to_jsonable
from gpucheck.report.job_section import evaluation_figures
from gpucheck.report.measured import measured_to_json
from gpucheck.report.model import Evaluation, ReportModel
from gpucheck.report.privacy import trial_for_report

REPORT_SCHEMA_VERSION = 1
REPORT_KIND = "gpucheck-report"

def estimate_dict(est: Any, workload: Any = None, advice: Any = None) -> dict[str, Any]:
    """The keys of `gpucheck estimate --json` (DESIGN.md): the ONE serializer, with the advice's verdict,
    tweaks and alternatives when there is advice."""
    return job_to_json(est, workload, advice)


def advice_dict(advice: Any) -> dict[str, Any] | None:
    """The advice as the advice module serializes it (`gpucheck estimate --json` uses the same)."""
    if advice is None:
        return None
    return advice_to_dict(advice)


def workload_dict(ev: Evaluation, lang: str, include_ids: bool = False) -> dict[str, Any]:
    w = ev.workload
    return {
        "id": w.id,
        "title": w.title,
        "title_zh": w.title_zh,
        "family": w.family,
        "level": w.level,
        "detailed": ev.detailed,
        "definition": to_jsonable(w),
        "estimate": estimate_dict(ev.estimate, w, ev.advice),
        "advice": advice_dict(ev.advice) if ev.detailed else None,
        **_trial_keys(ev, include_ids),
    }


def _trial_keys(ev: Evaluation, include_ids: bool = False) -> dict[str, Any]:
    """A trial's measurement beside the estimate: `measured` (the figures the report shows as measured, with
    the verdict they settle) and `trial` (`gpucheck trial --json`'s object, cut to what the report needs and
    redacted by the report's one privacy policy). Absent without a trial."""
    fig = evaluation_figures(ev)
    if fig.measured is None or ev.trial is None:
        return {}
    return {"measured": measured_to_json(fig.measured, fig.verdict), "trial": trial_for_report(ev.trial.to_json(), include_ids)}


def report_dict(model: ReportModel) -> dict[str, Any]:
    return {
        "kind": REPORT_KIND,
        "schema_version": REPORT_SCHEMA_VERSION,
        "app_version": model.app_version,
        "generated_at": model.generated_at,
        "language": model.lang,
        "include_ids": model.include_ids,
        "title": model.title,
        "summary": model.intro,
        "machine": model.machine.to_dict(),
        "workloads": [workload_dict(ev, model.lang, model.include_ids) for ev in model.evaluations],
        "assumptions": list(model.assumptions),
        "sources": list(model.sources),
    }


def render_json(model: ReportModel) -> str:
    return _json.dumps(report_dict(model), indent=2, ensure_ascii=False) + "\n"
