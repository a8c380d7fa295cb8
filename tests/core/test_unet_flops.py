"""A Stable Diffusion U-Net's forward work, as counted on diffusers' own code at two image sizes.

benchmarks/count_unet_flops.py ran diffusers' UNet2DConditionModel (SD 1.5, SD 2.0-base, SDXL base and the calibrate
probe, from their unet/config.json) under torch.utils.flop_counter.FlopCounterMode at the model's ref_image_size and
at half of it (benchmarks/data/unet-flops.json). The attention scores (QKᵀ and probabilities × V) are 15 % of SD 1.5's
forward at 512 px and 12 % of SDXL's at 1024 px; until December 2026 the catalog left them out, and scaled what it
kept with the pixels, while self-attention grows with the pixels squared.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from gpucheck.catalog import get_workload, load_workload_file
from gpucheck.estimate.compute import forward_flops_per_sample
from gpucheck.resources import resource_path

COUNT = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "unet-flops.json"
JOBS = {"sd15-lora": "sd15", "sd15-dreambooth": "sd15", "sdxl-lora": "sdxl", "calibrate-unet": "calibration-unet-block"}


def _workload(job: str):
    if job == "calibrate-unet":
        return load_workload_file(resource_path("calibration", "unet.toml"))
    return get_workload(job)


def _estimated_gflops(job: str, image_size: int) -> tuple[float, float]:
    w = _workload(job)
    linear, attn = forward_flops_per_sample(w.model, dataclasses.replace(w.train, image_size=image_size))
    return linear / 1e9, attn / 1e9


def test_the_unet_jobs_count_the_attention_scores_diffusers_runs() -> None:
    """At the reference size the estimate's forward work is the whole count, attention scores included (SDXL at
    1024 px: 6,761 GFLOPs, not the 5,977 of its convolutions and linear layers alone)."""
    runs = json.loads(COUNT.read_text())["runs"]
    for job, name in JOBS.items():
        ref = runs[name]["at_ref"]
        linear, attn = _estimated_gflops(job, ref["image_size"])
        assert abs(linear + attn - ref["total_gflops"]) <= 0.002 * ref["total_gflops"], (job, linear, attn, ref)
        assert abs(attn - ref["self_attn_gflops"] - ref["cross_attn_gflops"]) <= 0.005 * attn, (job, attn, ref)


def test_at_half_the_image_size_the_attention_work_falls_to_what_diffusers_runs_there() -> None:
    """Half the image side: self-attention falls 16× (tokens²), cross-attention and the layers 4×, as on the real
    graph; the whole forward is within 3 % (the text projections and embeddings do not shrink with the image)."""
    runs = json.loads(COUNT.read_text())["runs"]
    for job, name in JOBS.items():
        if job == "calibrate-unet":
            continue  # 3 M parameters at 64 px: the text projections are 10 % of its work there; the probe runs at 256
        half = runs[name]["at_half"]
        linear, attn = _estimated_gflops(job, half["image_size"])
        assert abs(attn - half["self_attn_gflops"] - half["cross_attn_gflops"]) <= 0.01 * attn, (job, attn, half)
        assert abs(linear + attn - half["total_gflops"]) <= 0.03 * half["total_gflops"], (job, linear, attn, half)
