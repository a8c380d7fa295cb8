"""The log file under the user's log directory; unexpected exceptions are written there."""

from __future__ import annotations

import datetime as _dt
import os
import sys
import traceback
from pathlib import Path


def log_dir() -> Path:
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "gpucheck" / "Logs"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Logs" / "gpucheck"
    else:
        state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        base = Path(state) / "gpucheck"
    return base


def log_file() -> Path:
    return log_dir() / "gpucheck.log"


def log_text(text: str) -> Path | None:
    path = log_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size > 2_000_000:
            path.replace(path.with_suffix(".log.1"))
        with path.open("a", encoding="utf-8") as f:
            f.write(f"--- {_dt.datetime.now().isoformat(timespec='seconds')}\n{text}\n")
        return path
    except OSError:
        return None


def log_exception(exc: BaseException) -> str:
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    path = log_text(text)
    return str(path) if path else "(log folder not writable)"
