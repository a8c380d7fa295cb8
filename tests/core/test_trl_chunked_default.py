"""TRL's chunked loss as the packed jobs' own: TRL's SFTTrainer computes its default loss since TRL 1.7
(`loss_type="chunked_nll"`, trl/trainer/sft_config.py at v1.9.0: 'When left unset, it defaults to "chunked_nll"') over
256-token chunks, each under torch.utils.checkpoint, whose `_chunk` computes `h.float() @ w.float().t()`: every chunk
copies a 16-bit output layer to fp32 and, under autocast, back to 16 bits — once in forward and once more when backward
reruns it. The built-in jobs whose recipe is TRL's SFTConfig are priced with it, memory and time; a published row keeps
its stack's loss."""

from __future__ import annotations

import dataclasses
import math

import pytest

from gpucheck import estimate as E
from gpucheck.advise import advise
from gpucheck.advise.facts import facts_for_spec
from gpucheck.advise.recipes import snippet
from gpucheck.catalog import find_gpu, get_workload
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.logits import loss_kind, trl_chunk_traffic
from gpucheck.evidence import load_evidence

PACKED_JOBS = ("qwen2.5-1.5b-lora", "gemma3-4b-qlora", "llama3-8b-qlora", "llama3-8b-lora", "qwen2.5-7b-qlora",
               "llama3-8b-full", "llama3-70b-qlora")


def _with(job: str, **train):
    w = get_workload(job)
    return dataclasses.replace(w, train=dataclasses.replace(w.train, **train))


@pytest.mark.parametrize("job", PACKED_JOBS)
def test_a_packed_job_runs_trls_chunked_loss_and_its_recipe_says_so(job):
    w = get_workload(job)
    assert loss_kind(w.train, load_factors()) == "trl_chunked"
    code = snippet({"per_device_train_batch_size": w.train.batch}, w.train, w, facts_for_spec(find_gpu("rtx 4090")))
    assert "SFTConfig(" in code and 'loss_type="chunked_nll",' in code


def test_the_copies_a_step_moves_are_counted_from_trls_code():
    """Qwen2.5-1.5B LoRA, 2 rows of 1,024 tokens: 8 chunks, each copying the 151,936 × 1,536 output layer bf16 → fp32
    (2 + 4 B) and fp32 → bf16 (4 + 2 B), twice; the rerun log-softmax over the logits once more; and the rerun matmul,
    2 FLOPs per weight and token."""
    w = get_workload("qwen2.5-1.5b-lora")
    f = load_factors()
    head = 151936 * 1536
    tokens = w.train.batch * w.train.seq_len
    assert (w.train.batch, w.train.seq_len) == (2, 1024)
    moved, flops = trl_chunk_traffic(w.model, w.train, f)
    rerun = f["speed"]["elementwise"]["logit_elements"] * 151936 * tokens * 4
    assert moved == pytest.approx(math.ceil(tokens / 256) * 2 * 12 * head + rerun)
    assert flops == pytest.approx(2 * head * w.train.seq_len)
    assert trl_chunk_traffic(w.model, dataclasses.replace(w.train, cross_entropy="full"), f) == (0.0, 0.0)


def test_on_a_small_model_with_a_large_vocabulary_the_loss_saves_memory_and_costs_time():
    """The Hugging Face loss keeps 2 rows × 1,024 tokens × 151,936 logits in bf16 and three fp32 copies; TRL's keeps two
    copies of the output layer and one chunk. On an RTX 4090 the copies take a quarter of the step."""
    t = E.Target.from_gpu(find_gpu("rtx 4090"))
    trl = E.estimate(get_workload("qwen2.5-1.5b-lora"), t)
    hf = E.estimate(_with("qwen2.5-1.5b-lora", cross_entropy="full"), t)
    assert hf.peak_vram_bytes - trl.peak_vram_bytes > 2.5 * 2**30
    assert 1.2 < trl.step_seconds / hf.step_seconds < 1.5


def test_a_card_that_fits_either_way_is_offered_the_loss_without_copies():
    """Where Liger runs it is offered (less memory, no copies); a model type Liger does not patch gets TRL's plain loss
    (loss_type="nll"), where the run is at least a fifth shorter."""
    t = E.Target.from_gpu(find_gpu("rtx 4090"))
    a = advise(None, get_workload("qwen2.5-1.5b-lora"), t)
    assert a.verdict == "runs" and not a.tweaks
    (liger,) = [x for x in a.speed_tweaks if x.id == "fast_loss"]
    assert liger.settings == {"use_liger_kernel": True} and liger.total_hours < 0.8 * a.final_total_hours
    w = get_workload("qwen2.5-1.5b-lora")
    unpatched = dataclasses.replace(w, model=dataclasses.replace(w.model, model_type="falcon"))
    a = advise(None, unpatched, t)
    (plain,) = [x for x in a.speed_tweaks if x.id == "fast_loss"]
    assert plain.settings == {"loss_type": "nll"} and "256" in plain.cost


def test_another_stack_runs_its_own_loss():
    # Unsloth's kernels and a compiled model bring their own loss: the job's TRL loss does not follow the stack
    f = load_factors()
    w = get_workload("llama3-8b-qlora")
    for stack in ("unsloth", "fused"):
        assert loss_kind(dataclasses.replace(w.train, stack=stack), f) == f["logits"]["stack_default"][stack]
    t = E.Target.from_gpu(find_gpu("rtx 4060"))
    assert E.estimate(_with("llama3-8b-qlora", stack="unsloth"), t).peak_vram_bytes == \
        E.estimate(_with("llama3-8b-qlora", stack="unsloth", cross_entropy=""), t).peak_vram_bytes


def test_published_rows_that_start_from_a_packed_job_keep_their_stack_s_loss():
    rows = [r for r in load_evidence() if r.workload in PACKED_JOBS]
    assert rows and all(r.train.cross_entropy != "trl_chunked" for r in rows)
