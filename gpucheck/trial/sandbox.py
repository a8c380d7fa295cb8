"""What the trial's child is allowed, and making sure that whatever it starts ends with it.

- `child_env(tmp, marker)`: an allow-listed environment. The user's Python gets what PyTorch, its GPU runtime and
  the offline hubs need (PATH, HOME, locale, temp folders, CUDA_VISIBLE_DEVICES and friends, the Windows
  system variables) and nothing else: no tokens, keys or passwords (HF_TOKEN, AWS_SECRET_ACCESS_KEY,
  OPENAI_API_KEY …). Every process of the trial carries `MARKER_ENV` = a value unique to the trial.
- `isolation_prefix()`: on Linux, where unprivileged user namespaces are allowed, the child runs under
  `unshare --user --map-root-user --net [--pid --fork --kill-child]`: a network namespace with no interface
  but a loopback that is down (so no connection leaves the trial, whatever starts it: a subprocess, a native
  `connect`, a UDP `sendmsg`), and a PID namespace whose processes the kernel kills when its first one ends
  (a `setsid` grandchild included). Elsewhere the prefix is empty and the runner's in-process block is the
  only network block (see the runner's docstring for exactly what it covers).
- `ProcessTree`: every process the trial started, tracked while it runs (children of the child, found again
  and again through psutil, i.e. /proc/*/stat's parent ids on Linux) and at the end also by the marker in
  their environment (/proc/PID/environ), so a `setsid` daemon that its parent left behind is found too; on
  Windows the child is put in a job object that is terminated. `kill_all()` kills them all and returns.
- `clean_stale_dirs()`: temporary folders of trials that were interrupted (their gpucheck is gone) are removed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import psutil

from gpucheck.fileio import write_text_atomic

MARKER_ENV = "GPUCHECK_TRIAL_ID"
DIR_PREFIX = "gpucheck-trial-"
OWNER_FILE = "gpucheck.pid"
NO_NAMESPACE_ENV = "GPUCHECK_TRIAL_NO_NAMESPACE"  # "1": run the child without namespaces (a diagnosis aid)
# Hubs and caches: offline, and inside the temporary folder (nothing is written elsewhere).
OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
               "HF_HUB_DISABLE_TELEMETRY": "1", "DO_NOT_TRACK": "1", "YOLO_OFFLINE": "1", "WANDB_MODE": "disabled",
               "TOKENIZERS_PARALLELISM": "false", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8"}
# (Folder names that no Python package has: the runner's own folder is first on the child's sys.path.)
TEMP_DIR_ENV = {"HF_HOME": "cache-hf", "TORCH_HOME": "cache-torch", "XDG_CACHE_HOME": "cache",
                "MPLCONFIGDIR": "cache-mpl", "YOLO_CONFIG_DIR": "cache-yolo", "TORCHINDUCTOR_CACHE_DIR": "cache-inductor",
                "TRITON_CACHE_DIR": "cache-triton", "TMPDIR": "tmp", "TEMP": "tmp", "TMP": "tmp"}
# The environment the child keeps: exact names, then prefixes (GPU runtimes, math libraries, the locale).
ALLOWED_ENV = frozenset({
    "PATH", "HOME", "LANG", "LANGUAGE", "TZ", "TERM", "SHELL", "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH",
    "DYLD_FALLBACK_LIBRARY_PATH", "PYTHONHOME", "PYTHONPATH", "PYTHONUTF8", "VIRTUAL_ENV", "CONDA_PREFIX",
    "CONDA_DEFAULT_ENV", "OMP_NUM_THREADS", "GPU_DEVICE_ORDINAL", "ROCR_VISIBLE_DEVICES", "GPUCHECK_TRIAL_FAULT",
    # Windows: what any program needs to start, find its DLLs and its per-user folders
    "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT", "USERPROFILE", "APPDATA", "LOCALAPPDATA",
    "PROGRAMDATA", "PROGRAMFILES", "PROGRAMFILES(X86)", "PROGRAMW6432", "COMMONPROGRAMFILES",
    "NUMBER_OF_PROCESSORS", "PROCESSOR_ARCHITECTURE", "PROCESSOR_IDENTIFIER", "OS", "HOMEDRIVE", "HOMEPATH",
})
ALLOWED_PREFIXES = ("LC_", "CUDA_", "CUDNN_", "NVIDIA_", "HIP_", "HSA_", "ROCM_", "ROCBLAS_", "MIOPEN_",
                    "PYTORCH_", "TORCH_", "MKL_", "KMP_", "OPENBLAS_", "BNB_", "XLA_")
# Never passed on, whatever the list above says: names that hold credentials.
SECRET_WORDS = ("TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "API_KEY", "APIKEY", "ACCESS_KEY",
                "PRIVATE", "AUTH", "SESSION", "COOKIE")


def _allowed(name: str) -> bool:
    up = name.upper()
    if any(w in up for w in SECRET_WORDS):
        return False
    return up in ALLOWED_ENV or up.startswith(ALLOWED_PREFIXES)


def child_env(tmp: Path, base: Mapping[str, str] | None = None, marker: str | None = None) -> dict[str, str]:
    """The child's environment: the allow-listed part of `base` (default: ours), offline switches, caches and
    temporary files inside `tmp`, and the trial's marker."""
    src = dict(os.environ if base is None else base)
    if getattr(sys, "frozen", False):  # PyInstaller changed the library path for the app, not for the user's Python
        if "LD_LIBRARY_PATH_ORIG" in src:
            src["LD_LIBRARY_PATH"] = src.pop("LD_LIBRARY_PATH_ORIG")
        else:
            src.pop("LD_LIBRARY_PATH", None)
    env = {k: v for k, v in src.items() if _allowed(k)}
    env.update(OFFLINE_ENV)
    for key, sub in TEMP_DIR_ENV.items():
        (tmp / sub).mkdir(exist_ok=True)
        env[key] = str(tmp / sub)
    if marker:
        env[MARKER_ENV] = marker
    return env


# -- the network and PID namespaces (Linux) ----------------------------------------------------------


_PREFIXES = (("--user", "--map-root-user", "--net", "--pid", "--fork", "--kill-child"),
             ("--user", "--map-root-user", "--net"))


@lru_cache(maxsize=1)
def _working_prefix() -> tuple[str, ...]:
    if not sys.platform.startswith("linux"):
        return ()
    exe = shutil.which("unshare") or next((p for p in ("/usr/bin/unshare", "/bin/unshare") if os.path.isfile(p)), None)
    if not exe:
        return ()
    for args in _PREFIXES:
        try:  # the namespaces may be refused (a distribution's policy, a container): try them once
            r = subprocess.run([exe, *args, "/bin/sh", "-c", ":"], stdin=subprocess.DEVNULL,  # noqa: S603
                               capture_output=True, timeout=10, env={"PATH": os.defpath})
        except (OSError, subprocess.SubprocessError):
            continue
        if r.returncode == 0:
            return (exe, *args)
    return ()


PID_ARGS = ("--pid", "--fork", "--kill-child")


def isolation_prefix(pid: bool = True) -> tuple[str, ...]:
    """The command that puts the child in its own network (and PID) namespace, or () where none is permitted.
    `pid=False`: the network namespace alone (a GPU driver that refuses a PID namespace: on a Firecracker VM with
    an NVIDIA H200, CUDA answered error 304 inside `--pid` and worked inside `--user --map-root-user --net`)."""
    if os.environ.get(NO_NAMESPACE_ENV) == "1":
        return ()
    prefix = _working_prefix()
    return prefix if pid else tuple(a for a in prefix if a not in PID_ARGS)


def isolation_text(prefix: tuple[str, ...]) -> str:
    """What blocks the network in this trial, in a word for the result: "namespace" or "in-process"."""
    return "namespace" if "--net" in prefix else "in-process"


# -- every process of the trial ------------------------------------------------------------------------


def _has_marker(p: psutil.Process, marker: str) -> bool:
    try:
        return p.environ().get(MARKER_ENV) == marker
    except (psutil.Error, OSError, ValueError):
        return False


class ProcessTree:
    """The child and everything it starts. `watch()` (called while it runs) remembers its descendants;
    `kill_all()` kills the process group, the job, every remembered and marked process, and waits (briefly)
    until none is left."""

    def __init__(self, proc: subprocess.Popen, marker: str):
        self.proc = proc
        self.marker = marker
        self.known: dict[int, float] = {}  # pid → create time (a reused pid is not ours)
        self.job = _windows_job(proc) if sys.platform == "win32" else None
        self.watch()

    def watch(self) -> None:
        try:
            root = psutil.Process(self.proc.pid)
            for p in [root, *root.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):
                    self.known.setdefault(p.pid, p.create_time())
        except psutil.Error:
            pass

    def _ours(self) -> list[psutil.Process]:
        out = []
        for pid, created in list(self.known.items()):
            with contextlib.suppress(psutil.Error):
                p = psutil.Process(pid)
                if abs(p.create_time() - created) < 0.01:
                    out.append(p)
        if self.marker and (sys.platform != "win32" or self.job is None):
            me = os.getpid()
            for p in psutil.process_iter():
                if p.pid not in self.known and p.pid != me and _has_marker(p, self.marker):
                    out.append(p)
        alive = []
        for p in out:
            with contextlib.suppress(psutil.Error):
                if p.status() != psutil.STATUS_ZOMBIE:
                    alive.append(p)
        return alive

    def kill_all(self, wait_s: float = 3.0) -> int:
        """Kill every process of the trial; the number still alive after `wait_s` (0 when all are gone)."""
        self.watch()
        if self.job is not None:
            _terminate_job(self.job)
        elif sys.platform == "win32":
            _taskkill(self.proc.pid)
        else:
            with contextlib.suppress(OSError):
                os.killpg(self.proc.pid, signal.SIGKILL)  # the child leads its own session: pgid == pid
        with contextlib.suppress(OSError):
            self.proc.kill()
        deadline = time.monotonic() + wait_s
        left = self._ours()
        while left:
            for p in left:
                with contextlib.suppress(psutil.Error):
                    p.kill()
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
            left = self._ours()
        return len(left)

    def close(self) -> None:
        if self.job is not None:
            _close_handle(self.job)
            self.job = None


def _taskkill(pid: int) -> None:
    taskkill = os.path.join(os.environ.get("SystemRoot", r"C:\Windows"), "System32", "taskkill.exe")
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run([taskkill, "/F", "/T", "/PID", str(pid)], capture_output=True, timeout=10)  # noqa: S603


@lru_cache(maxsize=1)
def _kernel32() -> Any:
    """kernel32 with the job-object functions typed (handles are pointer-sized)."""
    import ctypes
    from ctypes import wintypes

    k32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
    k32.CreateJobObjectW.restype = wintypes.HANDLE
    k32.CreateJobObjectW.argtypes = (ctypes.c_void_p, wintypes.LPCWSTR)
    k32.SetInformationJobObject.argtypes = (wintypes.HANDLE, ctypes.c_int, ctypes.c_void_p, wintypes.DWORD)
    k32.AssignProcessToJobObject.argtypes = (wintypes.HANDLE, wintypes.HANDLE)
    k32.TerminateJobObject.argtypes = (wintypes.HANDLE, wintypes.UINT)
    k32.CloseHandle.argtypes = (wintypes.HANDLE,)
    return k32


def _windows_job(proc: subprocess.Popen) -> Any:
    """A job object that holds the child (and so everything it starts from then on); killed when closed.
    None where it cannot be made (then taskkill /T and the tracked processes remain)."""
    try:
        import ctypes
        from ctypes import wintypes

        k32 = _kernel32()
        job = k32.CreateJobObjectW(None, None)
        if not job:
            return None

        class Basic(ctypes.Structure):
            _fields_ = [("PerProcessUserTimeLimit", ctypes.c_int64), ("PerJobUserTimeLimit", ctypes.c_int64),
                        ("LimitFlags", wintypes.DWORD), ("MinimumWorkingSetSize", ctypes.c_size_t),
                        ("MaximumWorkingSetSize", ctypes.c_size_t), ("ActiveProcessLimit", wintypes.DWORD),
                        ("Affinity", ctypes.c_size_t), ("PriorityClass", wintypes.DWORD),
                        ("SchedulingClass", wintypes.DWORD)]

        class Extended(ctypes.Structure):
            _fields_ = [("Basic", Basic), ("Io", ctypes.c_uint64 * 6), ("ProcessMemoryLimit", ctypes.c_size_t),
                        ("JobMemoryLimit", ctypes.c_size_t), ("PeakProcessMemoryUsed", ctypes.c_size_t),
                        ("PeakJobMemoryUsed", ctypes.c_size_t)]

        info = Extended()
        info.Basic.LimitFlags = 0x2000  # JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
        k32.SetInformationJobObject(job, 9, ctypes.byref(info), ctypes.sizeof(info))  # 9: extended limits
        if not k32.AssignProcessToJobObject(job, int(proc._handle)):  # type: ignore[attr-defined]
            k32.CloseHandle(job)
            return None
        return job
    except Exception:  # noqa: BLE001
        return None


def _terminate_job(job: Any) -> None:
    with contextlib.suppress(Exception):
        _kernel32().TerminateJobObject(job, 1)


def _close_handle(job: Any) -> None:
    with contextlib.suppress(Exception):
        _kernel32().CloseHandle(job)


# -- temporary folders ---------------------------------------------------------------------------------


def new_dir(marker: str = "") -> Path:
    """A new temporary folder for one trial, with the owning gpucheck's process id and the trial's marker."""
    tmp = Path(tempfile.mkdtemp(prefix=DIR_PREFIX))
    write_text_atomic(tmp / OWNER_FILE, f"{os.getpid()} {psutil.Process().create_time()} {marker}\n")
    return tmp


def _owner(folder: Path) -> tuple[bool, str]:
    """(whether the gpucheck that made the folder still runs, the trial's marker or "")."""
    try:
        fields = (folder / OWNER_FILE).read_text(encoding="ascii").split()
    except FileNotFoundError:  # being created this instant, or not ours: leave it unless it is old
        try:
            return time.time() - folder.stat().st_mtime < 3600, ""
        except OSError:
            return True, ""
    except (OSError, UnicodeDecodeError):
        return False, ""
    marker = fields[2] if len(fields) > 2 else ""
    try:
        p = psutil.Process(int(fields[0]))
        return abs(p.create_time() - float(fields[1])) < 0.01, marker
    except (ValueError, IndexError, psutil.Error):
        return False, marker


def kill_marked(marker: str) -> int:
    """Kill every process whose environment carries this trial's marker; how many were found."""
    found = [p for p in psutil.process_iter() if p.pid != os.getpid() and _has_marker(p, marker)]
    for p in found:
        with contextlib.suppress(psutil.Error):
            p.kill()
    return len(found)


def clean_stale_dirs(root: str | None = None) -> list[str]:
    """Remove the temporary folders of trials whose gpucheck is gone (killed, interrupted), after killing
    what those trials left running (found by their marker); the removed paths."""
    removed: list[str] = []
    base = Path(root or tempfile.gettempdir())
    try:
        candidates = list(base.glob(DIR_PREFIX + "*"))
    except OSError:
        return removed
    for folder in candidates:
        try:
            if folder.is_symlink() or not folder.is_dir() or folder.stat().st_uid != _uid():
                continue
        except OSError:
            continue
        alive, marker = _owner(folder)
        if not alive:
            if marker:
                kill_marked(marker)
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(str(folder))
    return removed


def _uid() -> int:
    return os.getuid() if hasattr(os, "getuid") else 0


__all__ = ["child_env", "isolation_prefix", "isolation_text", "ProcessTree", "new_dir", "clean_stale_dirs",
           "MARKER_ENV", "OFFLINE_ENV", "TEMP_DIR_ENV"]
