"""Reports (model and HTML, so the PDF too; no Qt) show the advice's optional speed-ups for a job that runs
but leaves the GPU idle, and the smaller model that fits when the job does not — in English and Chinese.

Recorded machines (tests/fixtures/SOURCES.md): an RTX 4090 desktop on a 650 W supply, where Llama 3 8B
QLoRA run unpacked (the user's `--no-packing`: one short sample per row) leaves the card idle between small
steps, and a GTX 1660 Ti laptop (6 GB), where it does not fit.
"""

from __future__ import annotations

import dataclasses
import json
import re
from html import escape

import pytest

from gpucheck.advise import advise
from gpucheck.advise.present import settings_text
from gpucheck.catalog import get_workload
from gpucheck.estimate import Target, estimate
from gpucheck.i18n import fmt_duration, fmt_gib, use_language
from gpucheck.machine import Machine
from gpucheck.report import build_report
from gpucheck.report.html import fit_code, render_html
from gpucheck.report.json import render_json
from gpucheck.report.model import Evaluation
from tests.conftest import FIXTURES
from tests.helpers import estimate_and_advise

JOB = "llama3-8b-qlora"
RTX4090 = FIXTURES / "machines" / "rtx4090-650w-desktop.json"
# 8 GB under WSL2 with 7.5 GiB of RAM: the 8B QLoRA fits 8 GB only with Unsloth, whose checkpoints that RAM cannot hold;
# a smaller model fits (the GTX 1660 Ti trains in FP32: nothing fits 6 GB; the 2060 SUPER desktop runs it with Unsloth)
GTX1660 = FIXTURES / "machines" / "rtx4060-laptop-wsl2.json"
CJK = re.compile(r"[\u4e00-\u9fff]")


def report(path, lang="en"):
    model = build_report(Machine.load(path), [JOB], lang=lang)
    (job,) = model.jobs
    assert job.workload_id == JOB
    return model, job


def unpacked_report(path, lang):
    """The report for JOB as the user set it with `--no-packing` (packing is the default for short samples;
    unpacked, each 8B QLoRA step holds one short sample and the 4090 waits on the CPU)."""
    machine = Machine.load(path)
    base = get_workload(JOB)
    w = dataclasses.replace(base, train=dataclasses.replace(base.train, packing=False))
    target = Target.from_machine(machine)
    with use_language(lang):
        est = estimate(w, target)
        adv = advise(machine, w, target, est)
    model = build_report(machine, [JOB], lang=lang, evaluations=(Evaluation(w, est, adv, detailed=True),))
    (job,) = model.jobs
    return est, adv, model, job


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_speed_tweaks_in_the_report(lang):
    est, adv, model, job = unpacked_report(RTX4090, lang)
    assert est.bottleneck == "overhead"
    assert adv.verdict == "runs" and adv.speed_tweaks
    with use_language(lang):
        expected = tuple((t.title, t.cost, fmt_gib(t.peak_vram_bytes), fmt_duration(t.total_hours))
                         for t in adv.speed_tweaks)
    assert job.speed_tweaks is not None and job.speed_tweaks.rows == expected
    assert job.alternative is None
    for t in adv.speed_tweaks:
        assert f"# {t.title}\n{settings_text(t.settings)}" in job.speed_settings
    assert "packing=True" in job.speed_settings
    html = render_html(model)
    assert escape(model.section_titles["speed"]) in html and escape(job.speed_intro) in html
    assert escape(model.section_titles["alternative"]) not in html
    for t in adv.speed_tweaks:
        assert escape(t.title) in html and escape(t.cost) in html
        assert escape(settings_text(t.settings)) in html
    if lang == "zh_CN":
        assert CJK.search(model.section_titles["speed"]) and CJK.search(job.speed_intro)
        assert all(CJK.search(row[0]) for row in job.speed_tweaks.rows)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_smaller_model_in_the_report(lang):
    est, adv = estimate_and_advise(GTX1660, JOB, lang)
    assert adv.verdict == "does_not_fit" and adv.alternative is not None
    alt = adv.alternative
    model, job = report(GTX1660, lang)
    assert job.speed_tweaks is None and job.speed_settings == ""
    sec = job.alternative
    assert sec is not None and sec.workload_id == alt.workload_id
    assert alt.title in sec.headline
    with use_language(lang):
        assert fmt_gib(alt.peak_vram_bytes) in sec.headline and fmt_duration(alt.total_hours) in sec.headline
    assert alt.peak_vram_bytes <= est.vram_available_bytes  # what "fits this GPU" promises
    assert sec.tweaks.rows == tuple((f"{i}. {t.title}", t.cost) for i, t in enumerate(alt.tweaks, 1))
    assert sec.snippet == alt.snippet and alt.settings["model"] in sec.snippet
    # the job's own tweaks (if any: FP16 is this card's default, not a tweak) are headed as tried, not as what
    # makes it work
    assert not adv.tweaks or (job.tweaks_title and job.tweaks_title != model.section_titles["tweaks"])
    html = render_html(model)
    for text in (model.section_titles["alternative"], sec.headline, job.tweaks_title or sec.headline,
                 model.section_titles["alternative_snippet"], *(t.title for t in alt.tweaks)):
        assert escape(text) in html
    assert escape(fit_code(alt.snippet)[0]) in html  # as printed: long comments folded, commands whole
    if lang == "zh_CN":
        assert CJK.search(sec.headline) and (not adv.tweaks or CJK.search(job.tweaks_title))


def test_json_report_keeps_both():
    """The JSON report carries the same advice (keys of `gpucheck estimate --json`)."""
    for path, key in ((RTX4090, "speed_tweaks"), (GTX1660, "smaller_model")):
        _, adv = estimate_and_advise(path, JOB)
        model, _ = report(path)
        data = json.loads(render_json(model))
        (wl,) = [w for w in data["workloads"] if w["id"] == JOB]
        got = wl["advice"][key]
        if key == "speed_tweaks":
            assert [t["settings"] for t in got] == [t.settings for t in adv.speed_tweaks]
        else:
            assert got["workload"] == adv.alternative.workload_id and got["snippet"] == adv.alternative.snippet
