"""The trial's child process: which Python runs it, and running it safely.

- `find_pythons()`: the user's Pythons that have PyTorch, found from the scan's framework locations and
  the usual virtualenv / conda / per-user / system folders (no Python is started to look).
- `run_child()`: copies the runner into a new temporary folder, starts `python runner.py` there in its
  own session, with an allow-listed environment, the hubs switched offline and, where Linux permits, in its
  own network and PID namespaces (gpucheck/trial/sandbox.py); reads its progress events and the tail of its
  stderr with bounded buffers and a deadline (select, never a blocking read), and kills every process the
  trial started (process group, PID namespace or job object, and the processes found by descent or by the
  trial's marker in their environment) at the end, at the hard time cap or on cancel. The temporary folder
  is removed in every case, and those that interrupted trials left behind are removed by the next one.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import glob
import json
import os
import queue
import selectors
import shutil
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from gpucheck.fileio import write_bytes_atomic
from gpucheck.probe.software import parse_torch_version_py, user_site_dirs
from gpucheck.trial.sandbox import (
    OFFLINE_ENV,
    PID_ARGS,
    TEMP_DIR_ENV,
    ProcessTree,
    child_env,
    clean_stale_dirs,
    isolation_prefix,
    isolation_text,
    new_dir,
)
from gpucheck.trial.text import tame

RUNNER = "runner.py"
KILL_GRACE_S = 5.0
DRAIN_S = 2.0  # after the child ends: how long its pipes may stay open (a process it left behind holds them)
WATCH_EVERY_S = 0.5  # how often the child's descendants are looked up while it runs
CHUNK_BYTES = 64 * 1024
MAX_EVENT_BYTES = 1024**2  # a protocol line longer than this is not the runner's: dropped
MAX_STDERR_BYTES = 4096  # of each stderr line, kept
STDERR_LINES = 30
STDERR_LINE_CHARS = 300  # of each stderr line, echoed
__all__ = ["find_pythons", "run_child", "resolve_python", "runner_source", "child_env", "OFFLINE_ENV",
           "TEMP_DIR_ENV"]


# -- which Python ----------------------------------------------------------------------------------


def python_for_site_dir(site: str, system: str, which: Callable[[str], str | None] = shutil.which) -> str | None:
    """The interpreter that owns a site-packages folder (venv, conda, per-user or system Python)."""
    p = Path(site)
    if system == "windows":  # <prefix>/Lib/site-packages
        prefix = p.parent.parent
        for c in (prefix / "python.exe", prefix / "Scripts" / "python.exe"):
            if c.is_file():
                return str(c)
        return None
    lib = p.parent  # <prefix>/lib/python3.X/site-packages or /usr/lib/python3/dist-packages
    version = lib.name if lib.name.startswith("python3") else "python3"
    prefix = lib.parent.parent
    for c in (prefix / "bin" / version, prefix / "bin" / "python3", prefix / "bin" / "python"):
        if c.is_file() and os.access(c, os.X_OK):
            return str(c)
    found = which(version)  # ~/.local/lib/python3.X: the system's python3.X uses it
    return found


def _has_torch(site: str) -> bool:
    return (Path(site) / "torch" / "__init__.py").is_file()


def _drives_gpu(site: str, vendors: set) -> bool:
    """The torch in `site` was built for this PC's GPU (CUDA for NVIDIA, ROCm for AMD), read from its
    version.py without importing it."""
    try:
        info = parse_torch_version_py((Path(site) / "torch" / "version.py").read_text(encoding="utf-8"))
    except OSError:
        return False
    return bool("nvidia" in vendors and info.get("cuda") or "amd" in vendors and (info.get("hip") or info.get("rocm")))


def find_pythons(machine: Any = None, env: Mapping[str, str] | None = None, system: str | None = None,
                 home: str | None = None) -> list[str]:
    """Pythons with PyTorch installed, the most likely first (none started to find them)."""
    env = os.environ if env is None else env
    system = system or ("windows" if sys.platform == "win32" else "darwin" if sys.platform == "darwin" else "linux")
    home = home or str(Path.home())
    sites: list[str] = []
    frameworks = getattr(getattr(machine, "software", None), "frameworks", ()) or ()
    for fw in frameworks:
        if fw.name == "torch" and fw.location:
            sites.append(str(Path(fw.location).parent))
    sites += user_site_dirs(system, env, home, glob.glob)
    out: list[str] = []
    if env.get("GPUCHECK_TRIAL_PYTHON"):
        out.append(env["GPUCHECK_TRIAL_PYTHON"])
    vendors = {getattr(g, "vendor", None) for g in getattr(machine, "gpus", ()) or ()}
    found = [s for s in dict.fromkeys(sites) if _has_torch(s)]
    found.sort(key=lambda s: not _drives_gpu(s, vendors))  # a build for this PC's GPU first (stable)
    for site in found:
        py = python_for_site_dir(site, system)
        if py and py not in out:
            out.append(py)
    if not getattr(sys, "frozen", False) and any(_has_torch(p) for p in sys.path if p):
        if sys.executable not in out:
            out.append(sys.executable)
    return out


# -- running it ------------------------------------------------------------------------------------


def runner_source() -> bytes:
    """The runner's text: beside this module, or in a frozen bundle's data files."""
    here = Path(__file__).with_name(RUNNER)
    candidates = [here]
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        candidates.append(Path(bundle) / "gpucheck" / "trial" / RUNNER)
    for c in candidates:
        if c.is_file():
            return c.read_bytes()
    raise FileNotFoundError(f"the trial runner is missing (looked for {', '.join(map(str, candidates))})")


# -- reading the child: bounded, with a deadline ------------------------------------------------------------


class _Lines:
    """Splits a byte stream into lines, each cut to `max_bytes` (a cut line is marked): memory stays bounded
    whatever the child writes, a 50 MB line without a newline included."""

    def __init__(self, max_bytes: int):
        self.max = max_bytes
        self.buf = bytearray()
        self.cut = False

    def feed(self, data: bytes) -> list[tuple[bytes, bool]]:
        out = []
        parts = data.split(b"\n")
        for i, part in enumerate(parts):
            room = self.max - len(self.buf)
            if room > 0:
                self.buf += part[:room]
            if len(part) > max(room, 0):
                self.cut = True
            if i < len(parts) - 1:
                out.append((bytes(self.buf), self.cut))
                self.buf.clear()
                self.cut = False
        return out

    def rest(self) -> list[tuple[bytes, bool]]:
        return [(bytes(self.buf), self.cut)] if self.buf else []


class _Streams:
    """The child's stdout (protocol events) and stderr (kept: the last STDERR_LINES lines, each cut to
    STDERR_LINE_CHARS), read without ever blocking for longer than asked (POSIX: select on the raw pipes;
    Windows: a reader thread per pipe with a bounded queue)."""

    def __init__(self, proc: subprocess.Popen, on_event: Callable[[dict[str, Any]], None] | None):
        self.on_event = on_event
        self.result: dict[str, Any] | None = None
        self.last_phase: str | None = None
        self.phases = 0
        self.tail: collections.deque = collections.deque(maxlen=STDERR_LINES)
        assert proc.stdout is not None and proc.stderr is not None
        self.files = {proc.stdout.fileno(): proc.stdout, proc.stderr.fileno(): proc.stderr}
        self.lines = {proc.stdout.fileno(): _Lines(MAX_EVENT_BYTES), proc.stderr.fileno(): _Lines(MAX_STDERR_BYTES)}
        self.stdout_fd = proc.stdout.fileno()
        self.open = set(self.files)
        self.queue: queue.Queue = queue.Queue(maxsize=64)
        if sys.platform == "win32":
            for fd in self.files:
                threading.Thread(target=self._read_thread, args=(fd,), daemon=True).start()
        else:
            self.selector = selectors.DefaultSelector()
            for fd in self.files:
                os.set_blocking(fd, False)
                self.selector.register(fd, selectors.EVENT_READ)

    def _read_thread(self, fd: int) -> None:
        while True:
            try:
                data = os.read(fd, CHUNK_BYTES)
            except OSError:
                data = b""
            self.queue.put((fd, data))
            if not data:
                return

    def pump(self, timeout: float) -> None:
        """Read what arrives within `timeout` seconds (at most CHUNK_BYTES × 64 per call)."""
        if not self.open:
            time.sleep(timeout)
            return
        if sys.platform == "win32":
            chunks: list[tuple[int, bytes]] = []
            with contextlib.suppress(queue.Empty):
                chunks.append(self.queue.get(timeout=timeout))
                while len(chunks) < 64:
                    chunks.append(self.queue.get_nowait())
            for fd, data in chunks:
                self._take(fd, data)
            return
        for _ in range(64):
            ready = self.selector.select(timeout)
            if not ready:
                return
            for key, _mask in ready:
                try:
                    data = os.read(key.fd, CHUNK_BYTES)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                self._take(key.fd, data)
            timeout = 0

    def _take(self, fd: int, data: bytes) -> None:
        if fd not in self.open:
            return
        if not data:
            self.open.discard(fd)
            if sys.platform != "win32":
                self.selector.unregister(fd)
            self._lines(fd, self.lines[fd].rest())
            return
        self._lines(fd, self.lines[fd].feed(data))

    def _lines(self, fd: int, lines: list[tuple[bytes, bool]]) -> None:
        for raw, cut in lines:
            if fd != self.stdout_fd:
                text = raw.decode("utf-8", errors="replace").rstrip()
                self.tail.append(text[:STDERR_LINE_CHARS] + ("…" if cut or len(text) > STDERR_LINE_CHARS else ""))
            elif not cut:
                self._event(raw)

    def _event(self, raw: bytes) -> None:
        try:
            ev = json.loads(raw.decode("utf-8", errors="replace"))
        except (ValueError, RecursionError):
            return
        if not isinstance(ev, dict):
            return
        if ev.get("event") == "result":
            self.result = ev
        elif ev.get("event") == "phase":
            ev = tame(ev)  # shown on a terminal or in the app while it runs: no escape codes, bounded
            self.phases += 1
            self.last_phase = ev.get("phase") if isinstance(ev.get("phase"), str) else self.last_phase
            if self.on_event is not None:
                try:
                    self.on_event(ev)
                except Exception:  # noqa: BLE001 — a broken listener must not stop the trial
                    pass

    def drain(self, seconds: float) -> None:
        """Read until both pipes are closed, for at most `seconds`."""
        deadline = time.monotonic() + seconds
        while self.open and time.monotonic() < deadline:
            self.pump(min(0.1, max(0.0, deadline - time.monotonic())))

    def close(self) -> None:
        if sys.platform != "win32":
            self.selector.close()
        for f in self.files.values():
            with contextlib.suppress(OSError):
                f.close()


def resolve_python(python: str) -> str:
    """An absolute path (the child starts in its temporary folder); a bare name is looked up on PATH.
    Symbolic links are kept: a virtualenv's python is one, and resolving it would leave the virtualenv."""
    if os.sep in python or (os.altsep and os.altsep in python):
        return os.path.abspath(os.path.expanduser(python))
    return shutil.which(python) or python


def _check_program(python: str) -> None:
    """OSError, as starting it would raise, for what is not an executable file (the namespace wrapper would
    otherwise start and then fail with its own message)."""
    if not os.path.exists(python):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), python)
    if os.path.isdir(python) or not os.access(python, os.X_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), python)


def _start(python: str, script: Path, tmp: Path, spec: dict[str, Any], marker: str,
           prefix: tuple[str, ...]) -> subprocess.Popen:
    kwargs: dict[str, Any] = {}
    if sys.platform == "win32":
        kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP | getattr(subprocess, "CREATE_NO_WINDOW", 0)
    else:
        kwargs["start_new_session"] = True
    if prefix:
        _check_program(python)
    # Popen, not run(): the trial streams progress and can be cancelled; the hard cap below bounds it.
    proc = subprocess.Popen([*prefix, python, "-B", str(script)], stdin=subprocess.PIPE,  # noqa: S603
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(tmp),
                            env=child_env(tmp, marker=marker), **kwargs)
    try:  # one line; stdin then stays open: the runner stops by itself when it closes (the app is gone)
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(spec).encode("utf-8") + b"\n")
        proc.stdin.flush()
    except OSError:  # it exited at once (not a Python?): what it printed says why
        pass
    return proc


def run_child(python: str, spec: dict[str, Any], *, hard_cap_s: float,
              on_event: Callable[[dict[str, Any]], None] | None = None,
              cancel: threading.Event | None = None,
              on_started: Callable[[int, str], None] | None = None,
              isolate: bool = True, pid_namespace: bool = True) -> dict[str, Any]:
    """Run one trial in a child process. Returns the runner's result, or a result saying why there is none:
    {"outcome": "timed_out" | "failed", "reason": "cap" | "cancelled" | "no_result" | "cannot_start", …}.
    Whatever the child does (floods its output, leaves `setsid` processes holding its pipes, never ends),
    this returns within `hard_cap_s` + a few seconds, with every process the trial started killed and its
    temporary folder removed. `isolate=False` runs it without the Linux namespaces (the in-process network
    block only), `pid_namespace=False` in the network namespace alone. The result's "network_block" says which
    block was in force ("namespace" | "in-process")."""
    clean_stale_dirs()
    marker = uuid.uuid4().hex
    tmp = new_dir(marker)
    proc = tree = streams = None
    prefix = isolation_prefix(pid_namespace) if isolate else ()
    retry: dict[str, bool] | None = None
    out: dict[str, Any] = {}
    try:
        (tmp / "runner").mkdir()
        script = tmp / "runner" / RUNNER  # alone in its folder: nothing beside it shadows a package
        write_bytes_atomic(script, runner_source())
        try:
            proc = _start(resolve_python(python), script, tmp, dict(spec, isolated=bool(prefix)), marker, prefix)
        except OSError as e:
            return {"outcome": "failed", "reason": "cannot_start", "message": f"{type(e).__name__}: {e}"}
        tree = ProcessTree(proc, marker)
        if on_started is not None:
            on_started(proc.pid, str(tmp))
        streams = _Streams(proc, on_event)
        started = time.monotonic()
        stopped = _wait(proc, tree, streams, started, hard_cap_s, cancel)
        seconds = time.monotonic() - started
        tree.kill_all()  # also whatever the child left running (a setsid daemon holding the pipes)
        if stopped is None:
            streams.drain(KILL_GRACE_S)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=KILL_GRACE_S)
        out = _outcome(proc, streams, stopped, seconds, hard_cap_s)
        out["network_block"] = isolation_text(prefix)
        retry = _retry_with(prefix, out)
        if retry is None:
            return out
    finally:
        if tree is not None:
            tree.kill_all()
            tree.close()
        if streams is not None:
            streams.close()
        if proc is not None and proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return run_child(python, spec, hard_cap_s=hard_cap_s, on_event=on_event, cancel=cancel, on_started=on_started,
                     **retry) if retry is not None else out


def _retry_with(prefix: tuple[str, ...], out: dict[str, Any]) -> dict[str, bool] | None:
    """How to run the trial once more, or None. The GPU cannot be reached from inside the PID namespace: in the
    network namespace alone (the network stays blocked); from inside that either, or the namespaces worked when
    tried and were refused now (a limit on namespaces reached): without them, the in-process block only (the
    result says so)."""
    if not prefix:
        return None
    if out.get("gpu_blocked") and any(a in PID_ARGS for a in prefix):
        return {"pid_namespace": False}
    if out.get("gpu_blocked") or _namespace_refused(out):
        return {"isolate": False}
    return None


def _namespace_refused(out: dict[str, Any]) -> bool:
    """The child never started because `unshare` itself failed (its own message on stderr)."""
    return (out.get("reason") == "no_result" and not out.get("started")
            and any(str(line).startswith("unshare:") for line in out.get("stderr_tail") or ()))


def _wait(proc: subprocess.Popen, tree: ProcessTree, streams: _Streams, started: float, cap: float,
          cancel: threading.Event | None) -> str | None:
    """Read the child until it ends ("None"), the cap passes ("cap") or the user cancels ("cancelled").
    After the child ends, its pipes get DRAIN_S to close (a process it left behind may hold them)."""
    watched = 0.0
    ended_at = None
    while True:
        now = time.monotonic()
        if cancel is not None and cancel.is_set():
            return "cancelled"
        if ended_at is None and now - started > cap:
            return "cap"
        if ended_at is None and proc.poll() is not None:
            ended_at = now
        if ended_at is not None and (not streams.open or now - ended_at > DRAIN_S):
            return None
        if now - watched > WATCH_EVERY_S:
            tree.watch()
            watched = now
        streams.pump(0.1)


def _outcome(proc: subprocess.Popen, streams: _Streams, stopped: str | None, seconds: float,
             cap: float) -> dict[str, Any]:
    tail = list(streams.tail)[-8:]
    last = streams.last_phase
    if stopped == "cap":
        return {"outcome": "timed_out", "reason": "cap", "seconds": round(seconds, 1), "cap_seconds": cap,
                "last_phase": last, "stderr_tail": tail}
    if stopped == "cancelled":
        return {"outcome": "failed", "reason": "cancelled", "last_phase": last}
    if streams.result is not None:
        out = dict(streams.result)
        out.pop("event", None)
        out["stderr_tail"] = tail
        return out
    code = proc.returncode
    return {"outcome": "failed", "reason": "no_result", "exit_code": code, "started": bool(streams.phases),
            "last_phase": last, "signal": -code if code is not None and code < 0 else None,
            "stderr_tail": tail}
