"""Measure the bytes a causal-LM loss allocates at its peak: the Hugging Face loss over whole logits against TRL's
default SFT loss since TRL 1.7 (`loss_type="chunked_nll"`, huggingface/trl b58947c, June 2026).

Usage: python benchmarks/measure_sft_loss_memory.py PATH/TO/huggingface-trl-git > benchmarks/data/sft-loss-memory.json
(any Python with PyTorch; TRL's `_chunk` and `_chunked_cross_entropy_loss` are read with `git show` at v1.9.0 and run as
published, with `maybe_gather_lm_head_ctx` as the null context it is without DeepSpeed ZeRO-3).

The two losses run on CPU under bf16 autocast, as the Trainer runs a bf16=True step: hidden states (a leaf that needs a
gradient, as the last decoder layer's output does) times a frozen lm_head (a LoRA / QLoRA job's), with its backward
down to the hidden states. `full` is transformers' ForCausalLMLoss path: lm_head, `logits.float()`, cross-entropy.
Peak = the most bytes live at once among the storages the operators allocate (the same counter as
count_yolo_loss_memory.py: inputs that exist before are not counted), as torch.cuda.max_memory_allocated would see
them above the step's other tensors. Each figure is also given per vocabulary entry × hidden unit (the lm_head copies)
and per token × vocabulary entry (the logits), for the two terms the estimate would need.
"""

from __future__ import annotations

import ast
import contextlib
import json
import subprocess
import sys

import torch
import torch.nn.functional as F
from count_yolo_loss_memory import PeakBytes  # the same live-bytes counter

TRL_V190 = "35def3ee000a87f6839e66f4b7749b06274ed1b3"  # v1.9.0 (2026-07-21)
CHUNK = 256  # sft_trainer.py _CHUNKED_LM_HEAD_CHUNK_SIZE at v1.9.0
VOCAB = 128256  # Llama 3's
HIDDEN = 1024  # small, so that CPU RAM holds the copies; both terms scale with it and the tokens as stated
TOKENS = 2048


def trl_namespace(repo: str) -> dict:
    src = subprocess.run(["git", "-C", repo, "show", f"{TRL_V190}:trl/trainer/sft_trainer.py"], capture_output=True,
                         text=True, check=True).stdout
    nodes = [n for n in ast.parse(src).body if isinstance(n, ast.FunctionDef)
             and n.name in ("_chunk", "_chunked_cross_entropy_loss")]
    ns: dict = {"torch": torch, "F": F, "maybe_gather_lm_head_ctx": lambda *_: contextlib.nullcontext()}
    exec("\n\n".join(ast.get_source_segment(src, n) for n in nodes), ns)
    return ns


def hf_causal_lm_loss(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """transformers 5's loss_utils.py ForCausalLMLoss as the Trainer reaches it: the fp32 copy is the function's own
    (freed on return unless the cross-entropy keeps it), the labels are shifted, not the logits."""
    logits = logits.float()
    shifted = F.pad(labels, (0, 1), value=-100)[..., 1:].contiguous()
    return F.cross_entropy(logits.view(-1, VOCAB), shifted.view(-1), ignore_index=-100)


def run(loss: str, ns: dict, batch: int) -> dict:
    torch.manual_seed(0)
    hidden = torch.randn(batch, TOKENS, HIDDEN, dtype=torch.bfloat16, requires_grad=True)
    weight = torch.randn(VOCAB, HIDDEN, dtype=torch.bfloat16) * 0.02  # frozen, 16-bit: a LoRA job's lm_head
    labels = torch.randint(0, VOCAB, (batch, TOKENS))
    with PeakBytes() as counter, torch.autocast("cpu", dtype=torch.bfloat16):
        if loss == "full":
            logits = F.linear(hidden, weight)  # the model's output, which the caller holds through backward
            value = hf_causal_lm_loss(logits, labels)
        else:
            value = ns["_chunked_cross_entropy_loss"](hidden, weight, CHUNK, labels=labels)[0]
        value.backward()
    tokens = batch * (TOKENS - 1)
    return {"loss": loss, "batch": batch, "tokens": tokens, "peak_bytes": counter.peak,
            "per_vocab_hidden": counter.peak / (VOCAB * HIDDEN), "per_token_vocab": counter.peak / (tokens * VOCAB)}


def main() -> None:
    ns = trl_namespace(sys.argv[1])
    rows = [run(loss, ns, b) for b in (1, 2) for loss in ("full", "trl_chunked_nll")]
    json.dump({"trl_commit": TRL_V190, "chunk_tokens": CHUNK, "vocab": VOCAB, "hidden": HIDDEN,
               "torch": torch.__version__, "rows": rows}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
