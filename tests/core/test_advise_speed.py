"""Speed tweaks: a job that runs but whose small steps leave the GPU idle gets optional speed-ups.

litgpt's 'Time 1k iterations' (tutorials/resource-tables.md, A100, micro-batch 1, Alpaca) shows why: the
step of a LoRA fine-tune on short samples is bound by kernel dispatch, so Llama 2 7B took 141.6 ms per
iteration at micro-batch 1 and only 151.2 ms at micro-batch 2 — twice the samples for 7% more time. The
estimator reproduces those rows (tests/core/test_estimate_accuracy.py); the advice must turn that into
something the user can do on a fast GPU.
"""

from __future__ import annotations

import dataclasses

from gpucheck import estimate as E
from gpucheck.advise import advise
from gpucheck.advise.present import advice_to_dict, format_advice
from gpucheck.catalog import get_workload
from gpucheck.machine import Machine
from tests.conftest import FIXTURES


def _advice(machine_name: str, workload_id: str, packing: bool | None = None):
    m = Machine.load(FIXTURES / "machines" / f"{machine_name}.json")
    w = get_workload(workload_id)
    if packing is not None:  # the catalog packs short samples by default; these tests look at the unpacked job
        w = dataclasses.replace(w, train=dataclasses.replace(w.train, packing=packing))
    t = E.Target.from_machine(m)
    return m, w, t, advise(m, w, t)


def test_rtx4090_qlora_on_short_samples_is_told_to_pack_and_raise_the_batch():
    _m, w, t, a = _advice("rtx4090-650w-desktop", "llama3-8b-qlora", packing=False)
    assert a.verdict == "runs"
    assert E.estimate(w, t).bottleneck == "overhead"
    assert not a.tweaks  # nothing is needed to run it: the speed tweaks are separate
    by_id = {x.id: x for x in a.speed_tweaks}
    # packing always; a larger micro-batch only where it surely fits: at batch 2 the 128k-vocabulary logits and the
    # activations, widened by the language-model memory band of the published runs, may exceed 24 GB ("tight")
    assert "packing" in by_id and set(by_id) <= {"packing", "larger_batch"}
    assert all(x.kind == "speed" for x in a.speed_tweaks)

    packing = by_id["packing"]
    assert packing.settings == {"packing": True, "max_length": w.train.seq_len}
    assert packing.total_hours < 0.5 * a.final_total_hours  # 128-token samples fill 2048-token rows

    batch = w.train.batch
    if "larger_batch" in by_id:
        bigger = by_id["larger_batch"]
        batch = bigger.settings["per_device_train_batch_size"]
        assert batch > w.train.batch
        assert bigger.total_hours < 0.8 * a.final_total_hours
        # the suggested configuration fits this card: re-estimate it independently
        e = E.estimate(w, t, dataclasses.replace(w.train, batch=batch,
                                                 grad_accum=bigger.settings["gradient_accumulation_steps"]))
        assert e.fits and e.peak_vram_bytes <= t.vram_available_bytes
        assert bigger.peak_vram_bytes == e.peak_vram_bytes
    # the suggestion is the largest batch that surely fits: the next doubling does not
    e2 = E.estimate(w, t, dataclasses.replace(w.train, batch=batch * 2))
    assert not e2.fits

    text = format_advice(a)
    assert "packing=True" in text and ("larger_batch" not in by_id or f"per_device_train_batch_size={batch}" in text)
    d = advice_to_dict(a)
    assert [x["id"] for x in d["speed_tweaks"]] == [x.id for x in a.speed_tweaks]


def test_h100_server_gets_a_bigger_batch_than_the_4090():
    *_, a4090 = _advice("rtx4090-650w-desktop", "llama3-8b-qlora", packing=False)
    _m, w, t, a = _advice("h100x8-server", "llama3-8b-qlora", packing=False)
    big = {x.id: x for x in a.speed_tweaks}["larger_batch"]  # 80 GB has room for it
    small = {x.id: x for x in a4090.speed_tweaks}.get("larger_batch")
    small_batch = small.settings["per_device_train_batch_size"] if small is not None else 1
    assert big.settings["per_device_train_batch_size"] > small_batch
    assert E.estimate(w, t, dataclasses.replace(w.train, batch=big.settings["per_device_train_batch_size"])).fits


def test_a_compute_bound_job_gets_no_speed_tweaks():
    """DreamBooth of SD 1.5's whole U-Net at micro-batch 2 keeps a 4090 busy (its steps are bound by compute and
    memory traffic, not by per-step overhead): no speed tweak is offered. (SDXL LoRA at batch 1 does not: its 7,791
    forward and 6,814 frozen-weight backward operators plus 560 adapters pace it from the host, as the published
    kohya 4090 run's 1.08 it/s says: resources/evidence/kohya-ss-issue-1288.toml.)"""
    _m, w, t, a = _advice("rtx4090-650w-desktop", "sd15-dreambooth")
    assert E.estimate(w, t).bottleneck in ("compute", "memory")
    assert a.speed_tweaks == ()
