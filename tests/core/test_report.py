"""Reports without Qt: the JSON and HTML a user saves, privacy, and what happens when writing fails.

All reports are made for recorded machines from tests/fixtures/machines (see tests/fixtures/SOURCES.md).
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import re
from pathlib import Path

import pytest

from gpucheck.catalog import load_workloads
from gpucheck.cli import main
from gpucheck.errors import BadInput
from gpucheck.i18n import translate
from gpucheck.machine import Machine
from gpucheck.records import VERDICTS
from gpucheck.report import build_report, report_format, write_report
from gpucheck.report.html import render_html
from gpucheck.report.json import render_json
from gpucheck.report.model import default_paper
from gpucheck.report.privacy import redact_machine, scrub_text
from gpucheck.verdict import verdict_label
from tests.conftest import FIXTURES

RTX3080 = FIXTURES / "machines" / "rtx3080-desktop.json"
RECORDED_UUID = "GPU-00000000-0000-0000-0000-000000000000"  # the recorded nvidia-smi UUID (redacted at source)


def run(*argv: str) -> int:
    return main(list(argv))


@pytest.fixture(scope="module")
def machine() -> Machine:
    return Machine.load(RTX3080)


@pytest.fixture(scope="module")
def user_machine(machine) -> Machine:
    """The recorded RTX 3080 desktop as it looks when scanned in a user's home folder."""
    fw = tuple(dataclasses.replace(f, location=f"/home/alice/.venv/lib/python3.11/site-packages/{f.name}")
               for f in machine.software.frameworks)
    disks = machine.disks + (dataclasses.replace(machine.disks[0], mount="/home/alice/datasets"),)
    return dataclasses.replace(machine, hostname="alice-workstation", disks=disks,
                               software=dataclasses.replace(machine.software, frameworks=fw))


@pytest.fixture(scope="module")
def model_en(machine):
    return build_report(machine, lang="en")


# -- JSON ------------------------------------------------------------------------------------------


def test_json_report_carries_machine_every_estimate_and_advice(tmp_path, capsys):
    out = tmp_path / "mypc.json"
    assert run("report", str(out), "--machine", str(RTX3080)) == 0
    assert str(out) in capsys.readouterr().out
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["kind"] == "gpucheck-report"
    assert data["schema_version"] == 1
    ids = [w["id"] for w in data["workloads"]]
    assert ids == [w.id for w in load_workloads()]  # the whole ladder, easiest first
    for w in data["workloads"]:
        est = w["estimate"]
        assert est["verdict"] in VERDICTS
        assert est["gpu"] == "NVIDIA GeForce RTX 3080"
        assert set(est["vram_breakdown_gib"]) == {"weights", "gradients", "optimizer", "activations", "overhead"}
        assert w["detailed"] is True
        assert w["advice"]["verdict"] in VERDICTS
    # the mnist job fits in the 0.6 GB this recorded card had free; Llama 3 70B never does
    by_id = {w["id"]: w for w in data["workloads"]}
    assert by_id["llama3-70b-qlora"]["advice"]["verdict"] == "does_not_fit"
    assert data["sources"] and data["assumptions"]


def test_json_report_loads_back_as_the_machine(tmp_path):
    first = tmp_path / "first.json"
    assert run("report", str(first), "--machine", str(RTX3080)) == 0
    loaded = Machine.load(first)
    expected = redact_machine(Machine.load(RTX3080))
    assert dataclasses.replace(loaded, label=None) == dataclasses.replace(expected, label=None)
    # a report made from a report describes the same machine
    second = tmp_path / "second.json"
    assert run("report", str(second), "--machine", str(first)) == 0
    a = json.loads(first.read_text(encoding="utf-8"))
    b = json.loads(second.read_text(encoding="utf-8"))
    assert a["machine"] == b["machine"]
    assert [w["estimate"] for w in a["workloads"]] == [w["estimate"] for w in b["workloads"]]


def test_json_estimates_are_the_estimators_own(model_en, machine):
    # one serializer (issue 16): the report's JSON is what `estimate --json` prints, tweaks included
    from gpucheck.advise.job_json import job_to_json

    data = json.loads(render_json(model_en))
    for ev, entry in zip(model_en.evaluations, data["workloads"], strict=True):
        assert entry["estimate"] == json.loads(json.dumps(job_to_json(ev.estimate, ev.workload, ev.advice)))
        if ev.advice is not None and ev.advice.tweaks:
            assert entry["estimate"]["tweaks"], "report JSON's tweaks were always [] (issue 16)"


def test_workloads_option_details_only_the_chosen_jobs(tmp_path):
    out = tmp_path / "one.json"
    assert run("report", str(out), "--machine", str(RTX3080), "--workloads", "llama3-8b-qlora") == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    detailed = [w["id"] for w in data["workloads"] if w["detailed"]]
    assert detailed == ["llama3-8b-qlora"]
    assert len(data["workloads"]) == len(load_workloads())  # the ladder is still complete


def test_unknown_workload_is_bad_input_with_a_suggestion(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert run("report", str(out), "--machine", str(RTX3080), "--workloads", "llama3-8b-qlorra") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "llama3-8b-qlora" in err
    assert not out.exists()


# -- content ---------------------------------------------------------------------------------------


def test_html_has_the_whole_ladder_and_the_sections(model_en):
    html = render_html(model_en)
    assert "<script" not in html and "http-equiv" not in html  # one self-contained file
    for w in load_workloads():
        assert w.title in html
    for key in ("machine", "findings", "ladder", "jobs", "tweaks", "bottlenecks", "cloud",
                "assumptions", "sources", "glossary"):
        assert model_en.section_titles[key] in html, key
    assert "NVIDIA GeForce RTX 3080" in html
    assert "Gradient checkpointing" in html and "QLoRA" in html  # the glossary
    assert "Page" not in html  # page numbers belong to the PDF only


def test_html_shows_cloud_prices_with_their_dates(model_en):
    html = render_html(model_en)
    job = next(j for j in model_en.jobs if j.cloud is not None)
    date_col = job.cloud.headers.index("Price date")
    for row in job.cloud.rows:
        assert row[date_col][:4].isdigit()  # "2026-11-29" or "2026-06-30 (unverified)"
        assert row[date_col].split()[0] in html


def test_chinese_report_is_in_chinese(machine):
    model = build_report(machine, lang="zh_CN")
    html = render_html(model)
    for w in load_workloads():
        assert (w.title_zh or w.title) in html
    zh_title = translate("Can this computer train AI models?", "zh_CN")
    assert zh_title != "Can this computer train AI models?", "the report title has no Chinese translation"
    assert zh_title in html
    assert '<html lang="zh-CN">' in html
    # made from an English session (as the app does when the user picks Chinese for the report only),
    # the advice inside is Chinese too
    assert any(re.search(r"[\u4e00-\u9fff]", job.headline) for job in model.jobs)


def test_verdicts_in_the_ladder_match_the_advice(model_en):
    for ev, row in zip(model_en.evaluations, model_en.ladder.rows, strict=True):
        assert ev.advice is not None
        assert row[2] == verdict_label(ev.advice.verdict)  # the one label (gpucheck.verdict)


# -- privacy ---------------------------------------------------------------------------------------


def test_reports_leave_out_ids_and_user_names(user_machine):
    model = build_report(user_machine, lang="en", workload_ids=["mnist-cnn"])
    for text in (render_html(model), render_json(model)):
        assert RECORDED_UUID not in text
        assert "alice" not in text
        assert "/home/USER/datasets" in text  # the folder is still there, without the user name


def test_include_ids_keeps_host_name_and_uuid(user_machine):
    model = build_report(user_machine, lang="en", workload_ids=["mnist-cnn"], include_ids=True)
    html, js = render_html(model), render_json(model)
    for text in (html, js):
        assert RECORDED_UUID in text
        assert "alice-workstation" in text
    assert json.loads(js)["include_ids"] is True


def test_scrub_text_removes_identifiers():
    assert scrub_text("C:\\Users\\Bob\\AppData\\torch") == "C:\\Users\\USER\\AppData\\torch"
    assert scrub_text("/Users/bob/miniconda3") == "/Users/USER/miniconda3"
    assert scrub_text("/run/media/bob/USB") == "/run/media/USER/USB"
    assert scrub_text("uuid GPU-8f0c9a4e-1b2c-4d5e-8f90-a1b2c3d4e5f6 ok") == "uuid [hidden] ok"
    assert scrub_text("Serial Number: 1324021012345") == "Serial Number: [hidden]"
    assert scrub_text("scanned on bobs-pc today", hostname="bobs-pc") == "scanned on [hidden] today"
    assert scrub_text("/dev/nvme0n1p2 on /") == "/dev/nvme0n1p2 on /"


# -- writing ---------------------------------------------------------------------------------------


def test_unknown_extension_is_exit_2_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "report.docx"
    assert run("report", str(out), "--machine", str(RTX3080)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ".docx" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(BadInput):
        report_format("x")


def _unwritable_folder(tmp_path: Path) -> Path:
    if os.geteuid() != 0:
        folder = tmp_path / "locked"
        folder.mkdir()
        folder.chmod(0o555)
        return folder
    if Path("/sys").is_dir():  # root can write anywhere except kernel file systems
        return Path("/sys")
    pytest.skip("no folder is read-only for this user")


def test_unwritable_folder_is_exit_2_and_writes_nothing(tmp_path, capsys):
    folder = _unwritable_folder(tmp_path)
    before = set(folder.iterdir())
    for name in ("r.pdf", "r.html", "r.json"):
        assert run("report", str(folder / name), "--machine", str(RTX3080)) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "cannot write" in err and "Traceback" not in err
    assert set(folder.iterdir()) == before


def test_missing_folder_is_exit_2(tmp_path, capsys):
    assert run("report", str(tmp_path / "nope" / "r.html"), "--machine", str(RTX3080)) == 2
    assert "does not exist" in capsys.readouterr().err


def test_full_disk_keeps_the_old_file_and_leaves_no_temp(tmp_path, monkeypatch, capsys):
    out = tmp_path / "r.json"
    out.write_text("the report from last week\n", encoding="utf-8")
    import gpucheck.fileio

    def disk_full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(gpucheck.fileio.os, "fsync", disk_full)
    assert run("report", str(out), "--machine", str(RTX3080)) == 2
    err = capsys.readouterr().err
    assert os.strerror(errno.ENOSPC) in err and err.count("\n") == 1
    assert out.read_text(encoding="utf-8") == "the report from last week\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_write_report_picks_the_format_by_extension(model_en, tmp_path):
    h = write_report(model_en, tmp_path / "a.HTM")
    assert h.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    j = write_report(model_en, tmp_path / "a.json")
    assert json.loads(j.read_text(encoding="utf-8"))["kind"] == "gpucheck-report"


# -- paper -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("env,paper", [
    ({"LANG": "en_US.UTF-8"}, "letter"),
    ({"LANG": "en_CA.UTF-8"}, "letter"),
    ({"LANG": "es_MX.UTF-8"}, "letter"),
    ({"LANG": "en_GB.UTF-8"}, "a4"),
    ({"LANG": "zh_CN.UTF-8"}, "a4"),
    ({"LANG": "de_DE.UTF-8"}, "a4"),
    ({"LANG": "en_US.UTF-8", "LC_PAPER": "de_DE.UTF-8"}, "a4"),
    ({"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}, "letter"),
    ({"LANG": "C.UTF-8"}, "a4"),
    ({"LANG": "zh-TW"}, "a4"),
])
def test_paper_follows_the_locale(env, paper):
    assert default_paper(env) == paper


# -- composed rows (QA of the reports) --------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_figure_rows_do_not_repeat_their_own_label(machine, lang):
    """A row 'Training time | 1.4 h as configured', not 'Training time | Training time: 1.4 h' (QA read
    '训练时间 | 训练时间：…' and the same for the video memory in both report formats)."""
    model = build_report(machine, lang=lang)
    for job in model.jobs:
        for label, value in job.figures.rows:
            assert not value.startswith(label), (job.workload_id, label, value)
    html = render_html(model)  # the HTML (and the PDF, drawn from the same HTML) shows the model's rows
    time_label = translate("Training time", lang)
    assert f'{time_label}</td><td valign="top">' in html
    assert f'{time_label}</td><td valign="top">{time_label}' not in html


def test_spot_offers_say_can_be_stopped_once(model_en):
    """Vast.ai's interruptible offer (cloud.toml) is stopped at any time: the notes say so, the provider
    cell does not say it again."""
    spot_rows = [r for job in model_en.jobs if job.cloud for r in job.cloud.rows if "can be stopped" in " ".join(r)]
    assert spot_rows, "the recorded RTX 3080 report lists a spot offer"
    for row in spot_rows:
        assert " ".join(row).count("can be stopped") == 1 and "can be stopped" in row[-1], row


def test_english_notes_joined_have_no_capital_after_a_semicolon(model_en):
    """The used RTX 3090's note (parts.toml: 'Bought used …') follows the reason as its own sentence, not
    as '…; Bought used' (a capital letter mid-sentence)."""
    whys = [r[1] for job in model_en.jobs if job.upgrades for r in job.upgrades.rows]
    assert any("Bought used" in w for w in whys), "the RTX 3080 report suggests the used RTX 3090"
    for why in whys:
        assert not re.search(r"; [A-Z][a-z]+\b(?![.-]\w)", why), why
        assert ". Bought used" in why or "Bought used" not in why


def test_the_eager_stack_is_not_named_after_the_hugging_face_trainer_alone(capsys):
    """An ImageNet ResNet-50 is trained with a plain PyTorch loop (torchvision's reference script), not the
    Hugging Face Trainer: the stack's label covers both."""
    assert run("estimate", "imagenet-resnet50", "--gpu", "4090") == 0
    text = capsys.readouterr().out
    assert "eager PyTorch (a plain training loop or the Hugging Face Trainer)" in text


def test_the_report_keeps_what_a_deep_scan_measured():
    """A saved deep scan (recorded on gpucheck's build machine) carries its measurements into the report: one row
    each, in the report's language, the RAM copy on one thread and on all of them included."""
    deep = Machine.load(FIXTURES / "recorded" / "calibration" / "intel-amx-2vcpu.deep-scan.json")
    html = render_html(build_report(deep, lang="en", workload_ids=["mnist-cnn"]))
    assert "Measured (deep scan)" in html
    assert "RAM copy, one thread: 9.77 GB/s (measured)" in html and "RAM copy, all threads: 17.9 GB/s" in html
    assert "Disk sequential read: 2,030 MB/s" in html
    zh = render_html(build_report(deep, lang="zh_CN", workload_ids=["mnist-cnn"]))
    assert "实测（深度扫描）" in zh and "内存复制，全部线程" in zh
    assert "Measured (deep scan)" not in render_html(build_report(Machine.load(RTX3080), lang="en",
                                                                  workload_ids=["mnist-cnn"]))
