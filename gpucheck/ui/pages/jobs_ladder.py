"""The rows of the jobs page's table: each job's verdict badge, time and memory bar, the column headings,
and finding or selecting a job's row."""

from __future__ import annotations

from PySide6 import QtWidgets
from PySide6.QtCore import Qt

from gpucheck.advise.present import verdict_tooltip
from gpucheck.i18n import tr
from gpucheck.report.figures import need_caption, tight_text, time_text, time_tooltip
from gpucheck.report.measured import measured_verdict_label
from gpucheck.ui.pages.base import BasePage
from gpucheck.ui.widgets.badge import Badge
from gpucheck.ui.widgets.jobs_table import COL_JOB, COL_TIME, COL_VERDICT, COL_VRAM, JobsTable
from gpucheck.ui.widgets.vram_bar import VramBar


def _centered(w: QtWidgets.QWidget) -> QtWidgets.QWidget:
    box = QtWidgets.QWidget()
    box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    lay = QtWidgets.QHBoxLayout(box)
    lay.setContentsMargins(6, 2, 6, 2)
    lay.addWidget(w, 0, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    return box


class JobsLadder(BasePage):
    """The table's rows and headings: a base of JobsPage (gpucheck.ui.pages.jobs), whose `_build()` creates
    the table."""

    table: JobsTable

    def _set_headers(self) -> None:
        ram = self.session.machine is not None and self.session.on_cpu()
        memory = (tr("RAM: as configured → with the changes") if ram
                  else tr("VRAM: as configured → with the changes"))
        time = tr("Time (with the changes)")
        labels = [tr("Training job"), tr("Verdict"), time.replace(" (", "\n(", 1).replace("（", "\n（", 1), memory]
        self.table.setHorizontalHeaderLabels(labels)  # on two lines: the words are the report's, never clipped
        self.table.horizontalHeaderItem(COL_TIME).setToolTip(time)
        self.table.set_memory_heading(memory)

    def _set_row_heights(self) -> None:
        """One height for every row: two lines of text, or a badge and a bar, whichever is taller."""
        fm = self.table.fontMetrics()
        h = max(fm.lineSpacing() * 2 + 10, fm.height() * 2 + 8)
        self.table.verticalHeader().setDefaultSectionSize(h)
        for r in range(self.table.rowCount()):
            self.table.setRowHeight(r, h)

    def _fill_row(self, row: int, w) -> None:
        s = self.session
        item = QtWidgets.QTableWidgetItem(s.workload_title(w))
        item.setData(Qt.ItemDataRole.UserRole, w.id)
        desc = s.workload_description(w)
        item.setToolTip(tr("{title}\n{description}", title=s.workload_title(w), description=desc) if desc
                        else s.workload_title(w))  # the whole name, also when the column clips it
        self.table.setItem(row, COL_JOB, item)
        est, err = s.try_estimate(w.id)
        badge = Badge()
        badge.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        bar = VramBar()
        bar.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        fig = s.figures(w.id) if est is not None else None
        if fig is None:
            badge.set_verdict("not_supported")
            badge.setToolTip(err)
            time_item = QtWidgets.QTableWidgetItem("—")
            time_item.setToolTip(err)
            bar.set_figures(None)
        else:
            badge.set_verdict(fig.verdict, measured_verdict_label(fig.verdict, fig.measured))
            adv = s.try_advice(w.id)[0]
            tight = tight_text(adv, s.train_for(w.id)) if fig.measured is None else ""  # a trial settled it
            if tight:  # "may fit — try it; if it runs out of memory, …"
                badge.setToolTip(tight)
            elif adv is not None and fig.measured is None:  # the reason it does not run here, and the way out
                badge.setToolTip(verdict_tooltip(adv))
            time_item = QtWidgets.QTableWidgetItem(time_text(fig))
            time_item.setToolTip(time_tooltip(fig))  # the likely range and the software stack assumed
            bar.set_figures(fig)
            bar.setToolTip(need_caption(fig))
        badge.setObjectName(f"verdict_{w.id}")
        vitem = QtWidgets.QTableWidgetItem()
        vitem.setData(Qt.ItemDataRole.AccessibleTextRole, badge.text())
        vitem.setToolTip(badge.toolTip())
        self.table.setItem(row, COL_VERDICT, vitem)
        self.table.setCellWidget(row, COL_VERDICT, _centered(badge))
        self.table.setItem(row, COL_TIME, time_item)
        mitem = QtWidgets.QTableWidgetItem()
        mitem.setData(Qt.ItemDataRole.AccessibleTextRole, bar.caption())
        self.table.setItem(row, COL_VRAM, mitem)
        self.table.setCellWidget(row, COL_VRAM, bar)

    def row_of(self, workload_id: str) -> int | None:
        for r in range(self.table.rowCount()):
            it = self.table.item(r, COL_JOB)
            if it is not None and it.data(Qt.ItemDataRole.UserRole) == workload_id:
                return r
        return None

    def verdict_of(self, workload_id: str) -> str | None:
        r = self.row_of(workload_id)
        if r is None:
            return None
        badge = self.table.cellWidget(r, COL_VERDICT).findChild(Badge)
        return badge.key()

    def select(self, workload_id: str) -> None:
        r = self.row_of(workload_id)
        if r is not None:
            self.table.selectRow(r)
            item = self.table.item(r, COL_JOB)
            if item is not None:
                self.table.scrollToItem(item)

    def _mark_selected_bars(self) -> None:
        rows = {i.row() for i in self.table.selectionModel().selectedRows()}
        for r in range(self.table.rowCount()):
            bar = self.table.cellWidget(r, COL_VRAM)
            if isinstance(bar, VramBar):
                bar.set_selected(r in rows)
