"""Checks of a paginated PDF report: rows whose text spans two pages, and tables that start with a lone row
at the foot of a page (the pagination in gpucheck.report.pdf leaves neither). Qt's table class comes
through gpucheck.report.pdf, the one report module that imports Qt.
"""

from __future__ import annotations

from gpucheck.report.page_layout import Layout, _row_extent, may_split
from gpucheck.report.pdf import QTextTable


def split_rows(lay: Layout) -> list[tuple[int, int]]:
    """(table, row) of every top-level table row whose text spans two pages (for checks and tests)."""

    layout = lay.doc.documentLayout()
    out = []
    tables = [f for f in lay.doc.rootFrame().childFrames() if isinstance(f, QTextTable)]
    for t_index, table in enumerate(tables):
        for r in range(table.rows()):
            tops, bottoms = [], []
            for c in range(table.columns()):
                cell = table.cellAt(r, c)
                block, end = cell.firstCursorPosition().block(), cell.lastCursorPosition().block()
                while block.isValid():
                    if block.text().strip():
                        rect = layout.blockBoundingRect(block)
                        tops.append(rect.top())
                        bottoms.append(rect.bottom())
                    if block == end:
                        break
                    block = block.next()
            if not tops:
                continue
            top, bottom = min(tops), max(bottoms)
            if may_split(bottom - top, lay.content_top, lay.content_bottom):
                continue  # taller than most of a page: allowed to split
            if int(top // lay.height) != int((bottom - 0.5) // lay.height):
                out.append((t_index, r))
    return out


def lone_first_rows(lay: Layout) -> list[int]:
    """Top-level tables that start with a single body row at the foot of a page and go on on the next
    (for checks and tests): the index of each such table."""
    layout = lay.doc.documentLayout()
    out = []
    tables = [f for f in lay.doc.rootFrame().childFrames() if isinstance(f, QTextTable)]
    for t_index, table in enumerate(tables):
        first = table.format().headerRowCount()
        if table.rows() < first + 3:
            continue
        top = _row_extent(layout, table, first)[0]
        nxt = _row_extent(layout, table, first + 1)[1]
        if int(top // lay.height) != int((nxt - 0.5) // lay.height):
            out.append(t_index)
    return out
