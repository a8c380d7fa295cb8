"""The jobs page's table (the ladder): its columns, a focus ring that shows where the keyboard is, and the
memory column's heading fitted to the column's width."""

from __future__ import annotations

from PySide6 import QtWidgets

COL_JOB, COL_VERDICT, COL_TIME, COL_VRAM = range(4)


class JobsTable(QtWidgets.QTableWidget):
    """The ladder. Tab leaves the table (it never walks through the cells); arrows move the selection."""

    def __init__(self, parent=None):
        super().__init__(0, 4, parent)
        self.setObjectName("jobsTable")
        self.setTabKeyNavigation(False)
        # where the keyboard is, seen at a glance (the default focus frame is faint, in dark themes too): a
        # highlight-coloured frame while the table has the focus, set on focus in and out (a ":focus" rule
        # alone was not repainted on every platform)
        self._ring(False)
        self.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setWordWrap(True)
        self.verticalHeader().setVisible(False)
        self.setVerticalScrollMode(QtWidgets.QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollMode(QtWidgets.QAbstractItemView.ScrollMode.ScrollPerPixel)
        hh = self.horizontalHeader()
        hh.setSectionResizeMode(COL_JOB, QtWidgets.QHeaderView.ResizeMode.Stretch)
        hh.setSectionResizeMode(COL_VERDICT, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(COL_TIME, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(COL_VRAM, QtWidgets.QHeaderView.ResizeMode.Interactive)
        hh.setMinimumSectionSize(60)
        hh.resizeSection(COL_VRAM, 290)

    FOCUS_RING = "QTableView { border: 2px solid palette(highlight); }"
    NO_RING = "QTableView { border: 2px solid palette(mid); }"

    def _ring(self, on: bool) -> None:
        self.setStyleSheet(self.FOCUS_RING if on else self.NO_RING)

    def focusInEvent(self, event) -> None:
        self._ring(True)
        super().focusInEvent(event)

    def focusOutEvent(self, event) -> None:
        self._ring(False)
        super().focusOutEvent(event)

    def has_focus_ring(self) -> bool:
        return self.styleSheet() == self.FOCUS_RING

    def resizeEvent(self, event) -> None:
        """The memory column takes about a third of the width, so the job names keep room to wrap into
        two whole lines in a small window."""
        super().resizeEvent(event)
        fm = self.fontMetrics()
        width = int(min(max(self.viewport().width() * 0.3, fm.horizontalAdvance("0" * 22)), fm.horizontalAdvance("0" * 44)))
        self.horizontalHeader().resizeSection(COL_VRAM, width)
        self.fit_memory_header()

    memory_heading = ""

    def set_memory_heading(self, text: str) -> None:
        self.memory_heading = text
        self.fit_memory_header()

    def fit_memory_header(self) -> None:
        """The memory column's heading on two lines ("VRAM:" / "as configured → with the changes"), or three
        when the column is narrower than that: whole words, never clipped."""
        item = self.horizontalHeaderItem(COL_VRAM)
        if item is None or not self.memory_heading:
            return
        sep = "：" if "：" in self.memory_heading else ": "
        head, found, rest = self.memory_heading.partition(sep)
        lines = [head + sep.strip(), rest.strip()] if found else [self.memory_heading]
        sep = found
        fm = self.horizontalHeader().fontMetrics()
        if sep and fm.horizontalAdvance(rest) + 16 > self.columnWidth(COL_VRAM) and "→" in rest:
            a, _, b = rest.partition("→")
            lines = [lines[0], a.strip(), "→ " + b.strip()]
        item.setText("\n".join(lines))
        item.setToolTip(self.memory_heading)
