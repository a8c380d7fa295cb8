"""The Chinese catalog is complete: every string the code shows is translated, with the same placeholders,
and the compiled .qm the desktop app loads matches the .ts."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from tools import i18n_tools as t

TS = t.TRANSLATIONS_DIR / "gpucheck_zh_CN.ts"
QM = TS.with_suffix(".qm")
UPDATE = "run: python tools/i18n_tools.py update, translate, then python tools/i18n_tools.py fill FILE.json"
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def found() -> t.Extracted:
    return t.extract()


@pytest.fixture(scope="module")
def catalog() -> t.Catalog:
    return t.read_ts(TS)


def test_every_string_in_the_code_is_in_the_catalog(found, catalog):
    assert found.messages, "no tr() strings found in gpucheck/: the extractor is broken"
    issues = t.problems(catalog, found)
    assert not issues["missing"], f"strings not in {TS.name} ({UPDATE}):\n" + "\n".join(issues["missing"])


def test_no_unfinished_translation(found, catalog):
    issues = t.problems(catalog, found)
    assert not issues["unfinished"], f"untranslated strings ({UPDATE}):\n" + "\n".join(issues["unfinished"])
    assert not [e.source for e in catalog.entries if e.type == "unfinished"]


def test_translations_keep_the_placeholders(catalog):
    issues = t.problems(catalog, t.Extracted())
    assert not issues["placeholders"], "\n".join(issues["placeholders"])


def test_translations_are_chinese(catalog):
    """A translation with no Chinese in it is a slip, unless the English is only names, acronyms,
    placeholders and symbols ('DeepSpeed ZeRO-2', 'UUID', '{os} (WSL)')."""
    slips = []
    for e in catalog.entries:
        if e.type == "vanished" or not e.translation:
            continue  # untranslated entries are reported by test_no_unfinished_translation
        if CJK.search(e.translation):
            continue
        words = re.findall(r"\b[A-Za-z][a-z]{2,}\b", re.sub(r"\{[^}]*\}", "", e.source))
        if [w for w in words if w not in NAMES]:
            slips.append(f"{e.source!r} → {e.translation!r}")
    assert not slips, "\n".join(slips)


NAMES = {"Apple", "Intel", "Linux", "Windows", "Metal", "Python", "Kaggle", "Colab", "Google", "Kernel", "Gen",
         "Adafactor"}  # an optimizer's name (Shazeer & Stern 2018), written as is in Chinese texts too


def test_no_string_built_at_run_time_is_given_to_tr(found):
    """tr(f"…") or tr("a" + b) can never match the catalog: the user would see English."""
    assert not found.problems, "\n".join(found.problems)


def test_catalog_file_is_in_canonical_form(catalog):
    """The .ts is exactly what the tool writes (so `update` makes no noise in version control)."""
    assert TS.read_text(encoding="utf-8") == t.ts_text(catalog), "run: python tools/i18n_tools.py update"


def test_qm_is_compiled_from_the_current_ts():
    if t.find_lrelease() is None:
        pytest.skip("Qt's lrelease is not installed")
    assert QM.is_file(), "run: python tools/i18n_tools.py compile"
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / QM.name
        t.compile_ts(TS, fresh)
        assert fresh.read_bytes() == QM.read_bytes(), "the .qm is stale: python tools/i18n_tools.py compile"


# -- the extractor and the merge, on small made-up sources ----------------------------------------


def _extract_text(tmp_path: Path, code: str) -> t.Extracted:
    f = tmp_path / "mod.py"
    f.write_text(code, encoding="utf-8")
    out = t.Extracted()
    t.extract_file(f, "gpucheck/mod.py", out)
    return out


def test_extractor_finds_every_way_of_marking_a_string(tmp_path):
    out = _extract_text(
        tmp_path,
        "from gpucheck.i18n import tr, N_ as mark\n"
        "from gpucheck import i18n\n"
        "from PySide6.QtCore import QCoreApplication\n"
        "a = tr('Plain {x}', x=1)\n"
        "b = mark('Marked')\n"
        "c = i18n.tr('Via module')\n"
        "d = QCoreApplication.translate('gpucheck', 'Via Qt')\n"
        "e = tr('Implicit ' 'concatenation')\n"
        "f = tr(variable)\n"
        "g = other('Not a marker')\n",
    )
    assert set(out.messages) == {"Plain {x}", "Marked", "Via module", "Via Qt", "Implicit concatenation"}
    assert out.messages["Plain {x}"] == [("gpucheck/mod.py", 4)]
    assert out.problems == []


def test_extractor_reports_strings_built_at_run_time(tmp_path):
    out = _extract_text(
        tmp_path,
        "from gpucheck.i18n import tr\n"
        "a = tr(f'Hello {name}')\n"
        "b = tr('Hello ' + name)\n"
        "c = tr('Hello {}'.format(name))\n",
    )
    assert out.messages == {}
    assert len(out.problems) == 3 and all("mod.py:" in p for p in out.problems)


def test_extractor_reports_a_table_of_unmarked_strings_looked_up_in_tr(tmp_path):
    out = _extract_text(
        tmp_path,
        "from gpucheck.i18n import tr, N_\n"
        "LABELS = {'free': 'Free', 'cheapest': 'Cheapest'}\n"
        "MARKED = {'free': N_('Free')}\n"
        "def label(k):\n"
        "    return tr(LABELS.get(k, k)) + tr(MARKED[k])\n",
    )
    assert out.messages == {"Free": [("gpucheck/mod.py", 3)]}
    assert len(out.problems) == 1 and "LABELS (line 2)" in out.problems[0]


def test_merge_keeps_translations_marks_new_and_vanished(tmp_path):
    ts = tmp_path / "translations" / "gpucheck_zh_CN.ts"
    ts.parent.mkdir()
    cat = t.Catalog("zh_CN", [
        t.Entry("Kept", "保留"),
        t.Entry("Gone", "消失"),
        t.Entry("Back", "回来", "vanished"),
        t.Entry("Draft never translated", "", "unfinished"),
    ])
    found = t.Extracted()
    found.add("Kept", "gpucheck/a.py", 3)
    found.add("Back", "gpucheck/a.py", 9)
    found.add("New {n}", "gpucheck/b.py", 1)
    counts = t.merge(cat, found, ts)
    by = cat.by_source()
    assert (by["Kept"].translation, by["Kept"].type) == ("保留", None)
    assert (by["Back"].translation, by["Back"].type) == ("回来", None)
    assert (by["New {n}"].translation, by["New {n}"].type) == ("", "unfinished")
    assert (by["Gone"].translation, by["Gone"].type) == ("消失", "vanished")
    assert "Draft never translated" not in by
    assert counts == {"new": 1, "kept": 1, "revived": 1, "vanished": 1, "dropped": 1}
    t.write_ts(ts, cat)
    again = t.read_ts(ts)
    assert [(e.source, e.translation, e.type) for e in again.entries] == [
        (e.source, e.translation, e.type) for e in cat.entries]
    [(filename, line)] = again.by_source()["Kept"].locations
    assert filename.endswith("gpucheck/a.py") and line == 3


def test_fill_refuses_a_translation_that_loses_a_placeholder():
    cat = t.Catalog("zh_CN", [t.Entry("Needs {need} of {have}", "", "unfinished")])
    n, complaints = t.fill(cat, {"Needs {need} of {have}": "需要 {need}"})
    assert n == 0 and complaints and cat.entries[0].type == "unfinished"
    n, complaints = t.fill(cat, {"Needs {need} of {have}": "需要 {need}，共有 {have}"})
    assert n == 1 and not complaints and cat.entries[0].finished


def test_special_characters_survive_the_round_trip(tmp_path):
    ts = tmp_path / "gpucheck_zh_CN.ts"
    src = 'A & B <tag> "quoted" {{literal}} {x:.1f}'
    t.write_ts(ts, t.Catalog("zh_CN", [t.Entry(src, 'A 与 B <tag> “引号” {{literal}} {x:.1f}')]))
    e = t.read_ts(ts).entries[0]
    assert e.source == src and e.translation.startswith("A 与 B <tag>")
    assert t.placeholder_mismatch(src, e.translation) is None
