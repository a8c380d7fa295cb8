"""The painted widgets: what they draw follows the figures they are given, in any width and language."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from gpucheck.estimate import Target, estimate
from gpucheck.machine import Machine
from gpucheck.ui.widgets import theme
from gpucheck.ui.widgets.memory_chart import MemoryChart
from gpucheck.ui.widgets.vram_bar import VramBar
from tests.ui.conftest import machine_path


def _estimate(job: str):
    from gpucheck.catalog import get_workload

    m = Machine.load(machine_path("rtx3060"))
    return estimate(get_workload(job), Target.from_machine(m))


def test_vram_bar_colours_by_fit(qtbot):
    est = _estimate("llama3-8b-full")  # 16-bit full fine-tune of 8B on a 12 GB card: far too big
    bar = VramBar()
    qtbot.addWidget(bar)
    bar.resize(300, bar.sizeHint().height())
    bar.set_values(est.peak_vram_bytes, est.vram_available_bytes)
    assert not bar.fits()
    img = bar.grab().toImage()
    y = int(bar.bar_rect().center().y())
    mid = QColor(img.pixel(img.width() // 2, y))
    assert mid.red() > mid.green()  # red-ish: does not fit
    small = _estimate("mnist-cnn")
    bar.set_values(small.peak_vram_bytes, small.vram_available_bytes)
    assert bar.fits()
    img = bar.grab().toImage()
    left = QColor(img.pixel(3, y))
    assert left.green() > left.red()  # green: fits


def test_memory_chart_legend_wraps_instead_of_clipping(qtbot):
    from gpucheck.ui.app import set_app_language

    est = _estimate("sd15-dreambooth")
    for lang in ("en", "zh_CN"):
        set_app_language(lang)
        chart = MemoryChart()
        qtbot.addWidget(chart)
        chart.set_breakdown(est.breakdown, est.vram_available_bytes)
        wide, narrow = chart.heightForWidth(1000), chart.heightForWidth(300)
        assert narrow > wide  # more legend rows when narrow
        fm = chart.fontMetrics()
        for row in chart._legend_rows(300):
            used = sum(fm.height() + fm.horizontalAdvance(t) + 18 for t in row)
            assert used <= 300 or len(row) == 1
        assert chart.summary().count("\n") == 6  # five parts, the total and your VRAM
    set_app_language("en")


def test_badges_meet_wcag_aa_in_both_palettes():
    """Every verdict and part status badge: 4.5:1 between its text and its colour (WCAG 2.x AA), light and dark."""
    from PySide6.QtGui import QPalette

    from gpucheck.verdict import contrast_ratio

    for dark in (False, True):
        pal = QPalette()
        pal.setColor(QPalette.ColorRole.Window, QColor("#202124" if dark else "#f0f0f0"))
        fg = theme.badge_text_colour(pal).name()
        colours = [theme.verdict_colour(v, pal) for v in ("runs", "tight", "runs_with_tweaks", "too_slow",
                                                           "does_not_fit", "not_supported")]
        colours += [theme.status_colour(s, pal) for s in ("good", "limited", "missing", "unknown")]
        for bg in colours:
            assert contrast_ratio(bg.name(), fg) >= 4.5, (bg.name(), fg, dark)


@pytest.mark.parametrize("job, width", [("sdxl-lora", 300), ("llama3-8b-qlora", 300), ("sd15-lora", 420),
                                         ("llama3-8b-full", 300)])
def test_vram_bar_marker_does_not_cross_the_figures(qtbot, job, width):
    """The 6 GB GTX 1660 Ti laptop: the "you have 6 GB" line sits beside the caption, not through it."""
    from gpucheck.catalog import get_workload

    m = Machine.load(machine_path("gtx1660"))
    est = estimate(get_workload(job), Target.from_machine(m))
    bar = VramBar()
    qtbot.addWidget(bar)
    bar.resize(width, bar.sizeHint().height())
    bar.set_values(est.peak_vram_bytes, est.vram_available_bytes)
    x, text = bar.marker_x(), bar.text_rect()
    assert x is not None and bar.marker_spans()
    band_top, band_bottom = bar.text_band()
    for y0, y1 in bar.marker_spans():  # the marker stays on the strip, above the caption's line
        assert y1 < band_top, ((y0, y1), (band_top, band_bottom))
    assert text.top() >= bar.bar_rect().bottom()
    assert bar.rect().contains(text.toRect())
    bar.grab()  # paints without error
