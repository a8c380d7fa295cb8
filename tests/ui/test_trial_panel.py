"""The "Try it for real" panel on the details page: progress while it runs, the measured figures beside
the estimate when done, and Cancel that stops it (the trial itself is replaced by a stand-in here;
tests/core/test_trial_torch.py runs real ones)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from gpucheck.catalog import get_workload
from gpucheck.trial import TrialResult
from gpucheck.ui.widgets.trial_panel import TrialPanel

MEASURED = TrialResult(
    workload="mnist-cnn", outcome="ran", message="Measured on this PC", python="/usr/bin/python3",
    libraries={"torch": "2.14.1"},
    measured={"step_seconds": 0.0626, "samples_per_second": 1022.0, "peak_memory_gib": 0.75, "device": "CPU",
              "steps": 40, "batch": 64, "total_hours": 0.23},
    estimated={"step_seconds": 0.023, "samples_per_second": 2787.0, "peak_memory_gib": 1.91, "memory_kind": "ram"})


def _fake(result, started=None, release=None):
    def run(workload, machine=None, on_event=None, cancel=None, max_seconds=30):
        on_event({"event": "phase", "phase": "warmup"})
        on_event({"event": "phase", "phase": "timing", "step": 3, "elapsed_s": 15, "max_seconds": 30})
        if started is not None:
            started.set()
        if release is not None:
            while not (release.is_set() or cancel.is_set()):
                cancel.wait(0.02)
            if cancel.is_set():
                return TrialResult(workload=workload.id, outcome="failed", cannot_run=True,
                                   message="Cancelled; the trial's processes were stopped")
        return result
    return run


def test_measured_figures_appear_beside_the_estimate(qtbot):
    panel = TrialPanel(run_fn=_fake(MEASURED))
    qtbot.addWidget(panel)
    panel.set_job(get_workload("mnist-cnn"), None)
    assert panel.run_button.text() == "Try it for real (30 s of training steps)"
    with qtbot.waitSignal(panel.measured, timeout=5000) as got:
        panel.run_button.click()
    assert got.args[0] is MEASURED
    qtbot.waitUntil(lambda: not panel.is_running(), timeout=5000)
    assert "Measured on this PC" in panel.status.text()
    cells = [[panel.table.item(r, c).text() for c in range(4)] for r in range(panel.table.rowCount())]
    assert cells[1] == ["Samples per second", "1,022.00", "2,787.00", "×0.37"]
    assert cells[2][0] == "Peak RAM (GiB)"
    assert panel.run_button.isEnabled() and not panel.cancel_button.isVisible()


def test_cancel_stops_a_running_trial(qtbot):
    started, release = threading.Event(), threading.Event()
    panel = TrialPanel(run_fn=_fake(MEASURED, started, release))
    qtbot.addWidget(panel)
    panel.show()
    panel.set_job(get_workload("mnist-cnn"), None)
    panel.run_button.click()
    assert started.wait(5)
    qtbot.waitUntil(lambda: panel.bar.value() > 22, timeout=5000)  # the timing progress arrived
    assert panel.cancel_button.isVisible() and not panel.run_button.isEnabled()
    panel.cancel_button.click()
    qtbot.waitUntil(lambda: not panel.is_running(), timeout=5000)
    assert "Cancelled" in panel.status.text() and not panel.table.isVisible()
    release.set()


def test_the_last_measurement_of_a_job_stays_with_its_settings(qtbot):
    panel = TrialPanel(run_fn=_fake(MEASURED))
    qtbot.addWidget(panel)
    w = get_workload("mnist-cnn")
    panel.set_job(w, None)
    with qtbot.waitSignal(panel.measured, timeout=5000):
        panel.run_button.click()
    qtbot.waitUntil(lambda: not panel.is_running(), timeout=5000)
    panel.set_job(get_workload("cifar10-resnet18"), None)
    assert panel.status.text() == ""
    panel.set_job(w, None)
    assert "Measured on this PC" in panel.status.text()


def test_the_progress_names_its_phase_and_never_sits_at_100_percent(qtbot):
    """Warm-up, timing (with the seconds left of the timed steps), then "finishing" as a busy bar while the
    child reads its memory and closes: the time shown holds, and the bar is never full while work goes on."""
    step, release = threading.Event(), threading.Event()
    seen: list[str] = []

    def run(workload, machine=None, on_event=None, cancel=None, max_seconds=30):
        for ev in ({"phase": "starting"}, {"phase": "warmup"},
                   {"phase": "timing", "step": 3, "elapsed_s": 12, "max_seconds": 30},
                   {"phase": "timing", "step": 9, "elapsed_s": 30.4, "max_seconds": 30}):
            step.clear()  # before the event: the test may answer it before this thread runs again
            on_event(dict(ev, event="phase"))
            step.wait(5)
        release.wait(5)
        return MEASURED

    panel = TrialPanel(run_fn=run)
    qtbot.addWidget(panel)
    panel.show()
    panel.set_job(get_workload("mnist-cnn"), None)
    panel.run_button.click()
    for want in ("Step 1 of 4", "Step 2 of 4 — one warm-up step", "Step 3 of 4 — timing training steps: step 3, "
                 "about 18 s left", "Step 4 of 4 — finishing"):
        qtbot.waitUntil(lambda w=want: w in panel.phase_line.text(), timeout=5000)
        seen.append(panel.phase_line.text())
        if "finishing" in want:
            assert panel.bar.maximum() == 0  # busy, not a full bar
        else:
            assert panel.bar.value() < 90
        step.set()
    release.set()
    qtbot.waitUntil(lambda: not panel.is_running(), timeout=5000)
    assert not panel.phase_line.isVisible()
    assert all("s so far" in line for line in seen)
    # the next time, the panel says how long a trial took here in all (start to result): a time that holds
    assert panel.last_total_s is not None
    assert panel.intro.text().endswith(f"The last trial on this PC took {panel.last_total_s:.0f} s in all.")


def test_pressing_try_it_keeps_the_keyboard_in_the_panel(qtbot):
    """Run is greyed out while the trial runs: the focus moves to Cancel beside it (not down the page), and
    back to Run when it is done."""
    release = threading.Event()
    panel = TrialPanel(run_fn=_fake(MEASURED, release=release))
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_job(get_workload("mnist-cnn"), None)
    panel.run_button.setFocus()
    qtbot.keyClick(panel.run_button, " ")
    qtbot.waitUntil(lambda: panel.cancel_button.isVisible(), timeout=5000)
    assert panel.focusWidget() is panel.cancel_button
    release.set()
    qtbot.waitUntil(lambda: not panel.is_running(), timeout=5000)
    assert panel.focusWidget() is panel.run_button


def test_a_trial_on_a_busy_cpu_says_the_pc_is_faster_than_measured(qtbot):
    """The recorded BERT trial on the build machine while other work ran (2 threads, 39 % of the step): the panel
    shows what it measured and says that this PC is faster and that the trial was not used to calibrate it."""
    rec = Path(__file__).resolve().parents[1] / "fixtures" / "recorded" / "calibration" / \
        "trials-epyc-zen5-2026-12-01.json"
    measured = next(t["measured"] for t in json.loads(rec.read_text(encoding="utf-8"))["trials"]
                    if t["workload"] == "bert-base-finetune")
    busy = TrialResult(workload="bert-base-finetune", outcome="ran", message="Measured on this PC",
                       python="/usr/bin/python3", libraries={"torch": "2.14.1"}, measured=measured,
                       estimated={"step_seconds": 2.0, "samples_per_second": 4.0, "peak_memory_gib": 3.8,
                                  "memory_kind": "ram"})
    panel = TrialPanel(run_fn=_fake(busy))
    qtbot.addWidget(panel)
    panel.set_job(get_workload("bert-base-finetune"), None)
    with qtbot.waitSignal(panel.measured, timeout=5000):
        panel.run_button.click()
    qtbot.waitUntil(lambda: not panel.is_running(), timeout=5000)
    text = panel.status.text()
    assert "Other programs had the processor" in text and "about 39 %" in text
    assert "this PC is faster than measured" in text and "not used to calibrate" in text


def test_a_trial_that_ran_the_slow_optimizer_loop_says_so(qtbot):
    """A PyTorch without a fused optimizer step for the device (PyTorch before 2.4 on a CPU) runs its per-tensor loop:
    the panel says so under the figures, as the command line does."""
    loop = TrialResult(workload="mnist-cnn", outcome="ran", message="Measured on this PC", python="/usr/bin/python3",
                       libraries={"torch": "2.3.1"}, measured=dict(MEASURED.measured, optimizer_impl="single"),
                       estimated=MEASURED.estimated)
    for result, said in ((loop, True), (MEASURED, False)):
        panel = TrialPanel(run_fn=_fake(result))
        qtbot.addWidget(panel)
        panel.set_job(get_workload("mnist-cnn"), None)
        with qtbot.waitSignal(panel.measured, timeout=5000):
            panel.run_button.click()
        qtbot.waitUntil(lambda p=panel: not p.is_running(), timeout=5000)
        assert ("per-tensor loop" in panel.status.text()) == said
