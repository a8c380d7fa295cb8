"""A GPU whose power limit is below the power its rated speed needs — capped by someone (nvidia-smi -pl), or a laptop
at a lower TGP than its catalog entry's — is priced at the clock that limit leaves.

The scan reads NVML's enforced and default limits (gpucheck/probe/nvidia.py). Dynamic power grows about as the cube of
the clock along a GPU's voltage-frequency curve, so the clock falls as the cube root of the limit (factors.toml
[clocks] power_cap_exponent). Checked against two published power sweeps of RTX 3090 training: Puget Systems, 350 →
280 W keeps 'over 95% of maximum performance'; a ViT-B/16 TF32 sweep, 280 W keeps 90 % of its 480-W rate.
"""

from __future__ import annotations

import dataclasses

import pytest

from gpucheck.catalog import find_gpu, get_workload
from gpucheck.estimate import estimate
from gpucheck.estimate.target import Target
from gpucheck.machine import Machine
from tests.conftest import FIXTURES

MACHINES = FIXTURES / "machines"


def _with_limit(machine: Machine, watts: float) -> Machine:
    """The recorded machine as `sudo nvidia-smi -pl <watts>` leaves it: NVML's enforced limit changes, its default
    does not."""
    gpu = dataclasses.replace(machine.gpus[0], power_limit_w=float(watts))
    return dataclasses.replace(machine, gpus=(gpu,) + tuple(machine.gpus[1:]))


def test_a_lowered_limit_slows_the_estimate_and_says_so():
    recorded = Machine.load(MACHINES / "rtx4090-650w-desktop.json")
    assert recorded.gpus[0].power_limit_w == recorded.gpus[0].power_default_limit_w == 450
    job = get_workload("qwen2.5-1.5b-lora")
    stock = Target.from_machine(recorded)
    capped = Target.from_machine(_with_limit(recorded, 300))
    assert stock.power_budget_fraction == pytest.approx(1.0) and not any("power limit" in n for n in stock.notes)
    assert capped.power_budget_fraction == pytest.approx(300 / 450)
    assert any("300 W" in n and "450 W" in n for n in capped.notes)
    slower = estimate(job, capped).step_seconds / estimate(job, stock).step_seconds
    # the clock falls to (300/450)^(1/3) = 0.87; the memory-bound part and the host's do not slow with it
    assert 1.02 < slower < 1 / 0.87 + 0.01


@pytest.mark.parametrize("job", ["imagenet-resnet50", "bert-base-finetune"])
def test_an_rtx_3090_at_280_w_keeps_about_what_puget_measured(job):
    w = get_workload(job)
    stock = Target.from_gpu(find_gpu("rtx 3090"))
    capped = dataclasses.replace(stock, power_budget_fraction=280 / 350)
    kept = estimate(w, stock).step_seconds / estimate(w, capped).step_seconds
    # Puget Systems: 'over 95% of maximum performance' at 280 W; the ViT-B/16 TF32 sweep: 90 % at 280 W of its 480-W
    # rate (about 92 % of its 390-W stock rate)
    assert 0.92 < kept < 0.99


def test_a_laptop_limit_without_a_default_is_not_read_as_a_cap():
    laptop = Machine.load(MACHINES / "rtx4060-laptop-wsl2.json")
    g = laptop.gpus[0]
    assert g.power_limit_w and g.power_default_limit_w is None  # WSL reports 30 W and no default
    t = Target.from_machine(laptop)
    assert t.power_budget_fraction is None and not any("power limit" in n for n in t.notes)


def test_the_psu_advice_states_the_loss_the_estimate_then_prices():
    """The recorded RTX 4090 on a 650 W supply: the advice's cap and its stated clock loss are what the estimate
    prices once the user applies that cap."""
    import re

    from gpucheck.advise import advise

    recorded = Machine.load(MACHINES / "rtx4090-650w-desktop.json")
    advice = advise(recorded, get_workload("qwen2.5-1.5b-lora"), Target.from_machine(recorded))
    psu = next(b for b in advice.bottlenecks if b.id == "psu")
    cap = int(re.search(r"nvidia-smi -pl (\d+)", psu.fix).group(1))
    said = int(re.search(r"drops by about (\d+)%", psu.fix).group(1))
    capped = Target.from_machine(_with_limit(recorded, cap))
    kept = next(n for n in capped.notes if "power limit" in n)
    assert f"about {100 - said}% of the rated one" in kept  # 320 W of 450: the clock at 89 %, 11 % lost
    assert 5 <= said <= 20


def test_a_deep_scans_measured_peak_already_holds_the_limit():
    """A deep scan measures the tensor rate the card reaches as it is set, so a capped card's measured peak is not
    lowered a second time."""
    from gpucheck.machine import Measured

    recorded = _with_limit(Machine.load(MACHINES / "rtx4090-650w-desktop.json"), 300)
    g = recorded.gpus[0]
    scanned = dataclasses.replace(recorded, measured=Measured(gpu_name=g.name, gpu_tflops_bf16=120.0))
    t = Target.from_machine(scanned)
    assert t.power_budget_fraction is None and not any("power limit" in n for n in t.notes)


def test_a_laptop_at_its_own_tgp_is_priced_from_it_not_from_the_unknown_laptop_fallback():
    """The recorded GTX 1660 Ti laptop (native driver: limit and default 80 W) is matched to the desktop card's
    catalog entry (120 W): plugged in, it is priced at the clock 80 W leave, (80/120)^(1/3) = 0.87, not at the
    desktop's. It was scanned on battery, where the limit follows the battery: that reading is not used."""
    recorded = Machine.load(MACHINES / "gtx1660-laptop.json")
    g = recorded.gpus[0]
    assert g.power_limit_w == g.power_default_limit_w == 80 and recorded.power.on_battery
    assert Target.from_machine(recorded).power_budget_fraction is None
    laptop = dataclasses.replace(recorded, power=dataclasses.replace(recorded.power, on_battery=False))
    t = Target.from_machine(laptop)
    assert t.gpu.tdp_w == 120 and t.power_budget_fraction == pytest.approx(80 / 120)
    assert any("80 W" in n and "120 W" in n for n in t.notes)
    job = get_workload("mnist-cnn")
    desktop = Target.from_gpu(t.gpu)
    assert estimate(job, t).step_seconds > estimate(job, desktop).step_seconds


def test_a_laptop_at_its_top_tgp_runs_at_the_rated_clock_not_the_cautious_fallback():
    """A laptop GPU whose scan shows it at its catalog entry's TGP is priced at that entry's clock; only a laptop of
    unknown TGP keeps [clocks.fallback_fraction] laptop (0.8)."""
    from gpucheck.estimate.compute import clock_fraction
    from gpucheck.estimate.factors import load_factors

    f = load_factors()
    spec = find_gpu("rtx 4060 laptop")
    unknown = Target.from_gpu(spec)
    known = dataclasses.replace(unknown, power_budget_fraction=1.0)
    assert clock_fraction(unknown, f, False) == pytest.approx(f["clocks"]["fallback_fraction"]["laptop"])
    assert clock_fraction(known, f, False) == pytest.approx(1.0)
    low = dataclasses.replace(unknown, power_budget_fraction=80 / spec.tdp_w)
    assert clock_fraction(low, f, False) == pytest.approx((80 / spec.tdp_w) ** (1 / 3), rel=1e-3)


def test_a_desktop_board_whose_default_is_below_the_catalog_tdp_is_not_a_capped_one():
    """A desktop or server board whose driver default is below the catalog's TDP is another board design (an A100
    PCIe against the SXM entry, an OEM card): it is not priced as capped. The recorded RTX 3080 (320 W default, the
    catalog's TDP) with its default at 300 W, as such a board reports it."""
    recorded = Machine.load(MACHINES / "rtx3080-desktop.json")
    g = recorded.gpus[0]
    assert g.power_limit_w == g.power_default_limit_w == 320
    oem = dataclasses.replace(recorded, gpus=(dataclasses.replace(g, power_limit_w=300.0, power_default_limit_w=300.0),))
    t = Target.from_machine(oem)
    assert t.power_budget_fraction == pytest.approx(1.0) and not any("power limit" in n for n in t.notes)
