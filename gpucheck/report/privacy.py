"""Keep identifying details out of reports: host name, GPU UUIDs, serial numbers, user names in paths.

`redact_machine(machine)` returns a copy of the Machine with those removed (pure, no I/O except
reading the current user name once, so a report written on this PC does not carry it either).
"""

from __future__ import annotations

import getpass
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


def scrub_text(text: str, hostname: str | None = None) -> str:
    """Remove UUIDs, serial numbers, user names in home paths and the host name from free text."""
    out = _UUID.sub(HIDDEN, text)
    out = _SERIAL.sub(lambda m: m.group(1) + HIDDEN, out)
    out = _POSIX_HOME.sub(lambda m: m.group("pre") + "USER", out)
    out = _WINDOWS_HOME.sub(lambda m: m.group("pre") + "USER", out)
    for name in (hostname, _current_user()):
        if name and len(name) >= 3:
            out = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", HIDDEN, out, flags=re.IGNORECASE)
    return out


def _walk(value: Any, hostname: str | None) -> Any:
    if isinstance(value, str):
        return scrub_text(value, hostname)
    if isinstance(value, list):
        return [_walk(v, hostname) for v in value]
    if isinstance(value, dict):
        return {k: _walk(v, hostname) for k, v in value.items()}
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


__all__ = ["redact_machine", "scrub_text", "HIDDEN"]
