"""After a trial on this PC, the app's estimates for every job use what it measured and say so: "Calibrated on
this PC, <date>" on the jobs page and on the details page (the recorded MNIST trial of the CPU-only VM,
tests/fixtures/trial/results/README.md)."""

from __future__ import annotations

import json

from gpucheck.catalog import get_workload
from gpucheck.machine import Machine
from gpucheck.trial.calibrate import record_trial
from tests.conftest import FIXTURES
from tests.ui.conftest import machine_path

RAN = FIXTURES / "trial" / "results" / "mnist-cnn-ran-cpu.json"


def _open(wizard) -> None:
    assert wizard.open_machine_file(str(machine_path("cpu-only-vm")))
    wizard.next()
    wizard.next()


def test_without_a_calibration_no_label(wizard):
    _open(wizard)
    assert "Calibrated on this PC" not in wizard.jobs.target_line.text()


def test_a_trial_calibrates_the_jobs_and_details_pages(wizard):
    measured = json.loads(RAN.read_text(encoding="utf-8"))["measured"]
    machine = Machine.load(str(machine_path("cpu-only-vm")))
    assert record_trial(get_workload("mnist-cnn"), "ran", measured, machine) is not None
    _open(wizard)
    assert "Calibrated on this PC, 20" in wizard.jobs.target_line.text()
    wizard.jobs.select("cifar10-resnet18")  # another job than the one measured
    wizard.next()
    assert "Calibrated on this PC, 20" in wizard.details.time_text.text()
