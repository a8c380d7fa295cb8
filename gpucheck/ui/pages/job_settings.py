"""The jobs page's settings for the chosen job: method, precision, batch size, sequence length or image size,
data-set size and epochs, LoRA targets and dropout, software stack, ZeRO stage, gradient accumulation, CPU offload
and packing, the optimizer, in one fixed grid; a control that does not apply is greyed out and its tooltip says why."""

from __future__ import annotations

import dataclasses

from PySide6 import QtWidgets
from PySide6.QtCore import Qt

from gpucheck.estimate.factors import default_seq_len
from gpucheck.estimate.settings import fits_avg_seq_len, position_table_limit
from gpucheck.i18n import N_, precision_label, tr
from gpucheck.report.figures import STACK_LABELS, data_set_text
from gpucheck.report.job_section import precision_text
from gpucheck.ui.pages.jobs_ladder import JobsLadder
from gpucheck.ui.widgets.part_card import wrap_label

METHODS = (("full", N_("Full training")), ("lora", N_("LoRA (small add-on weights)")),
           ("qlora", N_("QLoRA (4-bit model + LoRA)")))
PRECISIONS = (("bf16", N_("BF16 mixed precision")), ("fp16", N_("FP16 mixed precision")),
              ("fp32", N_("FP32 (full precision)")), ("bf16-pure", N_("BF16 (pure)")))
LORA_TARGETS = (("qv", N_("Attention q and v (the usual default)")), ("attention", N_("All attention projections")),
                ("mlp", N_("The MLP layers")), ("all-linear", N_("Every linear layer")))
# the optimizer (--optimizer); the state each keeps is in the combo's tooltip (jobs.py)
OPTIMIZERS = (("adamw", N_("AdamW (the usual default)")), ("adamw-8bit", N_("8-bit AdamW (bitsandbytes)")),
              ("sgd", N_("SGD with momentum")), ("adafactor", N_("Adafactor (factored: little memory)")))
ZERO_STAGES = ((0, N_("None: each GPU holds everything")), (1, N_("ZeRO-1: optimizer state split")),
               (2, N_("ZeRO-2: optimizer state and gradients split")), (3, N_("ZeRO-3 / FSDP: everything split")))
ARCH_NAMES = {"unet": "U-Net", "cnn": "CNN", "mlp": "MLP"}  # model families by their usual names
# the software stack the speed assumes: the same words as the command line and the report
STACKS = tuple((key, label) for key, label in STACK_LABELS.items())
SEQ_MAX = 1_048_576  # the sequence-length box's ceiling, unless a learned position table sets a lower one


class JobSettings(JobsLadder):
    """The settings box under the table: the base of JobsPage (gpucheck.ui.pages.jobs)."""

    def _build_settings(self) -> None:
        """One fixed grid: every control keeps its place whatever the job; a control that does not apply
        is greyed out and its tooltip says why."""
        self.settings_box = QtWidgets.QGroupBox(self)
        self.settings_box.setObjectName("settingsBox")
        form = QtWidgets.QGridLayout(self.settings_box)
        form.setColumnStretch(1, 1)
        form.setColumnStretch(3, 1)
        form.setHorizontalSpacing(10)
        self.form = form
        self._make_controls()
        self.labels = {k: QtWidgets.QLabel() for k in ("method", "precision", "batch", "seq", "img", "samples",
                                                         "epochs", "targets", "dropout", "stack", "zero", "accum",
                                                         "optimizer", "avg")}
        # the LoRA settings side by side on one row
        grid = (("method", self.method, 0, 0), ("precision", self.precision, 0, 2),
                ("batch", self.batch, 1, 0), ("seq", self.seq_len, 1, 2),
                ("samples", self.samples, 2, 0), ("img", self.image_size, 2, 2),
                ("epochs", self.epochs, 3, 0), ("stack", self.stack, 3, 2),
                ("targets", self.lora_targets, 4, 0), ("dropout", self.lora_dropout, 4, 2),
                ("zero", self.zero_stage, 5, 0), ("accum", self.grad_accum, 5, 2),
                ("optimizer", self.optimizer, 6, 0), ("avg", self.avg_len, 6, 2))
        for key, w, r, c in grid:
            self.labels[key].setBuddy(w)
            form.addWidget(self.labels[key], r, c)
            form.addWidget(w, r, c + 1)
        # check boxes do not wrap: one a row, so that the grid fits an 800-pixel window in every language
        for row, box in enumerate((self.checkpointing, self.packing, self.cpu_offload), 7):
            form.addWidget(box, row, 0, 1, 4)
        form.addWidget(self.data_line, 10, 0, 1, 4)
        form.addWidget(self.reset_button, 11, 0, 1, 2, Qt.AlignmentFlag.AlignLeft)
        for combo in (self.method, self.precision, self.lora_targets, self.stack, self.zero_stage, self.optimizer):
            combo.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(12)
            combo.currentIndexChanged.connect(self._on_setting)
        for w in (self.batch, self.grad_accum, self.seq_len, self.image_size, self.lora_dropout):
            w.valueChanged.connect(self._on_setting)
        self.samples.valueChanged.connect(self._on_data)
        self.avg_len.valueChanged.connect(self._on_data)
        self.epochs.valueChanged.connect(self._on_data)
        for box in (self.checkpointing, self.packing, self.cpu_offload):
            box.toggled.connect(self._on_setting)
        self.body.addWidget(self.settings_box)

    def _make_controls(self) -> None:
        def combo(name: str) -> QtWidgets.QComboBox:
            c = QtWidgets.QComboBox(self)
            c.setObjectName(name)
            return c

        def spin(name: str, lo: int, hi: int, step: int = 1) -> QtWidgets.QSpinBox:
            sb = QtWidgets.QSpinBox(self)
            sb.setObjectName(name)
            sb.setRange(lo, hi)
            sb.setSingleStep(step)
            return sb

        def check(name: str) -> QtWidgets.QCheckBox:
            cb = QtWidgets.QCheckBox(self)
            cb.setObjectName(name)
            return cb

        self.method, self.precision = combo("method"), combo("precision")
        self.lora_targets, self.stack, self.zero_stage = combo("loraTargets"), combo("stack"), combo("zeroStage")
        self.optimizer = combo("optimizer")
        self.batch = spin("batch", 1, 65536)
        self.grad_accum = spin("gradAccum", 1, 65536)  # the command line's --grad-accum, in the same range
        self.seq_len = spin("seqLen", 16, SEQ_MAX, 256)
        self.image_size = spin("imageSize", 8, 8192, 32)
        self.samples = spin("samples", 1, 2_000_000_000, 1000)
        self.avg_len = spin("avgSeqLen", 1, 1_048_576, 64)  # --avg-seq-len; its maximum follows the sequence length
        self.samples.setGroupSeparatorShown(True)
        self.epochs = QtWidgets.QDoubleSpinBox(self)
        self.epochs.setObjectName("epochs")
        self.epochs.setRange(0.01, 10000)
        self.epochs.setDecimals(2)
        # nn.Dropout's probability, as the command line takes it (from 0 up to, not including, 1); two decimals
        # hold every value a workload file may give (0 to 0.99)
        self.lora_dropout = QtWidgets.QDoubleSpinBox(self)
        self.lora_dropout.setObjectName("loraDropout")
        self.lora_dropout.setRange(0.0, 0.99)
        self.lora_dropout.setDecimals(2)
        self.lora_dropout.setSingleStep(0.05)
        self.checkpointing, self.packing = check("gradCheckpointing"), check("packing")
        self.cpu_offload = check("cpuOffload")
        self.reset_button = QtWidgets.QPushButton(self)
        self.reset_button.setObjectName("resetSettings")
        self.reset_button.clicked.connect(self.reset_settings)
        self.data_line = wrap_label(selectable=True)
        self.data_line.setObjectName("dataSize")

    # -- settings -----------------------------------------------------------------------------------
    def _load_settings(self) -> None:
        s = self.session
        w = s.workload(s.selected_id) if s.selected_id else None
        self.settings_box.setVisible(w is not None)  # nothing to set until a job is chosen (the hint says so)
        if w is None:
            return
        t, d = s.train_for(w.id), s.data_for(w.id)
        self._updating = True
        self.settings_box.setTitle(tr("Settings for: {job}", job=s.workload_title(w)))
        self.method.setCurrentIndex(max(0, self.method.findData(t.method)))
        self._load_precision(t)
        self.optimizer.setCurrentIndex(max(0, self.optimizer.findData(t.optimizer)))
        self.batch.setValue(t.batch)
        self.grad_accum.setValue(t.grad_accum)
        self.seq_len.setMaximum(position_table_limit(dataclasses.replace(w, train=t)) or SEQ_MAX)
        self.seq_len.setValue(t.seq_len or default_seq_len())
        self.image_size.setValue(t.image_size or 224)
        self.samples.setValue(min(int(d.samples), self.samples.maximum()))
        self.epochs.setValue(float(d.epochs))
        self._load_avg_len(w, t, d)
        self.checkpointing.setChecked(t.grad_checkpointing)
        self._grey(self.seq_len, self.labels["seq"], t.seq_len is not None,
                   tr("This job has no sequence length: it works on images, not text."))
        self._grey(self.image_size, self.labels["img"], t.image_size is not None,
                   tr("This job has no image size: it works on text, not images."))
        is_transformer = w.model.arch == "transformer"
        self._grey(self.method, self.labels["method"], is_transformer or t.method != "full",
                   tr("LoRA and QLoRA are offered for transformer models; this model is trained in full."))
        self._load_advanced(w, t)
        est, _ = s.try_estimate(w.id)  # the job's figures exist exactly when it has an estimate
        self.data_line.setText(data_set_text(d, t) if est is not None else "")
        self._updating = False

    def _load_avg_len(self, w, t, d) -> None:
        """The mean sample length (--avg-seq-len) of a language-model job: at most its sequence length, which cuts longer
        samples; greyed out for other jobs, saying why."""
        text = fits_avg_seq_len(dataclasses.replace(w, train=t))
        if text:
            self.avg_len.setMaximum(t.seq_len)
            self.avg_len.setValue(min(d.avg_seq_len or t.seq_len, t.seq_len))
        self._grey(self.avg_len, self.labels["avg"], text,
                   tr("Only for jobs on text whose samples vary in length: the mean length of its samples in tokens "
                      "(Whisper pads every clip to 30 seconds)."))
        if text:  # what it changes, beside the sequence length that caps it
            tip = tr("The mean length of your data set's samples in tokens (--avg-seq-len): the training time follows "
                     "it, the memory follows the longest sample, which the sequence length caps.")
            self.avg_len.setToolTip(tip)
            self.labels["avg"].setToolTip(tip)

    def _load_advanced(self, w, t) -> None:
        """LoRA targets and dropout, software stack, ZeRO stage, CPU offload and packing: the settings the command
        line names --lora-targets, --lora-dropout, --stack, --zero-stage, --cpu-offload and --packing."""
        self.lora_targets.setCurrentIndex(max(0, self.lora_targets.findData(t.lora_targets)))
        self.stack.setCurrentIndex(max(0, self.stack.findData(t.stack)))
        self.zero_stage.setCurrentIndex(max(0, self.zero_stage.findData(3 if t.shard else t.zero_stage)))
        self.cpu_offload.setChecked(t.cpu_offload)
        self.packing.setChecked(t.packing)
        lora = w.model.arch == "transformer" and t.method in ("lora", "qlora")
        why = (tr("Only for LoRA and QLoRA: choose one of them as the method first.")
               if t.method not in ("lora", "qlora") else
               tr("These targets are a transformer's layers; this job's model is not a transformer ({arch}), so "
                  "its LoRA layers are the ones the job itself names.", arch=ARCH_NAMES.get(w.model.arch,
                                                                                            w.model.arch)))
        self._grey(self.lora_targets, self.labels["targets"], lora, why)
        if t.method in ("lora", "qlora") and not lora:  # the targets' reason does not fit the dropout
            why = tr("LoRA dropout is counted for transformer models; this job's model is not one ({arch}), so the "
                     "setting would change nothing here.", arch=ARCH_NAMES.get(w.model.arch, w.model.arch))
        self._load_dropout(t, lora, why)
        target = self.session.target()
        self._grey(self.zero_stage, self.labels["zero"], target.gpus > 1,
                   tr("Only with several GPUs: {target} trains on one.", target=self.session.target_name()))
        # ZeRO-Offload also helps one GPU (the advice offers it there too); DeepSpeed runs on CUDA and ROCm
        self._grey(self.cpu_offload, None, target.backend in ("cuda", "rocm"),
                   tr("CPU offload (DeepSpeed ZeRO-Offload) needs an NVIDIA or AMD GPU; {target} is not one.",
                      target=self.session.target_name()))
        llm = w.family == "llm" and t.seq_len is not None
        self._grey(self.packing, None, llm, tr("Packing joins short text samples of language-model jobs; this "
                                               "job is not one."))

    def _load_dropout(self, t, lora: bool, why: str) -> None:
        """LoRA dropout (--lora-dropout) beside the targets, greyed out where they are; its tooltip says what it
        costs: above 0 each adapted layer keeps a copy of its input, whatever the value."""
        self.lora_dropout.setValue(t.lora_dropout)
        self._grey(self.lora_dropout, self.labels["dropout"], lora, why)
        if not lora:
            return
        tip = (tr("Dropout on each LoRA adapter's input: while training, it randomly zeroes a share of what goes "
                  "into the adapter, which can help against overfitting. It costs memory: above 0, every adapted "
                  "layer keeps a copy of its input in RAM, whatever the value; 0 keeps none and saves that memory. "
                  "0.05–0.1 is common in LoRA recipes; the default is 0.05.")
               if self.session.on_cpu() else
               tr("Dropout on each LoRA adapter's input: while training, it randomly zeroes a share of what goes "
                  "into the adapter, which can help against overfitting. It costs memory: above 0, every adapted "
                  "layer keeps a copy of its input in VRAM, whatever the value; 0 keeps none and saves that memory. "
                  "0.05–0.1 is common in LoRA recipes; the default is 0.05."))
        self.lora_dropout.setToolTip(tip)
        self.labels["dropout"].setToolTip(tip)

    def _load_precision(self, t) -> None:
        """The job's own precision; on a GPU without BF16 units the BF16 entries say so (the advice then
        lists the switch to FP16 among the changes, as the report and the command line do)."""
        bf16 = self.session.supports_bf16()
        why = "" if bf16 else tr("This GPU has no BF16 units: choose FP16, or keep BF16 to see the change advised.")
        pure = tr("Weights, gradients and optimizer state all in BF16 (about 8 bytes per parameter instead of "
                  "about 18)")
        for code, label in PRECISIONS:
            if code.startswith("bf16"):
                idx = self.precision.findData(code)
                self.precision.setItemText(idx, tr(label) if bf16 else tr("{label} (not on this GPU)",
                                                                          label=tr(label)))
                tip = why or (pure if code == "bf16-pure" else "")
                self.precision.setItemData(idx, tip or None, Qt.ItemDataRole.ToolTipRole)
        self.precision.setCurrentIndex(max(0, self.precision.findData(t.precision)))
        self.precision.setToolTip(why)
        est, _ = self.session.try_estimate(self.session.selected_id) if self.session.selected_id else (None, "")
        used = getattr(est, "precision_used", "") if est is not None else ""
        if used and used != t.precision and self.session.on_cpu():  # a CPU trains in what it has: say which
            idx = self.precision.findData(t.precision)
            label = dict(PRECISIONS).get(t.precision, t.precision)
            self.precision.setItemText(idx, tr("{label} → {used} on a CPU", label=tr(label),
                                               used=precision_label(used)))
            self.precision.setToolTip(tr("The estimate uses {text}.", text=precision_text(t, used)))

    @staticmethod
    def _grey(widget: QtWidgets.QWidget, label: QtWidgets.QLabel | None, enabled: bool, why: str) -> None:
        widget.setEnabled(enabled)
        widget.setToolTip("" if enabled else why)
        if label is not None:
            label.setEnabled(enabled)
            label.setToolTip("" if enabled else why)

    def _refill_selected(self) -> None:
        wid = self.session.selected_id
        r = self.row_of(wid)
        if r is not None:
            self._updating = True
            self._fill_row(r, self.session.workload(wid))
            self.table.selectRow(r)
            self._updating = False
        self._load_settings()

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
            optimizer=self.optimizer.currentData() or t.optimizer,
            batch=self.batch.value(),
            grad_accum=self.grad_accum.value(),
            seq_len=self.seq_len.value() if t.seq_len is not None else None,
            image_size=self.image_size.value() if t.image_size is not None else None,
            grad_checkpointing=self.checkpointing.isChecked(),
            **self._advanced_values(t),
        )
        s.set_train(wid, new)
        self._refill_selected()

    def _advanced_values(self, t) -> dict:
        """The advanced controls' values; a greyed-out one keeps the job's own setting."""
        out: dict = {"stack": self.stack.currentData() or t.stack}
        if self.lora_targets.isEnabled():
            out["lora_targets"] = self.lora_targets.currentData() or t.lora_targets
        if self.lora_dropout.isEnabled():
            out["lora_dropout"] = self.lora_dropout.value()
        if self.packing.isEnabled():
            out["packing"] = self.packing.isChecked()
        if self.zero_stage.isEnabled():
            stage = self.zero_stage.currentData()
            out["zero_stage"] = t.zero_stage if stage is None else int(stage)
            out["shard"] = False if stage is not None and stage != 3 else t.shard
        if self.cpu_offload.isEnabled():
            out["cpu_offload"] = self.cpu_offload.isChecked()
        return out

    def _on_data(self, *_args) -> None:
        if self._updating or self.session.selected_id is None:
            return
        self.session.set_data(self.session.selected_id, self.samples.value(), self.epochs.value(),
                              self.avg_len.value() if self.avg_len.isEnabled() else None)
        self._refill_selected()

    def reset_settings(self) -> None:
        s = self.session
        if s.selected_id is None:
            return
        s.reset_train(s.selected_id)
        self.refresh()
