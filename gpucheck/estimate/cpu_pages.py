"""Page faults of a CPU step: the tensors the C allocator maps afresh every step.

On Linux, PyTorch's CPU allocator takes its memory from glibc's malloc (c10/core/impl/alloc_cpu.cpp:
posix_memalign), which serves a request at or above its mmap threshold with a fresh anonymous mapping and unmaps it
when it is freed; the threshold adapts upward as such blocks are freed, but never above DEFAULT_MMAP_THRESHOLD_MAX,
4 × 1024 × 1024 × sizeof(long) = 32 MiB on 64-bit systems (glibc malloc/malloc.c; mallopt(3), M_MMAP_THRESHOLD).
So every tensor larger than 32 MiB that a step allocates comes back as new pages, and the kernel zero-fills and
maps each 4 KiB page at its first touch: a minor page fault, in the step's CPU time. Traced on the Intel Xeon
(strace of mmap calls, steps 4-6 of the trial runner, one thread): gpt2-124m-pretrain (batch 1 × 256 tokens) maps
seven such blocks a step, 592 MB — the four fp32 logit tensors of its loss (256 × 50,304 × 4 B = 51.5 MB each), the
bf16 cast of its tied 50,304 × 768 embedding (77.3 MB) and two fp32 gradients of that size (154.5 MB) —, and
bert-base-finetune one, its word embedding's fp32 gradient (93.8 MB); the conv-net jobs none.

Counted here, for a transformer with a vocabulary: the loss's vocabulary-wide tensors (gpucheck/estimate/logits.py:
the model's output and its gradient; where the loss upcasts, its four fp32 copies — the upcast, log-softmax's
output, nll_loss's zero-filled gradient and log-softmax's gradient), and, where the embeddings are trained, the
embedding's gradient and the output layer's weight gradient (under autocast: the weight's 16-bit cast, its 16-bit
gradient and that gradient's fp32 conversion) — each only if larger than the threshold. For a conv net, the tensors
its step allocates whose size grows with the batch (feature maps and their gradients, counted from the allocator's
own records by benchmarks/count_cpu_step_tensors.py: ModelSpec.step_tensor_elements / step_tensor_counts): none
is above the threshold at the trial's batch of 8 for ResNet-50, 30 of 103 MB and 35 of 51 MB at batch 64, which
faulted 1.24 M pages a step on the AMD EPYC Zen 4 (the count gives 1.21 M). Smaller blocks come from the
heap, which glibc trims and grows again by its own thresholds: those faults depend on the order of the frees (from 0
to ~90,000 a step for the same ResNet job in different processes, docs/accuracy.md) and are not priced. Other C
libraries and systems (Windows' heap, macOS's malloc zones) manage large blocks differently: priced on Linux only
(and WSL, which runs glibc). The cost of a fault is factors.toml [cpu.page_faults].
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.estimate.cpu_core import element_bytes
from gpucheck.estimate.dispatch import at_host_clock
from gpucheck.estimate.factors import image_scale
from gpucheck.estimate.logits import dtype_bytes, loss_kind
from gpucheck.estimate.seq2seq import target_tokens
from gpucheck.records import PURE_16BIT, ModelSpec, TrainSpec


def step_tensor_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> list[float]:
    """Bytes of each batch-sized tensor one micro-batch allocates (see the module's docstring)."""
    if m.step_tensor_elements:  # a conv net's feature maps and their gradients, as counted
        per = float(t.batch) * image_scale(m, t) * element_bytes(t.precision)
        return [e * per for e, n in zip(m.step_tensor_elements, m.step_tensor_counts, strict=True)
                for _ in range(int(n))]
    if m.arch != "transformer" or not m.vocab or not m.hidden:
        return []
    logits = float(t.batch) * target_tokens(m, t) * m.vocab
    logit_b, loss_b = dtype_bytes(t, f)
    kind = loss_kind(t, f)
    sizes = [logits * logit_b] * 2 if kind in ("full", "full_fp32_output", "fused") else []
    if kind in ("full", "full_fp32_output") and f["logits"][kind]["upcast"]:
        sizes += [logits * loss_b] * 4
    if t.method == "full":
        weights = float(m.vocab) * m.hidden
        master = 2.0 if t.precision in PURE_16BIT else 4.0
        sizes.append(weights * master)  # the embedding's dense gradient
        if t.precision in ("bf16", "fp16"):  # autocast: the output layer's 16-bit weight, its gradient, in fp32
            sizes += [weights * 2.0, weights * 2.0, weights * 4.0]
        else:
            sizes.append(weights * master)
    return sizes


def mapped_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Bytes of one micro-batch's tensors above the allocator's mmap threshold: each faults its pages in again."""
    ceiling = float(f["cpu"]["page_faults"]["mmap_ceiling_bytes"])
    return sum(b for b in step_tensor_bytes(m, t, f) if b > ceiling)


def fault_seconds(m: ModelSpec, t: TrainSpec, target: Any, f: Mapping[str, Any]) -> float:
    """Seconds a CPU micro-batch spends faulting in its freshly mapped tensors (0 on GPUs and off Linux)."""
    pf = f["cpu"]["page_faults"]
    if not target.on_cpu or (target.platform or "") not in pf["platforms"]:
        return 0.0
    fault_us = pf["fault_us_by_core"].get(target.cpu_core(f).kind, pf["fault_us"])  # this kind of core's, if measured
    per_page = at_host_clock(fault_us * 1e-6, pf["reference_clock_mhz"], target, f)
    return mapped_bytes(m, t, f) / float(pf["page_bytes"]) * per_page
