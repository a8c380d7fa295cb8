"""The wizard's machine page shows scan findings in the language picked now, even for a scan made in
another language, and switches them live with the rest of the page."""

from __future__ import annotations

import re

from gpucheck import i18n
from gpucheck.i18n import finding_text
from gpucheck.machine import Machine
from gpucheck.ui.machine_view import area_key
from tests.ui.conftest import machine_path

CJK = re.compile(r"[\u4e00-\u9fff]")


def _shown(wizard) -> str:
    page = wizard.machine_page
    return "\n".join([c.findings.text() for c in page.cards.values()] + [page.other.text()])


def test_findings_follow_a_live_language_switch(wizard):
    path = machine_path("cpu-only-vm")  # a real scan, made in English
    machine = Machine.load(path)
    assert wizard.open_machine_file(str(path))
    wizard.next()
    assert wizard.currentPage() is wizard.machine_page
    english = _shown(wizard)
    for f in machine.findings:
        assert f.message in english
    assert not CJK.search(english)

    wizard.switch_language("zh_CN")
    chinese = _shown(wizard)
    for f in machine.findings:
        text = finding_text(f, "zh_CN")
        assert CJK.search(text) and text in chinese, text
        assert f.message not in chinese
    # the GPU card carries the GPU findings; the VM finding (about the scan itself) sits under the cards
    gpu_card = wizard.machine_page.cards["gpu"].findings.text()
    assert i18n.translate("NVML library not found", "zh_CN") in gpu_card
    vm = next(f for f in machine.findings if f.code == "scan.virtual_machine")
    assert area_key(vm.area) == "scan" and finding_text(vm, "zh_CN") in wizard.machine_page.other.text()

    wizard.switch_language("en")
    assert _shown(wizard) == english
