"""The report model: the records a report is made of, from the tables to the whole report.

Pure: no Qt, no file I/O. Every string in a model is translated with `tr()` while `use_language(lang)` is
in force, so the same model renders to HTML, PDF and JSON without translating again (gpucheck.report.build
makes it). Also here: the paper a report is printed on by default, and a job's title and verdict as every
section names them.
"""

from __future__ import annotations

import ctypes
import locale
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from gpucheck.machine import Machine
from gpucheck.report.option_points import OptionPoint
from gpucheck.verdict import verdict_label

# Countries whose paper is US Letter (CLDR supplemental data, <paperSize type="US-Letter" territories=…>).
LETTER_TERRITORIES = frozenset("BZ CA CL CO CR GT MX NI PA PH PR SV US VE".split())


# -- the model ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    # per row: a verdict id (colours the verdict cell) or ""; same length as rows when given
    row_verdicts: tuple[str, ...] = ()
    verdict_column: int = -1


@dataclass(frozen=True)
class FindingLine:
    severity: str  # info | ok | unknown | warning | error
    severity_text: str
    area_text: str
    message: str


@dataclass(frozen=True)
class ChartPart:
    key: str  # weights | gradients | optimizer | activations | overhead
    label: str
    bytes: int
    text: str  # "12.3 GB"
    color: str


@dataclass(frozen=True)
class MemoryChart:
    """Stacked bar of what a job needs next to a bar of what the GPU has (per GPU)."""

    title: str
    parts: tuple[ChartPart, ...]
    need_bytes: int
    need_label: str
    have_bytes: int | None
    have_label: str
    scale_bytes: int  # the longer of the two bars: both are drawn against it
    caption: str


@dataclass(frozen=True)
class AlternativeSection:
    """The smaller model that fits when the job asked for does not, with the changes it needs."""

    workload_id: str
    headline: str  # its name, what it needs per GPU, how long it takes ("" when nothing tried fits)
    tweaks: Table  # change / what it costs
    snippet: str  # its settings as code
    others: tuple[str, ...] = ()  # the other methods / models tried (LoRA, QLoRA, smaller model), one line each


@dataclass(frozen=True)
class JobSection:
    workload_id: str
    title: str
    verdict: str
    verdict_text: str
    headline: str
    figures: Table  # label / value
    chart: MemoryChart | None
    tweaks: Table | None
    snippet: str  # settings to copy (Python), "" when nothing changes
    bottlenecks: tuple[str, ...]
    software: tuple[str, ...]
    upgrades: Table | None
    cloud: Table | None
    buy_vs_rent: tuple[str, ...]
    notes: tuple[str, ...]
    tweaks_title: str = ""  # heading of `tweaks` when it differs from the report's ("tried, not enough")
    speed_intro: str = ""
    speed_tweaks: Table | None = None  # optional changes that finish a job that runs sooner, each on its own
    speed_settings: str = ""  # their settings to copy: "# title" then "key=value, …", one pair of lines each
    alternative: AlternativeSection | None = None
    options: tuple[OptionPoint, ...] = ()  # this PC, with the changes, upgrades, cloud: time against money
    options_headings: tuple[str, str, str, str] = ("", "", "", "")
    options_title: str = ""
    changes: str = ""  # over the changes: "With these changes: 19.3 GB → 11.4 GB of 11.7 GB; 2.3–5.2 h, …"


@dataclass(frozen=True)
class Evaluation:
    """One workload with its estimate and advice, as returned by the estimator and the advice."""

    workload: Any  # records.Workload
    estimate: Any  # records.Estimate
    advice: Any | None = None  # advise.Advice
    detailed: bool = True
    trial: Any | None = None  # gpucheck.trial.TrialResult of these settings on this PC: its figures say "measured"


@dataclass(frozen=True)
class ReportModel:
    lang: str
    paper: str  # a4 | letter
    include_ids: bool
    title: str
    subtitle: str
    generated_at: str  # ISO 8601 UTC
    generated_text: str
    app_version: str
    header_text: str  # printed at the top of every PDF page
    footer_text: str
    intro: str
    machine: Machine  # redacted unless include_ids
    machine_table: Table
    gpu_table: Table | None
    findings: tuple[FindingLine, ...]
    ladder: Table | None
    ladder_note: str
    jobs: tuple[JobSection, ...]
    assumptions: tuple[str, ...]
    sources: tuple[str, ...]
    glossary: tuple[tuple[str, str], ...]
    disclaimer: str
    evaluations: tuple[Evaluation, ...] = ()
    software: tuple[str, ...] = ()  # software to fix, once for the whole report
    section_titles: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)


# -- helpers ---------------------------------------------------------------------------------------


def default_paper(env: dict[str, str] | None = None) -> str:
    """'letter' where the locale's territory uses US Letter (en_US, en_CA, es_MX …), else 'a4'.

    LC_PAPER, LC_ALL, LANG in that order; a C/POSIX locale says nothing about paper (A4, the world's
    default). Without those variables (Windows, apps started from a macOS Dock) the OS locale decides.
    """
    env = os.environ if env is None else env
    for var in ("LC_PAPER", "LC_ALL", "LANG"):
        raw = env.get(var)
        if raw:
            territory = _territory(raw)
            if territory:
                return "letter" if territory in LETTER_TERRITORIES else "a4"
            return "a4"
    territory = _territory(_os_locale_name() or "")
    return "letter" if territory in LETTER_TERRITORIES else "a4"


def _os_locale_name() -> str | None:
    """'en-US' / 'en_US' from the operating system, or None."""
    if sys.platform == "win32":
        try:
            buf = ctypes.create_unicode_buffer(85)
            if ctypes.windll.kernel32.GetUserDefaultLocaleName(buf, 85):  # type: ignore[attr-defined]
                return buf.value
        except (OSError, AttributeError):
            return None
        return None
    try:
        return locale.getlocale()[0]
    except (ValueError, TypeError):
        return None


def _territory(value: str) -> str | None:
    v = value.split(".")[0].split("@")[0].replace("-", "_")
    parts = v.split("_")
    if len(parts) >= 2 and len(parts[-1]) == 2 and parts[-1].isalpha():
        return parts[-1].upper()
    return None


def workload_title(workload: Any, lang: str) -> str:
    if lang == "zh_CN" and getattr(workload, "title_zh", ""):
        return workload.title_zh
    return workload.title


def verdict_text(verdict: str) -> str:
    """The one label of a verdict (gpucheck.verdict), as the app and the CLI show it."""
    return verdict_label(verdict)


__all__ = [
    "ReportModel", "Table", "FindingLine", "MemoryChart", "ChartPart", "JobSection", "AlternativeSection",
    "Evaluation",
    "default_paper",
    "verdict_text", "workload_title",
]
