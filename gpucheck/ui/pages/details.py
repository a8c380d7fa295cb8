"""Page 4 — Details & advice for the chosen job: memory breakdown vs your VRAM, time, the tweaks that
make it fit (copyable settings), optional changes that finish a running job sooner, the smaller model
that fits when this one does not, bottlenecks, upgrades and cloud options; a "what if I had…" GPU picker.
Everything shown comes from gpucheck.estimate / gpucheck.advise; this page only lays it out."""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import Qt

from gpucheck.advise.present import alternative_text, settings_text, upgrade_text
from gpucheck.i18n import fmt_duration, fmt_gib, fmt_list, fmt_money, fmt_number, tr
from gpucheck.ui.pages.base import BasePage
from gpucheck.ui.widgets.badge import Badge
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


class DetailsPage(BasePage):
    def _build(self) -> None:
        from gpucheck.ui.widgets.memory_chart import MemoryChart

        self._updating = False
        self.advice = None
        self.estimate = None

        head = QtWidgets.QHBoxLayout()
        self.job_title = QtWidgets.QLabel(self)
        self.job_title.setObjectName("detailsJob")
        self.job_title.setWordWrap(True)
        f = self.job_title.font()
        f.setBold(True)
        f.setPointSizeF(f.pointSizeF() * 1.25)
        self.job_title.setFont(f)
        head.addWidget(self.job_title, 1)
        self.badge = Badge(self)
        self.badge.setObjectName("detailsVerdict")
        head.addWidget(self.badge, 0, Qt.AlignmentFlag.AlignVCenter)
        self.body.addLayout(head)
        self.summary = wrap_label(selectable=True)
        self.summary.setObjectName("detailsSummary")
        self.body.addWidget(self.summary)

        row = QtWidgets.QHBoxLayout()
        self.what_if_label = QtWidgets.QLabel(self)
        row.addWidget(self.what_if_label)
        self.what_if = QtWidgets.QComboBox(self)
        self.what_if.setObjectName("whatIfGpu")
        self.what_if.setEditable(True)
        self.what_if.setInsertPolicy(QtWidgets.QComboBox.InsertPolicy.NoInsert)
        self.what_if.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.what_if.setMinimumContentsLength(28)
        self.what_if.activated.connect(self._on_what_if)
        self.what_if_label.setBuddy(self.what_if)
        row.addWidget(self.what_if, 1)
        self.what_if_count = QtWidgets.QSpinBox(self)
        self.what_if_count.setObjectName("whatIfCount")
        self.what_if_count.setRange(1, 8)
        self.what_if_count.setPrefix("× ")
        self.what_if_count.valueChanged.connect(self._on_what_if_count)
        row.addWidget(self.what_if_count)
        self.body.addLayout(row)

        # memory
        self.mem_box = QtWidgets.QGroupBox(self)
        mem = QtWidgets.QVBoxLayout(self.mem_box)
        self.chart = MemoryChart(self)
        self.chart.setObjectName("memoryChart")
        mem.addWidget(self.chart)
        self.mem_text = wrap_label(selectable=True)
        mem.addWidget(self.mem_text)
        self.body.addWidget(self.mem_box)

        # time and other needs
        self.time_box = QtWidgets.QGroupBox(self)
        tl = QtWidgets.QVBoxLayout(self.time_box)
        self.time_text = wrap_label(selectable=True)
        self.time_text.setObjectName("detailsTime")
        tl.addWidget(self.time_text)
        self.body.addWidget(self.time_box)

        # tweaks
        self.tweak_box = QtWidgets.QGroupBox(self)
        self.tweak_layout = QtWidgets.QVBoxLayout(self.tweak_box)
        self.tweak_list = QtWidgets.QVBoxLayout()
        self.tweak_layout.addLayout(self.tweak_list)
        self.snippet = QtWidgets.QPlainTextEdit(self)
        self.snippet.setObjectName("snippet")
        self.snippet.setReadOnly(True)
        self.snippet.setFont(QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont))
        self.snippet.setMaximumHeight(self.fontMetrics().height() * 9)
        self.tweak_layout.addWidget(self.snippet)
        self.copy_snippet = QtWidgets.QPushButton(self)
        self.copy_snippet.setObjectName("copySnippet")
        self.copy_snippet.clicked.connect(self._copy_snippet)
        self.tweak_layout.addWidget(self.copy_snippet, 0, Qt.AlignmentFlag.AlignLeft)
        self.body.addWidget(self.tweak_box)

        # optional: finish a job that runs sooner (each change on its own)
        self.speed_box = QtWidgets.QGroupBox(self)
        self.speed_box.setObjectName("speedTweaks")
        self.speed_layout = QtWidgets.QVBoxLayout(self.speed_box)
        self.body.addWidget(self.speed_box)

        # a smaller model that fits, when this job does not
        self.alt_box = QtWidgets.QGroupBox(self)
        self.alt_box.setObjectName("alternative")
        alt = QtWidgets.QVBoxLayout(self.alt_box)
        self.alt_summary = wrap_label(selectable=True)
        self.alt_summary.setObjectName("alternativeSummary")
        f = self.alt_summary.font()
        f.setBold(True)
        self.alt_summary.setFont(f)
        alt.addWidget(self.alt_summary)
        self.alt_list = QtWidgets.QVBoxLayout()
        alt.addLayout(self.alt_list)
        self.alt_snippet = QtWidgets.QPlainTextEdit(self)
        self.alt_snippet.setObjectName("alternativeSnippet")
        self.alt_snippet.setReadOnly(True)
        self.alt_snippet.setFont(QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont))
        self.alt_snippet.setMaximumHeight(self.fontMetrics().height() * 9)
        alt.addWidget(self.alt_snippet)
        self.copy_alt_snippet = QtWidgets.QPushButton(self)
        self.copy_alt_snippet.setObjectName("copyAlternativeSnippet")
        self.copy_alt_snippet.clicked.connect(self._copy_alt_snippet)
        alt.addWidget(self.copy_alt_snippet, 0, Qt.AlignmentFlag.AlignLeft)
        self.body.addWidget(self.alt_box)

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
        self.cloud = QtWidgets.QTableWidget(0, 5, self)
        self.cloud.setObjectName("cloudTable")
        self.cloud.verticalHeader().setVisible(False)
        self.cloud.setEditTriggers(QtWidgets.QTableWidget.EditTrigger.NoEditTriggers)
        self.cloud.setWordWrap(False)
        self.cloud.verticalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        hh = self.cloud.horizontalHeader()
        hh.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.Stretch)
        cl.addWidget(self.cloud)
        self.cloud_empty = wrap_label()
        cl.addWidget(self.cloud_empty)
        self.buy_vs_rent = wrap_label(selectable=True)
        self.buy_vs_rent.setObjectName("buyVsRent")
        cl.addWidget(self.buy_vs_rent)
        self.body.addWidget(self.cloud_box)

        self.notes = wrap_label(selectable=True)
        self.body.addWidget(self.notes)
        self.body.addStretch(1)

    # -- texts ------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        if not self.built:
            return
        self.setTitle(tr("Details and advice"))
        self.setSubTitle(tr("How much memory the job needs, how long it takes, and what to change, "
                            "buy or rent to make it work."))
        self.what_if_label.setText(tr("What if I had…"))
        self.what_if.setToolTip(tr("Pick a GPU from the catalog (type to search) to see this job on it."))
        self.what_if_count.setToolTip(tr("How many of these GPUs"))
        self.mem_box.setTitle(tr("Video memory (VRAM)"))
        self.time_box.setTitle(tr("Time and other needs"))
        self.tweak_box.setTitle(tr("Settings that make it work"))
        self.copy_snippet.setText(tr("Copy settings"))
        self.speed_box.setTitle(tr("Optional: finish sooner"))
        self.alt_box.setTitle(tr("What fits instead: a smaller model"))
        self.copy_alt_snippet.setText(tr("Copy settings"))
        self.bottle_box.setTitle(tr("Bottlenecks and software"))
        self.upgrade_box.setTitle(tr("Upgrades"))
        self.cloud_box.setTitle(tr("Rent a cloud GPU"))
        self.cloud.setHorizontalHeaderLabels([tr("Provider and GPU"), tr("Kind"), tr("Price per GPU-hour"),
                                              tr("Time"), tr("Cost of this job")])
        if self.is_live():
            self._fill_what_if()
        self.refresh()

    def _fill_what_if(self) -> None:
        s = self.session
        self._updating = True
        self.what_if.clear()
        if s.machine is not None:
            self.what_if.addItem(tr("My PC: {name}", name=s.machine_target_name()), None)
        for gpu in s.gpu_catalog():
            self.what_if.addItem(gpu.name, gpu.id)
        comp = QtWidgets.QCompleter(self.what_if.model(), self.what_if)
        comp.setFilterMode(Qt.MatchFlag.MatchContains)
        comp.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        comp.setCompletionMode(QtWidgets.QCompleter.CompletionMode.PopupCompletion)
        self.what_if.setCompleter(comp)
        idx = self.what_if.findData(s.what_if_id) if s.what_if_id else 0
        self.what_if.setCurrentIndex(max(0, idx))
        self.what_if_count.setValue(s.what_if_gpus)
        self.what_if_count.setEnabled(s.what_if_id is not None)
        self._updating = False

    def _on_what_if(self, index: int) -> None:
        if self._updating:
            return
        self.set_what_if(self.what_if.itemData(index))

    def _on_what_if_count(self, n: int) -> None:
        if self._updating or self.session.what_if_id is None:
            return
        self.set_what_if(self.session.what_if_id, n)

    def set_what_if(self, gpu_id: str | None, gpus: int | None = None) -> None:
        """Recompute everything for `gpus` × a catalog GPU (None = back to this PC)."""
        self.session.set_what_if(gpu_id, gpus)
        idx = self.what_if.findData(gpu_id) if gpu_id else 0
        self._updating = True
        self.what_if.setCurrentIndex(max(0, idx))
        self.what_if_count.setValue(self.session.what_if_gpus)
        self.what_if_count.setEnabled(gpu_id is not None)
        self._updating = False
        self.refresh()
        self.wiz.jobs.refresh()

    # -- data -------------------------------------------------------------------------------------
    def initializePage(self) -> None:
        self.ensure_built()
        if self.what_if.count() <= 1:
            self._fill_what_if()
        self.refresh()

    def refresh(self) -> None:
        if not self.has_session_data() or self.session.selected_id is None:
            return
        s = self.session
        w = s.workload(s.selected_id)
        self.job_title.setText(tr("{job} — on {target}", job=s.workload_title(w), target=s.target_name()))
        est, err = s.try_estimate(w.id)
        self.estimate = est
        if est is None:
            self.badge.set_verdict("not_supported")
            self.summary.setText(err)
            self.advice = None
            for box in (self.mem_box, self.time_box, self.tweak_box, self.speed_box, self.alt_box,
                        self.bottle_box, self.upgrade_box, self.cloud_box):
                box.setVisible(False)
            return
        adv, adv_err = s.try_advice(w.id)
        self.advice = adv
        verdict = adv.verdict if adv is not None else est.verdict
        self.badge.set_verdict(verdict)
        self.summary.setText(adv.summary if adv is not None else adv_err)
        self._show_memory(est, adv)
        self._show_time(est, adv)
        for box in (self.tweak_box, self.bottle_box, self.upgrade_box, self.cloud_box):
            box.setVisible(adv is not None)
        self.speed_box.setVisible(adv is not None and bool(adv.speed_tweaks))
        self.alt_box.setVisible(adv is not None and adv.alternative is not None)
        if adv is not None:
            self._show_tweaks(adv)
            self._show_speed_tweaks(adv)
            self._show_alternative(adv)
            self._show_bottlenecks(adv)
            self._show_upgrades(adv)
            self._show_cloud(adv)
        lines = list(est.notes) + (list(adv.notes) if adv is not None else [])
        self.notes.setText("\n".join(f"• {n}" for n in lines))
        self.notes.setVisible(bool(lines))

    def _show_memory(self, est, adv) -> None:
        self.mem_box.setVisible(True)
        need, have, ram = self.session.memory_need_have(est)
        if ram:  # no GPU: the training memory lives in system RAM
            self.mem_box.setTitle(tr("Memory (RAM) — training on the CPU"))
            self.chart.set_breakdown(est.breakdown, have, ram=True,
                                     other_bytes=est.extra.get("ram_besides_training_bytes", 0))
            self.mem_text.setText(tr("This job needs about {need} of RAM with these settings; this PC has {have}.",
                                     need=fmt_gib(need), have=fmt_gib(have)))
            return
        self.mem_box.setTitle(tr("Video memory (VRAM)"))
        self.chart.set_breakdown(est.breakdown, est.vram_available_bytes)
        text = tr("This job needs {need} of video memory per GPU with these settings; you have {have}.",
                  need=fmt_gib(est.peak_vram_bytes), have=fmt_gib(est.vram_available_bytes))
        if (adv is not None and adv.tweaks and adv.final_peak_vram_bytes is not None
                and adv.verdict != "does_not_fit"):  # else the line below says what the smallest needs
            text += "\n" + tr("With the settings below it needs {need}.", need=fmt_gib(adv.final_peak_vram_bytes))
        if adv is not None and adv.needs_vram_bytes is not None and adv.verdict == "does_not_fit":
            text += "\n" + tr("Even with every tweak it needs at least {need} per GPU.",
                              need=fmt_gib(adv.needs_vram_bytes))
        self.mem_text.setText(text)

    def _show_time(self, est, adv) -> None:
        self.time_box.setVisible(True)
        lines = [tr("Training time: {time}", time=fmt_duration(est.total_hours))]
        if adv is not None and adv.tweaks and adv.final_total_hours is not None and adv.verdict != "does_not_fit":
            lines.append(tr("With the suggested settings: {time}", time=fmt_duration(adv.final_total_hours)))
        if est.samples_per_second is not None:
            sps = est.samples_per_second
            lines.append(tr("Speed: {n} samples per second", n=fmt_number(sps, 2 if sps < 1 else 1)))
        if est.tokens_per_second is not None:
            lines.append(tr("Speed: {n} tokens per second", n=fmt_number(est.tokens_per_second, 0)))
        lines.append(tr("Also needs {ram} of RAM and {disk} of disk space.", ram=fmt_gib(est.ram_bytes),
                        disk=fmt_gib(est.disk_bytes)))
        if est.measured_inputs:
            lines.append(tr("Uses speeds measured by the deep scan."))
        if est.assumptions:
            lines.append(tr("Assumed: {items}", items=fmt_list(est.assumptions, strong=True)))
        self.time_text.setText("\n".join(lines))

    def _show_tweaks(self, adv) -> None:
        _clear(self.tweak_list)
        self.tweak_box.setTitle(tr("Settings tried: not enough on this GPU") if adv.verdict == "does_not_fit"
                                and adv.tweaks else tr("Settings that make it work"))
        if not adv.tweaks and adv.verdict == "runs":
            self.tweak_list.addWidget(wrap_label(tr("Nothing to change: it runs with the job's own settings.")))
        elif not adv.tweaks:
            self.tweak_list.addWidget(wrap_label(tr("No change of settings is enough here; see the upgrades "
                                                    "and cloud GPUs below.")))
        for i, t in enumerate(adv.tweaks, 1):
            line = tr("{n}. {title} — cost: {cost}", n=i, title=t.title, cost=t.cost)
            after = []
            if t.peak_vram_bytes is not None:
                after.append(tr("needs {need}", need=fmt_gib(t.peak_vram_bytes)))
            if t.total_hours is not None:
                after.append(tr("takes {time}", time=fmt_duration(t.total_hours)))
            if after:
                line = tr("{line} (then {after})", line=line, after=fmt_list(after))
            lab = wrap_label(line, selectable=True)
            lab.setObjectName(f"tweak_{t.id}")
            self.tweak_list.addWidget(lab)
        self.snippet.setPlainText(adv.snippet or "")
        self.snippet.setVisible(bool(adv.snippet))
        self.copy_snippet.setVisible(bool(adv.snippet))

    def _copy_snippet(self) -> None:
        QtWidgets.QApplication.clipboard().setText(self.snippet.toPlainText())
        self.copy_snippet.setText(tr("Copied"))

    def _show_speed_tweaks(self, adv) -> None:
        """Changes that only make a job that runs finish sooner: each on its own, with its time and trade-off."""
        _clear(self.speed_layout)
        if not adv.speed_tweaks:
            return
        self.speed_layout.addWidget(wrap_label(tr("It runs as it is, but its steps are too small to keep the GPU "
                                                  "busy. Each of these changes, on its own, finishes it sooner.")))
        for t in adv.speed_tweaks:
            self.speed_layout.addSpacing(6)
            after = []
            if t.total_hours is not None:
                after.append(tr("takes {time}", time=fmt_duration(t.total_hours)))
            if t.peak_vram_bytes is not None:
                after.append(tr("needs {need}", need=fmt_gib(t.peak_vram_bytes)))
            head = tr("{title} (then {after})", title=t.title, after=fmt_list(after)) if after else t.title
            lab = wrap_label(head, selectable=True)
            lab.setObjectName(f"speed_{t.id}")
            f = lab.font()
            f.setBold(True)
            lab.setFont(f)
            self.speed_layout.addWidget(lab)
            cost = wrap_label(tr("Trade-off: {cost}", cost=t.cost), selectable=True)
            cost.setIndent(16)
            self.speed_layout.addWidget(cost)
            if t.settings:
                self.speed_layout.addWidget(self._copy_row(settings_text(t.settings), f"speed_settings_{t.id}"))

    def _show_alternative(self, adv) -> None:
        """The smaller model that fits when this job does not, with the changes and settings it needs."""
        _clear(self.alt_list)
        alt = adv.alternative
        if alt is None:
            return
        self.alt_summary.setText(alternative_text(alt))
        for i, t in enumerate(alt.tweaks, 1):
            lab = wrap_label(tr("{n}. {title} — cost: {cost}", n=i, title=t.title, cost=t.cost), selectable=True)
            lab.setObjectName(f"alternative_{t.id}")
            self.alt_list.addWidget(lab)
        self.alt_snippet.setPlainText(alt.snippet or "")
        self.alt_snippet.setVisible(bool(alt.snippet))
        self.copy_alt_snippet.setVisible(bool(alt.snippet))
        self.copy_alt_snippet.setText(tr("Copy settings"))

    def _copy_alt_snippet(self) -> None:
        QtWidgets.QApplication.clipboard().setText(self.alt_snippet.toPlainText())
        self.copy_alt_snippet.setText(tr("Copied"))

    def _show_bottlenecks(self, adv) -> None:
        _clear(self.bottle_layout)
        items = list(adv.bottlenecks)
        for b in items:
            lab = wrap_label(tr("{message} — {fix}", message=b.message, fix=b.fix) if b.fix else b.message,
                             selectable=True)
            lab.setObjectName(f"bottleneck_{b.id}")
            self.bottle_layout.addWidget(lab)
        for fx in adv.software:
            self.bottle_layout.addWidget(wrap_label(fx.message, selectable=True))
            if fx.command:
                self.bottle_layout.addWidget(self._copy_row(fx.command))
        if not items and not adv.software:
            self.bottle_layout.addWidget(wrap_label(tr("None found.")))

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
        kinds = {"free": tr("free"), "on_demand": tr("on demand"), "spot": tr("spot (can be stopped)")}
        for r, c in enumerate(opts):
            gpus = tr("{n} × {gpu}", n=c.gpus, gpu=c.gpu_name) if c.gpus > 1 else c.gpu_name
            first = QtWidgets.QTableWidgetItem(tr("{provider} — {gpus}", provider=c.provider, gpus=gpus))
            tip = [x for x in (c.note, c.url, tr("as of {date}", date=c.as_of) if c.as_of else "") if x]
            first.setToolTip("\n".join(tip))
            self.cloud.setItem(r, 0, first)
            self.cloud.setItem(r, 1, QtWidgets.QTableWidgetItem(kinds.get(c.kind, c.kind)))
            self.cloud.setItem(r, 2, QtWidgets.QTableWidgetItem(fmt_money(c.price_usd_per_gpu_hour,
                                                                c.price_cny_per_gpu_hour)))
            self.cloud.setItem(r, 3, QtWidgets.QTableWidgetItem(fmt_duration(c.total_hours)))
            self.cloud.setItem(r, 4, QtWidgets.QTableWidgetItem(fmt_money(c.cost_usd, c.cost_cny)))
        h = self.cloud.horizontalHeader().height() + sum(self.cloud.rowHeight(r) for r in range(len(opts))) + 4
        self.cloud.setFixedHeight(max(h, self.cloud.horizontalHeader().height() + 8))
        self.cloud.setVisible(bool(opts))
        self.cloud_empty.setVisible(not opts)
        self.cloud_empty.setText(tr("Not needed: the job runs here.") if adv.verdict == "runs"
                                 else tr("No cloud offer in the catalog fits this job."))
        bvr = adv.buy_vs_rent
        self.buy_vs_rent.setText(bvr.message if bvr is not None else "")
        self.buy_vs_rent.setVisible(bvr is not None)
