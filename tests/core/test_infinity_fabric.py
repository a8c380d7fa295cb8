"""Several AMD Instinct OAM GPUs (MI250, MI250X, MI300X) are joined by Infinity Fabric, not PCIe.

The catalog gives them `interconnect = "infinity-fabric"` and its rate, and the link model reads it (Target.link_gbps),
but until December 2026 a catalog target set its `nvlink` flag only for NVLink, so eight MI300X talked over 40 GB/s
of PCIe: a published torchtune FSDP run of Llama 3.1 8B on 8 MI300X (AUGMXNT/MI300-testing) measured 0.45 s a step
where the estimate said 1.86 s, 1.36 s of it waiting for the gathers. The MI210 is a PCIe card whose Infinity Fabric
Link bridges are optional, so, as for the NVLink bridges of GeForce and workstation cards, several of them are priced
over PCIe.
"""

from __future__ import annotations

import pytest

from gpucheck.catalog import find_gpu, get_workload
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.target import Target
from gpucheck.evidence import load_evidence
from tests.core import accuracy as A

FSDP_ROW = "augmxnt-torchtune-llama31-8b-full-fsdp-bf16-b2-8xmi300x"


@pytest.mark.parametrize("gpu", ["mi300x", "mi250", "mi250x"])
def test_instinct_oam_gpus_are_linked_by_their_fabric(gpu):
    f = load_factors()
    spec = find_gpu(gpu)
    t = Target.from_gpu(spec, gpus=8)
    assert t.nvlink is True
    assert t.link_gbps(f) == pytest.approx(spec.nvlink_gbps / 2 * f["multi_gpu"]["nvlink_efficiency"])
    assert t.link_gbps(f) > 4 * Target.from_gpu(find_gpu("mi210"), gpus=8).link_gbps(f)


def test_mi210_cards_without_bridges_talk_over_pcie():
    t = Target.from_gpu(find_gpu("mi210"), gpus=4)
    assert t.nvlink is False and t.link_gbps(load_factors()) < 100


def test_the_published_fsdp_run_on_eight_mi300x_is_priced_with_its_fabric():
    row = next(r for r in load_evidence() if r.id == FSDP_ROW)
    assert row.train.shard and row.gpus == 8
    ratio = A.speed_ratio(row, A.run(row))  # estimated speed / measured speed
    assert 0.6 < ratio < 1.6  # was 0.24 with the gathers over PCIe


def test_the_advice_names_the_fabric_the_gpus_share(capsys):
    from gpucheck.cli import main

    assert main(["estimate", "llama3-8b-full", "--gpu", "mi300x", "--gpus", "8", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "linked by AMD Infinity Fabric" in out and "PCIe (no NVLink)" not in out
    assert main(["estimate", "llama3-8b-full", "--gpu", "mi210", "--gpus", "4", "--lang", "en"]) == 0
    assert "talk over PCIe" in capsys.readouterr().out
    assert get_workload("llama3-8b-full").train.method == "full"


def test_a_scanned_nvlink_bridge_joins_a_pair_of_pcie_cards_only():
    """A bridge the scan sees (NVML's active NVLink links) between two RTX 3090s carries their traffic at the bridge's
    rate; with four cards the bridges join pairs and the ring crosses PCIe through host memory (GeForce: no P2P)."""
    import dataclasses

    f = load_factors()
    spec = find_gpu("rtx 3090")
    pair = Target.from_gpu(spec, gpus=2)
    assert pair.nvlink is False and not pair.fabric_linked  # the catalog does not assume the optional bridge
    bridged = dataclasses.replace(pair, nvlink=True)  # what Target.from_machine sets when NVML reports active links
    assert bridged.fabric_linked
    assert bridged.link_gbps(f) == pytest.approx(spec.nvlink_gbps / 2 * f["multi_gpu"]["nvlink_efficiency"])
    assert bridged.link_gbps(f) > 3 * pair.link_gbps(f)
    four = dataclasses.replace(Target.from_gpu(spec, gpus=4), nvlink=True)
    assert not four.fabric_linked and four.link_gbps(f) == pytest.approx(Target.from_gpu(spec, gpus=4).link_gbps(f))
