"""The catalogs in resources/ (GPUs, workloads, cloud offers, parts) and the ONE resource locator.

Every file the app ships is found through `resource_path()`, whether it runs from a source tree,
an installed wheel, or a frozen PyInstaller bundle.
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def resource_root() -> Path:
    """The folder holding gpus.toml, workloads/, translations/, icons/ …"""
    candidates = []
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:  # PyInstaller bundle
        candidates.append(Path(frozen_root) / "resources")
    here = Path(__file__).resolve().parent
    candidates.append(here / "_resources")  # installed wheel (package-dir mapping in pyproject)
    candidates.append(here.parent / "resources")  # source tree / editable install
    for c in candidates:
        if (c / "gpus.toml").is_file() or (c / "workloads").is_dir():
            return c
    return candidates[-1]


def resource_path(*parts: str) -> Path:
    return resource_root().joinpath(*parts)
