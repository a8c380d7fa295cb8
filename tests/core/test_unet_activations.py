"""What a Stable Diffusion U-Net keeps for backward, as counted on diffusers' own code, with and without gradient
checkpointing — and what that means for a user with an 8 GB card.

benchmarks/count_unet_activations.py ran diffusers' UNet2DConditionModel (SD 1.5, SD 2.0-base, SDXL base, from their
unet/config.json) in the CUDA fp16 autocast data flow and counted the tensors autograd saves, one per storage
(benchmarks/data/unet-activations.json). diffusers checkpoints every ResNet and transformer block, so a checkpointed
U-Net keeps 0.09–0.22 of its activations; until December 2026 the catalog kept 0.35 of a 13,000 MiB SDXL figure that
had no source, and called SDXL LoRA "does not fit" on the 8 GB cards kohya's own documentation trains it on.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from gpucheck import estimate as E
from gpucheck.advise import advise
from gpucheck.advise.model import Alternative
from gpucheck.advise.present import format_advice
from gpucheck.catalog import find_gpu, get_workload
from gpucheck.estimate.activations import image_activation_bytes
from gpucheck.estimate.factors import load_factors

COUNT = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "unet-activations.json"
MIB = 2**20
# catalog job → the count it takes (full fine-tune or LoRA over a frozen base)
JOBS = {"sd15-lora": "sd15/lora", "sd15-dreambooth": "sd15/full", "sdxl-lora": "sdxl/lora"}


def _activation_mib(job: str, image_size: int, checkpointing: bool, batch: int = 1) -> float:
    w = get_workload(job)
    t = dataclasses.replace(w.train, image_size=image_size, grad_checkpointing=checkpointing, batch=batch,
                            precision="fp16")
    return image_activation_bytes(w.model, t, load_factors()) / MIB


@pytest.mark.parametrize("job", sorted(JOBS))
def test_the_unet_jobs_keep_what_diffusers_saves(job: str) -> None:
    """At the reference size the estimate's activations are the count, with and without checkpointing; at half the
    size they follow the pixels, as the count at half the size does (within 3 %)."""
    run = json.loads(COUNT.read_text())["runs"][JOBS[job]]
    ref = run["ref_image_size"]
    for px in (ref, ref // 2):
        counted = run[f"at_{px}"]
        tol = 0.005 if px == ref else 0.03
        assert _activation_mib(job, px, False) == pytest.approx(counted["saved_mib"], rel=tol)
        assert _activation_mib(job, px, True) == pytest.approx(counted["checkpointed"]["total_mib"], rel=tol)
    # checkpointing every block keeps a small share: the boundaries and one block recomputed
    assert _activation_mib(job, ref, True) < 0.25 * _activation_mib(job, ref, False)


@pytest.mark.parametrize("job", sorted(JOBS))
def test_eager_attention_scores_are_the_counted_shapes(job: str) -> None:
    """With eager attention (no xformers / SDPA) a U-Net keeps every self-attention's scores: the catalog's element
    counts are the count's (heads × latent tokens² over each Attention call), and they grow with the pixels squared."""
    w = get_workload(job)
    run = json.loads(COUNT.read_text())["runs"][JOBS[job]]
    ref = run["ref_image_size"]
    eager = run[f"at_{ref}"]["eager_attention"]
    assert w.model.attn_score_elements == eager["self_score_elements"]
    assert w.model.attn_score_elements_max == eager["self_score_elements_largest_layer"]
    half = run[f"at_{ref // 2}"]["eager_attention"]
    assert half["self_score_elements"] * 16 == eager["self_score_elements"]


def test_a_2023_dreambooth_run_with_plain_attention_needs_the_scores() -> None:
    """PEFT's README (January 2023, one A100 80GB, SD v1-4 DreamBooth with the text encoder, fp32, 2 images of 512 px
    per step, diffusers' plain attention of that time): 27.5 / 15.5 / 8.12 GB peak allocated for full, LoRA, and LoRA
    with checkpointing. The estimate with eager attention (and the VAE in fp32, as the script's weight_dtype keeps it)
    is never under and at most 11 % over each; without the scores it would be 2–7 GB short."""
    from gpucheck.evidence import load_evidence
    from tests.core.accuracy import memory_error
    from tests.core.accuracy import run as run_row

    rows = [r for r in load_evidence() if r.id.startswith("peft-sd14-dreambooth-")]
    assert len(rows) == 3
    for r in rows:
        assert r.model.eager_attention and r.model.arch == "unet"
        assert -0.02 < memory_error(r) < 0.11, r.id
        fused = dataclasses.replace(r, model=dataclasses.replace(r.model, eager_attention=False))
        short = r.measured.bytes - run_row(fused).allocated_bytes
        assert 1.5 * 2**30 < short < 8 * 2**30, r.id


def test_sd15_dreambooth_grows_per_image_as_the_published_t4_table() -> None:
    """ShivamShrirao/diffusers' DreamBooth README (Tesla T4, xformers, fp16, no checkpointing): memory grows 2.5 GB
    per step of train_batch_size, which holds an instance and a class image — 1,192 MiB per image. The counted
    activations per image are within 5 % of that."""
    per_image = _activation_mib("sd15-dreambooth", 512, False, batch=3) - _activation_mib("sd15-dreambooth", 512,
                                                                                           False, batch=2)
    assert per_image == pytest.approx(2.5e9 / 2 / MIB, rel=0.05)


def _on(job: str, gpu: str, **train):
    w = get_workload(job)
    w = dataclasses.replace(w, train=dataclasses.replace(w.train, **train)) if train else w
    t = E.Target.from_gpu(find_gpu(gpu), 1)
    e = E.estimate(w, t)
    return e, advise(None, w, t, e)


def test_sdxl_lora_on_8gb_with_kohyas_recipe_is_not_refused() -> None:
    """kohya-ss/sd-scripts docs/train_SDXL-en.md: 'The LoRA training can be done with 8GB GPU memory (10GB
    recommended)', training the U-Net only with gradient checkpointing, cached latents and text-encoder outputs, an
    8-bit optimizer, dim 4 to 8, batch 1 at 1024 px. On an 8 GB card that recipe runs or may run (the job as
    configured gets there by the advice's own steps: test_fit_verdicts' published cases)."""
    e, _ = _on("sdxl-lora", "rtx 3070", cache_embeddings=True, grad_checkpointing=True, optimizer="adamw-8bit")
    assert e.vram_fit in ("fits", "tight")
    assert e.breakdown.activations_bytes < 1.0 * 2**30  # 1024 px, batch 1, every block checkpointed
    # without checkpointing SDXL at 1024 px keeps ~7 GiB of activations: it does not fit 8 GB
    e, _ = _on("sdxl-lora", "rtx 3070", cache_embeddings=True, grad_checkpointing=False, optimizer="adamw-8bit")
    assert e.vram_fit == "does_not_fit"


def test_an_alternative_that_may_fit_is_not_called_does_not_fit() -> None:
    """A change tried instead whose range spans the usable memory says it may fit, with its need; one that does not
    fit says so."""
    tight = Alternative(workload_id="sdxl-lora", title="Train at 512×512 pixels", tweaks=(), settings={}, snippet="",
                        peak_vram_bytes=7 * 2**30, total_hours=None, kind="smaller_images", fits=False, tight=True)
    over = dataclasses.replace(tight, tight=False, peak_vram_bytes=10 * 2**30)
    _, adv = _on("llama3-70b-qlora", "rtx 3070")
    text = format_advice(dataclasses.replace(adv, alternatives=(tight, over), alternative=None))
    assert "may fit but without room to spare: Train at 512×512 pixels (needs about 7.0 GiB" in text
    assert "does not fit either: Train at 512×512 pixels (needs 10.0 GiB" in text
    assert "does not fit either: Train at 512×512 pixels (needs 7.0" not in text


# -- the memory band decides "may run out of memory" ------------------------------------------------------------


def test_yolov8s_at_batch_16_runs_on_an_8gb_laptop_gpu_as_configured() -> None:
    """MMYOLO's model zoo: YOLOv8-s at 640 px, batch 16 per GPU, AMP, peaks at 4.0 GB allocated. On an 8 GB laptop
    GPU that runs as configured: the band that decides "may run out of memory" is the same as on a desktop card of
    the vendor (memory does not depend on a laptop's clock), and it is not widened by YOLOv5's reserved figure, whose
    extra 18 GB are cuDNN benchmark workspaces the allocator frees before it would fail."""
    from gpucheck.estimate import bands

    e, adv = _on("yolov8s-finetune", "rtx 4060 laptop")
    assert e.train.batch == 16 and e.train.image_size == 640
    assert e.vram_fit == "fits" and adv.verdict == "runs" and not adv.tweaks
    laptop = E.Target.from_gpu(find_gpu("rtx 4060 laptop"), 1)
    assert bands.memory_vendor_of(laptop) == "nvidia" and bands.vendor_of(laptop) == "laptop"


def test_rows_with_a_releasable_reserve_or_a_wrong_exact_part_stay_out_of_the_band() -> None:
    """The ultralytics YOLOv5 rows (26 GB reserved, 8.3 GB of tensors) are compared as published but set no band;
    nor does a row whose weights, gradients and optimizer state alone exceed its figure (a multiplier below 0)."""
    from gpucheck.evidence import load_evidence
    from tests.core import accuracy as A
    from tests.core.accuracy import Result, memory_bands

    rows = {r.id: r for r in load_evidence()}
    yolo = [rows[f"ultralytics-ddp-yolov5l-{n}xa100-mem"] for n in (1, 2, 4, 8)]
    assert all(r.measured.releasable_reserve for r in yolo)
    mm = [r for r in rows.values() if r.id.startswith("mmyolo-") and r.id.endswith("-mem")][:10]
    assert len(mm) == 10 == A.MIN_ROWS_FOR_BAND
    res = [Result(row=r, shipped=0.0, loso=0.0, multiplier=3.2) for r in yolo]
    res += [Result(row=r, shipped=0.0, loso=0.0, multiplier=1.1) for r in mm]
    assert memory_bands(res)[("vision", "nvidia")] == pytest.approx((1.0, 1.1), abs=0.011)  # rounded outward
    res[-1] = dataclasses.replace(res[-1], multiplier=-0.5)
    assert ("vision", "nvidia") not in memory_bands(res)  # nine rows left: too few for a band


def test_an_fp32_lora_keeps_its_text_encoder_and_vae_in_fp32() -> None:
    """SWIFT's SCEdit page (ModelScope, December 2023): SD v1.5 LoRA r64 in fp32 at 512 px, latents encoded every step,
    peak allocated 26,300 MiB at batch 10 and 69,554 MiB at batch 30. The model code keeps everything in fp32
    ('self.weight_dtype = torch.float32'), the 207 M helper parameters included: counted at 16 bits they would put
    the estimate 0.39 GiB lower (2 % at batch 10). Both rows are within 1 %."""
    from gpucheck.evidence import load_evidence
    from tests.core.accuracy import memory_error

    rows = {r.id: r for r in load_evidence() if r.id.startswith("swift-scedit-sd15-lora-r64-")}
    for b in ("b10", "b30"):
        r = rows[f"swift-scedit-sd15-lora-r64-{b}-mem"]
        assert r.train.precision == "fp32" and not r.train.cache_embeddings and r.model.aux_params > 2e8
        assert abs(memory_error(r)) < 0.01, r.id
