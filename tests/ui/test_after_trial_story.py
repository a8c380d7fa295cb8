"""What a beginner sees after "Try it for real", and the figure that decides a verdict, on recorded machines:

- once a trial measured the job, every figure on the details page (headline, options chart, speed, time) and
  in the report is the measured one, with the estimate beside it;
- when system RAM (or a Mac's unified memory) decides, the jobs table's bar, its colour and its caption show
  RAM, with the figures `gpucheck check` and the advice's headline give;
- a job the hardware's software cannot train shows no time anywhere, and its tooltip gives the reason and the
  way out;
- the machine and details pages open at their top; the report page never offers another machine's file;
- the likely range reads the same in `gpucheck estimate`, the app and the report for the same settings.

Machines: tests/fixtures/machines (each file says where it was recorded). Trials: the recorded results in
tests/fixtures/trial/results (README there says how each was made). Every view is checked against the
others and against the recorded trial, never against a number of this test's own.
"""

from __future__ import annotations

import json
import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from gpucheck.advise.present import format_advice_brief
from gpucheck.cli import main as cli_main
from gpucheck.commands import check_rows
from gpucheck.i18n import fmt_duration, fmt_gib
from gpucheck.machine import Machine
from gpucheck.report import build_report
from gpucheck.report.figures import duration_range, time_range_text
from gpucheck.ui.pages import report as report_page
from gpucheck.ui.widgets.badge import Badge
from gpucheck.ui.widgets.vram_bar import VramBar
from tests.ui.conftest import machine_path, recorded_trial, run_recorded_trial

JOB = "mnist-cnn"
COL_VERDICT, COL_TIME, COL_MEMORY = 1, 2, 3


def _to_jobs(wizard, words):
    wizard.restart()  # from the first page, as a user opening another saved scan
    assert wizard.open_machine_file(str(machine_path(*words)))
    wizard.next()
    wizard.next()


def _measured_details(wizard, qtbot):
    """The recorded CPU-only VM, MNIST chosen, "Try it for real" pressed (the recorded trial stands in for the
    child process)."""
    _to_jobs(wizard, ("cpu-only-vm",))
    wizard.jobs.select(JOB)
    wizard.next()
    trial = recorded_trial("mnist-cnn-ran-cpu.json")
    run_recorded_trial(qtbot, wizard.details.trial_panel, trial)
    return trial


def _report_section(session, job):
    model = build_report(session.machine, lang="en", evaluations=session.report_evaluations(True))
    return next(j for j in model.jobs if j.workload_id == job)


def test_after_a_trial_every_figure_on_the_page_and_in_the_report_is_the_measured_one(wizard, qtbot):
    trial = _measured_details(wizard, qtbot)
    page = wizard.details
    measured_time = fmt_duration(trial.measured["total_hours"])  # the trial's own whole run
    # beside it, the model's own estimate on this PC today (before the calibration the trial itself feeds)
    est = wizard.session.estimate(JOB)
    own = est.total_hours * (est.uncalibrated_step_seconds / est.step_seconds if est.calibrated else 1.0)
    estimated_time = fmt_duration(own)
    # the headline under the badge: the measured run, with the estimate beside it — not "about <estimate>"
    headline = page.summary.text()
    assert "measured" in headline and measured_time in headline and f"estimated {estimated_time}" in headline
    # the options chart: this PC's point is the measured time
    here = page.options_chart.points[0]
    assert here.kind == "this_pc" and "measured" in here.label
    assert fmt_duration(here.hours) == measured_time
    assert not any(p.kind == "this_pc_changed" for p in page.options_chart.points)
    # "Speed as configured": the measured samples per second, the estimate beside it
    speed = next(line for line in page.time_text.text().splitlines() if line.startswith("Speed as configured"))
    sps = trial.measured["samples_per_second"]
    assert f"{sps:,.1f}" in speed and "measured" in speed and "estimated" in speed
    # the trial panel does not repeat the figures in a table of its own (with another estimate beside them)
    panel = page.trial_panel
    assert not panel.table.isVisible() and "Every figure of the page above is now the measured one" in \
        panel.status.text()
    # the report's section: the same headline, speed and options
    section = _report_section(wizard.session, JOB)
    assert section.headline == headline
    assert f"Speed as configured: {dict(section.figures.rows)['Speed as configured']}" == speed
    assert [(p.label, p.hours) for p in section.options][:1] == [("this PC's CPU, measured", here.hours)]


def test_a_trial_leaves_the_page_where_it_was(wizard, qtbot):
    """Pressing "Try it for real" keeps the focus beside it and the trial panel where it was in the window."""
    _to_jobs(wizard, ("cpu-only-vm",))
    wizard.jobs.select(JOB)
    wizard.next()
    page, panel = wizard.details, wizard.details.trial_panel
    bar = page.scroll.verticalScrollBar()
    page.scroll.ensureWidgetVisible(panel.run_button)
    qtbot.wait(50)
    before = panel.mapTo(page.scroll.viewport(), panel.rect().topLeft()).y()
    panel.run_fn = lambda workload, **_kw: recorded_trial("mnist-cnn-ran-cpu.json")
    panel.run_button.setFocus()
    with qtbot.waitSignal(panel.measured, timeout=5000):
        qtbot.keyClick(panel.run_button, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: not panel.is_running(), timeout=5000)
    qtbot.wait(500)
    assert page.focusWidget() in (panel.run_button, panel.cancel_button)
    assert page.focusWidget() is not page.cloud
    assert abs(panel.mapTo(page.scroll.viewport(), panel.rect().topLeft()).y() - before) <= 2, bar.value()


def _bar(wizard, job) -> VramBar:
    return wizard.jobs.table.cellWidget(wizard.jobs.row_of(job), COL_MEMORY)


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d+\.\d GiB|\d+\.\d GB", text)


def test_when_ram_decides_the_bar_shows_ram_with_the_figures_check_and_the_headline_give(wizard):
    """M1 (unified memory) and the RTX 4060 WSL 2 laptop: the jobs RAM makes tight (found on each machine, as the
    estimates decide them today). The bar is RAM, amber (not green), and its figures are the command line's and
    the headline's."""
    checked = 0
    for words in (("m1",), ("rtx4060", "wsl2")):
        _to_jobs(wizard, words)
        s = wizard.session
        jobs = [w.id for w in s.builtin_workloads()
                if s.advice(w.id).verdict == "tight" and s.estimate(w.id).limit == "ram"]
        assert jobs or words != ("m1",)  # on unified memory RAM decides some job; under WSL 2 it may not
        cli = {row[0]: row for row in check_rows([s.estimate(j) for j in jobs], [s.workload(j) for j in jobs],
                                                 [s.advice(j) for j in jobs])}
        for job in jobs:
            bar, adv = _bar(wizard, job), s.advice(job)
            nums = _numbers(bar.caption())
            assert bar.ram and bar.caption().startswith("RAM: ")
            assert bar.status_verdict() == "tight"  # the colour of "may fit", not the green of "fits"
            # the same figures as `gpucheck check` (as configured → with the changes / what there is)
            assert _numbers(bar.caption()) == _numbers(cli[job][2]) and cli[job][2].startswith("RAM ")
            # the headline's "needs about N GB" is the bar's filled figure
            assert f"needs about {fmt_gib(bar.need_bytes)}" in adv.summary
            # the details page says the same
            wizard.jobs.select(job)
            wizard.next()
            assert nums[-2] in wizard.details.mem_text.text()
            wizard.back()
            checked += 1
    assert checked >= 2


def test_a_job_this_hardware_cannot_train_shows_no_time_and_says_why_and_the_way_out(wizard, capsys):
    _to_jobs(wizard, ("m1",))
    s, jobs = wizard.session, wizard.jobs
    capsys.readouterr()
    assert cli_main(["check", "--machine", str(machine_path("m1")), "--json"]) == 0
    cli = {x["workload"]: x for x in json.loads(capsys.readouterr().out)["estimates"]}
    model = build_report(s.machine, lang="en", evaluations=s.report_evaluations(False))
    ladder = {ev.workload.id: row for ev, row in zip(model.evaluations, model.ladder.rows, strict=True)}
    unsupported = [w.id for w in s.builtin_workloads() if s.verdict(w.id) == "not_supported"]
    assert "llama3-8b-qlora" in unsupported
    for job in unsupported:
        row = jobs.row_of(job)
        assert jobs.table.item(row, COL_TIME).text() == "—" and ladder[job][4] == "—"
        assert cli[job]["advice"]["final_total_hours"] is None or cli[job]["verdict"] == "not_supported"
        tip = jobs.table.cellWidget(row, COL_VERDICT).findChild(Badge).toolTip()
        adv = s.advice(job)
        assert adv.summary in tip and "bitsandbytes" in tip  # the reason
        assert f"Way out: {format_advice_brief(adv)}" in tip  # and the way out
        section = next(j for j in build_report(s.machine, lang="en", evaluations=s.report_evaluations(False)).jobs
                       if j.workload_id == job)
        assert dict(section.figures.rows)["Training time"].startswith("none")
        assert all(p.hours is None for p in section.options if p.kind.startswith("this_pc"))


def test_the_machine_and_details_pages_open_at_their_top(wizard, qtbot):
    wizard.resize(800, 600)
    _to_jobs(wizard, ("rtx3060",))
    wizard.jobs.select("sdxl-lora")
    wizard.next()
    bar = wizard.details.scroll.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=5000)
    bar.setValue(bar.maximum())
    wizard.back()
    wizard.jobs.select("llama3-8b-lora")
    wizard.next()
    qtbot.wait(20)
    assert bar.value() == 0 and "Llama 3 8B" in wizard.details.job_title.text()
    # the machine page, after another machine was opened
    wizard.restart()
    wizard.next()
    mbar = wizard.machine_page.scroll.verticalScrollBar()
    qtbot.waitUntil(lambda: mbar.maximum() > 0, timeout=5000)
    mbar.setValue(mbar.maximum())
    wizard.back()
    assert wizard.open_machine_file(str(machine_path("m1")))
    wizard.next()
    qtbot.wait(20)
    assert mbar.value() == 0


def test_the_report_page_forgets_another_machines_file_and_says_when_nothing_opens_it(wizard, tmp_path,
                                                                                     monkeypatch, dialogs):
    _to_jobs(wizard, ("rtx3060",))
    wizard.jobs.select(JOB)
    wizard.next()
    wizard.next()
    page = wizard.report
    assert page.save(str(tmp_path / "r.json"))
    assert page.status.text().startswith("Saved to") and page.open_button.isEnabled()
    # no program registered for the file: one clear message, not silence
    monkeypatch.setattr(report_page, "open_url", lambda _url: False)
    assert not page.open_saved()
    assert dialogs and "No program on this computer is set to open JSON files" in dialogs[-1].text()
    assert str(tmp_path / "r.json") in dialogs[-1].text()
    assert dialogs[-1].icon() == QMessageBox.Icon.Warning
    # another machine: its report is not saved yet
    _to_jobs(wizard, ("m1",))
    wizard.jobs.select(JOB)
    wizard.next()
    wizard.next()
    assert page.status.text() == "" and not page.open_button.isEnabled() and page.saved_path is None


def test_the_likely_range_reads_the_same_in_the_cli_the_app_and_the_report(wizard, capsys):
    """The RTX 4060 WSL 2 laptop, Whisper as configured (no change advised): `gpucheck estimate` prints the
    range of the settings as configured; the details page and the report print the same text. A job whose
    time is the one with the changes says so."""
    path = machine_path("rtx4060", "wsl2")
    _to_jobs(wizard, ("rtx4060", "wsl2"))
    s = wizard.session
    # a job whose time is the one as configured (no change advised), as the estimates decide it today
    job = next(w.id for w in s.builtin_workloads() if s.figures(w.id) is not None
               and not s.figures(w.id).range_is_advised and s.estimate(w.id).hours_range is not None)
    capsys.readouterr()
    assert cli_main(["estimate", job, "--machine", str(path)]) == 0
    out = capsys.readouterr().out
    cli_range = re.search(r"Likely range \(P10–P90\)\s+(.+)", out).group(1).strip()
    fig = s.figures(job)
    assert not fig.range_is_advised
    est = s.estimate(job)
    assert cli_range == duration_range(*est.hours_range)
    wizard.jobs.select(job)
    wizard.next()
    assert f"Likely {cli_range}," in wizard.details.time_text.text()
    rows = dict(_report_section(s, job).figures.rows)
    assert rows["Likely time (P10–P90)"].startswith(f"{cli_range},")
    # a job whose shown time is the one with the advised changes: the app and the report say which
    changed = next(w.id for w in s.builtin_workloads() if s.figures(w.id).range_is_advised and
                   s.figures(w.id).changed and s.figures(w.id).shown_range is not None)
    wizard.back()
    wizard.jobs.select(changed)
    wizard.next()
    assert "Likely with the changes: " in wizard.details.time_text.text()
    rows = dict(_report_section(s, changed).figures.rows)
    assert rows["Likely time with the changes (P10–P90)"] == time_range_text(s.figures(changed))


def test_cards_that_cannot_judge_say_so(wizard):
    """The VM's power supply cannot be read: Power is not "Good". Every job trains on its 2-thread CPU: the
    CPU card is not "Good" either."""
    _to_jobs(wizard, ("cpu-only-vm",))
    cards = wizard.machine_page.cards
    assert cards["power"].badge.key() == "unknown"
    assert cards["cpu"].badge.key() == "limited"
    m = Machine.load(machine_path("rtx3060"))
    assert m.power.psu_rated_w is None
    assert wizard.open_machine_file(str(machine_path("rtx3060")))
    wizard.next()
    assert cards["power"].badge.key() == "unknown" and cards["cpu"].badge.key() != "limited"


def test_enter_goes_next_after_opening_a_scan_and_the_jobs_table_shows_where_the_keyboard_is(wizard, qtbot):
    from PySide6.QtWidgets import QApplication, QWizard

    assert wizard.open_machine_file(str(machine_path("m1")))
    nxt = wizard.button(QWizard.WizardButton.NextButton)
    assert nxt.isDefault() and not wizard.welcome.open_button.autoDefault()
    assert not wizard.welcome.scan_button.isDefault()  # Enter does not scan again, nor reopen the file dialog
    busy = []  # while the next page computes (every job's estimate, the first time): the wait cursor
    wizard.currentIdChanged.connect(lambda _id: busy.append(QApplication.overrideCursor()))
    wizard.next()
    assert busy and busy[0] is not None and busy[0].shape() == Qt.CursorShape.WaitCursor
    qtbot.waitUntil(lambda: QApplication.overrideCursor() is None, timeout=2000)  # over once the page shows
    assert nxt.text() == "Next >"
    wizard.next()
    table = wizard.jobs.table
    wizard.activateWindow()
    qtbot.waitActive(wizard)
    table.setFocus()
    qtbot.waitUntil(table.has_focus_ring, timeout=2000)
    wizard.jobs.import_button.setFocus()
    qtbot.waitUntil(lambda: not table.has_focus_ring(), timeout=2000)


def test_a_trial_on_another_device_says_why_the_page_keeps_the_estimate(wizard, qtbot):
    """The recorded trial ran on a CPU; on the M1 the page's figures are the GPU's estimate, and the panel says
    so instead of leaving "Measured on this PC" beside an unchanged page."""
    _to_jobs(wizard, ("m1",))
    wizard.jobs.select(JOB)
    wizard.next()
    panel = wizard.details.trial_panel
    run_recorded_trial(qtbot, panel, recorded_trial("mnist-cnn-ran-cpu.json"))
    assert wizard.session.figures(JOB).measured is None and wizard.details.badge.text() == "Runs"
    assert panel.note.isVisible()
    assert panel.note.text().startswith("This trial ran on CPU, not on Apple M1: the page keeps the estimate")


def test_other_jobs_say_how_far_this_pcs_measured_speed_was_from_the_estimate(wizard, qtbot):
    trial = _measured_details(wizard, qtbot)
    # against the estimate the app shows now (the one beside the measurement on the page)
    ratio = wizard.session.estimate(JOB).samples_per_second / trial.measured["samples_per_second"]
    wizard.back()
    note = next(line for line in wizard.jobs.target_line.text().splitlines() if line.startswith("A trial of"))
    assert f"measured this PC {ratio:.1f}× slower than estimated" in note
    wizard.jobs.select("cifar10-resnet18")
    wizard.next()
    assert note in wizard.details.time_text.text().splitlines()


def test_settings_say_what_the_estimate_uses_and_why_a_control_is_greyed_out(wizard):
    """On a CPU the FP16 job is estimated in BF16: the Precision box and the report's settings row say so. SD 1.5
    LoRA: LoRA targets are greyed out because the model is a U-Net, not for want of LoRA."""
    _to_jobs(wizard, ("cpu-only-vm",))
    s, page = wizard.session, wizard.jobs
    job = "sd15-lora"
    assert s.train_for(job).precision == "fp16" and s.estimate(job).precision_used == "bf16"
    page.select(job)
    assert "BF16" in page.precision.currentText() and "BF16" in page.precision.toolTip()
    rows = dict(_report_section_all(s, job).figures.rows)
    assert rows["Settings as configured"].split(", ")[1] == "BF16 (the job sets FP16)"
    assert not page.lora_targets.isEnabled() and "not a transformer (U-Net)" in page.lora_targets.toolTip()


def _report_section_all(session, job):
    model = build_report(session.machine, lang="en", evaluations=session.report_evaluations(False))
    return next(j for j in model.jobs if j.workload_id == job)


def test_the_pytorch_command_is_under_bottlenecks_with_copy_and_python_can_be_chosen(wizard):
    from PySide6.QtWidgets import QLabel, QPushButton

    from gpucheck.trial import pip_command

    _to_jobs(wizard, ("cpu-only-vm",))
    wizard.jobs.select(JOB)
    wizard.next()
    d = wizard.details
    cmd = d.bottle_box.findChild(QLabel, "torchInstall")
    assert cmd is not None and cmd.text() == pip_command("torch", wizard.session.machine)
    copy = d.bottle_box.findChild(QPushButton, "copy_torchInstall")
    copy.click()
    assert QApplication_clipboard() == cmd.text()
    panel = d.trial_panel
    panel.set_python("/opt/venv/bin/python")
    assert panel.python_line.text() == "Python: /opt/venv/bin/python (chosen)"
    assert panel.choose_python.isEnabled() and "--python" not in panel.intro.text()


def QApplication_clipboard() -> str:  # noqa: N802 (reads as what it is)
    from PySide6.QtWidgets import QApplication

    return QApplication.clipboard().text()


def test_a_what_if_gpu_is_priced_on_the_options_chart(wizard):
    """A GPU the user does not own is not "nothing to buy": its catalog price is the cost of its own options."""
    from gpucheck.advise.present import shop_price_text

    _to_jobs(wizard, ("gtx1660",))
    wizard.jobs.select("sd15-lora")
    wizard.next()
    s = wizard.session
    gpu = next(g for g in s.gpu_catalog() if g.price_usd is not None)
    wizard.details.set_what_if(gpu.id)
    here = [p for p in wizard.details.options_chart.points if p.kind.startswith("this_pc")]
    assert here and all(p.cost_text == shop_price_text(gpu.price_usd, gpu.price_cny) for p in here)
    assert all(p.cost_usd == gpu.price_usd for p in here)


def test_plain_words_on_a_pc_without_a_gpu_and_on_a_mac(wizard):
    """No "the CPU only (no GPU for training) (this PC)", no "1 disk(s)", the missing GPU said once, the Mac's
    GPU memory said as the share of its unified memory, the disk a job needs with the PyTorch install in it."""
    from gpucheck.ui.machine_view import part_view

    _to_jobs(wizard, ("cpu-only-vm",))
    s, m = wizard.session, wizard.session.machine
    assert wizard.jobs.target_line.text().splitlines()[0] == \
        "Compared on the processor of the saved scan cpu-only-vm (no GPU for training)."
    disk = part_view(m, "disk").summary
    assert disk.startswith("1 disk · ") and "(s)" not in disk
    gpu = part_view(m, "gpu")
    assert all(gpu.summary.rstrip(".") not in f for f in gpu.findings)
    wizard.jobs.select(JOB)
    wizard.next()
    env = s.estimate(JOB).disk_parts["environment"]
    assert f"({fmt_gib(env)} of it for Python, PyTorch and its libraries)" in wizard.details.time_text.text()
    mac = Machine.load(machine_path("m1"))
    summary = part_view(mac, "gpu").summary
    assert summary.startswith("Apple M1 · ") and "unified memory" in summary
    assert fmt_gib(mac.memory.total_bytes, 0) in summary
