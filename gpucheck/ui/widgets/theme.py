"""Colours for the app, from the one verdict table (gpucheck.verdict) and the one breakdown table
(gpucheck.report.figures), picked for the palette in force: the app follows the system's light or dark
theme, and every badge meets WCAG AA (4.5:1) in both."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from gpucheck.i18n import tr
from gpucheck.ui.machine_view import STATUS_LABELS
from gpucheck.verdict import verdict_colour as _verdict_hex
from gpucheck.verdict import verdict_label as _verdict_label
from gpucheck.verdict import verdict_text_colour

# A part's status shares the verdict colours: good = runs, limited = too slow, missing = does not fit.
STATUS_AS_VERDICT = {"good": "runs", "limited": "too_slow", "missing": "does_not_fit", "unknown": "not_supported"}

# The memory chart takes its parts from gpucheck.report.figures itself: importing that package here would
# load the whole report (and the advice) before the first window (start-up speed, gpucheck/lazy.py).
__all__ = ["palette", "is_dark", "verdict_colour", "verdict_label",
           "status_colour", "status_label", "part_colour", "text_on", "badge_text_colour"]


def palette() -> QPalette:
    app = QApplication.instance()
    return app.palette() if app is not None else QPalette()


def is_dark(pal: QPalette | None = None) -> bool:
    pal = pal or palette()
    return pal.color(QPalette.ColorRole.Window).lightness() < 128


def verdict_colour(verdict: str, pal: QPalette | None = None) -> QColor:
    return QColor(_verdict_hex(verdict, dark=is_dark(pal)))


def verdict_label(verdict: str) -> str:
    return _verdict_label(verdict)


def status_colour(status: str, pal: QPalette | None = None) -> QColor:
    return verdict_colour(STATUS_AS_VERDICT.get(status, "not_supported"), pal)


def status_label(status: str) -> str:
    return tr(STATUS_LABELS.get(status, status))


def part_colour(colour: str, pal: QPalette | None = None) -> QColor:
    return QColor(colour)


def badge_text_colour(pal: QPalette | None = None) -> QColor:
    """Text on a badge: white on the light theme's deep colours, black on the dark theme's pale ones."""
    return QColor(verdict_text_colour(dark=is_dark(pal)))


def text_on(colour: QColor, pal: QPalette | None = None) -> QColor:
    """The badge text colour for `colour` (kept for callers; badges use badge_text_colour)."""
    return badge_text_colour(pal)
