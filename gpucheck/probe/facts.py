"""The scan's reference tables (resources/probe.toml), loaded once."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]


@lru_cache(maxsize=1)
def facts() -> dict[str, Any]:
    from gpucheck.catalog import resource_path

    try:
        with open(resource_path("probe.toml"), "rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def _vkey(v: str) -> tuple[int, ...]:
    out = []
    for p in str(v).split("."):
        try:
            out.append(int(p))
        except ValueError:
            out.append(0)
    return tuple(out)


def version_key(v: str | None) -> tuple[int, ...]:
    return _vkey(v) if v else ()


def nvidia_cc(cc: str | None) -> dict[str, Any] | None:
    """The row for a compute capability; an unknown newer minor falls back to the same major's row."""
    if not cc:
        return None
    rows = facts().get("nvidia", {}).get("cc", [])
    for r in rows:
        if r["cc"] == cc:
            return r
    major = cc.split(".")[0]
    same = [r for r in rows if r["cc"].split(".")[0] == major and _vkey(r["cc"]) <= _vkey(cc)]
    return same[-1] if same else None


def nvidia_setting(key: str, default: Any = None) -> Any:
    return facts().get("nvidia", {}).get(key, default)


def power_setting(key: str, default: Any = None) -> Any:
    return facts().get("power", {}).get(key, default)
