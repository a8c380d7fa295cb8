"""Reading and validating the TOML data files: `read_toml(path)` (any problem → BadInput naming the file)
and `validate_table(where, table, spec)` (every key checked against its kind and range; an unknown key or a
wrong type → BadInput naming the file, the key and what was expected). Light on purpose: the scan reads its
facts with these without loading the catalogs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from gpucheck.errors import BadInput
from gpucheck.fileio import read_text_limited, shorten
from gpucheck.i18n import N_, tr

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


# -- reading and validating TOML -------------------------------------------------------------------


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file; any problem → BadInput naming the file."""
    text = read_text_limited(path, folder_error=N_("is a folder, not a TOML file"),
                             binary_error=N_("not a text file (expected TOML)"))
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise BadInput(tr("{path}: not valid TOML ({reason})", path=shorten(str(path)),
                          reason=shorten(str(e), 120))) from None
    except RecursionError:
        raise BadInput(tr("{path}: not valid TOML (nested too deeply)", path=shorten(str(path)))) from None
    except ValueError:  # Python refuses integers of more than 4300 digits
        raise BadInput(tr("{path}: not valid TOML (a number with more than 4300 digits)",
                          path=shorten(str(path)))) from None


# field spec: key -> (kind, required, minimum, maximum, choices)
# kinds: "str", "int", "float", "bool", "strlist"
MAX_NAME_CHARS = 200  # a --gpu name longer than this is refused without a fuzzy search
_KIND_TEXT = {"str": N_("a string"), "int": N_("an integer"), "float": N_("a number"), "bool": N_("true or false"),
              "strlist": N_("a list of strings"), "floatlist": N_("a list of numbers above 0")}


# The kinds of value the data files' key-kind schemas name (resources/factors.toml, advice.toml): kind →
# (what an error message says was expected, the check)
def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and abs(v) != float("inf")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


VALUE_KINDS: dict[str, tuple[str, Any]] = {
    "num": ("a number ≥ 0", lambda v: _is_num(v) and v >= 0),
    "pos": ("a number above 0", lambda v: _is_num(v) and v > 0),
    "frac": ("a number from 0 to 1", lambda v: _is_num(v) and 0 <= v <= 1),
    "posfrac": ("a number above 0, at most 1", lambda v: _is_num(v) and 0 < v <= 1),
    "int": ("a whole number ≥ 0", lambda v: _is_int(v) and v >= 0),
    "posint": ("a whole number ≥ 1", lambda v: _is_int(v) and v >= 1),
    "bool": ("true or false", lambda v: isinstance(v, bool)),
    "str": ("a string", lambda v: isinstance(v, str) and bool(v)),
    "strlist": ("a list of strings", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)),
    "intlist": ("a list of whole numbers", lambda v: isinstance(v, list) and bool(v) and all(_is_int(x) for x in v)),
    "numtable": ("a table of numbers",
                 lambda v: isinstance(v, dict) and bool(v) and all(_is_num(x) and x >= 0 for x in v.values())),
    "strtable": ("a table of strings", lambda v: isinstance(v, dict) and all(isinstance(x, str) for x in v.values())),
}


def shown_key(key: Any) -> str:
    """A key as quoted in an error: control characters escaped, so the message stays on one line
    (a TOML key may hold a newline: "a\nb" = 1)."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in str(key))


def _check_value(where: str, key: str, value: Any, kind: str, lo: float | None, hi: float | None,
                 choices: tuple[str, ...] | None) -> Any:
    what = tr(_KIND_TEXT[kind])
    if lo is not None and hi is not None and kind in ("int", "float"):
        what = tr("{kind} between {lo} and {hi}", kind=what, lo=f"{lo:g}", hi=f"{hi:g}")
    elif lo is not None and kind in ("int", "float"):
        what = tr("{kind} ≥ {lo}", kind=what, lo=f"{lo:g}")
    if choices:
        what = tr("one of {names}", names=shorten(", ".join(choices), 200))
    bad = BadInput(tr("{where}: key '{key}': expected {what}, got {got}", where=where, key=shown_key(key),
                      what=what, got=shorten(repr(value), 60)))
    if kind == "str":
        if not isinstance(value, str):
            raise bad
        if choices and value not in choices:
            raise bad
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise bad
        return value
    if kind == "strlist":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise bad
        return tuple(value)
    if kind == "floatlist":
        if not isinstance(value, list) or not value or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v < 1e6 for v in value):
            raise bad
        return tuple(float(v) for v in value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise bad
    if kind == "int" and not isinstance(value, int):
        if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
            value = int(value)
        else:
            raise bad
    if value != value or value in (float("inf"), float("-inf")):
        raise bad
    if lo is not None and value < lo:
        raise bad
    if hi is not None and value > hi:
        raise bad
    return int(value) if kind == "int" else float(value)


def validate_table(where: str, table: Any, spec: dict[str, tuple], prefix: str = "") -> dict[str, Any]:
    """Check a TOML table against `spec`; returns the converted values. Unknown keys are errors."""
    if not isinstance(table, dict):
        raise BadInput(f"{where}: key '{shown_key(prefix.rstrip('.')) or 'root'}': expected a table, "
                       f"got {table!r:.60}")
    unknown = sorted(set(table) - set(spec))
    if unknown:
        raise BadInput(
            tr("{where}: unknown key '{key}' (expected one of: {names})", where=where,
               key=shorten(shown_key(prefix + unknown[0]), 60), names=shorten(", ".join(sorted(spec)), 200))
        )
    out: dict[str, Any] = {}
    for key, (kind, required, lo, hi, choices) in spec.items():
        if key not in table:
            if required:
                raise BadInput(tr("{where}: missing key '{key}' ({what})", where=where, key=shown_key(prefix + key),
                                  what=tr(_KIND_TEXT[kind])))
            continue
        out[key] = _check_value(where, prefix + key, table[key], kind, lo, hi, choices)
    return out


def _f(required: bool = False, lo: float | None = 0, hi: float | None = None) -> tuple:
    return ("float", required, lo, hi, None)


def _i(required: bool = False, lo: float | None = 0, hi: float | None = None) -> tuple:
    return ("int", required, lo, hi, None)


def _s(required: bool = False, choices: tuple[str, ...] | None = None) -> tuple:
    return ("str", required, None, None, choices)


_B = ("bool", False, None, None, None)
