"""The app's log: standard `logging` to a rotating file in the user's per-OS log folder.

The folder comes from platformdirs (`user_log_dir`): ~/.local/state/gpucheck/log on Linux
($XDG_STATE_HOME respected), ~/Library/Logs/gpucheck on macOS, %LOCALAPPDATA%\\gpucheck\\Logs on Windows.
Unexpected exceptions are written there (`log_exception`); the file rolls over at 2 MB, one old copy kept.
"""

from __future__ import annotations

import logging
from logging.handlers import RotatingFileHandler
from pathlib import Path

import platformdirs

APP = "gpucheck"
MAX_BYTES = 2_000_000
BACKUPS = 1

logger = logging.getLogger(APP)


def log_dir() -> Path:
    return Path(platformdirs.user_log_dir(APP, appauthor=False))


def log_file() -> Path:
    return log_dir() / f"{APP}.log"


def _file_handler() -> RotatingFileHandler | None:
    """The handler writing to today's log file (the folder can change: tests point it elsewhere)."""
    path = log_file()
    for h in logger.handlers:
        if isinstance(h, RotatingFileHandler):
            if Path(h.baseFilename) == path.absolute():
                return h
            logger.removeHandler(h)
            h.close()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True)
    except OSError:
        return None
    handler.setFormatter(logging.Formatter("--- %(asctime)s %(levelname)s %(name)s\n%(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    return handler


def log_exception(exc: BaseException) -> str:
    """Write `exc` with its traceback to the log; the log file's path (to show the user), or why not."""
    handler = _file_handler()
    if handler is None:
        return "(log folder not writable)"
    logger.error("unexpected error: %s: %s", type(exc).__name__, exc, exc_info=(type(exc), exc, exc.__traceback__))
    handler.flush()
    path = Path(handler.baseFilename)
    return str(path) if path.exists() else "(log folder not writable)"
