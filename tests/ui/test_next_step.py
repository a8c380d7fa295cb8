"""The next step is obvious: the cards name the real limiter, greyed controls say why, the data set's size
can be changed, an imported model keeps its own name. On recorded machines (tests/fixtures/machines)."""

from __future__ import annotations

import json
import shutil

from gpucheck.cli import main as cli_main
from tests.conftest import FIXTURES
from tests.ui.conftest import machine_path


def _to_jobs(wizard, path):
    assert wizard.open_machine_file(str(path))
    wizard.next()
    wizard.next()


def test_old_macos_is_told_to_update_before_installing_pytorch(wizard):
    """The M1 MacBook Air runs macOS 11.2.3; PyTorch's MPS backend needs 12.3 (pytorch.org, MPS notes)."""
    assert wizard.open_machine_file(str(machine_path("m1")))
    wizard.next()
    card = wizard.machine_page.cards["software"]
    assert card.badge.key() == "limited"
    assert "update macOS to 12.3" in card.findings.text()
    wizard.next()
    wizard.jobs.select("mnist-cnn")
    wizard.next()
    fixes = wizard.details.advice.software
    assert fixes and fixes[0].id == "macos_too_old"  # never a bare `pip install torch` first


def test_software_card_says_pytorch_is_missing(wizard):
    assert wizard.open_machine_file(str(machine_path("rtx4060", "wsl2")))  # no PyTorch in this scan
    wizard.next()
    card = wizard.machine_page.cards["software"]
    assert card.badge.key() == "limited" and "Needs PyTorch" in card.findings.text()


def test_greyed_controls_say_why(wizard):
    _to_jobs(wizard, machine_path("gtx1660"))
    page = wizard.jobs
    page.select("cifar10-resnet18")  # an image model: no sequence length, no LoRA
    assert not page.seq_len.isEnabled() and "no sequence length" in page.seq_len.toolTip()
    assert not page.method.isEnabled() and "transformer" in page.method.toolTip()
    idx = page.precision.findData("bf16")
    assert "not on this GPU" in page.precision.itemText(idx)  # the GTX 1660 Ti has no BF16 units
    assert "BF16" in page.precision.toolTip()


def test_data_set_size_is_shown_and_changes_the_time(wizard, capsys):
    path = machine_path("rtx3060")
    _to_jobs(wizard, path)
    page, s = wizard.jobs, wizard.session
    page.select("bert-base-finetune")
    w = s.workload("bert-base-finetune")
    assert f"{w.data.epochs:g} epochs" in page.data_line.text()
    before = s.figures(w.id).shown_hours
    page.samples.setValue(w.data.samples * 2)
    after = s.figures(w.id).shown_hours
    assert after > before * 1.5  # twice the data: about twice the time
    capsys.readouterr()
    assert cli_main(["estimate", "bert-base-finetune", "--machine", str(path), "--samples",
                     str(w.data.samples * 2), "--json"]) == 0
    assert abs(json.loads(capsys.readouterr().out)["total_hours"] - s.figures(w.id).hours) < 0.001


def test_imported_config_is_named_from_its_model_and_toml_needs_no_level(wizard, tmp_path):
    _to_jobs(wizard, machine_path("rtx3060"))
    folder = tmp_path / "downloads-2024"
    folder.mkdir()
    shutil.copy(FIXTURES / "hf" / "qwen2.5-7b" / "config.json", folder / "config.json")
    assert wizard.jobs.import_file(str(folder / "config.json"))
    w = wizard.session.workload(wizard.session.selected_id)
    assert "Qwen2" in w.title and "downloads" not in w.title
    toml = (FIXTURES.parent.parent / "resources" / "workloads" / "mnist-cnn.toml").read_text(encoding="utf-8")
    toml = "\n".join(line for line in toml.splitlines() if not line.startswith("level"))
    toml = toml.replace('id = "mnist-cnn"', 'id = "my-digits"')
    (tmp_path / "my-digits.toml").write_text(toml, encoding="utf-8")
    assert wizard.jobs.import_file(str(tmp_path / "my-digits.toml"))
    assert wizard.session.selected_id == "my-digits"


def test_what_if_list_shows_memory_price_and_the_cheapest_card_that_runs_the_job(wizard):
    _to_jobs(wizard, machine_path("rtx3060"))
    wizard.jobs.select("llama3-8b-full")  # 147 GB as configured: the 12 GB card cannot run it
    wizard.next()
    d = wizard.details
    _est, adv = wizard.session.machine_evaluation("llama3-8b-full")
    gpu_ups = [u for u in adv.upgrades if u.kind == "gpu"]
    if gpu_ups:
        text = d.what_if.itemText(d.what_if.findData(gpu_ups[0].gpu_id))
        mark = "cheapest that runs this job" if gpu_ups[0].fit == "fits" else "may run this job (tight)"
        assert mark in text and " GiB" in text
    spec = next(g for g in wizard.session.gpu_catalog() if g.id == "rtx-4090")
    assert "24 GiB" in d.what_if.itemText(d.what_if.findData(spec.id))
    d.set_what_if(spec.id)
    assert "Your VRAM" not in d.chart.summary()  # it is not the user's card
    assert spec.name in d.chart.summary()
    assert d.compare_box.isVisible()
    d.set_what_if(None)
    assert not d.compare_box.isVisible() and d.what_if_count.value() == 1 and not d.what_if_count.isEnabled()
