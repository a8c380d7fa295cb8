"""What a job runs on: `Target` — a scanned machine's GPUs, a catalog GPU or the CPU — with its usable memory
(a MIG slice, Apple's working set, the total less what the driver reserves and what a display keeps), RAM, CPU
and calibration."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpucheck.catalog import gpu_for
from gpucheck.estimate.calibration import Calibration, calibration_for
from gpucheck.estimate.cpu_core import CpuCore, cpu_core
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.links import (
    FABRIC_LINKS,
    host_staged_gbps,
    measured_core_gbps,
    measured_memory_gbps,
    nodes_of,
    pcie_gbps,
)
from gpucheck.estimate.settings import check_gpus, check_machines
from gpucheck.i18n import (
    fmt_gib,
    localized,
    tr,
)
from gpucheck.machine import driver_reserved_bytes
from gpucheck.probe.apple import working_set_estimate
from gpucheck.records import GpuSpec

GIB = 1024**3


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
    nvlink: bool | None = None  # the GPUs are joined by their fabric (NVLink, Infinity Fabric), not PCIe: scan or catalog
    cpu_max_clock_mhz: float | None = None
    cpu_flags: tuple[str, ...] = ()
    cpu_vendor: str | None = None  # intel | amd | apple | arm | other
    cpu_brand: str | None = None
    notes: tuple[str, ...] = ()
    calibration: Calibration | None = None  # measured on this PC (gpucheck calibrate / trial); None: not calibrated
    machines: int | None = None  # machines the GPUs sit in; None: as few as hold them (multi_gpu.links.gpus_per_node)
    network_gbit_per_node: float | None = None  # each machine's NICs together, Gb/s; None: typical for the GPU
    pcie_link: tuple[int | None, int | None] | None = None  # scanned: (PCIe generation, lanes) of the slowest GPU link
    platform: str | None = None  # scanned: linux | windows | darwin | wsl (machine.Software.platform); None: any
    power_budget_fraction: float | None = None  # scanned: enforced power limit over the rated one (_power_budget); None: unknown

    # -- constructors ----------------------------------------------------------------------------
    @classmethod
    def from_gpu(cls, spec: GpuSpec, gpus: int = 1, machine: Any = None, machines: int | None = None,
                 network_gbit_per_node: float | None = None) -> Target:
        """`gpus` catalog GPUs in `machines` machines (None: as few as hold them), each machine's network
        `network_gbit_per_node` Gb/s (None: what servers with this GPU typically carry)."""
        gpus = check_gpus(gpus)
        machines = None if machines is None else check_machines(machines, gpus)
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
            nvlink=(spec.interconnect in FABRIC_LINKS) if gpus > 1 else None,
            notes=(localized(spec, "notes"),) if spec.notes else (),  # what the card is (China-market, modified)
            machines=machines,
            network_gbit_per_node=network_gbit_per_node,
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
                spec.interconnect in FABRIC_LINKS if spec else None)
        pcie_link = _slowest_link(same[:n]) if n > 1 else None
        if measured is not None and getattr(measured, "gpu_name", None) and spec is not None:
            if gpu_for(dataclasses.replace(first, name=measured.gpu_name, catalog_id=None)) != spec:
                measured = None  # measured on another GPU
        # a deep scan's measured peak already holds the limit the card ran under
        peak_measured = measured is not None and any(getattr(measured, k, None) for k in MEASURED_PEAKS)
        power_budget = _power_budget(first, spec, machine, notes) if spec is not None and not peak_measured else None
        return cls(
            gpu=spec,
            gpus=n,
            vram_available_bytes=avail,
            backend=backend,
            unified_memory=first.vendor == "apple" or first.memory_kind == "unified",
            gpu_name=first.name,
            label=label or first.name,
            nvlink=nvlink,
            pcie_link=pcie_link,
            power_budget_fraction=power_budget,
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

    def streaming_gbps(self, f: Mapping[str, Any]) -> float:
        """Bytes read and written per second (GB/s) that the step's memory-bound kernels reach. A GPU: its memory's
        bandwidth (a deep scan's measured figure first) × the streaming efficiency ([bandwidth] efficiency). A CPU:
        each of its threads streams at most what one core can (a deep scan's one-thread copy, whose bytes are each
        read and written, else [cpu.core_mem_bandwidth_gbps] for its kind of core), and together at most what the
        memory gives (a deep scan's copy on every thread, else [cpu] default_mem_bandwidth_gbps × the streaming
        efficiency): one core cannot keep enough cache-line misses in flight to fill the memory channels, so a
        CPU's memory-bound kernels speed up with its threads until the channels are full
        (benchmarks/data/cpu-threads-intel-amx.json: 1.9-2.1x from one thread to two)."""
        m = self.measured
        eff = float(f["bandwidth"]["efficiency"])
        if self.gpu is None:
            c = f["cpu"]
            core = c["core_mem_bandwidth_gbps"]
            per_core = measured_core_gbps(self) or float(core.get(self.cpu_core(f).kind, core["default"]))
            memory = measured_memory_gbps(self) or float(c["default_mem_bandwidth_gbps"]) * eff
            return min((self.cpu_cores or c["default_cores"]) * per_core, memory)
        if m is not None and getattr(m, "gpu_mem_bandwidth_gbps", None):
            return m.gpu_mem_bandwidth_gbps * eff
        return self.gpu.mem_bandwidth_gbps * eff

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
        if spec is not None and spec.nvlink_gbps and self.fabric_linked:
            return spec.nvlink_gbps / 2.0 * mg["nvlink_efficiency"]
        gbps = pcie_gbps(self, f)
        if spec is not None and spec.vendor == "nvidia" and spec.segment in ("consumer", "laptop"):
            # GeForce: no peer-to-peer; every hop is staged through host memory, which all the box's GPUs share
            return host_staged_gbps(self, f, gbps * float(links["no_p2p_factor"]))
        return gbps

    @property
    def fabric_linked(self) -> bool:
        """The GPUs' collectives cross their own links, not PCIe: a fabric baseboard in the catalog (NVLink, Infinity
        Fabric) unless a scan found the links down, or a bridge a scan sees between the two GPUs of a PCIe card that
        takes one (an RTX 3090's or RTX A6000's NVLink bridge joins a pair: with more cards the ring crosses PCIe)."""
        spec = self.gpu
        if spec is None or not spec.nvlink_gbps or self.gpus <= 1 or self.nvlink is False:
            return False
        return spec.interconnect in FABRIC_LINKS or (self.nvlink is True and self.gpus == 2)

    @property
    def on_cpu(self) -> bool:
        """Training runs on the CPU's cores (no GPU, the cpu backend; an unknown GPU is not this)."""
        return self.gpu is None and self.backend == "cpu"

    @property
    def processes(self) -> int:
        """Training processes: one per GPU (data parallel, each with its own host work), one on the CPU."""
        return max(1, int(self.gpus)) if self.gpu is not None else 1

    @property
    def nodes(self) -> int:
        """Machines the GPUs sit in: as given, else as few as hold them (links.nodes_of)."""
        return nodes_of(self, load_factors())[1]

    @property
    def device_name(self) -> str:
        if self.gpu is not None:
            return self.gpu.name
        if self.backend != "cpu" and self.gpu_name:
            return self.gpu_name
        return "CPU"


MEASURED_PEAKS = ("gpu_tflops_bf16", "gpu_tflops_fp16", "gpu_tflops_tf32", "gpu_tflops_fp32")  # machine.Measured
# a limit within this share of the rated power is the rated power (boards report a few W apart; a few W do not change a clock)
POWER_BUDGET_MIN_DROP = 0.98


def _power_budget(gpu: Any, spec: Any, machine: Any, notes: list[str]) -> float | None:
    """The scanned GPU's enforced power limit over the power its rated speed assumes, with a note where it is lower.
    A laptop GPU against its catalog entry's TGP (the top bin the entry's clocks are quoted at; a laptop matched to a
    desktop card's entry, against that card's board power): the laptop's own TGP. Any other card against its driver's
    default: a cap someone set (nvidia-smi -pl, MSI Afterburner) — a data-center or OEM board whose default is below
    the catalog's TDP is another board design, not a capped one (an A100 PCIe at 250 W reaches 93 % of the 400-W SXM's
    matmul rate, not the 86 % the cube law would give: ml-engineering's MAMF table, 252.9 against 271.2 TFLOPS). NVML
    nvmlDeviceGetEnforcedPowerLimit and nvmlDeviceGetPowerManagementDefaultLimit. None where the reading says little
    about a training run: no default reported (WSL reports a limit that follows the power source and no default), or
    the laptop is on battery."""
    limit, default = getattr(gpu, "power_limit_w", None), getattr(gpu, "power_default_limit_w", None)
    power = getattr(machine, "power", None)
    if not limit or not default or getattr(power, "on_battery", None):
        return None
    laptop = getattr(spec, "segment", "") == "laptop" or bool(getattr(power, "is_laptop", None))
    rated = float(spec.tdp_w) if laptop and getattr(spec, "tdp_w", None) else float(default)
    budget = float(limit) / rated
    if budget < POWER_BUDGET_MIN_DROP:
        clock = power_budget_clock(budget, load_factors())
        notes.append(tr("The GPU's power limit is {w} W, below the {d} W its rated speed needs: its clock is priced at "
                        "about {p}% of the rated one", w=f"{limit:.0f}", d=f"{rated:.0f}", p=f"{clock * 100:.0f}"))
    return budget


def power_budget_clock(budget: float, f: Mapping[str, Any]) -> float:
    """The clock a GPU holds at `budget` times the power its rated speed assumes, against the rated clock:
    budget ** clocks.power_cap_exponent below 1 — dynamic power grows with the clock times the voltage squared, and
    the voltage with the clock along the card's voltage-frequency curve, so the clock falls as the cube root of the
    power (factors.toml [clocks] power_cap_exponent); 1.0 at or above the rated power."""
    if budget >= 1.0:
        return 1.0
    return float(budget) ** float(f["clocks"]["power_cap_exponent"])


def _slowest_link(gpus: Any) -> tuple[int | None, int | None] | None:
    """(PCIe generation, lanes) of the slowest link among the scanned GPUs: the generation NVML reports as the most
    this GPU and system allow (nvmlDeviceGetMaxPcieLinkGeneration: the current one drops at idle), the lanes in use.
    A lane's rate doubles with each generation (PCI-SIG), so 2^gen × lanes orders the links."""
    links = [(g.pcie_gen_max or g.pcie_gen_current, g.pcie_width_current or g.pcie_width_max) for g in gpus]
    known = [x for x in links if x[0] or x[1]]
    if not known:
        return None
    return min(known, key=lambda x: 2.0 ** (x[0] or 9) * (x[1] or 16))


def _host_fields(machine: Any) -> dict[str, Any]:
    if machine is None:
        return {}
    mem = getattr(machine, "memory", None)
    cpu = getattr(machine, "cpu", None)
    return {
        "ram_bytes": getattr(mem, "total_bytes", None),
        "ram_available_bytes": getattr(mem, "available_bytes", None),
        "cpu_cores": (getattr(cpu, "physical_cores", None) or getattr(cpu, "logical_cores", None)),
        # the reported top clock; where the system hides it, the one the scan measured on a busy core, which a base
        # clock (a brand string's "@ 2.20GHz", Windows' ~MHz) understates by the boost
        "cpu_max_clock_mhz": (getattr(cpu, "max_clock_mhz", None) or getattr(cpu, "measured_clock_mhz", None)
                              or getattr(cpu, "base_clock_mhz", None)),
        "cpu_flags": tuple(getattr(cpu, "flags", ()) or ()),
        "cpu_vendor": getattr(cpu, "vendor", None),
        "cpu_brand": getattr(cpu, "brand", None),
        "measured": getattr(machine, "measured", None),
        "platform": getattr(getattr(machine, "software", None), "platform", None),
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
        tflops_fp8_tensor=scaled(spec.tflops_fp8_tensor), tflops_fp32_matrix=scaled(spec.tflops_fp32_matrix),
        mem_bandwidth_gbps=spec.mem_bandwidth_gbps * mem_share)


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
    # what the driver keeps for itself (NVML v2) no job gets, and no program is using it
    ceiling = g.vram_total_bytes - driver_reserved_bytes(g) if g.vram_total_bytes else None
    if g.vram_free_bytes is not None and ceiling:
        used = max(0, ceiling - g.vram_free_bytes)
        v = f["vram"]
        if g.display_active:
            # a display keeps its share; anything beyond a display's typical use is other programs
            reserve = min(used, int(v["display_reserve_max_gib"] * GIB))
            if used > reserve:
                notes.append(tr("{used} of {name}'s memory is in use by other programs right now; the estimate "
                                "assumes you close them", used=fmt_gib(used - reserve), name=g.name))
            return ceiling - reserve
        if used > v["busy_note_gib"] * GIB:
            notes.append(tr("{used} of {name}'s memory is in use by other programs right now; the estimate "
                            "assumes you close them", used=fmt_gib(used), name=g.name))
        return ceiling
    if g.display_active and ceiling:
        return ceiling - int(f["vram"]["display_reserve_default_gib"] * GIB)
    if ceiling:
        return ceiling
    return spec.vram_bytes if spec else None


# -- rules -----------------------------------------------------------------------------------------


