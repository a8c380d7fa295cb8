"""The Chinese PDF as a mainland reader uses it (issue 23 item 18, issue 25 item 16): commands copy as one
line each, the running header's date is the body's Beijing date, short values are never broken inside a
word, chart labels are whole, no table starts with a lone row at a page's foot; Qt's file dialog in Chinese.

Made for recorded machines from tests/fixtures/machines (see tests/fixtures/SOURCES.md).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import datetime, timezone

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice

from gpucheck.i18n import set_language
from gpucheck.machine import Machine
from gpucheck.region import set_region, use_region
from tests.conftest import FIXTURES

MACHINES = FIXTURES / "machines"
# 20:30 UTC on 1 December is 04:30 on 2 December in Beijing: the two dates differ
NOW = datetime(2026, 12, 1, 20, 30, tzinfo=timezone.utc)

needs_poppler = pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils is not installed")


def _model(machine: str, lang: str):
    from gpucheck.report.build import build_report

    with use_region("cn"):
        return build_report(Machine.load(MACHINES / f"{machine}.json"), lang=lang, now=NOW)


@pytest.fixture(scope="module")
def zh_windows(tmp_path_factory):
    """The Windows 10 desktop (RTX 2060 SUPER) in Chinese for mainland China: PowerShell commands."""
    from gpucheck.report.pdf import render_pdf

    model = _model("rtx2060super-windows", "zh_CN")
    with use_region("cn"):
        data = render_pdf(model)
    path = tmp_path_factory.mktemp("pdf") / "zh.pdf"
    path.write_bytes(data)
    yield model, path
    set_region(None)
    set_language("en")


def _text(path, *args: str) -> str:
    return subprocess.run(["pdftotext", *args, str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


@needs_poppler
def test_the_running_header_date_is_the_bodys_beijing_date(zh_windows):
    _model_, path = zh_windows
    pages = _text(path, "-layout").split("\f")
    assert "2026-12-02 04:30（北京时间）" in pages[0]  # the body
    for page in pages[:-1]:
        header = page.strip().splitlines()[0]
        assert header.rstrip().endswith("2026-12-02"), header  # before: 2026-12-01, the UTC date


@needs_poppler
def test_every_command_copies_as_one_line(zh_windows):
    # Before: the pip command in body font, broken across two lines (pasting it runs half a command).
    model, path = zh_windows
    lines = {re.sub(r"\s+", " ", ln).strip() for ln in _text(path).splitlines()}
    code = [j.snippet for j in model.jobs] + [j.alternative.snippet for j in model.jobs if j.alternative]
    code += [item.partition("\n")[2] for item in model.software]
    commands = [ln.strip() for block in code if block for ln in block.splitlines()
                if ln.strip() and not ln.lstrip().startswith("#")]
    assert any(c.startswith("pip install --upgrade torch") for c in commands)
    assert any(c.startswith("$env:HF_ENDPOINT=") for c in commands)  # Windows: PowerShell's form
    broken = [c for c in commands if re.sub(r"\s+", " ", c) not in lines]
    assert not broken, broken[:5]


@needs_poppler
def test_short_values_in_the_cloud_table_are_never_cut_inside_a_word(zh_windows):
    # Before: "国内最便/宜", "2.7 小/时", "¥1.58/ 卡·时" in the cloud table's narrow columns.
    model, path = zh_windows
    lines = [ln.strip() for ln in _text(path, "-layout").splitlines()]
    text = "\n".join(lines)
    for job in model.jobs:
        for row in (job.cloud.rows if job.cloud else ()):
            for value in (row[0], row[3], row[4]):  # option, per GPU-hour, time
                assert re.search(re.escape(value), text), value
    assert not re.search(r"国内最便\s*\n\s*宜|小\s*\n\s*时", text)


def _layout(model):
    from gpucheck.report import pdf

    pdf._ensure_app()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    with use_region("cn"):
        return pdf.layout_report(model, pdf.make_writer(model, buf))


@pytest.mark.parametrize(("machine", "lang"), [("rtx2060super-windows", "zh_CN"), ("rtx2060super-windows", "en"),
                                               ("m1-macbookair", "zh_CN")])
def test_no_table_starts_with_a_lone_row_at_a_pages_foot(machine, lang):
    from gpucheck.report.page_checks import lone_first_rows, split_rows

    lay = _layout(_model(machine, lang))
    assert lone_first_rows(lay) == []
    assert split_rows(lay) == []


def test_option_labels_are_drawn_whole(qapp):
    # Before: "在 AWS EC2（p5.48xlarge）租用 8 × NVIDIA H100 8…" in the options chart.
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QFont, QImage, QPainter

    from gpucheck.report import pdf

    drawn: list[str] = []

    class Recording(QPainter):
        def drawText(self, *args):  # noqa: N802 — Qt's name
            drawn.append(str(args[-1]))
            return super().drawText(*args)

    model = _model("rtx2060super-windows", "zh_CN")
    job = next(j for j in model.jobs if len(j.options) >= 6)
    image = QImage(900, 600, QImage.Format.Format_ARGB32)
    painter = Recording(image)
    painter.setFont(QFont(["WenQuanYi Micro Hei"], 9))
    pdf.paint_options(painter, QRectF(0, 0, 900, 600), job.options, job.options_headings)
    painter.end()
    joined = "".join(drawn).replace("\n", "")
    assert "…" not in "".join(drawn[:len(job.options) * 3])
    for pt in job.options:
        assert pt.label.replace(" ", "") in joined.replace(" ", ""), pt.label


def test_the_chinese_file_dialog_has_no_english_labels(qapp):
    # Before: "Look in:" and "Files of type:" in English (Qt 6's labels are missing from qtbase_zh_CN.qm).
    from PySide6 import QtWidgets

    from gpucheck.ui.languages import set_app_language

    set_app_language("zh_CN")
    try:
        dialog = QtWidgets.QFileDialog(None, "x")
        dialog.setOption(QtWidgets.QFileDialog.Option.DontUseNativeDialog)
        labels = [w.text() for w in dialog.findChildren(QtWidgets.QLabel)]
        assert "查找范围(&L)：" in labels and "文件类型(&T)：" in labels
        assert not [t for t in labels if re.search(r"[A-Za-z]{3}", t)], labels
    finally:
        set_app_language("en")
