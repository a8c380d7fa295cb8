"""The report's pages as a reader sees them: no blank band at the top of a page, the options chart drawn as
vector graphics (PDF) and SVG (HTML), software commands said once, assumptions labelled with their job.

Made for recorded machines from tests/fixtures/machines (see tests/fixtures/SOURCES.md).
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice

from gpucheck.machine import Machine
from gpucheck.report import build_report, write_report
from gpucheck.report import pdf as pdf_mod
from gpucheck.report.html import render_html
from tests.conftest import FIXTURES

RTX3060 = FIXTURES / "machines" / "rtx3060-12gb-hdd-desktop.json"
needs_poppler = pytest.mark.skipif(not shutil.which("pdfimages"), reason="poppler-utils is not installed")


def _first_text_offsets_mm(model) -> dict[int, float]:
    """Per page: how far below the page's top edge its first line of text starts, in millimetres."""
    buf = QBuffer(QByteArray())
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    lay = pdf_mod.layout_report(model, pdf_mod.make_writer(model, buf, "a4"))
    layout, mm = lay.doc.documentLayout(), lay.dpi / 25.4
    first: dict[int, float] = {}
    block = lay.doc.begin()
    while block.isValid():
        if block.text().strip():  # each line of text (a paragraph may go on at the top of the next page)
            block_top = layout.blockBoundingRect(block).top()
            lines = block.layout()
            for i in range(lines.lineCount()):
                top = block_top + lines.lineAt(i).y()
                page = int(top // lay.height)
                first[page] = min(first.get(page, top), top)
        block = block.next()
    return {p: (top - p * lay.height) / mm for p, top in first.items()}


def test_no_blank_band_at_the_top_of_a_page(qapp):
    """The 3060 report (the one the issue looked at): every page starts at the text area's top; a repeated
    table header is the most that may come first (about one line)."""
    model = build_report(Machine.load(RTX3060), lang="en")
    offsets = _first_text_offsets_mm(model)
    assert len(offsets) > 10
    # a table's repeated header row (and the empty line a moved row starts with) may come first: ≤ 18 mm
    bands = {p + 1: round(off, 1) for p, off in offsets.items() if off > pdf_mod.MARGIN_TOP_MM + 18}
    assert bands == {}, f"pages starting below a blank band (mm from the top): {bands}"


@needs_poppler
def test_options_chart_is_vector_in_the_pdf_and_svg_in_the_html(qapp, tmp_path):
    model = build_report(Machine.load(RTX3060), lang="en", workload_ids=["llama3-8b-full"])
    job = next(j for j in model.jobs if j.workload_id == "llama3-8b-full")
    assert job.options and any(p.kind == "cloud" for p in job.options)
    html = render_html(model)
    assert html.count("<svg") >= 1 and job.options[-1].label.split(" (")[0] in html
    out = write_report(model, tmp_path / "r.pdf")
    images = subprocess.run(["pdfimages", "-list", str(out)], capture_output=True, text=True, check=True).stdout
    assert len(images.strip().splitlines()) <= 2, images  # header lines only: no picture, the chart is drawn
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert job.options_title in " ".join(text.split())
    assert "nothing to buy" in text  # the chart's words are text a reader can select and search


def test_software_fix_is_said_once_and_assumptions_name_their_job():
    """The 3060 has a CPU-only PyTorch: the command to fix it is one line of the report, not one per job."""
    model = build_report(Machine.load(RTX3060), lang="en")
    html = render_html(model)
    assert model.software, "the CPU-only torch build needs a fix"
    command = "download.pytorch.org"
    assert html.count(command) == 1
    titles = {j.title for j in model.jobs}
    labelled = list(model.assumptions[3:])  # after the three general ones, each job's own
    # each names its jobs (issue 23: "8 个任务：…" left the reader guessing which)
    assert labelled and all(any(a.startswith(f"{t}: ") or a.startswith(f"{t}, ") for t in titles)
                            for a in labelled)
    assert not any(re.match(r"\d+ jobs: ", a) for a in labelled)
