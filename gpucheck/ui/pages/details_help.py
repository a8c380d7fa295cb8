"""The lower half of the details page: bottlenecks and software fixes (with the PyTorch install command the
trial needs), upgrades, and the cloud table. The base class of DetailsPage (gpucheck.ui.pages.details), which calls
`_build_cloud()` once and `_show_bottlenecks/_show_upgrades/_show_cloud(advice)` on every refresh; this
module only lays out what gpucheck.advise returns."""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import Qt

from gpucheck.advise.present import cloud_cost_text, cloud_rate_text, upgrade_text
from gpucheck.i18n import fmt_duration, tr
from gpucheck.trial import pip_command
from gpucheck.ui.pages.base import BasePage
from gpucheck.ui.widgets.part_card import wrap_label


def _clear(layout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        w = item.widget()
        if w is not None:
            w.hide()
            w.setParent(None)
            w.deleteLater()
        elif item.layout() is not None:
            _clear(item.layout())


class HelpSections(BasePage):
    """Bottlenecks and software, upgrades, cloud GPUs: the base of DetailsPage."""

    def _build_cloud(self) -> None:
        """Bottlenecks and software fixes, upgrades, and the cloud table."""
        # bottlenecks and software fixes
        self.bottle_box = QtWidgets.QGroupBox(self)
        self.bottle_layout = QtWidgets.QVBoxLayout(self.bottle_box)
        self.body.addWidget(self.bottle_box)

        # upgrades
        self.upgrade_box = QtWidgets.QGroupBox(self)
        self.upgrade_layout = QtWidgets.QVBoxLayout(self.upgrade_box)
        self.body.addWidget(self.upgrade_box)

        # cloud
        self.cloud_box = QtWidgets.QGroupBox(self)
        cl = QtWidgets.QVBoxLayout(self.cloud_box)
        self.cloud = QtWidgets.QTableWidget(0, 6, self)
        self.cloud.setObjectName("cloudTable")
        self.cloud.setTabKeyNavigation(False)
        # as tall as its rows (they wrap when the window is narrow): no inner scroll bar, no empty band
        self.cloud.setSizeAdjustPolicy(QtWidgets.QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents)
        self.cloud.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.cloud.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Fixed)
        self.cloud.setStyleSheet("QTableView:focus { border: 2px solid palette(highlight); }")
        self.cloud.setWordWrap(True)
        self.cloud.verticalHeader().setVisible(False)
        self.cloud.setEditTriggers(QtWidgets.QTableWidget.EditTrigger.NoEditTriggers)
        self.cloud.verticalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        hh = self.cloud.horizontalHeader()
        hh.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.Stretch)
        hh.setSectionResizeMode(5, QtWidgets.QHeaderView.ResizeMode.Stretch)
        hh.sectionResized.connect(lambda *_a: self.cloud.resizeRowsToContents())  # wrapped rows stay whole
        cl.addWidget(self.cloud)
        self.cloud_empty = wrap_label()
        cl.addWidget(self.cloud_empty)
        self.buy_vs_rent = wrap_label(selectable=True)
        self.buy_vs_rent.setObjectName("buyVsRent")
        cl.addWidget(self.buy_vs_rent)
        self.body.addWidget(self.cloud_box)

    # -- texts ------------------------------------------------------------------------------------

    def _show_bottlenecks(self, adv) -> None:
        _clear(self.bottle_layout)
        items = list(adv.bottlenecks)
        if any(b.severity == "warning" for b in items):
            self.bottle_layout.addWidget(wrap_label(
                tr("These slow training on this PC's processor down: fix them first.") if self.session.on_cpu()
                else tr("These hold {target} back: a faster GPU would not finish sooner until they are fixed.",
                        target=self.session.target_name())))
        for b in items:
            lab = wrap_label(tr("{message} — {fix}", message=b.message, fix=b.fix) if b.fix else b.message,
                             selectable=True)
            lab.setObjectName(f"bottleneck_{b.id}")
            self.bottle_layout.addWidget(lab)
        for fx in adv.software:
            self.bottle_layout.addWidget(wrap_label(fx.message, selectable=True))
            if fx.command:
                self.bottle_layout.addWidget(self._copy_row(fx.command))
        torch = self._torch_install(adv)
        if torch:  # what "Try it for real" needs, before it is pressed
            self.bottle_layout.addWidget(wrap_label(tr("To try a job for real (\"Try it for real\" above), "
                                                       "install PyTorch in a Python on this PC:")))
            self.bottle_layout.addWidget(self._copy_row(torch, "torchInstall"))
        if not items and not adv.software and not torch:
            self.bottle_layout.addWidget(wrap_label(tr("None found.")))

    def _torch_install(self, adv) -> str:
        """The pip command for PyTorch when the scan found none and the advice does not already give one."""
        m = self.session.machine
        if m is None or any(fw.name == "torch" for fw in m.software.frameworks):
            return ""
        if any("torch" in (fx.command or "") for fx in adv.software):
            return ""
        return pip_command("torch", m)

    def _copy_row(self, text: str, name: str = "") -> QtWidgets.QWidget:
        box = QtWidgets.QWidget()
        lay = QtWidgets.QHBoxLayout(box)
        lay.setContentsMargins(16, 0, 0, 0)
        lab = QtWidgets.QLabel(text)
        if name:
            lab.setObjectName(name)
        lab.setFont(QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont))
        lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lab.setWordWrap(True)
        lay.addWidget(lab, 1)
        btn = QtWidgets.QPushButton(tr("Copy"))
        if name:
            btn.setObjectName(f"copy_{name}")
        btn.clicked.connect(lambda: QtWidgets.QApplication.clipboard().setText(text))
        lay.addWidget(btn)
        return box

    def _show_upgrades(self, adv) -> None:
        _clear(self.upgrade_layout)
        if not adv.upgrades:
            text = (tr("No upgrade needed for this job.") if adv.verdict == "runs"
                    else tr("No upgrade to suggest for this job."))
            self.upgrade_layout.addWidget(wrap_label(text))
        for u in adv.upgrades:
            # time with the part said once; an unverified price is one of the notes below
            lab = wrap_label(upgrade_text(u), selectable=True)
            lab.setObjectName(f"upgrade_{u.part_id}")
            self.upgrade_layout.addWidget(lab)
            for n in u.notes:
                note = wrap_label(f"  · {n}", selectable=True)
                note.setIndent(16)
                self.upgrade_layout.addWidget(note)

    def _show_cloud(self, adv) -> None:
        opts = list(adv.cloud)
        self.cloud.setRowCount(len(opts))
        kinds = {"free": tr("free"), "on_demand": tr("on demand"), "spot": tr("spot")}  # "can be stopped": once, in the notes
        for r, c in enumerate(opts):
            gpus = tr("{n} × {gpu}", n=c.gpus, gpu=c.gpu_name) if c.gpus > 1 else c.gpu_name
            first = QtWidgets.QTableWidgetItem(tr("{provider} — {gpus}", provider=c.provider, gpus=gpus))
            tip = [x for x in (c.note, c.url, tr("as of {date}", date=c.as_of) if c.as_of else "") if x]
            first.setToolTip("\n".join(tip))
            self.cloud.setItem(r, 0, first)
            self.cloud.setItem(r, 1, QtWidgets.QTableWidgetItem(kinds.get(c.kind, c.kind)))
            self.cloud.setItem(r, 2, QtWidgets.QTableWidgetItem(cloud_rate_text(c)))  # in the currency billed
            self.cloud.setItem(r, 3, QtWidgets.QTableWidgetItem(fmt_duration(c.total_hours)))
            self.cloud.setItem(r, 4, QtWidgets.QTableWidgetItem(cloud_cost_text(c)))
            note = QtWidgets.QTableWidgetItem(c.note or "—")  # quota, interruptions, sessions: visible, not a tooltip
            note.setToolTip(c.note)
            self.cloud.setItem(r, 5, note)
        self.cloud.resizeRowsToContents()
        self.cloud.updateGeometry()
        self.cloud.setVisible(bool(opts))
        self.cloud_empty.setVisible(not opts)
        self.cloud_empty.setText(tr("Not needed: the job runs here.") if adv.verdict == "runs"
                                 else tr("No cloud offer in the catalog fits this job."))
        bvr = adv.buy_vs_rent
        self.buy_vs_rent.setText(bvr.message if bvr is not None else "")
        self.buy_vs_rent.setVisible(bvr is not None)
