"""Page 3 — What do you want to train? The whole ladder with a verdict, time and VRAM bar per job;
import a custom job; edit the chosen job's batch, sequence length / image size, precision, method."""

from __future__ import annotations

import dataclasses

from PySide6 import QtWidgets
from PySide6.QtCore import Qt

from gpucheck.i18n import N_, fmt_duration, tr
from gpucheck.ui.pages.base import BasePage
from gpucheck.ui.widgets.badge import Badge
from gpucheck.ui.widgets.part_card import wrap_label

METHODS = (("full", N_("Full training")), ("lora", N_("LoRA (small add-on weights)")),
           ("qlora", N_("QLoRA (4-bit model + LoRA)")))
PRECISIONS = (("bf16", N_("BF16 mixed precision")), ("fp16", N_("FP16 mixed precision")),
              ("fp32", N_("FP32 (full precision)")))
COL_JOB, COL_VERDICT, COL_TIME, COL_VRAM = range(4)


def _centered(w: QtWidgets.QWidget) -> QtWidgets.QWidget:
    box = QtWidgets.QWidget()
    lay = QtWidgets.QHBoxLayout(box)
    lay.setContentsMargins(6, 2, 6, 2)
    lay.addWidget(w, 0, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    return box


class JobsPage(BasePage):
    def _build(self) -> None:
        self._updating = False
        self.target_line = wrap_label(selectable=True)
        self.target_line.setObjectName("jobsTarget")
        self.body.addWidget(self.target_line)

        self.table = QtWidgets.QTableWidget(0, 4, self)
        self.table.setObjectName("jobsTable")
        self.table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        self.table.verticalHeader().setVisible(False)
        self.table.setVerticalScrollMode(QtWidgets.QAbstractItemView.ScrollMode.ScrollPerPixel)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(COL_JOB, QtWidgets.QHeaderView.ResizeMode.Stretch)
        hh.setSectionResizeMode(COL_VERDICT, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(COL_TIME, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(COL_VRAM, QtWidgets.QHeaderView.ResizeMode.Interactive)
        hh.resizeSection(COL_VRAM, 300)
        self.table.setMinimumHeight(self.fontMetrics().height() * 22)
        self.table.itemSelectionChanged.connect(self._on_selection)
        self.table.cellDoubleClicked.connect(lambda *_: self.wiz.next())
        self.body.addWidget(self.table, 1)

        row = QtWidgets.QHBoxLayout()
        self.import_button = QtWidgets.QPushButton(self)
        self.import_button.setObjectName("importJob")
        self.import_button.clicked.connect(self.choose_import)
        row.addWidget(self.import_button)
        self.import_hint = wrap_label()
        row.addWidget(self.import_hint, 1)
        self.body.addLayout(row)

        self.settings_box = QtWidgets.QGroupBox(self)
        form = QtWidgets.QGridLayout(self.settings_box)
        form.setColumnStretch(1, 1)
        form.setColumnStretch(3, 1)
        form.setHorizontalSpacing(10)
        self.method = QtWidgets.QComboBox(self)
        self.method.setObjectName("method")
        self.precision = QtWidgets.QComboBox(self)
        self.precision.setObjectName("precision")
        self.batch = QtWidgets.QSpinBox(self)
        self.batch.setObjectName("batch")
        self.batch.setRange(1, 65536)
        self.seq_len = QtWidgets.QSpinBox(self)
        self.seq_len.setObjectName("seqLen")
        self.seq_len.setRange(16, 1_048_576)
        self.seq_len.setSingleStep(256)
        self.image_size = QtWidgets.QSpinBox(self)
        self.image_size.setObjectName("imageSize")
        self.image_size.setRange(8, 8192)
        self.image_size.setSingleStep(32)
        self.checkpointing = QtWidgets.QCheckBox(self)
        self.checkpointing.setObjectName("gradCheckpointing")
        self.reset_button = QtWidgets.QPushButton(self)
        self.reset_button.setObjectName("resetSettings")
        self.reset_button.clicked.connect(self.reset_settings)
        self.form = form
        self.lbl_method, self.lbl_precision = QtWidgets.QLabel(), QtWidgets.QLabel()
        self.lbl_batch, self.lbl_seq, self.lbl_img = QtWidgets.QLabel(), QtWidgets.QLabel(), QtWidgets.QLabel()
        for lab, buddy in ((self.lbl_method, self.method), (self.lbl_precision, self.precision),
                           (self.lbl_batch, self.batch), (self.lbl_seq, self.seq_len),
                           (self.lbl_img, self.image_size)):
            lab.setBuddy(buddy)
        form.addWidget(self.lbl_method, 0, 0)
        form.addWidget(self.method, 0, 1)
        form.addWidget(self.lbl_precision, 0, 2)
        form.addWidget(self.precision, 0, 3)
        form.addWidget(self.lbl_batch, 1, 0)
        form.addWidget(self.batch, 1, 1)
        size_box = QtWidgets.QWidget(self.settings_box)  # sequence length and/or image size, whichever the job has
        size_row = QtWidgets.QHBoxLayout(size_box)
        size_row.setContentsMargins(0, 0, 0, 0)
        size_row.addWidget(self.seq_len, 1)
        size_row.addWidget(self.lbl_img)
        size_row.addWidget(self.image_size, 1)
        form.addWidget(self.lbl_seq, 1, 2)
        form.addWidget(size_box, 1, 3)
        form.addWidget(self.checkpointing, 2, 0, 1, 4)
        form.addWidget(self.reset_button, 3, 0, 1, 2, Qt.AlignmentFlag.AlignLeft)
        for w in (self.method, self.precision):
            w.currentIndexChanged.connect(self._on_setting)
        for w in (self.batch, self.seq_len, self.image_size):
            w.valueChanged.connect(self._on_setting)
        self.checkpointing.toggled.connect(self._on_setting)
        self.body.addWidget(self.settings_box)
        self.retranslate()

    # -- texts ------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        if not self.built:
            return
        self.setTitle(tr("What do you want to train?"))
        self.setSubTitle(tr("From your first digit classifier to fine-tuning a 70-billion-parameter model. "
                            "Pick a job to see the details and how to make it work."))
        self.table.setHorizontalHeaderLabels([tr("Training job"), tr("Verdict"), tr("Time"),
                                              tr("Video memory: needed vs yours")])
        self.import_button.setText(tr("Import a job…"))
        self.import_hint.setText(tr("A workload .toml file or a Hugging Face config.json"))
        self.settings_box.setTitle(tr("Settings for the chosen job"))
        self.lbl_method.setText(tr("&Method"))
        self.lbl_precision.setText(tr("&Precision"))
        self.lbl_batch.setText(tr("&Batch size (per GPU)"))
        self.lbl_seq.setText(tr("&Sequence length (tokens)"))
        self.lbl_img.setText(tr("&Image size (pixels)"))
        self.checkpointing.setText(tr("Gradient checkpointing (less memory, about a third slower)"))
        self.reset_button.setText(tr("Back to the job's defaults"))
        self._updating = True
        for combo, items in ((self.method, METHODS), (self.precision, PRECISIONS)):
            cur = combo.currentData()
            combo.clear()
            for code, label in items:
                combo.addItem(tr(label), code)
            if cur is not None:
                combo.setCurrentIndex(max(0, combo.findData(cur)))
        self._updating = False
        self.refresh()

    # -- data -------------------------------------------------------------------------------------
    def isComplete(self) -> bool:
        return self.session.selected_id is not None

    def refresh(self) -> None:
        if not self.has_session_data():
            return
        s = self.session
        self.target_line.setText(s.target_text())
        self.table.horizontalHeaderItem(COL_VRAM).setText(
            tr("Memory (RAM): needed vs yours") if s.on_cpu() else tr("Video memory: needed vs yours"))
        ws = s.workloads()
        self._updating = True
        self.table.setRowCount(len(ws))
        selected_row = None
        for row, w in enumerate(ws):
            self._fill_row(row, w)
            if w.id == s.selected_id:
                selected_row = row
        self._set_row_heights()
        if selected_row is None and ws:
            s.selected_id = s.default_selection()
            selected_row = next((i for i, w in enumerate(ws) if w.id == s.selected_id), 0)
        if selected_row is not None:
            self.table.selectRow(selected_row)
        self._updating = False
        self._load_settings()
        self.completeChanged.emit()

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
        if desc:
            item.setToolTip(desc)
        self.table.setItem(row, COL_JOB, item)
        from gpucheck.ui.widgets.vram_bar import VramBar

        est, err = s.try_estimate(w.id)
        badge = Badge()
        bar = VramBar()
        if est is None:
            badge.set_verdict("not_supported")
            badge.setToolTip(err)
            time_item = QtWidgets.QTableWidgetItem("—")
            time_item.setToolTip(err)
            bar.set_values(None, None)
        else:
            badge.set_verdict(s.verdict(w.id) or est.verdict)
            # the time the verdict refers to (with the advised changes and bottlenecks, as on the
            # details page and in the report); none for a job that cannot run here
            adv, _ = s.try_advice(w.id)
            hours = adv.expected_hours if adv is not None else est.total_hours
            time_item = QtWidgets.QTableWidgetItem(fmt_duration(hours) if hours is not None else "—")
            bar.set_values(*s.memory_need_have(est))
        badge.setObjectName(f"verdict_{w.id}")
        vitem = QtWidgets.QTableWidgetItem()
        vitem.setData(Qt.ItemDataRole.AccessibleTextRole, badge.text())
        vitem.setToolTip(badge.toolTip())
        self.table.setItem(row, COL_VERDICT, vitem)
        self.table.setCellWidget(row, COL_VERDICT, _centered(badge))
        self.table.setItem(row, COL_TIME, time_item)
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

    def _on_selection(self) -> None:
        if self._updating:
            return
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return
        it = self.table.item(rows[0].row(), COL_JOB)
        self.session.selected_id = it.data(Qt.ItemDataRole.UserRole)
        self._load_settings()
        self.completeChanged.emit()

    # -- settings -----------------------------------------------------------------------------------
    def _load_settings(self) -> None:
        s = self.session
        w = s.workload(s.selected_id) if s.selected_id else None
        self.settings_box.setEnabled(w is not None)
        if w is None:
            return
        t = s.train_for(w.id)
        self._updating = True
        self.settings_box.setTitle(tr("Settings for: {job}", job=s.workload_title(w)))
        self.method.setCurrentIndex(max(0, self.method.findData(t.method)))
        self.precision.setCurrentIndex(max(0, self.precision.findData(t.precision)))
        self.batch.setValue(t.batch)
        has_seq = t.seq_len is not None
        has_img = t.image_size is not None
        self.seq_len.setValue(t.seq_len or 512)
        self.image_size.setValue(t.image_size or 224)
        self.seq_len.setVisible(has_seq)
        self.image_size.setVisible(has_img)
        # the first label of the pair names whichever comes first; the second only when both are there
        self.lbl_seq.setText(tr("&Sequence length (tokens)") if has_seq else tr("&Image size (pixels)"))
        self.lbl_seq.setBuddy(self.seq_len if has_seq else self.image_size)
        self.lbl_seq.setVisible(has_seq or has_img)
        self.lbl_img.setVisible(has_seq and has_img)
        is_llm_like = w.model.arch == "transformer"
        self.method.setEnabled(is_llm_like or t.method != "full")
        self.checkpointing.setChecked(t.grad_checkpointing)
        self._updating = False

    def _on_setting(self, *_args) -> None:
        if self._updating or self.session.selected_id is None:
            return
        s = self.session
        wid = s.selected_id
        t = s.train_for(wid)
        new = dataclasses.replace(
            t,
            method=self.method.currentData() or t.method,
            precision=self.precision.currentData() or t.precision,
            batch=self.batch.value(),
            seq_len=self.seq_len.value() if t.seq_len is not None else None,
            image_size=self.image_size.value() if t.image_size is not None else None,
            grad_checkpointing=self.checkpointing.isChecked(),
        )
        s.set_train(wid, new)
        r = self.row_of(wid)
        if r is not None:
            self._updating = True
            self._fill_row(r, s.workload(wid))
            self.table.selectRow(r)
            self._updating = False

    def reset_settings(self) -> None:
        s = self.session
        if s.selected_id is None:
            return
        s.reset_train(s.selected_id)
        self.refresh()

    # -- custom jobs ----------------------------------------------------------------------------------
    def choose_import(self) -> None:
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self, tr("Import a training job"), "",
            tr("Training jobs (*.toml *.json);;Workload files (*.toml);;Hugging Face config (*.json);;"
               "All files (*)"))
        if path:
            self.import_file(path)

    def import_file(self, path: str) -> bool:
        from gpucheck.errors import BadInput
        from gpucheck.ui.app import show_bad_input

        try:
            w = self.session.import_workload(path)
        except BadInput as e:
            show_bad_input(self, tr("This job cannot be imported: {reason}", reason=str(e)),
                           tr("Cannot import the job"))
            return False
        self.session.selected_id = w.id
        self.refresh()
        return True
