"""What every probe shares: the injected sources it reads, and the partial record it returns.

A probe is `probe(src: Sources) -> Part`. It reads only through `src` (files under `src.root`, commands
through `src.run`, NVML through `src.nvml()`, the Windows registry through `src.registry`, psutil through
`src.ps`), so tests replay recorded real outputs by handing in a different `Sources`.
A probe never raises for a missing source: it returns what it found plus `Finding`s saying what is
unknown and why. (If one raises anyway, `scan()` turns that into a Finding too.)
"""

from __future__ import annotations

import importlib
import math
import os
import platform as _platform
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from gpucheck.i18n import tr_text
from gpucheck.machine import Cpu, Disk, Finding, Gpu, Memory, Power, Software
from gpucheck.probe.clock import measure_core_clock_mhz

# The registry exists on Windows only.
winreg: Any = importlib.import_module("winreg") if sys.platform == "win32" else None


@dataclass(frozen=True)
class Part:
    """What one probe found. `None` fields were not looked at by this probe."""

    area: str
    gpus: tuple[Gpu, ...] = ()
    cpu: Cpu | None = None
    memory: Memory | None = None
    disks: tuple[Disk, ...] | None = None
    power: Power | None = None
    software: Software | None = None
    findings: tuple[Finding, ...] = ()
    facts: Mapping[str, Any] = field(default_factory=dict)  # hints for the assembler (hw present, VM, …)


# System tools have one fixed home: run them from there, never from PATH or the current folder.
SYSTEM_TOOLS = {
    "system_profiler": ("/usr/sbin/system_profiler",),
    "sysctl": ("/usr/sbin/sysctl", "/sbin/sysctl"),
    "diskutil": ("/usr/sbin/diskutil",),
    "defaults": ("/usr/bin/defaults",),
    "lspci": ("/usr/bin/lspci", "/usr/sbin/lspci", "/sbin/lspci", "/bin/lspci"),
}
# Vendor tools that are often installed outside PATH.
FALLBACK_DIRS = ("/opt/rocm/bin",)


def resolve_tool(name: str) -> str | None:
    """The absolute path of the tool `name`, or None if it is not installed.

    Only absolute PATH entries are searched (a relative entry or the current folder could hold a
    planted program of the same name); Windows PowerShell is taken from the Windows folder."""
    if os.path.isabs(name):
        return name if os.path.isfile(name) else None
    if sys.platform == "win32" and name.lower() in ("powershell", "powershell.exe"):
        root = os.environ.get("SystemRoot") or r"C:\Windows"
        exe = os.path.join(root, "System32", "WindowsPowerShell", "v1.0", "powershell.exe")
        return exe if os.path.isfile(exe) else None
    for candidate in SYSTEM_TOOLS.get(name, ()):
        if os.path.isfile(candidate):
            return candidate
    exts = [""]
    if sys.platform == "win32":
        exts += [e for e in os.environ.get("PATHEXT", ".COM;.EXE;.BAT;.CMD").lower().split(";") if e]
    dirs = [d for d in os.environ.get("PATH", os.defpath).split(os.pathsep) if d and os.path.isabs(d)]
    for d in [*dirs, *FALLBACK_DIRS]:
        for ext in exts:
            candidate = os.path.join(d, name + ext)
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
    return None


def run_command(argv: Sequence[str], timeout: float = 5.0, any_exit: bool = False) -> str | None:
    """Run a command; its stdout as text, or None if it is missing, fails or takes too long.

    The ONE place the app starts a program: an argument list (never a shell string), the tool found
    by `resolve_tool` (an absolute path), no input, a time limit. `any_exit=True` keeps the output of
    a command that exits non-zero (`sysctl` with one unknown key)."""
    argv = list(argv)
    if not argv or not all(isinstance(a, str) for a in argv):
        return None
    exe = resolve_tool(argv[0])
    if exe is None:
        return None
    try:
        kwargs: dict[str, Any] = {}
        if sys.platform == "win32":
            kwargs["creationflags"] = 0x08000000  # CREATE_NO_WINDOW: no console flashes in the GUI
        proc = subprocess.run([exe, *argv[1:]], capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL,
                              **kwargs)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    if proc.returncode != 0 and not any_exit:
        return None
    return proc.stdout.decode("utf-8", errors="replace")


def load_nvml() -> Any:
    import pynvml  # nvidia-ml-py; imported only when an NVIDIA probe runs

    return pynvml


def read_registry_subkeys(path: str) -> dict[str, dict[str, Any]]:
    """HKLM\\path's subkeys and their values, with winreg (Windows only): `Sources.registry` on Windows."""
    out: dict[str, dict[str, Any]] = {}
    with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, path) as key:
        i = 0
        while True:
            try:
                name = winreg.EnumKey(key, i)
            except OSError:
                break
            i += 1
            try:
                with winreg.OpenKey(key, name) as sub:
                    vals: dict[str, Any] = {}
                    j = 0
                    while True:
                        try:
                            vname, value, _typ = winreg.EnumValue(sub, j)
                        except OSError:
                            break
                        j += 1
                        vals[vname] = value
                    out[name] = vals
            except OSError:
                continue
    return out


def _default_registry() -> Callable[[str], dict[str, dict[str, Any]]] | None:
    return read_registry_subkeys if winreg is not None else None


@dataclass
class Sources:
    """Where probes read from. `Sources.local()` is this computer; tests build one from recordings."""

    system: str  # linux | windows | darwin
    root: Path = Path("/")  # prefix for /proc, /sys, /etc, /usr/lib/wsl (a recorded tree in tests)
    run: Callable[..., str | None] = run_command  # run(argv, timeout=…) -> stdout or None
    nvml: Callable[[], Any] = load_nvml  # returns a pynvml-compatible module
    registry: Callable[[str], dict[str, dict[str, Any]]] | None = None  # HKLM path -> {subkey: {name: value}}
    ps: Any = psutil  # psutil-compatible object
    arch: str = ""  # platform.machine()
    env: Mapping[str, str] = field(default_factory=dict)
    python_version: str = ""
    site_paths: tuple[str, ...] | None = None  # where to look for installed frameworks (None: sys.path)
    hostname: str | None = None
    # measures one busy core's clock (MHz) where the system does not report it; None: not measured (recordings)
    clock: Callable[[], float | None] | None = None

    @classmethod
    def local(cls) -> Sources:
        system = {"win32": "windows", "darwin": "darwin"}.get(sys.platform, "linux")
        arch = _platform.machine()
        return cls(system=system, registry=_default_registry(), arch=arch,
                   env=dict(os.environ), python_version=_platform.python_version(),
                   hostname=_platform.node() or None, clock=lambda: measure_core_clock_mhz(system, arch))

    def path(self, p: str) -> Path:
        """`/sys/class/drm` → the same path under `root`."""
        return self.root / p.lstrip("/")

    def read(self, p: str, limit: int = 4_000_000) -> str | None:
        try:
            with open(self.path(p), encoding="utf-8", errors="replace") as f:
                return f.read(limit)
        except (OSError, ValueError):
            return None

    def read_strip(self, p: str) -> str | None:
        t = self.read(p, 4096)
        return None if t is None else t.strip()

    def read_int(self, p: str) -> int | None:
        t = self.read_strip(p)
        if not t:
            return None
        try:
            return int(t, 0)
        except ValueError:
            try:
                return int(t.split()[0])
            except (ValueError, IndexError):
                return None

    def listdir(self, p: str) -> list[str]:
        try:
            return sorted(os.listdir(self.path(p)))
        except OSError:
            return []

    def exists(self, p: str) -> bool:
        return self.path(p).exists()


def finding(area: str, severity: str, template: str, code: str = "", /, **params: Any) -> Finding:
    """A Finding from an English template and its values: `finding("gpu", "unknown", "{gpu}: … ({reason})",
    "nvidia.memory", gpu=name, reason=why)`. The template is what the translation catalog holds (the
    extractor reads it from here, like tr()'s first argument); `message` is rendered now, in the language
    in force, and `template` + `params` let gpucheck.i18n.finding_text() show it in any language later.
    Values are stored as text, in English when a value is itself a translated catalog string; a value made
    with tr_text() (a reason kept with its own template) is stored as that Text."""
    text = tr_text(template, **params)
    return Finding(area=area, severity=severity, message=str(text), code=code, template=template,
                   params=text.text.params)


def to_int(x: Any) -> int | None:
    try:
        return int(x)
    except (TypeError, ValueError):
        return None


def to_float(x: Any) -> float | None:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None  # NaN or infinity from a tool is no value
