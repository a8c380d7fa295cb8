"""Once "Try it for real" has measured a job, every view uses the measured figures and says "measured", with
the estimate beside them — the details page, the jobs table, the report (model, HTML, JSON, PDF) — and a
measured out-of-memory makes the job "Does not fit here — measured" with the micro-batch that did fit.

The trials are recorded `gpucheck trial --json` results (tests/fixtures/trial/results/README.md says how each
was made); the machine is the recorded CPU-only VM the trials' estimates were made for. The whole-run time is
checked against the one the trial itself wrote (gpucheck.trial, from the same data-set size), and every view
against the others (one story) — never against a figure of this module's own.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from gpucheck.i18n import fmt_duration
from gpucheck.machine import Machine
from gpucheck.report import build_report
from gpucheck.report.build import evaluate
from gpucheck.report.figures import need_caption, time_sentence, time_text
from gpucheck.report.html import render_html
from gpucheck.report.json import report_dict
from gpucheck.report.measured import measured_of, measured_rows, measured_summary
from gpucheck.report.model import Evaluation
from gpucheck.ui.widgets.badge import Badge
from tests.ui.conftest import TRIAL_RESULTS, machine_path, recorded_trial, run_recorded_trial

JOB = "mnist-cnn"


RAN = "mnist-cnn-ran-cpu.json"
OOM = "mnist-cnn-oom-simulated.json"


def _details_with_trial(wizard, qtbot, name: str):
    """The CPU-only VM, the MNIST job chosen, and "Try it for real" clicked (the recorded result stands in for
    the child process)."""
    assert wizard.open_machine_file(str(machine_path("cpu-only-vm")))
    wizard.next()
    wizard.next()
    wizard.jobs.select(JOB)
    wizard.next()
    result = recorded_trial(name)
    run_recorded_trial(qtbot, wizard.details.trial_panel, result)
    return result


def _report_section(s, job: str, lang: str = "en"):
    model = build_report(s.machine, lang=lang, evaluations=s.report_evaluations(True))
    section = next(j for j in model.jobs if j.workload_id == job)
    ladder = {ev.workload.id: row for ev, row in zip(model.evaluations, model.ladder.rows, strict=True)}
    return model, section, ladder[job]


def test_a_measured_job_says_measured_in_the_app_and_the_report_alike(wizard, qtbot):
    trial = _details_with_trial(wizard, qtbot, RAN)
    s, page = wizard.session, wizard.details
    fig = s.figures(JOB)
    m = fig.measured
    assert m is not None and not m.out_of_memory
    # the whole run at the measured speed is the trial's own (both from the job's 60,000 × 14)
    assert fmt_duration(m.hours) == fmt_duration(trial.measured["total_hours"])
    # details page: the verdict badge, the measured figures beside the estimate, the time
    assert page.badge.text() == "Runs — measured"
    lines = page.time_text.text().splitlines()
    assert lines[0] == time_sentence(fig) == f"Training time: {fmt_duration(m.hours)} measured (estimated " \
                                             f"{fmt_duration(m.estimated_hours)})"
    assert measured_summary(m) in lines and measured_summary(m) == page.tight_line.text()
    for what, value in measured_rows(m):
        assert f"{what}: {value}" in lines
    assert "0.066 s measured" in dict(measured_rows(m))["Step time"]  # the recorded median step, 0.06597 s
    # jobs table: the badge, the time and the memory caption
    jobs = wizard.jobs
    row = jobs.row_of(JOB)
    assert jobs.table.cellWidget(row, 1).findChild(Badge).text() == "Runs — measured"
    assert jobs.table.item(row, 2).text() == time_text(fig) == f"{fmt_duration(m.hours)} measured"
    assert jobs.table.cellWidget(row, 3).caption() == need_caption(fig)
    assert "measured peak 0.9 GiB" in need_caption(fig)  # the recorded peak RSS, 0.941 GiB
    # the report: the ladder's row and the job's section say the same, word for word
    model, section, ladder_row = _report_section(s, JOB)
    assert ladder_row[2] == "Runs — measured" and ladder_row[3] == need_caption(fig) and ladder_row[4] == time_text(fig)
    rows = dict(section.figures.rows)
    assert section.verdict_text == rows["Verdict"] == "Runs — measured"
    assert f"Training time: {rows['Training time']}" == lines[0]  # the row does not repeat its label
    assert rows["Measured on this PC"] == measured_summary(m)
    for what, value in measured_rows(m):
        assert rows[what] == value
    html = render_html(model)
    assert "Runs — measured" in html and measured_summary(m) in html
    # JSON: the trial's own object beside the estimate, and the measured figures labelled as such
    item = next(x for x in report_dict(model)["workloads"] if x["id"] == JOB)
    # … cut to what a report needs (never the child's stderr lines or traceback), through the privacy policy
    own = trial.to_json()
    assert set(item["trial"]) == set(own) and item["trial"]["measured"] == own["measured"]
    assert item["trial"]["outcome"] == own["outcome"] and item["trial"]["python"] == own["python"]
    assert "stderr_tail" in own["details"] and "stderr_tail" not in item["trial"]["details"]
    assert item["trial"]["details"]["python_version"] == own["details"]["python_version"]
    assert item["measured"]["source"] == "measured" and item["measured"]["verdict"] == "runs"
    assert item["measured"]["step_seconds"] == trial.measured["step_seconds"]
    assert item["measured"]["total_hours"] == pytest.approx(trial.measured["total_hours"], rel=0.01)
    # the estimate beside it is this version's estimate, the report's; the one the trial put beside its figures
    # when it ran stays in the trial's own object as recorded (asserted above), even after the model changes
    assert item["estimate"]["total_hours"] == pytest.approx(m.estimated_hours, abs=0.001)
    assert item["estimate"]["step_seconds"] == pytest.approx(m.estimated_step_seconds, rel=1e-3)


def test_a_measured_out_of_memory_does_not_fit_here(wizard, qtbot):
    _details_with_trial(wizard, qtbot, OOM)
    s, page = wizard.session, wizard.details
    fig = s.figures(JOB)
    assert fig.verdict == "does_not_fit" and fig.measured.out_of_memory
    assert page.badge.text() == "Does not fit here — measured"
    summary = ("Does not fit here — measured: out of memory at micro-batch 64; the largest micro-batch that fit "
               "is 8.")
    assert page.tight_line.text() == summary
    assert page.time_text.text().splitlines()[0] == "Training time: none as configured: it ran out of memory " \
                                                    "here (measured)."
    jobs = wizard.jobs
    row = jobs.row_of(JOB)
    assert jobs.verdict_of(JOB) == "does_not_fit" and jobs.table.item(row, 2).text() == "—"
    assert jobs.table.cellWidget(row, 1).findChild(Badge).text() == "Does not fit here — measured"
    model, section, ladder_row = _report_section(s, JOB)
    assert ladder_row[2] == "Does not fit here — measured" and ladder_row[4] == "—"
    rows = dict(section.figures.rows)
    assert rows["Measured on this PC"] == summary and rows["Verdict"] == "Does not fit here — measured"
    assert rows["At micro-batch 8"].endswith("— measured")
    item = next(x for x in report_dict(model)["workloads"] if x["id"] == JOB)
    assert item["measured"]["verdict"] == "does_not_fit" and item["measured"]["largest_batch_that_fits"] == 8
    assert item["trial"]["outcome"] == "out_of_memory"


def test_other_settings_or_a_what_if_gpu_are_estimates_again(wizard, qtbot):
    _details_with_trial(wizard, qtbot, OOM)
    s = wizard.session
    assert s.figures(JOB).measured is not None
    s.set_data(JOB, 1000, 1)  # another data-set size: same settings, still measured
    assert s.figures(JOB).measured is not None
    train = s.train_for(JOB)
    s.set_train(JOB, type(train)(**{**train.__dict__, "batch": 8}))  # the micro-batch that fit: not measured
    assert s.figures(JOB).measured is None and s.trial_for(JOB) is None
    assert all(ev.trial is None for ev in s.report_evaluations(False))
    s.reset_train(JOB)
    assert s.figures(JOB).measured is not None
    s.set_what_if(s.gpu_catalog()[0].id)  # a catalog GPU is not this PC
    assert s.measured(JOB) is None and s.figures(JOB).measured is None


def test_a_trial_on_another_kind_of_device_does_not_replace_the_estimate():
    """A PC with a GPU whose Python has a CPU-only PyTorch: the trial ran on the CPU, the estimate is for the
    GPU — the panel shows it, but the job's figures stay the estimate's."""
    machine = Machine.load(machine_path("rtx3060"))
    ev = next(e for e in evaluate(machine, [JOB]) if e.workload.id == JOB)
    assert not ev.estimate.on_cpu
    assert measured_of(recorded_trial(RAN), ev.workload, ev.estimate) is None
    model = build_report(machine, lang="en", evaluations=(Evaluation(ev.workload, ev.estimate, ev.advice,
                                                                     trial=recorded_trial(RAN)),))
    assert "measured" not in model.ladder.rows[0][2] and "trial" not in report_dict(model)["workloads"][0]
    assert model.footer_text == "Estimates, not measurements."


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils is not installed (apt install "
                    "poppler-utils)")
def test_the_pdf_says_measured(wizard, qtbot, tmp_path):
    _details_with_trial(wizard, qtbot, RAN)
    s = wizard.session
    out = s.save_report(str(tmp_path / "report.pdf"), only_selected=True)
    text = subprocess.run(["pdftotext", "-raw", str(out), "-"], capture_output=True, text=True, check=True).stdout
    flat = " ".join(text.split())
    assert "Runs — measured" in flat and "Measured on this PC (CPU)" in flat
    assert 'Estimates, except figures marked "measured"' in flat


def test_the_command_line_report_takes_saved_trials(tmp_path, capsys):
    """`gpucheck trial … --json > FILE`, then `gpucheck report OUT --trial FILE`: the same measured figures."""
    from gpucheck.cli import main as cli_main

    out = tmp_path / "report.json"
    machine = str(machine_path("cpu-only-vm"))
    assert cli_main(["report", str(out), "--machine", machine, "--trial", str(TRIAL_RESULTS / OOM)]) == 0
    item = next(x for x in json.loads(out.read_text(encoding="utf-8"))["workloads"] if x["id"] == JOB)
    own = recorded_trial(OOM).to_json()
    assert item["measured"]["verdict"] == "does_not_fit" and item["trial"]["measured"] == own["measured"]
    assert item["trial"]["details"]["largest_batch_that_fits"] == own["details"]["largest_batch_that_fits"]
    assert "stderr_tail" not in item["trial"]["details"]
    bad = tmp_path / "not-a-trial.json"
    bad.write_text("[]", encoding="utf-8")
    capsys.readouterr()
    assert cli_main(["report", str(tmp_path / "r.html"), "--machine", machine, "--trial", str(bad)]) == 2
    assert "not a trial result" in capsys.readouterr().err


def test_measured_reads_in_chinese_too(wizard, qtbot):
    from PySide6.QtCore import Qt

    _details_with_trial(wizard, qtbot, OOM)
    qtbot.keyClick(wizard, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)  # 中文
    assert wizard.details.badge.text() == "本机装不下（实测）"
    row = wizard.jobs.row_of(JOB)
    assert wizard.jobs.table.cellWidget(row, 1).findChild(Badge).text() == "本机装不下（实测）"
    _model, section, ladder_row = _report_section(wizard.session, JOB, "zh_CN")
    assert ladder_row[2] == section.verdict_text == "本机装不下（实测）"
