"""`gpucheck calibrate`: a short set of real steps on this PC whose measured rates every later estimate uses.

Three probes (resources/calibration/*.toml) cover the three kinds of kernels the estimates model: a
convolutional network (ResNet-18, CIFAR variant), two BERT-base transformer layers and a narrow Stable
Diffusion U-Net. Each runs through the trial's own runner in a child process of the user's Python
(gpucheck/trial/runner.py, unchanged), for a third of `max_seconds` of timed steps after one warm-up
step. Each measured step is saved beside the uncalibrated estimate of the same step on the same device
(gpucheck/estimate/calibration.py), and so is every `gpucheck trial` that ran (`record_trial`).

The trial's precision is the estimate's: on a CPU without native bf16 both use fp32 (`trial_workload`).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from gpucheck.catalog import load_workload_file
from gpucheck.choices import OPTIMIZER_IMPLS
from gpucheck.estimate import Target, estimate
from gpucheck.estimate.calibration import (
    Calibration,
    Sample,
    calibration_for,
    fit,
    model_version,
    save_samples,
    today,
)
from gpucheck.i18n import tr
from gpucheck.records import Workload
from gpucheck.resources import resource_path
from gpucheck.trial.child import find_pythons, resolve_python, run_child
from gpucheck.trial.models import job_spec, runs_channels_last

PROBES = ("conv", "transformer", "unet")
DEFAULT_MAX_SECONDS = 45.0
MAX_SECONDS = 90.0  # real steps, all probes together
SETUP_ALLOWANCE_S = 120.0  # per probe: starting PyTorch, building the model, the warm-up step
# gpucheck judgement: a probe whose threads ran less than 70 % of its wall-clock steps shared the cores with other
# programs (the runner's CPU seconds per step and thread ÷ step seconds; about 0.9-1.0 on an idle PC)
BUSY_SHARE = 0.7
# gpucheck judgement: other programs using 30 % or more of the CPU (psutil.cpu_percent over half a second, before a
# probe starts) leave a probe's threads less than BUSY_SHARE of the cores
BUSY_PERCENT = 30.0
BUSY_SAMPLE_S = 0.5


def probe_workloads() -> list[tuple[str, Workload]]:
    return [(name, load_workload_file(resource_path("calibration", f"{name}.toml"))) for name in PROBES]


# -- the estimate's device and precision -----------------------------------------------------------


def _on_cpu(machine: Any, device: str) -> bool:
    if device == "cpu":
        return True
    return device in ("auto", "") and machine is not None and not machine.compute_gpus()


def raw_target(machine: Any, device_kind: str) -> Target:
    """The uncalibrated estimate's target for a step measured on `device_kind` (cpu | cuda | mps | …)."""
    if device_kind == "cpu" or not machine.compute_gpus():
        t = Target.from_machine(dataclasses.replace(machine, gpus=()))
    else:
        t = Target.from_machine(machine, gpus=1)
    return dataclasses.replace(t, calibration=None)


def trial_workload(workload: Workload, machine: Any, device: str = "auto") -> Workload:
    """The job as the estimate trains it on the CPU: the precision the estimate uses there (fp32 on a CPU
    without native bf16), so that the trial measures what was estimated. A trial feeds tensors made on the device,
    so the job is estimated without the host's input path (an audio job's features, the DataLoader workers' starts:
    estimate/input_path.py). The trial runs PyTorch / PEFT code, not Unsloth's: a job set to Unsloth is measured and
    estimated on the Hugging Face stack, and so is a job set to a compiled or fused stack (the runner trains eager
    PyTorch, with the library's own loss). A vision-language model is tried, and estimated, as its decoder alone. The
    runner's loop is a plain one (train.loop "plain": ready batches, no framework's per-step work), and so is the
    estimate's: a trial prices the Trainer's per-step cost on no job, so a calibration's host factor measures how fast
    this PC launches the operators, not which loop a job uses. The runner trains torchvision's conv nets on
    channels_last maps, and the estimate says so (a CPU prices NCHW max pooling apart: estimate/cpu_conv.py)."""
    if workload.train.loop != "plain":
        workload = dataclasses.replace(workload, train=dataclasses.replace(workload.train, loop="plain"))
    if workload.train.feature_extraction or workload.train.loader_start:
        workload = dataclasses.replace(workload, train=dataclasses.replace(
            workload.train, feature_extraction="", loader_start=""))
    if workload.model.arch == "transformer" and workload.model.aux_params:
        # a vision-language model (Gemma 3 from 4B, Mistral Small 3): the trial builds its decoder alone (trial/models.py:
        # a config.json's text_config, or the built-in job's decoder-only recipe), so its image side is not estimated
        workload = dataclasses.replace(workload, model=dataclasses.replace(workload.model, aux_params=0.0))
    if workload.train.stack != "eager" or workload.train.cross_entropy:
        # the runner trains in plain eager PyTorch with the library's own loss (no torch.compile, no llm.c or Unsloth
        # kernels, no fused cross-entropy): a job set to another stack is measured, and estimated, as eager
        workload = dataclasses.replace(workload, train=dataclasses.replace(workload.train, stack="eager",
                                                                           cross_entropy=""))
    if not workload.train.channels_last and runs_channels_last(workload, device):
        workload = dataclasses.replace(workload, train=dataclasses.replace(workload.train, channels_last=True))
    if machine is None or not _on_cpu(machine, device):
        return workload
    est = estimate(workload, raw_target(machine, "cpu"))
    if est.precision_used and est.precision_used != workload.train.precision:
        return dataclasses.replace(workload, train=dataclasses.replace(workload.train, precision=est.precision_used))
    return workload


# -- samples ---------------------------------------------------------------------------------------


def cpu_share(measured: dict[str, Any]) -> float | None:
    """On the CPU: the share of the wall-clock step the runner's threads were running (CPU seconds per step and
    thread ÷ step seconds); well below 1, other programs were using the cores. None on a GPU or without figures."""
    cpu, wall = measured.get("cpu_seconds_per_step_per_thread"), measured.get("step_seconds")
    if measured.get("device_kind") != "cpu" or not cpu or not wall:
        return None
    return min(1.0, cpu / wall)


def idle_step_seconds(measured: dict[str, Any]) -> float | None:
    """The measured step as this PC runs it when nothing else is: the median wall-clock step, except on a CPU whose
    threads ran less than BUSY_SHARE of it (other programs had the cores). There one thread's CPU seconds per step
    are what the step costs a core (on the 2-core build machines under load, wall-clock steps grew 2-30×, one
    thread's CPU seconds by at most 20 %: benchmarks/bench_calibration.py), but several threads' are not: after
    every parallel region they wait for each other at a barrier, spinning on the CPU while a partner is pre-empted,
    so their CPU seconds grow with the load too (benchmarks/data/busy-threads.json: a CIFAR ResNet-18 step beside two
    busy loops, one thread's CPU seconds 0.78 against 0.81 idle, two threads' 3.00 per thread against 0.43 idle).
    None there: this step does not tell what the PC does when it is idle."""
    share = cpu_share(measured)
    if share is not None and share < BUSY_SHARE:
        if int(measured.get("threads") or 1) > 1:
            return None
        return float(measured["cpu_seconds_per_step_per_thread"])
    wall = measured.get("step_seconds")
    return float(wall) if wall else None


def busy_note(measured: dict[str, Any] | None) -> str:
    """What a trial on a busy CPU means for its figures ("" when the PC was not busy or the step ran on a GPU)."""
    share = cpu_share(measured or {})
    if share is None or share >= BUSY_SHARE:
        return ""
    if idle_step_seconds(measured or {}) is None:
        return tr("Other programs had the processor during the timed steps (the trial's threads ran about {n} % of "
                  "the time): this PC is faster than measured, and this trial was not used to calibrate it; close "
                  "other programs and run it again", n=f"{share * 100:.0f}")
    return tr("Other programs had the processor during the timed steps (the trial's thread ran about {n} % of the "
              "time): this PC is faster than measured; its calibration uses the processor time the steps took",
              n=f"{share * 100:.0f}")


def optimizer_note(measured: dict[str, Any] | None) -> str:
    """What a trial whose optimizer ran PyTorch's per-tensor loop means ("" otherwise): that PyTorch has no fused
    step for the device (or the job asked for the loop), and the estimate beside it prices the same step."""
    if (measured or {}).get("optimizer_impl") != "single":
        return ""
    return tr("The optimizer stepped PyTorch's per-tensor loop, slower than a fused step; the estimate prices the "
              "same step")


def others_busy() -> bool:
    """Other programs are using a good share of this PC's CPU now (a probe started now would not have the cores)."""
    try:
        return float(psutil.cpu_percent(interval=BUSY_SAMPLE_S)) >= BUSY_PERCENT
    except Exception:  # noqa: BLE001 — no reading: treated as idle, and the probe's own share still tells
        return False


def as_run(workload: Workload, measured: Mapping[str, Any], *, keep_batch: bool = False) -> Workload:
    """The job as the trial ran it: the micro-batch it measured (a batch search may have lowered it; kept with
    keep_batch) and the optimizer step its PyTorch ran (the runner steps the way the estimate prices, a fused step
    where this PyTorch has one on the device, else torch's own default: the per-tensor loop on a CPU, foreach on
    CUDA)."""
    t = workload.train
    batch = t.batch if keep_batch else int(measured.get("batch") or t.batch)
    impl = measured.get("optimizer_impl")
    impl = impl if impl in OPTIMIZER_IMPLS else t.optimizer_impl
    if batch == t.batch and impl == t.optimizer_impl:
        return workload
    return dataclasses.replace(workload, train=dataclasses.replace(t, batch=batch, optimizer_impl=impl))


def as_fed(workload: Workload) -> Workload:
    """The job as the runner feeds it: every row one sequence of seq_len random tokens under a causal mask over the
    whole row (trial/runner.py makes its batches so), one shape every step. A job whose samples are shorter is
    estimated on them (their mean length, or, packed, attention spanning one sample, estimate/core.py _speed), and a
    run of changing shapes leaves blocks cached: the step and the memory the trial measures are the full rows'."""
    t = workload.train
    if workload.model.arch != "transformer" or not t.seq_len:
        return workload
    return dataclasses.replace(workload, train=dataclasses.replace(t, packing=False),
                               data=dataclasses.replace(workload.data, avg_seq_len=t.seq_len))


def sample_for(workload: Workload, measured: dict[str, Any], machine: Any, *, key: str,
               source: str) -> Sample | None:
    """A measured step beside the uncalibrated estimate of the same step (same batch, same device)."""
    step = idle_step_seconds(measured)
    if machine is None or not step or step <= 0:
        return None
    kind = str(measured.get("device_kind") or "cpu")
    target = raw_target(machine, kind)
    threads = int(measured.get("threads") or 0)
    if kind == "cpu" and threads and threads < (target.cpu_cores or threads):
        target = dataclasses.replace(target, cpu_cores=threads)  # the step ran on that many cores
    est = estimate(as_fed(as_run(workload, measured)), target)
    if est.step_seconds is None or est.host_step_seconds is None:
        return None
    host = float(est.host_step_seconds)
    work = max(0.0, float(est.step_seconds) - host)
    return Sample(key=key, family=workload.model.arch, device=target.device_name, measured_step_s=float(step),
                  work_s=work, host_s=host, memory_s=work * float(est.work_memory_share or 0.0),
                  flops_per_step=float(est.flops_per_sample or 0.0) * est.train.batch, on=today(), source=source,
                  model=model_version())


def trial_key(workload: Workload) -> str:
    t = workload.train
    size = f"seq={t.seq_len}" if workload.model.arch == "transformer" else f"image={t.image_size}"
    return (f"trial:{workload.id} method={t.method} precision={t.precision} optimizer={t.optimizer} "
            f"batch={t.batch} {size} checkpointing={t.grad_checkpointing}")


def record_trial(workload: Workload, outcome: str, measured: dict[str, Any] | None, machine: Any) -> Path | None:
    """Feed a trial that ran into this machine's calibration (never raises: a trial is not lost for it)."""
    if outcome != "ran" or not measured:
        return None
    try:
        s = sample_for(workload, measured, machine, key=trial_key(workload), source="trial")
        return save_samples(machine, [s]) if s is not None else None
    except Exception:  # noqa: BLE001 — an unwritable data folder costs the calibration, not the trial
        return None


# -- gpucheck calibrate ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ProbeResult:
    probe: str
    family: str
    outcome: str  # ran | busy (other programs had the CPU: not used) | out_of_memory | missing_library | timed_out | failed
    message: str = ""
    device: str | None = None
    measured_step_seconds: float | None = None
    estimated_step_seconds: float | None = None  # uncalibrated
    steps: int | None = None
    missing: str | None = None
    measured: dict[str, Any] | None = None  # the runner's figures, as it reported them

    @property
    def ratio(self) -> float | None:
        m, e = self.measured_step_seconds, self.estimated_step_seconds
        return round(m / e, 3) if m and e else None

    @property
    def cpu_share(self) -> float | None:
        share = cpu_share(self.measured or {})
        return None if share is None else round(share, 3)

    def to_json(self) -> dict[str, Any]:
        return dict(dataclasses.asdict(self), ratio=self.ratio, cpu_share=self.cpu_share)


@dataclass(frozen=True)
class CalibrationRun:
    outcome: str  # ran (at least one probe measured) | missing_library | failed
    message: str
    python: str | None = None
    probes: tuple[ProbeResult, ...] = ()
    calibration: Calibration | None = None
    saved_to: str | None = None
    save_error: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def exit_code(self) -> int:
        if self.outcome == "ran":
            return 0
        return 3

    @property
    def busy_share(self) -> float | None:
        """The lowest share of the CPU a probe's steps had (None: not on the CPU); below BUSY_SHARE the PC was
        busy with other programs and the calibration is slower than this PC is."""
        shares = [p.cpu_share for p in self.probes if p.cpu_share is not None]
        return min(shares) if shares else None

    def to_json(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "message": self.message, "python": self.python,
                "probes": [p.to_json() for p in self.probes],
                "calibrated": None if self.calibration is None else self.calibration.to_json(),
                "saved_to": self.saved_to, "save_error": self.save_error, "busy_share": self.busy_share}


# On a GPU the probes run at their written batches, where a fast GPU's step is the processor's (launches, Python) and
# calibrates the host alone. From 2026-12-04 (39f85e6) to the same day's two later H200 runs, a probe's batch doubled
# until the estimate put 3/4 of its step on the GPU (32 / 4 / 4 became 512 / 256 / 512): those probes' errors were the
# model's for three small synthetic nets, not the GPU's, and did not carry to the jobs. Replayed against the 14 trials
# recorded on H200s (tests/fixtures/recorded/h200*), each estimated with the runner's plain loop, their calibration
# (conv nets x0.61, transformers x0.79, U-Nets x1.17, host x0.83) put 9 within 1.35x of the measured step (median
# 1.29x); the written batches' (host x0.72) put 11 (median 1.23x); uncalibrated, 11 (median 1.11x): on that GPU the
# model alone did best (tests/core/test_calibration.py).


def _probe(name: str, w: Workload, python: str, budget: float, machine: Any, device: str,
           on_event: Callable[[dict[str, Any]], None] | None,
           cancel: threading.Event | None) -> tuple[ProbeResult, Sample | None]:
    w = trial_workload(w, machine, device)
    spec = job_spec(w, steps=None, max_seconds=budget, device=device, search_batch=False)
    if machine is not None and _on_cpu(machine, device) and others_busy():
        spec["threads"] = 1  # one thread's CPU seconds hold on a busy PC, several threads' do not (idle_step_seconds)

    def relay(ev: dict[str, Any]) -> None:
        if on_event is not None:
            on_event(dict(ev, probe=name))

    raw = run_child(python, spec, hard_cap_s=budget + SETUP_ALLOWANCE_S, on_event=relay, cancel=cancel)
    outcome = str(raw.get("outcome") or "failed")
    measured = raw.get("measured") or {}
    if outcome != "ran" or not measured.get("step_seconds"):
        msg = " ".join(str(raw.get("message") or raw.get("reason") or "").split())
        return ProbeResult(probe=name, family=w.model.arch, outcome=outcome if outcome != "ran" else "failed",
                           message=msg, missing=raw.get("missing")), None
    share, step = cpu_share(measured), idle_step_seconds(measured)
    if step is None and share is not None:  # several threads on a busy PC: not usable
        return ProbeResult(probe=name, family=w.model.arch, outcome="busy", message=tr(
            "other programs had the processor during its steps (its threads ran about {n} % of the time), so "
            "it was not used", n=f"{share * 100:.0f}"), steps=measured.get("steps"), measured=dict(measured)), None
    s = sample_for(w, measured, machine, key=f"calibrate:{name}", source="calibrate")
    return ProbeResult(probe=name, family=w.model.arch, outcome="ran", device=s.device if s else None,
                       measured_step_seconds=step,
                       estimated_step_seconds=s.estimated_step_s if s else None,
                       steps=measured.get("steps"), measured=dict(measured)), s


def run_calibration(machine: Any, *, python: str | None = None, max_seconds: float = DEFAULT_MAX_SECONDS,
                    device: str = "auto", on_event: Callable[[dict[str, Any]], None] | None = None,
                    cancel: threading.Event | None = None) -> CalibrationRun:
    """Run the three probes in the user's Python, save what they measured for this machine, and return it."""
    if python is None:
        found = find_pythons(machine)
        if not found:
            return CalibrationRun(outcome="missing_library", message=tr(
                "No Python with PyTorch was found on this PC; give one with --python PATH"))
        python = found[0]
    python = resolve_python(python)
    budget = min(float(max_seconds), MAX_SECONDS) / len(PROBES)
    results: list[ProbeResult] = []
    samples: list[Sample] = []
    for name, w in probe_workloads():
        if cancel is not None and cancel.is_set():
            break
        res, s = _probe(name, w, python, budget, machine, device, on_event, cancel)
        results.append(res)
        if s is not None:
            samples.append(s)
        if res.outcome == "missing_library" and res.missing == "torch":
            break  # no PyTorch in that Python: the other probes would say the same
    return _finish(machine, python, results, samples)


def _finish(machine: Any, python: str, results: list[ProbeResult], samples: list[Sample]) -> CalibrationRun:
    if not samples:
        first = next((r for r in results if r.outcome == "missing_library"), None)
        if first is not None:
            return CalibrationRun(outcome="missing_library", python=python, probes=tuple(results), message=tr(
                "{module} is not installed in {python}", module=first.missing or "torch", python=python))
        busy = [r.cpu_share for r in results if r.outcome == "busy" and r.cpu_share is not None]
        if busy:
            return CalibrationRun(outcome="failed", python=python, probes=tuple(results), message=tr(
                "This PC was busy while it was measured (the steps had about {n} % of the processor): close other "
                "programs and run gpucheck calibrate again", n=f"{min(busy) * 100:.0f}"))
        why = next((r.message for r in results if r.message), "")
        return CalibrationRun(outcome="failed", python=python, probes=tuple(results),
                              message=tr("Nothing could be measured: {why}", why=why or tr("unknown error")))
    saved, error = None, None
    try:
        path = save_samples(machine, samples, replace_source="calibrate")
        saved = str(path) if path else None
        if path is None:
            error = tr("this PC's CPU could not be identified, so the calibration cannot be kept for it")
    except OSError as e:
        error = tr("could not save the calibration: {error}", error=f"{type(e).__name__}: {e}")
    device = samples[0].device
    cal = calibration_for(machine, device) if saved else fit(samples, device)
    return CalibrationRun(outcome="ran", python=python, probes=tuple(results), calibration=cal, saved_to=saved,
                          save_error=error, message=tr("Calibrated on this PC, {date}", date=cal.on if cal else today()))
