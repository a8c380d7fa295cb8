"""Every error a user can cause is one line, exit 2, in their language — the inputs that used to end in an
internal error, a hang, English under --lang zh_CN or a 100 KB echo (the whole matrix: tests/faults.py)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gpucheck import cli

ROOT = Path(__file__).resolve().parents[2]
CPU_VM = ROOT / "tests" / "fixtures" / "machines" / "cpu-only-vm.json"
CJK = re.compile(r"[\u4e00-\u9fff]")


def _run(capsys, *argv):
    code = cli.main(list(argv))
    err = capsys.readouterr().err
    return code, err


def _scan(tmp_path: Path, **gpu) -> Path:
    data = json.loads(CPU_VM.read_text(encoding="utf-8"))
    data["gpus"] = [dict({"index": 0, "name": "X", "vendor": "nvidia", "backend": "cuda",
                          "vram_total_bytes": 8 * 1024**3}, **gpu)]
    p = tmp_path / "scan.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


@pytest.mark.parametrize(("gpu", "key"), [({"vendor": "bogus"}, "vendor"),
                                          ({"vram_total_bytes": 10**40}, "vram_total_bytes")])
def test_a_saved_scan_is_sense_checked_naming_the_key(tmp_path, capsys, gpu, key):
    code, err = _run(capsys, "check", "--machine", str(_scan(tmp_path, **gpu)))
    assert code == 2 and f"gpus[0].{key}" in err and err.count("\n") == 1 and len(err) < 300


def test_a_measured_speed_of_1e_300_is_refused(tmp_path, capsys):
    """Before: accepted, and a 300-digit number of years printed."""
    p = _scan(tmp_path)
    data = json.loads(p.read_text())
    data["measured"] = {"disk_seq_read_mb_per_s": 1e-300}
    p.write_text(json.dumps(data))
    code, err = _run(capsys, "check", "--machine", str(p))
    assert code == 2 and "measured.disk_seq_read_mb_per_s" in err


@pytest.mark.parametrize("content", [b"level = " + b"1" * 5000, b"a = 1\n[[[", b"\xff\xfe", b"bogus = 1"])
def test_file_content_errors_are_in_chinese(tmp_path, capsys, content):
    p = tmp_path / "job.toml"
    p.write_bytes(content)
    code, err = _run(capsys, "estimate", str(p), "--gpu", "4090", "--lang", "zh_CN")
    assert code == 2 and CJK.search(err) and err.count("\n") == 1


def test_a_missing_file_is_said_in_chinese(tmp_path, capsys):
    for argv in (["check", "--machine", str(tmp_path / "no.json")],
                 ["estimate", str(tmp_path / "no" / "config.json"), "--gpu", "4090"],
                 ["estimate", str(tmp_path / "no.toml"), "--gpu", "4090"]):
        code, err = _run(capsys, *argv, "--lang", "zh_CN")
        assert code == 2 and "文件不存在" in err, err


def test_long_values_are_cut_when_echoed(tmp_path, capsys):
    code, err = _run(capsys, "check", "--gpu", "x" * 100_000)
    assert code == 2 and len(err) < 300
    p = _scan(tmp_path)
    data = json.loads(p.read_text())
    data["measured"] = {"bogus": 1}
    p.write_text(json.dumps(data))
    code, err = _run(capsys, "check", "--machine", str(p))
    assert code == 2 and "'bogus'" in err and len(err) < 400  # was a 731-character list of keys


@pytest.mark.parametrize(("argv", "what"), [(["check", "--gpu", ""], "--gpu"),
                                           (["trial", "mnist-cnn", "--python", "", "--machine", str(CPU_VM)],
                                            "--python")])
def test_empty_values_are_bad_input(capsys, argv, what):
    """Before: `--gpu ""` scanned this PC; `--python ""` said "gpucheck:  cannot be started: PermissionError"."""
    code, err = _run(capsys, *argv)
    assert code == 2 and err.startswith(f"gpucheck: {what}:")


def test_a_file_name_over_255_bytes_is_bad_input(tmp_path, capsys):
    code, err = _run(capsys, "report", str(tmp_path / ("r" * 300 + ".json")), "--machine", str(CPU_VM))
    assert code == 2 and "file name too long" in err and len(err) < 300


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_output_to_a_full_device_is_one_line(tmp_path):
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "gpucheck", "gpus", "--json"], stdout=full,
                           stderr=subprocess.PIPE, text=True, cwd=str(ROOT), timeout=60)
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "No space left" in r.stderr


@pytest.mark.parametrize("body", ['{"workload": "mnist-cnn", "outcome": "ran", "measured": 5}', "[1]",
                                  '{"workload": ' + "9" * 5000 + "}", "[" * 100_000])
def test_malformed_trial_files_are_bad_input(tmp_path, capsys, body):
    p = tmp_path / "trial.json"
    p.write_text(body)
    code, err = _run(capsys, "report", str(tmp_path / "r.json"), "--machine", str(CPU_VM), "--trial", str(p),
                     "--lang", "zh_CN")
    assert code == 2 and "trial.json" in err and CJK.search(err)
