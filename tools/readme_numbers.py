"""Write the figures the README takes from the data: `<!-- count:NAME -->N<!-- /count -->`.

    python tools/readme_numbers.py          rewrite README.md's counts from the catalogs
    python tools/readme_numbers.py --check  exit 1 if one is stale (tests/test_readme.py does the same)
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: the checkout's gpucheck
    sys.path.insert(0, str(ROOT))

from gpucheck.catalog import load_gpus, load_workloads  # noqa: E402

README = ROOT / "README.md"
COUNT = re.compile(r"<!-- count:(?P<name>[a-z_]+) -->(?P<value>[^<]*)<!-- /count -->")
COUNTS: dict[str, Callable[[], int]] = {
    "workloads": lambda: len(load_workloads()),
    "gpus": lambda: len(load_gpus()),
}


def expected(name: str) -> str:
    if name not in COUNTS:
        raise KeyError(f"README.md: unknown count '{name}' (known: {', '.join(COUNTS)})")
    return str(COUNTS[name]())


def stale(text: str) -> list[tuple[str, str, str]]:
    """(name, written, expected) for every count in `text` that differs from the data."""
    return [(m["name"], m["value"], expected(m["name"])) for m in COUNT.finditer(text)
            if m["value"] != expected(m["name"])]


def rewrite(text: str) -> str:
    return COUNT.sub(lambda m: f"<!-- count:{m['name']} -->{expected(m['name'])}<!-- /count -->", text)


def main(argv: list[str]) -> int:
    text = README.read_text(encoding="utf-8")
    if argv == ["--check"]:
        bad = stale(text)
        for name, written, want in bad:
            print(f"README.md: {name} is {written}, the data says {want}")
        return 1 if bad else 0
    README.write_text(rewrite(text), encoding="utf-8")
    print("README.md counts written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
