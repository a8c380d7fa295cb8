"""Apple silicon: chip, GPU cores and unified memory from `system_profiler` (JSON or text) and `sysctl`.

The GPU and CPU share one pool of RAM. Metal lets the GPU use `recommendedMaxWorkingSetSize` of it;
that figure is reported as the GPU's `usable_memory_bytes` and `vram_total_bytes`, the RAM stays in
`Memory.total_bytes` with `shared_with_gpu=True` — the same bytes are never counted twice. When the
working set cannot be read from Metal, it is estimated with the published rule in resources/probe.toml
and a Finding says so.
"""

from __future__ import annotations

import json
import re
from typing import Any

from gpucheck.i18n import fmt_gib
from gpucheck.machine import Finding, Gpu
from gpucheck.probe.base import Part, Sources, finding, to_int
from gpucheck.probe.facts import probe_facts

GIB = 1024**3


def parse_sysctl(text: str) -> dict[str, str]:
    out = {}
    for line in (text or "").splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
        elif "=" in line:
            k, v = line.split("=", 1)
        else:
            continue
        out[k.strip()] = v.strip()
    return out


def _size(text: str | None) -> int | None:
    """'16 GB' → bytes (system_profiler's memory size; Apple uses binary GB here)."""
    if not text:
        return None
    m = re.match(r"\s*([\d.,]+)\s*(TB|GB|MB)", text)
    if not m:
        return None
    n = float(m.group(1).replace(",", "."))
    return int(n * {"TB": 1024**4, "GB": GIB, "MB": 1024**2}[m.group(2)])


def parse_system_profiler_json(text: str) -> dict[str, Any]:
    data = json.loads(text)
    out: dict[str, Any] = {}
    for hw in data.get("SPHardwareDataType", []) or []:
        out["chip"] = hw.get("chip_type") or hw.get("cpu_type")
        out["memory_bytes"] = _size(hw.get("physical_memory"))
        out["model"] = hw.get("machine_name")
        out["model_id"] = hw.get("machine_model")
        m = re.match(r"proc (\d+):(\d+):(\d+):(\d+)", str(hw.get("number_processors", "")))
        if m:
            out["cpu_cores"] = int(m.group(1))
            out["performance_cores"] = int(m.group(2))
    for gpu in data.get("SPDisplaysDataType", []) or []:
        out.setdefault("all_gpus", []).append({
            "name": gpu.get("sppci_model") or gpu.get("_name"), "vendor": str(gpu.get("spdisplays_vendor", "")),
            "vram": _size(gpu.get("spdisplays_vram") or gpu.get("_spdisplays_vram")),
            "shared": _size(gpu.get("spdisplays_vram_shared")), "cores": to_int(gpu.get("sppci_cores"))})
        if gpu.get("sppci_device_type", "spdisplays_gpu") == "spdisplays_gpu":
            out.setdefault("gpu_name", gpu.get("sppci_model") or gpu.get("_name"))
            out.setdefault("gpu_cores", to_int(gpu.get("sppci_cores")))
            out.setdefault("displays", len(gpu.get("spdisplays_ndrvs", []) or []))
    return out


def parse_system_profiler_text(text: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if raw and not raw.startswith(" ") and line.endswith(":"):
            section = line[:-1]
            continue
        if ":" not in line:
            continue
        k, v = (x.strip() for x in line.split(":", 1))
        if section == "Hardware":
            if k == "Chip":
                out["chip"] = v
            elif k == "Memory" and "memory_bytes" not in out:
                out["memory_bytes"] = _size(v)
            elif k == "Model Name":
                out["model"] = v
            elif k == "Model Identifier":
                out["model_id"] = v
            elif k == "Total Number of Cores":
                m = re.match(r"(\d+)(?:\s*\((\d+) performance)?", v)
                if m:
                    out["cpu_cores"] = int(m.group(1))
                    if m.group(2):
                        out["performance_cores"] = int(m.group(2))
        elif section == "Graphics/Displays":
            if k == "Chipset Model":
                out.setdefault("gpu_name", v)
            elif k == "Total Number of Cores":
                out.setdefault("gpu_cores", to_int(v))
    return out


def working_set_estimate(ram_bytes: int) -> tuple[int, float]:
    t = probe_facts().apple
    frac = t.small_ram_fraction if ram_bytes < t.small_ram_below_gib * GIB else t.large_ram_fraction
    return int(ram_bytes * frac), frac


def gpu_from_info(info: dict[str, Any], ram_bytes: int | None, measured_working_set: int | None = None
                  ) -> tuple[Gpu | None, list]:
    findings: list[Finding] = []
    chip = info.get("chip") or info.get("gpu_name")
    if not chip or "apple" not in str(chip).lower():
        return None, findings
    usable = measured_working_set
    if usable is None and ram_bytes:
        usable, frac = working_set_estimate(ram_bytes)
        findings.append(finding("gpu", "info",
            "{gpu}: the GPU shares the {ram} of memory with the CPU; it may use about {usable} of it "
            "(estimated as {pct}% of RAM, Metal's usual limit — the exact figure needs Metal)",
            "apple.working_set", gpu=chip, ram=fmt_gib(ram_bytes), usable=fmt_gib(usable),
            pct=round(frac * 100)))
    elif usable is None:
        findings.append(finding("gpu", "unknown",
            "{gpu}: GPU memory unknown because the RAM size could not be read", "apple.memory", gpu=chip))
    arch = re.sub(r"\s*\(Virtual\)", "", str(chip)).replace("Apple ", "").split()[0] if chip else None
    gpu = Gpu(
        name=str(info.get("gpu_name") or chip), vendor="apple", backend="metal",
        vram_total_bytes=usable, usable_memory_bytes=usable, index=0, source="system_profiler",
        memory_kind="unified", is_discrete=False, is_primary_compute=True,
        architecture=f"Apple {arch}" if arch else None, sm_count=info.get("gpu_cores"),
        supports_bf16=None, display_active=(info.get("displays") or 0) > 0 if "displays" in info else None,
    )
    return gpu, findings


def intel_mac_gpus(info: dict[str, Any]) -> list[Gpu]:
    """GPUs of an Intel Mac (AMD Radeon Pro, Intel Iris): PyTorch reaches AMD ones through Metal (MPS)."""
    out: list[Gpu] = []
    for g in info.get("all_gpus", []):
        name = str(g.get("name") or "")
        if not name or re.match(r"apple m\d", name.lower()):  # Apple silicon: handled by gpu_from_info
            continue
        vendor_text = f"{g.get('vendor', '')} {name}".lower()
        vendor = "amd" if ("amd" in vendor_text or "ati" in vendor_text or "radeon" in vendor_text) else (
            "intel" if "intel" in vendor_text else ("nvidia" if "nvidia" in vendor_text else "other"))
        discrete = vendor in ("amd", "nvidia")
        out.append(Gpu(name=name, vendor=vendor, backend="metal" if vendor == "amd" else "none",
                       vram_total_bytes=g.get("vram"), shared_memory_bytes=g.get("shared"), index=len(out),
                       source="system_profiler", memory_kind="dedicated" if discrete else "shared",
                       is_discrete=discrete))
    return out


def probe(src: Sources) -> Part:
    if src.system != "darwin":
        return Part(area="apple")
    info: dict[str, Any] = {}
    text = src.run(["system_profiler", "-json", "SPHardwareDataType", "SPDisplaysDataType"], timeout=15)
    findings = []
    if text:
        try:
            info = parse_system_profiler_json(text) if text.lstrip().startswith("{") else parse_system_profiler_text(text)
        except (ValueError, AttributeError, TypeError) as e:
            findings.append(finding("gpu", "unknown",
                "Apple: system_profiler output could not be read ({detail})", "apple.parse", detail=str(e)))
    sysctl = parse_sysctl(src.run(["sysctl", "hw.memsize", "machdep.cpu.brand_string"], timeout=3) or "")
    ram = to_int(sysctl.get("hw.memsize")) or info.get("memory_bytes")
    if not info.get("chip") and sysctl.get("machdep.cpu.brand_string"):
        info["chip"] = sysctl["machdep.cpu.brand_string"]
    gpu, more = gpu_from_info(info, ram)
    findings.extend(more)
    gpus = (gpu,) if gpu else tuple(intel_mac_gpus(info))
    return Part(area="apple", gpus=gpus, findings=tuple(findings),
                facts={"apple_model": info.get("model"), "apple_model_id": info.get("model_id")})
