"""Estimates against PUBLISHED measurements. Every case names its source and the tolerance it is held to.

Run `python -m tests.core.test_estimate_accuracy` to print docs/accuracy.md from the same cases.
Memory rows here; speed rows are in tests/core/speed_cases.py. Cases marked `miss=True` are outside the
project's aim (peak VRAM within 10%);
they are kept, with the reason, and held to the looser bound written beside them so a regression
still fails.
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gpucheck.catalog import find_gpu, get_workload  # noqa: E402
from gpucheck.estimate import Target, estimate  # noqa: E402
from gpucheck.records import DataSpec, ModelSpec, TrainSpec, Workload  # noqa: E402
from tests.core.speed_cases import BERT_LARGE_EAGER as BERT_LARGE  # noqa: E402  (sequence classification)
from tests.core.speed_cases import LLAMA2_7B, LLAMA2_13B, PHI15  # noqa: E402
from tests.core.test_speed_accuracy import markdown as speed_markdown  # noqa: E402

GIB = 1024**3

# -- architectures (from the models' published config.json) ----------------------------------------
LLAMA31_8B = ModelSpec(arch="transformer", params=8030261248, layers=32, hidden=4096, heads=32, kv_heads=8,
                       ffn=14336, vocab=128256, name="meta-llama/Llama-3.1-8B")


LITGPT = ("Lightning-AI/litgpt tutorials/resource-tables.md (A100-SXM4-40GB, bf16-true, Alpaca; longest "
          "sample 1304 tokens for Llama 2, 1044 for phi-1.5; LoRA r=8 on query+value; 'Max GPU RAM' = "
          "torch.cuda.max_memory_allocated()/1e9)")
LITGPT_QLORA_NOTE = ("litgpt's bf16-true QLoRA quantizes every nn.Linear including lm_head; the estimator models PEFT's "
                     "layout (lm_head in 16-bit): the two are ≈ 0.7–0.9 GB apart at these sizes")
UNSLOTH_NOTE = ("Unsloth's table is one straight line (1,619 tokens per 4 GB): an extrapolation with two parameters; "
                "the GPU is ours, the source gives only the memory size")
UNSLOTH = ("unslothai/unsloth README, context-length table: Llama 3.1 8B, QLoRA r=32 on all linear layers, "
           "batch 1, 'Hugging Face + FA2' column = the longest sequence that fits in the GPU's memory")
HF_ANATOMY = ("Hugging Face Transformers docs, 'Model training anatomy': bert-large-uncased, batch 4, seq 512, "
              "fp32, AdamW, V100 16GB → 'GPU memory occupied: 14949 MB' (nvidia-smi/NVML, includes the CUDA "
              "context, which that page measured at 1343 MB)")
HF_SINGLE = ("Hugging Face Transformers docs, 'Efficient Training on a Single GPU' (v4.2x; bert-large-uncased "
             "sequence classification, seq 512, V100 16GB, HF Trainer; 'GPU memory occupied' from NVML, with the "
             "CUDA context the page measured at 1,343 MB)")


@dataclass(frozen=True)
class Case:
    id: str
    what: str
    source: str
    model: ModelSpec
    train: TrainSpec
    gpu: str
    gpus: int
    quantity: str  # allocated_gb | nvml_mib | capacity_gb | capacity_gib
    measured: float
    tolerance: float  # relative (0.10 = ±10%)
    miss: str = ""  # why this case is outside the aim (then `tolerance` is the looser regression bound)
    context_mib: float | None = None  # the CUDA context the source itself measured (replaces ours)
    calibration: str = ""  # the factor this row helped set ("" = validation: no factor looked at it)
    note: str = ""  # how the source was read, where that matters


def _lora(**k) -> TrainSpec:
    base = dict(method="lora", precision="bf16", optimizer="adamw", batch=1, seq_len=1304, lora_rank=8,
                lora_targets="qv")
    base.update(k)
    return TrainSpec(**base)


def _bert(**k) -> TrainSpec:
    base = dict(method="full", precision="fp32", optimizer="adamw", seq_len=512)
    base.update(k)
    return TrainSpec(**base)


def _unsloth(n: int) -> TrainSpec:
    return TrainSpec(method="qlora", precision="bf16", optimizer="adamw", batch=1, seq_len=n, lora_rank=32,
                     lora_targets="all-linear", grad_checkpointing=True)


# DreamBooth with the VAE and text-encoder outputs cached and those networks freed (as the source did)
SD15_UNET = dataclasses.replace(get_workload("sd15-dreambooth").model, aux_params=0.0, aux_forward_gflops=0.0)
SHIVAM = ("ShivamShrirao/diffusers examples/dreambooth README, flags table 'Tested on Tesla T4 GPU' (Stable "
          "Diffusion 1.x, 512 px, xformers, VAE/text-encoder outputs cached; 'GB VRAM usage' read as GiB). The "
          "author's launch.sh and Colab notebook train with --with_prior_preservation, which puts a class image "
          "beside every instance image: train_batch_size 1 = 2 images per step, so samples/s = 2 × it/s")


def _db(**k) -> TrainSpec:
    """A DreamBooth step with prior preservation: `batch` counts instance + class images (2 × train_batch_size)."""
    base = dict(method="full", precision="fp16", optimizer="adamw", batch=2, image_size=512)
    base.update(k)
    return TrainSpec(**base)


CASES: list[Case] = [
    # --- LoRA / QLoRA peak memory (litgpt) ------------------------------------------------------
    Case("litgpt-llama2-7b-lora-mb1", "Llama 2 7B LoRA, micro-batch 1", LITGPT, LLAMA2_7B, _lora(),
         "a100 40gb", 1, "allocated_gb", 21.30, 0.10),
    Case("litgpt-llama2-7b-lora-mb2", "Llama 2 7B LoRA, micro-batch 2", LITGPT, LLAMA2_7B, _lora(batch=2),
         "a100 40gb", 1, "allocated_gb", 29.07, 0.10),
    Case("litgpt-llama2-13b-lora", "Llama 2 13B LoRA, micro-batch 1", LITGPT, LLAMA2_13B, _lora(),
         "a100 40gb", 1, "allocated_gb", 38.12, 0.10),
    Case("litgpt-llama2-7b-qlora", "Llama 2 7B QLoRA (bnb nf4-dq), micro-batch 1", LITGPT, LLAMA2_7B,
         _lora(method="qlora"), "a100 40gb", 1, "allocated_gb", 13.84, 0.10, note=LITGPT_QLORA_NOTE),
    Case("litgpt-llama2-13b-qlora", "Llama 2 13B QLoRA (bnb nf4-dq), micro-batch 1", LITGPT, LLAMA2_13B,
         _lora(method="qlora"), "a100 40gb", 1, "allocated_gb", 22.55, 0.10, note=LITGPT_QLORA_NOTE),
    Case("litgpt-phi15-lora-mb1", "phi-1.5 LoRA, micro-batch 1", LITGPT, PHI15, _lora(seq_len=1044),
         "a100 40gb", 1, "allocated_gb", 4.82, 0.20,
         miss="phi-1.5 runs attention and MLP in parallel from one shared LayerNorm; the estimator "
              "models the sequential GPT block, which saves more activations"),
    Case("litgpt-phi15-lora-mb4", "phi-1.5 LoRA, micro-batch 4", LITGPT, PHI15, _lora(seq_len=1044, batch=4),
         "a100 40gb", 1, "allocated_gb", 10.68, 0.30,
         miss="as above; the per-sample activation error grows with the micro-batch"),
    Case("litgpt-phi15-qlora", "phi-1.5 QLoRA (bnb nf4-dq), micro-batch 1", LITGPT, PHI15,
         _lora(seq_len=1044, method="qlora"), "a100 40gb", 1, "allocated_gb", 3.72, 0.10, note=LITGPT_QLORA_NOTE),
    # --- QLoRA longest sequence per GPU size (Unsloth's Hugging Face baseline) ---------------------
    # Unsloth's column is one straight line (1,619 tokens per 4 GB at every step): two parameters, so only its
    # two ends are kept as rows; the source lists memory sizes, the GPUs below are ours (cards of that size)
    Case("unsloth-hf-qlora-16gb", "Llama 3.1 8B QLoRA fits 2,551 tokens in 16 GB", UNSLOTH, LLAMA31_8B,
         _unsloth(2551), "rtx 4060 ti 16gb", 1, "capacity_gib", 16.0, 0.10, note=UNSLOTH_NOTE),
    Case("unsloth-hf-qlora-80gb", "Llama 3.1 8B QLoRA fits 28,454 tokens in 80 GB", UNSLOTH, LLAMA31_8B,
         _unsloth(28454), "a100 80gb", 1, "capacity_gib", 80.0, 0.10, note=UNSLOTH_NOTE),
    # --- full fine-tuning of bert-large on a V100 (Hugging Face docs, one source, seven settings) ------
    Case("hf-anatomy-bert-large", "bert-large full fine-tune, fp32 AdamW, batch 4 × 512", HF_ANATOMY, BERT_LARGE,
         TrainSpec(method="full", precision="fp32", optimizer="adamw", batch=4, seq_len=512), "v100 16gb", 1,
         "nvml_mib", 14949, 0.15,
         miss="the page's CUDA context took 1,343 MB (CUDA 11 without lazy loading); the estimator assumes a "
              "modern 0.75 GB context. The same run with the page's own context is the next row"),
    Case("hf-bert-large-fp32-b4", "bert-large, fp32 AdamW, batch 4 (source's 1,343 MB context)", HF_SINGLE,
         BERT_LARGE, _bert(batch=4), "v100 16gb", 1, "nvml_mib", 14949, 0.10, context_mib=1343),
    Case("hf-bert-large-fp32-b1", "bert-large, fp32, batch 1 × 4 accumulation", HF_SINGLE, BERT_LARGE,
         _bert(batch=1, grad_accum=4), "v100 16gb", 1, "nvml_mib", 8681, 0.10, context_mib=1343),
    Case("hf-bert-large-fp32-b1-ckpt", "bert-large, fp32, batch 1, gradient checkpointing", HF_SINGLE, BERT_LARGE,
         _bert(batch=1, grad_accum=4, grad_checkpointing=True), "v100 16gb", 1, "nvml_mib", 6775, 0.10, context_mib=1343),
    Case("hf-bert-large-fp16-b4", "bert-large, fp16 mixed precision, batch 4", HF_SINGLE, BERT_LARGE,
         _bert(batch=4, precision="fp16"), "v100 16gb", 1, "nvml_mib", 13939, 0.10, context_mib=1343),
    Case("hf-bert-large-fp16-b1-ckpt", "bert-large, fp16, batch 1, checkpointing", HF_SINGLE, BERT_LARGE,
         _bert(batch=1, grad_accum=4, grad_checkpointing=True, precision="fp16"), "v100 16gb", 1, "nvml_mib", 7275,
         0.10, context_mib=1343),
    Case("hf-bert-large-8bit-b4", "bert-large, fp32, 8-bit Adam, batch 4", HF_SINGLE, BERT_LARGE,
         _bert(batch=4, optimizer="adamw-8bit"), "v100 16gb", 1, "nvml_mib", 13085, 0.15, context_mib=1343,
         miss="it inherits the −7.9% of the fp32 batch-4 row; the 8-bit saving itself matches (the source saves "
              "1,864 MB against the fp32 AdamW run, the estimate 1,917 MiB)"),
    Case("hf-bert-large-all-tweaks", "bert-large, fp16 + 8-bit Adam + batch 1 + checkpointing", HF_SINGLE,
         BERT_LARGE, _bert(batch=1, grad_accum=4, grad_checkpointing=True, precision="fp16",
                           optimizer="adamw-8bit"), "v100 16gb", 1, "nvml_mib", 5363, 0.10, context_mib=1343),
    # --- diffusion: DreamBooth full UNet fine-tune on a T4 (prior preservation: 2 images per step) ------
    # The T4 figures are 10⁹ bytes (the author's notebook prints the T4 as 15109 MiB: 15.79 cannot be GiB). These
    # rows set the sd15 workloads' activation_mib: calibration. The "17.7 GB" row is dropped (an fp32 run with the
    # VAE and text encoder on the GPU, before latent caching: the diffusers fork's commit "dreambooth SD training
    # running in just 17.7GB memory"), not the table's fp16 setting.
    Case("dreambooth-t4-fp16-ckpt", "SD 1.x DreamBooth, fp16, AdamW, gradient checkpointing", SHIVAM, SD15_UNET,
         _db(grad_checkpointing=True), "t4", 1, "capacity_gb", 15.79, 0.20, calibration="sd15 activation_mib",
         miss="read as 10⁹ bytes, as the source means them, the estimate is high: it keeps more U-Net activations "
              "than the source's xformers run"),
    Case("dreambooth-t4-fp16-8bit-ckpt", "SD 1.x DreamBooth, fp16, 8-bit AdamW, checkpointing", SHIVAM, SD15_UNET,
         _db(grad_checkpointing=True, optimizer="adamw-8bit"), "t4", 1, "capacity_gb", 9.92, 0.35,
         calibration="sd15 activation_mib",
         miss="as above, and the source's 8-bit AdamW rows save ≈ 5.9 GB against its AdamW rows, more than the 6 "
              "bytes per parameter the optimizer state itself accounts for (≈ 4.8 GB); cause unknown"),
]


# Speed rows live in tests/core/speed_cases.py (calibration vs validation, leave-one-source-out):
# tests/core/test_speed_accuracy.py. This file holds the memory rows.


def run_case(c: Case) -> tuple[float, float]:
    """(estimated value in the case's unit, error): relative error for memory, est/measured for speed."""
    w = Workload(id=c.id, title=c.what, family="llm", level=1, model=c.model, train=c.train,
                 data=DataSpec(samples=1000))
    e = estimate(w, Target.from_gpu(find_gpu(c.gpu), gpus=c.gpus))
    if c.quantity == "allocated_gb":
        value = e.allocated_bytes / 1e9
    elif c.quantity == "nvml_mib":
        value = e.peak_vram_bytes / 2**20
        if c.context_mib is not None:
            value += c.context_mib - e.context_bytes / 2**20
    elif c.quantity == "capacity_gb":
        value = e.peak_vram_bytes / 1e9
    elif c.quantity == "capacity_gib":
        value = e.peak_vram_bytes / GIB
    else:  # pragma: no cover
        raise ValueError(c.quantity)
    return value, value / c.measured - 1


def _within(c: Case, err: float) -> bool:
    return abs(err) <= c.tolerance


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_estimate_matches_published_measurement(case: Case) -> None:
    value, err = run_case(case)
    assert _within(case, err), (
        f"{case.id}: estimated {value:,.2f} vs measured {case.measured:,.2f} ({case.source})")


def test_most_cases_meet_the_aim() -> None:
    """Memory rows (speed has its own aims in tests/core/test_speed_accuracy.py): median error within 8% (issue 14's
    aim) and at least 70% of rows within 10%. Measured after the audit of issue 14 (T4 figures read as 10⁹ bytes,
    Unsloth's line kept as two rows): 14 of 20 within 10%; the misses are documented row by row."""
    errs = sorted(abs(run_case(c)[1]) for c in CASES)
    assert errs[len(errs) // 2] <= 0.08
    assert sum(e <= 0.10 for e in errs) >= 0.70 * len(CASES)


APXML = ("apxml.com, 'NVIDIA GPU vs macOS Metal GPU benchmark' (PyTorch, a 5-convolution CNN, batch 512 of 64×64 "
         "RGB images, fp32, 50 epochs): RTX 4060 Ti 16GB 6.48 s, MacBook Pro M3 Pro (18-core GPU) 13.35 s, MacBook Air "
         "M1 (7-core GPU) 37.38 s, Colab T4 8.45 s, Colab A100 1.36 s. The network is not published, so only the "
         "ratios between devices are compared (on gpucheck's ResNet-18 at 64×64, batch 512, fp32)")

# (faster GPU, slower GPU, measured speed ratio, scale on the slower GPU's estimate)
RELATIVE = [
    ("rtx 4060 ti 16gb", "m3 pro 18gb", 13.35 / 6.48, 1.0),  # the source's MacBook Pro: 18-core GPU, 18 GB
    ("rtx 4060 ti 16gb", "apple m1 8gb", 37.38 / 6.48, 7 / 8),  # the Air's 7-core GPU vs the catalog's 8-core M1
    ("a100 40gb", "rtx 4060 ti 16gb", 6.48 / 1.36, 1.0),
]


def relative_ratio(fast: str, slow: str, scale: float) -> float:
    w = get_workload("cifar10-resnet18")
    est = [estimate(w, Target.from_gpu(find_gpu(g)), dataclasses.replace(w.train, precision="fp32", batch=512,
                                                                          image_size=64)).samples_per_second
           for g in (fast, slow)]
    return est[0] / (est[1] * scale)


@pytest.mark.parametrize("fast, slow, measured, scale", RELATIVE, ids=[f"{a}-vs-{b}" for a, b, _, _ in RELATIVE])
def test_relative_speed_across_devices_including_apple(fast, slow, measured, scale) -> None:
    """Apple's MPS factor (resources/factors.toml utilization.backend_factor.metal) against a published
    side-by-side run."""
    ratio = relative_ratio(fast, slow, scale)
    assert 1 / 1.5 <= ratio / measured <= 1.5, (fast, slow, ratio, measured, APXML)


def test_multi_gpu_scaling_is_sublinear_and_nvlink_beats_pcie() -> None:
    """DeepLearningExamples: 8× A100 ran ResNet-50 at 6.7–7.7× one GPU, never 8×."""
    w = get_workload("imagenet-resnet50")
    one = estimate(w, Target.from_gpu(find_gpu("a100 80gb"), gpus=1)).samples_per_second
    eight = estimate(w, Target.from_gpu(find_gpu("a100 80gb"), gpus=8)).samples_per_second
    assert 6.0 * one < eight < 8.0 * one
    big = get_workload("gpt2-124m-pretrain")
    nvlink = estimate(big, Target.from_gpu(find_gpu("a100 80gb"), gpus=8))
    pcie = estimate(big, Target.from_gpu(find_gpu("a100 80gb pcie"), gpus=8))
    assert nvlink.scaling_efficiency >= pcie.scaling_efficiency


def memory_errors(role: str) -> list[float]:
    """|estimate / measured − 1| of the memory rows, `validation` (no factor set on them) or `calibration`."""
    out = []
    for c in CASES:
        if bool(c.calibration) != (role == "calibration"):
            continue
        out.append(abs(run_case(c)[1]))
    return out


def memory_summary() -> list[str]:
    val, cal = memory_errors("validation"), memory_errors("calibration")
    med, worst = statistics.median(val), max(val)
    lines = [f"- Memory, validation rows ({len(val)}): median error {med * 100:.1f}%, worst {worst * 100:.1f}% "
             f"(issue 14 aims: median ≤ 8% {'met' if med <= 0.08 else 'not met'}, worst ≤ 25% "
             f"{'met' if worst <= 0.25 else 'not met'})."]
    if cal:
        lines.append(f"- Memory, calibration rows ({len(cal)}): median {statistics.median(cal) * 100:.1f}%, worst "
                     f"{max(cal) * 100:.1f}%.")
    return lines


def test_memory_validation_errors_do_not_regress() -> None:
    """Measured today (docs/accuracy.md): validation median 3.9%, worst 24.2% (phi-1.5 LoRA micro-batch 4)."""
    val = memory_errors("validation")
    assert statistics.median(val) <= 0.08 and max(val) <= 0.25


def markdown() -> str:
    lines = [
        "# Accuracy of the estimates",
        "",
        "Every row compares a gpucheck estimate with a **published measurement**; the same cases run as",
        "tests (memory: `tests/core/test_estimate_accuracy.py`; speed: `tests/core/test_speed_accuracy.py` on the",
        "rows of `tests/core/speed_cases.py`). Memory aim: peak within 10%; rows marked *miss* are outside it and",
        "say why; they are still tested against the looser bound shown, so a regression fails. Speed is in its own",
        "section below, with calibration and validation rows apart. Regenerate this file with",
        "`python -m tests.core.test_estimate_accuracy > docs/accuracy.md`.",
        "",
        "## Memory",
        "",
        "Memory error = estimate / measured − 1.",
        "",
        "| case | hardware | measured | estimate | error | held to | | role |",
        "|---|---|---|---|---|---|---|---|",
    ]
    units = {"allocated_gb": "GB allocated", "nvml_mib": "MiB (NVML)", "capacity_gib": "GiB fits",
             "capacity_gb": "GB (10⁹ B) fits"}
    hits = 0
    for c in CASES:
        value, err = run_case(c)
        ok = _within(c, err)
        aim = abs(err) <= 0.10
        hits += aim
        e = f"{err * 100:+.1f}%"
        held = f"±{c.tolerance * 100:.0f}%"
        status = "miss" if not aim else ("ok" if ok else "FAIL")
        hw = f"{c.gpus}× {find_gpu(c.gpu).name}" if c.gpus > 1 else find_gpu(c.gpu).name
        role = f"calibration ({c.calibration})" if c.calibration else "validation"
        lines.append(f"| {c.what} | {hw} | {c.measured:,.2f} {units[c.quantity]} | {value:,.2f} | {e} | {held} "
                     f"| {status} | {role} |")
    lines += ["", f"{hits} of {len(CASES)} cases meet the aim.", ""] + memory_summary() + [
              "", "## Relative speed across devices", "",
              APXML + ".", "", "| faster | slower | measured ratio | estimated ratio | estimate / measured |",
              "|---|---|---|---|---|"]
    for fast, slow, measured, scale in RELATIVE:
        ratio = relative_ratio(fast, slow, scale)
        lines.append(f"| {find_gpu(fast).name} | {find_gpu(slow).name}{' (7-core)' if scale != 1 else ''} | "
                     f"{measured:.2f}× | {ratio:.2f}× | {ratio / measured:.2f} |")
    lines += ["", "The Apple rows set `utilization.backend_factor.metal`: they are calibration, not validation.", "",
              speed_markdown(), "## Sources (memory)", ""]
    seen = []
    for c in CASES:
        if c.source not in seen:
            seen.append(c.source)
    lines += [f"- {s}" for s in seen]
    lines += ["", "## Misses and what they mean", ""]
    for c in CASES:
        if c.miss:
            lines.append(f"- **{c.what}**: {c.miss}.")
    notes = list(dict.fromkeys(c.note for c in CASES if c.note))
    lines += ["", "## How rows were read", ""] + [f"- {n}." for n in notes]
    lines += ["", "## Published figures not usable as tests", "",
              "- ShivamShrirao/diffusers DreamBooth 'SD 1.x, fp16, AdamW — 17.7 GB' (T4 table): the figure comes from "
              "the fork's commit 'dreambooth SD training running in just 17.7GB memory', an fp32 run with the VAE and "
              "text encoder on the GPU before latent caching existed, not the table's setting. Dropped.",
              "- EveryDream2trainer issue #105 (A100 1.41 it/s, RTX A6000 1.12 it/s): the source states neither the "
              "batch size nor U-Net-only training. Dropped. bmaltais/kohya_ss issue #1288's RTX 4090 '1.08 it/s': "
              "not found in the cited thread. Dropped.",
              "- torchtune README (Llama 3.1 8B, batch 2 × 2048, torch.compile): LoRA 3,083 tokens/s on an RTX 4090 "
              "and 4,699 on an RTX A6000. At 2 × forward FLOPs per token (LoRA needs input gradients through the "
              "frozen weights) the A6000 figure would be ≈ 100% of its 155 TFLOPS dense BF16 peak, so the metric "
              "cannot be plain training tokens per second (or the recipe skips work the estimator counts). gpucheck "
              "estimates 0.55–0.9× of the three figures without activation checkpointing, 0.4–0.6× with it. Not used.",
              "- Hugging Face PEFT README (A100 80GB, ought/raft twitter_complaints): T0_3B full 47.14 GB / LoRA 14.4 GB, "
              "bloomz-7b1 LoRA 32 GB, mt0-xxl LoRA 56 GB. The table does not state batch size, sequence length or dtype, "
              "and T0/mt0 are T5 encoder-decoders; the bloomz-7b1 figure is consistent with an fp32 base (7.07B × 4 B "
              "= 28.3 GB plus activations), but without the settings it cannot hold an estimate to 10%. Not used.",
              "- Small jobs (MNIST, nanoGPT Shakespeare-char: 'about 3 minutes on one A100') are dominated by "
              "per-step overhead and evaluation passes; the estimator's per-step floor (resources/factors.toml, "
              "`step_overhead_s`) is a judgement, not fitted to a measurement.",
              "", "## How the numbers are derived", "",
              "See the module docstrings of `gpucheck/estimate/memory.py` and `gpucheck/estimate/compute.py`, and "
              "every factor with its source in `resources/factors.toml`. Speed factors set on a published row are "
              "listed there as calibration, and those rows are marked calibration in the speed section; the "
              "Unsloth, Hugging Face and most litgpt memory rows use no fitted factor.", ""]
    return "\n".join(lines)


# Sections other tests write into docs/accuracy.md (fit verdicts: tests/core/test_fit_verdicts.py; trials): kept
# as they are when this file regenerates the rest
KEPT_SECTIONS = ("## Fit verdicts", "## Trial")


def kept_tail(path: Path = ROOT / "docs" / "accuracy.md") -> str:
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    starts = [i for i in (text.find("\n" + h) for h in KEPT_SECTIONS) if i >= 0]
    return text[min(starts) + 1:] if starts else ""


if __name__ == "__main__":
    tail = kept_tail()
    sys.stdout.write(markdown() + ("\n" + tail if tail else ""))
