"""Texts and values that come from the trial's child (the user's Python), made safe to keep and to show:
no terminal escape codes or control characters, one line, bounded lengths and sizes."""

from __future__ import annotations

import math
import re
from typing import Any

ECHO_CHARS = 500  # of any text the child sent, kept (a message, a traceback line, a library's version)
ECHO_ITEMS = 30  # of any list or mapping the child sent, kept
# Terminal escape sequences (CSI, OSC, other ESC sequences) and the remaining control characters: a child's
# text must not clear the screen or set the title of the terminal it is echoed to.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]|\x9b[0-?]*[ -/]*[@-~]"
                      r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean_text(text: str, limit: int = ECHO_CHARS) -> str:
    """A child's text made safe to echo: no terminal escape codes or control characters, one line (tabs and
    newlines become spaces), at most `limit` characters (cut with "…")."""
    out = _ESCAPES.sub("", str(text)).replace("\t", " ").replace("\n", " ").replace("\r", " ")
    return out if len(out) <= limit else out[: limit - 1] + "…"


def tame(value: Any, depth: int = 0) -> Any:
    """What the child sent, bounded: texts cleaned and cut, lists and mappings cut to ECHO_ITEMS, nesting to 6
    levels, numbers that are not finite dropped."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return value if math.isfinite(value) else None
    if depth >= 6:
        return None
    if isinstance(value, list):
        return [tame(v, depth + 1) for v in value[:ECHO_ITEMS]]
    if isinstance(value, dict):
        return {clean_text(str(k), 80): tame(v, depth + 1) for k, v in list(value.items())[:ECHO_ITEMS * 2]}
    return None
