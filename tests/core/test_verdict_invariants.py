"""Catalog-wide invariants of the verdicts and plans, over EVERY catalog GPU × every built-in job (issue 26,
"Done when"). Each is a property a user would notice when comparing two answers:

- "tight" (may fit) only where the exact bytes — weights, gradients, optimizer state, the CUDA context — fit
  usable memory (DESIGN.md, verdict `tight`); where they alone exceed it, no error band can make it fit;
- a card that is at least as good in every figure (memory, bandwidth, every arithmetic rate, same chip
  family) never gets a worse plan or a slower one for the same job;
- more GPUs never make the plan slower or worse (one can leave GPUs idle);
- the same configuration on 2N GPUs is at most twice as fast as on N (linear scaling is the ceiling), save
  for what CPU offload's per-GPU copies save (each GPU moves only its partition over its own PCIe link).

The plans come from `gpucheck.advise.plan.plan_for`, the plan `advise()` prints, without its money parts, so the
whole matrix runs in seconds.
"""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest

from gpucheck import estimate as E
from gpucheck.advise import ladder, unsloth
from gpucheck.advise.facts import facts_for_spec
from gpucheck.advise.plan import plan_for
from gpucheck.catalog import load_gpus, load_workloads
from gpucheck.estimate import compute, optimizer_traffic
from gpucheck.estimate.factors import load_factors
from gpucheck.records import Estimate, GpuSpec

GPUS = load_gpus()
JOBS = load_workloads()
MULTI_COUNTS = (1, 2, 4)


def _usable(e: Estimate) -> float:
    return e.vram_available_bytes * (1.0 - float(load_factors()["fit_band"]["headroom_fraction"]))


def _exact(e: Estimate) -> int:
    b = e.breakdown
    return b.weights_bytes + b.gradients_bytes + b.optimizer_bytes + e.context_bytes


@cache
def _plan(gpu_id: str, job_id: str, n: int = 1):
    g = next(x for x in GPUS if x.id == gpu_id)
    w = next(x for x in JOBS if x.id == job_id)
    t = E.Target.from_gpu(g, n, None)
    base = E.estimate(w, t)
    res, _used, quicker = plan_for(None, w, t, base)
    return base, res, quicker


def _rank(res: ladder.LadderResult) -> int:
    """How far a plan is from running: 0 as it is or with settings that lose nothing (mixed precision; on several
    GPUs, DDP's gradient_as_bucket_view, which PyTorch leaves off), 1 with tweaks that cost time, quality or data,
    2 may fit, 3 does not fit, 4 not supported."""
    if res.estimate.verdict == "not_supported":
        return 4
    if res.fits:
        return 1 if any(t.loses != "nothing" for t in res.tweaks) else 0
    return 2 if res.tight else 3


def test_no_tight_where_the_exact_bytes_exceed_usable_memory():
    # issue 26 §1: 81 of 85 "tight" verdicts had a need above usable VRAM; 8B QLoRA on 8 GB cards was "may fit"
    # with 7.29 GiB of weights + 0.75 GiB of context (Unsloth's table: out of memory on 8 GB)
    bad = []
    for g in GPUS:
        if g.backend not in ("cuda", "rocm", "xpu", "metal"):
            continue
        for w in JOBS:
            base, res, _ = _plan(g.id, w.id)
            for e in (base, res.estimate):
                if e.vram_available_bytes is None:
                    continue
                if e.vram_fit == "tight" and _exact(e) > _usable(e):
                    bad.append((g.name, w.id, "tight", _exact(e) / 2**30))
                if _exact(e) > _usable(e) and e.vram_fit != "does_not_fit":
                    bad.append((g.name, w.id, e.vram_fit, _exact(e) / 2**30))
    assert not bad, bad[:10]


def test_llama3_8b_qlora_on_8gb_fits_only_with_unsloth_as_unsloths_table_says(monkeypatch):
    # unslothai/unsloth README, context-length table: Llama 3.1 8B QLoRA with Hugging Face + FA2 is "OOM" on 8 GB,
    # with Unsloth 2,972 tokens fit (the job's rows are 2,048): the plan that fits is Unsloth's, and every change that
    # keeps the Hugging Face stack is not enough. The table dates from 2024, when TRL's SFTTrainer ran PEFT's
    # prepare_model_for_kbit_training (fp32 embeddings and lm_head: train.qlora_upcast), kept PEFT's fp32 adapters
    # (train.qlora_bf16_adapters) and the Hugging Face loss, so its Hugging Face run is priced so
    for gpu in ("rtx-3070", "rtx-4060"):
        _base, res, _ = _plan(gpu, "llama3-8b-qlora")
        assert res.fits and "unsloth" in [t.id for t in res.tweaks]
        g = next(x for x in GPUS if x.id == gpu)
        w = next(x for x in JOBS if x.id == "llama3-8b-qlora")
        w = dataclasses.replace(w, train=dataclasses.replace(w.train, qlora_upcast=True, qlora_bf16_adapters=False,
                                                             cross_entropy="full"))
        t = E.Target.from_gpu(g, 1, None)
        with monkeypatch.context() as mp:
            mp.setattr(ladder, "RUNGS", tuple(r for r in ladder.RUNGS if r.id != "unsloth"))
            hf = ladder.run_ladder(w, w.train, facts_for_spec(g), lambda wl, tr, t=t: E.estimate(wl, t, tr))
        assert not hf.fits and not hf.tight


def _dominates(b: GpuSpec, a: GpuSpec) -> bool:
    """`b` is at least `a` in every figure that sets memory or speed, on the same kind of chip."""
    if b.id == a.id or (b.backend, b.compute_capability, b.vendor) != (a.backend, a.compute_capability, a.vendor):
        return False
    if b.segment != a.segment or b.interconnect != a.interconnect:
        return False
    # (usable memory too: a card whose nvidia-smi shows less than its size, ECC on, is not "at least as good" in it)
    for f in ("vram_bytes", "vram_usable_mib", "mem_bandwidth_gbps", "tflops_fp32", "tflops_fp16_tensor", "tflops_bf16_tensor",
              "tflops_tf32_tensor", "tflops_fp8_tensor", "tflops_fp16_vector", "sustained_clock_fraction",
              "pcie_gen", "nvlink_gbps"):
        x, y = getattr(b, f), getattr(a, f)
        if (x is None) != (y is None) or (x is not None and x < y):
            return False
    return True


PAIRS = [(a, b) for a in GPUS for b in GPUS if _dominates(b, a)]


def test_the_matrix_has_pairs_of_the_same_chip_with_more_memory():
    assert len(PAIRS) >= 5, [(a.name, b.name) for a, b in PAIRS]


def test_a_card_at_least_as_good_never_gets_a_worse_plan_or_a_slower_one():
    # issue 26 §2-3: 11 GB cards got "tight" and a smaller model where the 12 GB card got a free sequence limit;
    # SDXL ran 4.3 h on an RTX 3060 8GB (at 512 px) and 8.8 h on the 12GB (at 1024 px)
    bad = []
    for a, b in PAIRS:
        for w in JOBS:
            _, ra, _ = _plan(a.id, w.id)
            _, rb, _ = _plan(b.id, w.id)
            if _rank(rb) > _rank(ra):
                bad.append((w.id, a.name, b.name, "worse", _rank(ra), _rank(rb)))
            elif ra.fits and rb.fits and not ({t.id for t in ra.tweaks if t.loses == "quality"} -
                                              {t.id for t in rb.tweaks}):
                # (a step that gives up a little quality can also save time — cached latents skip the VAE,
                # 8-bit AdamW moves fewer bytes: a card that needs no such step is compared like with like only
                # with a plan that does not take it either)
                ha, hb = ra.estimate.total_hours, rb.estimate.total_hours
                only_a = {t.id for t in ra.tweaks} - {t.id for t in rb.tweaks}
                if "unsloth" in only_a:
                    # the smaller card needs Unsloth to fit, the larger one runs without it: its output offers
                    # Unsloth as a speed-up (advise/plan.py _speed_tweaks), the time compared like with like
                    hb = E.estimate(rb.workload, E.Target.from_gpu(b, 1, None), unsloth.with_unsloth(rb.train)).total_hours
                elif "fused_loss" in only_a:
                    # the smaller card needs Liger's fused loss to fit, the larger one runs on TRL's chunked loss (the
                    # packed jobs' own, TRL's default), which copies the output layer in every chunk: its output offers
                    # the fused loss as a speed-up (advise/loss_speed.py), the time compared like with like
                    hb = E.estimate(rb.workload, E.Target.from_gpu(b, 1, None), dataclasses.replace(
                        rb.train, cross_entropy=ra.train.cross_entropy)).total_hours
                if ha is not None and hb is not None and hb > ha * 1.001:
                    bad.append((w.id, a.name, b.name, "slower", ha, hb))
    assert not bad, bad[:10]


MULTI = [g for g in GPUS if g.backend in ("cuda", "rocm") and g.segment not in ("laptop", "integrated")]


@pytest.mark.parametrize("job", [w.id for w in JOBS])
def test_more_gpus_are_never_slower_or_worse(job):
    bad = []
    for g in MULTI:
        plans = [_plan(g.id, job, n) for n in MULTI_COUNTS]
        for n, (_, fewer, _q), (_, more, quicker) in zip(MULTI_COUNTS, plans, plans[1:], strict=False):
            if _rank(more) > _rank(fewer):
                bad.append((g.name, n, "worse", _rank(fewer), _rank(more)))
            elif fewer.fits and more.fits:
                hf, hm = fewer.estimate.total_hours, more.estimate.total_hours
                # slower only where the output says why: the quicker plan on fewer GPUs gives up more
                said = quicker is not None and quicker[1].estimate.total_hours <= hf * 1.001
                if hf is not None and hm is not None and hm > hf * 1.001 and not said:
                    bad.append((g.name, n, "slower", hf, hm))
    assert not bad, bad[:10]


@pytest.mark.parametrize("job", [w.id for w in JOBS])
def test_the_same_configuration_on_twice_the_gpus_is_at_most_twice_as_fast(job, monkeypatch):
    bad = []
    w = next(x for x in JOBS if x.id == job)
    stepped = optimizer_traffic.stepped_params
    for g in MULTI:
        for n in MULTI_COUNTS[:-1]:
            _, res, _ = _plan(g.id, job, n)
            t = dataclasses.replace(res.train)
            one = E.estimate(res.workload, E.Target.from_gpu(g, n, None), t)
            # A partitioned optimizer is one exception: under ZeRO and FSDP each GPU steps its 1/N share of the
            # parameters (Rajbhandari et al. 2020, arXiv 1910.02054 §5), so on 2N GPUs each one's optimizer work
            # halves while its forward and backward do not. Apart from that, twice the GPUs is at most twice as fast:
            # the 2N-GPU step is priced with the optimizer partition of N GPUs.
            monkeypatch.setattr(compute, "stepped_params", lambda trainable, tr, gpus, n=n: stepped(trainable, tr, n))
            two = E.estimate(res.workload, E.Target.from_gpu(g, 2 * n, None), t)
            monkeypatch.setattr(compute, "stepped_params", stepped)
            if not (one.total_hours and two.total_hours) or one.total_hours / two.total_hours <= 2.0 + 1e-9:
                continue
            # CPU offload is the other, and only within what offload costs: under ZeRO-Offload each GPU
            # copies its own 1/N partition of the gradients and parameters over its own PCIe link (Ren et al.
            # 2021, arXiv 2101.06840 §4), so on 2N GPUs each one's copies halve while its compute does not (and
            # the copies left hide more easily behind it). A GPU's step may shrink, but never below the step on
            # N GPUs without any offload time: the GPU's own work and the collectives scale at most linearly.
            offload_on_n = (one.offload_seconds or 0.0) / (two.scaling_efficiency or 1.0)
            if t.cpu_offload and two.offload_seconds is not None and two.offload_seconds < (one.offload_seconds or 0.0) \
                    and two.step_seconds >= one.step_seconds - offload_on_n - 1e-9:
                continue
            bad.append((g.name, w.id, n, one.total_hours, two.total_hours))
    assert not bad, bad[:10]
