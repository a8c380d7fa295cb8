"""The README is for users and stays short; the figures in it that come from the data cannot drift."""

from __future__ import annotations

import re
from pathlib import Path

from tools.readme_numbers import COUNT, README, stale

ROOT = Path(__file__).resolve().parent.parent


def test_readme_is_short():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 250, f"README.md has {lines} lines; developer material goes to docs/"


def test_counts_in_the_readme_match_the_data():
    text = README.read_text(encoding="utf-8")
    assert list(COUNT.finditer(text)), "README.md: the counts are marked <!-- count:NAME -->N<!-- /count -->"
    assert not stale(text), f"{stale(text)}: run python tools/readme_numbers.py"


def test_links_to_docs_exist():
    for doc in ("README.md", *(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))):
        text = (ROOT / doc).read_text(encoding="utf-8")
        base = (ROOT / doc).parent
        for target in re.findall(r"\]\(([^)#\s]+\.(?:md|png|py))\)", text):
            if "://" in target:
                continue
            assert (base / target).exists(), f"{doc}: link to {target}, which does not exist"
