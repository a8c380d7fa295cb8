"""Pure estimates: (Workload, Target) → Estimate. No Qt, no I/O beyond reading the cached catalogs.

Public API (what the advice, wizard and report code call)
---------------------------------------------------------
Targets — what a job runs on:
    Target(gpu, gpus, vram_available_bytes, ram_bytes, cpu_cores, measured, label, …)   frozen
        gpu=None means the CPU (or, with backend != "cpu", a GPU missing from the catalog: memory
        is checked, speed is unknown). `vram_available_bytes` is per GPU: a MIG slice's memory,
        Apple's usable working set, or the total less what the driver reserves for itself (NVML v2, where
        known) and what a display keeps (memory other programs use at scan time is reported in `notes`,
        not subtracted).
    Target.from_machine(machine) -> Target          a scanned `machine.Machine` (its compute GPUs)
    Target.from_gpu(spec, gpus=1, machine=None)     a catalog `GpuSpec`; RAM/CPU from `machine` if given

Estimating:
    estimate(workload, target, train=None) -> Estimate
        `train` (a TrainSpec) replaces `workload.train`: this is how advice tries tweaks cheaply,
        e.g. estimate(w, t, dataclasses.replace(w.train, batch=1, grad_checkpointing=True)).
        About 0.1 ms per call once the catalogs are cached.
    estimate_variant(workload, target, **train_changes) -> Estimate     the same, with keyword changes
    check(target, workloads=None) -> list[Estimate]                     every built-in by default
    apply_overrides(workload, method=, precision=, optimizer=, batch=, seq_len=, image_size=,
                    grad_checkpointing=, lora_rank=, samples=, epochs=) -> Workload   (CLI flags; None = keep)
    verdict_for(supported=, fits=, total_hours=) -> str      the rule, for one exact configuration
    too_slow_hours() -> float                                the "too slow" threshold (factors.toml)
    estimate_to_json(estimate, workload=None) -> dict        the estimate's keys of the JSON contract; callers use
                                                             gpucheck.advise.job_json.job_to_json (adds the advice)

TrainSpec fields advice can vary (gpucheck.records.TrainSpec): method (full|lora|qlora), precision
(fp32|fp16|bf16), optimizer (adamw|adamw-8bit|sgd), batch (+ grad_accum: same effective batch, no memory
cost), seq_len / image_size, grad_checkpointing, lora_rank, lora_targets (qv|attention|mlp|all-linear),
cpu_offload (ZeRO-Offload: master weights, gradients, optimizer state in host RAM), zero_stage 0-3 and
shard (= stage 3, FSDP) over target.gpus GPUs; precision bf16-pure (all state in bf16) or fp16-pure
(model.half(): all state in fp16, no autocast).

The Estimate (gpucheck.records.Estimate), typed fields only:
    verdict (a gpucheck.verdict.Verdict) for the EXACT configuration: runs | tight | too_slow |
    does_not_fit | not_supported. "runs_with_tweaks" is never returned here: the advice decides it by
    re-estimating with changed TrainSpecs. Memory: `peak_vram_bytes` is what nvidia-smi would show (the
    verdict uses it); `allocated_bytes` torch.cuda.max_memory_allocated(); `reserved_bytes` the caching
    allocator's reserve; `context_bytes` the CUDA context. `vram_fit` compares the peak with the usable
    memory: the exact bytes as they are, the activations and allocator slack widened by the family's memory band
    measured on published runs (`vram_band_bytes`, factors.toml [memory_band]);
    `ram_fit` compares RAM with what was free and what is installed (the WSL 2 limit under WSL);
    `memory_fit` is the worse; `fits` is True only when both fit with room. `limit` says what stops it:
    "" | vram | ram | slow | qlora_backend | optimizer_backend | training_backend | unknown_gpu_speed.
    Speed: flops_per_sample, peak_tflops, math, utilization, bottleneck, scaling_efficiency;
    several GPUs: comm_bytes_per_step over link_gbps. Host: ram_parts, disk_parts, dataset_in_memory.
"""

from gpucheck.estimate.core import check, estimate, estimate_variant
from gpucheck.estimate.fit import fit_band, ram_fit, too_slow_hours, uncertain_band, verdict_for
from gpucheck.estimate.json_out import estimate_to_json
from gpucheck.estimate.settings import BadSetting, apply_overrides
from gpucheck.estimate.target import Target

__all__ = ["BadSetting", "Target", "apply_overrides", "check", "estimate", "estimate_to_json", "estimate_variant",
           "fit_band", "ram_fit", "too_slow_hours", "uncertain_band", "verdict_for"]
