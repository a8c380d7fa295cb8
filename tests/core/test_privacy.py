"""Privacy: the app opens no network connection unless the user asks for something online, and what it
writes leaves identifiers (host name, GPU UUIDs) out unless the user opts in.

Every command is run with the network cut at the socket level: any attempt to connect or even to look
up a host name fails the test, naming who tried.
"""

from __future__ import annotations

import json
import socket
import sys
import traceback
from pathlib import Path

import pytest

from gpucheck.cli import main
from tests.conftest import FIXTURES

MACHINES = FIXTURES / "machines"
RECORDED_UUID = "GPU-a1b2c3d4-0000-4e5f-8a9b-0123456789ab"
HOST = "alice-workstation-7"


@pytest.fixture(autouse=True)
def _private_log(tmp_path, monkeypatch):
    """Anything logged goes to a temporary folder, not the user's real log."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def _cut_network(monkeypatch) -> list[str]:
    """connect / create_connection / DNS look-ups record the attempt (with who made it) and fail."""
    attempts: list[str] = []

    def refuse(what):
        def f(*args, **kwargs):
            attempts.append(f"{what}{args[1:] if what.startswith('connect') else args}\n"
                            + "".join(traceback.format_stack(limit=8)))
            raise OSError(f"network access during a privacy test: {what}")
        return f

    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex

    def connect(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6):
            return refuse("connect")(self, address)
        return real_connect(self, address)  # local (AF_UNIX) sockets are not the network

    def connect_ex(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6):
            return refuse("connect_ex")(self, address)
        return real_connect_ex(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "create_connection", refuse("create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", refuse("getaddrinfo"))
    monkeypatch.setattr(socket, "gethostbyname", refuse("gethostbyname"))
    return attempts


@pytest.fixture
def no_network(monkeypatch):
    attempts = _cut_network(monkeypatch)
    yield attempts
    assert not attempts, "the app tried to use the network:\n" + "\n".join(attempts)


def test_the_guard_itself_catches_a_connection(monkeypatch):
    """Without this, a broken guard would make every test below pass."""
    attempts = _cut_network(monkeypatch)
    with pytest.raises(OSError):
        socket.create_connection(("example.com", 80), timeout=1)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    with pytest.raises(OSError):
        s.connect(("127.0.0.1", 9))
    s.close()
    import urllib.request

    with pytest.raises(OSError):
        urllib.request.urlopen("http://example.com/", timeout=1)
    assert len(attempts) == 3


def _user_machine(tmp_path: Path) -> Path:
    """A recorded scan with a host name and a GPU UUID put back in (as a scan with --show-ids has)."""
    data = json.loads((MACHINES / "rtx3060-12gb-hdd-desktop.json").read_text(encoding="utf-8"))
    data["hostname"] = HOST
    data["gpus"][0]["uuid"] = RECORDED_UUID
    p = tmp_path / "mine.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


def test_scan_check_estimate_and_reports_stay_offline(no_network, tmp_path, capsys):
    machine = _user_machine(tmp_path)
    assert main(["scan", "--json", "-o", str(tmp_path / "scan.json")]) == 0
    assert main(["check", "--machine", str(machine), "--json"]) == 0
    assert main(["check", "--gpu", "4090"]) == 0
    assert main(["estimate", "llama3-8b-qlora", "--gpu", "4090", "--json"]) == 0
    assert main(["estimate", str(FIXTURES / "hf/qwen2.5-7b/config.json"), "--machine", str(machine)]) == 0
    assert main(["gpus", "--json"]) == 0 and main(["workloads", "--json"]) == 0
    for name in ("r.json", "r.html"):
        assert main(["report", str(tmp_path / name), "--machine", str(machine)]) == 0
    capsys.readouterr()


def test_pdf_report_stays_offline(no_network, tmp_path, capsys):
    pytest.importorskip("PySide6")
    assert main(["report", str(tmp_path / "r.pdf"), "--machine", str(_user_machine(tmp_path)),
                 "--workloads", "mnist-cnn"]) == 0
    assert (tmp_path / "r.pdf").read_bytes()[:5] == b"%PDF-"
    capsys.readouterr()


def test_scan_output_leaves_out_host_name_and_uuids_by_default(no_network, tmp_path, capsys, monkeypatch):
    import gpucheck.probe as probe_pkg
    from gpucheck.machine import Machine

    recorded = Machine.load(_user_machine(tmp_path))
    monkeypatch.setattr(probe_pkg, "scan", lambda *a, **k: recorded)
    out = tmp_path / "scan.json"
    assert main(["scan", "--json", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    for text in (printed, out.read_text(encoding="utf-8")):
        assert HOST not in text and RECORDED_UUID not in text
        assert "RTX 3060" in text  # the hardware itself is still there
    assert main(["scan", "--json", "--show-ids"]) == 0
    shown = capsys.readouterr().out
    assert HOST in shown and RECORDED_UUID in shown


@pytest.mark.parametrize("name", ["r.json", "r.html"])
def test_reports_leave_out_identifiers_unless_asked(no_network, tmp_path, capsys, name):
    machine = _user_machine(tmp_path)
    out = tmp_path / name
    assert main(["report", str(out), "--machine", str(machine), "--workloads", "mnist-cnn"]) == 0
    text = out.read_text(encoding="utf-8")
    assert HOST not in text and RECORDED_UUID not in text
    assert main(["report", str(out), "--machine", str(machine), "--workloads", "mnist-cnn", "--include-ids"]) == 0
    text = out.read_text(encoding="utf-8")
    assert HOST in text and RECORDED_UUID in text
    capsys.readouterr()


def test_core_modules_do_not_import_network_libraries():
    """Static check: nothing in gpucheck/ imports a network client (urllib.request, http.client,
    requests, httpx, aiohttp, ftplib, smtplib, socket)."""
    import ast

    pkg = Path(__file__).resolve().parents[2] / "gpucheck"
    net = {"urllib.request", "http.client", "requests", "httpx", "aiohttp", "ftplib", "smtplib", "socket",
           "urllib3", "websocket", "PySide6.QtNetwork"}
    bad = []
    for path in pkg.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            bad += [f"{path.name}:{node.lineno} {n}" for n in names if n in net]
    assert not bad, bad


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
