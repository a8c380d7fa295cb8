"""Two things a user reads on "Your machine": the power advice for a server, and whether the GPU card is
"Good" or "Limited" — judged by what the GPU can train, on the recorded machines."""

from __future__ import annotations

import dataclasses

import pytest

from gpucheck.advise import advise
from gpucheck.advise.data import factor
from gpucheck.advise.readiness import gpu_readiness
from gpucheck.catalog import get_workload
from gpucheck.estimate import Target, estimate
from gpucheck.machine import Machine, Power
from gpucheck.probe import power as power_mod
from gpucheck.ui.machine_view import part_view
from tests.conftest import FIXTURES
from tests.core.test_advise import advice_for

MACHINES = FIXTURES / "machines"


def load(name: str) -> Machine:
    return Machine.load(MACHINES / f"{name}.json")


# -- power of a server -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["h100x8-server", "a100-mig-server"])
def test_a_server_is_not_told_to_buy_a_power_supply(name):
    m = load(name)
    assert m.power.is_server is True and m.power.recommended_psu_w is None
    assert m.power.estimated_peak_system_w is not None  # the draw is still estimated
    texts = [f.message for f in m.findings if f.area == "power"]
    assert any("server" in t and "redundant" in t for t in texts), texts
    assert not any("should have at least" in t for t in texts)
    view = part_view(m, "power")
    assert view.summary.startswith("Server")
    assert not any("Recommended power supply" in d for d in view.details)


def test_power_estimate_treats_datacenter_gpus_as_a_server_even_with_one_socket():
    """The recorded 8× H100 SXM: one CPU socket and an unknown chassis still means a vendor-built server."""
    m = load("h100x8-server")
    one_socket = dataclasses.replace(m.cpu, sockets=1)
    p, findings = power_mod.estimate(Power(is_laptop=False), m.gpus, one_socket, server=False)
    assert p.recommended_psu_w is None and p.is_server is True
    assert p.estimated_peak_system_w > 5600  # eight 700 W boards
    assert [f.code for f in findings] == ["power.server"]


def test_a_desktop_still_gets_its_power_supply_size():
    m = load("rtx4090-650w-desktop")
    p, findings = power_mod.estimate(Power(is_laptop=False), m.gpus, m.cpu, server=False)
    assert p.recommended_psu_w == 850 and not p.is_server
    assert [f.code for f in findings] == ["power.psu_estimate"]


def test_server_advice_has_no_psu_bottleneck_or_upgrade():
    """Even with a stated PSU rating below the estimated draw, a server's supplies are the vendor's."""
    m = load("h100x8-server")
    m = dataclasses.replace(m, power=dataclasses.replace(m.power, psu_rated_w=3000))
    w = get_workload("llama3-8b-full")
    t = Target.from_machine(m)
    a = advise(m, w, t, estimate(w, t))
    assert not [b for b in a.bottlenecks if b.id == "psu"]
    assert not [u for u in a.upgrades if u.kind == "psu"]


# -- GPU card status from what the GPU can train -------------------------------------------------------


def test_a_6gb_gtx_1660_ti_is_limited_and_says_why():
    m = load("gtx1660-laptop")
    r = gpu_readiness(m)
    assert r is not None and r.status == "limited"
    assert r.runs / r.total < float(factor("readiness", "good_min_share"))
    # a GTX 16xx trains in FP32 (FP16 gives NaN: pytorch/pytorch#58123). SD 1.5 LoRA in FP32 is then only
    # "tight: may fit" on 6 GB — its activations widen by the diffusion family's memory band
    # (resources/factors.toml [memory_band.default]) — and a card is said to train only what surely fits; without
    # it, Qwen2.5-1.5B LoRA (frozen weights alone 6 GB in FP32) is the easiest job this card cannot train
    first = r.first_not_running
    assert first is not None and first.id in ("sd15-lora", "qwen2.5-1.5b-lora")
    if first.id == "sd15-lora":
        t = Target.from_machine(m)
        assert advise(m, first, t, estimate(first, t)).verdict == "tight"
    v = part_view(m, "gpu")
    assert v.status == "limited"
    assert f"{r.runs} of the {r.total}" in v.findings[0]


# (an M2 Max no longer counts QLoRA jobs as "runs with tweaks": bitsandbytes does not train on Metal, and
# 16-bit LoRA is another method — an alternative, issue 13 §1)
@pytest.mark.parametrize("name", ["rtx4090-650w-desktop", "rx7900xt-desktop", "h100x8-server"])
def test_gpus_that_train_most_of_the_ladder_are_good(name):
    m = load(name)
    r = gpu_readiness(m)
    assert r is not None and r.status == "good"
    warned = any(f.severity in ("warning", "error") for f in m.findings if f.area == "gpu")
    assert part_view(m, "gpu").status == ("limited" if warned else "good")  # a scan warning still shows


@pytest.mark.parametrize("name", ["rtx4060-laptop-wsl2", "m1-macbookair", "gtx1660-laptop"])
def test_small_gpus_are_limited(name):
    assert gpu_readiness(load(name)).status == "limited"


def test_an_8gb_desktop_card_trains_the_8b_qlora_jobs_with_unsloth():
    # the RTX 2060 SUPER (8 GB, 16 GiB of RAM): Unsloth runs Llama 3 8B and Qwen2.5 7B QLoRA there (its table: 2,972
    # tokens of Llama 3.1 8B in 8 GB), and Gemma 3 4B QLoRA with the fused loss: 13 of the 18 jobs, one short of the
    # share the card's status counts as good (advice.toml [readiness] 0.75). GPT-2's pre-training on 10B tokens was
    # the 14th until the transformer GEMM efficiency was refitted 0.75 -> 0.68 (2026-12-05): 6.8 days, now 7.2, past
    # the week a job may take (factors.toml too_slow_days)
    m = load("rtx2060super-windows")
    r = gpu_readiness(m)
    assert r.status == "limited" and r.runs == 13
    _w, _e, gpt2 = advice_for("rtx2060super-windows", "gpt2-124m-pretrain")
    assert gpt2.verdict == "too_slow" and gpt2.expected_hours > 24 * 7
    _w, _e, a = advice_for("rtx2060super-windows", "llama3-8b-qlora")
    assert [t.id for t in a.tweaks] == ["unsloth"]


def test_no_gpu_stays_missing():
    m = load("office-pc-cpu-only")
    assert gpu_readiness(m) is None and part_view(m, "gpu").status == "missing"


def test_server_scan_summary_and_report_do_not_size_a_psu(tmp_path, capsys):
    from gpucheck.cli import main
    from gpucheck.machine_text import format_machine

    m = load("h100x8-server")
    text = format_machine(m)
    assert "sized by its vendor" in text and "recommended PSU" not in text
    out = tmp_path / "r.html"
    assert main(["report", str(out), "--machine", str(MACHINES / "h100x8-server.json")]) == 0
    html = out.read_text(encoding="utf-8")
    assert "sized by the server&#x27;s vendor" in html or "sized by the server's vendor" in html
    assert "W recommended" not in html
    capsys.readouterr()


def test_a_virtual_machine_s_power_card_does_not_call_it_a_desktop():
    """Recorded on a cloud VM with an NVIDIA H200 (tests/fixtures/recorded/h200/scan.json, Firecracker) and the CPU-only
    VM: the scan knows it runs in a virtual machine, so the power card says so, with the host's supply unreadable."""
    h200 = Machine.load(str(FIXTURES / "recorded" / "h200" / "scan.json"))
    for m in (h200, load("cpu-only-vm")):
        v = part_view(m, "power")
        assert v.summary.startswith("Virtual machine") and "Desktop" not in v.summary
        assert "power supply not readable" in v.summary and v.status == "unknown"
    assert part_view(load("rtx3060-12gb-hdd-desktop"), "power").summary.startswith("Desktop")
