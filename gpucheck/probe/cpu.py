"""CPU: brand, cores, clocks, caches and the instruction-set flags that matter for ML.

Linux: /proc/cpuinfo + /sys/devices/system/cpu (cpufreq, cache); macOS: `sysctl`; Windows: the registry
(`HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0`) and IsProcessorFeaturePresent. Core counts come
from psutil. py-cpuinfo is not used: it takes about a second per call, and the user waits on the scan.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from gpucheck.machine import Cpu
from gpucheck.probe.apple import parse_sysctl
from gpucheck.probe.base import Part, Sources, finding, to_float, to_int

# Flags worth showing: what ML libraries dispatch on.
ML_FLAGS = ("avx", "avx2", "fma", "f16c", "avx512f", "avx512_bf16", "avx512_fp16", "avx512_vnni", "avx_vnni",
            "amx_tile", "amx_bf16", "amx_int8", "neon", "asimd", "sve", "sve2", "bf16", "i8mm", "fphp", "asimdhp")

# ARM CPU implementer/part ids from /proc/cpuinfo → names (Linux arch/arm64 cputype.h; util-linux lscpu-arm.c).
ARM_PARTS = {
    ("0x41", "0xd03"): "Cortex-A53", ("0x41", "0xd05"): "Cortex-A55", ("0x41", "0xd07"): "Cortex-A57",
    ("0x41", "0xd08"): "Cortex-A72", ("0x41", "0xd0b"): "Cortex-A76", ("0x41", "0xd0c"): "Neoverse-N1",
    ("0x41", "0xd40"): "Neoverse-V1", ("0x41", "0xd46"): "Cortex-A510", ("0x41", "0xd47"): "Cortex-A710",
    ("0x41", "0xd48"): "Cortex-X2", ("0x41", "0xd49"): "Neoverse-N2", ("0x41", "0xd4d"): "Cortex-A715",
    ("0x41", "0xd4e"): "Cortex-X3", ("0x41", "0xd4f"): "Neoverse-V2", ("0x43", "0x0a1"): "Cavium ThunderX",
    ("0x43", "0x0af"): "Cavium ThunderX2", ("0x61", "0x022"): "Apple M1", ("0x61", "0x023"): "Apple M1",
}
ARM_VENDORS = {"0x41": "ARM", "0x43": "Cavium", "0x48": "HiSilicon", "0x51": "Qualcomm", "0x61": "Apple",
               "0xc0": "Ampere"}


def _vendor(brand: str | None, vendor_id: str | None, arch: str | None) -> str | None:
    s = f"{brand or ''} {vendor_id or ''}".lower()
    if "intel" in s:
        return "intel"
    if "amd" in s:
        return "amd"
    if "apple" in s:
        return "apple"
    if arch and arch.lower() in ("arm64", "aarch64") or "arm" in s:
        return "arm"
    return "other" if s.strip() else None


def _flags(raw: set[str]) -> tuple[str, ...]:
    out = [f for f in ML_FLAGS if f in raw]
    if "asimd" in raw and "neon" not in out:
        out.append("neon")
    return tuple(sorted(set(out)))


def parse_cpuinfo(text: str) -> dict[str, Any]:
    """Facts from /proc/cpuinfo (x86 and ARM)."""
    blocks = [b for b in re.split(r"\n\s*\n", text) if "processor" in b]
    procs = []
    for b in blocks:
        d: dict[str, str] = {}
        for line in b.splitlines():
            if ":" in line:
                k, v = line.split(":", 1)
                d.setdefault(k.strip(), v.strip())
        procs.append(d)
    if not procs:
        return {}
    first = procs[0]
    out: dict[str, Any] = {"logical": len(procs)}
    raw_flags = set((first.get("flags") or first.get("Features") or "").split())
    out["flags"] = _flags(raw_flags)
    out["vendor_id"] = first.get("vendor_id") or first.get("CPU implementer")
    brand = first.get("model name") or first.get("Model") or first.get("cpu model")
    if brand is None and "CPU implementer" in first:
        names = []
        for p in procs:
            key = (p.get("CPU implementer", "").lower(), p.get("CPU part", "").lower())
            n = ARM_PARTS.get(key)
            if n is None:
                n = f"{ARM_VENDORS.get(key[0], 'ARM')} part {key[1]}"
            if n not in names:
                names.append(n)
        brand = " + ".join(names)
    out["brand"] = brand
    phys = {(p.get("physical id"), p.get("core id")) for p in procs if p.get("core id") is not None}
    out["physical"] = len(phys) or None
    out["sockets"] = len({p.get("physical id") for p in procs if p.get("physical id") is not None}) or None
    mhz = to_float(first.get("cpu MHz"))
    out["mhz"] = mhz
    m = re.search(r"@\s*(\d+(?:\.\d+)?)\s*GHz", brand or "")
    out["brand_ghz"] = float(m.group(1)) * 1000 if m else None
    cache = re.match(r"(\d+)\s*KB", first.get("cache size", ""))
    out["cache_kb"] = int(cache.group(1)) if cache else None
    return out


def _size_str(s: str | None) -> int | None:
    if not s:
        return None
    m = re.match(r"(\d+)\s*([KMG])?", s.strip())
    if not m:
        return None
    return int(m.group(1)) * {"K": 1024, "M": 1024**2, "G": 1024**3, None: 1}[m.group(2)]


def _cpu_list_len(s: str | None) -> int:
    n = 0
    for part in (s or "").split(","):
        if "-" in part:
            a, _, b = part.partition("-")
            lo, hi = to_int(a), to_int(b)
            if lo is None or hi is None or hi < lo:
                continue  # an unreadable range counts for nothing, not for a crash
            n += hi - lo + 1
        elif part.strip():
            n += 1
    return n or 1


def linux_caches(src: Sources, logical: int | None) -> tuple[int | None, int | None]:
    """(total L2, total L3) bytes from /sys/devices/system/cpu/cpu0/cache (per-core × sharing)."""
    l2 = l3 = None
    base = "/sys/devices/system/cpu/cpu0/cache"
    for idx in src.listdir(base):
        if not idx.startswith("index"):
            continue
        level = src.read_int(f"{base}/{idx}/level")
        size = _size_str(src.read_strip(f"{base}/{idx}/size"))
        if size is None or level not in (2, 3):
            continue
        shared = _cpu_list_len(src.read_strip(f"{base}/{idx}/shared_cpu_list"))
        instances = max(1, (logical or shared) // shared)
        total = size * instances
        if level == 2:
            l2 = total
        else:
            l3 = total
    return l2, l3


def cpu_from_linux(src: Sources, text: str | None, logical: int | None, physical: int | None) -> Cpu:
    info = parse_cpuinfo(text or "")
    logical = logical or info.get("logical")
    physical = physical or info.get("physical")
    max_khz = src.read_int("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")
    base_khz = src.read_int("/sys/devices/system/cpu/cpu0/cpufreq/base_frequency")
    l2, l3 = linux_caches(src, logical)
    if l3 is None and info.get("cache_kb") and info.get("vendor_id") in ("GenuineIntel", "AuthenticAMD"):
        l3 = info["cache_kb"] * 1024  # /proc/cpuinfo 'cache size' is the last-level cache (per socket)
    base = (base_khz / 1000) if base_khz else info.get("brand_ghz")
    brand = info.get("brand")
    arch = src.arch or None
    return Cpu(
        brand=brand, vendor=_vendor(brand, info.get("vendor_id"), arch), arch=arch,
        physical_cores=physical, logical_cores=logical, base_clock_mhz=base,
        max_clock_mhz=(max_khz / 1000) if max_khz else None, l2_cache_bytes=l2, l3_cache_bytes=l3,
        flags=info.get("flags", ()), sockets=info.get("sockets"),
    )


def cpu_from_sysctl(values: dict[str, str]) -> Cpu:
    brand = values.get("machdep.cpu.brand_string")
    flags = set()
    for key, name in (("hw.optional.neon", "neon"), ("hw.optional.AdvSIMD", "neon"), ("hw.optional.arm.FEAT_BF16", "bf16"),
                      ("hw.optional.arm.FEAT_I8MM", "i8mm"), ("hw.optional.avx2_0", "avx2"),
                      ("hw.optional.avx512f", "avx512f"), ("hw.optional.arm.FEAT_FP16", "fphp")):
        if values.get(key) == "1":
            flags.add(name)
    feats = (values.get("machdep.cpu.features", "") + " " + values.get("machdep.cpu.leaf7_features", "")).lower()
    for f in ("avx2", "avx512f", "fma", "avx1.0"):
        if f in feats.split():
            flags.add("avx" if f == "avx1.0" else f)
    levels = to_int(values.get("hw.nperflevels") or 0) or 0
    perf = to_int(values.get("hw.perflevel0.physicalcpu")) if levels > 1 else None
    freq = to_int(values.get("hw.cpufrequency_max")) or to_int(values.get("hw.cpufrequency"))
    arch = "arm64" if "apple" in (brand or "").lower() else None
    return Cpu(
        brand=brand, vendor=_vendor(brand, None, arch), arch=arch,
        physical_cores=to_int(values.get("hw.physicalcpu")), logical_cores=to_int(values.get("hw.logicalcpu")),
        performance_cores=perf, max_clock_mhz=freq / 1e6 if freq else None,
        l2_cache_bytes=to_int(values.get("hw.perflevel0.l2cachesize") or values.get("hw.l2cachesize")),
        l3_cache_bytes=to_int(values.get("hw.l3cachesize")), flags=tuple(sorted(flags)), sockets=1,
    )


SYSCTL_KEYS = ("machdep.cpu.brand_string", "machdep.cpu.features", "machdep.cpu.leaf7_features", "hw.physicalcpu",
               "hw.logicalcpu", "hw.nperflevels", "hw.perflevel0.physicalcpu", "hw.perflevel0.l2cachesize",
               "hw.l2cachesize", "hw.l3cachesize", "hw.cpufrequency_max", "hw.cpufrequency", "hw.optional.neon",
               "hw.optional.AdvSIMD", "hw.optional.arm.FEAT_BF16", "hw.optional.arm.FEAT_I8MM",
               "hw.optional.arm.FEAT_FP16", "hw.optional.avx2_0", "hw.optional.avx512f", "hw.memsize")


def _windows_cpu(src: Sources, logical: int | None, physical: int | None) -> Cpu:
    brand = mhz = None
    if src.registry is not None:
        try:
            keys = src.registry(r"HARDWARE\DESCRIPTION\System\CentralProcessor")
            first = keys.get("0", {})
            brand = str(first.get("ProcessorNameString", "")).strip() or None
            mhz = to_float(first.get("~MHz"))
        except OSError:
            pass
    flags = []
    try:
        import ctypes

        present = ctypes.windll.kernel32.IsProcessorFeaturePresent  # type: ignore[attr-defined]
        # PF_AVX_INSTRUCTIONS_AVAILABLE 39, PF_AVX2 40, PF_AVX512F 41 (winnt.h); PF_ARM_V8_INSTRUCTIONS 29
        for code, name in ((39, "avx"), (40, "avx2"), (41, "avx512f"), (29, "neon")):
            if present(code):
                flags.append(name)
    except (AttributeError, OSError):
        pass
    arch = src.arch or None
    return Cpu(brand=brand, vendor=_vendor(brand, None, arch), arch=arch, physical_cores=physical,
               logical_cores=logical, base_clock_mhz=mhz, flags=tuple(sorted(flags)))


def probe(src: Sources) -> Part:
    findings = []
    try:
        logical = src.ps.cpu_count(logical=True)
        physical = src.ps.cpu_count(logical=False)
    except Exception:  # noqa: BLE001 — psutil may be missing or fail in containers
        logical = physical = None
    if src.system == "linux":
        cpu = cpu_from_linux(src, src.read("/proc/cpuinfo"), logical, physical)
    elif src.system == "darwin":
        cpu = cpu_from_sysctl(parse_sysctl(src.run(["sysctl", *SYSCTL_KEYS], timeout=3, any_exit=True) or ""))
        if cpu.logical_cores is None:
            cpu = dataclasses.replace(cpu, logical_cores=logical, physical_cores=physical)
    else:
        cpu = _windows_cpu(src, logical, physical)
    if cpu.brand is None:
        findings.append(finding("cpu", "unknown", "CPU model unknown because the system did not report it",
            "cpu.brand"))
    measured = src.clock() if src.clock is not None and cpu.max_clock_mhz is None else None
    if measured:
        cpu = dataclasses.replace(cpu, measured_clock_mhz=measured)
        findings.append(finding("cpu", "info",
            "The system does not report the CPU's top clock (virtual machines often hide it): one busy core, "
            "measured, runs at {mhz} MHz", "cpu.clock_measured", mhz=f"{measured:,.0f}"))
    elif cpu.base_clock_mhz is None and cpu.max_clock_mhz is None:
        findings.append(finding("cpu", "unknown",
            "CPU clock speed unknown because the system does not report it (virtual machines often hide it)",
            "cpu.clock"))
    if cpu.logical_cores is None:
        findings.append(finding("cpu", "unknown",
            "CPU core count unknown because the system did not report it", "cpu.cores"))
    return Part(area="cpu", cpu=cpu, findings=tuple(findings))
