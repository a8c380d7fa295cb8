"""Page 3 — What do you want to train? The whole ladder with a verdict, time and memory bar per job
(the bar and the time describe the same settings: as configured → with the changes); import a custom
job; edit the chosen job's settings and data-set size. Nothing is chosen for the user."""

from __future__ import annotations

from PySide6 import QtWidgets
from PySide6.QtCore import Qt

from gpucheck.errors import BadInput
from gpucheck.i18n import tr
from gpucheck.ui.dialogs import show_bad_input
from gpucheck.ui.pages.job_settings import (
    LORA_TARGETS,
    METHODS,
    OPTIMIZERS,
    PRECISIONS,
    STACKS,
    ZERO_STAGES,
    JobSettings,
)
from gpucheck.ui.widgets.jobs_table import COL_JOB, JobsTable
from gpucheck.ui.widgets.part_card import wrap_label


class JobsPage(JobSettings):
    def _build(self) -> None:
        self._updating = False
        self.target_line = wrap_label(selectable=True)
        self.target_line.setObjectName("jobsTarget")
        self.body.addWidget(self.target_line)

        self.table = JobsTable(self)
        self.table.setMinimumHeight(self.fontMetrics().height() * 14)
        self.table.itemSelectionChanged.connect(self._on_selection)
        self.table.cellDoubleClicked.connect(lambda *_: self.wiz.next())
        self.body.addWidget(self.table, 1)
        self.pick_hint = wrap_label()
        self.pick_hint.setObjectName("pickHint")
        self.body.addWidget(self.pick_hint)

        row = QtWidgets.QHBoxLayout()
        self.import_button = QtWidgets.QPushButton(self)
        self.import_button.setObjectName("importJob")
        self.import_button.clicked.connect(self.choose_import)
        row.addWidget(self.import_button)
        self.import_hint = wrap_label()
        row.addWidget(self.import_hint, 1)
        self.body.addLayout(row)
        self._build_settings()

    # -- texts ------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        if not self.built:
            return
        self.setTitle(tr("What do you want to train?"))
        self.setSubTitle(tr("From your first digit classifier to fine-tuning a 70-billion-parameter model. "
                            "Pick a job to see the details and how to make it work."))
        self._set_headers()
        self.import_button.setText(tr("Import a job…"))
        self.import_hint.setText(tr("A workload .toml file or a Hugging Face config.json"))
        self.pick_hint.setText(tr("Pick a job in the table (arrow keys or a click) to see its details; "
                                  "Next is greyed out until you do."))
        texts = {"method": tr("&Method"), "precision": tr("&Precision"), "batch": tr("&Batch size (per GPU)"),
                 "seq": tr("&Sequence length (tokens)"), "img": tr("&Image size (pixels)"),
                 "samples": tr("Training &samples"), "epochs": tr("&Epochs"), "targets": tr("LoRA &targets"),
                 "dropout": tr("LoRA &dropout"), "stack": tr("So&ftware stack"), "zero": tr("Several GPUs: &ZeRO"),
                 "accum": tr("Gradient acc&umulation"), "optimizer": tr("&Optimizer"),
                 "avg": tr("Mean sample &length (tokens)")}
        for key, text in texts.items():
            self.labels[key].setText(text)
        self.checkpointing.setText(tr("Gradient checkpointing (less memory, about a third slower)"))
        self.packing.setText(tr("Pack short samples into full-length rows (sequence packing)"))
        self.cpu_offload.setText(tr("CPU offload (ZeRO-Offload: less VRAM, more RAM, slower)"))
        self.epochs.setToolTip(tr("How many times training goes through the whole data set"))
        accum_tip = tr("Micro-batches whose gradients are added up before each optimizer step (the Trainer's "
                       "gradient_accumulation_steps). The effective batch is the batch size × this × the GPUs: a "
                       "small card trains with the batch a recipe asks for at the memory of one micro-batch, and the "
                       "optimizer step and the GPUs' gradient exchange come less often.")
        self.grad_accum.setToolTip(accum_tip)
        opt_tip = tr("What the optimizer keeps for every trained parameter: AdamW two values (8 bytes in FP32, 4 in pure "
                     "BF16); 8-bit AdamW (bitsandbytes, NVIDIA GPUs) 2 bytes; SGD with momentum one value; Adafactor "
                     "only the row and column averages of each weight matrix (next to nothing for a transformer, "
                     "more for convolutions), and its step is slower than a fused AdamW step.")
        self.optimizer.setToolTip(opt_tip)
        self.labels["optimizer"].setToolTip(opt_tip)
        self.labels["accum"].setToolTip(accum_tip)
        self.reset_button.setText(tr("Back to the job's defaults"))
        self._updating = True
        for combo, items in ((self.method, METHODS), (self.precision, PRECISIONS),
                             (self.lora_targets, LORA_TARGETS), (self.stack, STACKS), (self.zero_stage, ZERO_STAGES),
                             (self.optimizer, OPTIMIZERS)):
            cur = combo.currentData()
            combo.clear()
            for code, label in items:
                text = tr(label)
                combo.addItem(text[:1].upper() + text[1:], code)
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
        # "calibrated on this PC" when the estimates use its measured speeds; else what a trial measured against
        # the estimate, said once above the ladder
        cal = s.calibrated_text()
        self.target_line.setText(" ".join([s.target_text(), cal]) if cal else "\n".join([s.target_text(),
                                                                                          *s.trial_notes()]))
        self._set_headers()
        ws = s.workloads()
        self._updating = True
        self.table.setRowCount(len(ws))
        selected_row = None
        for row, w in enumerate(ws):
            self._fill_row(row, w)
            if w.id == s.selected_id:
                selected_row = row
        self._set_row_heights()
        if selected_row is not None:
            self.table.selectRow(selected_row)
        else:
            self.table.clearSelection()
            self.table.scrollToTop()
        self._updating = False
        self._mark_selected_bars()
        self.pick_hint.setVisible(s.selected_id is None)
        self._load_settings()
        self.completeChanged.emit()

    def _on_selection(self) -> None:
        self._mark_selected_bars()
        if self._updating:
            return
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return
        it = self.table.item(rows[0].row(), COL_JOB)
        self.session.selected_id = it.data(Qt.ItemDataRole.UserRole)
        self.pick_hint.setVisible(False)
        self._load_settings()
        self.completeChanged.emit()

    # -- custom jobs ----------------------------------------------------------------------------------
    def choose_import(self) -> None:
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self, tr("Import a training job"), "",
            tr("Training jobs (*.toml *.json);;Workload files (*.toml);;Hugging Face config (*.json);;"
               "All files (*)"))
        if path:
            self.import_file(path)

    def import_file(self, path: str) -> bool:
        try:
            w = self.session.import_workload(path)
        except BadInput as e:
            show_bad_input(self, tr("This job cannot be imported: {reason}", reason=str(e)),
                           tr("Cannot import the job"))
            return False
        self.session.selected_id = w.id
        self.refresh()
        return True


__all__ = ["JobsPage", "JobsTable", "METHODS", "PRECISIONS"]
