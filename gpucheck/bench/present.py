"""Deep-scan figures as rows for the summary, the report and the app: each with where it came from.

    measured_figures(machine) -> tuple[Figure, ...]
    measured_only(machine) -> tuple[Figure, ...]  those the deep scan measured (no data-sheet values)
    measured_lines(machine) -> list[str]          indented text lines for `gpucheck scan`

A GPU figure is "measured" when the deep scan produced it (on this GPU); otherwise the catalog's
data-sheet value is shown as "from specs". `ratio` is measured ÷ data sheet, where both exist.
Pure: no I/O beyond the cached GPU catalog, no Qt.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from gpucheck.i18n import N_, fmt_gib, tr
from gpucheck.lazy import lazy_import
from gpucheck.machine import notes_shown

catalog = lazy_import("gpucheck.catalog")  # read only when the machine has a GPU (a scan without one skips it)

MEASURED = "measured"
FROM_SPECS = "from specs"


@dataclass(frozen=True)
class Figure:
    key: str  # the Measured field, e.g. "gpu_tflops_bf16"
    label: str  # translated, e.g. "GPU matrix math, bf16"
    value: float | None  # the figure shown (measured, else the data sheet's)
    unit: str  # TFLOPS | GB/s | MB/s | images/s | °C | bytes
    source: str  # MEASURED | FROM_SPECS
    spec_value: float | None = None  # the data sheet's figure, for comparison
    ratio: float | None = None  # measured / data sheet
    text: str = ""  # value with unit and source, translated

    @property
    def line(self) -> str:
        """'RAM copy, one thread: 9.77 GB/s (measured)': how the scan summary, the app and the report show it."""
        return f"{self.label}: {self.text}"


def _num(x: float) -> str:
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) >= 10:
        return f"{x:,.1f}"
    return f"{x:,.2f}"


def _value_text(value: float, unit: str) -> str:
    if unit == "bytes":
        return fmt_gib(value)
    if unit == "images/s":
        return tr("{n} images/s", n=_num(value))
    if unit == "°C":
        return tr("{n} °C", n=_num(value))
    return f"{_num(value)} {unit}"


def _spec_for(machine: Any):
    """(catalog spec of the first compute GPU, whether the measured GPU figures belong to it)."""
    m = machine.measured
    gpus = machine.compute_gpus()
    if not gpus:
        return None, bool(m and m.gpu_backend and m.gpu_backend != "cpu")
    try:
        spec = catalog.gpu_for(gpus[0])
        same = True
        if m is not None and m.gpu_name and spec is not None:
            same = catalog.gpu_for(dataclasses.replace(gpus[0], name=m.gpu_name, catalog_id=None)) == spec
        if m is not None and m.gpu_backend == "cpu":
            same = False
        return spec, same
    except Exception:  # a broken catalog must not hide measured figures
        return None, True


_GPU_ROWS = (
    ("gpu_tflops_fp32", N_("GPU matrix math, fp32"), "TFLOPS", "tflops_fp32"),
    ("gpu_tflops_tf32", N_("GPU matrix math, TF32"), "TFLOPS", "tflops_tf32_tensor"),
    ("gpu_tflops_fp16", N_("GPU matrix math, fp16"), "TFLOPS", "tflops_fp16_tensor"),
    ("gpu_tflops_bf16", N_("GPU matrix math, bf16"), "TFLOPS", "tflops_bf16_tensor"),
    ("gpu_mem_bandwidth_gbps", N_("GPU memory bandwidth"), "GB/s", "mem_bandwidth_gbps"),
    ("h2d_pinned_gbps", N_("CPU→GPU copy (pinned memory)"), "GB/s", None),
    ("h2d_pageable_gbps", N_("CPU→GPU copy (ordinary memory)"), "GB/s", None),
    ("d2h_pinned_gbps", N_("GPU→CPU copy (pinned memory)"), "GB/s", None),
    ("gpu_allocatable_bytes", N_("GPU memory a job could allocate"), "bytes", None),
    ("gpu_temperature_before_c", N_("GPU temperature before the test"), "°C", None),
    ("gpu_temperature_after_c", N_("GPU temperature after the test"), "°C", None),
)
_HOST_ROWS = (
    ("cpu_images_per_s_one_core", N_("Image decoding, one core"), "images/s"),
    ("cpu_images_per_s_all_cores", N_("Image decoding, all cores"), "images/s"),
    ("cpu_text_mb_per_s", N_("Text processing, one core"), "MB/s"),
    ("disk_seq_read_mb_per_s", N_("Disk sequential read"), "MB/s"),
    ("disk_rand_read_mb_per_s", N_("Disk random read (128 KiB pieces, 8 readers)"), "MB/s"),
    ("disk_rand_4k_qd1_mb_per_s", N_("Disk random read (4 KiB, one at a time)"), "MB/s"),
    ("disk_seq_write_mb_per_s", N_("Disk sequential write"), "MB/s"),
    ("ram_copy_gbps", N_("RAM copy, one thread"), "GB/s"),
    ("ram_copy_all_gbps", N_("RAM copy, all threads"), "GB/s"),
)


def measured_figures(machine: Any) -> tuple[Figure, ...]:
    """Every deep-scan figure of `machine`, GPU rows paired with the data sheet's where one exists."""
    m = machine.measured
    if m is None:
        return ()
    spec, same_gpu = _spec_for(machine)
    rows: list[Figure] = []
    for key, label, unit, spec_key in _GPU_ROWS:
        mv = getattr(m, key) if same_gpu else None
        sv = getattr(spec, spec_key, None) if (spec is not None and spec_key) else None
        if mv is not None:
            ratio = (mv / sv) if sv else None
            text = tr("{value} (measured)", value=_value_text(mv, unit))
            if ratio is not None and sv is not None:
                text = tr("{value} (measured; {pct}% of the data sheet's {spec})", value=_value_text(mv, unit),
                          pct=round(ratio * 100), spec=_value_text(sv, unit))
            rows.append(Figure(key, tr(label), float(mv), unit, MEASURED, sv, ratio, text))
        elif sv is not None:
            rows.append(Figure(key, tr(label), float(sv), unit, FROM_SPECS, sv, None,
                               tr("{value} (from specs)", value=_value_text(sv, unit))))
    for key, label, unit in _HOST_ROWS:
        v = getattr(m, key)
        if v is not None:
            rows.append(Figure(key, tr(label), float(v), unit, MEASURED, None, None,
                               tr("{value} (measured)", value=_value_text(v, unit))))
    return tuple(rows)


def measured_only(machine: Any) -> tuple[Figure, ...]:
    """The figures the deep scan measured itself (no data-sheet values)."""
    return tuple(f for f in measured_figures(machine) if f.source == MEASURED)


def measured_lines(machine: Any) -> list[str]:
    """Text lines for the scan summary: a heading, one line per figure, then the deep scan's notes."""
    m = machine.measured
    if m is None:
        return []
    head = tr("Measured by the deep scan ({s} s):", s=f"{m.duration_s or 0:.0f}")
    if m.cancelled:
        head = tr("Measured by the deep scan (cancelled after {s} s):", s=f"{m.duration_s or 0:.0f}")
    out = [head]
    for f in measured_figures(machine):
        out.append(f"    {f.line}")
    if m.gpu_throttle_after:
        out.append("    " + tr("GPU slow-down reasons after the test: {reasons}",
                               reasons=", ".join(m.gpu_throttle_after)))
    for n in notes_shown(m):  # in the reader's language, whatever language the deep scan ran in
        out.append(f"    - {n}")
    return out
