"""Scan findings follow the reader's language, not the language the scan ran in.

A finding keeps its English template and values (`Finding.template`, `Finding.params`); the CLI summary,
the reports and the wizard render it with gpucheck.i18n.finding_text() in the language in force. Checked
on recorded machines (tests/fixtures/machines, sources in tests/fixtures/SOURCES.md) that were scanned in
English, on the same recordings scanned in Chinese, and on scans saved before findings had templates.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpucheck.errors import BadInput
from gpucheck.i18n import finding_text, translate, use_language
from gpucheck.machine import Finding, Machine
from gpucheck.machine_text import format_machine
from gpucheck.probe.base import finding
from gpucheck.report import build_report
from tests.conftest import FIXTURES

CJK = re.compile(r"[\u4e00-\u9fff]")
VM = FIXTURES / "machines" / "cpu-only-vm.json"  # a real `gpucheck scan` of a VM, run in English
HYBRID = FIXTURES / "machines" / "gtx1650-hybrid-laptop.json"


def zh(source: str) -> str:
    text = translate(source, "zh_CN")
    assert text != source, f"no Chinese translation for {source!r}"
    return text


def test_recorded_english_scan_is_chinese_in_the_cli_summary():
    m = Machine.load(VM)
    assert m.findings and all(f.template for f in m.findings)
    assert not CJK.search(format_machine(m))  # as scanned
    with use_language("zh_CN"):
        text = format_machine(m)
    # "NVIDIA: no driver found (NVML library not found)": template and reason both from the catalog
    expected = zh("NVIDIA: no driver found ({reason})").format(reason=zh("NVML library not found"))
    assert expected in text
    for f in m.findings:
        assert f.message not in text, f.message  # no English finding left
        assert finding_text(f, "zh_CN") in text and CJK.search(finding_text(f, "zh_CN"))


def test_recorded_english_scan_is_chinese_in_a_chinese_report():
    m = Machine.load(HYBRID)
    model = build_report(m, lang="zh_CN")
    texts = [line.message for line in model.findings]
    assert len(texts) == len(m.findings)
    for f in m.findings:
        assert f.message not in texts
    # the list of fields the driver left out is translated item by item and joined the Chinese way
    details = next(t for t in texts if t.startswith("NVIDIA GeForce GTX 1650"))
    assert zh("power limit") in details and "、" in details and "power limit" not in details
    english = build_report(m, lang="en")
    assert sorted(line.message for line in english.findings) == sorted(f.message for f in m.findings)


def test_the_same_recordings_scanned_in_chinese_read_the_same_in_english(tmp_path):
    """A scan run in Chinese stores English values, so it renders exactly like a scan run in English."""
    sys.path.insert(0, str(FIXTURES))
    try:
        import build_machines
    finally:
        sys.path.remove(str(FIXTURES))
    with use_language("zh_CN"):
        scanned_zh = build_machines.MACHINES["gtx1650-hybrid-laptop"](tmp_path)
    recorded_en = Machine.load(HYBRID)
    assert all(CJK.search(f.message) for f in scanned_zh.findings)  # rendered in Chinese at scan time
    assert [(f.code, f.template, f.params) for f in scanned_zh.findings] == \
           [(f.code, f.template, f.params) for f in recorded_en.findings]
    assert [finding_text(f, "en") for f in scanned_zh.findings] == [f.message for f in recorded_en.findings]


@pytest.mark.parametrize("path", sorted((FIXTURES / "machines").glob("*.json")), ids=lambda p: p.stem)
def test_every_recorded_finding_reads_in_both_languages(path):
    """Each recorded machine's findings carry their template; in English they read exactly as scanned,
    in Chinese they are translated (a figure-free name such as a GPU model may stay as it is)."""
    m = Machine.load(path)
    for f in m.findings:
        assert f.template, f.code
        assert finding_text(f, "en") == f.message
        assert CJK.search(finding_text(f, "zh_CN")), finding_text(f, "zh_CN")


def test_finding_keeps_template_and_values_and_renders_the_message_now():
    with use_language("zh_CN"):
        f = finding("gpu", "info", "NVIDIA: no driver found ({reason})", "nvidia.no_driver",
                    reason=translate("NVML library not found"))
    assert f.message == zh("NVIDIA: no driver found ({reason})").format(reason=zh("NVML library not found"))
    assert f.template == "NVIDIA: no driver found ({reason})"
    assert f.params == (("reason", "NVML library not found"),)  # stored in English
    assert finding_text(f, "en") == "NVIDIA: no driver found (NVML library not found)"
    # a placeholder may be called `area` or `code` without clashing with the constructor's arguments
    g = finding("scan", "unknown", "{area}: unknown because the check failed ({error})", "scan.cpu.failed",
                area="cpu", error="OSError: boom")
    assert (g.area, g.code, dict(g.params)["area"]) == ("scan", "scan.cpu.failed", "cpu")


def test_old_scan_without_templates_still_shows_its_findings():
    data = json.loads(VM.read_text(encoding="utf-8"))
    for f in data["findings"]:
        del f["template"], f["params"]
    m = Machine.from_dict(data)
    assert all(f.template == "" and f.params == () for f in m.findings)
    with use_language("zh_CN"):
        lines = format_machine(m)
    by_code = {f.code: f for f in m.findings}
    # a message with a value in it cannot be looked up: shown as it was saved
    assert by_code["nvidia.no_driver"].message in lines
    # one without values is itself a catalog string: shown in Chinese
    assert zh(by_code["gpu.none"].message) in lines
    # text from nowhere is shown as is, in any language
    odd = Finding("gpu", "warning", "Something a newer version wrote")
    assert finding_text(odd, "zh_CN") == finding_text(odd, "en") == "Something a newer version wrote"


def test_hand_edited_templates_fall_back_to_the_message():
    base = Finding("gpu", "info", "saved text", "x", template="{gpu} ok", params=(("gpu", "RTX"),))
    assert finding_text(base, "en") == "RTX ok"
    for template in ("{gpu.__class__} ok", "{missing} ok", "{gpu!r} ok", "{ broken", "{0} ok"):
        assert finding_text(dataclasses.replace(base, template=template), "en") == "saved text", template


def test_machine_json_round_trips_the_new_fields():
    m = Machine.load(HYBRID)
    assert any(len(f.params) > 1 for f in m.findings)
    again = Machine.from_dict(json.loads(m.to_json()))
    assert again.findings == m.findings
    assert isinstance(again.findings[0].params, tuple)
    assert all(isinstance(p, tuple) and len(p) == 2 for f in again.findings for p in f.params)


@pytest.mark.parametrize("params, where", [
    ([["gpu"]], "params[0]"),  # a pair needs both name and value
    ([["gpu", "RTX", "extra"]], "params[0]"),
    ([["gpu", 3]], "params[0][1]"),
    ("gpu=RTX", "params"),
])
def test_malformed_params_are_one_clear_error(params, where):
    data = json.loads(HYBRID.read_text(encoding="utf-8"))
    data["findings"][0]["params"] = params
    with pytest.raises(BadInput, match=re.escape(where)):
        Machine.from_dict(data)


def test_extractor_reads_finding_templates(tmp_path):
    """The translation catalog gets every finding's template (the third argument of finding())."""
    from tools.i18n_tools import Extracted, extract, extract_file

    found = extract()
    where = found.messages.get("NVIDIA: no driver found ({reason})", [])
    assert any(path == "gpucheck/probe/assemble.py" for path, _ in where)
    src = tmp_path / "x.py"
    src.write_text('from .base import finding\n'
                   'a = finding("gpu", "info", "A {x} template", "c", x=1)\n'
                   'b = finding("gpu", "info", f"Built {a}", "c")\n', encoding="utf-8")
    out = Extracted()
    extract_file(src, "gpucheck/probe/x.py", out)
    assert list(out.messages) == ["A {x} template"]
    assert len(out.problems) == 1 and "built at run time" in out.problems[0]


names = st.sampled_from(["gpu", "reason", "n", "x", ""]) | st.text(max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40) | st.sampled_from(["NVIDIA: no driver found ({reason})", "{gpu}: {x}", "{{{gpu}}}"]),
       st.lists(st.tuples(names, st.text(max_size=12) | st.sampled_from(["unknown", "power limit, PCIe link"])),
                max_size=3),
       st.sampled_from(["en", "zh_CN"]))
def test_any_saved_template_shows_text_and_never_fails(template, params, lang):
    f = Finding("gpu", "info", "saved text", "x", template=template, params=tuple(params))
    out = finding_text(f, lang)
    assert isinstance(out, str)
    if not template:
        assert out == "saved text"
