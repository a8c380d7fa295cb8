"""What the pages share: the machine, the jobs (built-in + imported), per-job settings and data-set size,
the what-if GPU, and the estimates and advice for them (cached) — the app's view model. No Qt and no
arithmetic: every figure comes from gpucheck.estimate / gpucheck.advise, and every job's memory and time
from gpucheck.report.figures (the same the report uses). Catalogs are read on first use."""

from __future__ import annotations

import dataclasses

from gpucheck.advise import advise, facts_for_target
from gpucheck.catalog import get_workload, load_gpus, load_workloads
from gpucheck.errors import BadInput
from gpucheck.estimate import Target, estimate
from gpucheck.estimate.calibration import target_calibrated_text
from gpucheck.i18n import get_language, localized, tr
from gpucheck.report import build_report, check_writable, write_report
from gpucheck.report.figures import JobFigures, job_figures
from gpucheck.report.measured import Measured, apply_measured, measured_of, measured_speed_note
from gpucheck.report.model import Evaluation
from gpucheck.report.option_points import purchase_price
from gpucheck.ui.machine_view import JobContext
from gpucheck.verdict import Verdict


class Session:
    def __init__(self):
        self.machine = None
        self.custom: list = []  # imported Workloads, in import order
        self.overrides: dict[str, object] = {}  # workload id → TrainSpec the user edited
        self.data_overrides: dict[str, object] = {}  # workload id → DataSpec (samples, epochs) the user edited
        self.selected_id: str | None = None  # nothing is chosen for the user
        self.what_if_id: str | None = None  # catalog GPU id, None = this PC
        self.what_if_gpus = 1  # how many of the what-if GPU
        self._estimates: dict = {}
        self._advice: dict = {}
        self._estimates_lang = get_language()
        self._machine_cache: dict = {}  # (workload id, settings, language) → (Estimate, Advice) on this PC
        self.trials: dict[str, object] = {}  # workload id → the TrialResult that measured it on this PC
        self._trial_train: dict[str, object] = {}  # workload id → the TrainSpec it was measured with

    # -- state changes ----------------------------------------------------------------------------
    def _clear_cache(self) -> None:
        self._estimates_lang = get_language()
        self._estimates.clear()
        self._advice.clear()

    def set_machine(self, machine) -> None:
        self.machine = machine
        self.trials.clear()  # measured on the PC before
        self._trial_train.clear()
        self.what_if_id = None
        self.what_if_gpus = 1
        self._clear_cache()
        self._machine_cache.clear()

    def reset(self) -> None:
        """Start over: keep the machine (the scan is still true), forget choices."""
        self.custom.clear()
        self.overrides.clear()
        self.data_overrides.clear()
        self.selected_id = None
        self.what_if_id = None
        self.what_if_gpus = 1
        self._clear_cache()
        self._machine_cache.clear()

    def language_changed(self) -> None:
        # advice and estimate notes are rendered in the language active when they were made
        self._clear_cache()
        self._machine_cache.clear()

    def set_what_if(self, gpu_id: str | None, gpus: int | None = None) -> None:
        self.what_if_id = gpu_id
        self.what_if_gpus = gpus if gpus is not None and gpu_id is not None else 1
        self._clear_cache()

    # -- jobs -------------------------------------------------------------------------------------
    def builtin_workloads(self) -> tuple:
        return load_workloads()

    def workloads(self) -> list:
        return list(self.builtin_workloads()) + list(self.custom)

    def workload(self, workload_id: str):
        for w in self.workloads():
            if w.id == workload_id:
                return w
        raise KeyError(workload_id)

    def workload_title(self, w) -> str:
        return localized(w, "title")

    def workload_description(self, w) -> str:
        return localized(w, "description")

    def import_workload(self, path: str):
        """A workload .toml or a Hugging Face config.json; BadInput names the file and the problem."""
        w = get_workload(path)
        self.custom = [c for c in self.custom if c.id != w.id]
        if any(b.id == w.id for b in self.builtin_workloads()):
            w = dataclasses.replace(w, id=f"{w.id}-custom")
        self.custom.append(w)
        return w

    # -- settings ---------------------------------------------------------------------------------
    def train_for(self, workload_id: str):
        return self.overrides.get(workload_id) or self.workload(workload_id).train

    def data_for(self, workload_id: str):
        return self.data_overrides.get(workload_id) or self.workload(workload_id).data

    def _forget(self, workload_id: str) -> None:
        self._estimates.pop(workload_id, None)
        self._advice.pop(workload_id, None)

    def set_train(self, workload_id: str, train) -> None:
        if train == self.workload(workload_id).train:
            self.overrides.pop(workload_id, None)
        else:
            self.overrides[workload_id] = train
        self._forget(workload_id)

    def set_data(self, workload_id: str, samples: int, epochs: float, avg_seq_len: int | None = None) -> None:
        """The data set's size: how many samples, how many passes over them, and (a language-model job) the mean
        tokens per sample; None keeps the job's own."""
        data = dataclasses.replace(self.workload(workload_id).data, samples=int(samples), epochs=float(epochs))
        if avg_seq_len is not None and avg_seq_len != (data.avg_seq_len or self.train_for(workload_id).seq_len):
            data = dataclasses.replace(data, avg_seq_len=int(avg_seq_len))
        if data == self.workload(workload_id).data:
            self.data_overrides.pop(workload_id, None)
        else:
            self.data_overrides[workload_id] = data
        self._forget(workload_id)

    def reset_train(self, workload_id: str) -> None:
        self.overrides.pop(workload_id, None)
        self.data_overrides.pop(workload_id, None)
        self._forget(workload_id)

    def effective_workload(self, workload_id: str):
        w = self.workload(workload_id)
        t, d = self.overrides.get(workload_id), self.data_overrides.get(workload_id)
        if t is not None:
            w = dataclasses.replace(w, train=t)
        if d is not None:
            w = dataclasses.replace(w, data=d)
        return w

    def supports_bf16(self) -> bool:
        """The GPU compared on has BF16 units (the precision list greys BF16 out when not)."""
        t = self.target()
        return t.backend == "cpu" or facts_for_target(t, self.machine).supports_bf16

    # -- GPUs -------------------------------------------------------------------------------------
    def gpu_catalog(self) -> tuple:
        try:
            return load_gpus()
        except BadInput:  # no catalog: the picker just lists this PC
            return ()

    def what_if_spec(self):
        if self.what_if_id is None:
            return None
        for g in self.gpu_catalog():
            if g.id == self.what_if_id:
                return g
        return None

    def what_if_price(self) -> tuple[float | None, float | None] | None:
        """(USD, CNY) of the what-if GPUs (all of them), None on this PC: what its options cost to buy."""
        spec = self.what_if_spec()
        if spec is None:
            return None
        return purchase_price(spec, self.what_if_gpus)

    def target(self):
        spec = self.what_if_spec()
        if spec is not None:
            return Target.from_gpu(spec, gpus=self.what_if_gpus, machine=self.machine)
        return Target.from_machine(self.machine)

    def on_cpu(self) -> bool:
        """The job would run on the CPU (no GPU for training): memory means system RAM."""
        t = self.target()
        return t.gpu is None and t.backend == "cpu"

    def installed_vram_bytes(self) -> int | None:
        """The memory of the GPU compared on (the card's own, before what the system keeps)."""
        spec = self.what_if_spec()
        if spec is not None:
            return spec.vram_bytes
        gpus = self.machine.compute_gpus() if self.machine is not None else ()
        return gpus[0].vram_total_bytes if gpus else None

    def machine_target_name(self) -> str:
        return target_name(Target.from_machine(self.machine))

    def target_name(self) -> str:
        return target_name(self.target())

    def target_text(self) -> str:
        if self.what_if_id is not None:
            return tr("What if: compared on {target} (from the catalog), with this PC's RAM, disks and CPU.",
                      target=self.target_name())
        cpu = self.on_cpu()  # no GPU for training: the processor, said as such
        if self.machine is not None and self.machine.label:
            if cpu:
                return tr("Compared on the processor of the saved scan {label} (no GPU for training).",
                          label=self.machine.label)
            return tr("Compared on {target} (saved scan: {label}).", target=self.target_name(),
                      label=self.machine.label)
        if cpu:
            return tr("Compared on this PC's processor (no GPU for training).")
        return tr("Compared on {target} (this PC).", target=self.target_name())

    def calibrated_text(self) -> str:
        """"Calibrated on this PC, <date>" when the estimates use speeds measured here ("" otherwise)."""
        return target_calibrated_text(self.target())

    # -- estimates and advice (cached) ------------------------------------------------------------
    def estimate(self, workload_id: str):
        if workload_id not in self._estimates:
            self._estimates[workload_id] = estimate(self.effective_workload(workload_id), self.target())
        return self._estimates[workload_id]

    def try_estimate(self, workload_id: str):
        """(Estimate, "") or (None, reason) when this job cannot be estimated (BadInput)."""
        try:
            return self.estimate(workload_id), ""
        except BadInput as e:
            return None, tr("Cannot estimate this job: {reason}", reason=str(e))

    def advice(self, workload_id: str):
        if workload_id not in self._advice:
            w = self.effective_workload(workload_id)
            self._advice[workload_id] = advise(self.machine, w, self.target(), self.estimate(workload_id))
        return self._advice[workload_id]

    def try_advice(self, workload_id: str):
        try:
            return self.advice(workload_id), ""
        except BadInput as e:
            return None, tr("No advice for this job: {reason}", reason=str(e))

    # -- trials: the job measured on this PC ("Try it for real") ---------------------------------------
    def set_trial(self, workload_id: str, result, train=None) -> None:
        """A trial measured the job (ran, or ran out of memory) with `train` (None: the settings now)."""
        self.trials[workload_id] = result
        self._trial_train[workload_id] = train if train is not None else self.train_for(workload_id)
        self._clear_cache()  # the trial calibrated this PC: every job's estimate uses what it measured

    def trial_for(self, workload_id: str):
        """The job's trial, while its settings are the ones measured (None otherwise)."""
        result = self.trials.get(workload_id)
        if result is None or self._trial_train.get(workload_id) != self.train_for(workload_id):
            return None
        return result

    def _measured(self, workload_id: str, est) -> Measured | None:
        trial = self.trial_for(workload_id)
        return None if trial is None else measured_of(trial, self.effective_workload(workload_id), est)

    def measured(self, workload_id: str) -> Measured | None:
        """What the trial measured, as the job's figures show it (None on a what-if GPU: not this PC)."""
        if self.what_if_id is not None:
            return None
        est, _ = self.try_estimate(workload_id)
        return None if est is None else self._measured(workload_id, est)

    def trial_notes(self, except_id: str | None = None) -> list[str]:
        """What trials of other jobs measured of this PC's speed against the estimate (none on a what-if GPU)."""
        if self.what_if_id is not None:
            return []
        notes = []
        for wid in self.trials:
            m = self.measured(wid) if wid != except_id else None
            note = measured_speed_note(m, self.workload_title(self.workload(wid))) if m is not None else ""
            if note:
                notes.append(note)
        return notes

    def figures(self, workload_id: str) -> JobFigures | None:
        """The job's memory and time as every view shows them (gpucheck.report.figures), measured where a
        trial measured them on this PC (gpucheck.report.measured, as the report does)."""
        est, _ = self.try_estimate(workload_id)
        if est is None:
            return None
        adv, _ = self.try_advice(workload_id)
        return apply_measured(job_figures(est, adv, self.installed_vram_bytes()), self.measured(workload_id))

    def verdict(self, workload_id: str) -> str | None:
        """The ladder's verdict: a trial's, else the advice's (it knows "runs with tweaks"), else the estimate's."""
        fig = self.figures(workload_id) if self.measured(workload_id) is not None else None
        if fig is not None:
            return fig.verdict
        adv, _ = self.try_advice(workload_id)
        if adv is not None:
            return adv.verdict
        est, _ = self.try_estimate(workload_id)
        return est.verdict if est is not None else None

    def job_context(self):
        """What the machine page's cards need to tell the jobs page's story (on this PC as scanned)."""
        ids = [w.id for w in self.builtin_workloads()]
        trains = 0
        ram_limited = []
        for wid in ids:
            try:
                est, adv = self.machine_evaluation(wid)
            except BadInput:
                continue
            fig = apply_measured(job_figures(est, adv), self._measured(wid, est))
            v = Verdict.parse(fig.verdict)
            trains += v.can_train and v != Verdict.TOO_SLOW
            if fig.ram_short or (fig.memory == "ram" and not est.on_cpu):
                ram_limited.append(self.workload_title(self.workload(wid)))
        usable = Target.from_machine(self.machine).vram_available_bytes if self.machine is not None else None
        return JobContext(trains=trains, total=len(ids), ram_limited=tuple(ram_limited), usable_vram_bytes=usable)

    def machine_evaluation(self, workload_id: str):
        """(Estimate, Advice) of the job with the user's settings on this PC as scanned (for side by side)."""
        w = self.effective_workload(workload_id)
        key = (workload_id, w.train, w.data, get_language())  # the advice's words are in one language
        if key not in self._machine_cache:
            if self.what_if_id is None and key[-1] == self._estimates_lang:
                self._machine_cache[key] = (self.estimate(workload_id), self.try_advice(workload_id)[0])
            else:
                target = Target.from_machine(self.machine)
                est = estimate(w, target)
                try:
                    adv = advise(self.machine, w, target, est)
                except BadInput:
                    adv = None
                self._machine_cache[key] = (est, adv)
        return self._machine_cache[key]

    def machine_figures(self, workload_id: str) -> JobFigures:
        est, adv = self.machine_evaluation(workload_id)
        gpus = self.machine.compute_gpus() if self.machine is not None else ()
        return apply_measured(job_figures(est, adv, gpus[0].vram_total_bytes if gpus else None),
                              self._measured(workload_id, est))

    # -- report -------------------------------------------------------------------------------------
    def report_evaluations(self, only_selected: bool) -> tuple:
        """Every job with the user's settings, on this PC (a what-if GPU is not this PC). Every job has its
        advice (the ladder's verdicts are the advice's, as in the app); `detailed` picks the sections."""
        out = []
        for w in self.workloads():
            try:
                est, adv = self.machine_evaluation(w.id)
            except BadInput:
                continue
            detailed = (not only_selected) or w.id == self.selected_id
            out.append(Evaluation(workload=self.effective_workload(w.id), estimate=est, advice=adv,
                                  detailed=detailed, trial=self.trial_for(w.id)))
        return tuple(out)

    def report_model(self, only_selected: bool = False, include_ids: bool = False, lang: str | None = None):
        return build_report(self.machine, lang=lang or get_language(), include_ids=include_ids,
                            evaluations=self.report_evaluations(only_selected))

    def save_report(self, path: str, only_selected: bool = False, include_ids: bool = False):
        """Write the report (format from the extension). BadInput: unknown type, unwritable folder…"""
        check_writable(path)
        return write_report(self.report_model(only_selected, include_ids), path)


def target_name(target) -> str:
    name = target.device_name
    if name == "CPU":
        return tr("this PC's CPU")
    if target.gpus > 1:
        return tr("{n} × {gpu}", n=target.gpus, gpu=name)
    return name
