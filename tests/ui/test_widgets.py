"""The painted widgets: what they draw follows the figures they are given, in any width and language."""

from __future__ import annotations

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
    mid = QColor(img.pixel(img.width() // 2, img.height() // 2))
    assert mid.red() > mid.green()  # red-ish: does not fit
    small = _estimate("mnist-cnn")
    bar.set_values(small.peak_vram_bytes, small.vram_available_bytes)
    assert bar.fits()
    img = bar.grab().toImage()
    left = QColor(img.pixel(3, img.height() // 2))
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


def test_badge_text_readable_in_both_palettes():
    for verdict in ("runs", "runs_with_tweaks", "too_slow", "does_not_fit", "not_supported"):
        for dark in (False, True):
            from PySide6.QtGui import QPalette

            pal = QPalette()
            pal.setColor(QPalette.ColorRole.Window, QColor("#202124" if dark else "#f0f0f0"))
            bg = theme.verdict_colour(verdict, pal)
            fg = theme.text_on(bg)
            assert abs(bg.lightnessF() - fg.lightnessF()) > 0.35, (verdict, dark)
