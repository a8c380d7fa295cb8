"""Keep identifying details out of reports: host name, GPU UUIDs, serial numbers, MAC addresses, user names.

`redact_machine(machine)` returns a copy of the Machine with those removed (pure, no I/O except
reading the current user and host name once, so a report written on this PC does not carry them either).
`trial_for_report(data, include_ids)` is a trial result (`gpucheck trial --json`) cut to what a report shows
(no stderr lines, no traceback, no exit code) and, unless `include_ids`, through the same scrubbing: a trial
runs on this PC, so this PC's user and host name are what its Python could have echoed.
"""

from __future__ import annotations

import getpass
import platform
import re
from functools import lru_cache
from typing import Any

from gpucheck.machine import Machine

HIDDEN = "[hidden]"

_UUID = re.compile(r"\b(?:GPU-|MIG-)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
# /home/alice/…, /Users/alice/…, /media/alice/…, /run/media/alice/…, C:\Users\alice\…
_POSIX_HOME = re.compile(r"(?P<pre>/(?:home|Users|media|run/media|var/home)/)(?P<user>[^/\s\"']+)")
_WINDOWS_HOME = re.compile(r"(?P<pre>\b[A-Za-z]:[\\/]+(?:Users|Documents and Settings)[\\/]+)(?P<user>[^\\/\s\"']+)",
                           re.IGNORECASE)
_SERIAL = re.compile(r"(?i)\b(serial(?:\s*(?:number|no\.?))?\s*[:=]\s*)(\S+)")
_MAC = re.compile(r"(?<![0-9A-Fa-f:-])(?:[0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}(?![0-9A-Fa-f:-])")
_GENERIC_HOSTS = frozenset({"localhost", "localhost.localdomain", "ubuntu", "debian", "fedora", "raspberrypi",
                            "archlinux", "linux", "computer", "desktop", "laptop", "pc"})
_GENERIC_USERS = frozenset({"root", "user", "admin", "administrator", "public", "default", "shared", "USER"})


@lru_cache(maxsize=1)
def _current_user() -> str | None:
    try:
        name = getpass.getuser()
    except Exception:  # noqa: BLE001 — no user name available (containers, odd environments)
        return None
    if not name or len(name) < 3 or name.lower() in {u.lower() for u in _GENERIC_USERS}:
        return None
    return name


@lru_cache(maxsize=1)
def _current_host() -> str | None:
    """This PC's host name (no network: the kernel's node name)."""
    try:
        name = platform.node()
    except Exception:  # noqa: BLE001
        return None
    return name or None


def _this_host() -> tuple[str, ...]:
    """This PC's host name and its first label, unless it names nobody ("localhost", a distribution's default)."""
    host = _current_host()
    if not host or host.lower() in _GENERIC_HOSTS:
        return ()
    return tuple(dict.fromkeys((host, host.split(".")[0])))


def scrub_text(text: str, hostname: str | None = None, *, also: tuple[str, ...] = ()) -> str:
    """Remove UUIDs, serial numbers, MAC addresses, user names (in home paths and anywhere) and the host
    name (and the names in `also`) from free text."""
    out = _UUID.sub(HIDDEN, text)
    out = _SERIAL.sub(lambda m: m.group(1) + HIDDEN, out)
    out = _MAC.sub(HIDDEN, out)
    out = _POSIX_HOME.sub(lambda m: m.group("pre") + "USER", out)
    out = _WINDOWS_HOME.sub(lambda m: m.group("pre") + "USER", out)
    names = [hostname, _current_user(), *also]
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        if name and len(name) >= 3:
            out = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", HIDDEN, out, flags=re.IGNORECASE)
    return out


def _walk(value: Any, hostname: str | None, also: tuple[str, ...] = ()) -> Any:
    if isinstance(value, str):
        return scrub_text(value, hostname, also=also)
    if isinstance(value, list):
        return [_walk(v, hostname, also) for v in value]
    if isinstance(value, dict):
        return {k: _walk(v, hostname, also) for k, v in value.items()}
    return value


def redact_machine(machine: Machine) -> Machine:
    """The Machine without host name, GPU UUIDs, serials, user names or the file label."""
    data = machine.to_dict()
    hostname = machine.hostname
    data["hostname"] = None
    data["label"] = None
    for gpu in data.get("gpus", []):
        gpu["uuid"] = None
    data = _walk(data, hostname)
    # schema_version and numbers are untouched; strings only lose identifiers, so this always loads
    return Machine.from_dict(data, where="report")


# What a report keeps of a trial result: the figures, the outcome and its one-line message, where it ran.
TRIAL_REPORT_KEYS = ("workload", "outcome", "message", "python", "libraries", "measured", "estimated", "ratios",
                     "install")
TRIAL_REPORT_DETAILS = ("largest_batch_that_fits", "batch_tried", "oom_error", "reason", "python_version",
                        "cuda_build")


def trial_for_report(data: dict[str, Any], include_ids: bool, hostname: str | None = None) -> dict[str, Any]:
    """A trial result (`TrialResult.to_json()`) as a report carries it: only TRIAL_REPORT_KEYS and, of its
    details, TRIAL_REPORT_DETAILS (never the stderr lines, the traceback or the exit code); unless
    `include_ids`, every text scrubbed by `scrub_text` (user and host names, UUIDs, serials, MACs)."""
    out = {k: data.get(k) for k in TRIAL_REPORT_KEYS}
    details = data.get("details") or {}
    out["details"] = {k: details[k] for k in TRIAL_REPORT_DETAILS if k in details}
    return out if include_ids else _walk(out, hostname, _this_host())


__all__ = ["redact_machine", "scrub_text", "trial_for_report", "HIDDEN"]
