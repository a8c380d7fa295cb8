"""Pure estimates: (Workload, Target) → Estimate. No Qt, no I/O beyond reading the cached catalogs.

Public API (what the advice, wizard and report code call)
---------------------------------------------------------
Targets — what a job runs on:
    Target(gpu, gpus, vram_available_bytes, ram_bytes, cpu_cores, measured, label, …)   frozen
        gpu=None means the CPU (or, with backend != "cpu", a GPU missing from the catalog: memory
        is checked, speed is unknown). `vram_available_bytes` is per GPU: a MIG slice's memory,
        Apple's usable working set, or the total less what a display keeps (memory other programs use
        at scan time is reported in `notes`, not subtracted).
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
shard (= stage 3, FSDP) over target.gpus GPUs; precision bf16-pure (all state in bf16).

The Estimate (gpucheck.records.Estimate), typed fields only:
    verdict (a gpucheck.verdict.Verdict) for the EXACT configuration: runs | tight | too_slow |
    does_not_fit | not_supported. "runs_with_tweaks" is never returned here: the advice decides it by
    re-estimating with changed TrainSpecs. Memory: `peak_vram_bytes` is what nvidia-smi would show (the
    verdict uses it); `allocated_bytes` torch.cuda.max_memory_allocated(); `reserved_bytes` the caching
    allocator's reserve; `context_bytes` the CUDA context. `vram_fit` compares the peak with the usable
    memory through the family's measured error band (`vram_band_bytes`, factors.toml [fit_band]);
    `ram_fit` compares RAM with what was free and what is installed (the WSL 2 limit under WSL);
    `memory_fit` is the worse; `fits` is True only when both fit with room. `limit` says what stops it:
    "" | vram | ram | slow | qlora_backend | optimizer_backend | training_backend | unknown_gpu_speed.
    Speed: flops_per_sample, peak_tflops, math, utilization, bottleneck, scaling_efficiency;
    several GPUs: comm_bytes_per_step over link_gbps. Host: ram_parts, disk_parts, dataset_in_memory.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpucheck.catalog import gpu_for, load_workloads
from gpucheck.estimate import bands
from gpucheck.estimate.calibration import Calibration, calibrated_speed, calibration_for, host_seconds
from gpucheck.estimate.compute import CpuCore, Speed, cpu_core, effective_precision, run_samples, speed
from gpucheck.estimate.factors import default_seq_len, load_factors
from gpucheck.estimate.host import host_needs
from gpucheck.estimate.links import Traffic, network_gbps
from gpucheck.estimate.memory import (
    Placement,
    breakdown,
    context_bytes,
    placement,
    weight_parts,
)
from gpucheck.estimate.settings import BadSetting, apply_overrides, check_gpus
from gpucheck.i18n import (
    N_,
    fmt_gib,
    localized,
    lora_targets_label,
    method_label,
    optimizer_label,
    precision_label,
    tr,
)
from gpucheck.probe.apple import working_set_estimate
from gpucheck.records import Estimate, GpuSpec, TrainSpec, VramBreakdown, Workload
from gpucheck.verdict import Verdict

GIB = 1024**3

__all__ = [
    "Target",
    "estimate",
    "estimate_variant",
    "check",
    "apply_overrides",
    "BadSetting",
    "verdict_for",
    "too_slow_hours",
    "estimate_to_json",
]


@dataclass(frozen=True)
class Target:
    gpu: GpuSpec | None  # None: CPU (or an unknown GPU when backend is not "cpu")
    gpus: int = 1
    vram_available_bytes: int | None = None  # per GPU
    ram_bytes: int | None = None  # total system RAM (under WSL 2: the Linux VM's limit)
    ram_available_bytes: int | None = None  # free at scan time; None = unknown
    cpu_cores: int | None = None  # physical
    measured: Any = None  # machine.Measured from a deep scan
    label: str = ""
    backend: str = "cpu"  # cuda | rocm | metal | xpu | cpu | other
    unified_memory: bool = False  # Apple: VRAM and RAM are the same bytes
    gpu_name: str | None = None  # as scanned (may differ from the catalog name)
    nvlink: bool | None = None  # from the scan: GPUs linked by NVLink
    cpu_max_clock_mhz: float | None = None
    cpu_flags: tuple[str, ...] = ()
    cpu_vendor: str | None = None  # intel | amd | apple | arm | other
    cpu_brand: str | None = None
    notes: tuple[str, ...] = ()
    calibration: Calibration | None = None  # measured on this PC (gpucheck calibrate / trial); None: not calibrated

    # -- constructors ----------------------------------------------------------------------------
    @classmethod
    def from_gpu(cls, spec: GpuSpec, gpus: int = 1, machine: Any = None) -> Target:
        gpus = check_gpus(gpus)
        host = _host_fields(machine)
        avail = usable_vram_bytes(spec)
        if spec.vendor == "apple":  # unified memory: Metal lets the GPU use only part of it
            avail = working_set_estimate(spec.vram_bytes)[0]
            if not host.get("ram_bytes"):
                host["ram_bytes"] = spec.vram_bytes
        return cls(
            gpu=spec,
            gpus=gpus,
            vram_available_bytes=avail,
            calibration=calibration_for(machine, spec.name),
            backend=spec.backend,
            unified_memory=spec.vendor == "apple",
            gpu_name=spec.name,
            label=spec.name if gpus == 1 else f"{gpus}× {spec.name}",
            nvlink=(spec.interconnect == "nvlink") if gpus > 1 else None,
            notes=(localized(spec, "notes"),) if spec.notes else (),  # what the card is (China-market, modified)
            **host,
        )

    @classmethod
    def from_machine(cls, machine: Any, gpus: int | None = None) -> Target:
        host = _host_fields(machine)
        measured = getattr(machine, "measured", None)
        compute = tuple(machine.compute_gpus()) if machine is not None else ()
        label = getattr(machine, "label", None) or ""
        if not compute:
            return cls(gpu=None, gpus=1, backend="cpu", label=label or tr("this PC"),
                       calibration=calibration_for(machine, "CPU"), **dict(host, measured=measured))
        first = compute[0]
        same = [g for g in compute if g.name == first.name]
        n = len(same) if gpus is None else check_gpus(gpus)
        spec = gpu_for(first)
        notes: list[str] = []
        if len(same) < len(compute):
            notes.append(tr("This PC has different GPU models; the estimate uses the {n}× {name} only",
                            n=len(same), name=first.name))
        avail = _available_vram(first, spec, machine, notes)
        spec = _mig_share(first, spec, notes)
        backend = first.backend if first.backend in ("cuda", "rocm", "metal", "xpu") else "other"
        if spec is None:
            notes.append(tr("{name} is not in the GPU catalog: memory is checked, speed is unknown",
                            name=first.name))
        nvlink = None
        if n > 1:
            nvlink = bool(first.nvlink_links) if first.nvlink_links is not None else (
                spec.interconnect == "nvlink" if spec else None)
        if measured is not None and getattr(measured, "gpu_name", None) and spec is not None:
            if gpu_for(dataclasses.replace(first, name=measured.gpu_name, catalog_id=None)) != spec:
                measured = None  # measured on another GPU
        return cls(
            gpu=spec,
            gpus=n,
            vram_available_bytes=avail,
            backend=backend,
            unified_memory=first.vendor == "apple" or first.memory_kind == "unified",
            gpu_name=first.name,
            label=label or first.name,
            nvlink=nvlink,
            notes=tuple(notes),
            calibration=calibration_for(machine, spec.name) if spec is not None else None,
            **dict(host, measured=measured),
        )

    # -- derived figures -------------------------------------------------------------------------
    def cpu_core(self, f: Mapping[str, Any]) -> CpuCore:
        """The CPU's cores as its flags describe them (SIMD width, FMA units, native bf16, AMX)."""
        return cpu_core(self.cpu_vendor, self.cpu_brand, self.cpu_flags, f)

    def cpu_peak_tflops(self, f: Mapping[str, Any], per_cycle: float | None = None) -> float:
        """Cores × clock × FLOPs per core per cycle (fp32 unless `per_cycle` is given)."""
        c = f["cpu"]
        cores = self.cpu_cores or c["default_cores"]
        ghz = (self.cpu_max_clock_mhz or c["default_clock_mhz"]) / 1000.0
        if per_cycle is None:
            per_cycle = self.cpu_core(f).fp32_flops_per_cycle
        return cores * ghz * per_cycle / 1000.0

    @property
    def native_bf16(self) -> bool:
        """The CPU multiplies bf16 natively (AVX512_BF16, AMX-BF16, Arm FEAT_BF16)."""
        return self.cpu_core(load_factors()).native_bf16

    def bandwidth_gbps(self, f: Mapping[str, Any]) -> float:
        m = self.measured
        if self.gpu is None:
            if m is not None and getattr(m, "ram_copy_gbps", None):
                return m.ram_copy_gbps
            return f["cpu"]["default_mem_bandwidth_gbps"]
        if m is not None and getattr(m, "gpu_mem_bandwidth_gbps", None):
            return m.gpu_mem_bandwidth_gbps
        return self.gpu.mem_bandwidth_gbps

    @property
    def bandwidth_measured(self) -> bool:
        m = self.measured
        if m is None:
            return False
        if self.gpu is None:
            return bool(getattr(m, "ram_copy_gbps", None))
        return bool(getattr(m, "gpu_mem_bandwidth_gbps", None))

    def link_gbps(self, f: Mapping[str, Any]) -> float:
        """Achievable all-reduce / all-gather bus bandwidth per GPU, GB/s, over the link the GPUs of one machine
        really use: NVLink, PCIe peer-to-peer, PCIe through host memory (GeForce cards without peer-to-peer).
        Beyond one machine the network is priced separately (compute.network_gbps, compute.link_seconds)."""
        mg = f["multi_gpu"]
        spec = self.gpu
        links = mg["links"]
        if spec is not None and self.nvlink is not False and spec.interconnect in ("nvlink", "infinity-fabric") \
                and spec.nvlink_gbps:
            return spec.nvlink_gbps / 2.0 * mg["nvlink_efficiency"]
        gen = str(spec.pcie_gen if spec and spec.pcie_gen else mg["unknown_pcie_gen"])
        gbps = float(mg["pcie_gbps"][gen if gen in mg["pcie_gbps"] else str(mg["unknown_pcie_gen"])])
        if spec is not None and spec.vendor == "nvidia" and spec.segment in ("consumer", "laptop"):
            gbps *= float(links["no_p2p_factor"])  # GeForce: no peer-to-peer, copies go through host memory
        return gbps

    @property
    def nodes(self) -> int:
        per = int(load_factors()["multi_gpu"]["links"]["gpus_per_node"])
        return max(1, -(-self.gpus // per))

    @property
    def device_name(self) -> str:
        if self.gpu is not None:
            return self.gpu.name
        if self.backend != "cpu" and self.gpu_name:
            return self.gpu_name
        return "CPU"


def _host_fields(machine: Any) -> dict[str, Any]:
    if machine is None:
        return {}
    mem = getattr(machine, "memory", None)
    cpu = getattr(machine, "cpu", None)
    return {
        "ram_bytes": getattr(mem, "total_bytes", None),
        "ram_available_bytes": getattr(mem, "available_bytes", None),
        "cpu_cores": (getattr(cpu, "physical_cores", None) or getattr(cpu, "logical_cores", None)),
        "cpu_max_clock_mhz": getattr(cpu, "max_clock_mhz", None) or getattr(cpu, "base_clock_mhz", None),
        "cpu_flags": tuple(getattr(cpu, "flags", ()) or ()),
        "cpu_vendor": getattr(cpu, "vendor", None),
        "cpu_brand": getattr(cpu, "brand", None),
        "measured": getattr(machine, "measured", None),
    }


def _mig_share(g: Any, spec: GpuSpec | None, notes: list[str]) -> GpuSpec | None:
    """A MIG slice gets its share of the GPU: its SMs' share of the arithmetic and its memory slices'
    share of the bandwidth (NVIDIA MIG user guide: each GPU instance owns its SMs, L2 and memory
    controllers). The catalog figures are for the whole GPU."""
    if spec is None or not (g.mig_enabled and g.mig_slices) or not g.sm_count:
        return spec
    sms = [s.sm_count for s in g.mig_slices if s.sm_count]
    if not sms:
        return spec
    share = min(1.0, min(sms) / g.sm_count)
    mems = [s.memory_total_bytes for s in g.mig_slices if s.memory_total_bytes]
    mem_share = min(1.0, min(mems) / g.vram_total_bytes) if mems and g.vram_total_bytes else share
    notes.append(tr("A MIG slice has {n} of the GPU's {total} SMs: the speed is that share of the whole GPU",
                    n=min(sms), total=g.sm_count))

    def scaled(x: float | None) -> float | None:
        return None if x is None else x * share

    return dataclasses.replace(
        spec, tflops_fp32=spec.tflops_fp32 * share, tflops_fp16_tensor=scaled(spec.tflops_fp16_tensor),
        tflops_bf16_tensor=scaled(spec.tflops_bf16_tensor), tflops_tf32_tensor=scaled(spec.tflops_tf32_tensor),
        tflops_fp8_tensor=scaled(spec.tflops_fp8_tensor), mem_bandwidth_gbps=spec.mem_bandwidth_gbps * mem_share)


def usable_vram_bytes(spec: GpuSpec) -> int:
    """What a job gets of a catalog card: the total nvidia-smi reports (ECC reserve taken off) where gpus.toml
    records it (vram_usable_mib, with its source), else the card's size."""
    if spec.vram_usable_mib:
        return int(spec.vram_usable_mib * 2**20)
    return spec.vram_bytes


def _available_vram(g: Any, spec: GpuSpec | None, machine: Any, notes: list[str]) -> int | None:
    f = load_factors()
    if g.mig_enabled and g.mig_slices:
        sizes = [s.memory_total_bytes for s in g.mig_slices if s.memory_total_bytes]
        if sizes:
            notes.append(tr("MIG is on: a job gets one slice ({size}), not the whole GPU",
                            size=fmt_gib(min(sizes))))
            return min(sizes)
    if g.vendor == "apple" or g.memory_kind == "unified":
        if g.usable_memory_bytes:
            return g.usable_memory_bytes
        total = getattr(getattr(machine, "memory", None), "total_bytes", None)
        if total:
            return working_set_estimate(total)[0]
        return spec.vram_bytes if spec else None
    if g.vram_free_bytes is not None and g.vram_total_bytes:
        used = max(0, g.vram_total_bytes - g.vram_free_bytes)
        v = f["vram"]
        if g.display_active:
            # a display keeps its share; anything beyond a display's typical use is other programs
            reserve = min(used, int(v["display_reserve_max_gib"] * GIB))
            if used > reserve:
                notes.append(tr("{used} of {name}'s memory is in use by other programs right now; the estimate "
                                "assumes you close them", used=fmt_gib(used - reserve), name=g.name))
            return g.vram_total_bytes - reserve
        if used > v["busy_note_gib"] * GIB:
            notes.append(tr("{used} of {name}'s memory is in use by other programs right now; the estimate "
                            "assumes you close them", used=fmt_gib(used), name=g.name))
        return g.vram_total_bytes
    if g.display_active and g.vram_total_bytes:
        return g.vram_total_bytes - int(f["vram"]["display_reserve_default_gib"] * GIB)
    if g.vram_total_bytes:
        return g.vram_total_bytes
    return spec.vram_bytes if spec else None


# -- rules -----------------------------------------------------------------------------------------


def too_slow_hours() -> float:
    return float(load_factors()["verdict"]["too_slow_days"]) * 24.0


def verdict_for(*, supported: bool, fits: bool, total_hours: float | None,
                too_slow_after_hours: float | None = None, tight: bool = False) -> Verdict:
    """The verdict for one exact configuration: not_supported > does_not_fit > too_slow > tight > runs.
    `fits` is False only when even the estimate's error band says it does not fit; `tight` when it may."""
    if not supported:
        return Verdict.NOT_SUPPORTED
    if not fits:
        return Verdict.DOES_NOT_FIT
    limit = too_slow_hours() if too_slow_after_hours is None else too_slow_after_hours
    if total_hours is not None and total_hours > limit:
        return Verdict.TOO_SLOW
    return Verdict.TIGHT if tight else Verdict.RUNS


def uncertain_band(uncertain_bytes: float, family: str, vendor: str = "nvidia") -> tuple[float, float]:
    """(low, high) of the UNCERTAIN part of a GPU's memory need (activations and caching-allocator slack): that
    part × the family's memory band on this vendor's GPUs (estimate.bands.memory_band: the multipliers the
    published memory rows needed, leave-one-source-out; the wide default where none were checked). Weights,
    gradients, optimizer state and the CUDA context are exact bytes for given settings and are not widened."""
    lo, hi = bands.memory_band(family, vendor)
    return uncertain_bytes * lo, uncertain_bytes * hi


def fit_band(exact_bytes: float, uncertain_bytes: float, available_bytes: float | None,
             family: str, vendor: str = "nvidia") -> tuple[str, int, int]:
    """("fits" | "tight" | "does_not_fit", low, high): where the real peak may lie. Only the uncertain part
    (`uncertain_band`) is widened; the exact part is bytes. Usable memory is what is available less the
    last few percent (factors.toml [fit_band] headroom_fraction). Does not fit: the exact bytes alone exceed
    usable memory, or even the low end exceeds what is available. Tight: the exact bytes fit and the
    uncertain part spans the limit. Fits: even the high end leaves the headroom free."""
    fb = load_factors()["fit_band"]
    u_lo, u_hi = uncertain_band(uncertain_bytes, family, vendor)
    lo, hi = exact_bytes + u_lo, exact_bytes + u_hi
    if available_bytes is None:
        return "fits", int(lo), int(hi)
    usable = available_bytes * (1.0 - float(fb["headroom_fraction"]))
    if exact_bytes > usable or lo > available_bytes:
        return "does_not_fit", int(lo), int(hi)
    if hi > usable:
        return "tight", int(lo), int(hi)
    return "fits", int(lo), int(hi)


def ram_fit(need_bytes: int, total_bytes: int | None, available_bytes: int | None) -> str:
    """System RAM: "does_not_fit" over the installed (or WSL 2) total; "tight" when the high end of the
    estimate's error band (factors.toml [fit_band] ram_short) leaves less than the last few percent of what
    was free at the scan (close programs first); otherwise "fits"."""
    if total_bytes is None:
        return "fits"
    if need_bytes > total_bytes:
        return "does_not_fit"
    fb = load_factors()["fit_band"]
    high = need_bytes / (1.0 - float(fb["ram_short"]))
    # what is free unknown (a Mac given by name): the installed total less the same headroom, so the system
    # keeps its share as it does of GPU memory
    free = available_bytes if available_bytes is not None else total_bytes
    if high > free * (1.0 - float(fb["headroom_fraction"])):
        return "tight"
    return "fits"


def _support(t: TrainSpec, target: Target, f: Mapping[str, Any]) -> tuple[bool, str, str]:
    """(supported?, reason code, message) from the [support] table of factors.toml."""
    s = f["support"]
    backend = target.backend
    if backend not in s["training_backends"]:
        return False, "training_backend", tr(
            "Training with PyTorch is not supported on this GPU's driver stack ({backend}); "
            "it needs CUDA, ROCm, Apple MPS or Intel XPU", backend=backend)
    if t.method == "qlora" and backend not in s["bitsandbytes_backends"]:
        return False, "qlora_backend", tr(
            "QLoRA needs bitsandbytes 4-bit kernels, which are released for NVIDIA CUDA, AMD ROCm and Intel "
            "XPU; on this backend they are not available for training")
    if t.optimizer == "adamw-8bit" and backend not in s["bitsandbytes_backends"]:
        return False, "optimizer_backend", tr(
            "8-bit AdamW needs bitsandbytes, which is released for NVIDIA CUDA, AMD ROCm and Intel XPU; on "
            "this backend it is not available")
    return True, "", ""


# -- the estimate ----------------------------------------------------------------------------------


def _normalize(w: Workload, t: TrainSpec) -> TrainSpec:
    m = w.model
    changes: dict[str, Any] = {}
    if m.arch == "transformer" and not t.seq_len:
        changes["seq_len"] = default_seq_len()
    if m.arch != "transformer" and not t.image_size and m.ref_image_size:
        changes["image_size"] = m.ref_image_size
    return dataclasses.replace(t, **changes) if changes else t


def lacks_bf16(target: Target) -> bool:
    """The target GPU has no BF16 units (NVIDIA before Ampere, AMD RDNA 2, Apple M1/M2 in the catalog)."""
    return target.backend != "cpu" and target.gpu is not None and target.gpu.tflops_bf16_tensor is None


def _forced_precision(t: TrainSpec, target: Target, notes: list[str], assumed: list[str]) -> TrainSpec:
    """The precision the GPU really trains in (bf16 without bf16 units → fp16; fp16 on a CPU → bf16).
    A job's default BF16 (not chosen by the user) starts at FP16 on a GPU without BF16: a default for the
    card, said in the assumptions, not a change the advice has to make."""
    if t.precision in ("bf16", "bf16-pure") and not t.precision_chosen and lacks_bf16(target):
        assumed.append(tr("FP16 mixed precision: the default on {gpu}, which has no BF16",
                          gpu=target.device_name))
        return dataclasses.replace(t, precision="fp16")
    if target.gpu is not None:
        p = effective_precision(dataclasses.replace(t, precision="bf16") if t.precision == "bf16-pure" else t,
                                target.gpu, target.backend)
        if t.precision == "bf16-pure" and p == "bf16":
            return t
        if p != t.precision:
            notes.append(tr("{gpu} has no bf16 support: the estimate uses fp16 mixed precision",
                            gpu=target.gpu.name))
            return dataclasses.replace(t, precision=p)
    elif target.backend == "cpu":
        return _cpu_precision(t, target, notes, assumed)
    return t


def _cpu_precision(t: TrainSpec, target: Target, notes: list[str], assumed: list[str]) -> TrainSpec:
    """On a CPU: bf16 where the cores multiply it natively (fp16 becomes bf16: CPU autocast is bf16), fp32
    where they do not — PyTorch would emulate bf16, slower than fp32 — unless the user asked for bf16."""
    if t.precision == "fp32":
        return t
    if target.native_bf16:
        if t.precision == "fp16":
            notes.append(tr("CPUs train in bf16 or fp32, not fp16: the estimate uses bf16"))
            return dataclasses.replace(t, precision="bf16")
        return t
    if t.precision_chosen and t.precision != "fp16":
        notes.append(tr("This CPU has no native BF16: PyTorch emulates it, slower than FP32"))
        return t
    assumed.append(tr("FP32: the default on this CPU, which has no native BF16 (AVX512_BF16, AMX or Arm BF16)"))
    return dataclasses.replace(t, precision="fp32")


@dataclass(frozen=True)
class _Memory:
    fit: str  # fits | tight | does_not_fit (VRAM and RAM together)
    vram_fit: str
    ram_fit: str
    limit: str  # "" | vram | ram
    band: tuple[int, int]
    ram_needed: int


def _check_memory(w: Workload, target: Target, bd: VramBreakdown, host_ram: int, notes: list[str]) -> _Memory:
    avail = target.vram_available_bytes
    peak = bd.total_bytes
    ram_total, ram_free = target.ram_bytes, target.ram_available_bytes
    if target.backend == "cpu":
        vfit, band = "fits", (peak, peak)
        ram_needed = host_ram
    else:
        exact = bd.weights_bytes + bd.gradients_bytes + bd.optimizer_bytes + context_bytes(load_factors(),
                                                                                          target.backend)
        vfit, lo, hi = fit_band(exact, peak - exact, avail, w.family, bands.vendor_of(target))
        band = (lo, hi)
        ram_needed = host_ram + peak if target.unified_memory else host_ram
    rfit = ram_fit(ram_needed, ram_total, ram_free)
    order = ("fits", "tight", "does_not_fit")
    fit = max(vfit, rfit, key=order.index)
    limit = "vram" if vfit != "fits" and order.index(vfit) >= order.index(rfit) else ("ram" if rfit != "fits" else "")
    if vfit != "fits" and avail is not None:
        notes.append(tr("Needs about {need} of GPU memory per GPU; {have} is usable",
                        need=fmt_gib(peak), have=fmt_gib(avail)))
    if avail is None and target.backend != "cpu":
        notes.append(tr("The GPU's memory size is unknown, so whether the job fits is not checked"))
    if rfit == "does_not_fit" and ram_total is not None:
        notes.append(tr("Needs about {need} of system RAM; this PC has {have}",
                        need=fmt_gib(ram_needed), have=fmt_gib(ram_total)))
    elif rfit == "tight" and ram_free is not None:
        notes.append(tr("Needs about {need} of system RAM; {free} of {have} was free at the scan: close other "
                        "programs first", need=fmt_gib(ram_needed), free=fmt_gib(ram_free),
                        have=fmt_gib(ram_total)))
    return _Memory(fit, vfit, rfit, limit, band, ram_needed)


def _traffic(w: Workload, t: TrainSpec, f: Mapping[str, Any], pc: Any, pl: Placement, n: int) -> Traffic:
    """What each GPU moves per step besides its own memory: the placement's collectives (gradients exchanged per
    optimizer step, weights gathered per micro-batch when sharded) and, with CPU offload, ZeRO-Offload's copies of
    this GPU's partition (fp32 gradients out every micro-batch, 16-bit parameters back every optimizer step), the
    CPU optimizer's pass over the machine's partitions, and FSDP's offloaded frozen shards streamed in per pass."""
    comm = pl.comm_bytes_per_optimizer_step(t.grad_accum) if n > 1 else 0.0
    if not t.cpu_offload:
        return Traffic(comm_bytes=comm, sharded=pl.stage >= 3)
    co = f["cpu_offload"]
    per_node = int(f["multi_gpu"]["links"]["gpus_per_node"])
    nodes = max(1, -(-n // per_node))
    partitioned = pl.stage >= 1 or n == 1
    share = pc.trainable / n if partitioned else pc.trainable
    on_node = pc.trainable / nodes if partitioned else pc.trainable * min(n, per_node) / nodes
    stream = 0.0
    if pl.stage >= 3 and t.method != "full":
        passes = 3.0 if t.grad_checkpointing else 2.0
        stream = weight_parts(w.model, t, f, pc).frozen / n * passes
    return Traffic(comm_bytes=comm, sharded=pl.stage >= 3,
                   offload_out_bytes=share * co["grad_out_bytes_per_param"],
                   offload_in_bytes=share * co["param_in_bytes_per_param"], offload_stream_bytes=stream,
                   host_update_bytes=on_node * f["bandwidth"]["optimizer_bytes_per_trainable_param"]["adamw"],
                   gpus_on_node=min(n, per_node))


def _speed(w: Workload, t: TrainSpec, target: Target, f: Mapping[str, Any], pc: Any,
           pl: Placement) -> Speed | None:
    if target.gpu is None and target.backend != "cpu":
        return None
    n = target.gpus if target.gpu is not None else 1
    traffic = _traffic(w, t, f, pc, pl, n)
    t_speed = dataclasses.replace(t, precision="bf16") if t.precision == "bf16-pure" else t
    avg = w.data.avg_seq_len
    if w.model.arch == "transformer" and avg and t.seq_len and avg < t.seq_len and t.packing:
        # short samples packed into full rows: the GPU works on full rows, attention spans one sample
        # (variable-length attention), and each row carries seq_len / avg samples
        sp = speed(w.model, t_speed, target, f, pc, traffic, attn_len=avg)
        return dataclasses.replace(sp, samples_per_second=sp.samples_per_second * t.seq_len / avg)
    if w.model.arch == "transformer" and avg and t.seq_len and avg < t.seq_len:
        # samples shorter than the maximum length: compute (and activation traffic) follow the mean
        t_speed = dataclasses.replace(t_speed, seq_len=avg)
    return speed(w.model, t_speed, target, f, pc, traffic)


def _varying_shapes(w: Workload, t: TrainSpec) -> bool:
    """Transformer micro-batches change shape from step to step unless rows are packed to a fixed length
    (pre-training on a token stream, `packing`) or every sample is as long as the row."""
    if w.model.arch != "transformer" or t.packing or w.data.tokens:
        return False
    avg = w.data.avg_seq_len
    return avg is None or avg < (t.seq_len or avg)


def estimate(workload: Workload, target: Target, train: TrainSpec | None = None) -> Estimate:
    f = load_factors()
    t = _normalize(workload, train or workload.train)
    w = workload if train is None else dataclasses.replace(workload, train=t)
    notes: list[str] = list(target.notes)
    backend = target.backend
    assumed: list[str] = []
    t_used = _forced_precision(t, target, notes, assumed)
    supported, reason, msg = _support(t_used, target, f)
    if msg:
        notes.append(msg)
    n_gpus = target.gpus if target.gpu is not None or backend != "cpu" else 1
    bd, pc = breakdown(w.model, t_used, f, backend, n_gpus, varying_shapes=_varying_shapes(w, t_used))
    host = host_needs(w, pc, bd, backend, target.cpu_cores, f, n_gpus)
    peak = bd.total_bytes
    mem = _check_memory(w, target, bd, host.ram_bytes, notes)
    reason = reason or mem.limit
    pl = placement(w.model, t_used, f, pc, n_gpus)
    sp = _speed(w, t_used, target, f, pc, pl)
    raw_step = sp.step_seconds if sp is not None else None
    host_s = host_seconds(sp, backend, t_used, f) if sp is not None else None
    calibrated = None
    if sp is not None and target.calibration is not None:
        sp = calibrated_speed(sp, target.calibration, w.model.arch, host_s or 0.0)
        calibrated = target.calibration.to_json()
    if sp is None and supported:
        reason = reason or "unknown_gpu_speed"
    total_samples = run_samples(w, t_used)
    total_hours = total_samples / sp.samples_per_second / 3600.0 if sp and sp.samples_per_second else None
    vendor = target.gpu.vendor if target.gpu is not None else ""
    band = bands.speed_band(w.family, bands.vendor_of(target), f)
    band_note = bands.unchecked_note(w.family, bands.vendor_of(target), f) if sp is not None else None
    if band_note:
        notes.append(band_note)
    if sp is not None and sp.host_bound:
        notes.append(_host_bound_note(target, sp))
    verdict = verdict_for(supported=supported, fits=mem.fit != "does_not_fit", total_hours=total_hours,
                          tight=mem.fit == "tight")
    if verdict == Verdict.TOO_SLOW and not reason:
        reason = "slow"
    if backend == "cpu" and supported:
        notes.append(tr("No usable GPU: the estimate is for training on the CPU"))
    if target.unified_memory:
        notes.append(tr("Apple GPUs share memory with the system: the job and everything else "
                        "running share the same RAM"))
    ctx = int(context_bytes(f, backend))
    allocated = int(bd.total_bytes - bd.overhead_bytes)
    return Estimate(
        workload_id=w.id, gpu_name=target.device_name, gpus=n_gpus if target.gpu is not None or backend != "cpu"
        else 0, train=t, fits=mem.fit == "fits", verdict=verdict,
        peak_vram_bytes=peak if backend != "cpu" else 0, vram_available_bytes=target.vram_available_bytes,
        breakdown=bd, ram_bytes=mem.ram_needed, disk_bytes=host.disk_bytes,
        samples_per_second=sp.samples_per_second if sp else None,
        tokens_per_second=sp.tokens_per_second if sp else None,
        step_seconds=sp.step_seconds if sp else None, total_hours=total_hours,
        measured_inputs=bool(sp and sp.measured), notes=tuple(dict.fromkeys(notes)),
        assumptions=_assumptions(w, t_used) + tuple(assumed),
        memory_fit=mem.fit, vram_fit=mem.vram_fit, ram_fit=mem.ram_fit, limit=reason, backend=backend, precision_used=t_used.precision,
        allocated_bytes=allocated, reserved_bytes=int(bd.total_bytes - ctx),
        context_bytes=ctx, vram_band_bytes=mem.band if backend != "cpu" else (0, 0),
        ram_total_bytes=target.ram_bytes, ram_available_bytes=target.ram_available_bytes,
        ram_besides_training_bytes=int(host.ram_bytes - host.ram_parts.get("training", 0)),
        ram_parts=host.ram_parts, disk_parts=host.disk_parts, dataset_in_memory=host.dataset_in_memory,
        total_params=pc.total, trainable_params=pc.trainable, total_samples=total_samples,
        too_slow_hours=too_slow_hours(),
        flops_per_sample=sp.flops_per_sample if sp else None, peak_tflops=sp.peak_tflops if sp else None,
        math=sp.math if sp else None, utilization=sp.utilization if sp else None,
        bottleneck=sp.bottleneck if sp else None, scaling_efficiency=sp.scaling_efficiency if sp else None,
        stack=t_used.stack, speed_family=w.family,
        hours_range=(total_hours * band[0], total_hours * band[1]) if total_hours is not None else None,
        step_seconds_range=(sp.step_seconds * band[0], sp.step_seconds * band[1]) if sp else None,
        comm_bytes_per_step=pl.comm_bytes_per_optimizer_step(t_used.grad_accum) if n_gpus > 1 else 0.0,
        link_gbps=target.link_gbps(f) if n_gpus > 1 and target.gpu is not None else None,
        network_gbps=network_gbps(target, f) if target.gpu is not None and target.nodes > 1 else None,
        offload_seconds=sp.offload_seconds if sp else 0.0, vendor=vendor,
        speed_checked=bands.vendor_of(target) not in bands.unchecked(w.family, bands.vendor_of(target), "speed", f), host_bound=bool(sp and sp.host_bound),
        host_clock_mhz=sp.host_clock_mhz if sp and sp.host_clock_mhz else None,
        host_clock_assumed=target.gpu is not None and not target.cpu_max_clock_mhz,
        calibrated=calibrated, uncalibrated_step_seconds=raw_step, host_step_seconds=host_s,
    )


_HOST_KIND = {"datacenter": N_("server"), "workstation": N_("workstation"), "consumer": N_("desktop"),
              "laptop": N_("laptop"), "apple": N_("Apple Mac"), "integrated": N_("desktop")}


def _host_bound_note(target: Target, sp: Speed) -> str:
    """Why a step is bound by the CPU: the operators it launches, at the host's clock (assumed or scanned)."""
    ghz = f"{sp.host_clock_mhz / 1000:.1f}"
    if target.cpu_max_clock_mhz:
        return tr("The CPU sets the pace: it launches about {k} GPU operations per step, and the GPU finishes each "
                  "sooner than this PC's {ghz} GHz CPU can launch the next. A larger micro-batch or a compiled model "
                  "(torch.compile) helps more than a faster GPU", k=f"{sp.kernels_per_step:,.0f}", ghz=ghz)
    kind = tr(_HOST_KIND.get(target.gpu.segment if target.gpu else "consumer", N_("desktop")))
    return tr("The CPU sets the pace: it launches about {k} GPU operations per step, and the GPU finishes each sooner "
              "than the CPU can launch the next. The estimate assumes the typical {kind} CPU of this GPU at {ghz} GHz "
              "(a scan of the real machine uses its own clock); a larger micro-batch or a compiled model "
              "(torch.compile) helps more than a faster GPU", k=f"{sp.kernels_per_step:,.0f}", kind=kind, ghz=ghz)


def _assumptions(w: Workload, t: TrainSpec) -> tuple[str, ...]:
    out = [tr("{method}, {precision}, {optimizer}, micro-batch {batch}", method=method_label(t.method, t.from_scratch),
              precision=precision_label(t.precision), optimizer=optimizer_label(t.optimizer), batch=t.batch)]
    if w.model.arch == "transformer":
        avg = w.data.avg_seq_len
        if avg and t.seq_len and avg < t.seq_len and t.packing:
            out.append(tr("samples of about {avg} tokens packed into rows of {n} tokens", n=t.seq_len, avg=avg))
        elif avg and t.seq_len and avg < t.seq_len:
            out.append(tr("sequences up to {n} tokens, {avg} on average", n=t.seq_len, avg=avg))
        else:
            out.append(tr("sequence length {n} tokens", n=t.seq_len))
    elif t.image_size:
        out.append(tr("image size {n}×{n} pixels", n=t.image_size))
    if t.grad_checkpointing:
        out.append(tr("gradient checkpointing on"))
    if t.method in ("lora", "qlora"):
        if w.model.arch == "unet":  # SD trainers' words: diffusers --rank, kohya --network_dim
            out.append(tr("LoRA rank {r} (kohya network_dim) on {targets}", r=t.lora_rank,
                          targets=lora_targets_label(t.lora_targets, "unet")))
        else:
            out.append(tr("LoRA rank {r} on {targets}", r=t.lora_rank, targets=lora_targets_label(t.lora_targets)))
    return tuple(out)


def estimate_variant(workload: Workload, target: Target, **train_changes: Any) -> Estimate:
    """estimate() with some TrainSpec fields changed (for the advice's tweak search)."""
    return estimate(workload, target, dataclasses.replace(workload.train, **train_changes))


def check(target: Target, workloads: list[Workload] | tuple[Workload, ...] | None = None) -> list[Estimate]:
    items = load_workloads() if workloads is None else workloads
    return [estimate(w, target) for w in items]


def _gib(n: float | None) -> float | None:
    return None if n is None else round(n / GIB, 2)


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
        # which memory the figure is: peak_vram_gib = what nvidia-smi shows (the verdict uses it)
        "memory": {
            "fit": est.memory_fit,
            "nvidia_smi_gib": _gib(est.peak_vram_bytes),
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
        "total_hours": None if est.total_hours is None else round(est.total_hours, 3),
        # the P10–P90 of the family's validation errors (docs/accuracy.md) and the software stack assumed
        "total_hours_range": None if est.hours_range is None else [round(x, 3) for x in est.hours_range],
        "step_seconds_range": None if est.step_seconds_range is None else [round(x, 5)
                                                                           for x in est.step_seconds_range],
        "stack": est.stack,
        "bottleneck": est.bottleneck,
        "comm_gib_per_step": _gib(est.comm_bytes_per_step) if est.gpus > 1 else None,
        "link_gbps": est.link_gbps,
        "network_gbps": None if est.network_gbps is None else round(est.network_gbps, 2),
        "offload_seconds_per_step": round(est.offload_seconds, 5) if est.offload_seconds else None,
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
