"""The ONE resource locator: where the files in resources/ are, whatever way the app runs.

A leaf module (standard library only), so every layer may ask it for a path: a source tree or an
editable install (../resources), an installed wheel (gpucheck/_resources, copied by setup.py at build
time) or a frozen PyInstaller bundle (sys._MEIPASS/resources).
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
    candidates.append(here / "_resources")  # installed wheel (setup.py copies resources/ there at build time)
    candidates.append(here.parent / "resources")  # source tree / editable install
    for c in candidates:
        if (c / "gpus.toml").is_file() or (c / "workloads").is_dir():
            return c
    return candidates[-1]


def resource_path(*parts: str) -> Path:
    """A file or folder under the resource root, e.g. resource_path("translations", "gpucheck_zh_CN.ts")."""
    return resource_root().joinpath(*parts)
