"""Where the reader is, for advice that can be followed there: "cn" (mainland China) or "global".

Separate from the language: a zh_CN reader may live in Singapore, an English speaker in Shanghai.
Detected from GPUCHECK_REGION, then the system time zone (TZ, /etc/localtime, Windows' time zone name),
then the locale's country (zh_CN, en_CN); `--region` and the app's menu override it.
A leaf module: it imports nothing from gpucheck.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

REGIONS = ("cn", "global")

# IANA zones of mainland China (Asia/Shanghai and its old aliases); Hong Kong, Macau and Taipei are not.
_CN_ZONES = frozenset({"asia/shanghai", "asia/chongqing", "asia/chungking", "asia/harbin", "asia/urumqi",
                       "asia/kashgar", "prc"})
_CN_WINDOWS_ZONES = frozenset({"china standard time", "中国标准时间"})  # Windows' names for Beijing time
_NO_PLACE_ZONES = frozenset({"utc", "etc/utc", "gmt", "etc/gmt", "universal", "zulu", "etc/universal"})
_LOCALE_VARS = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")

_state = threading.local()
_default_region: str | None = None  # None: detected on first use


def normalize_region(value: str | None) -> str | None:
    """'cn', 'CN', 'china', 'mainland' → 'cn'; 'global', 'intl', 'world' → 'global'; else None."""
    if not value:
        return None
    v = value.strip().lower()
    if v in ("cn", "china", "mainland", "zh_cn", "prc"):
        return "cn"
    if v in ("global", "intl", "international", "world", "other"):
        return "global"
    return None


def zone_is_mainland(zone: str | None) -> bool | None:
    """True for a mainland-China time zone name, False for another place's, None when unknown or UTC."""
    if not zone:
        return None
    z = zone.strip().lstrip(":").lower()
    if "zoneinfo/" in z:
        z = z.split("zoneinfo/", 1)[1]
    if z in _NO_PLACE_ZONES:  # servers and containers: says nothing about where the reader is
        return None
    return z in _CN_ZONES or z in _CN_WINDOWS_ZONES


def locale_country(value: str | None) -> str | None:
    """'zh_CN.UTF-8' → 'CN', 'en-US' → 'US', 'C' → None."""
    if not value:
        return None
    base = value.split(".")[0].split("@")[0].replace("-", "_")
    parts = base.split("_")
    if len(parts) >= 2 and len(parts[-1]) == 2 and parts[-1].isalpha():
        return parts[-1].upper()
    return None


def _system_zone() -> str | None:
    """The system time zone's name: $TZ, the /etc/localtime link, /etc/timezone, else the C library's."""
    tz = os.environ.get("TZ")
    if tz:
        return tz
    try:
        link = Path("/etc/localtime")
        if link.is_symlink():
            return str(link.resolve())
        text = Path("/etc/timezone").read_text(encoding="utf-8", errors="replace").strip()
        if text:
            return text
    except OSError:
        pass
    names = tuple(n for n in time.tzname if n)
    return names[0] if names and sys.platform == "win32" else None


def detect_region(environ: dict[str, str] | None = None, zone: str | None = None) -> str:
    """The reader's region. `environ` and `zone` are injectable for tests (default: this process's)."""
    env = os.environ if environ is None else environ
    forced = normalize_region(env.get("GPUCHECK_REGION"))
    if forced:
        return forced
    mainland = zone_is_mainland(zone if zone is not None or environ is not None else _system_zone())
    if mainland is not None:
        return "cn" if mainland else "global"
    for var in _LOCALE_VARS:
        for part in (env.get(var) or "").split(":"):
            country = locale_country(part)
            if country:
                return "cn" if country == "CN" else "global"
    return "global"


def set_region(region: str | None) -> str:
    """Set the process-wide region (None = detect). Returns the region in force."""
    global _default_region
    _default_region = normalize_region(region) or detect_region()
    _state.region = _default_region
    return _default_region


def get_region() -> str:
    region = getattr(_state, "region", None) or _default_region
    return region if region is not None else set_region(None)


def in_mainland() -> bool:
    return get_region() == "cn"


class use_region:
    """Context manager: advise for `region` on this thread (a report for a reader elsewhere)."""

    def __init__(self, region: str):
        self.region = normalize_region(region) or "global"

    def __enter__(self):
        self._old = getattr(_state, "region", None)
        _state.region = self.region
        return self

    def __exit__(self, *exc):
        if self._old is None:
            del _state.region
        else:
            _state.region = self._old
