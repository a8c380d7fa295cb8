"""Page 4 — Details & advice for the chosen job: memory breakdown vs your VRAM, time, the tweaks that
make it fit (copyable settings), optional changes that finish a running job sooner, the smaller model
that fits when this one does not, bottlenecks, upgrades and cloud options; a "what if I had…" GPU picker.
Everything shown comes from gpucheck.estimate / gpucheck.advise; this page only lays it out."""

from __future__ import annotations

from PySide6 import QtWidgets
from PySide6.QtCore import QPoint, Qt, QTimer

from gpucheck.errors import BadInput
from gpucheck.estimate.calibration import calibrated_text
from gpucheck.i18n import fmt_gib, fmt_list, fmt_money, fmt_number, tr
from gpucheck.report.figures import (
    data_set_text,
    disk_need_text,
    job_notes,
    memory_sentence,
    need_caption,
    range_sentence,
    tight_text,
    time_sentence,
    time_text,
    worth_speeding_up,
)
from gpucheck.report.measured import (
    measured_headline,
    measured_lines,
    measured_summary,
    measured_verdict_label,
    speed_value,
)
from gpucheck.report.option_points import option_points
from gpucheck.ui.pages.details_advice import AdviceSections
from gpucheck.ui.widgets.badge import Badge
from gpucheck.ui.widgets.memory_chart import MemoryChart
from gpucheck.ui.widgets.options_chart import OptionsChart
from gpucheck.ui.widgets.part_card import wrap_label
from gpucheck.ui.widgets.trial_panel import TrialPanel


class DetailsPage(AdviceSections):
    def _build(self) -> None:
        self._updating = False
        self.advice = None
        self.estimate = None
        self._build_head()
        self._build_what_if()
        self._build_figures()
        self._build_tweaks()
        self._build_alternative()
        self._build_cloud()
        self.notes = wrap_label(selectable=True)
        self.body.addWidget(self.notes)
        self.body.addStretch(1)

    def _build_head(self) -> None:
        """The job, on what, its verdict badge and the advice's one-sentence summary."""
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
        self.tight_line = wrap_label(selectable=True)
        self.tight_line.setObjectName("detailsTight")
        self.body.addWidget(self.tight_line)

    def _build_what_if(self) -> None:
        """"What if I had…": a catalog GPU and how many, and the side-by-side table with this PC."""
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

        # what if: side by side with the PC as scanned
        self.compare_box = QtWidgets.QGroupBox(self)
        self.compare_box.setObjectName("compareBox")
        self.compare_grid = QtWidgets.QGridLayout(self.compare_box)
        self.compare_grid.setColumnStretch(1, 1)
        self.compare_grid.setColumnStretch(2, 1)
        self.compare_cells: dict[tuple[int, int], QtWidgets.QWidget] = {}
        for r in range(4):
            for c in range(3):
                w = Badge(self) if (r == 1 and c > 0) else wrap_label(selectable=c > 0)
                self.compare_cells[(r, c)] = w
                if isinstance(w, Badge):
                    self.compare_grid.addWidget(w, r, c, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
                else:
                    self.compare_grid.addWidget(w, r, c)
        self.body.addWidget(self.compare_box)

    def _build_figures(self) -> None:
        """The options chart, the memory chart, the time, and the trial panel."""
        # the options, as one picture
        self.options_box = QtWidgets.QGroupBox(self)
        self.options_box.setObjectName("optionsBox")
        ol = QtWidgets.QVBoxLayout(self.options_box)
        self.options_chart = OptionsChart(self)
        self.options_chart.setObjectName("optionsChart")
        ol.addWidget(self.options_chart)
        self.body.addWidget(self.options_box)

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

        # "Try it for real": the job measured in the user's own PyTorch (gpucheck.trial)
        self.trial_panel = TrialPanel(self)
        self.trial_panel.measured.connect(self._on_trial_measured)
        self.body.addWidget(self.trial_panel)

    def retranslate(self) -> None:
        if not self.built:
            return
        self.setTitle(tr("Details and advice"))
        self.setSubTitle(tr("How much memory the job needs, how long it takes, and what to change, "
                            "buy or rent to make it work."))
        self.what_if_label.setText(tr("What if I had…"))
        self.what_if.setToolTip(tr("Pick a GPU from the catalog (type to search) to see this job on it."))
        self.mem_box.setTitle(tr("Video memory (VRAM)"))
        self.time_box.setTitle(tr("Time and other needs"))
        self.trial_panel.retranslate()
        self.tweak_box.setTitle(tr("Settings that make it work"))
        self.copy_snippet.setText(tr("Copy settings"))
        self.speed_box.setTitle(tr("Optional: finish sooner"))
        self.alt_box.setTitle(tr("What fits instead: another method or a smaller model"))
        self.copy_alt_snippet.setText(tr("Copy settings"))
        self.bottle_box.setTitle(tr("Bottlenecks and software"))
        self.upgrade_box.setTitle(tr("Upgrades"))
        self.cloud_box.setTitle(tr("Rent a cloud GPU"))
        self.cloud.setHorizontalHeaderLabels([tr("Provider and GPU"), tr("Kind"), tr("Price per GPU-hour"),
                                              tr("Time"), tr("Cost of this job"), tr("Good to know")])
        self.options_box.setTitle(tr("Your options for this job: time against money"))
        self.what_if_count.setToolTip(tr("How many of these GPUs") if self.session.what_if_id is not None
                                      else tr("Pick a GPU from the catalog first; this PC's own GPUs are counted "
                                              "as scanned."))
        if self.is_live():
            self._fill_what_if()
        self.refresh()

    def _fill_what_if(self) -> None:
        s = self.session
        self._updating = True
        self.what_if.clear()
        if s.machine is not None:
            self.what_if.addItem(tr("My PC: {name}", name=s.machine_target_name()), None)
        cheapest = self._cheapest_upgrade()
        for gpu in s.gpu_catalog():
            bits = [fmt_gib(gpu.vram_bytes, 0)]
            if gpu.price_usd is not None or gpu.price_cny is not None:
                bits.append(fmt_money(gpu.price_usd, gpu.price_cny))
            text = tr("{name} — {details}", name=gpu.name, details=" · ".join(bits))
            if cheapest is not None and gpu.id == cheapest.gpu_id:
                text = (tr("{text} — cheapest that runs this job", text=text) if cheapest.fit == "fits" else
                        tr("{text} — may run this job (tight)", text=text))
            self.what_if.addItem(text, gpu.id)
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

    def _cheapest_upgrade(self):
        """The cheapest GPU upgrade that runs the chosen job (the scanned PC's advice names it; its `gpu_id`
        is the catalog id, `fit` says whether it is tight)."""
        s = self.session
        if s.selected_id is None or s.machine is None:
            return None
        try:
            _est, adv = s.machine_evaluation(s.selected_id)
        except BadInput:
            return None
        ups = [u for u in (adv.upgrades if adv is not None else ()) if u.kind == "gpu"]
        return ups[0] if ups else None

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
        self.retranslate()
        self.wiz.jobs.refresh()

    # -- data -------------------------------------------------------------------------------------
    scroll_top_on_entry = True

    def initializePage(self) -> None:
        if not self.built:
            self.ensure_built()  # its retranslate() fills the picker and refreshes: not twice
        else:
            self._fill_what_if()  # the "cheapest that runs this job" mark follows the chosen job
            self.refresh()
        self.scroll_to_top()  # the title and the verdict first, whatever job was shown before

    def refresh(self) -> None:
        if not self.has_session_data() or self.session.selected_id is None:
            return
        s = self.session
        w = s.workload(s.selected_id)
        self.trial_panel.set_job(w, s.machine, s.train_for(w.id), s.data_for(w.id))
        self._trial_note(w)
        self.job_title.setText(tr("{job} — on {target}", job=s.workload_title(w), target=s.target_name()))
        est, err = s.try_estimate(w.id)
        self.estimate = est
        if est is None:
            self.badge.set_verdict("not_supported")
            self.summary.setText(err)
            self.advice = None
            for box in (self.mem_box, self.time_box, self.tweak_box, self.speed_box, self.alt_box,
                        self.bottle_box, self.upgrade_box, self.cloud_box, self.compare_box, self.options_box):
                box.setVisible(False)
            return
        adv, adv_err = s.try_advice(w.id)
        self.advice = adv
        fig = s.figures(w.id)
        measured = fig.measured if fig is not None else None  # a trial measured it here: "measured"
        verdict = fig.verdict if measured is not None else (adv.verdict if adv is not None else est.verdict)
        self.badge.set_verdict(verdict, measured_verdict_label(verdict, measured))
        # the headline: the measured whole run once a trial measured it, else the advice's summary
        self.summary.setText(measured_headline(measured, verdict) if measured is not None
                             else (adv.summary if adv is not None else adv_err))
        # "may fit — try it; if it runs out of memory, …", or what the trial measured
        self.tight_line.setText(tight_text(adv, est.train) if measured is None else measured_summary(measured))
        self.tight_line.setVisible(bool(self.tight_line.text()))
        self.badge.setToolTip(self.tight_line.text())
        self._show_memory(est, adv, fig)
        self._show_time(est, adv, fig)
        self._show_compare(fig)
        self.options_chart.set_points(option_points(est, adv, s.target_name(), fig, s.what_if_price()))
        self.options_box.setVisible(adv is not None)
        for box in (self.tweak_box, self.bottle_box, self.upgrade_box, self.cloud_box):
            box.setVisible(adv is not None)
        self.speed_box.setVisible(adv is not None and bool(worth_speeding_up(adv)))
        self.alt_box.setVisible(adv is not None and bool(adv.alternative is not None or adv.alternatives))
        if adv is not None:
            self._show_tweaks(adv, fig)
            self._show_speed_tweaks(adv)
            self._show_alternative(adv)
            self._show_bottlenecks(adv)
            self._show_upgrades(adv)
            self._show_cloud(adv)
        lines = job_notes(est, adv)  # the report's notes, the estimate's marked "as configured"
        self.notes.setText("\n".join(f"• {n}" for n in lines))
        self.notes.setVisible(bool(lines))

    def _trial_note(self, w) -> None:
        """A trial that measured something the page cannot use (a CPU-only PyTorch on a PC with a GPU) says so."""
        s, panel = self.session, self.trial_panel
        r = panel.last_result()
        panel.set_shown_above(s.what_if_id is None and s.measured(w.id) is not None)
        note = ""
        if r is not None and r.measured and s.what_if_id is None and s.measured(w.id) is None:
            note = tr("This trial ran on {device}, not on {target}: the page keeps the estimate for {target}. "
                      "A PyTorch that can use {target} would measure it.",
                      device=r.measured.get("device") or tr("unknown device"), target=s.machine_target_name())
        panel.set_note(note)

    def _on_trial_measured(self, result) -> None:
        """A trial measured the chosen job: the session keeps it, and every view uses the measured figures."""
        panel, s = self.trial_panel, self.session
        if panel.workload is None or panel.workload.id != result.workload or s.machine is not panel.machine:
            return
        s.set_trial(result.workload, result, panel.workload.train)

        # the page stays where the user is: the trial panel keeps its place in the window while the figures
        # above it change
        bar = self.scroll.verticalScrollBar()
        before = panel.mapTo(self.inner, QPoint(0, 0)).y() - bar.value()
        self.refresh()
        self.wiz.jobs.refresh()
        self.inner.layout().activate()

        def keep(*_args) -> None:  # now, and again while the wrapped texts above take their new heights
            bar.setValue(panel.mapTo(self.inner, QPoint(0, 0)).y() - before)
        keep()
        bar.rangeChanged.connect(keep)
        for ms in (0, 50, 150):
            QTimer.singleShot(ms, self, keep)  # with the page as context: never after it is gone
        QTimer.singleShot(400, self, lambda: bar.rangeChanged.disconnect(keep))

    def _show_memory(self, est, adv, fig) -> None:
        self.mem_box.setVisible(True)
        s = self.session
        what_if = s.what_if_id is not None
        if est.on_cpu:  # no GPU: the training memory lives in system RAM
            self.mem_box.setTitle(tr("Memory (RAM) — training on the CPU"))
            self.chart.set_breakdown(est.breakdown, est.ram_total_bytes, ram=True,
                                     other_bytes=est.ram_besides_training_bytes)
        else:
            self.mem_box.setTitle(tr("Video memory (VRAM), as configured"))
            label = tr("On {gpu}: {have}", gpu=s.target_name(), have=fmt_gib(est.vram_available_bytes)) \
                if what_if else ""
            self.chart.set_breakdown(est.breakdown, est.vram_available_bytes, have_label=label)
        text = memory_sentence(fig) if fig is not None else ""
        ram_decides = fig is not None and fig.memory == "ram" and not est.on_cpu
        if ram_decides:  # RAM decides; the chart is the VRAM (as configured, which says so)
            text += "\n" + tr("The chart shows the video memory as configured: {caption}.",
                               caption=tr("needs {need} of {have}", need=fmt_gib(est.peak_vram_bytes),
                                          have=fmt_gib(est.vram_available_bytes)))
        elif adv is not None and adv.tweaks and fig is not None and fig.changed:
            text += "\n" + tr("The chart shows the settings as configured; the changes are listed below.")
        self.mem_text.setText(text)

    def _show_time(self, est, adv, fig) -> None:
        self.time_box.setVisible(True)
        lines = [time_sentence(fig)] if fig is not None else []
        likely = range_sentence(fig) if fig is not None else ""
        if likely:
            lines.append(likely)  # the likely range and the software stack the time assumes
        if fig is not None:  # measured by a trial on this PC, beside the estimate (as the report says it)
            lines.extend(measured_lines(fig.measured))
        if fig is not None and fig.hours is not None:  # speeds only for settings that run
            speed = speed_value(est, fig.measured)  # measured, with the estimate beside it, after a trial
            if speed:
                lines.append(tr("Speed as configured: {speed}", speed=speed))
            if est.tokens_per_second is not None and fig.measured is None:
                lines.append(tr("Speed as configured: {n} tokens per second", n=fmt_number(est.tokens_per_second, 0)))
        w = self.session.effective_workload(self.session.selected_id)
        lines.append(tr("{data_set} Change it on the previous page.", data_set=data_set_text(w.data, w.train)))
        if fig is not None and fig.memory == "ram":  # RAM is the memory above: only the disk is left to say
            lines.append(tr("Also needs {disk}.", disk=disk_need_text(est)))
        else:
            lines.append(tr("Also needs {ram} of RAM and {disk}.", ram=fmt_gib(est.ram_bytes),
                            disk=disk_need_text(est)))
        if est.measured_inputs:
            lines.append(tr("Uses speeds measured by the deep scan."))
        if est.calibrated:  # the speeds measured on this PC (gpucheck calibrate, trials) are in this estimate
            lines.append(calibrated_text(est.calibrated))
        elif fig is not None and fig.measured is None:  # another job's trial measured this PC, not applied here
            lines.extend(self.session.trial_notes(except_id=self.session.selected_id))
        if est.assumptions:
            lines.append(tr("Assumed: {items}", items=fmt_list(est.assumptions, strong=True)))
        self.time_text.setText("\n".join(lines))

    def _show_compare(self, fig) -> None:
        """What if: the same job on the PC as scanned and on the what-if GPU, side by side."""
        s = self.session
        self.compare_box.setVisible(s.what_if_id is not None and fig is not None)
        if s.what_if_id is None or fig is None:
            return
        mine = s.machine_figures(s.selected_id)
        self.compare_box.setTitle(tr("Side by side: this PC and the what-if GPU"))
        cells = self.compare_cells
        cells[(0, 1)].setText(tr("This PC: {name}", name=s.machine_target_name()))
        cells[(0, 2)].setText(tr("What if: {name}", name=s.target_name()))
        cells[(1, 0)].setText(tr("Verdict"))
        cells[(2, 0)].setText(tr("Video memory"))
        cells[(3, 0)].setText(tr("Time"))
        for col, f in ((1, mine), (2, fig)):
            cells[(1, col)].set_verdict(f.verdict, measured_verdict_label(f.verdict, f.measured))
            cells[(2, col)].setText(need_caption(f))
            cells[(3, col)].setText(time_text(f))
