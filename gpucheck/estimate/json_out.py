"""An estimate's keys of the JSON contract (DESIGN.md: `gpucheck estimate --json`); callers use
gpucheck.advise.job_json.job_to_json, which adds the advice."""

from __future__ import annotations

import dataclasses
from typing import Any

from gpucheck.records import Estimate, Workload

GIB = 1024**3


def _gib(n: float | None) -> float | None:
    return None if n is None else round(n / GIB, 2)


def json_hours(h: float) -> float:
    """Hours to three decimals, and a run under an hour to four significant digits: a one-second run is 0.0003 h,
    not 0.0."""
    return round(h, 3) if abs(h) >= 1 else float(f"{h:.4g}")


def estimate_to_json(est: Estimate, workload: Workload | None = None) -> dict[str, Any]:
    """The estimate's own keys of the JSON contract (DESIGN.md), for the exact configuration. Callers
    use gpucheck.advise.job_json.job_to_json, which adds the advice's verdict, tweaks and alternatives."""
    bd = est.breakdown
    lo, hi = est.vram_band_bytes
    out: dict[str, Any] = {
        "workload": est.workload_id,
        "gpu": est.gpu_name,
        "gpus": est.gpus,
        "fits": est.fits,
        "verdict": str(est.verdict),
        "verdict_as_configured": str(est.verdict),
        "limit": est.limit,
        "peak_vram_gib": _gib(est.peak_vram_bytes),
        "vram_available_gib": _gib(est.vram_available_bytes),
        "vram_breakdown_gib": {
            "weights": _gib(bd.weights_bytes),
            "gradients": _gib(bd.gradients_bytes),
            "optimizer": _gib(bd.optimizer_bytes),
            "activations": _gib(bd.activations_bytes),
            "overhead": _gib(bd.overhead_bytes),
        },
        # which memory the figure is: peak_vram_gib = what the job needs, context included (the verdict uses it);
        # nvidia_smi_gib = what nvidia-smi shows on a card with room to spare, with the blocks a run whose steps
        # change shape leaves cached (cached_gib: freed before an out-of-memory error, so not needed)
        "memory": {
            "fit": est.memory_fit,
            "needed_gib": _gib(est.peak_vram_bytes),
            "nvidia_smi_gib": _gib(est.nvidia_smi_bytes),
            "cached_gib": _gib(est.cached_bytes),
            "reserved_gib": _gib(est.reserved_bytes),
            "allocated_gib": _gib(est.allocated_bytes),
            "context_gib": _gib(est.context_bytes),
            "band_gib": [_gib(lo), _gib(hi)],
        },
        "ram_gib": _gib(est.ram_bytes),
        "ram_total_gib": _gib(est.ram_total_bytes),
        "ram_available_gib": _gib(est.ram_available_bytes),
        "disk_gib": _gib(est.disk_bytes),
        "samples_per_second": None if est.samples_per_second is None else round(est.samples_per_second, 3),
        "tokens_per_second": None if est.tokens_per_second is None else round(est.tokens_per_second, 1),
        "step_seconds": None if est.step_seconds is None else round(est.step_seconds, 5),
        "total_hours": None if est.total_hours is None else json_hours(est.total_hours),
        "eval_hours": json_hours(est.eval_hours),  # the evaluation passes inside total_hours (train.eval_samples)
        # the P10–P90 of the family's validation errors (docs/accuracy.md) and the software stack assumed
        "total_hours_range": None if est.hours_range is None else [json_hours(x) for x in est.hours_range],
        "total_hours_range_checked": est.hours_range_checked,  # false: the wide default, no published run checks it
        # true: a CPU this PC's calibration measured; the range is how far such calibrations missed unmeasured jobs
        "total_hours_range_calibrated": est.hours_range_calibrated,
        "step_seconds_range": None if est.step_seconds_range is None else [round(x, 5)
                                                                           for x in est.step_seconds_range],
        "stack": est.stack,
        "bottleneck": est.bottleneck,
        "comm_gib_per_step": _gib(est.comm_bytes_per_step) if est.gpus > 1 else None,
        "link_gbps": est.link_gbps,
        "network_gbps": None if est.network_gbps is None else round(est.network_gbps, 2),
        "offload_seconds_per_step": round(est.offload_seconds, 5) if est.offload_seconds else None,
        # the CPU's input path (an audio job's features) not hidden by the GPU: estimate/input_path.py
        "input_seconds_per_step": round(est.input_seconds, 5) if est.input_seconds else None,
        "gpu_vendor": est.vendor or None,
        "speed_checked_on_vendor": est.speed_checked,
        "host": {"bound": est.host_bound, "clock_mhz": est.host_clock_mhz, "clock_assumed": est.host_clock_assumed},
        "measured_inputs": est.measured_inputs,
        # measured on this PC (gpucheck calibrate / trial): {on, device, rates}; null when not calibrated
        "calibrated": None if est.calibrated is None else dict(est.calibrated),
        "uncalibrated_step_seconds": None if est.uncalibrated_step_seconds is None or est.calibrated is None
        else round(est.uncalibrated_step_seconds, 5),
        "train": dataclasses.asdict(est.train),
        "precision_used": est.precision_used,  # what the GPU trains in (fp16 on a GPU without bf16)
        "tweaks": [],
        "reason": est.limit,
        "notes": list(est.notes),
        "assumptions": list(est.assumptions),
    }
    if workload is not None:
        out["title"] = workload.title
        out["family"] = workload.family
    return out

