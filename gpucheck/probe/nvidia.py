"""NVIDIA GPUs through NVML (nvidia-ml-py, module `pynvml`), behind ONE query wrapper.

`NvmlSession` owns nvmlInit/nvmlShutdown, turns every NVMLError (and a function missing from an old
driver or binding) into `None` plus a reason, and decodes bytes. Everything else here is plain reading.
The module object is injected (`Sources.nvml`), so tests hand in a fake built from recorded
`nvidia-smi -q -x` output that raises the real pynvml exception classes.
WSL2: NVML lives in /usr/lib/wsl/lib; when the loader does not find it there we load it by path.
"""

from __future__ import annotations

from typing import Any

from gpucheck.i18n import N_, tr
from gpucheck.machine import Gpu, MigSlice
from gpucheck.probe.base import Part, Sources, finding, load_nvml
from gpucheck.probe.facts import nvidia_cc, probe_facts, version_key

MIB = 1024**2

# nvmlClocksEventReason* bits (nvml.h) → the names the Machine record uses.
THROTTLE_BITS = (
    (0x1, "gpu_idle"),
    (0x2, "applications_clocks"),
    (0x4, "sw_power_cap"),
    (0x8, "hw_slowdown"),
    (0x10, "sync_boost"),
    (0x20, "sw_thermal_slowdown"),
    (0x40, "hw_thermal_slowdown"),
    (0x80, "hw_power_brake_slowdown"),
    (0x100, "display_clocks"),
)
# Reasons that mean the GPU is slowed down against the user's will right now.
SLOWDOWN_REASONS = ("hw_slowdown", "sw_thermal_slowdown", "hw_thermal_slowdown", "hw_power_brake_slowdown")


def decode_throttle(mask: int | None) -> tuple[str, ...]:
    if mask is None:
        return ()
    return tuple(name for bit, name in THROTTLE_BITS if mask & bit)


def _decode(v: Any) -> Any:
    if isinstance(v, bytes):
        return v.decode("utf-8", errors="replace").rstrip("\x00")
    return v


class NvmlSession:
    """nvmlInit on enter, nvmlShutdown on exit; `q(name, *args)` → value or None (reason kept)."""

    def __init__(self, module: Any):
        self.m = module
        self.error: str | None = None  # why init failed
        self.error_kind: str | None = None  # library_not_found | driver_not_loaded | no_permission | other
        self.reasons: dict[str, str] = {}  # query name → why it returned None
        self._ok = False

    def _error_class(self, name: str) -> type[BaseException] | None:
        return getattr(self.m, name, None)

    def start(self) -> bool:
        err_base = self._error_class("NVMLError") or Exception
        try:
            self.m.nvmlInit()
        except err_base as e:  # noqa: BLE001 — every NVML error becomes a reason
            self.error = str(e) or type(e).__name__
            self.error_kind = self._kind(e)
            return False
        except OSError as e:
            self.error, self.error_kind = str(e), "library_not_found"
            return False
        self._ok = True
        return True

    def _kind(self, e: BaseException) -> str:
        for cls_name, kind in (("NVMLError_LibraryNotFound", "library_not_found"),
                               ("NVMLError_DriverNotLoaded", "driver_not_loaded"),
                               ("NVMLError_NoPermission", "no_permission"),
                               ("NVMLError_FunctionNotFound", "other")):
            cls = self._error_class(cls_name)
            if cls is not None and isinstance(e, cls):
                return kind
        return "other"

    def stop(self) -> None:
        if self._ok:
            try:
                self.m.nvmlShutdown()
            except Exception:  # noqa: BLE001 — shutting down must never fail the scan
                pass
            self._ok = False

    def __enter__(self) -> NvmlSession:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def q(self, name: str, *args: Any) -> Any:
        fn = getattr(self.m, name, None)
        if fn is None:
            self.reasons[name] = "not in this NVML binding"
            return None
        err_base = self._error_class("NVMLError") or Exception
        try:
            return _decode(fn(*args))
        except err_base as e:  # noqa: BLE001
            self.reasons[name] = str(e) or type(e).__name__
            return None
        except (OSError, AttributeError, TypeError, ValueError) as e:
            self.reasons[name] = str(e)
            return None

    def const(self, name: str, default: Any) -> Any:
        return getattr(self.m, name, default)


def _preload_wsl(src: Sources, module: Any) -> bool:
    """In WSL2 load libnvidia-ml.so.1 from /usr/lib/wsl/lib by path (pynvml then reuses it)."""
    lib = src.path("/usr/lib/wsl/lib/libnvidia-ml.so.1")
    if not lib.exists() or not hasattr(module, "nvmlLib"):
        return False
    try:
        import ctypes

        module.nvmlLib = ctypes.CDLL(str(lib))
        return True
    except OSError:
        return False


def _cuda_version(v: int | None) -> str | None:
    if not v:
        return None
    return f"{v // 1000}.{(v % 1000) // 10}"


def _mw_to_w(v: Any) -> float | None:
    return None if v is None else round(float(v) / 1000.0, 1)


def _bus(v: Any) -> str | None:
    if v is None:
        return None
    bus = _decode(getattr(v, "busId", None) or getattr(v, "busIdLegacy", None))
    if not bus:
        return None
    bus = str(bus).upper()
    # NVML gives 00000000:0C:00.0 ; keep it as reported.
    return bus


def _memory(s: NvmlSession, handle: Any) -> tuple[Any, int | None]:
    """(memory info, bytes the driver reserves for itself). NVML's v2 structure (nvmlDeviceGetMemoryInfo_v2,
    drivers since R510) reports `reserved` — firmware, ECC and the like, which no program can allocate — and
    leaves it out of `used`; v1's `used` counts it. `total` and `free` are the same in both. Where the driver
    or the binding refuses v2 (function not found, not supported, version mismatch, a binding without the
    `version` argument or the nvmlMemory_v2 constant), v1 stands and the reservation is unknown (None)."""
    version = s.const("nvmlMemory_v2", None)
    if version is not None:
        mem = s.q("nvmlDeviceGetMemoryInfo", handle, version)
        reserved = getattr(mem, "reserved", None)
        total = getattr(mem, "total", None)
        if isinstance(reserved, int) and isinstance(total, int) and 0 <= reserved < total:
            return mem, reserved
    return s.q("nvmlDeviceGetMemoryInfo", handle), None


def _read_gpu(s: NvmlSession, handle: Any, index: int, driver: str | None, cuda: str | None) -> Gpu:
    name = s.q("nvmlDeviceGetName", handle) or tr("NVIDIA GPU {index}", index=index)
    mem, reserved = _memory(s, handle)
    cc_t = s.q("nvmlDeviceGetCudaComputeCapability", handle)
    cc = f"{cc_t[0]}.{cc_t[1]}" if cc_t else None
    row = nvidia_cc(cc)
    arch = row.architecture if row else None
    if arch is None:
        arch_id = s.q("nvmlDeviceGetArchitecture", handle)
        if arch_id is not None:
            arch = probe_facts().nvidia.nvml_arch.get(int(arch_id))
    cc_num = tuple(int(x) for x in cc.split(".")) if cc else None
    bf16_min = version_key(probe_facts().nvidia.bf16_min_cc)
    fp8_min = version_key(probe_facts().nvidia.fp8_min_cc)
    cores = s.q("nvmlDeviceGetNumGpuCores", handle)
    sm = None
    if cores and row:
        sm = int(cores) // row.cores_per_sm
    clk_g = s.const("NVML_CLOCK_GRAPHICS", 0)
    clk_m = s.const("NVML_CLOCK_MEM", 2)
    throttle = s.q("nvmlDeviceGetCurrentClocksEventReasons", handle)
    if throttle is None:
        throttle = s.q("nvmlDeviceGetCurrentClocksThrottleReasons", handle)
    constraints = s.q("nvmlDeviceGetPowerManagementLimitConstraints", handle)
    mig = s.q("nvmlDeviceGetMigMode", handle)
    mig_on = None if mig is None else bool(mig[0])
    slices: list[MigSlice] = []
    if mig_on:
        count = s.q("nvmlDeviceGetMaxMigDeviceCount", handle) or 0
        for i in range(int(count)):
            h = s.q("nvmlDeviceGetMigDeviceHandleByIndex", handle, i)
            if h is None:
                continue
            m = s.q("nvmlDeviceGetMemoryInfo", h)
            attrs = s.q("nvmlDeviceGetAttributes", h)
            sms = getattr(attrs, "multiprocessorCount", None) if attrs is not None else None
            slice_name = s.q("nvmlDeviceGetName", h)
            if not slice_name:
                slice_name = tr("MIG slice {i} ({sms} SMs)", i=i, sms=sms if sms is not None else "?")
            slices.append(MigSlice(name=slice_name, memory_total_bytes=int(m.total) if m else None,
                                   gpu_instance_id=s.q("nvmlDeviceGetGpuInstanceId", h),
                                   sm_count=int(sms) if isinstance(sms, int) and sms > 0 else None))
    links, peers = _nvlinks(s, handle)
    display = s.q("nvmlDeviceGetDisplayActive", handle)
    temp = s.q("nvmlDeviceGetTemperature", handle, s.const("NVML_TEMPERATURE_GPU", 0))
    return Gpu(
        name=str(name),
        vendor="nvidia",
        backend="cuda",
        vram_total_bytes=int(mem.total) if mem is not None else None,
        vram_free_bytes=int(mem.free) if mem is not None else None,
        vram_reserved_bytes=reserved,
        index=index,
        source="nvml",
        uuid=s.q("nvmlDeviceGetUUID", handle),
        pci_bus_id=_bus(s.q("nvmlDeviceGetPciInfo", handle)),
        memory_kind="dedicated",
        is_discrete=True,
        compute_capability=cc,
        architecture=arch,
        tensor_core_generation=row.tensor_core_generation if row else None,
        supports_bf16=(cc_num >= bf16_min) if cc_num else None,
        supports_fp8=(cc_num >= fp8_min) if cc_num else None,
        sm_count=sm,
        clock_graphics_mhz=s.q("nvmlDeviceGetClockInfo", handle, clk_g),
        clock_graphics_max_mhz=s.q("nvmlDeviceGetMaxClockInfo", handle, clk_g),
        clock_memory_max_mhz=s.q("nvmlDeviceGetMaxClockInfo", handle, clk_m),
        pcie_gen_current=s.q("nvmlDeviceGetCurrPcieLinkGeneration", handle),
        pcie_gen_max=s.q("nvmlDeviceGetMaxPcieLinkGeneration", handle),
        pcie_width_current=s.q("nvmlDeviceGetCurrPcieLinkWidth", handle),
        pcie_width_max=s.q("nvmlDeviceGetMaxPcieLinkWidth", handle),
        nvlink_links=links,
        nvlink_peers=peers,
        power_draw_w=_mw_to_w(s.q("nvmlDeviceGetPowerUsage", handle)),
        power_limit_w=_mw_to_w(s.q("nvmlDeviceGetEnforcedPowerLimit", handle)
                               or s.q("nvmlDeviceGetPowerManagementLimit", handle)),
        power_default_limit_w=_mw_to_w(s.q("nvmlDeviceGetPowerManagementDefaultLimit", handle)),
        power_max_limit_w=_mw_to_w(constraints[1]) if constraints else None,
        temperature_c=float(temp) if temp is not None else None,
        throttle_reasons=decode_throttle(throttle),
        driver_version=driver,
        cuda_driver_version=cuda,
        mig_enabled=mig_on,
        mig_slices=tuple(slices),
        display_active=None if display is None else bool(display),
    )


def _nvlinks(s: NvmlSession, handle: Any) -> tuple[int | None, tuple[str, ...]]:
    """Active NVLink links and the PCI bus ids of the peers they reach. None if NVLink is unsupported."""
    max_links = int(s.const("NVML_NVLINK_MAX_LINKS", 18))
    active = 0
    peers: list[str] = []
    supported = False
    for link in range(max_links):
        state = s.q("nvmlDeviceGetNvLinkState", handle, link)
        if state is None:
            break  # NotSupported (no NVLink) or InvalidArgument (past the last link)
        supported = True
        if state:
            active += 1
            bus = _bus(s.q("nvmlDeviceGetNvLinkRemotePciInfo", handle, link))
            if bus and bus not in peers:
                peers.append(bus)
    if not supported:
        return None, ()
    return active, tuple(peers)


# Files an NVIDIA driver puts on a Linux system (WSL 2: its GPU device and the driver's library folder). With
# none of them, NVML can only answer "library not found", so the scan does not load the binding at all
# (importing it costs a user who has no NVIDIA GPU about a tenth of the scan's time).
LINUX_DRIVER_MARKERS = ("/proc/driver/nvidia", "/dev/nvidiactl", "/dev/dxg", "/usr/lib/wsl/lib")


def _no_linux_driver(src: Sources) -> bool:
    return (src.system == "linux" and src.nvml is load_nvml
            and not any(src.path(p).exists() for p in LINUX_DRIVER_MARKERS))


def probe(src: Sources) -> Part:
    if _no_linux_driver(src):
        return Part(area="nvidia", facts={"nvml": "library_not_found",
                                          "nvml_error": "no NVIDIA driver (" + ", ".join(LINUX_DRIVER_MARKERS) + ")"})
    try:
        module = src.nvml()
    except ImportError:
        return Part(area="nvidia", facts={"nvml": "binding_missing"},
                    findings=(finding("gpu", "info",
                        "NVIDIA: cannot ask the driver (the nvidia-ml-py package is missing)",
                        "nvidia.no_binding"),))
    s = NvmlSession(module)
    if not s.start() and s.error_kind == "library_not_found" and _preload_wsl(src, module):
        s = NvmlSession(module)
        s.start()
    if not s._ok:
        return Part(area="nvidia", facts={"nvml": s.error_kind or "other", "nvml_error": s.error or ""})
    try:
        driver = s.q("nvmlSystemGetDriverVersion")
        cuda = _cuda_version(s.q("nvmlSystemGetCudaDriverVersion_v2") or s.q("nvmlSystemGetCudaDriverVersion"))
        count = s.q("nvmlDeviceGetCount")
        gpus: list[Gpu] = []
        findings = []
        if count is None:
            findings.append(finding("gpu", "unknown",
                "NVIDIA: the number of GPUs is unknown because NVML failed to count them ({reason})",
                "nvidia.count", reason=s.reasons.get("nvmlDeviceGetCount", "?")))
            count = 0
        for i in range(int(count)):
            h = s.q("nvmlDeviceGetHandleByIndex", i)
            if h is None:
                findings.append(finding("gpu", "unknown",
                    "NVIDIA GPU {index}: unknown because NVML could not open it ({reason})", "nvidia.handle",
                    index=i, reason=s.reasons.get("nvmlDeviceGetHandleByIndex", "?")))
                continue
            gpus.append(_read_gpu(s, h, i, driver, cuda))
        minor = (("sm_count", N_("SM count")), ("power_limit_w", N_("power limit")),
                 ("pcie_gen_current", N_("PCIe link")), ("clock_graphics_max_mhz", N_("maximum clock")),
                 ("temperature_c", N_("temperature")))
        for g in gpus:
            missing = [tr(label) for attr, label in minor if getattr(g, attr) is None]
            if missing:
                findings.append(finding("gpu", "unknown",
                    "{gpu}: unknown because the driver did not report them: {fields}", "nvidia.details",
                    gpu=g.name, fields=", ".join(missing)))
            if g.vram_total_bytes is None:
                findings.append(finding("gpu", "unknown",
                    "{gpu}: memory size unknown because NVML did not report it ({reason})", "nvidia.memory",
                    gpu=g.name, reason=s.reasons.get("nvmlDeviceGetMemoryInfo", "?")))
            if g.compute_capability is None:
                findings.append(finding("gpu", "unknown",
                    "{gpu}: compute capability unknown because NVML did not report it ({reason})",
                    "nvidia.cc", gpu=g.name, reason=s.reasons.get("nvmlDeviceGetCudaComputeCapability", "?")))
        return Part(area="nvidia", gpus=tuple(gpus), findings=tuple(findings),
                    facts={"nvml": "ok", "driver_version": driver, "cuda_driver_version": cuda})
    finally:
        s.stop()



