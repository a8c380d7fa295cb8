"""Host side: RAM (process, data-loader workers, data set in memory, checkpoint loading, offload)
and disk (data set + cache, pretrained weights, checkpoints, the Python environment).

All constants come from resources/factors.toml (`host`, `bytes_per_param`, `cpu`, `multi_gpu.links`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpucheck.estimate.activations import offloaded_checkpoint_bytes
from gpucheck.estimate.adafactor import state_share
from gpucheck.estimate.memory import placement
from gpucheck.estimate.params import ParamCounts
from gpucheck.estimate.sharding import zero_stage
from gpucheck.records import VramBreakdown, Workload

GIB = 1024**3


@dataclass(frozen=True)
class HostNeeds:
    ram_bytes: int
    disk_bytes: int
    dataset_bytes: int
    dataset_in_memory: bool
    ram_parts: dict[str, int]
    disk_parts: dict[str, int]


def loader_workers(cores: int | None, processes: int, f: Mapping[str, Any]) -> int:
    """DataLoader workers per training process: one per core less one for training, the cores shared by the
    `processes` (one per GPU), at most [host].max_loader_workers."""
    c = cores or f["cpu"]["default_cores"]
    return int(max(1, min(f["host"]["max_loader_workers"], (c - 1) // max(1, processes))))


def host_needs(w: Workload, pc: ParamCounts, bd: VramBreakdown, backend: str, cores: int | None,
               f: Mapping[str, Any], gpus: int = 1) -> HostNeeds:
    h = f["host"]
    t = w.train
    data_bytes = int(w.data.samples * w.data.bytes_per_sample)
    in_memory = w.data.in_memory
    if in_memory is None:
        in_memory = data_bytes <= h["in_memory_threshold_gib"] * GIB
    workers = loader_workers(cores, 1, f)
    ram: dict[str, int] = {
        "process": int(process_gib(w, backend, h) * GIB),
        "loader_workers": int(workers * h["worker_gib"] * GIB),
    }
    if in_memory:
        ram["dataset"] = data_bytes
    if not t.from_scratch:
        ckpt = w.model.params * _download_bpp(w, f)
        ram["checkpoint_loading"] = int(min(ckpt, h["load_shard_gib"] * GIB))
    if t.cpu_offload:
        ram["offloaded_state"] = int(offload_ram_bytes(w, pc, f, gpus))
    if t.offloads_checkpoints and w.model.arch == "transformer":
        ram["offloaded_checkpoints"] = int(offloaded_checkpoint_bytes(w.model, t, f))
    if backend == "cpu":
        ram["training"] = bd.total_bytes
    disk: dict[str, int] = {
        "dataset": int(data_bytes * h["dataset_cache_factor"]),
        "environment": int(h["environment_gib"][backend] * GIB),  # the PyTorch build for this device
    }
    if not t.from_scratch:
        disk["pretrained_weights"] = int((w.model.params + w.model.aux_params) * _download_bpp(w, f))
    if t.method == "full":
        per_ckpt = w.model.params * (h["checkpoint_bytes_per_param_full"]
                                     + f["bytes_per_param"]["optimizer"][t.optimizer] * state_share(w.model, t, pc))
    else:
        per_ckpt = pc.trainable * (f["bytes_per_param"]["adapter_weights"]
                                   + f["bytes_per_param"]["optimizer"][t.optimizer] * state_share(w.model, t, pc))
    disk["checkpoints"] = int(per_ckpt * h["checkpoints_kept"])
    return HostNeeds(
        ram_bytes=int(sum(ram.values())),
        disk_bytes=int(sum(disk.values())),
        dataset_bytes=data_bytes,
        dataset_in_memory=bool(in_memory),
        ram_parts=ram,
        disk_parts=disk,
    )


def offload_ram_bytes(w: Workload, pc: ParamCounts, f: Mapping[str, Any], gpus: int) -> float:
    """Host RAM per machine that ZeRO-Offload pins, as DeepSpeed's own estimators give it: what left the GPUs
    (fp32 master weights, fp32 gradients, optimizer state — one copy per machine with a ZeRO stage, where each
    GPU offloads its partition; a whole copy per GPU without one), at least each GPU's fp32 gradient buffer
    (estimate_zero2_model_states_mem_needs: Ψ × max(4 × GPUs, 16)), times additional_buffer_factor (1.5: pinned
    and fragmentation buffers). Machines beyond `gpus_per_node` GPUs each hold their share."""
    t = w.train
    co = f["cpu_offload"]
    n = max(1, gpus)
    per_node = int(f["multi_gpu"]["links"]["gpus_per_node"])
    nodes = max(1, -(-n // per_node))
    on_node = min(n, per_node)
    whole = placement(w.model, t, f, pc, n).offloaded  # the whole model's offloaded state
    copies = 1 if zero_stage(t, n) >= 1 else on_node
    state = whole * copies / nodes
    grad_buffers = pc.trainable * co["min_grad_bytes_per_gpu"] * on_node if t.method == "full" else 0.0
    return max(state, grad_buffers) * co["buffer_factor"]


# the libraries a job of each architecture imports besides PyTorch (what its process holds resident)
_LIBRARIES = {"cnn": ("torchvision",), "transformer": ("transformers",), "unet": ("transformers", "diffusers")}


def process_gib(w: Workload, backend: str, h: Mapping[str, Any]) -> float:
    """Resident memory of the training process besides the training state itself. On the CPU it is what the job
    imports (PyTorch, plus torchvision / transformers / diffusers by architecture: `host.import_gib`); on a GPU
    backend the driver's libraries dominate (`host.process_gib`)."""
    if backend == "cpu":
        imports = h["import_gib"]
        return float(imports["torch"]) + sum(float(imports[lib]) for lib in _LIBRARIES.get(w.model.arch, ()))
    return float(h["process_gib"][backend])


def _download_bpp(w: Workload, f: Mapping[str, Any]) -> float:
    """Bytes per parameter of the published checkpoint: 16-bit for large models, fp32 for small ones."""
    b = f["bytes_per_param"]
    if w.model.params >= f["host"]["fp16_checkpoint_above_params"]:
        return float(b["weights_frozen_16bit"])
    return float(b["weights_fp32"])
