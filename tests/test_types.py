"""The type checker (mypy, configured in pyproject.toml [tool.mypy]) in the test command.

It started from the errors the code had on the day it was added: those are listed in
tests/mypy-baseline.txt (file, message and error code; line numbers left out, so that editing a file does
not disturb the list). An error that is not in the list fails this test; an error that was fixed only
shortens the list, which is rewritten with:

    .venv/bin/python tests/test_types.py --update

Tolerant where it should be: missing third-party stubs are not errors (ignore_missing_imports), and the
test is skipped where mypy is not installed (it is in the [test] extra, so CI always has it).
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "tests" / "mypy-baseline.txt"
_ERROR = re.compile(r"^(?P<path>[^:]+):\d+(?::\d+)?: error: (?P<message>.*)$")


def current_errors() -> Counter[str]:
    """mypy's errors as 'path: message  [code]' (line numbers dropped), counted."""
    from mypy import api  # the test is skipped where mypy is missing (see test_no_new_type_errors)

    out, err, _status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--no-error-summary",
                                 "--hide-error-context", "--no-pretty", "--no-color-output"])
    if err.strip() and not out.strip():
        raise RuntimeError(f"mypy did not run: {err.strip()[:500]}")
    found: Counter[str] = Counter()
    for line in out.splitlines():
        m = _ERROR.match(line.strip())
        if m:
            message = re.sub(r"\bline \d+\b", "line N", m.group("message"))
            found[f"{Path(m.group('path')).as_posix()}: {message}"] += 1
    return found


def read_baseline() -> Counter[str]:
    if not BASELINE.is_file():
        return Counter()
    lines = [ln for ln in BASELINE.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    return Counter(lines)


def write_baseline(errors: Counter[str]) -> None:
    head = ("# mypy errors accepted on the day the type check was added (tests/test_types.py).\n"
            "# Fix them and shrink this list; never add to it by hand: `python tests/test_types.py --update`.\n")
    BASELINE.write_text(head + "".join(f"{e}\n" for e in sorted(errors.elements())), encoding="utf-8")


def test_no_new_type_errors():
    pytest.importorskip("mypy")
    os.chdir(ROOT)  # mypy reads `files` and its cache relative to the project
    new = current_errors() - read_baseline()
    assert not new, ("new mypy errors (fix them; the baseline lists only the old ones):\n"
                     + "\n".join(sorted(new.elements())))


if __name__ == "__main__":
    if sys.argv[1:] == ["--update"]:
        os.chdir(ROOT)
        errors = current_errors()
        write_baseline(errors)
        print(f"{sum(errors.values())} errors written to {BASELINE.relative_to(ROOT)}")
    else:
        print(__doc__)
