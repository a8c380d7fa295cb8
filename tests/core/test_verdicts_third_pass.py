"""Verdicts, third pass (issue 26): advice a beginner would act on, checked where a user would see it."""

from __future__ import annotations

import dataclasses
import json

import pytest

from gpucheck import estimate as E
from gpucheck.advise import advise
from gpucheck.catalog import find_gpu, get_workload
from gpucheck.cli import main
from gpucheck.machine import Machine
from tests.conftest import FIXTURES
from tests.helpers import advise_on_gpu as _advice

MACHINES = FIXTURES / "machines"

GIB = 1024**3


# -- §2 the ladder for a job that is tight as configured ----------------------------------------------------


def test_an_11gb_card_gets_free_changes_as_the_12gb_card_does():
    # issue 26 §2: the RTX 2080 Ti got "Tight 13.5 / 11.0" and a smaller model, the RTX 3060 12GB "limit the
    # sequence length to 768", which loses nothing on ~128-token samples; the 12 GB card now runs it with the fused
    # loss (no logits kept) and that limit, the 11 GB card with Unsloth: changes that lose nothing on both, never a
    # smaller model
    plans = {}
    for gpu in ("RTX 2080 Ti", "RTX 3060 12GB"):
        _w, _e, a = _advice("llama3-8b-qlora", gpu)
        assert a.verdict in ("runs_with_tweaks", "tight"), gpu
        assert a.tweaks and all(t.loses == "nothing" for t in a.tweaks), gpu
        assert {t.id for t in a.tweaks} <= {"fused_loss", "shorter_sequences", "unsloth"}, gpu
        plans[gpu] = [t.id for t in a.tweaks]
    assert "unsloth" not in plans["RTX 3060 12GB"]  # the free settings of its own stack are enough there


# -- §3 lower resolution and cut samples are what fits instead ----------------------------------------------


def test_a_sequence_limit_that_cuts_long_samples_is_an_alternative_not_a_tweak():
    # issue 26 §3: a 4k-token data set cut to 512 tokens was "runs with tweaks, 12 h" vs 3.6 days
    w = E.apply_overrides(get_workload("llama3-8b-qlora"), seq_len=4096)
    w = w.__class__(**{**w.__dict__, "data": w.data.__class__(**{**w.data.__dict__, "avg_seq_len": 4000})})
    t = E.Target.from_gpu(find_gpu("RTX 3060 12GB"), 1, None)
    a = advise(None, w, t, E.estimate(w, t))
    assert not [x for x in a.tweaks if x.loses == "data"]
    if a.verdict == "does_not_fit":
        assert any(alt.kind == "shorter_sequences" for alt in a.alternatives)


# -- §4 a Mac or a laptop given by name ---------------------------------------------------------------------


@pytest.mark.parametrize("gpu, job", [("Apple M1 8GB", "sdxl-lora"), ("RTX 4060 Laptop", "llama3-70b-qlora")])
def test_a_mac_or_laptop_gpu_by_name_is_never_sold_a_desktop_card_or_psu(gpu, job):
    # issue 26 §4: M1 → "RTX 3060 12GB $289 … needs a 550 W power supply"; RTX 4060 Laptop → "used RTX 3090, 3-slot"
    _w, _e, a = _advice(job, gpu)
    assert not [u for u in a.upgrades if u.kind in ("gpu", "psu")]
    assert any("cannot be" in n and "cloud" in n for n in a.notes)


# -- §8 the headline describes the plan; --zero-stage 3 on one GPU -------------------------------------------


def test_the_headline_names_the_gpus_and_the_sharding_the_plan_uses():
    _w, _e, a = _advice("llama3-8b-full", "RTX 4090", 4)
    assert "ZeRO" in a.summary
    if a.settings.get("zero_stage") == 3:
        assert "ZeRO-3" in a.summary


def test_zero_stage_3_on_one_gpu_is_said_not_ignored():
    _w, _e, a = _advice("llama3-8b-full", "RTX 4090", 1, zero_stage=3)
    assert any("ZeRO stage 3" in n and "one GPU" in n for n in a.notes)


# -- §9 unknown speed, and a Mac's memory -------------------------------------------------------------------


def test_pretraining_on_an_igpu_of_unknown_speed_is_not_runs():
    # issue 26 §9: an iGPU not in the catalog got "runs with tweaks" for 10B-token pre-training; the fastest
    # laptop GPU in the catalog bounds its time from below
    m = Machine.load(MACHINES / "phoenix-apu-laptop.json")
    w = get_workload("gpt2-124m-pretrain")
    t = E.Target.from_machine(m)
    a = advise(m, w, t, E.estimate(w, t))
    assert a.verdict == "too_slow" and "faster than this built-in GPU" in a.summary


def test_a_mac_by_name_keeps_headroom_in_unified_memory():
    # issue 26 §9: a RAM need at 94% of unified memory was "runs"; resnet50-finetune needs ~7.5 GB of an 8 GB M1
    _w, e, a = _advice("resnet50-finetune", "Apple M1 8GB")
    assert e.ram_bytes > 0.9 * 8 * GIB and a.verdict != "runs"


# -- §12 text that agrees with the model --------------------------------------------------------------------


def test_the_qlora_time_ratio_is_the_models_own():
    _w, _e, a = _advice("llama3-8b-lora", "RTX 3060 12GB")
    q = next(x for x in a.alternatives if x.kind == "qlora")
    assert "1.62" not in q.tweaks[0].cost and "as long as with LoRA here" in q.tweaks[0].cost


@pytest.mark.parametrize("job", ["imagenet-resnet50", "resnet50-finetune", "gpt2-124m-pretrain"])
def test_lora_for_a_job_with_nothing_to_adapt_is_one_clear_line(job, capsys):
    # issue 26 §12: `--method lora` was accepted for a from-scratch ResNet-50 (0 trainable parameters)
    assert main(["estimate", job, "--gpu", "RTX 4090", "--method", "lora"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nothing for LoRA to adapt" in err[0]


def test_bf16_pure_on_a_v100_says_what_it_plans(capsys):
    # issue 26 §12: "as configured: runs" beside fp16-mixed figures
    assert main(["estimate", "llama3-8b-lora", "--gpu", "V100 32GB", "--precision", "bf16-pure"]) == 0
    out = capsys.readouterr().out
    assert "instead of pure BF16" in out


def test_yolo_batch_text_follows_ultralytics_accumulation():
    # docs.ultralytics.com, "Train settings": nbs=64, the nominal batch Ultralytics accumulates to by itself
    m = Machine.load(MACHINES / "phoenix-apu-laptop.json")
    w = get_workload("yolov8s-finetune")
    t = E.Target.from_machine(m)
    a = advise(m, w, t, E.estimate(w, t))
    mb = next(x for x in a.tweaks if x.id == "micro_batch")
    assert "nominal batch of 64" in mb.title and "gradient_accumulation_steps" not in mb.settings


# -- §13-17 recipes that run as printed ---------------------------------------------------------------------


def test_llm_snippet_packs_when_the_time_assumes_packing():
    # TRL docs, "SFTTrainer → Packing": SFTConfig(packing=True) with FlashAttention keeps samples apart
    _w, e, a = _advice("llama3-8b-qlora", "RTX 3060 12GB")
    assert e.train.packing
    assert "SFTConfig(" in a.snippet and "packing=True" in a.snippet and "flash_attention_2" in a.snippet


def test_sdxl_kohya_command_keeps_the_vae_in_fp32():
    # kohya-ss/sd-scripts docs/train_SDXL-en.md: SDXL's VAE overflows in fp16 → --no_half_vae
    _w, _e, a = _advice("sdxl-lora", "RTX 4060 8GB")  # an 8 GB card: the recipe caches latents and embeddings
    assert "sdxl_train_network.py" in a.snippet and "--no_half_vae" in a.snippet


def test_apple_snippet_has_no_fp16_true():
    # huggingface/accelerate#3718: "fp16 mixed precision requires a GPU (not 'mps')" before MPS AMP (#3373)
    _w, _e, a = _advice("qwen2.5-1.5b-lora", "Apple M2 16GB", batch=64)
    assert a.snippet and "fp16=True" not in a.snippet.replace("no fp16=True", "")
    assert "accelerate#3373" in a.snippet


def test_dreambooth_command_has_prior_preservation_and_no_latent_cache():
    # diffusers examples/dreambooth README: --with_prior_preservation --class_data_dir --class_prompt;
    # train_dreambooth.py has no latent cache
    w = get_workload("sd15-dreambooth")
    for gpu in ("RTX 3060 12GB", "RTX 4060 8GB"):
        _w, _e, a = _advice("sd15-dreambooth", gpu)
        assert "cache_embeddings" not in [t.id for t in a.tweaks]
        if "train_dreambooth.py" in a.snippet:
            for flag in ("--with_prior_preservation", "--class_data_dir", "--class_prompt"):
                assert flag in a.snippet
            assert "--cache_latents" not in a.snippet
    assert w.train.method == "full"


def test_json_tweaks_never_carry_a_data_loss(capsys):
    assert main(["check", "--gpu", "RTX 3070", "--json", "sdxl-lora"]) == 0
    d = json.loads(capsys.readouterr().out)
    for r in d["estimates"]:
        assert all(t["loses"] != "data" for t in r["advice"]["tweaks"])


# -- §19 several used cards ---------------------------------------------------------------------------------


def test_70b_qlora_upgrades_consider_two_cards_not_only_one_96gb_card():
    # issue 26 §19: 70B QLoRA got only a $8,565 RTX PRO 6000, while two 24 GB cards with FSDP + QLoRA run it
    # (Answer.AI 2024, "You can now train a 70b language model at home": two 24 GB gaming GPUs)
    _w, _e, a = _advice("llama3-70b-qlora", "RTX 3060 12GB")
    gpus = [u for u in a.upgrades if u.kind == "gpu"]
    pair = next((u for u in gpus if u.name.startswith("2× ")), None)
    assert pair is not None and pair.fit == "fits"
    single = [u for u in gpus if not u.name.startswith("2× ") and u.price_usd]
    assert all(pair.price_usd < u.price_usd for u in single)
    assert any("PCIe" in n for n in pair.notes)


@pytest.mark.parametrize("job, gpu, kept", [
    # RX 6800 (16 GB): 8-bit AdamW alone is "tight: may fit" once the activations widen by the diffusion
    # family's memory band (resources/factors.toml [memory_band.default]: no published diffusion memory row on
    # AMD), so checkpointing stays; the micro-batch step the climb passed through is dropped
    ("sd15-dreambooth", "RX 6800", ["grad_checkpointing", "optimizer_8bit"]),
    # RTX 3060 12GB: ZeRO-Offload alone fits; the micro-batch and checkpointing steps before it only cost time
    ("sd15-dreambooth", "RTX 3060 12GB", ["cpu_offload"]),
])
def test_a_plan_that_fits_only_after_dropping_an_unneeded_step_keeps_the_one_it_needs(job, gpu, kept):
    # issue 26 §6: the ladder is minimal — every step it keeps is needed: without any one of them the plan no
    # longer fits with room; a step the climb passed through and the others make unneeded is dropped
    w, e, a = _advice(job, gpu)
    assert [t.id for t in a.tweaks] == kept
    t = E.Target.from_gpu(find_gpu(gpu), 1, None)
    final = dataclasses.replace(e.train, **{k: v for tw in a.tweaks for k, v in _fields_of(tw.id).items()})
    assert E.estimate(w, t, final).memory_fit == "fits"
    for tw in a.tweaks:
        without = dataclasses.replace(final, **{k: getattr(e.train, k) for k in _fields_of(tw.id)})
        assert E.estimate(w, t, without).memory_fit != "fits", tw.id


def _fields_of(tweak_id: str) -> dict:
    """The settings a ladder step changes, as the climb applies them (resources/factors.toml [tweaks])."""
    return {"grad_checkpointing": {"grad_checkpointing": True}, "optimizer_8bit": {"optimizer": "adamw-8bit"},
            "cpu_offload": {"cpu_offload": True}}[tweak_id]


def test_on_a_mac_a_step_that_lowers_gpu_memory_and_ram_is_kept():
    # unified memory: caching SDXL's latents and text embeddings frees the GPU's share of the same RAM, so it is
    # not "trading GPU memory for RAM this PC does not have" (that is CPU offload)
    _w, e, a = _advice("sdxl-lora", "Apple M2 16GB")
    assert "cache_embeddings" in [t.id for t in a.tweaks]
    assert a.final_ram_bytes < e.ram_bytes
