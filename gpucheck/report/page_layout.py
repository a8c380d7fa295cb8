"""The PDF's pages, without Qt: where the rows and headings of a laid-out report fall on its pages, the
laid-out report (`Layout`) and the running header's date.

The measuring functions take the QTextDocument, its layout and its tables as arguments and only call their
methods; gpucheck.report.pdf lays the report out and moves rows and headings with them
(`gpucheck.report.pdf.paginate`).
"""

from __future__ import annotations

from gpucheck.i18n import fmt_timestamp, use_language
from gpucheck.report.model import ReportModel


def _cell_extent(layout, cell) -> tuple[float, float]:
    """Top of the first line and bottom of the last line of a table cell, in document coordinates."""
    block = cell.firstCursorPosition().block()
    end = cell.lastCursorPosition().block()
    top, bottom = None, None
    while block.isValid():
        r = layout.blockBoundingRect(block)
        top = r.top() if top is None else min(top, r.top())
        bottom = r.bottom() if bottom is None else max(bottom, r.bottom())
        if block == end:
            break
        block = block.next()
    return (top or 0.0, bottom or 0.0)


def _relayout(doc, start: int = 0) -> None:
    """Lay the document out again from `start` to the end (Qt's own incremental relayout after a
    format change leaves stale positions behind it)."""
    start = max(0, min(start, doc.characterCount() - 1))
    doc.markContentsDirty(start, doc.characterCount() - start)
    doc.documentLayout().documentSize()


def _first_heading_of_run(doc, block):
    """The first of the consecutive headings in the page's own flow that end at `block`, or None when `block` is no
    such heading."""
    root = doc.rootFrame()
    found = None
    while (block.isValid() and block.blockFormat().headingLevel() > 0
           and doc.frameAt(block.position()) == root):
        found = block
        block = block.previous()
    return found


def _heading_before(doc, table):
    """The first of the headings directly above `table` (h3 + h4 + table move together), or None."""
    return _first_heading_of_run(doc, doc.findBlock(table.firstPosition() - 1))


def _row_extent(layout, table, r: int) -> tuple[float, float]:
    extents = [_cell_extent(layout, table.cellAt(r, c)) for c in range(table.columns())]
    return min(e[0] for e in extents), max(e[1] for e in extents)


def _starts_page_after(layout, table, first: int, r: int, page_height: float, content_bottom: float) -> bool:
    """Row `r` of `table` ends on (or crosses into) a later page than the table's first body row starts on."""
    first_top = _row_extent(layout, table, first)[0]
    bottom = _row_extent(layout, table, r)[1]
    page = int(first_top // page_height)
    return bottom > page * page_height + content_bottom


def may_split(row_height: float, content_top: float, content_bottom: float) -> bool:
    """A row taller than most of a page's text area is left to split across pages (the pagination and its checks)."""
    return row_height >= (content_bottom - content_top) * 0.6


class Layout:
    """A laid-out, paginated report: the QTextDocument and the page geometry in device pixels."""

    def __init__(self, doc, width: float, height: float, content_top: float, content_bottom: float, dpi: float,
                 family: str | None):
        self.doc = doc
        self.width = width
        self.height = height
        self.content_top = content_top
        self.content_bottom = content_bottom
        self.dpi = dpi
        self.family = family

    @property
    def pages(self) -> int:
        return self.doc.pageCount()


def header_date(model: ReportModel) -> str:
    """The running header's date in the report's zone, as the body gives its time (Beijing time in Chinese,
    UTC in English): '2026-12-02' for a report made at 2026-12-01 23:08 UTC in Chinese."""
    with use_language(model.lang):
        return fmt_timestamp(model.generated_at)[:10]
