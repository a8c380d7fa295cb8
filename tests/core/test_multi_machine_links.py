"""GPUs in several machines, and LoRA under FSDP, checked against published measurements.

- NCCL's collectives across machines run as rings whose every hop carries the same bytes: the bus bandwidth is that
  of the slowest link, across machines each machine's network with all its NICs together (nccl-tests
  doc/PERFORMANCE.md). Published: 192 GB/s all-reduce bus bandwidth between DGX A100s with 8 × 200 Gb/s HDR
  (NVIDIA/nccl issue #1576, quoting AddyLaddy in #812); 91 GB/s between two HGX A100s with four 200 Gb/s
  ConnectX-6 (NVIDIA/nccl-tests issue #100).
- litgpt's LoRA on two A100s (FSDP, use_orig_params=True, activation checkpointing, a host sync in every layer)
  takes 2.3–2.6× the single-GPU iteration (litgpt tutorials/resource-tables.md @0cc02afa).
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from gpucheck import estimate as E
from gpucheck.catalog import find_gpu, load_workloads
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.links import link_seconds, nodes_of
from gpucheck.estimate.settings import BadSetting
from tests.core import accuracy as A
from tests.helpers import evidence_rows


def _bus_gbps(target: E.Target) -> float:
    """The bus bandwidth the estimator gives a large collective (bytes each GPU sends over seconds)."""
    sent = 1e10
    return sent / link_seconds(sent, target, load_factors()) / 1e9


@pytest.mark.parametrize("gbit_per_node,measured_gbps,where", [
    (None, 192.0, "DGX A100, 8 × 200 Gb/s HDR: 'we measure 192GB/s AllReduce BusBW' (NVIDIA/nccl #1576, #812)"),
    (800, 91.0, "two HGX A100 with four 200 Gbps ConnectX-6: 'can reach 91GB/s in busbw' (NVIDIA/nccl-tests #100)"),
])
def test_bus_bandwidth_between_two_a100_servers_is_their_network(gbit_per_node, measured_gbps, where):
    two = E.Target.from_gpu(find_gpu("A100 80GB"), 16, machines=2, network_gbit_per_node=gbit_per_node)
    assert 0.75 <= _bus_gbps(two) / measured_gbps <= 1.25, where


def test_four_gpus_in_two_machines_cross_the_network():
    # Qwen's '2 machines × 2 GPUs' is not one 4-GPU box: its collectives cross the servers' network
    spec = find_gpu("A100 80GB")
    box = E.Target.from_gpu(spec, 4)
    two = E.Target.from_gpu(spec, 4, machines=2)
    f = load_factors()
    assert nodes_of(box, f) == (4, 1) and nodes_of(two, f) == (2, 2) and two.nodes == 2
    assert _bus_gbps(two) < _bus_gbps(box)
    with pytest.raises(BadSetting):
        E.Target.from_gpu(spec, 4, machines=5)


PAIRS = [  # (one GPU, two GPUs under FSDP): the same micro-batch and padded length
    ("litgpt-llama2-7b-lora-mb2", "litgpt-llama2-7b-lora-mb2-2xa100"),
    ("litgpt-stablelm3b-lora-mb2", "litgpt-stablelm3b-lora-mb2-2xa100"),
    ("litgpt-stablelm3b-lora-mb4", "litgpt-stablelm3b-lora-mb4-2xa100"),
    ("litgpt-phi-15-lora-mb2", "litgpt-phi-15-lora-mb2-2xa100"),
]


@pytest.mark.parametrize("one_id,two_id", PAIRS)
def test_lora_under_fsdp_costs_what_litgpt_measured_over_one_gpu(one_id, two_id):
    # FSDP with use_orig_params=True computes the frozen weights' gradients too, gathers each layer's weights in a
    # forward that cannot run ahead of the GPU, and checkpointing repeats that forward, and its wait, in backward
    rows = evidence_rows((one_id, two_id))
    one, two = rows[one_id], rows[two_id]
    measured = (two.train.batch * two.gpus / A.measured_samples_per_s(two)) / (
        one.train.batch / A.measured_samples_per_s(one))
    estimated = A.run(two).step_seconds / A.run(one).step_seconds
    assert 2.2 <= measured <= 2.7  # the table as read: seconds per micro-batch, FSDP over one GPU
    assert measured / 1.5 <= estimated <= measured * 1.5


def test_the_command_line_places_the_gpus_in_machines(capsys):
    from gpucheck.cli import main

    def hours(*extra: str) -> float:
        assert main(["estimate", "llama3-8b-full", "--gpu", "a100 80gb", "--gpus", "4", "--json", *extra]) == 0
        return json.loads(capsys.readouterr().out)["total_hours"]

    # four GPUs in four machines share a network, not NVLink: slower than in one box
    assert hours("--machines", "4") > hours()
    assert main(["estimate", "llama3-8b-full", "--gpu", "a100 80gb", "--gpus", "4", "--machines", "5"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("gpucheck: --machines:") and "\n" not in err


def test_the_target_line_names_the_machines(capsys):
    from gpucheck.cli import main

    assert main(["check", "llama3-8b-full", "--gpu", "a100 80gb", "--gpus", "4", "--machines", "2"]) == 0
    assert "4× NVIDIA A100-SXM4-80GB in 2 machines" in capsys.readouterr().out


def test_offloaded_optimizer_runs_on_each_machines_own_cpu():
    # ZeRO-Offload: each rank's CPU Adam updates that rank's partition in its own machine's memory (Ren et al. 2021,
    # 'ZeRO-Offload', §4: the optimizer state of each data-parallel partition lives on the host of its GPU). Eight
    # A100s in two machines: each host updates four partitions, not eight, so the offloaded part of the step shrinks
    # (the copies over each GPU's PCIe link stay the same), and the machines the user names are the ones counted
    w = next(x for x in load_workloads() if x.id == "llama3-8b-full")
    spec = find_gpu("A100 80GB")
    train = dataclasses.replace(w.train, cpu_offload=True, zero_stage=3)
    one = E.estimate(w, E.Target.from_gpu(spec, 8), train)
    two = E.estimate(w, E.Target.from_gpu(spec, 8, machines=2), train)
    four = E.estimate(w, E.Target.from_gpu(spec, 8, machines=4), train)
    assert two.offload_seconds < 0.75 * one.offload_seconds
    assert four.offload_seconds < two.offload_seconds
