"""Reasons and notes saved with a scan follow the reader's language, like its findings.

`Framework.reason`, `Disk.kind_reason`, `Power.notes` and `Measured.notes` are stored as rendered when
scanned (for older readers) and, beside them, as their English template and values (`reason_text`,
`kind_reason_text`, `notes_text`: gpucheck.i18n.Text). The CLI summary, the reports, the advice and the
wizard show them with gpucheck.i18n.show_text() in the language in force. Checked on recorded machines
(tests/fixtures/machines, sources in tests/fixtures/SOURCES.md) scanned in English, on the same recordings
scanned in Chinese, on a real deep scan of this computer, and on scans saved before texts were kept.
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
from gpucheck.i18n import Text, finding_text, show_text, text_of, tr_text, translate, use_language
from gpucheck.machine import Machine, kind_reason_shown, notes_shown, reason_shown, with_notes
from gpucheck.machine_text import format_machine
from gpucheck.report import build_report
from tests.conftest import FIXTURES

CJK = re.compile(r"[\u4e00-\u9fff]")
MACHINES = sorted((FIXTURES / "machines").glob("*.json"))
# an RTX 3060 desktop with a CPU-only PyTorch and two spinning disks, scanned in English
HDD = FIXTURES / "machines" / "rtx3060-12gb-hdd-desktop.json"
VM = FIXTURES / "machines" / "cpu-only-vm.json"  # a real `gpucheck scan` of a VM, run in English
CPU_ONLY = "this {name} build is CPU-only ({variant}); install a CUDA build to use the {gpu}"


def zh(source: str) -> str:
    text = translate(source, "zh_CN")
    assert text != source, f"no Chinese translation for {source!r}"
    return text


def _build(name: str, tmp_path):
    sys.path.insert(0, str(FIXTURES))
    try:
        import build_machines
    finally:
        sys.path.remove(str(FIXTURES))
    return build_machines.MACHINES[name](tmp_path)


def _strip_kept(data):
    """A scan as older versions saved it: no kept texts, a quoted reason only as rendered text."""
    if isinstance(data, dict):
        out = {k: _strip_kept(v) for k, v in data.items() if k not in ("reason_text", "kind_reason_text",
                                                                      "notes_text")}
        if "template" in out and "params" in out and "message" in out:  # a finding
            out["params"] = [[k, show_text(Text(v["template"], tuple((a, b) for a, b in v["params"])), lang="en")
                              if isinstance(v, dict) else v] for k, v in out["params"]]
        return out
    if isinstance(data, list):
        return [_strip_kept(v) for v in data]
    return data


def test_recorded_english_scan_shows_the_framework_reason_in_chinese_in_the_cli_summary():
    m = Machine.load(HDD)
    torch = m.software.frameworks[0]
    assert torch.reason.startswith("this torch build is CPU-only") and torch.reason_text.template == CPU_ONLY
    english = format_machine(m)
    assert torch.reason in english
    with use_language("zh_CN"):
        text = format_machine(m)
    chinese_reason = zh(CPU_ONLY).format(name="torch", variant="cpu", gpu="NVIDIA GeForce RTX 3060")
    assert chinese_reason in text
    assert torch.reason not in text and "CPU-only" not in text
    # the finding that quotes the reason reads in Chinese all the way through
    quoted = next(f for f in m.findings if f.code == "software.framework_gpu")
    assert isinstance(dict(quoted.params)["reason"], Text)
    assert zh("{name} {version} cannot use the GPU: {reason}").format(
        name="torch", version=torch.version, reason=chinese_reason) in text


def test_deep_scan_notes_of_an_english_scan_read_in_chinese(tmp_path):
    """A real deep scan of this computer, run in English (a missing folder, so the disk test is skipped)."""
    vm = Machine.load(VM)
    from gpucheck.bench import run_deep

    with use_language("en"):
        measured = run_deep(vm, disk_path=tmp_path / "missing", budget_s=3.0, ram_buffer_bytes=32 * 1024**2)
    m = Machine.from_dict(json.loads(dataclasses.replace(vm, measured=measured).to_json()))
    notes = m.measured.notes
    assert len(m.measured.notes_text) == len(notes) and all(t is not None for t in m.measured.notes_text)
    skipped = next(n for n in notes if n.startswith("Disk test skipped"))
    with use_language("zh_CN"):
        text = format_machine(m)
    for n in notes:
        assert n not in text, n
    assert zh("Disk test skipped: the folder {path} does not exist.").format(path=str(tmp_path / "missing")) in text
    assert notes_shown(m.measured, "en") == list(notes) and skipped in format_machine(m)


def test_recorded_english_scan_reads_in_chinese_in_a_chinese_report():
    m = Machine.load(HDD)
    torch = m.software.frameworks[0]
    model = build_report(m, lang="zh_CN")
    dumped = json.dumps(dataclasses.asdict(model)["findings"], ensure_ascii=False)
    assert torch.reason not in dumped
    chinese_reason = zh(CPU_ONLY).format(name="torch", variant="cpu", gpu="NVIDIA GeForce RTX 3060")
    assert any(chinese_reason in line.message for line in model.findings)
    english = build_report(m, lang="en")
    assert any(torch.reason in line.message for line in english.findings)


def test_the_advice_quotes_the_reason_in_the_readers_language():
    from gpucheck.advise.software import software_fixes

    m = Machine.load(HDD)
    torch = m.software.frameworks[0]
    # the fix for an unusable build quotes why it is unusable
    broken = dataclasses.replace(torch, variant="cu121", cuda_version="12.1")
    m = dataclasses.replace(m, software=dataclasses.replace(m.software, frameworks=(broken,)))
    with use_language("zh_CN"):
        fixes = software_fixes(m)
    text = " ".join(f.message for f in fixes)
    assert zh(CPU_ONLY).format(name="torch", variant="cpu", gpu="NVIDIA GeForce RTX 3060") in text
    assert torch.reason not in text


@pytest.mark.parametrize("path", MACHINES, ids=lambda p: p.stem)
def test_every_recorded_text_reads_as_scanned_in_english_and_translated_in_chinese(path):
    m = Machine.load(path)
    for fw in m.software.frameworks:
        assert fw.reason_text is not None and reason_shown(fw, "en") == fw.reason
        assert CJK.search(reason_shown(fw, "zh_CN")), reason_shown(fw, "zh_CN")
    for d in m.disks:
        assert kind_reason_shown(d, "en") == d.kind_reason
        if d.kind_reason_text is not None:  # Windows' own words ("MSFT_PhysicalDisk BusType=17") stay as they are
            assert CJK.search(kind_reason_shown(d, "zh_CN")), kind_reason_shown(d, "zh_CN")
    assert len(m.power.notes_text) == len(m.power.notes)
    assert notes_shown(m.power, "en") == list(m.power.notes)
    for note in notes_shown(m.power, "zh_CN"):
        assert CJK.search(note) and note not in m.power.notes, note
    for f in m.findings:
        assert finding_text(f, "en") == f.message


def test_the_same_recordings_scanned_in_chinese_keep_the_same_texts(tmp_path):
    """A scan run in Chinese keeps English templates and values, so it reads exactly like an English one."""
    with use_language("zh_CN"):
        scanned_zh = _build("rtx3060-12gb-hdd-desktop", tmp_path)
    recorded = Machine.load(HDD)
    fw_zh, fw_en = scanned_zh.software.frameworks[0], recorded.software.frameworks[0]
    assert CJK.search(fw_zh.reason) and all(CJK.search(n) for n in scanned_zh.power.notes)  # rendered in Chinese
    assert fw_zh.reason_text == fw_en.reason_text
    assert reason_shown(fw_zh, "en") == fw_en.reason
    assert [d.kind_reason_text for d in scanned_zh.disks] == [d.kind_reason_text for d in recorded.disks]
    assert scanned_zh.power.notes_text == recorded.power.notes_text
    assert notes_shown(scanned_zh.power, "en") == list(recorded.power.notes)
    assert [finding_text(f, "en") for f in scanned_zh.findings] == [f.message for f in recorded.findings]


def test_old_scan_without_kept_texts_still_shows_them():
    data = _strip_kept(json.loads(HDD.read_text(encoding="utf-8")))
    assert "reason_text" not in json.dumps(data)
    m = Machine.from_dict(data)
    torch = m.software.frameworks[0]
    assert torch.reason_text is None and m.power.notes_text == () and m.disks[0].kind_reason_text is None
    with use_language("zh_CN"):
        text = format_machine(m)
        power = notes_shown(m.power)
        disk = kind_reason_shown(m.disks[0])
    # a text with values in it cannot be looked up: shown as it was saved
    assert torch.reason in text and power == list(m.power.notes)
    # one without values is itself a catalog string: shown in Chinese
    assert disk == zh("spinning disk (rotational)")
    quoted = next(f for f in m.findings if f.code == "software.framework_gpu")
    assert dict(quoted.params)["reason"] == torch.reason and finding_text(quoted, "en") == quoted.message


def test_notes_that_do_not_line_up_are_shown_as_saved():
    m = Machine.load(HDD)
    power = dataclasses.replace(m.power, notes_text=m.power.notes_text * 2)
    assert notes_shown(power, "zh_CN") == list(m.power.notes)
    plain = with_notes(dataclasses.replace(m.power, notes_text=()), ["A note from a plug-in", tr_text("ROCm {v} build",
                                                                                                      v="6.0")])
    assert plain.notes_text == (None,) * len(m.power.notes) + (None, Text("ROCm {v} build", (("v", "6.0"),)))
    assert notes_shown(plain, "zh_CN")[-2:] == ["A note from a plug-in", zh("ROCm {v} build").format(v="6.0")]


def test_json_round_trip_keeps_every_text():
    for path in MACHINES:
        m = Machine.load(path)
        again = Machine.from_dict(json.loads(m.to_json()))
        assert dataclasses.replace(again, label=m.label) == m, path.stem
    m = Machine.load(HDD)
    note = m.power.notes_text[0]
    nested = dict(note.params)["cpu_note"]  # "desktop CPU class default", quoted inside the PSU estimate
    assert isinstance(note, Text) and isinstance(nested, Text) and nested.template == "desktop CPU class default"
    assert zh("desktop CPU class default") in notes_shown(m.power, "zh_CN")[0]


@pytest.mark.parametrize("bad, where", [
    ({"template": "x", "params": [["a"]]}, "reason_text.params[0]"),
    ({"template": 3, "params": []}, "reason_text.template"),
    ({"template": "x", "params": [], "extra": 1}, "reason_text"),
    ("just text", "reason_text"),
])
def test_malformed_kept_texts_are_one_clear_error(bad, where):
    data = json.loads(HDD.read_text(encoding="utf-8"))
    data["software"]["frameworks"][0]["reason_text"] = bad
    with pytest.raises(BadInput, match=re.escape(where)):
        Machine.from_dict(data)


def test_texts_nested_hundreds_deep_are_one_clear_error():
    data = json.loads(HDD.read_text(encoding="utf-8"))
    text: object = "x"
    for _ in range(300):
        text = {"template": "{a}", "params": [["a", text]]}
    data["power"]["notes_text"] = [text]
    with pytest.raises(BadInput, match="nested too deeply"):
        Machine.from_dict(data)


def test_a_hand_edited_text_falls_back_to_the_saved_text():
    fw = Machine.load(HDD).software.frameworks[0]
    for template in ("{gpu.__class__}", "{missing}", "{ broken", "{0}"):
        edited = dataclasses.replace(fw, reason_text=dataclasses.replace(fw.reason_text, template=template))
        assert reason_shown(edited, "zh_CN") == fw.reason, template
    deep = Text("{a}", (("a", Text("{b}", (("b", Text("{c}", (("c", Text("{d}", (("d", Text("{e}", (("e", Text(
        "{f}", (("f", "x"),))),))),))),))),))),))
    assert show_text(deep, "saved", "en") == "saved"  # deeper than any scan makes: the saved text


def test_tr_text_is_the_rendered_string_and_keeps_its_template():
    with use_language("zh_CN"):
        t = tr_text(CPU_ONLY, name="torch", variant="cpu", gpu="RTX 3060")
    assert isinstance(t, str) and t == zh(CPU_ONLY).format(name="torch", variant="cpu", gpu="RTX 3060")
    assert text_of(t) == Text(CPU_ONLY, (("name", "torch"), ("variant", "cpu"), ("gpu", "RTX 3060")))
    assert text_of(t + "!") is None and text_of("plain") is None  # str operations give plain text
    # a catalog string given as a value is kept in English, whatever language it was rendered in
    with use_language("zh_CN"):
        reason = tr_text("{mount}: disk type unknown because {reason}", mount="/",
                         reason=translate("the disk did not say whether it spins"))
    assert dict(text_of(reason).params)["reason"] == "the disk did not say whether it spins"


def test_extractor_reads_tr_text():
    from tools.i18n_tools import extract

    where = extract().messages
    assert any(p == "gpucheck/probe/software.py" for p, _ in where.get(CPU_ONLY, []))
    assert any(p == "gpucheck/bench/disk.py" for p, _ in where.get("Disk test skipped: the folder {path} does not exist.",
                                                                  []))


texts = st.recursive(st.text(max_size=8) | st.sampled_from(["unknown", "NVMe device", "power limit, PCIe link"]),
                     lambda inner: st.builds(Text, st.text(max_size=20) | st.sampled_from([CPU_ONLY, "{a} {b}"]),
                                             st.lists(st.tuples(st.sampled_from(["a", "b", "name", ""]), inner),
                                                      max_size=3).map(tuple)),
                     max_leaves=6)


@settings(max_examples=300, deadline=None)
@given(texts.filter(lambda t: isinstance(t, Text)), st.text(max_size=12), st.sampled_from(["en", "zh_CN"]))
def test_any_saved_text_shows_text_and_survives_json(text, saved, lang):
    out = show_text(text, saved, lang)
    assert isinstance(out, str)
    if not text.template:
        assert out == show_text(None, saved, lang)
    data = json.loads(Machine(disks=()).to_json())
    data["power"]["notes"] = [saved]
    data["power"]["notes_text"] = [json.loads(json.dumps(dataclasses.asdict(text)))]
    m = Machine.from_dict(data)
    assert m.power.notes_text == (text,)
    assert notes_shown(m.power, lang) == [out]
