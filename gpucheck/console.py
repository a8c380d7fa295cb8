"""What the command line prints: text lines and JSON on stdout, and a plain-text table whose columns line up in
a terminal with Chinese text too (a wide character, CJK, takes two columns)."""

from __future__ import annotations

import json
import sys
import unicodedata
from typing import Any


def _width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in s)


def _pad(s: str, w: int, right: bool = False) -> str:
    gap = " " * max(0, w - _width(s))
    return gap + s if right else s + gap


# a right-aligned column lines up its figures; a cell wider than this is a sentence (the software stack and what
# the advice changes in it), which starts where the column starts and runs on, instead of pushing every figure
# of the column a line's width to the right
FIGURE_WIDTH = 40


def format_table(headers: list[str], rows: list[list[str]], right: set[int] | None = None) -> str:
    """`headers` over a dashed rule over `rows`, two spaces between columns; the columns in `right` right-aligned
    (their cells wider than FIGURE_WIDTH left-aligned, not counted in the column's width)."""
    right = right or set()

    def flush_right(i: int, c: str) -> bool:  # a figure of a right-aligned column (not a sentence in it)
        return i in right and _width(c) <= FIGURE_WIDTH

    widths = [_width(h) for h in headers]
    for r in rows:
        for i, c in enumerate(r):
            if i not in right or flush_right(i, c):
                widths[i] = max(widths[i], _width(c))
    lines = ["  ".join(_pad(h, widths[i], i in right) for i, h in enumerate(headers)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(_pad(c, widths[i], flush_right(i, c)) for i, c in enumerate(r)).rstrip())
    return "\n".join(lines)


def print_line(text: str) -> None:
    sys.stdout.write(text + "\n")


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
