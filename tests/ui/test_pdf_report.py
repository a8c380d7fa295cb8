"""The PDF report, read back the way a user's PDF viewer would (poppler's pdftotext / pdfinfo / pdffonts).

Made for recorded machines from tests/fixtures/machines (see tests/fixtures/SOURCES.md).
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from gpucheck.catalog import load_workloads
from gpucheck.cli import main
from gpucheck.i18n import translate
from gpucheck.machine import Machine
from tests.conftest import FIXTURES

RTX3080 = FIXTURES / "machines" / "rtx3080-desktop.json"
H100 = FIXTURES / "machines" / "h100x8-server.json"

needs_poppler = pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils is not installed "
                                   "(scripts/system-deps.sh test installs it)")


def pdftotext(path, *args: str) -> str:
    return subprocess.run(["pdftotext", *args, str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def pdfinfo(path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return {k.strip(): v.strip() for k, v in (line.split(":", 1) for line in out.splitlines() if ":" in line)}


def squash(text: str) -> str:
    """Text with line breaks and spaces removed (a long title may wrap inside a table cell)."""
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def en_pdf(tmp_path_factory):
    out = tmp_path_factory.mktemp("pdf") / "rtx3080.pdf"
    assert main(["report", str(out), "--machine", str(RTX3080), "--lang", "en", "--paper", "a4"]) == 0
    return out


@needs_poppler
def test_english_pdf_has_the_content(en_pdf):
    text = pdftotext(en_pdf)
    flat = squash(text)
    assert "Can this computer train AI models?" in text
    assert "NVIDIA GeForce RTX 3080" in text
    for w in load_workloads():
        assert squash(w.title) in flat, w.title
    for words in ("The training ladder", "Video memory (VRAM) per GPU", "Assumptions", "Sources of the numbers",
                  "Glossary", "Gradient accumulation"):
        assert words in text
    assert "GPU-00000000" not in text  # the recorded GPU UUID stays out unless --include-ids


@needs_poppler
def test_every_page_has_header_and_page_number(en_pdf):
    info = pdfinfo(en_pdf)
    pages = int(info["Pages"])
    assert pages > 3
    assert info["Page size"].startswith("595") and "842" in info["Page size"]  # A4 in points
    for i in range(1, pages + 1):
        page = pdftotext(en_pdf, "-f", str(i), "-l", str(i))
        assert f"Page {i} of {pages}" in page
        assert "gpucheck report" in page


@needs_poppler
def test_letter_paper(tmp_path):
    out = tmp_path / "letter.pdf"
    assert main(["report", str(out), "--machine", str(RTX3080), "--paper", "letter",
                 "--workloads", "mnist-cnn"]) == 0
    assert pdfinfo(out)["Page size"].startswith("612 x 792")


@needs_poppler
def test_chinese_pdf_is_chinese_selectable_and_carries_its_font(tmp_path):
    out = tmp_path / "zh.pdf"
    assert main(["report", str(out), "--machine", str(RTX3080), "--lang", "zh_CN"]) == 0
    text = pdftotext(out)
    flat = squash(text)
    title = translate("Can this computer train AI models?", "zh_CN")
    assert title != "Can this computer train AI models?"
    assert squash(title) in flat
    for w in load_workloads():
        assert squash(w.title_zh or w.title) in flat, w.title_zh
    pages = int(pdfinfo(out)["Pages"])
    page_label = translate("Page {page} of {pages}", "zh_CN").format(page=1, pages=pages)
    assert squash(page_label) in flat
    fonts = subprocess.run(["pdffonts", str(out)], capture_output=True, text=True, check=True).stdout
    font_lines = [line for line in fonts.splitlines() if "WenQuanYi" in line]
    assert font_lines, fonts
    assert all(" yes " in line for line in font_lines)  # embedded: prints where no Chinese font is installed


def test_table_rows_are_never_split_across_pages(qapp):
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    from gpucheck.report import build_report
    from gpucheck.report.page_checks import split_rows
    from gpucheck.report.pdf import layout_report, make_writer

    for path, lang in ((RTX3080, "en"), (RTX3080, "zh_CN"), (H100, "en")):
        model = build_report(Machine.load(path), lang=lang)
        buf = QBuffer(QByteArray())
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        lay = layout_report(model, make_writer(model, buf, "a4"))
        assert lay.pages > 3
        assert split_rows(lay) == [], f"{path.name} {lang}: rows split across pages"
        del lay, buf


def _rows_starting_a_page_early(lay) -> list[tuple[int, int]]:
    """(table, row) of the top-level table rows whose cells begin on one page, empty, and whose text is on
    the next: the empty row outline a row pushed down inside its table leaves at the foot of a page."""
    from PySide6.QtGui import QTextTable

    layout, out = lay.doc.documentLayout(), []
    tables = [f for f in lay.doc.rootFrame().childFrames() if isinstance(f, QTextTable)]
    for t_index, table in enumerate(tables):
        for r in range(table.rows()):
            pages = set()
            for c in range(table.columns()):
                cell = table.cellAt(r, c)
                block, end = cell.firstCursorPosition().block(), cell.lastCursorPosition().block()
                while block.isValid():
                    rect = layout.blockBoundingRect(block)
                    pages.update({int(rect.top() // lay.height), int((rect.bottom() - 0.5) // lay.height)})
                    if block == end:
                        break
                    block = block.next()
            if len(pages) > 1 and max(pages) - min(pages) == 1 and _row_height_ok(table, r, layout, lay):
                out.append((t_index, r))
    return out


def _row_height_ok(table, r, layout, lay) -> bool:
    """A row shorter than most of a page (taller ones may split)."""
    tops, bottoms = [], []
    for c in range(table.columns()):
        cell = table.cellAt(r, c)
        tops.append(layout.blockBoundingRect(cell.firstCursorPosition().block()).top())
        bottoms.append(layout.blockBoundingRect(cell.lastCursorPosition().block()).bottom())
    return max(bottoms) - min(tops) < lay.content_bottom * 0.6


def test_a_row_moved_to_the_next_page_leaves_no_empty_outline_behind(qapp):
    """QA of the RTX 3060 report (page 9): the DreamBooth section's 4th change moved to page 10 and left an
    empty bordered row at the foot of page 9. A moved row starts a table of its own on the next page."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    from gpucheck.report import build_report
    from gpucheck.report.pdf import layout_report, make_writer

    for path, lang in ((FIXTURES / "machines" / "rtx3060-12gb-hdd-desktop.json", "en"), (RTX3080, "zh_CN")):
        model = build_report(Machine.load(path), lang=lang)
        buf = QBuffer(QByteArray())
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        lay = layout_report(model, make_writer(model, buf, "a4"))
        assert _rows_starting_a_page_early(lay) == [], f"{path.name} {lang}: empty row outlines"
        del lay, buf


def test_rows_would_split_without_the_pagination_pass(qapp, monkeypatch):
    """The check above can fail: with the pagination pass switched off, Qt splits rows."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    import gpucheck.report.pdf as pdf
    from gpucheck.report import build_report
    from gpucheck.report.page_checks import split_rows

    monkeypatch.setattr(pdf, "paginate", lambda *a, **k: 0)
    model = build_report(Machine.load(RTX3080), lang="en")
    buf = QBuffer(QByteArray())
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    lay = pdf.layout_report(model, pdf.make_writer(model, buf, "a4"))
    assert split_rows(lay)
    del lay, buf


def _headings_left_at_a_page_foot(lay) -> list[str]:
    """Headings whose text (the first line of the next block) Qt prints on the next page."""
    doc, height = lay.doc, lay.height
    out = []
    block = doc.begin()
    while block.isValid():
        nxt = block.next()
        if block.blockFormat().headingLevel() > 0 and nxt.isValid() and doc.frameAt(block.position()) == \
                doc.rootFrame():
            while nxt.isValid() and not nxt.text().strip() and nxt.next().isValid():
                nxt = nxt.next()
            lines, own = nxt.layout(), block.layout()
            if lines.lineCount() and own.lineCount():
                first_y = lines.position().y() + lines.lineAt(0).y()
                heading_y = own.position().y() + own.lineAt(0).y()
                if int(first_y // height) > int(heading_y // height):
                    out.append(block.text())
        block = nxt if nxt.isValid() and nxt.position() > block.position() else block.next()
    return out


def test_no_heading_is_left_alone_at_the_foot_of_a_page(qapp):
    """QA of the Chinese RTX 3060 report: '拖慢速度的因素' ended page 4, its text began page 5."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    from gpucheck.region import use_region
    from gpucheck.report import build_report
    from gpucheck.report.pdf import layout_report, make_writer

    m = Machine.load(FIXTURES / "machines" / "rtx3060-12gb-hdd-desktop.json")
    with use_region("cn"):
        model = build_report(m, lang="zh_CN")
    buf = QBuffer(QByteArray())
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    lay = layout_report(model, make_writer(model, buf, "a4"))
    assert _headings_left_at_a_page_foot(lay) == []
    del lay, buf


def test_saving_many_pdfs_in_one_session_does_not_abort(qapp):
    """PySide6 6.12.0's void methods drop references to None on CPython < 3.12 (pinned out in
    pyproject.toml); after a few reports the app would abort with "none_dealloc". Rendering must leave
    None's reference count where it was."""
    import sys

    from gpucheck.report import build_report
    from gpucheck.report.pdf import render_pdf

    model = build_report(Machine.load(RTX3080), lang="en", workload_ids=["mnist-cnn", "llama3-8b-qlora"])
    render_pdf(model)  # warm-up: fonts and caches that keep references for the whole process
    before = sys.getrefcount(None)
    for _ in range(3):
        assert render_pdf(model).startswith(b"%PDF")
    assert sys.getrefcount(None) >= before - 50


def test_pdf_written_atomically_on_error(tmp_path, monkeypatch, capsys):
    """A PDF that fails half-way leaves the old file in place and no temporary file."""
    import errno
    import os

    import gpucheck.fileio

    folder = tmp_path / "reports"
    folder.mkdir()
    out = folder / "r.pdf"
    out.write_bytes(b"%PDF old")

    def disk_full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(gpucheck.fileio.os, "fsync", disk_full)
    assert main(["report", str(out), "--machine", str(RTX3080), "--workloads", "mnist-cnn"]) == 2
    assert out.read_bytes() == b"%PDF old"
    assert [p.name for p in folder.iterdir()] == ["r.pdf"]
    assert capsys.readouterr().err.count("\n") == 1


@needs_poppler
@pytest.mark.parametrize("machine,lang", [(RTX3080, "en"), (RTX3080, "zh_CN"), (H100, "en")])
def test_no_text_runs_outside_the_page_margins(tmp_path, machine, lang):
    """Clipped text shows up as words beyond the margins (or beyond the page) in pdftotext's boxes."""
    from gpucheck.report.pdf import MARGIN_LEFT_MM, MARGIN_RIGHT_MM

    out = tmp_path / "r.pdf"
    assert main(["report", str(out), "--machine", str(machine), "--lang", lang, "--paper", "a4"]) == 0
    html = pdftotext(out, "-bbox")
    words = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', html)
    assert len(words) > 1000
    mm = 72 / 25.4
    left, right = MARGIN_LEFT_MM * mm - 1.5, 595.28 - MARGIN_RIGHT_MM * mm + 1.5
    outside = [w[4] for w in words if float(w[0]) < left or float(w[2]) > right or float(w[3]) > 841.89]
    assert outside == []
