"""The whole wizard on recorded machines: pick jobs, change settings, what-if GPU, save reports.

What each page shows is compared with what gpucheck.estimate / gpucheck.advise return for the same
machine and settings: the UI must show the core's answer, never its own arithmetic.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard

from gpucheck.machine import Machine
from tests.ui.conftest import MACHINES


def core(machine, workload, train=None, gpu=None, gpus=1):
    from gpucheck.advise import advise
    from gpucheck.estimate import Target, estimate

    target = (Target.from_gpu(gpu, gpus=gpus, machine=machine) if gpu is not None
              else Target.from_machine(machine))
    wl = dataclasses.replace(workload, train=train) if train is not None else workload
    est = estimate(wl, target)
    return est, advise(machine, wl, target, est)


def on_cpu(machine) -> bool:
    from gpucheck.estimate import Target

    t = Target.from_machine(machine)
    return t.gpu is None and t.backend == "cpu"


def _to_jobs(wizard, path):
    assert wizard.open_machine_file(str(path))
    wizard.next()
    wizard.next()
    assert wizard.currentPage() is wizard.jobs


@pytest.mark.parametrize("path", MACHINES, ids=[p.stem for p in MACHINES])
def test_ladder_shows_the_core_verdicts(wizard, path):
    from gpucheck.catalog import load_workloads

    machine = Machine.load(path)
    _to_jobs(wizard, path)
    ladder = load_workloads()
    assert wizard.jobs.table.rowCount() == len(ladder)
    from gpucheck.report.figures import job_figures, time_text

    cpu = on_cpu(machine)
    gpus = machine.compute_gpus()
    for w in ladder:
        est, adv = core(machine, w)
        assert wizard.jobs.verdict_of(w.id) == adv.verdict, w.id
        row = wizard.jobs.row_of(w.id)
        bar = wizard.jobs.table.cellWidget(row, 3)
        fig = job_figures(est, adv, gpus[0].vram_total_bytes if gpus else None)
        assert bar.figures == fig, w.id  # the bar and the time beside it describe the same settings
        assert wizard.jobs.table.item(row, 2).text() == time_text(fig)
        if cpu:  # no GPU: the bar is the RAM the job needs (with the advised changes, where there are) against the PC's
            assert bar.ram and (fig.need_bytes, bar.have_bytes) == (est.ram_bytes, est.ram_total_bytes)
            assert bar.need_bytes == (adv.final_ram_bytes if fig.need_after_bytes else est.ram_bytes), w.id
        elif not fig.memory == "ram":
            assert not bar.ram
            assert (fig.need_bytes, bar.have_bytes) == (est.peak_vram_bytes, est.vram_available_bytes)


@pytest.mark.parametrize("path", MACHINES, ids=[p.stem for p in MACHINES])
def test_machine_cards_show_the_scan(wizard, path):
    machine = Machine.load(path)
    wizard.open_machine_file(str(path))
    wizard.next()
    cards = wizard.machine_page.cards
    gpus = machine.compute_gpus()
    if gpus:
        assert gpus[0].name in cards["gpu"].summary.text()
        assert cards["gpu"].badge.key() in ("good", "limited")
    else:
        assert cards["gpu"].badge.key() == "missing"
    for f in machine.findings:
        shown = "\n".join(c.findings.text() for c in cards.values()) + wizard.machine_page.other.text()
        assert f.message in shown
    wizard.machine_page.copy_button.click()
    from PySide6.QtWidgets import QApplication

    clip = QApplication.clipboard().text()
    assert cards["cpu"].summary.text() in clip


def _llm(wizard):
    s = wizard.session
    return next(w for w in reversed(s.workloads()) if w.model.arch == "transformer" and w.train.seq_len)


def test_settings_recompute_the_chosen_job(wizard, qtbot):
    path = MACHINES[0]
    machine = Machine.load(path)
    _to_jobs(wizard, path)
    w = _llm(wizard)
    wizard.jobs.select(w.id)
    assert wizard.session.selected_id == w.id
    page = wizard.jobs
    row = page.row_of(w.id)
    before = page.table.cellWidget(row, 3).figures.need_bytes
    page.batch.setValue(w.train.batch + 3)
    page.seq_len.setValue(w.train.seq_len * 2)
    changed = dataclasses.replace(w.train, batch=w.train.batch + 3, seq_len=w.train.seq_len * 2)
    est, adv = core(machine, w, changed)
    assert page.table.cellWidget(row, 3).figures.need_bytes == est.peak_vram_bytes != before
    assert page.verdict_of(w.id) == adv.verdict
    page.precision.setCurrentIndex(page.precision.findData("fp32"))
    changed = dataclasses.replace(changed, precision="fp32")
    est, _ = core(machine, w, changed)
    assert page.table.cellWidget(row, 3).figures.need_bytes == est.peak_vram_bytes
    # the details page shows the same job with the same settings
    wizard.next()
    assert wizard.details.chart.breakdown == est.breakdown
    assert wizard.details.chart.have_bytes == est.vram_available_bytes
    # back to the job's own settings
    wizard.back()
    page.reset_button.click()
    est0, _ = core(machine, w)
    assert page.table.cellWidget(page.row_of(w.id), 3).figures.need_bytes == est0.peak_vram_bytes == before


def test_keyboard_moves_through_the_ladder(wizard, qtbot):
    _to_jobs(wizard, MACHINES[0])
    page = wizard.jobs
    page.table.setFocus()
    page.table.selectRow(0)
    qtbot.keyClick(page.table, Qt.Key.Key_Down)
    assert wizard.session.selected_id == page.table.item(1, 0).data(Qt.ItemDataRole.UserRole)


@pytest.mark.parametrize("path", MACHINES, ids=[p.stem for p in MACHINES])
def test_details_and_what_if_gpu(wizard, path):
    from gpucheck.catalog import find_gpu

    machine = Machine.load(path)
    _to_jobs(wizard, path)
    w = _llm(wizard)
    wizard.jobs.select(w.id)
    wizard.next()
    d = wizard.details
    est, adv = core(machine, w)
    assert d.badge.key() == adv.verdict
    assert d.summary.text() == adv.summary
    assert d.chart.breakdown == est.breakdown
    if on_cpu(machine):
        assert d.chart.ram and d.chart.have_bytes == est.ram_total_bytes
    else:
        assert not d.chart.ram and d.chart.have_bytes == est.vram_available_bytes
    assert d.cloud.rowCount() == len(adv.cloud)
    tweak_ids = [lab.objectName() for lab in d.tweak_box.findChildren(type(d.summary))
                 if lab.objectName().startswith("tweak_")]
    assert tweak_ids == [f"tweak_{t.id}" for t in adv.tweaks]
    if adv.snippet:
        d.copy_snippet.click()
        from PySide6.QtWidgets import QApplication

        assert QApplication.clipboard().text() == adv.snippet
    # what if I had an RTX 4090?
    spec = find_gpu("4090")
    idx = d.what_if.findData(spec.id)
    assert idx > 0
    d.what_if.setCurrentIndex(idx)
    d.what_if.activated.emit(idx)
    est2, adv2 = core(machine, w, gpu=spec)
    assert d.badge.key() == adv2.verdict
    assert d.chart.have_bytes == est2.vram_available_bytes == spec.vram_bytes
    assert spec.name in d.job_title.text()
    # the ladder follows the what-if GPU
    assert wizard.jobs.verdict_of(w.id) == adv2.verdict
    # two of them
    assert d.what_if_count.isEnabled()
    d.what_if_count.setValue(2)
    est3, adv3 = core(machine, w, gpu=spec, gpus=2)
    assert d.badge.key() == adv3.verdict and d.chart.breakdown == est3.breakdown
    assert d.summary.text() == adv3.summary
    # and back to this PC
    d.set_what_if(None)
    assert d.badge.key() == adv.verdict
    assert not d.what_if_count.isEnabled()


def test_what_if_picker_completes_typed_names(wizard):
    _to_jobs(wizard, MACHINES[0])
    wizard.next()
    comp = wizard.details.what_if.completer()
    comp.setCompletionPrefix("4090")
    names = [comp.completionModel().index(i, 0).data() for i in range(comp.completionCount())]
    assert names and all("4090" in n for n in names)


def test_save_reports(wizard, tmp_path, dialogs):
    path = MACHINES[0]
    _to_jobs(wizard, path)
    w = _llm(wizard)
    wizard.jobs.select(w.id)
    wizard.next()
    wizard.next()
    page = wizard.report
    assert wizard.currentPage() is page
    out = tmp_path / "mine.json"
    assert page.save(str(out))
    assert page.open_button.isEnabled() and str(out) in page.status.text()
    data = json.loads(out.read_text(encoding="utf-8"))
    assert "schema_version" in data
    # a JSON report opens as a saved scan (identifiers left out: the box was not ticked)
    back, orig = Machine.load(out), Machine.load(path)
    assert [(g.name, g.vram_total_bytes) for g in back.gpus] == [(g.name, g.vram_total_bytes) for g in orig.gpus]
    assert all(g.uuid is None for g in back.gpus) and back.hostname is None
    html = tmp_path / "mine.html"
    assert page.save(str(html))
    assert w.title in html.read_text(encoding="utf-8")
    # an unwritable place: one clear message, no file, the page keeps working
    bad = tmp_path / "no-such-folder" / "r.html"
    assert not page.save(str(bad))
    assert dialogs and dialogs[-1].objectName() == "badInputDialog"
    assert "no-such-folder" in dialogs[-1].text()
    assert not bad.exists()
    assert page.save(str(tmp_path / "again.json"))


def test_report_in_the_other_language(wizard, tmp_path):
    """An English app can save a Chinese report (to send to a shop), and the app stays English."""
    from gpucheck import i18n

    _to_jobs(wizard, MACHINES[0])
    wizard.next()
    wizard.next()
    page = wizard.report
    page.report_lang.setCurrentIndex(page.report_lang.findData("zh_CN"))
    out = tmp_path / "zh.json"
    assert page.save(str(out))
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["language"] == "zh_CN"
    assert data["title"] == i18n.translate("Can this computer train AI models?", "zh_CN")
    assert i18n.get_language() == "en" and page.title() == "Your report"


def test_save_pdf(wizard, tmp_path):
    _to_jobs(wizard, MACHINES[0])
    wizard.next()
    wizard.next()
    wizard.report.only_selected.setChecked(True)
    out = tmp_path / "r.pdf"
    assert wizard.report.save(str(out))
    assert out.read_bytes().startswith(b"%PDF")


def test_import_a_custom_job(wizard, tmp_path, dialogs):
    _to_jobs(wizard, MACHINES[0])
    job = tmp_path / "my-cnn.toml"
    job.write_text(
        """id = "my-resnet18-pets"
title = "My ResNet-18 on pet photos"
family = "vision"
level = 3
[model]
arch = "cnn"
params = 11.7e6
forward_gflops = 3.64
activation_mib = 25
[train]
method = "full"
precision = "fp16"
optimizer = "sgd"
batch = 64
image_size = 224
[data]
samples = 7400
epochs = 10
bytes_per_sample = 110000
""", encoding="utf-8")
    assert wizard.jobs.import_file(str(job))
    assert wizard.session.selected_id == "my-resnet18-pets"
    assert wizard.jobs.row_of("my-resnet18-pets") is not None
    # the grid keeps its places: the setting the job lacks is greyed out and says why
    assert wizard.jobs.image_size.isEnabled() and not wizard.jobs.seq_len.isEnabled()
    assert "no sequence length" in wizard.jobs.seq_len.toolTip()
    broken = tmp_path / "broken.toml"
    broken.write_text(job.read_text().replace("batch = 64", 'batch = "lots"'), encoding="utf-8")
    assert not wizard.jobs.import_file(str(broken))
    assert "broken.toml" in dialogs[-1].text() and "batch" in dialogs[-1].text()


def test_import_a_hugging_face_config(wizard):
    """A real config.json (Mistral 7B, recorded in tests/fixtures/hf): the job appears on the ladder with
    the estimator's verdict, and its sequence length can be edited."""
    from gpucheck.catalog import get_workload
    from tests.conftest import FIXTURES

    cfg = FIXTURES / "hf" / "mistral-7b-v0.1" / "config.json"
    machine = Machine.load(MACHINES[0])
    _to_jobs(wizard, MACHINES[0])
    assert wizard.jobs.import_file(str(cfg))
    wid = wizard.session.selected_id
    assert wizard.jobs.row_of(wid) == wizard.jobs.table.rowCount() - 1
    _est, adv = core(machine, get_workload(str(cfg)))
    assert wizard.jobs.verdict_of(wid) == adv.verdict
    assert wizard.jobs.seq_len.isVisible()


def test_start_over_keeps_the_scan(wizard):
    _to_jobs(wizard, MACHINES[0])
    w = _llm(wizard)
    wizard.jobs.select(w.id)
    wizard.jobs.batch.setValue(w.train.batch + 1)
    wizard.next()
    wizard.next()
    wizard.report.start_over.click()
    assert wizard.currentId() == 0
    assert wizard.session.machine is not None and not wizard.session.overrides
    assert wizard.button(QWizard.WizardButton.NextButton).isEnabled()
