"""The trial's child cannot hang gpucheck, flood its memory, reach the network, read the user's secrets or
leak who the user is into a report — tried with stand-in "Pythons" (shell scripts) that do the hostile
thing for real: a `setsid` grandchild holding the pipes, a flood of output, a 50 MB stderr line, a
connection to a listener on 127.0.0.1 by every path a program has, secrets in gpucheck's environment, a
user and host name echoed everywhere a trial can echo them."""

from __future__ import annotations

import json
import resource
import select
import socket
import stat
import sys
import threading
import time
from pathlib import Path

import pytest

from gpucheck import cli
from gpucheck.catalog import get_workload
from gpucheck.report import privacy
from gpucheck.trial import clean_text
from gpucheck.trial.child import run_child
from gpucheck.trial.models import job_spec
from gpucheck.trial.sandbox import MARKER_ENV, clean_stale_dirs, isolation_prefix, new_dir

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CPU_VM = FIXTURES / "machines" / "cpu-only-vm.json"
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="stand-ins are shell scripts; /proc")
SPEC = job_spec(get_workload("mnist-cnn"), steps=1, max_seconds=1)
RESULT = ('{"event": "result", "outcome": "ran", "protocol": 1, "python": "%s", "python_version": "3.11.9", '
          '"libraries": {"torch": "2.5.1"}, "measured": {"step_seconds": 0.01, "samples_per_second": 6400, '
          '"peak_memory_gib": 0.2, "batch": 64, "steps": 5, "device": "CPU", "device_kind": "cpu"}}')


def _script(folder: Path, name: str, body: str) -> Path:
    p = folder / name
    p.write_text("#!/bin/sh\n" + body)
    p.chmod(p.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return p


def _running(token: str) -> list[int]:
    """Live (not zombie) processes whose command line holds `token`."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if token.encode() in (entry / "cmdline").read_bytes():
                if (entry / "stat").read_text().rsplit(")", 1)[-1].split()[0] != "Z":
                    out.append(int(entry.name))
        except OSError:
            pass
    return out


# -- 2. no hang: a setsid grandchild holding the pipes ---------------------------------------------------


@LINUX
@pytest.mark.parametrize("isolate", [True, False], ids=["namespace-if-permitted", "no-namespace"])
def test_a_setsid_grandchild_holding_the_pipes_cannot_hang_the_trial(tmp_path, isolate):
    """The child answers at once and leaves a `setsid` daemon holding stdout and stderr: the trial returns
    within seconds with the result, the daemon is killed, the temporary folder removed."""
    hold = _script(tmp_path, "hold.sh", "sleep 300\n")
    folder = tmp_path / "folder"
    fake = _script(tmp_path, "python3", f"pwd > {folder}\nsetsid sh {hold} &\necho '{RESULT % 'py'}'\nexit 0\n")
    t0 = time.monotonic()
    raw = run_child(str(fake), SPEC, hard_cap_s=60, isolate=isolate)
    assert raw["outcome"] == "ran" and time.monotonic() - t0 < 12
    time.sleep(0.2)
    assert not _running(str(hold)), "the setsid daemon is still running"
    assert not Path(folder.read_text().strip()).exists()


@LINUX
@pytest.mark.parametrize("isolate", [True, False], ids=["namespace-if-permitted", "no-namespace"])
def test_the_cap_holds_when_a_setsid_grandchild_keeps_the_pipes(tmp_path, isolate):
    """The child hangs and has a `setsid` daemon: the cap (3 s) still ends the trial and both are killed."""
    hold = _script(tmp_path, "hold.sh", "sleep 300\n")
    fake = _script(tmp_path, "python3", f"setsid sh {hold} &\nexec sh {hold}\n")
    t0 = time.monotonic()
    raw = run_child(str(fake), SPEC, hard_cap_s=3, isolate=isolate)
    assert raw["outcome"] == "timed_out" and time.monotonic() - t0 < 12
    time.sleep(0.2)
    assert not _running(str(hold))


@LINUX
def test_a_daemon_that_drops_the_marker_dies_with_the_namespace(tmp_path):
    """`env -i setsid …`: no marker, no parent left — the PID namespace still takes it down."""
    if "--pid" not in isolation_prefix():
        pytest.skip("no PID namespace permitted here")
    hold = _script(tmp_path, "hold.sh", "sleep 300\n")
    fake = _script(tmp_path, "python3", f"env -i setsid sh {hold} &\necho '{RESULT % 'py'}'\n")
    raw = run_child(str(fake), SPEC, hard_cap_s=30)
    assert raw["outcome"] == "ran"
    time.sleep(0.2)
    assert not _running(str(hold))


@LINUX
def test_folders_of_interrupted_trials_are_removed_by_the_next_run(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)
    stale = new_dir()
    (stale / "gpucheck.pid").write_text("999999999 1.0\n")  # its gpucheck was killed
    live = new_dir()  # ours: still running
    assert clean_stale_dirs(str(tmp_path)) == [str(stale)]
    assert not stale.exists() and live.exists()


# -- 3. bounded: a flooding child, a 50 MB line -----------------------------------------------------------


def _peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@LINUX
def test_a_flooding_child_does_not_grow_gpucheck(tmp_path):
    """Endless output on both pipes, no newline on stdout: before, 2.7–7.2 GB in the parent."""
    fake = _script(tmp_path, "python3", "cat /dev/zero >&2 &\nexec cat /dev/zero\n")
    before = _peak_rss_mib()
    raw = run_child(str(fake), SPEC, hard_cap_s=3)
    assert raw["outcome"] == "timed_out"
    assert _peak_rss_mib() - before < 64, "the parent buffered the flood"


@LINUX
def test_a_50_mb_stderr_line_is_cut_in_trial_json(tmp_path, capsys):
    big = tmp_path / "big"
    big.write_bytes(b"E" * 50_000_000 + b"\n")
    fake = _script(tmp_path, "python3", f"cat {big} >&2\necho '{RESULT % 'py'}'\n")
    code = cli.main(["trial", "mnist-cnn", "--python", str(fake), "--machine", str(CPU_VM), "--json"])
    out = capsys.readouterr().out
    assert code == 0 and len(out) < 20_000
    assert json.loads(out)["details"]["stderr_tail"][0].endswith("…")


# -- 4. the network: every path, against a listener on 127.0.0.1 ------------------------------------------

PATHS = ("tcp_connect", "tcp_connect_ex", "create_connection", "urllib", "getaddrinfo", "udp_sendto",
         "udp_sendmsg", "asyncio", "subprocess", "os_system", "ctypes_connect")
# What the runner's in-process block stops (its docstring and docs/trial.md say the same).
IN_PROCESS_BLOCKED = {"tcp_connect", "tcp_connect_ex", "create_connection", "urllib", "getaddrinfo",
                      "udp_sendto", "udp_sendmsg", "asyncio"}

PROBE = r'''
import asyncio, ctypes, json, os, socket, subprocess, sys, urllib.request
sys.path.insert(0, os.path.dirname(sys.argv[1]))
import runner
runner._block_network()
PORT = {port}
CONNECT = "import socket; socket.create_connection(('127.0.0.1', {port}), timeout=3).sendall(b'x')"
def tcp_connect():
    s = socket.socket(); s.settimeout(3); s.connect(("127.0.0.1", PORT)); s.sendall(b"x")
def tcp_connect_ex():
    s = socket.socket(); s.settimeout(3)
    if s.connect_ex(("127.0.0.1", PORT)): raise OSError("refused")
    s.sendall(b"x")
def create_connection():
    socket.create_connection(("127.0.0.1", PORT), timeout=3).sendall(b"x")
def urllib_():
    urllib.request.urlopen(f"http://127.0.0.1:{{PORT}}/", timeout=3)
def getaddrinfo():
    socket.getaddrinfo("localhost", PORT)
def udp_sendto():
    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("127.0.0.1", PORT))
def udp_sendmsg():
    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendmsg([b"x"], [], 0, ("127.0.0.1", PORT))
def asyncio_():
    async def go():
        r, w = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", PORT), 3); w.write(b"x"); await w.drain()
    asyncio.run(go())
def subprocess_():
    subprocess.run([sys.executable, "-c", CONNECT], check=True, timeout=10)
def os_system():
    if os.system(f'"{{sys.executable}}" -c "{{CONNECT}}"'): raise OSError("failed")
def ctypes_connect():
    libc = ctypes.CDLL(None, use_errno=True)
    fd = socket.socket(); raw = fd.detach()
    addr = (ctypes.c_ubyte * 16)(2, 0, PORT >> 8, PORT & 255, 127, 0, 0, 1)
    if libc.connect(raw, addr, 16) != 0: raise OSError(ctypes.get_errno(), "connect")
    os.write(raw, b"x")
out = {{}}
for name, fn in [("tcp_connect", tcp_connect), ("tcp_connect_ex", tcp_connect_ex),
                 ("create_connection", create_connection), ("urllib", urllib_), ("getaddrinfo", getaddrinfo),
                 ("udp_sendto", udp_sendto), ("udp_sendmsg", udp_sendmsg), ("asyncio", asyncio_),
                 ("subprocess", subprocess_), ("os_system", os_system), ("ctypes_connect", ctypes_connect)]:
    try:
        fn(); out[name] = "sent"
    except BaseException as e:
        out[name] = "blocked: " + type(e).__name__
open({report!r}, "w").write(json.dumps(out))
'''


class _Listener:
    """TCP and UDP on 127.0.0.1 only, counting what arrives."""

    def __init__(self):
        self.tcp = socket.socket()
        self.tcp.bind(("127.0.0.1", 0))
        self.port = self.tcp.getsockname()[1]
        self.tcp.listen(16)
        self.tcp.settimeout(0.2)
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", self.port))
        self.udp.settimeout(0.2)
        self.arrived = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        # both sockets at once: an arrival on one is counted while the other is idle, not after its timeout
        while not self.stop.is_set():
            ready, _, _ = select.select([self.tcp, self.udp], [], [], 0.2)
            for sock in ready:
                try:
                    if sock is self.tcp:
                        conn, _ = sock.accept()
                        conn.close()
                    else:
                        sock.recvfrom(16)
                    self.arrived += 1
                except OSError:
                    pass

    def wait_for(self, count: int, timeout_s: float = 10.0) -> None:
        """Until `count` arrivals are counted (or `timeout_s` passes): the child's last packets may still be queued
        when it exits, and a busy machine counts them later."""
        deadline = time.monotonic() + timeout_s
        while self.arrived < count and time.monotonic() < deadline:
            time.sleep(0.05)

    def close(self):
        self.stop.set()
        self.thread.join(2)
        self.tcp.close()
        self.udp.close()


def _probe_network(tmp_path: Path, isolate: bool, expected: int = 0) -> tuple[dict[str, str], int, str]:
    """(each path's result, arrivals at the listener, the block in force); waits for `expected` arrivals, and half a
    second more for any stray one."""
    listener = _Listener()
    try:
        report = tmp_path / "net.json"
        probe = tmp_path / "probe.py"
        probe.write_text(PROBE.format(port=listener.port, report=str(report)))
        fake = _script(tmp_path, "python3", f'exec "{sys.executable}" {probe} "$2"\n')
        raw = run_child(str(fake), SPEC, hard_cap_s=60, isolate=isolate)
        listener.wait_for(expected)
        time.sleep(0.5)
        return json.loads(report.read_text()), listener.arrived, raw["network_block"]
    finally:
        listener.close()


@LINUX
def test_in_a_network_namespace_no_path_reaches_the_listener(tmp_path):
    if "--net" not in isolation_prefix():
        pytest.skip("no network namespace permitted here")
    results, arrived, block = _probe_network(tmp_path, isolate=True)
    assert block == "namespace"
    assert set(results) == set(PATHS)
    assert all(v.startswith("blocked") for v in results.values()), results
    assert arrived == 0


@LINUX
def test_without_a_namespace_the_in_process_block_stops_exactly_what_it_says(tmp_path):
    """Where no namespace is permitted, the runner blocks the Python-level paths, and the others reach the
    listener, as the runner's docstring and docs/trial.md say."""
    results, arrived, block = _probe_network(tmp_path, isolate=False, expected=len(PATHS) - len(IN_PROCESS_BLOCKED))
    assert block == "in-process"
    blocked = {k for k, v in results.items() if v.startswith("blocked")}
    assert blocked == IN_PROCESS_BLOCKED, results
    assert arrived >= len(PATHS) - len(IN_PROCESS_BLOCKED)
    doc = (Path(__file__).resolve().parents[2] / "docs" / "trial.md").read_text(encoding="utf-8")
    for name in PATHS:
        assert f"`{name}`" in doc, name


# -- 5. secrets stay in gpucheck ---------------------------------------------------------------------------


@LINUX
def test_the_child_gets_no_secret_from_the_environment(tmp_path, monkeypatch):
    secrets = {"HF_TOKEN": "hf_abc", "AWS_SECRET_ACCESS_KEY": "aws-xyz", "OPENAI_API_KEY": "sk-123",
               "GITHUB_TOKEN": "ghp_1", "DATABASE_URL": "postgres://u:p@h/db", "CUDA_AUTH_TOKEN": "cuda-secret-t"}
    for k, v in secrets.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    dump = tmp_path / "env"
    fake = _script(tmp_path, "python3", f"env > {dump}\n")
    run_child(str(fake), SPEC, hard_cap_s=10)
    env = dict(line.split("=", 1) for line in dump.read_text().splitlines() if "=" in line)
    assert not set(secrets) & set(env)
    assert not any(v in dump.read_text() for v in secrets.values())
    assert env["CUDA_VISIBLE_DEVICES"] == "1" and env["LC_ALL"] == "C.UTF-8" and env["PATH"] and env["HOME"]
    assert env["HF_HUB_OFFLINE"] == "1" and env[MARKER_ENV]


# -- 1. the report leaks nobody, whatever the trial echoed -------------------------------------------------

USER = "zoe-planted"
HOST = "zoe-laptop-9"
UUID = "GPU-a1b2c3d4-0000-4e5f-8a9b-0123456789ab"
MAC = "3c:52:82:1a:2b:4d"
SERIAL = "1324021045678"


@LINUX
@pytest.mark.parametrize("outcome", ["ran", "failed"])
def test_a_json_report_after_a_trial_carries_no_user_host_uuid_serial_or_mac(tmp_path, monkeypatch, capsys,
                                                                              outcome):
    monkeypatch.setenv("USER", USER)
    monkeypatch.setenv("LOGNAME", USER)
    monkeypatch.setattr(privacy.platform, "node", lambda: HOST + ".local")
    privacy._current_user.cache_clear()
    privacy._current_host.cache_clear()
    home = tmp_path / "home" / USER / "envs" / HOST
    home.mkdir(parents=True)
    py = f"/home/{USER}/miniconda3/envs/{HOST}/bin/python"
    leak = f"{USER}@{HOST} GPU {UUID} serial: {SERIAL} mac {MAC} in C:\\\\Users\\\\{USER}\\\\x"
    if outcome == "ran":
        result = RESULT % py
    else:
        result = json.dumps({"event": "result", "outcome": "failed", "protocol": 1, "python": py,
                             "message": f"RuntimeError: {leak}",
                             "traceback": [f'File "/home/{USER}/x.py", line 1', leak]})
    script = home / "python3"
    _script(home, "python3", f"echo '{leak}' >&2\necho 'File \"/home/{USER}/site.py\" on {HOST}' >&2\n"
                             f"cat <<'EOF'\n{result}\nEOF\n")
    saved = tmp_path / "trial.json"
    code = cli.main(["trial", "mnist-cnn", "--python", str(script), "--machine", str(CPU_VM), "--json"])
    saved.write_text(capsys.readouterr().out)
    assert USER in saved.read_text()  # the user's own `trial --json` keeps what happened
    out = tmp_path / "r.json"
    assert cli.main(["report", str(out), "--machine", str(CPU_VM), "--workloads", "mnist-cnn",
                     "--trial", str(saved)]) == 0, code
    text = out.read_text(encoding="utf-8")
    for planted in (USER, HOST, UUID, MAC, SERIAL, "stderr_tail", "traceback"):
        assert planted.lower() not in text.lower(), planted
    if outcome == "ran":
        trial = json.loads(text)["workloads"][0]["trial"]
        assert trial["measured"]["samples_per_second"] == 6400 and trial["python"].startswith("/home/USER/")
    assert cli.main(["report", str(out), "--machine", str(CPU_VM), "--workloads", "mnist-cnn",
                     "--trial", str(saved), "--include-ids"]) == 0
    capsys.readouterr()
    assert "stderr_tail" not in out.read_text(encoding="utf-8")  # never needed by a report
    privacy._current_user.cache_clear()
    privacy._current_host.cache_clear()


# -- 12. a child's message cannot drive the terminal --------------------------------------------------------


def test_escape_codes_from_the_child_are_removed():
    hostile = "boom\x1b[2J\x1b[H\x1b]0;pwned title\x07 done\x9b31m\r\nnext\x00"
    assert clean_text(hostile) == "boom done next"
    assert len(clean_text("x" * 100_000)) == 500


@LINUX
def test_a_failed_trials_message_reaches_the_terminal_clean(tmp_path, capsys):
    msg = "bad \\u001b[2J\\u001b]0;owned\\u0007 thing"
    fake = _script(tmp_path, "python3", f"echo '{{\"event\": \"result\", \"outcome\": \"failed\", "
                                        f"\"message\": \"{msg}\"}}'\n")
    code = cli.main(["trial", "mnist-cnn", "--python", str(fake), "--machine", str(CPU_VM)])
    err = capsys.readouterr().err
    assert code == 1 and "\x1b" not in err and "\x07" not in err and "bad thing" in err


# -- 10. config.json: shapes checked at load; what transformers cannot build is built from its sizes ------


def _config(tmp_path: Path, **cfg) -> Path:
    base = {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 4, "num_attention_heads": 8,
            "intermediate_size": 1376, "vocab_size": 32000}
    p = tmp_path / "config.json"
    p.write_text(json.dumps(dict(base, **cfg)))
    return p


def test_more_heads_than_the_hidden_size_is_one_line_naming_the_key(tmp_path, capsys):
    """Before: estimated as "Runs"."""
    for cfg in ({"num_attention_heads": 1024}, {"num_attention_heads": 7}):
        code = cli.main(["estimate", str(_config(tmp_path, **cfg)), "--gpu", "4090"])
        err = capsys.readouterr().err
        assert code == 2 and "'hidden_size'" in err and "num_attention_heads" in err and err.count("\n") == 1


@pytest.mark.parametrize("model_type", ["yi", "internlm2", "deepseek", "baichuan", "mixtral_dense"])
def test_model_types_without_a_transformers_class_are_built_from_their_sizes(tmp_path, model_type):
    """Before: accepted by the estimate, then a 530-character error from the trial's child."""
    from gpucheck.catalog import get_workload as load
    w = load(str(_config(tmp_path, model_type=model_type, num_key_value_heads=4)))
    cfg = job_spec(w, steps=1, max_seconds=1)["model"]["config"]
    assert cfg["model_type"] == "llama" and cfg["hidden_size"] == 512 and cfg["num_key_value_heads"] == 4
    assert cfg["intermediate_size"] == 1376 and cfg["num_hidden_layers"] == 4


# -- 11. an interrupted trial leaves nothing -------------------------------------------------------------


def _start_hanging_trial(tmp_path, stderr):
    """`gpucheck trial` on a fake Python that starts a `setsid` daemon and then hangs: (the gpucheck process, the
    script both hang in), once both run (or after 60 s)."""
    import os
    import subprocess

    hold = _script(tmp_path, "hold.sh", "sleep 300\n")
    fake = _script(tmp_path, "python3", f"setsid sh {hold} &\nexec sh {hold}\n")
    env = dict(os.environ, TMPDIR=str(tmp_path), PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    proc = subprocess.Popen([sys.executable, "-m", "gpucheck", "trial", "mnist-cnn", "--python", str(fake),
                             "--machine", str(CPU_VM), "--json"], env=env, stdout=subprocess.DEVNULL, stderr=stderr)
    deadline = time.monotonic() + 60
    while len(_running(str(hold))) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    return proc, hold


@LINUX
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP"])
def test_a_trial_stopped_by_a_signal_leaves_no_process_and_no_folder(tmp_path, sig):
    import signal
    import subprocess

    proc, hold = _start_hanging_trial(tmp_path, stderr=subprocess.PIPE)
    assert len(_running(str(hold))) >= 2
    proc.send_signal(getattr(signal, sig))
    assert proc.wait(timeout=60) == 128 + getattr(signal, sig), proc.stderr.read()[-2000:]
    proc.stderr.close()
    time.sleep(0.2)
    assert not _running(str(hold)) and not list(tmp_path.glob("gpucheck-trial-*"))


@LINUX
def test_after_gpucheck_is_killed_the_next_trial_ends_what_the_last_one_left(tmp_path):
    """SIGKILL cannot be caught: the trial's folder and its `setsid` daemon stay; the next trial (any
    gpucheck run of a trial) kills the processes carrying the old trial's marker and removes the folder."""
    import signal
    import subprocess

    proc, hold = _start_hanging_trial(tmp_path, stderr=subprocess.DEVNULL)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert list(tmp_path.glob("gpucheck-trial-*"))  # what SIGKILL leaves
    removed = clean_stale_dirs(str(tmp_path))
    time.sleep(0.2)
    assert len(removed) == 1 and not list(tmp_path.glob("gpucheck-trial-*"))
    assert not _running(str(hold))


@LINUX
def test_namespaces_refused_at_run_time_fall_back_to_the_in_process_block(tmp_path, monkeypatch):
    """`unshare` worked when probed and fails now (a namespace limit reached): the trial runs without it,
    and says so."""
    from gpucheck.trial import child

    refusing = ("/bin/sh", "-c", "echo 'unshare: unshare failed: No space left on device' >&2; exit 1", "unshare")
    monkeypatch.setattr(child, "isolation_prefix", lambda pid=True: refusing)
    fake = _script(tmp_path, "python3", f"echo '{RESULT % 'py'}'\n")
    raw = run_child(str(fake), SPEC, hard_cap_s=30)
    assert raw["outcome"] == "ran" and raw["network_block"] == "in-process"


# -- a GPU the namespaces hide ---------------------------------------------------------------------------

BLOCKED = ('{"event": "result", "outcome": "failed", "unsupported": true, "gpu_blocked": true, "protocol": 1, '
           '"message": "the GPU cannot be reached from inside the namespaces"}')


@LINUX
def test_a_gpu_the_pid_namespace_hides_is_tried_in_the_network_namespace_alone(tmp_path):
    """Recorded on a Firecracker VM with an NVIDIA H200 (tests/fixtures/recorded/h200/env.txt): CUDA answered
    error 304 inside `unshare --pid` and worked inside `--user --map-root-user --net`. A stand-in that finds no GPU
    when it is process 1 of a PID namespace: the trial runs once more in the network namespace alone, so the GPU
    is measured and the network stays blocked by the namespace."""
    if "--pid" not in isolation_prefix():
        pytest.skip("no PID namespace permitted here")
    fake = _script(tmp_path, "python3", f"if [ $$ -eq 1 ]; then echo '{BLOCKED}'; else echo '{RESULT % 'py'}'; fi\n")
    raw = run_child(str(fake), SPEC, hard_cap_s=30)
    assert raw["outcome"] == "ran" and raw["network_block"] == "namespace"


@LINUX
def test_a_gpu_no_namespace_reaches_is_measured_with_the_in_process_block(tmp_path):
    """A stand-in that finds no GPU whenever the spec says it runs in the namespaces: the last try runs without
    them, says so (network_block in-process), and measures; the spec tells the runner which case it is in."""
    if not isolation_prefix():
        pytest.skip("no namespace permitted here")
    fake = _script(tmp_path, "python3", "read spec\ncase \"$spec\" in\n"
                   f"  *'\"isolated\": true'*) echo '{BLOCKED}' ;;\n  *) echo '{RESULT % 'py'}' ;;\nesac\n")
    raw = run_child(str(fake), SPEC, hard_cap_s=30)
    assert raw["outcome"] == "ran" and raw["network_block"] == "in-process"


def test_the_runner_says_the_gpu_is_behind_the_namespace_only_where_one_is_there(monkeypatch):
    """The runner's own check: a CUDA build that finds no GPU in the namespaces while the driver's device node
    exists asks for another try; outside them, or with no driver, a CPU-only trial goes on as before."""
    from types import SimpleNamespace

    from gpucheck.trial import runner

    fake_torch = SimpleNamespace(version=SimpleNamespace(cuda="13.0", hip=None),
                                 cuda=SimpleNamespace(is_available=lambda: False),
                                 backends=SimpleNamespace(mps=None))
    monkeypatch.setattr(runner, "torch", fake_torch)
    monkeypatch.setattr(runner.os.path, "exists", lambda p: p == "/dev/nvidiactl")
    with pytest.raises(runner.GpuBlocked):
        runner.pick_device("auto", isolated=True)
    with pytest.raises(runner.GpuBlocked):
        runner.pick_device("cuda", isolated=True)
    assert runner.pick_device("auto", isolated=False) == "cpu"
    assert runner.pick_device("cpu", isolated=True) == "cpu"
    monkeypatch.setattr(runner.os.path, "exists", lambda p: False)
    assert runner.pick_device("auto", isolated=True) == "cpu"
