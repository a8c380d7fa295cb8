"""The wizard's machine page shows a scan's reasons and notes (why PyTorch cannot use the GPU, how a disk's
type was found, the power supply estimate) in the language picked now, for a scan made in English, and
switches them live with the rest of the page."""

from __future__ import annotations

import re

from gpucheck.machine import Machine, kind_reason_shown, notes_shown, reason_shown
from tests.ui.conftest import machine_path

CJK = re.compile(r"[\u4e00-\u9fff]")


def _details(wizard, area: str) -> str:
    return wizard.machine_page.cards[area].details.text()


def test_reasons_and_notes_follow_a_live_language_switch(wizard):
    path = machine_path("rtx3060", "hdd")  # RTX 3060 desktop, CPU-only PyTorch, two spinning disks
    machine = Machine.load(path)
    torch = machine.software.frameworks[0]
    assert wizard.open_machine_file(str(path))
    wizard.next()
    assert wizard.currentPage() is wizard.machine_page
    english = {area: _details(wizard, area) for area in ("software", "disk", "power")}
    assert torch.reason in english["software"]
    assert machine.disks[0].kind_reason in english["disk"]
    assert machine.power.notes[0] in english["power"]

    wizard.switch_language("zh_CN")
    software, disk, power = (_details(wizard, area) for area in ("software", "disk", "power"))
    assert reason_shown(torch, "zh_CN") in software and torch.reason not in software
    assert CJK.search(reason_shown(torch, "zh_CN"))
    assert kind_reason_shown(machine.disks[0], "zh_CN") in disk and machine.disks[0].kind_reason not in disk
    for zh_note, en_note in zip(notes_shown(machine.power, "zh_CN"), machine.power.notes, strict=True):
        assert zh_note in power and en_note not in power

    wizard.switch_language("en")
    assert {area: _details(wizard, area) for area in ("software", "disk", "power")} == english
