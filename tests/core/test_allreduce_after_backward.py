"""DeepSpeed's engine without ZeRO all-reduces the gradients after backward, where PyTorch DDP hides them in it.

PyTorch DDP reduces its gradient buckets while backward still runs, so most of the exchange costs nothing. DeepSpeed's
engine at ZeRO stage 0 waits: DeepSpeedEngine.backward calls allreduce_gradients() after optimizer.backward returns,
and at the accumulation boundary that is buffered_allreduce_fallback over every gradient on the compute stream
(deepspeed/runtime/engine.py). A job says so with `allreduce_after_backward = true`. Until December 2026 the estimate
hid the exchange as DDP's: Argonne's Megatron-DeepSpeed layer sweep on 24 Aurora tiles (two nodes) ran 1.48-1.60x
slower than estimated, its 9.5 GB of fp32 gradients crossing Slingshot after every second micro-batch.
"""

from __future__ import annotations

import pytest

from gpucheck.catalog import find_gpu, get_workload, parse_workload
from gpucheck.errors import BadInput
from gpucheck.estimate import Target, apply_overrides, estimate, estimate_variant
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.links import link_seconds
from gpucheck.evidence import load_evidence
from tests.core import accuracy as A

AURORA_SOURCE = "argonne-megatron-deepspeed-auroragpt-small"


def test_the_exchange_after_backward_adds_the_whole_all_reduce_to_the_step():
    """Full fine-tune of an 8B model on four PCIe RTX 6000 Ada: DDP hides part of its all-reduce behind backward;
    after backward the step is one GPU's step plus all of it: fp32 gradients (bf16 autocast over fp32 weights),
    2(n-1)/n of them through each GPU's link (a ring)."""
    f = load_factors()
    w = apply_overrides(get_workload("llama3-8b-full"), batch=4, seq_len=1024)
    gpu = find_gpu("rtx 6000 ada")
    four = Target.from_gpu(gpu, gpus=4)
    one_s = estimate(w, Target.from_gpu(gpu)).step_seconds
    ddp_s = estimate(w, four).step_seconds
    after_s = estimate_variant(w, four, allreduce_after_backward=True).step_seconds
    ring_s = link_seconds(2 * 3 / 4 * 4 * w.model.params, four, f)
    assert after_s * f["multi_gpu"]["base_efficiency"] == pytest.approx(one_s + ring_s, rel=1e-6)
    assert one_s < ddp_s < after_s
    alone = estimate_variant(w, Target.from_gpu(gpu), allreduce_after_backward=True).step_seconds
    assert alone == pytest.approx(one_s)  # one GPU exchanges nothing, whatever the engine


def test_the_published_aurora_sweep_is_priced_with_its_exchange():
    rows = [r for r in load_evidence() if r.source.id == AURORA_SOURCE]
    assert len(rows) == 12 and all(r.train.allreduce_after_backward and r.gpus == 24 for r in rows)
    ratios = [A.speed_ratio(r, A.run(r)) for r in rows]  # estimated speed / measured speed
    assert all(1.0 / 1.35 < x < 1.35 for x in ratios), ratios  # 1.48-1.60x too fast with the exchange hidden


def test_a_job_file_names_it_and_a_wrong_value_is_one_clear_message():
    base = {"id": "ds-stage0", "title": "t", "family": "llm",
            "model": {"arch": "transformer", "params": 124_000_000, "layers": 12, "hidden": 768, "heads": 12,
                      "vocab": 50257},
            "train": {"method": "full", "precision": "bf16", "batch": 8, "seq_len": 1024,
                      "allreduce_after_backward": True},
            "data": {"samples": 1000}}
    assert parse_workload(base, "ds-stage0.toml").train.allreduce_after_backward is True
    bad = dict(base, train=dict(base["train"], allreduce_after_backward="yes"))
    with pytest.raises(BadInput, match="allreduce_after_backward"):
        parse_workload(bad, "ds-stage0.toml")
