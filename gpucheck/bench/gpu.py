"""GPU micro-benchmarks through PyTorch (CUDA, ROCm or Apple MPS; the 'cpu' device works too).

Imported only when torch is installed. Measures, each with a warm-up, several timed batches and the
median:
  - dense matmul TFLOPS in fp32, TF32 (NVIDIA, compute capability ≥ 8.0), fp16 and bf16 — square
    matrices grown until one product takes ≥ 10 ms (up to 8192), 2·n³ FLOPs per product;
  - device memory bandwidth: a large device-to-device copy, counted as read + write (2 × bytes), the
    way vendors state memory bandwidth;
  - host↔device copies (CUDA/ROCm): 256 MiB from pinned and from ordinary (pageable) host memory, and
    back to pinned memory;
  - how much device memory can really be allocated (256 MiB blocks up to what the driver reports free,
    all released at once afterwards); on Apple silicon Metal's recommended working-set size is used.
Every timed batch is short (≈0.1 s), so a cancel or the time cap stops the GPU part promptly.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from gpucheck.bench.common import Cancelled, Phase, median
from gpucheck.i18n import fmt_gib, tr, tr_text
from gpucheck.probe import nvidia as nv

MIB = 1024 * 1024
DTYPES = ("fp32", "tf32", "fp16", "bf16")
BATCH_S = 0.1  # one timed batch
MIN_SINGLE_S = 0.01  # grow the matrices until one product takes this long


@dataclass
class GpuResult:
    backend: str  # cuda | rocm | mps | cpu
    device_name: str
    torch_version: str
    tflops: dict[str, float | None] = field(default_factory=dict)
    matmul_n: dict[str, int] = field(default_factory=dict)
    mem_bandwidth_gbps: float | None = None
    h2d_pinned_gbps: float | None = None
    h2d_pageable_gbps: float | None = None
    d2h_pinned_gbps: float | None = None
    allocatable_bytes: int | None = None
    free_reported_bytes: int | None = None
    cuda_index: int = 0
    uuid: str | None = None
    notes: list[str] = field(default_factory=list)


def pick_device(torch: Any, device: str | None = None) -> tuple[Any, str] | None:
    """(torch.device, backend) of the GPU a training job would use, or None when torch sees none."""
    if device is not None:
        dev = torch.device(device)
        if dev.type == "cuda":
            return dev, ("rocm" if getattr(torch.version, "hip", None) else "cuda")
        return dev, dev.type
    if torch.cuda.is_available():
        return torch.device("cuda", 0), ("rocm" if getattr(torch.version, "hip", None) else "cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return torch.device("mps"), "mps"
    return None


def _sync(torch: Any, dev: Any) -> None:
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)
    elif dev.type == "mps":
        torch.mps.synchronize()


def _device_name(torch: Any, dev: Any) -> str:
    if dev.type == "cuda":
        return str(torch.cuda.get_device_name(dev))
    if dev.type == "mps":
        return "Apple GPU (MPS)"
    return "CPU (torch)"


def _timed_batches(torch: Any, dev: Any, fn, per_batch: int, phase: Phase, max_batches: int = 7) -> list[float]:
    """Seconds per call of fn, one figure per batch of `per_batch` calls, until the phase ends."""
    out: list[float] = []
    while len(out) < max_batches:
        phase.check()
        if len(out) >= 3 and phase.expired():
            break
        _sync(torch, dev)
        t0 = time.perf_counter()
        for _ in range(per_batch):
            fn()
        _sync(torch, dev)
        dt = time.perf_counter() - t0
        if dt > 0:
            out.append(dt / per_batch)
        if phase.expired():
            break
    return out


def _supports(torch: Any, dev: Any, backend: str, kind: str) -> tuple[bool, str | None]:
    if kind == "tf32":
        if backend != "cuda":
            return False, None
        major, _minor = torch.cuda.get_device_capability(dev)
        return major >= 8, None
    if kind == "bf16":
        if dev.type == "cuda":
            ok = bool(torch.cuda.is_bf16_supported())
            return ok, None if ok else tr_text("This GPU has no bf16 support; bf16 was not measured.")
    if kind == "fp16" and dev.type == "cpu":
        return False, None  # fp16 matmul on a CPU is an emulation nobody trains with
    return True, None


def matmul_tflops(torch: Any, dev: Any, backend: str, kind: str, phase: Phase, max_n: int = 8192) -> tuple[float | None, int]:
    dtype = {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[kind]
    old_precision = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("high" if kind == "tf32" else "highest")
    try:
        n = 512
        while True:
            phase.check()
            a = torch.randn(n, n, device=dev, dtype=dtype)
            b = torch.randn(n, n, device=dev, dtype=dtype)
            c = torch.empty(n, n, device=dev, dtype=dtype)
            torch.matmul(a, b, out=c)  # warm-up at this size (library init, kernel choice)
            single = float("inf")
            for _ in range(3):  # the quickest of three: first calls carry one-off set-up costs
                _sync(torch, dev)
                t0 = time.perf_counter()
                torch.matmul(a, b, out=c)
                _sync(torch, dev)
                single = min(single, time.perf_counter() - t0)
                if single >= BATCH_S:
                    break
            if single >= MIN_SINGLE_S or n >= max_n or phase.remaining() < 8 * single:
                break
            a = b = c = None
            n *= 2
        per_batch = max(1, int(BATCH_S / max(single, 1e-6)))
        times = _timed_batches(torch, dev, lambda: torch.matmul(a, b, out=c), per_batch, phase)
        a = b = c = None  # free the device memory before the next test
        t = median(times)
        return (2.0 * n**3 / t / 1e12 if t else None), n
    finally:
        torch.set_float32_matmul_precision(old_precision)


def mem_bandwidth(torch: Any, dev: Any, phase: Phase, nbytes: int) -> float | None:
    src = torch.empty(nbytes, dtype=torch.uint8, device=dev).fill_(1)
    dst = torch.empty_like(src)
    try:
        dst.copy_(src)
        _sync(torch, dev)
        t0 = time.perf_counter()
        dst.copy_(src)
        _sync(torch, dev)
        single = time.perf_counter() - t0
        per_batch = max(1, int(BATCH_S / max(single, 1e-6)))
        t = median(_timed_batches(torch, dev, lambda: dst.copy_(src), per_batch, phase))
        return 2.0 * nbytes / t / 1e9 if t else None
    finally:
        src = dst = None  # noqa: F841 — frees the device memory now


def host_copies(torch: Any, dev: Any, phase: Phase, nbytes: int) -> tuple[float | None, float | None, float | None]:
    """(H2D pinned, H2D pageable, D2H pinned) GB/s."""
    on_dev = torch.empty(nbytes, dtype=torch.uint8, device=dev)
    pinned = torch.empty(nbytes, dtype=torch.uint8, pin_memory=True).fill_(1)
    pageable = torch.empty(nbytes, dtype=torch.uint8).fill_(1)
    results = []
    try:
        for fn, share in ((lambda: on_dev.copy_(pinned, non_blocking=True), 1 / 3),
                          (lambda: on_dev.copy_(pageable), 1 / 2),
                          (lambda: pinned.copy_(on_dev, non_blocking=True), 1.0)):
            sub = phase.sub(phase.name, share)
            fn()
            _sync(torch, dev)
            t = median(_timed_batches(torch, dev, fn, 2, sub, max_batches=5))
            results.append(nbytes / t / 1e9 if t else None)
    finally:
        on_dev = pinned = pageable = None  # noqa: F841
    return results[0], results[1], results[2]


def allocatable(torch: Any, dev: Any, phase: Phase, block: int = 256 * MIB) -> tuple[int | None, int | None]:
    """(bytes really allocated, bytes the driver reported free) — the blocks are freed before returning."""
    torch.cuda.empty_cache()
    free, _total = torch.cuda.mem_get_info(dev)
    blocks = []
    got = 0
    oom = getattr(torch.cuda, "OutOfMemoryError", RuntimeError)
    try:
        while got + block <= free:
            phase.check()
            if phase.expired():
                break
            try:
                blocks.append(torch.empty(block, dtype=torch.uint8, device=dev))
            except oom:
                break
            got += block
    finally:
        blocks.clear()
        torch.cuda.empty_cache()
    return got, int(free)


def measure_gpu(phase: Phase, device: str | None = None, dtypes: tuple[str, ...] = DTYPES,
                max_n: int | None = None, bandwidth_bytes: int | None = None,
                host_copy_bytes: int = 256 * MIB) -> GpuResult | None:
    """Run the GPU benchmarks on `device` (default: the first CUDA/ROCm GPU, else MPS). None = no GPU."""
    import torch  # optional and slow to import: only when a GPU is measured

    picked = pick_device(torch, device)
    if picked is None:
        return None
    dev, backend = picked
    res = GpuResult(backend, _device_name(torch, dev), str(torch.__version__))
    if dev.type == "cuda":
        res.cuda_index = dev.index or 0
        try:
            res.uuid = str(torch.cuda.get_device_properties(dev).uuid)
        except Exception:
            res.uuid = None
    if max_n is None:
        max_n = 8192 if dev.type != "cpu" else 2048
    if bandwidth_bytes is None:
        bandwidth_bytes = 1024 * MIB if dev.type != "cpu" else 64 * MIB
        if dev.type == "cuda":
            free, _ = torch.cuda.mem_get_info(dev)
            bandwidth_bytes = max(16 * MIB, min(bandwidth_bytes, free // 8))
            if free < 4 * 3 * max_n * max_n * 4:  # three fp32 matrices must fit with room to spare
                max_n = 4096
        elif dev.type == "mps":  # shared with the system's RAM: stay well inside Metal's working set
            try:
                rec = int(torch.mps.recommended_max_memory())
                bandwidth_bytes = max(64 * MIB, min(bandwidth_bytes, rec // 8))
            except Exception:
                bandwidth_bytes = 256 * MIB
    kinds = [k for k in dtypes if k in DTYPES]
    n_parts = len(kinds) + 3
    # Shares of the GPU time: matmuls first (what the estimate needs most), then copies, then memory.
    capped = tr_text("The GPU tests reached the time cap; the remaining GPU figures were not measured.")
    for i, kind in enumerate(kinds):
        if phase.expired():
            res.notes.append(capped)
            return res
        ok, why = _supports(torch, dev, backend, kind)
        if not ok:
            res.tflops[kind] = None
            if why:
                res.notes.append(why)
            continue
        sub = phase.sub(tr("Measuring GPU matrix math ({dtype})", dtype=kind), 1.0 / (n_parts - i))
        sub.report()
        try:
            res.tflops[kind], res.matmul_n[kind] = matmul_tflops(torch, dev, backend, kind, sub, max_n)
        except Cancelled:
            raise
        except Exception as e:  # a dtype this build/GPU cannot multiply (MPS bf16 on old macOS, …)
            res.tflops[kind] = None
            res.notes.append(tr_text("GPU {dtype} matrix math failed: {err}", dtype=kind, err=str(e).splitlines()[0]))
    done = len(kinds)
    if phase.expired():
        res.notes.append(capped)
        return res
    sub = phase.sub(tr("Measuring GPU memory bandwidth"), 1.0 / (n_parts - done))
    sub.report()
    res.mem_bandwidth_gbps = mem_bandwidth(torch, dev, sub, bandwidth_bytes)
    done += 1
    if dev.type == "cuda" and phase.expired():
        res.notes.append(capped)
        return res
    if dev.type == "cuda":
        sub = phase.sub(tr("Measuring CPU↔GPU copies"), 1.0 / (n_parts - done))
        sub.report()
        try:
            res.h2d_pinned_gbps, res.h2d_pageable_gbps, res.d2h_pinned_gbps = host_copies(
                torch, dev, sub, host_copy_bytes)
        except RuntimeError as e:
            res.notes.append(tr_text("CPU↔GPU copy test failed: {err}", err=str(e).splitlines()[0]))
        done += 1
        if phase.expired():
            res.notes.append(capped)
            return res
        sub = phase.sub(tr("Checking how much GPU memory can be allocated"), 1.0)
        sub.report()
        res.allocatable_bytes, res.free_reported_bytes = allocatable(torch, dev, sub)
        if res.free_reported_bytes and res.allocatable_bytes is not None \
                and res.allocatable_bytes + 256 * MIB < res.free_reported_bytes and not sub.expired():
            res.notes.append(tr_text("Only {got} of the {free} GPU memory reported free could be allocated.",
                                got=fmt_gib(res.allocatable_bytes), free=fmt_gib(res.free_reported_bytes)))
    elif dev.type == "mps":
        recommended = getattr(getattr(torch, "mps", None), "recommended_max_memory", None)
        if recommended is not None:
            try:
                res.allocatable_bytes = int(recommended())
                res.notes.append(tr_text("GPU memory: Metal's recommended working-set size (not test-allocated, "
                                    "since it is shared with the system's RAM)."))
            except Exception:
                pass
        res.notes.append(tr_text("Apple silicon shares memory between CPU and GPU: there is no host↔device copy to measure."))
    return res


# -- NVIDIA temperature / throttle through the NVML wrapper ---------------------------------------


def nvidia_thermal(uuid: str | None, index: int, nvml: Any = None) -> tuple[float | None, tuple[str, ...], str | None]:
    """(°C, active clock-event reasons except idle, why unknown) for one NVIDIA GPU; never raises.

    `nvml` is a pynvml-compatible module (default: pynvml itself), read through the probe's NvmlSession.
    """
    if nvml is None:
        try:
            import pynvml  # optional binding (nvidia-ml-py): absent → unknown, with the reason
        except Exception as e:  # NVML binding missing
            return None, (), str(e)
        nvml = pynvml
    try:
        with nv.NvmlSession(nvml) as s:
            if s.error:
                return None, (), s.error
            handle = None
            if uuid:
                u = uuid if uuid.startswith(("GPU-", "MIG-")) else f"GPU-{uuid}"
                handle = s.q("nvmlDeviceGetHandleByUUID", u)
            if handle is None:
                handle = s.q("nvmlDeviceGetHandleByIndex", index)
            if handle is None:
                return None, (), s.reasons.get("nvmlDeviceGetHandleByIndex", "no handle")
            temp = s.q("nvmlDeviceGetTemperature", handle, s.const("NVML_TEMPERATURE_GPU", 0))
            mask = s.q("nvmlDeviceGetCurrentClocksEventReasons", handle)
            if mask is None:
                mask = s.q("nvmlDeviceGetCurrentClocksThrottleReasons", handle)
            reasons = tuple(r for r in nv.decode_throttle(mask) if r != "gpu_idle")
            return (float(temp) if temp is not None else None), reasons, None
    except Exception as e:  # never let a sensor read break the benchmark
        return None, (), str(e)
