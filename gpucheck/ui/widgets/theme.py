"""Colours that read well on both light and dark palettes (the palette follows the system)."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from gpucheck.i18n import N_, tr
from gpucheck.ui.machine_view import STATUS_LABELS

# Verdicts (gpucheck.records.VERDICTS) → label, light colour, dark colour.
VERDICT_LABELS = {
    "runs": N_("Runs"),
    "runs_with_tweaks": N_("Runs with tweaks"),
    "too_slow": N_("Too slow"),
    "does_not_fit": N_("Won't fit"),
    "not_supported": N_("Not supported"),
}
_VERDICT_COLOURS = {
    "runs": ("#1e7d32", "#66bb6a"),
    "runs_with_tweaks": ("#1565c0", "#64b5f6"),
    "too_slow": ("#b26a00", "#ffb74d"),
    "does_not_fit": ("#c62828", "#ef5350"),
    "not_supported": ("#616161", "#9e9e9e"),
}

_STATUS_COLOURS = {
    "good": ("#1e7d32", "#66bb6a"),
    "limited": ("#b26a00", "#ffb74d"),
    "missing": ("#c62828", "#ef5350"),
    "unknown": ("#616161", "#9e9e9e"),
}

# Memory breakdown parts, in the order they are stacked.
BREAKDOWN_PARTS = (
    ("weights_bytes", N_("Weights"), ("#5c6bc0", "#7986cb")),
    ("gradients_bytes", N_("Gradients"), ("#26a69a", "#4db6ac")),
    ("optimizer_bytes", N_("Optimizer state"), ("#ffa726", "#ffb74d")),
    ("activations_bytes", N_("Activations"), ("#ec407a", "#f06292")),
    ("overhead_bytes", N_("Overhead"), ("#8d6e63", "#a1887f")),
)
# Training on the CPU: the rest of the RAM the job needs (Python, libraries, data loading).
RAM_OTHER_PART = (N_("Python, libraries and data loading"), ("#90a4ae", "#b0bec5"))


def palette() -> QPalette:
    app = QApplication.instance()
    return app.palette() if app is not None else QPalette()


def is_dark(pal: QPalette | None = None) -> bool:
    pal = pal or palette()
    return pal.color(QPalette.ColorRole.Window).lightness() < 128


def _pick(pair: tuple[str, str], pal: QPalette | None = None) -> QColor:
    return QColor(pair[1] if is_dark(pal) else pair[0])


def verdict_colour(verdict: str, pal: QPalette | None = None) -> QColor:
    return _pick(_VERDICT_COLOURS.get(verdict, _VERDICT_COLOURS["not_supported"]), pal)


def verdict_label(verdict: str) -> str:
    return tr(VERDICT_LABELS.get(verdict, verdict))


def status_colour(status: str, pal: QPalette | None = None) -> QColor:
    return _pick(_STATUS_COLOURS.get(status, _STATUS_COLOURS["unknown"]), pal)


def status_label(status: str) -> str:
    return tr(STATUS_LABELS.get(status, status))


def part_colour(pair: tuple[str, str], pal: QPalette | None = None) -> QColor:
    return _pick(pair, pal)


def text_on(colour: QColor) -> QColor:
    """Black or white, whichever reads better on `colour`."""
    r, g, b = colour.redF(), colour.greenF(), colour.blueF()
    return QColor("#000000") if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else QColor("#ffffff")
