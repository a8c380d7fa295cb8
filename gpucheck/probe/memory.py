"""Memory: total and available RAM and swap, through psutil."""

from __future__ import annotations

from gpucheck.machine import Memory
from gpucheck.probe.base import Part, Sources, finding


def probe(src: Sources) -> Part:
    try:
        vm = src.ps.virtual_memory()
    except Exception as e:  # noqa: BLE001 — psutil missing or failing in a sandbox
        return Part(area="memory", memory=Memory(), findings=(finding("memory", "unknown",
            "RAM size unknown because the system did not report it ({detail})", "memory.unknown",
            detail=str(e)),))
    try:
        sw = src.ps.swap_memory()
        swap_total: int | None = int(sw.total)
        swap_free: int | None = int(sw.free)
    except Exception:  # noqa: BLE001 — swap is optional information
        swap_total = swap_free = None
    return Part(area="memory", memory=Memory(total_bytes=int(vm.total), available_bytes=int(vm.available),
                                             swap_total_bytes=swap_total, swap_free_bytes=swap_free))
