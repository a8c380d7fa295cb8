"""The verdict: ONE type, ONE label and ONE colour table, used by the CLI, the app and the report.

A leaf module (it imports only gpucheck.i18n), so every layer can use it.

    Verdict.RUNS              runs as configured, with room to spare
    Verdict.TIGHT             within the estimate's own error band of the memory limit (docs/accuracy.md,
                              per family): may fit — try it; if it runs out of memory, apply the fix shown
    Verdict.RUNS_WITH_TWEAKS  runs after changes that keep what is trained (model, method, data, effective
                              batch): precision, micro-batch + accumulation, checkpointing, 8-bit/paged
                              optimizer, sharding, CPU offload, cached embeddings, a stated sequence limit
    Verdict.TOO_SLOW          fits, but takes longer than the practical limit (factors.toml [verdict])
    Verdict.DOES_NOT_FIT      does not fit even with every tweak; a different method (LoRA, QLoRA) or a
                              smaller model is offered under "what fits instead", never as a tweak
    Verdict.NOT_SUPPORTED     this GPU's software stack cannot train it (e.g. 4-bit kernels missing)

`Verdict` is a `str` Enum: it compares equal to its value ("runs" == Verdict.RUNS), serialises to JSON
as that value, and `Verdict.parse()` also reads the values written by older reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from gpucheck.i18n import N_, tr


class Verdict(str, Enum):
    RUNS = "runs"
    TIGHT = "tight"
    RUNS_WITH_TWEAKS = "runs_with_tweaks"
    TOO_SLOW = "too_slow"
    DOES_NOT_FIT = "does_not_fit"
    NOT_SUPPORTED = "not_supported"

    def __str__(self) -> str:  # f-strings and str() give the JSON value, on every Python version
        return self.value

    @classmethod
    def parse(cls, value: object) -> Verdict:
        """A verdict from JSON: today's values and the labels older reports wrote."""
        if isinstance(value, Verdict):
            return value
        text = str(value or "").strip().lower().replace("-", "_").replace(" ", "_")
        text = _LEGACY.get(text, text)
        try:
            return cls(text)
        except ValueError:
            return cls.NOT_SUPPORTED

    @property
    def can_train(self) -> bool:
        """The job trains here (possibly after tweaks, possibly slowly, possibly tight)."""
        return self in (Verdict.RUNS, Verdict.TIGHT, Verdict.RUNS_WITH_TWEAKS, Verdict.TOO_SLOW)


# values and labels written by earlier versions (reports, saved JSON)
_LEGACY = {
    "runs_with_changes": "runs_with_tweaks",
    "with_tweaks": "runs_with_tweaks",
    "fits_but_too_slow": "too_slow",
    "won't_fit": "does_not_fit",
    "wont_fit": "does_not_fit",
    "does_not_fit_even_with_every_tweak": "does_not_fit",
    "may_fit": "tight",
}


@dataclass(frozen=True)
class VerdictStyle:
    label: str  # untranslated (N_); show with verdict_label()
    light: str  # badge background with white text, and text colour on a white page (≥ 4.5:1 with white)
    dark: str  # badge background with black text, and text colour on a dark window (≥ 4.5:1 with black)


# WCAG 2.x AA: each colour has a contrast ratio of at least 4.5:1 with the text drawn on it (tested).
VERDICT_STYLES: dict[Verdict, VerdictStyle] = {
    Verdict.RUNS: VerdictStyle(N_("Runs"), "#1b7f3b", "#66bb6a"),
    Verdict.TIGHT: VerdictStyle(N_("Tight: may fit"), "#8a5300", "#ffca28"),
    Verdict.RUNS_WITH_TWEAKS: VerdictStyle(N_("Runs with tweaks"), "#1565c0", "#64b5f6"),
    Verdict.TOO_SLOW: VerdictStyle(N_("Too slow"), "#a84b00", "#ffb74d"),
    Verdict.DOES_NOT_FIT: VerdictStyle(N_("Does not fit"), "#b3261e", "#ef9a9a"),
    Verdict.NOT_SUPPORTED: VerdictStyle(N_("Not supported"), "#5f5f5f", "#bdbdbd"),
}
TEXT_ON_LIGHT_STYLE = "#ffffff"  # text on a `light` badge
TEXT_ON_DARK_STYLE = "#000000"  # text on a `dark` badge


def verdict_label(verdict: object) -> str:
    """The one label of a verdict, in the current language."""
    return tr(VERDICT_STYLES[Verdict.parse(verdict)].label)


def verdict_colour(verdict: object, dark: bool = False) -> str:
    """The verdict's colour as #rrggbb for a light (default) or dark background."""
    style = VERDICT_STYLES[Verdict.parse(verdict)]
    return style.dark if dark else style.light


def verdict_text_colour(dark: bool = False) -> str:
    """The colour of text drawn on a verdict badge."""
    return TEXT_ON_DARK_STYLE if dark else TEXT_ON_LIGHT_STYLE


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2.x contrast ratio of two #rrggbb colours."""

    def lum(h: str) -> float:
        h = h.lstrip("#")
        rgb = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


__all__ = ["Verdict", "VerdictStyle", "VERDICT_STYLES", "verdict_label", "verdict_colour",
           "verdict_text_colour", "contrast_ratio"]
