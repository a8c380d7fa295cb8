"""The details page shows the advice's optional speed-ups (a job that runs but could finish much sooner) and
the smaller model that fits when the job does not — with copyable settings, in English and in Chinese.

Both machines are recorded: an RTX 4090 desktop, where Llama 3 8B QLoRA runs but its short steps leave the
GPU idle, and a GTX 1660 Ti laptop (6 GB), where it does not fit at all. What the page shows is compared
with what gpucheck.advise returns for the same machine and job.
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QApplication, QLabel, QPushButton

from gpucheck.advise.present import settings_text
from gpucheck.i18n import fmt_duration, fmt_gib
from gpucheck.report.figures import worth_speeding_up
from tests.helpers import estimate_and_advise
from tests.ui.conftest import machine_path

JOB = "llama3-8b-qlora"
CJK = re.compile(r"[\u4e00-\u9fff]")


def open_details(wizard, path, packing: bool | None = None):
    assert wizard.open_machine_file(str(path))
    wizard.next()
    wizard.next()
    wizard.jobs.select(JOB)
    if packing is not None:  # the user ticks or clears "sequence packing" on the jobs page
        wizard.jobs.packing.setChecked(packing)
    wizard.next()
    assert wizard.currentPage() is wizard.details
    return wizard.details


def label(page, name: str) -> QLabel:
    lab = page.findChild(QLabel, name)
    assert lab is not None, name
    return lab


def test_no_finish_sooner_for_a_one_minute_run(wizard):
    """MNIST on the RTX 3060 takes minutes: the advice has a speed-up, but saving seconds is not worth a
    section (issue 17)."""
    path = machine_path("rtx3060")
    _est, adv = estimate_and_advise(path, "mnist-cnn")
    assert adv.expected_hours < 0.25
    assert not worth_speeding_up(adv)
    assert wizard.open_machine_file(str(path))
    wizard.next()
    wizard.next()
    wizard.jobs.select("mnist-cnn")
    wizard.next()
    assert not wizard.details.speed_box.isVisible()


def test_speed_tweaks_on_a_job_that_runs_but_leaves_the_gpu_idle(wizard):
    """With packing turned off, 128-token samples one at a time leave a 4090 waiting on the host: the page
    offers packing first, with its time and memory (packing is the default; a user may turn it off)."""
    path = machine_path("rtx4090", "650w")
    est, adv = estimate_and_advise(path, JOB, packing=False)
    assert worth_speeding_up(adv), "unpacked short samples on a 4090 are worth speeding up"
    assert adv.verdict == "runs" and adv.speed_tweaks, "the 4090 runs this job with steps too small for it"
    d = open_details(wizard, path, packing=False)
    assert d.speed_box.isVisible() and not d.alt_box.isVisible()
    assert [t.id for t in adv.speed_tweaks][0] == "packing"
    for t in adv.speed_tweaks:
        head = label(d, f"speed_{t.id}").text()
        assert t.title in head
        assert fmt_duration(t.total_hours) in head and fmt_gib(t.peak_vram_bytes) in head
        # each finishes sooner than the job as it is
        assert t.total_hours < adv.expected_hours
        shown = label(d, f"speed_settings_{t.id}").text()
        for key, value in t.settings.items():
            assert f"{key}={value!r}" in shown
        assert any(t.cost in lab.text() for lab in d.speed_box.findChildren(QLabel))
        d.speed_box.findChild(QPushButton, f"copy_speed_settings_{t.id}").click()
        assert QApplication.clipboard().text() == shown == settings_text(t.settings)
    assert "packing=True" in label(d, "speed_settings_packing").text()

    wizard.switch_language("zh_CN")
    _, adv_zh = estimate_and_advise(path, JOB, "zh_CN", packing=False)
    assert CJK.search(d.speed_box.title())
    for t in adv_zh.speed_tweaks:
        head = label(d, f"speed_{t.id}").text()
        assert t.title in head and CJK.search(t.title)
        # the settings are code: the same in every language
        assert label(d, f"speed_settings_{t.id}").text() == settings_text(t.settings)


def test_smaller_model_when_the_job_does_not_fit(wizard):
    # the 8 GB RTX 4060 Laptop under WSL2 (7.5 GiB of RAM): 8B QLoRA fits 8 GB only with Unsloth, whose checkpoints
    # that RAM cannot hold; a smaller model fits (on the 6 GB GTX 1660 Ti nothing fits any more: FP16 gives NaN there,
    # pytorch/pytorch#58123, so it trains in FP32; the 2060 SUPER desktop runs it with Unsloth)
    path = machine_path("rtx4060", "wsl2")
    est, adv = estimate_and_advise(path, JOB)
    assert adv.verdict == "does_not_fit" and adv.alternative is not None
    alt = adv.alternative
    d = open_details(wizard, path)
    assert d.alt_box.isVisible() and not d.speed_box.isVisible()
    summary = label(d, "alternativeSummary").text()
    assert alt.title in summary
    assert fmt_gib(alt.peak_vram_bytes) in summary and fmt_duration(alt.total_hours) in summary
    # what the page promises: it fits the VRAM this laptop has
    assert alt.peak_vram_bytes <= est.vram_available_bytes
    shown_ids = [lab.objectName() for lab in d.alt_box.findChildren(QLabel)
                 if lab.objectName().startswith("alternative_")]
    assert shown_ids == [f"alternative_{t.id}" for t in alt.tweaks]
    assert alt.tweaks[0].id == "smaller_model"
    for t in alt.tweaks:
        text = label(d, f"alternative_{t.id}").text()
        assert t.title in text and t.cost in text
    assert d.alt_snippet.toPlainText() == alt.snippet
    assert alt.settings["model"] in alt.snippet  # the snippet names the smaller model to load
    d.copy_alt_snippet.click()
    assert QApplication.clipboard().text() == alt.snippet
    # the job's own tweaks are shown as tried, not as the ones that make it work
    assert d.tweak_box.title() == "Settings tried: not enough on this GPU"

    wizard.switch_language("zh_CN")
    _, adv_zh = estimate_and_advise(path, JOB, "zh_CN", packing=False)
    assert CJK.search(d.alt_box.title())
    zh_summary = label(d, "alternativeSummary").text()
    assert adv_zh.alternative.title in zh_summary and zh_summary != summary and CJK.search(zh_summary)
    assert d.alt_snippet.toPlainText() == adv_zh.alternative.snippet


@pytest.mark.parametrize("words", [("rtx4090", "650w"), ("gtx1660", "laptop")])
def test_the_other_box_stays_hidden_after_a_what_if_gpu(wizard, words):
    """Picking a GPU in "what if I had…" refreshes both boxes from that GPU's advice."""
    from gpucheck.catalog import find_gpu

    d = open_details(wizard, machine_path(*words))
    spec = find_gpu("h100")
    d.set_what_if(spec.id)
    adv = d.advice
    # (a speed-up that saves too little on a short run is not shown: worth_speeding_up)
    assert d.speed_box.isVisibleTo(d) == bool(worth_speeding_up(adv))
    assert d.alt_box.isVisibleTo(d) == (adv.alternative is not None)
