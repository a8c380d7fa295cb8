"""The trial's child process: which Python runs it, and running it safely.

- `find_pythons()`: the user's Pythons that have PyTorch, found from the scan's framework locations and
  the usual virtualenv / conda / per-user / system folders (no Python is started to look).
- `run_child()`: copies the runner into a new temporary folder, starts `python runner.py` there in its
  own process group (session) with the network-related caches and hubs switched offline, streams its
  progress events, and kills the whole process tree at the hard time cap or on cancel. The temporary
  folder is removed in every case.
"""

from __future__ import annotations

import collections
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from gpucheck.fileio import write_bytes_atomic
from gpucheck.probe.base import run_command
from gpucheck.probe.software import parse_torch_version_py, user_site_dirs

RUNNER = "runner.py"
KILL_GRACE_S = 5.0
# Hubs and caches: offline, and inside the temporary folder (nothing is written elsewhere).
OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
               "HF_HUB_DISABLE_TELEMETRY": "1", "DO_NOT_TRACK": "1", "YOLO_OFFLINE": "1", "WANDB_MODE": "disabled",
               "TOKENIZERS_PARALLELISM": "false", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8"}
# (Folder names that no Python package has: the runner's own folder is first on the child's sys.path.)
TEMP_DIR_ENV = {"HF_HOME": "cache-hf", "TORCH_HOME": "cache-torch", "XDG_CACHE_HOME": "cache",
                "MPLCONFIGDIR": "cache-mpl", "YOLO_CONFIG_DIR": "cache-yolo", "TORCHINDUCTOR_CACHE_DIR": "cache-inductor",
                "TRITON_CACHE_DIR": "cache-triton", "TMPDIR": "tmp", "TEMP": "tmp", "TMP": "tmp"}


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


def child_env(tmp: Path, base: Mapping[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    if getattr(sys, "frozen", False):  # PyInstaller changed the library path for the app, not for the user's Python
        if "LD_LIBRARY_PATH_ORIG" in env:
            env["LD_LIBRARY_PATH"] = env.pop("LD_LIBRARY_PATH_ORIG")
        else:
            env.pop("LD_LIBRARY_PATH", None)
    env.update(OFFLINE_ENV)
    for key, sub in TEMP_DIR_ENV.items():
        (tmp / sub).mkdir(exist_ok=True)
        env[key] = str(tmp / sub)
    return env


def kill_tree(proc: subprocess.Popen) -> None:
    """Kill the child and everything it started (its process group / job)."""
    if sys.platform == "win32":
        taskkill = os.path.join(os.environ.get("SystemRoot", r"C:\Windows"), "System32", "taskkill.exe")
        run_command([taskkill, "/F", "/T", "/PID", str(proc.pid)], timeout=10, any_exit=True)
    else:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the child leads its own session: pgid == pid
        except (ProcessLookupError, PermissionError):
            pass
    try:
        proc.kill()
    except OSError:
        pass


def _read_events(stream: Iterable[bytes], events: list[dict[str, Any]],
                 on_event: Callable[[dict[str, Any]], None] | None) -> None:
    for raw in stream:
        try:
            ev = json.loads(raw.decode("utf-8", errors="replace"))
        except ValueError:
            continue
        if not isinstance(ev, dict):
            continue
        events.append(ev)
        if on_event is not None and ev.get("event") == "phase":
            try:
                on_event(ev)
            except Exception:  # noqa: BLE001 — a broken listener must not stop the trial
                pass


def _read_tail(stream: Iterable[bytes], tail: collections.deque) -> None:
    for raw in stream:
        tail.append(raw.decode("utf-8", errors="replace").rstrip())


def resolve_python(python: str) -> str:
    """An absolute path (the child starts in its temporary folder); a bare name is looked up on PATH.
    Symbolic links are kept: a virtualenv's python is one, and resolving it would leave the virtualenv."""
    if os.sep in python or (os.altsep and os.altsep in python):
        return os.path.abspath(os.path.expanduser(python))
    return shutil.which(python) or python


def _start(python: str, script: Path, tmp: Path, spec: dict[str, Any]) -> subprocess.Popen:
    kwargs: dict[str, Any] = {}
    if sys.platform == "win32":
        kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP | getattr(subprocess, "CREATE_NO_WINDOW", 0)
    else:
        kwargs["start_new_session"] = True
    # Popen, not run(): the trial streams progress and can be cancelled; the hard cap below bounds it.
    proc = subprocess.Popen([python, "-B", str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,  # noqa: S603
                            stderr=subprocess.PIPE, cwd=str(tmp), env=child_env(tmp), **kwargs)
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
              on_started: Callable[[int, str], None] | None = None) -> dict[str, Any]:
    """Run one trial in a child process. Returns the runner's result, or a result saying why there is none:
    {"outcome": "timed_out" | "failed", "reason": "cap" | "cancelled" | "no_result" | "cannot_start", …}."""
    tmp = Path(tempfile.mkdtemp(prefix="gpucheck-trial-"))
    proc = None
    try:
        (tmp / "runner").mkdir()
        script = tmp / "runner" / RUNNER  # alone in its folder: nothing beside it shadows a package
        write_bytes_atomic(script, runner_source())
        try:
            proc = _start(resolve_python(python), script, tmp, spec)
        except OSError as e:
            return {"outcome": "failed", "reason": "cannot_start", "message": f"{type(e).__name__}: {e}"}
        if on_started is not None:
            on_started(proc.pid, str(tmp))
        events: list[dict[str, Any]] = []
        tail: collections.deque = collections.deque(maxlen=30)
        readers = [threading.Thread(target=_read_events, args=(proc.stdout, events, on_event), daemon=True),
                   threading.Thread(target=_read_tail, args=(proc.stderr, tail), daemon=True)]
        for r in readers:
            r.start()
        started = time.monotonic()
        stopped = None
        while proc.poll() is None:
            if cancel is not None and cancel.is_set():
                stopped = "cancelled"
            elif time.monotonic() - started > hard_cap_s:
                stopped = "cap"
            if stopped:
                kill_tree(proc)
                break
            time.sleep(0.1)
        try:
            proc.wait(timeout=KILL_GRACE_S)
        except subprocess.TimeoutExpired:
            kill_tree(proc)
        for r in readers:
            r.join(timeout=KILL_GRACE_S)
        return _outcome(proc, events, list(tail), stopped, time.monotonic() - started, hard_cap_s)
    finally:
        if proc is not None:
            kill_tree(proc)  # also whatever the child left running
            for pipe in (proc.stdin, proc.stdout, proc.stderr):
                try:
                    if pipe is not None:
                        pipe.close()
                except OSError:
                    pass
        shutil.rmtree(tmp, ignore_errors=True)


def _outcome(proc: subprocess.Popen, events: list[dict[str, Any]], tail: list[str], stopped: str | None,
             seconds: float, cap: float) -> dict[str, Any]:
    result = next((e for e in reversed(events) if e.get("event") == "result"), None)
    phases = [e for e in events if e.get("event") == "phase"]
    last = phases[-1].get("phase") if phases else None
    if stopped == "cap":
        return {"outcome": "timed_out", "reason": "cap", "seconds": round(seconds, 1), "cap_seconds": cap,
                "last_phase": last, "stderr_tail": tail[-8:]}
    if stopped == "cancelled":
        return {"outcome": "failed", "reason": "cancelled", "last_phase": last}
    if result is not None:
        out = dict(result)
        out.pop("event", None)
        out["stderr_tail"] = tail[-8:]
        return out
    code = proc.returncode
    return {"outcome": "failed", "reason": "no_result", "exit_code": code, "started": bool(phases),
            "last_phase": last, "signal": -code if code is not None and code < 0 else None,
            "stderr_tail": tail[-8:]}
