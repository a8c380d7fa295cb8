"""The Machine record: fixtures load and round-trip; bad files are one clear error (exit 2 in the CLI);
`gpucheck scan` output keeps identifiers out unless asked."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from gpucheck import cli, probe
from gpucheck.errors import BadInput
from gpucheck.machine import SCHEMA_VERSION, Disk, Machine
from gpucheck.machine_text import format_machine
from gpucheck.report.privacy import redact_machine
from tests.conftest import FIXTURES, ROOT

MACHINES = sorted((FIXTURES / "machines").glob("*.json"))
REQUIRED = ["rtx3080-desktop", "a100-mig-server", "rx7900xt-desktop", "m1-macbookair", "phoenix-apu-laptop",
            "cpu-only-vm", "gtx1650-hybrid-laptop", "rtx2060super-windows", "rtx4060-laptop-wsl2", "gtx1660-laptop",
            "rtx3060-12gb-hdd-desktop", "rtx4090-650w-desktop", "m2max-macbookpro", "office-pc-cpu-only",
            "h100x8-server"]


def test_every_required_fixture_exists_and_is_documented():
    names = {p.stem for p in MACHINES}
    assert set(REQUIRED) <= names
    sources = (FIXTURES / "SOURCES.md").read_text()
    for n in names:
        assert f"`{n}.json`" in sources, n


@pytest.mark.parametrize("path", MACHINES, ids=lambda p: p.stem)
def test_fixture_round_trip(path):
    m = Machine.load(path)
    assert m.schema_version == SCHEMA_VERSION and m.label == path.stem
    assert Machine.from_dict(json.loads(m.to_json())) == m
    text = format_machine(m)
    for g in m.gpus:
        assert g.name in text


def test_fixture_facts_a_user_would_notice():
    load = lambda n: Machine.load(FIXTURES / "machines" / f"{n}.json")  # noqa: E731
    assert load("rtx2060super-windows").gpus[0].vram_total_bytes == 8 * 1024**3
    assert load("m1-macbookair").memory.shared_with_gpu is True
    hybrid = load("gtx1650-hybrid-laptop")
    assert [g.vendor for g in hybrid.compute_gpus()] == ["nvidia"] and len(hybrid.gpus) == 2
    assert load("phoenix-apu-laptop").gpus[0].memory_kind == "carve-out"
    assert load("gtx1660-laptop").power.on_battery is True
    assert any(f.code == "disk.hdd_only" for f in load("rtx3060-12gb-hdd-desktop").findings)
    assert load("rtx4090-650w-desktop").power.recommended_psu_w == 850
    assert load("rtx4090-650w-desktop").power.psu_rated_w == 650
    h100 = load("h100x8-server")
    assert len(h100.gpus) == 8 and all(g.nvlink_links == 18 for g in h100.gpus)
    assert load("office-pc-cpu-only").compute_gpus() == ()
    assert load("rtx3080-desktop").gpus[0].catalog_id == "rtx-3080"
    vm = load("cpu-only-vm")
    assert vm.gpus == () and all(d.kind == "virtual" for d in vm.disks) and vm.hostname is None


def test_bad_files_are_bad_input(tmp_path):
    with pytest.raises(BadInput, match="file not found"):
        Machine.load(tmp_path / "missing.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00garbage\x80")
    with pytest.raises(BadInput):
        Machine.load(tmp_path / "bin.json")
    (tmp_path / "v99.json").write_text(json.dumps({"schema_version": 99}))
    with pytest.raises(BadInput, match="schema_version 99 is not supported"):
        Machine.load(tmp_path / "v99.json")
    data = json.loads((FIXTURES / "machines" / "rtx3080-desktop.json").read_text())
    data["gpus"][0]["vram_total_bytes"] = "ten gigs"
    (tmp_path / "typo.json").write_text(json.dumps(data))
    with pytest.raises(BadInput, match="vram_total_bytes"):
        Machine.load(tmp_path / "typo.json")


def run_cli(*args: str, cwd=None):
    return subprocess.run([sys.executable, "-m", "gpucheck", *args], capture_output=True, text=True, cwd=cwd or ROOT,
                          env={"GPUCHECK_LANG": "en", "PATH": "/usr/bin:/bin", "HOME": str(ROOT)}, timeout=120)


def test_cli_scan_json_is_redacted_and_loads(tmp_path):
    out = tmp_path / "scan.json"
    r = run_cli("scan", "--json", "-o", str(out))
    assert r.returncode == 0, r.stderr
    m = Machine.from_dict(json.loads(r.stdout))
    assert m.hostname is None and all(g.uuid is None for g in m.gpus)
    assert Machine.load(out).hostname is None
    shown = run_cli("scan", "--json", "--show-ids")
    assert json.loads(shown.stdout)["hostname"]  # the host name is there when asked for


def test_cli_scan_text():
    r = run_cli("scan")
    assert r.returncode == 0 and "CPU:" in r.stdout and "RAM:" in r.stdout and "Findings:" in r.stdout


def test_cli_scan_unwritable_output_is_one_line_exit_2(tmp_path):
    r = run_cli("scan", "--json", "-o", str(tmp_path / "no-such-folder" / "scan.json"))
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr and "no-such-folder" in r.stderr


def test_cli_wrong_schema_version_is_one_line_exit_2(tmp_path):
    bad = tmp_path / "old.json"
    bad.write_text(json.dumps({"schema_version": 99}))
    r = run_cli("check", "--machine", str(bad), "--json")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert "schema_version 99" in r.stderr and "Traceback" not in r.stderr


def test_redact_removes_identifiers():
    m = Machine.load(FIXTURES / "machines" / "rtx3080-desktop.json")
    assert m.gpus[0].uuid
    r = redact_machine(dataclasses.replace(m, hostname="my-pc"))
    assert r.hostname is None and r.gpus[0].uuid is None and "UUID" not in format_machine(r)


def test_scan_output_uses_the_reports_privacy_policy(tmp_path, monkeypatch, capsys):
    """`gpucheck scan -o` and the reports hide the same things: a USB stick mounted under the user's name
    is /media/USER/… in both (one policy, gpucheck.report.privacy)."""
    m = Machine.load(FIXTURES / "machines" / "rtx3080-desktop.json")
    m = dataclasses.replace(m, hostname="alices-pc",
                            disks=m.disks + (Disk(device="/dev/sdb1", mount="/media/alice/usb", kind="removable"),))
    monkeypatch.setattr(probe, "scan", lambda **_: m)
    monkeypatch.setattr("gpucheck.report.privacy._current_user", lambda: "alice")
    out = tmp_path / "scan.json"
    assert cli.main(["scan", "--json", "-o", str(out)]) == 0
    saved = out.read_text(encoding="utf-8")
    assert "/media/USER/usb" in saved and "alice" not in saved and m.gpus[0].uuid not in saved
    assert "alice" not in capsys.readouterr().out
    assert cli.main(["scan", "--json", "--show-ids", "-o", str(out)]) == 0
    assert "/media/alice/usb" in out.read_text(encoding="utf-8")
