"""What a renter really pays and waits, silently ignored settings, and two advice labels a user reads.

Sources (cited per test): AWS per-second billing with a one-minute minimum (AWS News Blog 2017-09-18);
Runpod Pods billed by the second (docs.runpod.io/pods/pricing); Colab free sessions last at most 12 h
(Colab FAQ); kohya sd-scripts --cache_latents / --cache_text_encoder_outputs (fixed augmentation, text
encoder not trained); NVIDIA RTX PRO 6000 Blackwell: 96 GB (datasheet), MSRP $8,565 (NewGearHub, 2026-04)."""

from __future__ import annotations

import pytest

from gpucheck import estimate as E
from gpucheck.advise import advise
from gpucheck.advise.cloud_offers import rented_run, startup_hours
from gpucheck.advise.data import billing_of, load_cloud
from gpucheck.catalog import find_gpu, get_workload
from gpucheck.cli import main
from gpucheck.estimate import BadSetting, apply_overrides
from gpucheck.machine import Machine
from tests.conftest import FIXTURES


def _offer(offer_id: str):
    return next(o for o in load_cloud() if o.id == offer_id)


def _advice(machine_name: str, workload_id: str):
    m = Machine.load(FIXTURES / "machines" / f"{machine_name}.json")
    w = get_workload(workload_id)
    t = E.Target.from_machine(m)
    return advise(m, w, t)


def test_every_paid_offer_has_sourced_billing_terms():
    for o in load_cloud():
        b = billing_of(o)
        if o.kind == "free":
            assert b is None
            continue
        assert b is not None and b.source and b.as_of, o.id


def test_an_11_second_job_on_8_h100_is_billed_for_the_start_up_not_11_seconds():
    """The issue's "8×H100 11 s, $0.16": a renter waits for the machine, the environment and the model,
    and pays for that time (AWS bills Linux instances per second, at least one minute)."""
    p5 = _offer("aws-p5-h100")
    w = get_workload("llama3-8b-lora")
    run = rented_run(p5, 11 / 3600, startup_hours(w))
    cost = p5.price_usd_per_gpu_hour * 8 * run.billed_hours
    assert run.wall_hours >= 10 / 60 and run.billed_hours >= run.wall_hours
    assert cost > 5.0  # not $0.16: 8 GPUs × $6.88 × at least 10 minutes
    short = rented_run(p5, 1 / 3600, 0.0)
    assert short.billed_hours == pytest.approx(60 / 3600)  # the one-minute minimum


def test_per_second_billing_rounds_to_the_second_and_a_70b_model_takes_longer_to_start():
    pod = _offer("runpod-h100-sxm")
    run = rented_run(pod, 1.0, 0.0)
    assert run.billed_hours == pytest.approx(1.0)
    assert startup_hours(get_workload("llama3-70b-qlora")) > startup_hours(get_workload("mnist-cnn")) + 0.15


def test_a_long_free_colab_run_needs_several_sessions_each_starting_again():
    """Colab free sessions last at most 12 h: 30 h of training is 3 sessions, and each starts again."""
    colab = _offer("colab-free-t4")
    run = rented_run(colab, 30.0, 0.25)
    assert run.sessions == 3 and run.wall_hours == pytest.approx(30.75) and run.billed_hours == 0


def test_cloud_table_cost_counts_start_up_and_says_why():
    a = _advice("office-pc-cpu-only", "cifar10-resnet18")
    paid = [c for c in a.cloud if c.kind != "free" and c.cost_usd is not None]
    assert paid
    for c in paid:
        assert c.total_hours >= c.train_hours + 10 / 60
        assert c.cost_usd == pytest.approx(c.price_usd_per_gpu_hour * c.gpus * c.billed_hours)
    short = [c for c in paid if c.train_hours < 1]
    assert short and all("starting the machine" in c.note for c in short)


@pytest.mark.parametrize("args, line", [
    (["mnist-cnn", "--packing"], "--packing applies to language-model jobs; mnist-cnn is a CNN"),
    (["mnist-cnn", "--tokens", "1000000"], "--tokens applies to language-model jobs; mnist-cnn is a CNN"),
    (["llama3-8b-full", "--lora-rank", "8"], "--lora-rank applies to LoRA and QLoRA"),
    (["llama3-8b-full", "--lora-targets", "mlp"], "--lora-targets applies to LoRA and QLoRA"),
    (["mnist-cnn", "--seq-len", "512"], "--seq-len: mnist-cnn is not a transformer"),
    (["llama3-8b-lora", "--image-size", "512"], "--image-size: llama3-8b-lora is a transformer"),
])
def test_a_setting_that_means_nothing_for_the_job_exits_2_with_one_line(args, line, capsys):
    assert main(["estimate", *args]) == 2
    err = capsys.readouterr().err
    assert line in err and err.count("\n") == 1


def test_lora_settings_are_taken_with_a_lora_method():
    w = apply_overrides(get_workload("llama3-8b-full"), method="lora", lora_rank=8)
    assert w.train.lora_rank == 8
    with pytest.raises(BadSetting):
        apply_overrides(get_workload("sd15-lora"), packing=True)


def test_caching_latents_is_labelled_as_giving_up_quality_not_time():
    """kohya sd-scripts: cached latents fix the random crops/flips per image and the text encoder is not
    trained; the VAE and text encoders run once, so it saves time."""
    a = _advice("rtx2060super-windows", "sdxl-lora")  # 8 GB: SDXL at 1024 px needs the cache
    cache = next(t for t in a.tweaks if t.id == "cache_embeddings")
    assert cache.loses == "quality"


def test_70b_qlora_gets_a_48_gb_card_with_unsloth_before_a_96_gb_one():
    # on the Hugging Face stack 70B QLoRA needs a 96 GB card (RTX PRO 6000, $8,565); Unsloth's table fits it in 48 GB
    # (12,106 tokens), so the card to buy is a used 48 GB one at a third of the price, named with the change it needs
    a = _advice("rtx4090-650w-desktop", "llama3-70b-qlora")
    cards = [u for u in a.upgrades if u.kind == "gpu"]
    assert cards and cards[0].fit == "fits" and cards[0].gpus == 1
    assert find_gpu(cards[0].gpu_id).vram_bytes == 48 * 1024**3 and "unsloth" in cards[0].tweaks
    assert cards[0].price_usd is not None and cards[0].price_usd < 8565 / 2
