"""What the pages share: the machine, the jobs (built-in + imported), per-job settings, the what-if GPU,
and the estimates and advice for them (cached). No Qt and no arithmetic: every figure comes from
gpucheck.estimate / gpucheck.advise; catalogs are read on first use, never at start-up."""

from __future__ import annotations

from gpucheck.i18n import get_language, localized, tr


class Session:
    def __init__(self):
        self.machine = None
        self.custom: list = []  # imported Workloads, in import order
        self.overrides: dict[str, object] = {}  # workload id → TrainSpec the user edited
        self.selected_id: str | None = None
        self.what_if_id: str | None = None  # catalog GPU id, None = this PC
        self.what_if_gpus = 1  # how many of the what-if GPU
        self._estimates: dict = {}
        self._advice: dict = {}

    # -- state changes ----------------------------------------------------------------------------
    def _clear_cache(self) -> None:
        self._estimates.clear()
        self._advice.clear()

    def set_machine(self, machine) -> None:
        self.machine = machine
        self.what_if_id = None
        self.what_if_gpus = 1
        self._clear_cache()

    def reset(self) -> None:
        """Start over: keep the machine (the scan is still true), forget choices."""
        self.custom.clear()
        self.overrides.clear()
        self.selected_id = None
        self.what_if_id = None
        self.what_if_gpus = 1
        self._clear_cache()

    def language_changed(self) -> None:
        # advice and estimate notes are rendered in the language active when they were made
        self._clear_cache()

    def set_what_if(self, gpu_id: str | None, gpus: int | None = None) -> None:
        self.what_if_id = gpu_id
        if gpus is not None:
            self.what_if_gpus = gpus
        self._clear_cache()

    # -- jobs -------------------------------------------------------------------------------------
    def builtin_workloads(self) -> tuple:
        from gpucheck.catalog import load_workloads

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
        from gpucheck.catalog import get_workload

        w = get_workload(path)
        self.custom = [c for c in self.custom if c.id != w.id]
        if any(b.id == w.id for b in self.builtin_workloads()):
            import dataclasses

            w = dataclasses.replace(w, id=f"{w.id}-custom")
        self.custom.append(w)
        return w

    def default_selection(self) -> str | None:
        """The hardest job that runs as it is, else the first one."""
        ws = self.workloads()
        best = None
        for w in ws:
            est, _ = self.try_estimate(w.id)
            if est is not None and est.verdict == "runs":
                best = w.id
        return best or (ws[0].id if ws else None)

    # -- settings ---------------------------------------------------------------------------------
    def train_for(self, workload_id: str):
        return self.overrides.get(workload_id) or self.workload(workload_id).train

    def set_train(self, workload_id: str, train) -> None:
        if train == self.workload(workload_id).train:
            self.overrides.pop(workload_id, None)
        else:
            self.overrides[workload_id] = train
        self._estimates.pop(workload_id, None)
        self._advice.pop(workload_id, None)

    def reset_train(self, workload_id: str) -> None:
        self.overrides.pop(workload_id, None)
        self._estimates.pop(workload_id, None)
        self._advice.pop(workload_id, None)

    def effective_workload(self, workload_id: str):
        import dataclasses

        w = self.workload(workload_id)
        t = self.overrides.get(workload_id)
        return dataclasses.replace(w, train=t) if t is not None else w

    # -- GPUs -------------------------------------------------------------------------------------
    def gpu_catalog(self) -> tuple:
        try:
            from gpucheck.catalog import load_gpus

            return load_gpus()
        except Exception:  # no catalog: the picker just lists this PC
            return ()

    def what_if_spec(self):
        if self.what_if_id is None:
            return None
        for g in self.gpu_catalog():
            if g.id == self.what_if_id:
                return g
        return None

    def target(self):
        from gpucheck.estimate import Target

        spec = self.what_if_spec()
        if spec is not None:
            return Target.from_gpu(spec, gpus=self.what_if_gpus, machine=self.machine)
        return Target.from_machine(self.machine)

    def on_cpu(self) -> bool:
        """The job would run on the CPU (no GPU for training): memory means system RAM."""
        t = self.target()
        return t.gpu is None and t.backend == "cpu"

    def memory_need_have(self, est) -> tuple[int | None, int | None, bool]:
        """(need, have, is_ram) for the memory bars: VRAM per GPU, or system RAM on the CPU."""
        if self.on_cpu():
            return est.ram_bytes, est.extra.get("ram_total_bytes"), True
        return est.peak_vram_bytes, est.vram_available_bytes, False

    def machine_target_name(self) -> str:
        from gpucheck.estimate import Target

        return target_name(Target.from_machine(self.machine))

    def target_name(self) -> str:
        return target_name(self.target())

    def target_text(self) -> str:
        if self.what_if_id is not None:
            return tr("What if: compared on {target} (from the catalog), with this PC's RAM, disks and CPU.",
                      target=self.target_name())
        if self.machine is not None and self.machine.label:
            return tr("Compared on {target} (saved scan: {label}).", target=self.target_name(),
                      label=self.machine.label)
        return tr("Compared on {target} (this PC).", target=self.target_name())

    # -- estimates and advice (cached) ------------------------------------------------------------
    def estimate(self, workload_id: str):
        if workload_id not in self._estimates:
            from gpucheck.estimate import estimate

            self._estimates[workload_id] = estimate(self.effective_workload(workload_id), self.target())
        return self._estimates[workload_id]

    def try_estimate(self, workload_id: str):
        """(Estimate, "") or (None, reason) when this job cannot be estimated (BadInput)."""
        from gpucheck.errors import BadInput

        try:
            return self.estimate(workload_id), ""
        except BadInput as e:
            return None, tr("Cannot estimate this job: {reason}", reason=str(e))

    def advice(self, workload_id: str):
        if workload_id not in self._advice:
            from gpucheck.advise import advise

            w = self.effective_workload(workload_id)
            self._advice[workload_id] = advise(self.machine, w, self.target(), self.estimate(workload_id))
        return self._advice[workload_id]

    def try_advice(self, workload_id: str):
        from gpucheck.errors import BadInput

        try:
            return self.advice(workload_id), ""
        except BadInput as e:
            return None, tr("No advice for this job: {reason}", reason=str(e))

    # -- report -------------------------------------------------------------------------------------
    def verdict(self, workload_id: str) -> str | None:
        """The ladder's verdict: the advice's (it knows "runs with tweaks"), else the estimate's."""
        adv, _ = self.try_advice(workload_id)
        if adv is not None:
            return adv.verdict
        est, _ = self.try_estimate(workload_id)
        return est.verdict if est is not None else None

    def report_evaluations(self, only_selected: bool) -> tuple:
        """Every job with the user's settings, on this PC (a what-if GPU is not this PC)."""
        from gpucheck import estimate as est_mod
        from gpucheck.advise import advise
        from gpucheck.report.model import Evaluation

        target = est_mod.Target.from_machine(self.machine)
        out = []
        for w in self.workloads():
            wl = self.effective_workload(w.id)
            est = est_mod.estimate(wl, target)
            detailed = (not only_selected) or w.id == self.selected_id
            adv = advise(self.machine, wl, target, est) if detailed else None
            out.append(Evaluation(workload=wl, estimate=est, advice=adv, detailed=detailed))
        return tuple(out)

    def save_report(self, path: str, only_selected: bool = False, include_ids: bool = False):
        """Write the report (format from the extension). BadInput: unknown type, unwritable folder…"""
        from gpucheck.report import build_report, check_writable, write_report

        check_writable(path)
        model = build_report(self.machine, lang=get_language(), include_ids=include_ids,
                             evaluations=self.report_evaluations(only_selected))
        return write_report(model, path)


def target_name(target) -> str:
    name = target.device_name
    if name == "CPU":
        return tr("the CPU only (no GPU for training)")
    if target.gpus > 1:
        return tr("{n} × {gpu}", n=target.gpus, gpu=name)
    return name
