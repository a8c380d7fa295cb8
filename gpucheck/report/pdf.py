"""The report as PDF: the report's HTML laid out by QTextDocument and printed with QPdfWriter.

The only module in gpucheck/ outside ui/ that uses Qt. No browser engine is needed.

- The text uses the bundled WenQuanYi Micro Hei font (resources/fonts/, Apache-2.0), so Chinese
  prints on a computer without CJK fonts; the PDF embeds a subset of it with a ToUnicode map, so the
  text stays selectable and searchable.
- Every page gets a header line (report title, date) and a footer ("Page N of M").
- A table row is never split across pages: a row that would cross the page end is moved to the next
  page whole (unless it is taller than most of a page), the rest of its table with it as a table of its
  own under a copy of the header, so no empty row outline is left at the foot of the page. A chart or
  code block is one table row, so it moves whole too, and a heading moves with what it heads.
  (Qt's own table layout does split rows between lines; `paginate` fixes that after layout.)
- The document is laid out once, directly for the PDF writer's resolution, then painted page by page
  with the header and footer drawn around it (`layout_report` + `render_pdf`).
"""

from __future__ import annotations

import os
import sys
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QFontMetricsF,
    QGuiApplication,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
    QPyTextObject,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextTable,
    QTextTableFormat,
)
from PySide6.QtWidgets import QApplication

from gpucheck.i18n import fmt_duration
from gpucheck.report.figures import status_text, status_verdict
from gpucheck.report.html import OPTIONS_PLACEHOLDER, render_html
from gpucheck.report.model import ReportModel
from gpucheck.report.option_points import OPTIONS_COLUMNS, hours_axis, time_fraction
from gpucheck.report.page_layout import (
    Layout,
    _cell_extent,
    _first_heading_of_run,
    _heading_before,
    _relayout,
    _starts_page_after,
    header_date,
    may_split,
)
from gpucheck.resources import resource_path
from gpucheck.verdict import verdict_colour

FONT_FILE = ("fonts", "wqy-microhei.ttc")
FONT_FAMILY = "WenQuanYi Micro Hei"
BASE_POINT_SIZE = 9.5
RESOLUTION_DPI = 1200

# Page geometry in millimetres.
MARGIN_LEFT_MM = 18.0
MARGIN_RIGHT_MM = 18.0
MARGIN_TOP_MM = 22.0  # the header sits inside this
MARGIN_BOTTOM_MM = 20.0  # the footer sits inside this

_app = None  # a QApplication made here for the command line; kept alive for the process


def _ensure_app():
    """Qt needs an application object for fonts; the desktop app has one, the command line does not."""
    global _app

    app = QGuiApplication.instance()
    if app is not None:
        return app
    if sys.platform.startswith("linux") and not os.environ.get("QT_QPA_PLATFORM"):
        # Rendering a PDF needs no window; this works without a display or X libraries.
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    # a QApplication (not just QGuiApplication), so the desktop app can still start in this process

    _app = QApplication(["gpucheck"])
    return _app


_font_loaded: str | None = None


def _load_font() -> str | None:
    """Register the bundled CJK font once; the family name, or None when the file is missing."""
    global _font_loaded
    if _font_loaded is not None:
        return _font_loaded or None

    path = resource_path(*FONT_FILE)
    families: list[str] = []
    if path.is_file():
        font_id = QFontDatabase.addApplicationFont(str(path))
        if font_id >= 0:
            families = list(QFontDatabase.applicationFontFamilies(font_id))
    _font_loaded = FONT_FAMILY if FONT_FAMILY in families else (families[0] if families else "")
    return _font_loaded or None


def _break_before(cursor) -> None:
    """Start this block on a new page (no top margin: a margin that spans a page end leaves a blank band
    at the top of the next page)."""
    fmt = QTextBlockFormat(cursor.blockFormat())
    fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
    fmt.setTopMargin(0)  # at the top of a page a heading needs no space above it
    cursor.setBlockFormat(fmt)


def _split_table_before(doc, table, row: int) -> None:
    """Move rows `row`.. of `table` into a new table right after it that starts on the next page, with the
    header rows repeated (two tables: the first ends with the row above, no empty row outline is left at
    the foot of the page, as a row pushed down inside one table would leave)."""
    cols = table.columns()
    header = table.format().headerRowCount()
    rows = [*range(header), *range(row, table.rows())]
    cells: list[tuple[Any, Any, Any] | None] = []  # (contents, cell format, column span) taken before the rows go;
    #                                               None: covered by a span
    for r in rows:
        for c in range(cols):
            cell = table.cellAt(r, c)
            if cell.column() != c:  # inside a cell spanning columns (a note under its row): taken once
                cells.append(None)
                continue
            cursor = cell.firstCursorPosition()
            cursor.setPosition(cell.lastCursorPosition().position(), QTextCursor.MoveMode.KeepAnchor)
            cells.append((cursor.selection(), cell.format(), cell.columnSpan()))
    fmt = QTextTableFormat(table.format())
    fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
    fmt.setTopMargin(0)  # at the top of a page: no space above it
    cursor = QTextCursor(doc)
    cursor.beginEditBlock()
    cursor.setPosition(table.lastPosition() + 1)
    new = cursor.insertTable(len(rows), cols, fmt)
    for i, taken in enumerate(cells):
        if taken is None:
            continue
        contents, cell_format, span = taken
        if span > 1:
            new.mergeCells(i // cols, i % cols, 1, span)
        cell = new.cellAt(i // cols, i % cols)
        cell.setFormat(cell_format)
        cell.firstCursorPosition().insertFragment(contents)
    table.removeRows(row, table.rows() - row)
    cursor.endEditBlock()


def _keep_rows_together(doc, page_height: float, content_top: float, content_bottom: float,
                        done: set) -> int:
    """Move every top-level table row that would cross a page end to the next page, whole.

    When it is the table's first row, the whole table (with its header) moves: its frame (or the headings
    right above it) starts the next page. A later row and the rows after it become a table of their own
    that starts the next page, below a copy of the header (`_split_table_before`). Rows taller than most
    of a page are left to split. `done` holds rows already moved. Returns the number of rows moved.
    """

    layout = doc.documentLayout()
    moved = 0
    tables = [f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable)]
    t_index = 0
    while t_index < len(tables):
        table = tables[t_index]
        first_body_row = table.format().headerRowCount()
        for r in range(first_body_row, table.rows()):
            if (t_index, r) in done:
                continue
            extents = [_cell_extent(layout, table.cellAt(r, c)) for c in range(table.columns())]
            top = min(e[0] for e in extents)
            bottom = max(e[1] for e in extents)
            page = int(top // page_height)
            end = page * page_height + content_bottom
            # the second row on another page than the first: the table would start with a lone row at the foot
            # of a page, so the whole table moves (one taller than a page too: it then splits further down)
            lone = r == first_body_row + 1 and table.rows() > r + 1 and _starts_page_after(
                layout, table, first_body_row, r, page_height, content_bottom)
            if not lone and (bottom <= end or top >= end or may_split(bottom - top, content_top, content_bottom)):
                continue
            whole = r == first_body_row or lone
            heading = _heading_before(doc, table) if whole else None
            if heading is not None:
                # the headings right above the table go first; the table follows them
                _break_before(QTextCursor(heading))
            elif whole:
                fmt = table.format()
                fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
                table.setFormat(fmt)
            else:
                _split_table_before(doc, table, r)
                # the tables after this one move up an index; the new one is looked at next
                moved_on = {(t + 1 if t > t_index else t, row) for t, row in done}
                done.clear()
                done.update(moved_on)
                done.add((t_index + 1, first_body_row))
                _relayout(doc, table.firstPosition())
                tables = [f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable)]
                moved += 1
                break
            done.add((t_index, r))
            _relayout(doc, heading.position() if heading is not None else table.firstPosition())
            moved += 1
        t_index += 1
    return moved


def _first_of_headings(doc, block):
    """The first of the headings directly above `block` and `block` itself, in the page's own flow; the later ones lose
    a page break of their own, so that they follow the first."""
    first = _first_heading_of_run(doc, block) or block
    b = first.next()
    while b.isValid() and b.position() <= block.position():
        fmt = QTextBlockFormat(b.blockFormat())
        if fmt.pageBreakPolicy() & QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore:
            fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_Auto)
            QTextCursor(b).setBlockFormat(fmt)
        b = b.next()
    return first


def _keep_headings_with_next(doc, page_height: float, content_bottom: float,
                             css_px_per_device_px: float) -> int:
    """A heading at the foot of a page, with what it heads on the next page, moves to that page."""

    layout = doc.documentLayout()
    root = doc.rootFrame()
    moved = 0
    block = doc.begin()
    while block.isValid():
        nxt = block.next()
        if (block.blockFormat().headingLevel() > 0 and nxt.isValid()
                and doc.frameAt(block.position()) == root):
            r = layout.blockBoundingRect(block)
            page = int(r.top() // page_height)
            following = nxt
            while following.isValid() and not following.text().strip() and following.next().isValid():
                following = following.next()  # skip empty blocks (rows moved down start with one)
            next_top = layout.blockBoundingRect(following).top()
            end = page * page_height + content_bottom
            lines = following.layout()
            first = lines.lineAt(0) if lines.lineCount() else None
            # Qt starts the next block on the next page when its first line does not fit above the page's end
            first_bottom = next_top + (first.y() + first.height() if first is not None else 0.0)
            already = bool(block.blockFormat().pageBreakPolicy() & QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
            if (int(next_top // page_height) > page or first_bottom > end) and not already:
                if end - r.top() > 0:
                    # the headings right above it (a section's h2 over its first h3) go with it, the first of them
                    # starting the page: a break before the h3 alone would leave the h2 by itself
                    first = _first_of_headings(doc, block)
                    _break_before(QTextCursor(first))
                    _relayout(doc, first.position())
                    moved += 1
        block = nxt
    return moved


def paginate(doc, page_height: float, content_top: float, content_bottom: float,
             css_px_per_device_px: float) -> int:
    """Keep table rows whole and headings with their text; returns how many things moved."""
    done: set = set()
    total = 0
    for _round in range(8):
        moved = _keep_rows_together(doc, page_height, content_top, content_bottom, done)
        moved += _keep_headings_with_next(doc, page_height, content_bottom, css_px_per_device_px)
        total += moved
        if not moved:
            break
    return total


# -- the options chart: drawn with QPainter, so it stays vector graphics in the PDF (and the app) -----------

OPTIONS_OBJECT = QTextFormat.ObjectTypes.UserObject + 1
OPTIONS_INDEX_PROPERTY = QTextFormat.Property.UserProperty + 1


def options_row_height(font: QFont, device=None) -> float:
    fm = QFontMetricsF(font, device) if device is not None else QFontMetricsF(font)
    return fm.height() * 1.7


def options_height(n_points: int, font: QFont, device=None) -> float:
    """The chart's height for `n_points` options, a heading row and the legend's row."""
    return options_row_height(font, device) * (n_points + 2) + 4


def paint_options(painter: QPainter, rect: QRectF, points, headings: tuple[str, str, str, str],
                  dark: bool = False, text_colour: QColor | None = None, grid_colour: QColor | None = None) -> None:
    """The options for one job as rows: what it is, a bar for its time (log scale), the time, the money.
    The bar's colour says fits / tight / does not fit (the verdict colours); an option that does not run
    has no bar and says so. Shared by the app (gpucheck.ui.widgets.options_chart) and the PDF."""
    font = painter.font()
    fm = QFontMetricsF(font, painter.device())
    row_h = options_row_height(font, painter.device())
    text_colour = text_colour or QColor("#1f1f1f")
    grid_colour = grid_colour or QColor("#b8c2d0")
    xs = [rect.left()]
    for frac in OPTIONS_COLUMNS:
        xs.append(xs[-1] + rect.width() * frac)
    pad = fm.averageCharWidth()
    axis = hours_axis(tuple(points))
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    bold = QFont(font)
    bold.setBold(True)
    painter.setFont(bold)
    painter.setPen(text_colour)
    for i, text in enumerate(headings):
        cell = QRectF(xs[i] + pad / 2, rect.top(), xs[i + 1] - xs[i] - pad, row_h)
        painter.drawText(cell, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         QFontMetricsF(bold, painter.device()).elidedText(text, Qt.TextElideMode.ElideRight,
                                                                          cell.width()))
    painter.setFont(font)
    for r, pt in enumerate(points):
        top = rect.top() + row_h * (r + 1)
        painter.setPen(QPen(grid_colour, max(1.0, fm.height() / 40)))
        painter.drawLine(int(rect.left()), int(top), int(rect.right()), int(top))
        colour = QColor(verdict_colour(status_verdict(pt.status), dark=dark))
        cells = [QRectF(xs[i] + pad / 2, top, xs[i + 1] - xs[i] - pad, row_h) for i in range(4)]
        painter.setPen(text_colour)
        _paint_label(painter, cells[0], pt.label, font)
        if pt.hours is not None:
            bar = QRectF(cells[1].left(), top + row_h * 0.25,
                         cells[1].width() * time_fraction(pt.hours, axis), row_h * 0.5)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colour)
            painter.drawRoundedRect(bar, bar.height() / 4, bar.height() / 4)
            time = fmt_duration(pt.hours)
        else:
            time = status_text(pt.status)
        painter.setPen(colour if pt.hours is None else text_colour)
        painter.drawText(cells[2], Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         fm.elidedText(time, Qt.TextElideMode.ElideRight, cells[2].width()))
        painter.setPen(text_colour)
        painter.drawText(cells[3], Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         fm.elidedText(pt.cost_text, Qt.TextElideMode.ElideRight, cells[3].width()))
    _paint_legend(painter, QRectF(rect.left() + pad / 2, rect.top() + row_h * (len(points) + 1),
                                  rect.width() - pad, row_h), fm, dark, text_colour)
    painter.restore()


def _paint_label(painter: QPainter, cell: QRectF, text: str, font: QFont) -> None:
    """An option's label, whole: on one line when it fits, else on two lines in a smaller font (two lines of
    0.85 fit the row's 1.7 line heights), so "Rent 8 × NVIDIA H100 on AWS EC2" is never cut to "Rent 8 × …"."""
    flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
    fm = QFontMetricsF(font, painter.device())
    if fm.horizontalAdvance(text) <= cell.width():
        painter.drawText(cell, flags, text)
        return
    small = QFont(font)
    small.setPointSizeF(font.pointSizeF() * 0.85)
    painter.save()
    painter.setFont(small)
    sm = QFontMetricsF(small, painter.device())
    wrapped = sm.boundingRect(QRectF(0, 0, cell.width(), 1e6), int(flags | Qt.TextFlag.TextWordWrap), text)
    if wrapped.height() > 2.05 * sm.height():  # more than two lines even so: the second line ends with "…"
        layout_text = _two_lines(text, sm, cell.width())
        painter.drawText(cell, flags, layout_text)
    else:
        painter.drawText(cell, int(flags | Qt.TextFlag.TextWordWrap), text)
    painter.restore()


def _two_lines(text: str, fm: QFontMetricsF, width: float) -> str:
    """The text as two lines that fit `width`: as much as fits on the first (broken at a space when there is
    one), the rest on the second, elided."""
    cut = len(text)
    while cut > 1 and fm.horizontalAdvance(text[:cut]) > width:
        cut -= 1
    space = text.rfind(" ", 0, cut)
    if space > cut // 2:
        cut = space
    return text[:cut].rstrip() + "\n" + fm.elidedText(text[cut:].strip(), Qt.TextElideMode.ElideRight, width)


def _paint_legend(painter: QPainter, rect: QRectF, fm: QFontMetricsF, dark: bool, text_colour: QColor) -> None:
    """What the bar colours mean: fits / tight / does not fit, in the verdict colours."""
    x = rect.left()
    box = fm.height() * 0.6
    for status in ("fits", "tight", "does_not_fit"):
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(verdict_colour(status_verdict(status), dark=dark)))
        painter.drawRect(QRectF(x, rect.center().y() - box / 2, box, box))
        x += box + fm.averageCharWidth()
        text = status_text(status)
        painter.setPen(text_colour)
        painter.drawText(QRectF(x, rect.top(), fm.horizontalAdvance(text) + 2, rect.height()),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
        x += fm.horizontalAdvance(text) + fm.averageCharWidth() * 3


class OptionsObject(QPyTextObject):
    """Draws a job's options chart where the report's HTML has its placeholder (vector in the PDF)."""

    def __init__(self, model: ReportModel, width: float, parent=None):
        super().__init__(parent)
        self.model = model
        self.width = width

    def _job(self, fmt):
        return self.model.jobs[int(fmt.property(OPTIONS_INDEX_PROPERTY))]

    def intrinsicSize(self, doc, _pos, fmt):  # noqa: N802 — Qt's name
        job = self._job(fmt)
        font = QFont(doc.defaultFont())
        font.setPointSizeF(font.pointSizeF() * 0.9)
        return QSizeF(self.width, options_height(len(job.options), font, doc.documentLayout().paintDevice()))

    def drawObject(self, painter, rect, doc, _pos, fmt):  # noqa: N802 — Qt's name
        job = self._job(fmt)
        font = QFont(doc.defaultFont())
        font.setPointSizeF(font.pointSizeF() * 0.9)
        painter.setFont(font)
        paint_options(painter, rect, job.options, job.options_headings)


def _insert_options(doc, model: ReportModel, width: float) -> None:
    """Replace each job's options placeholder by the painted chart object."""
    handler = OptionsObject(model, width, doc)
    doc.documentLayout().registerHandler(OPTIONS_OBJECT, handler)
    doc._options_handler = handler  # kept alive as long as the document
    for i, job in enumerate(model.jobs):
        if not job.options:
            continue
        cursor = doc.find(OPTIONS_PLACEHOLDER.format(i=i))
        if cursor.isNull():
            continue
        fmt = QTextCharFormat()
        fmt.setObjectType(OPTIONS_OBJECT)
        fmt.setProperty(OPTIONS_INDEX_PROPERTY, i)
        cursor.insertText("\ufffc", fmt)


def make_writer(model: ReportModel, device, paper: str | None = None):
    """A QPdfWriter on `device` (a file name or QIODevice) for the model's paper size, no page margins."""
    _ensure_app()

    paper = (paper or model.paper).lower()
    page_size = QPageSize(QPageSize.PageSizeId.Letter if paper == "letter" else QPageSize.PageSizeId.A4)
    writer = QPdfWriter(device)
    writer.setResolution(RESOLUTION_DPI)
    writer.setPageLayout(QPageLayout(page_size, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0),
                                     QPageLayout.Unit.Millimeter))
    writer.setTitle(f"{model.title} — {model.subtitle}")
    writer.setCreator(f"gpucheck {model.app_version}")
    writer.setAuthor("gpucheck")
    return writer


def layout_report(model: ReportModel, writer) -> Layout:
    """The report's HTML in a QTextDocument laid out for `writer`'s pages, rows and headings kept whole."""
    _ensure_app()

    family = _load_font()
    doc = QTextDocument()
    doc.setUndoRedoEnabled(False)
    option = doc.defaultTextOption()
    option.setWrapMode(option.WrapMode.WrapAtWordBoundaryOrAnywhere)  # a long path or URL wraps, never clips
    doc.setDefaultTextOption(option)
    font = QFont([family]) if family else QFont()
    font.setPointSizeF(BASE_POINT_SIZE)
    doc.setDefaultFont(font)
    doc.documentLayout().setPaintDevice(writer)
    doc.setHtml(render_html(model, for_qt=True, font_family=family))

    dpi = float(writer.resolution())
    device_mm = dpi / 25.4
    css_mm = 96.0 / 25.4  # QTextDocument lengths (margins, padding) are CSS pixels, scaled to the device
    root = doc.rootFrame()
    ff = root.frameFormat()
    ff.setTopMargin(MARGIN_TOP_MM * css_mm)
    ff.setBottomMargin(MARGIN_BOTTOM_MM * css_mm)
    ff.setLeftMargin(MARGIN_LEFT_MM * css_mm)
    ff.setRightMargin(MARGIN_RIGHT_MM * css_mm)
    root.setFrameFormat(ff)
    width, height = float(writer.width()), float(writer.height())
    doc.setPageSize(QSizeF(width, height))
    _insert_options(doc, model, (width - (MARGIN_LEFT_MM + MARGIN_RIGHT_MM + 4) * device_mm))
    content_bottom = height - MARGIN_BOTTOM_MM * device_mm
    content_top = MARGIN_TOP_MM * device_mm
    paginate(doc, height, content_top, content_bottom, 96.0 / dpi)
    return Layout(doc, width, height, content_top, content_bottom, dpi, family)


def render_pdf(model: ReportModel, paper: str | None = None) -> bytes:
    """The PDF file's bytes (written by the caller atomically)."""
    return _render_pdf(model, paper)


def _render_pdf(model: ReportModel, paper: str | None) -> bytes:
    _ensure_app()

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = make_writer(model, buffer, paper)
    lay = layout_report(model, writer)
    doc, width, height, family = lay.doc, lay.width, lay.height, lay.family
    device_mm = lay.dpi / 25.4
    pages = lay.pages

    small = QFont([family]) if family else QFont()
    small.setPointSizeF(7.5)
    text_width = width - (MARGIN_LEFT_MM + MARGIN_RIGHT_MM) * device_mm
    header_rect = QRectF(MARGIN_LEFT_MM * device_mm, 9 * device_mm, text_width, 7 * device_mm)
    footer_rect = QRectF(MARGIN_LEFT_MM * device_mm, height - 14 * device_mm, text_width, 7 * device_mm)
    metrics = QFontMetricsF(small, writer)
    date_text = header_date(model)
    header_text = metrics.elidedText(model.header_text, Qt.TextElideMode.ElideRight,
                                     text_width - metrics.horizontalAdvance(date_text) - 6 * device_mm)
    painter = QPainter(writer)
    try:
        for i in range(pages):
            if i:
                writer.newPage()
            painter.save()
            painter.translate(0, -i * height)
            doc.drawContents(painter, QRectF(0, i * height, width, height))
            painter.restore()
            painter.setFont(small)
            painter.setPen(QColor("#555555"))
            align_bottom = Qt.AlignmentFlag.AlignBottom
            painter.drawText(header_rect, Qt.AlignmentFlag.AlignLeft | align_bottom, header_text)
            painter.drawText(header_rect, Qt.AlignmentFlag.AlignRight | align_bottom, date_text)
            pen = QPen(QColor("#b8c2d0"))
            pen.setWidthF(0.25 * device_mm)
            painter.setPen(pen)
            line_y = header_rect.bottom() + 1.2 * device_mm
            painter.drawLine(int(header_rect.left()), int(line_y), int(header_rect.right()), int(line_y))
            painter.setPen(QColor("#555555"))
            align_top = Qt.AlignmentFlag.AlignTop
            painter.drawText(footer_rect, Qt.AlignmentFlag.AlignLeft | align_top, model.footer_text)
            painter.drawText(footer_rect, Qt.AlignmentFlag.AlignRight | align_top,
                             model.labels["page"].format(page=i + 1, pages=pages))
    finally:
        painter.end()
    buffer.close()
    return bytes(data.data())
