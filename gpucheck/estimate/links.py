"""What leaves a GPU besides its own memory traffic: collectives with the other GPUs — inside the machine over
NVLink or PCIe, between machines over each GPU's share of the network, each priced where it is used — and CPU
offload's copies to and from host memory with the CPU's optimizer step. Every rate is in resources/factors.toml
([multi_gpu], [cpu_offload]) with its source."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Traffic:
    """What leaves one GPU for its step, besides its own memory: the collectives with the other GPUs and, with
    CPU offload, the copies to and from host memory and the CPU's optimizer step."""

    comm_bytes: float = 0.0  # per GPU per optimizer step over the GPU-to-GPU link (ring volume × (n−1)/n)
    sharded: bool = False  # FSDP / ZeRO-3: gathers prefetched and reduce-scatters overlapped through fwd + bwd
    forward_gather_bytes: float = 0.0  # per micro-batch, sharded: the forward pass's all-gathers (part of comm_bytes)
    offload_out_bytes: float = 0.0  # per micro-batch, GPU → CPU (fp32 gradients, overlapped with backward)
    offload_in_bytes: float = 0.0  # per optimizer step, CPU → GPU (updated 16-bit parameters, before forward)
    offload_stream_bytes: float = 0.0  # per micro-batch, CPU → GPU parameter shards (FSDP offload_params), prefetched
    host_update_bytes: float = 0.0  # per optimizer step, host-memory bytes of the CPU optimizer on this machine
    gpus_on_node: int = 1  # GPUs whose copies share this machine's host memory
    reduce_bytes: float = 0.0  # per GPU, one gradient exchange (all-reduce; reduce-scatter when sharded)
    reduce_every_micro_step: bool = False  # that exchange runs in every micro-batch, not only in the step's last
    gather_bytes: float = 0.0  # per micro-batch, sharded: every pass's all-gathers (forward_gather_bytes among them)
    after_step_bytes: float = 0.0  # per optimizer step, DeepSpeed ZeRO-1/2: the updated partitions all-gathered
    deepspeed_zero12: bool = False  # timed as DeepSpeed's ZeRO-1/2 optimizer runs (gpucheck/estimate/zero_comm.py)
    overlap_comm: bool = False  # DeepSpeed ZeRO-1/2's overlap_comm: the buckets reduce on a side stream
    bucket_fraction: float = 1.0  # DeepSpeed ZeRO-1/2: one gradient bucket's share of the trainable parameters


# a catalog interconnect that joins a machine's GPUs by their own fabric, not PCIe: NVLink (NVIDIA SXM / HGX
# baseboards) and Infinity Fabric (AMD Instinct OAM baseboards); optional bridges of PCIe cards are catalogued as pcie
FABRIC_LINKS = ("nvlink", "infinity-fabric")


def nodes_of(target: Any, f: Mapping[str, Any]) -> tuple[int, int]:
    """(GPUs per machine, machines) for `target.gpus` GPUs: in the machines the target names, else in as few as
    hold them (`gpus_per_node` GPUs at most each)."""
    n = max(1, int(target.gpus))
    machines = getattr(target, "machines", None)
    if machines:
        k = max(1, min(n, int(machines)))
        return -(-n // k), k
    per = int(f["multi_gpu"]["links"]["gpus_per_node"])
    g = min(n, per)
    return g, -(-n // g)


def network_gbps(target: Any, f: Mapping[str, Any]) -> float:
    """Achievable GB/s per GPU over the network between machines: the GPU's own NIC on NVLink-baseboard
    servers (by generation), else its share of the machine's one NIC (by segment), × NCCL's efficiency. A target
    that names its machines' network (`network_gbit_per_node`, all NICs together) gets its share of that."""
    net = f["multi_gpu"]["network"]
    spec = target.gpu
    g, _ = nodes_of(target, f)
    given = getattr(target, "network_gbit_per_node", None)
    if given:
        gbit = float(given) / g
    elif spec is not None and spec.segment == "datacenter" and spec.interconnect in FABRIC_LINKS:
        per = net["per_gpu_gbit"]
        gbit = float(per.get(spec.compute_capability or "", per["default"]))
    else:
        seg = spec.segment if spec is not None else "consumer"
        gbit = float(net["node_gbit"][seg]) / g
    return gbit / 8.0 * float(net["efficiency"])


def link_seconds(comm_bytes: float, target: Any, f: Mapping[str, Any]) -> float:
    """The time a collective takes whose ring sends `comm_bytes` per GPU (volume V × (n−1)/n). NCCL runs it as
    rings (all-gather and reduce-scatter only as rings; all-reduce as rings or trees) whose every hop carries the
    same bytes, so its bus bandwidth is that of the slowest link on the ring (nccl-tests doc/PERFORMANCE.md: bus
    bandwidth). Inside one machine that is the in-box link. Across machines each ring also crosses the network,
    one NIC per ring and as many rings as the machine has NICs: the bus bandwidth is then bounded by the
    machine's network, all its NICs together (g GPUs × each GPU's share), whatever the number of machines."""
    if comm_bytes <= 0:
        return 0.0
    g, k = nodes_of(target, f)
    box_gbps = target.link_gbps(f)
    if k > 1:
        box_gbps = min(box_gbps, g * network_gbps(target, f)) if g > 1 else network_gbps(target, f)
    return comm_bytes / (box_gbps * 1e9)


def pcie_gbps(target: Any, f: Mapping[str, Any]) -> float:
    """GB/s one GPU's PCIe link moves (pinned host copies, peer-to-peer): the scanned slowest link's generation and
    lanes (Target.pcie_link: an x8 slot or x4 riser carries its lanes' share of the x16 table), else the catalog's
    generation at x16."""
    mg = f["multi_gpu"]
    spec = target.gpu
    scan_gen, lanes = getattr(target, "pcie_link", None) or (None, None)
    gen = str(scan_gen or (spec.pcie_gen if spec is not None and spec.pcie_gen else mg["unknown_pcie_gen"]))
    table = mg["pcie_gbps"]
    gbps = float(table[gen if gen in table else str(mg["unknown_pcie_gen"])])
    return gbps * min(1.0, lanes / 16.0) if lanes else gbps


def _copy_traffic_gbps(target: Any, field: str) -> float | None:
    """A deep scan's RAM copy as bytes read and written per second: twice the bytes copied; None without it."""
    m = target.measured
    copied = getattr(m, field, None) if m is not None else None
    return 2.0 * float(copied) if copied else None


def measured_memory_gbps(target: Any) -> float | None:
    """What this PC's memory gave a deep scan's copy on every thread at once; None without one. A one-thread copy (all
    a scan measured before December 2026) is one core's rate, not the memory's (gpucheck/bench/ram.py): it prices one
    core only (Target.streaming_gbps)."""
    return _copy_traffic_gbps(target, "ram_copy_all_gbps")


def measured_core_gbps(target: Any) -> float | None:
    """What one core reached in a deep scan's one-thread copy; None without one."""
    return _copy_traffic_gbps(target, "ram_copy_gbps")


def host_memory_gbps(target: Any, f: Mapping[str, Any]) -> float:
    """Achievable GB/s of the host's RAM (the CPU optimizer of ZeRO-Offload streams through it): measured by a
    deep scan, else the typical host of this kind of GPU."""
    measured = measured_memory_gbps(target)
    if measured is not None:
        return measured
    co = f["cpu_offload"]
    seg = target.gpu.segment if target.gpu is not None else "consumer"
    return float(co["host_mem_bandwidth_gbps"][seg]) * float(co["host_efficiency"])


def host_staged_gbps(target: Any, f: Mapping[str, Any], link_gbps: float) -> float:
    """All-reduce bus bandwidth per GPU when the GPUs cannot reach each other's memory (no peer-to-peer): NCCL
    stages every hop of the ring in host memory, which writes and then reads each byte, for all the box's GPUs at
    once; the slower of each GPU's own path (`link_gbps`) and its share of the host's memory, where a deep scan
    measured that memory (this PC's own box). Without a measurement the box is unknown (a desktop holds two cards,
    an 8-GPU server twelve memory channels: NVIDIA/nccl #1639 measured 28 GB/s per GPU on such a server, above
    the PCIe path's share), so the PCIe path alone sets the rate, as it does for any number of GPUs."""
    g, _ = nodes_of(target, f)
    host = measured_memory_gbps(target)
    if g < 2 or host is None:
        return link_gbps
    copies = float(f["multi_gpu"]["links"]["host_copies_per_byte"])
    return min(link_gbps, host / (copies * g))


def offload_seconds(tr: Traffic, target: Any, f: Mapping[str, Any], grad_accum: int) -> tuple[float, float]:
    """(seconds per micro-batch that can hide behind the GPU's work, seconds that cannot) of CPU offload: gradients
    out and prefetched parameter shards in overlap compute; the CPU's optimizer step and the updated parameters'
    copy back come between two steps (ZeRO-Offload without its delayed parameter update), once per optimizer step."""
    if not (tr.offload_out_bytes or tr.offload_in_bytes or tr.offload_stream_bytes or tr.host_update_bytes):
        return 0.0, 0.0
    pcie = pcie_gbps(target, f) * 1e9
    host = host_memory_gbps(target, f) * 1e9

    def copy_s(per_gpu: float) -> float:  # each GPU over its own PCIe link; all of the machine's GPUs through its RAM
        return max(per_gpu / pcie, per_gpu * tr.gpus_on_node / host)

    hidden = copy_s(tr.offload_out_bytes + tr.offload_stream_bytes)
    serial = copy_s(tr.offload_in_bytes) + tr.host_update_bytes / host
    return hidden, serial / max(1, grad_accum)
