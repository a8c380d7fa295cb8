"""One story everywhere: the same job on the same recorded machine reads the same in the app's view model
and pages, in the report model (PDF / HTML) and in `gpucheck check --json`.

The machines are the recorded scans of tests/fixtures/machines (each file names where it came from). The
figures are not checked against a number of our own: each view is checked against the others.
"""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from gpucheck.cli import main as cli_main
from gpucheck.machine import Machine
from gpucheck.report import build_report
from gpucheck.report.figures import (
    memory_label,
    memory_sentence,
    memory_value,
    need_caption,
    time_sentence,
    time_text,
    time_value,
)
from gpucheck.report.html import render_html
from gpucheck.ui.widgets.badge import Badge
from gpucheck.verdict import Verdict
from tests.ui.conftest import machine_path

GIB = 1024**3
# an NVIDIA desktop, a WSL 2 laptop whose RAM limit stops jobs, a Mac, a PC without a GPU
STORY_MACHINES = (("rtx3060",), ("rtx4060", "wsl2"), ("m1",), ("office", "cpu"))


def _cli_check(path, capsys) -> dict:
    capsys.readouterr()
    assert cli_main(["check", "--machine", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    return {item["workload"]: item for item in data["estimates"]}


def _to_jobs(wizard, path):
    assert wizard.open_machine_file(str(path))
    wizard.next()
    wizard.next()


@pytest.mark.parametrize("words", STORY_MACHINES, ids=["-".join(w) for w in STORY_MACHINES])
def test_app_report_and_cli_tell_one_story(wizard, capsys, words):
    path = machine_path(*words)
    cli = _cli_check(path, capsys)
    _to_jobs(wizard, path)
    s, page = wizard.session, wizard.jobs
    model = build_report(Machine.load(path), lang="en", evaluations=s.report_evaluations(False))
    ladder = {ev.workload.id: row for ev, row in zip(model.evaluations, model.ladder.rows, strict=True)}
    for w in s.builtin_workloads():
        fig, x = s.figures(w.id), cli[w.id]
        # one verdict: the app's badge, the report's ladder and the CLI
        assert page.verdict_of(w.id) == fig.verdict == x["verdict"], w.id
        assert ladder[w.id][2] == page.table.cellWidget(page.row_of(w.id), 1).findChild(Badge).text(), w.id
        # the memory and the time in the table are the report's, word for word
        row = page.row_of(w.id)
        assert page.table.cellWidget(row, 3).caption() == need_caption(fig) == ladder[w.id][3], w.id
        assert page.table.item(row, 2).text() == time_text(fig) == ladder[w.id][4], w.id
        # … and the figures behind them are the CLI's
        if fig.memory == "vram":
            assert round(fig.need_bytes / GIB, 2) == x["peak_vram_gib"], w.id
            assert round(fig.have_bytes / GIB, 2) == x["vram_available_gib"], w.id
        else:
            assert round(fig.need_bytes / GIB, 2) == x["ram_gib"], w.id
        adv = x["advice"]
        if fig.changed and fig.memory == "vram" and fig.need_after_bytes is not None:
            after = adv["needs_vram_gib"] if fig.verdict == "does_not_fit" else adv["final_peak_vram_gib"]
            assert round(fig.need_after_bytes / GIB, 2) == after, w.id
        if fig.hours is not None:  # a time only for settings that fit
            assert abs(fig.hours - x["total_hours"]) < 0.001, w.id
        if not Verdict.parse(fig.verdict).can_train:
            assert time_text(fig) == "—", w.id  # no time for a job that does not run here


def test_details_page_and_report_say_the_same(wizard):
    """The chosen job's memory and time sentences: the details page's are the report section's."""
    path = machine_path("rtx3060")
    _to_jobs(wizard, path)
    s = wizard.session
    for job in ("sd15-dreambooth", "llama3-8b-full", "mnist-cnn"):
        wizard.jobs.select(job)
        wizard.next()
        fig = s.figures(job)
        assert memory_sentence(fig) in wizard.details.mem_text.text()
        assert wizard.details.time_text.text().splitlines()[0] == time_sentence(fig)
        model = build_report(s.machine, lang="en", evaluations=s.report_evaluations(True))
        section = next(j for j in model.jobs if j.workload_id == job)
        rows = dict(section.figures.rows)
        assert rows[memory_label(fig)] == memory_value(fig) and rows["Training time"] == time_value(fig)
        assert memory_sentence(fig) == f"{memory_label(fig)}: {memory_value(fig)}"
        assert time_sentence(fig) == f"Training time: {time_value(fig)}"
        wizard.back()


def test_report_never_says_nothing_to_change_under_a_job_that_does_not_run():
    for words in STORY_MACHINES:
        model = build_report(Machine.load(machine_path(*words)), lang="en")
        html = render_html(model)
        nothing = model.labels["no_changes"]
        for job in model.jobs:
            part = html.split(job.title, 1)[1].split("<h3>", 1)[0]
            if job.verdict not in ("runs", "tight"):
                assert nothing not in part, (words, job.workload_id)


def test_gpu_card_counts_what_the_table_shows(wizard):
    path = machine_path("rtx3060")
    _to_jobs(wizard, path)
    page = wizard.jobs
    trains = sum(1 for w in wizard.session.builtin_workloads()
                 if Verdict.parse(page.verdict_of(w.id)).can_train and page.verdict_of(w.id) != "too_slow")
    total = len(wizard.session.builtin_workloads())
    card = wizard.machine_page.cards["gpu"]
    assert f"Trains {trains} of the {total} built-in jobs" in card.findings.text()
    assert "usable of 12 GiB" in card.summary.text()  # the 12 GB card, and what a job may use of it


def test_ram_card_names_the_jobs_ram_stops(wizard):
    """The WSL 2 laptop: Linux gets 7.5 GB; the RAM card says which jobs that stops, and how to raise it."""
    path = machine_path("rtx4060", "wsl2")
    _to_jobs(wizard, path)
    s = wizard.session
    stopped = [s.workload_title(w) for w in s.builtin_workloads() if s.figures(w.id).ram_short]
    card = wizard.machine_page.cards["memory"]
    if stopped:
        assert card.badge.key() == "limited"
        assert stopped[0] in card.findings.text() and ".wslconfig" in card.findings.text()
    assert "WSL 2" in card.summary.text()


def test_nothing_is_chosen_for_the_user_and_tab_leaves_the_table(wizard, qtbot):
    _to_jobs(wizard, machine_path("rtx3060"))
    page = wizard.jobs
    assert wizard.session.selected_id is None and not page.table.selectedItems()
    assert not wizard.button(wizard.WizardButton.NextButton).isEnabled()
    assert page.pick_hint.isVisible()
    assert not page.table.tabKeyNavigation()
    page.table.setFocus()
    qtbot.keyClick(page.table, Qt.Key.Key_Tab)
    assert not page.table.hasFocus()  # Tab moved on to the next control
    assert wizard.session.selected_id is None  # and chose nothing on its way


def test_ctrl_l_switches_the_language(wizard, qtbot):
    from gpucheck.i18n import get_language

    assert get_language() == "en"
    qtbot.keyClick(wizard, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert get_language() == "zh_CN"
    qtbot.keyClick(wizard, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert get_language() == "en"


def test_window_works_at_800_by_600(wizard):
    assert wizard.minimumWidth() <= 800 and wizard.minimumHeight() <= 600
    wizard.resize(800, 600)
    assert wizard.width() <= 800 and wizard.height() <= 600
