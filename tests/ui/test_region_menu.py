"""The app's region control (issue 18): in the language menu, separate from the language. Switching it
re-makes the advice: a GTX 1660 Ti laptop (recorded) that cannot fit Llama 3 8B QLoRA is sent to domestic
clouds first for mainland China, to global ones elsewhere — whatever the language."""

from __future__ import annotations

from gpucheck.region import get_region, set_region
from tests.ui.conftest import machine_path

JOB = "llama3-8b-qlora"


def test_region_menu_switches_the_advice_and_keeps_the_language(wizard):
    try:
        assert set(wizard.region_actions) == {"cn", "global"}
        wizard.switch_region("cn")
        assert get_region() == "cn" and wizard.region_actions["cn"].isChecked()
        assert wizard.lang_actions["en"].isChecked()  # the language did not change
        assert wizard.open_machine_file(str(machine_path("1660")))
        wizard.next()
        wizard.next()
        wizard.jobs.select(JOB)
        wizard.next()
        d = wizard.details
        first = d.cloud.item(0, 0).text()
        assert any(name in first for name in ("AutoDL", "Alibaba", "Tencent", "ModelScope", "AI Studio", "PAI")), first
        wizard.switch_region("global")
        assert wizard.region_actions["global"].isChecked()
        wizard.switch_language("zh_CN")
        wizard.details.refresh()
        texts = [d.cloud.item(r, 0).text() for r in range(d.cloud.rowCount())]
        assert "AutoDL" not in texts[0] and "魔搭" not in texts[0], texts
        assert wizard.region_actions["global"].text().startswith("地区")
    finally:
        set_region(None)
