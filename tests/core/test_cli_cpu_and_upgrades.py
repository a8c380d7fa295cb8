"""What a user reads in `gpucheck check` / `estimate` / the report when the jobs run on the processor
(a CPU-only PC, or `--gpu cpu`), and how a suggested upgrade states the job's time — on recorded machines."""

from __future__ import annotations

import json
import re

import pytest

from gpucheck.cli import main
from gpucheck.i18n import set_language
from tests.conftest import FIXTURES

MACHINES = FIXTURES / "machines"


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    set_language("en")


def run(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def _heading(out: str) -> str:
    lines = out.splitlines()
    return next(lines[i - 1] for i, ln in enumerate(lines) if ln.startswith("----"))


def test_check_on_a_cpu_only_pc_heads_the_memory_column_ram(capsys):
    rc, out, err = run(capsys, "check", "--machine", str(MACHINES / "office-pc-cpu-only.json"))
    assert rc == 0, err
    head = _heading(out)
    assert "RAM need / total" in head and "VRAM" not in head
    assert "3.0 GiB / 8.0 GiB" in out  # cifar10-resnet18 in FP32 (the i5-12400 has no native BF16) / the 8 GB


def test_check_on_a_cpu_only_pc_in_chinese_has_no_english_heading(capsys):
    rc, out, err = run(capsys, "check", "--machine", str(MACHINES / "office-pc-cpu-only.json"), "--lang", "zh_CN")
    assert rc == 0, err
    head = _heading(out)
    assert "内存" in head and "显存" not in head
    assert not re.search(r"[A-Za-z]", head), head


def test_check_on_a_gpu_keeps_the_vram_heading(capsys):
    rc, out, _ = run(capsys, "check", "--machine", str(MACHINES / "rtx3060-12gb-hdd-desktop.json"))
    assert rc == 0 and "VRAM need / usable" in _heading(out)


def test_gpu_cpu_estimates_the_saved_machine_without_its_gpu(capsys):
    """`--gpu cpu` on the RTX 3060 desktop: the CPU and its 16 GB of RAM, no GPU."""
    rc, out, err = run(capsys, "check", "--gpu", "cpu", "--machine",
                       str(MACHINES / "rtx3060-12gb-hdd-desktop.json"), "--json")
    assert rc == 0, err
    d = json.loads(out)
    assert d["target"]["backend"] == "cpu" and d["target"]["gpus"] == 0
    assert round(d["target"]["ram_gib"]) == 16
    on_gpu = json.loads(run(capsys, "check", "--machine", str(MACHINES / "rtx3060-12gb-hdd-desktop.json"),
                            "--json")[1])
    hours = {e["workload"]: e["total_hours"] for e in d["estimates"]}
    gpu_hours = {e["workload"]: e["total_hours"] for e in on_gpu["estimates"]}
    assert hours["cifar10-resnet18"] > 3 * gpu_hours["cifar10-resnet18"]  # the processor is much slower
    rc, out, _ = run(capsys, "check", "--gpu", "CPU-only", "--machine",
                     str(MACHINES / "rtx3060-12gb-hdd-desktop.json"))
    assert rc == 0 and "CPU only" in out and "RAM need / total" in _heading(out)


def test_gpu_cpu_with_gpus_is_one_clear_error(capsys):
    rc, _, err = run(capsys, "estimate", "mnist-cnn", "--gpu", "cpu", "--gpus", "2", "--machine",
                     str(MACHINES / "office-pc-cpu-only.json"))
    assert rc == 2 and "--gpus" in err and err.count("\n") == 1


def test_report_on_a_cpu_only_pc_heads_the_memory_column_ram(tmp_path, capsys):
    out = tmp_path / "r.json"
    rc, _, err = run(capsys, "report", str(out), "--machine", str(MACHINES / "office-pc-cpu-only.json"))
    assert rc == 0, err
    rc, _, err = run(capsys, "report", str(tmp_path / "r.html"), "--machine",
                     str(MACHINES / "office-pc-cpu-only.json"))
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    # the ladder's memory column is the RAM (gpucheck.report.figures: one label in the app and the report)
    assert "RAM: as configured → with the changes" in html and "VRAM: as configured" not in html
    assert "needs 3.0 GiB of 8.0 GiB" in html.replace("<br/>", " ")  # cifar10-resnet18 in FP32: no native BF16 on the i5-12400


def test_a_gpu_upgrade_states_the_jobs_time_once(capsys):
    """RTX 2060 Super desktop, Llama 3 8B LoRA (a 15 GB 16-bit base: does not fit 8 GB; SDXL LoRA now runs
    there with kohya's 8 GB recipe): each suggested card says how long the job takes with it, once."""
    rc, out, err = run(capsys, "estimate", "llama3-8b-lora", "--machine", str(MACHINES / "rtx2060super-windows.json"))
    assert rc == 0, err
    block = out.split("Upgrades:")[1].split("Rent a cloud GPU:")[0]
    cards = [ln for ln in block.splitlines() if ln.startswith("    ") and not ln.strip().startswith("·")]
    assert cards, block
    for line in cards:
        times = re.findall(r"\d+(?:\.\d+)? (?:h|min|days)\b", line)
        assert len(times) == 1, line
        assert "with it this job takes about" in line


def test_chinese_upgrade_and_cloud_lines_have_no_english_prose(capsys):
    """Part notes and cloud provider qualifiers come from data files: Chinese readers get Chinese."""
    rc, out, err = run(capsys, "estimate", "llama3-8b-lora", "--machine", str(MACHINES / "rtx2060super-windows.json"),
                       "--lang", "zh_CN")
    assert rc == 0, err
    block = out.split("升级：")[1].split("买还是租")[0]
    assert "租用云 GPU：" in block  # the heading the cross-references name
    english = re.compile(r"\b[a-z]{2,}(?:[ ,]+[a-z]{2,}){2,}\b")  # three English words in a row
    for line in block.splitlines():
        assert not english.search(line), line
    for qualifier in ("(free)", "(interruptible)", "(community, spot)"):
        assert qualifier not in out
    assert "约" in block and "换上后这个训练任务大约需要" in block  # the job's time, said once, in Chinese
