"""GeForce GPUs in one box, checked against published NCCL measurements.

- GeForce cards have no PCIe peer-to-peer (RTX 2080 Ti: nccl-tests #117; RTX 3090 without a bridge: NVIDIA/nccl
  #1127; RTX 4090: tinygrad/open-gpu-kernel-modules README): NCCL stages every hop in host memory, so the traffic
  goes back to the CPU (S. Jeaugey in NVIDIA/nccl #1309) and all GPUs share the host's memory bandwidth: 8× RTX 5090
  without P2P on two Xeon 8480+ reach 28 GB/s all-reduce busbw, 'determined by the bandwidth your CPU and memory
  can deliver ... 8 flows at 28GB/s in both directions' (NVIDIA/nccl #1639).
- A scanned link narrower than x16 (an x8 slot, an x4 riser) carries its lanes' share.
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

from gpucheck import estimate as E
from gpucheck.catalog import find_gpu
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.links import pcie_gbps
from gpucheck.estimate.target import _slowest_link
from gpucheck.machine import Measured


def test_eight_5090s_without_p2p_are_near_the_published_bus_bandwidth():
    # published: 28 GB/s busbw on 8 GPUs (NVIDIA/nccl #1639); an unscanned box is priced by its PCIe path
    eight = E.Target.from_gpu(find_gpu("RTX 5090"), 8)
    assert 0.5 <= eight.link_gbps(load_factors()) / 28.0 <= 1.25
    # on a scanned host with that server's memory (448 GB/s read and written, 73 % of 614: a deep scan's copy on
    # every thread of 224 GB/s) the host is not the limit; on a dual-channel desktop's (30 GB/s, a copy of 15) the
    # eight GPUs share it: 30 / (2 × 8)
    server = dataclasses.replace(eight, measured=Measured(ram_copy_gbps=12.0, ram_copy_all_gbps=224.0))
    assert server.link_gbps(load_factors()) == eight.link_gbps(load_factors()) <= 28.0
    desktop = dataclasses.replace(eight, measured=Measured(ram_copy_gbps=12.0, ram_copy_all_gbps=15.0))
    assert abs(desktop.link_gbps(load_factors()) - 30.0 / 16) < 1e-9
    # a scan of before December 2026 measured one thread only: one core's rate says nothing of the memory's
    one_thread = dataclasses.replace(eight, measured=Measured(ram_copy_gbps=12.0))
    assert one_thread.link_gbps(load_factors()) == eight.link_gbps(load_factors())


def test_geforce_gpus_share_the_hosts_memory_and_p2p_cards_do_not():
    f = load_factors()
    ram = Measured(ram_copy_all_gbps=15.0)  # a dual-channel desktop as a deep scan measures it: 30 GB/s moved
    two, four = (dataclasses.replace(E.Target.from_gpu(find_gpu("RTX 3090"), n), measured=ram) for n in (2, 4))
    assert two.link_gbps(f) <= 30.0 / (2 * 2) + 1e-9  # each byte written to and read from host memory, per GPU
    assert four.link_gbps(f) < two.link_gbps(f)  # more GPUs, the same memory
    a6000 = dataclasses.replace(E.Target.from_gpu(find_gpu("RTX A6000"), 4), measured=ram)
    assert a6000.link_gbps(f) > two.link_gbps(f)  # peer-to-peer: the copies do not touch host memory


def test_a_scanned_riser_carries_its_lanes_share():
    f = load_factors()
    x16 = E.Target.from_gpu(find_gpu("RTX A6000"), 2)
    riser = dataclasses.replace(x16, pcie_link=(4, 4))
    assert abs(riser.link_gbps(f) - x16.link_gbps(f) / 4) < 1e-9
    assert abs(pcie_gbps(riser, f) - pcie_gbps(x16, f) / 4) < 1e-9  # CPU offload's host copies use the same link
    gpus = [SimpleNamespace(pcie_gen_max=4, pcie_gen_current=1, pcie_width_current=16, pcie_width_max=16),
            SimpleNamespace(pcie_gen_max=4, pcie_gen_current=4, pcie_width_current=4, pcie_width_max=16),
            SimpleNamespace(pcie_gen_max=3, pcie_gen_current=3, pcie_width_current=16, pcie_width_max=16)]
    assert _slowest_link(gpus) == (4, 4)  # gen 4 x4 (8 GB/s) is slower than gen 3 x16 (16 GB/s)
