"""The language-model loss and the caching allocator: bytes per token × vocabulary, by the code that runs it.

A causal-LM step turns b·s hidden states into b·s × vocab logits and a cross-entropy over them. What stays in
memory at the step's peak depends on how the stack writes the loss (resources/factors.toml [logits], each kind
with the code it was counted from):

- `full` — the Hugging Face stack (transformers loss_utils.py `ForCausalLMLoss`: `logits = logits.float()`,
  then `nn.functional.cross_entropy`) and plain `F.cross_entropy(logits, …)` loops: the 16-bit logits the
  model returns (held by the caller's output through backward, or left cached and free by the Trainer), the
  fp32 copy, log-softmax's saved fp32 output, and in backward nll_loss's zeroed fp32 gradient plus
  log-softmax's fp32 gradient while the saved output is still alive.
- `chunked` — litgpt's `chunked_cross_entropy` over `lm_head_chunk_size=128` chunks: the chunks of 16-bit
  logits stay in the training loop's list, each chunk's log-softmax output is saved in the logits' dtype;
  one chunk's gradients are transient.
- `full_fp32_output` — Hugging Face transformers 4.36–4.45, whose LlamaForCausalLM (and Mistral's, Qwen2's,
  Gemma's) forward runs `logits = logits.float()` right after `self.lm_head(...)`, whatever the training precision:
  the output the caller keeps through backward is the fp32 tensor, and the loss's copies are fp32 even in pure
  bf16 — 4 B held + 3 fp32 copies per logit.
- `fused` — a fused or compiled loss (Unsloth's Triton cross-entropy, llm.c's fused classifier, a
  torch.compile'd loss): the logits and one gradient of the same dtype; the softmax lives in registers.
- `trl_chunked` — TRL's default SFT loss since TRL 1.7 (`loss_type="chunked_nll"`): the output layer and the loss run
  over checkpointed chunks of 256 tokens, so no b·s × vocab tensor is kept, but each chunk copies a 16-bit output
  layer to fp32 and, under autocast, back to 16 bits (measured: benchmarks/data/sft-loss-memory.json).
- `fused_linear` — a fused linear cross-entropy (Liger Kernel's LigerFusedLinearCrossEntropy, which
  `use_liger_kernel=True` puts in place of the model's lm_head + loss): the output layer, the loss and their
  gradients run chunk by chunk over the tokens, so no b·s × vocab tensor exists; one chunk of logits (about b·s ×
  hidden elements: Liger sizes the chunk so) and the hidden states' gradient are alive at once.

Under fp16/bf16 autocast the `full` kind's copies are 4 bytes (Hugging Face upcasts the logits itself; for a plain
F.cross_entropy on 16-bit logits autocast casts nll_loss's input to fp32 while log_softmax keeps the dtype
cross_entropy passes it — aten/src/ATen/autocast_mode.cpp — so the count is an upper one there), and in fp32
training; pure bf16 without autocast keeps them in bf16 where the loss does not upcast.

The caching allocator (PyTorch docs 'CUDA semantics → Memory management'; c10/cuda/CUDACachingAllocator.cpp:
large requests take the smallest cached free block that fits and split it, a segment is mapped only when none fits,
and segments go back to the driver only when cudaMalloc fails or on torch.cuda.empty_cache()) reserves more than it
allocates: a small share of everything (block rounding, the small pool), plus — when the steps change shape — the
loss's vocabulary-wide blocks of earlier, shorter steps. A step longer than every earlier one finds each cached fp32
block of the loss a little too small and maps its own (its 16-bit tensors fit in the older fp32 blocks); the older
ones stay reserved. benchmarks/simulate_caching_allocator.py replays ms-swift's loss chain through that allocator:
one such generation is 8 B per token × vocabulary entry at batch 1, the layers' activations move the reserve by
< 1.5 B, and a run strands one generation per new longest step — a property of its data order (for a shuffled run,
the records of its lengths: about ln(steps) + 0.58 of them), none when its longest step comes first
(`longest_first`). The need (the fit verdict) counts `allocator_transient_blocks` of the step's largest transient
block; what the reserve shows on a card with room to spare (`cached_reserve_bytes`) counts the generations a shuffled
run of N steps is expected to leave: H_N − 1 of them (the record steps of N independent lengths), each two fp32 blocks
at about 0.7 of the longest step's size — cached, not needed: a failed cudaMalloc frees them and retries.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from gpucheck.choices import LOSS_KINDS
from gpucheck.estimate.autocast import MIXED
from gpucheck.estimate.factors import seq_len_of
from gpucheck.estimate.seq2seq import is_seq2seq, target_tokens
from gpucheck.records import PURE_16BIT, ModelSpec, TrainSpec


def loss_kind(t: TrainSpec, f: Mapping[str, Any]) -> str:
    """How this job's loss is written: the job's own `cross_entropy`, else its stack's usual loss. TRL's chunked loss is
    TRL's SFTTrainer's on the Hugging Face stack: on another stack (Unsloth's kernels, a compiled model, llm.c) the
    stack's own loss runs."""
    own = getattr(t, "cross_entropy", "") or ""
    if own == "trl_chunked" and t.stack != "eager":
        own = ""
    return own if own in LOSS_KINDS else str(f["logits"]["stack_default"][t.stack])


def runs_trl_chunked(t: TrainSpec, f: Mapping[str, Any]) -> bool:
    """The job's loss is TRL's chunked loss (loss_kind): what its time, recipe and assumptions line price."""
    return loss_kind(t, f) == "trl_chunked"


def dtype_bytes(t: TrainSpec, f: Mapping[str, Any]) -> tuple[float, float]:
    """(bytes of one logit as the model returns it, bytes of one element of the loss's own copies). A loss whose
    model upcasts its output itself (`output_fp32` in [logits]) returns and copies fp32 in every precision."""
    if f["logits"][loss_kind(t, f)]["output_fp32"]:
        return 4.0, 4.0
    logit = 4.0 if t.precision == "fp32" else 2.0
    return logit, logit if t.precision in PURE_16BIT else 4.0


def logits_bytes_per_element(t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Bytes per logit (token × vocabulary entry) at the step's peak, allocated."""
    k = f["logits"][loss_kind(t, f)]
    logit, loss = dtype_bytes(t, f)
    if not k["upcast"]:
        loss = logit
    return k["held_logits"] * logit + k["loss_copies"] * loss


def logits_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """The loss's bytes at the peak for one micro-batch: b·s × vocab × bytes per element, plus the chunk
    in flight for a chunked loss."""
    total = ctc_logits(m, t) * logits_bytes_per_element(t, f)
    if not m.vocab:
        return total
    tokens = t.batch * target_tokens(m, t)
    total += tokens * m.vocab * logits_bytes_per_element(t, f)
    return total + chunk_transient_bytes(m, t, f)


def ctc_logits(m: ModelSpec, t: TrainSpec) -> float:
    """Logits of a CTC head (model.ctc_vocab) in one micro-batch: every encoder frame × its vocabulary. WeNet's CTC
    (wenet/transformer/ctc.py) writes them as a plain loss does, 'ys_hat.log_softmax(2)' then torch.nn.CTCLoss, whose
    backward fills a gradient of the log-probabilities' full size (aten/src/ATen/native/cuda/LossCTC.cu
    ctc_loss_backward_gpu_template: 'at::full_like(log_probs, neginf)'), so they are priced per element as the `full`
    loss's logits."""
    return float(t.batch * seq_len_of(t) * m.ctc_vocab) if m.arch == "transformer" else 0.0


def fused_linear_chunk_tokens(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> int:
    """Tokens per chunk of a fused linear cross-entropy: Liger's fused_linear_cross_entropy_forward,
    'inc_factor = triton.cdiv(V, chunk_mem_const * H); chunk_size = triton.next_power_of_2(triton.cdiv(BT,
    inc_factor)); chunk_size = min(chunk_size, BT)', so one chunk of logits holds about BT × H elements."""
    bt = max(1, int(t.batch * target_tokens(m, t)))
    h = max(1, int(m.hidden or 1))
    c = int(f["logits"]["fused_linear"]["chunk_hidden_multiple"])
    inc = -(-int(m.vocab or 1) // (c * h))
    chunk = 1 << max(0, (-(-bt // inc) - 1).bit_length())
    return min(chunk, bt)


def fused_linear_chunk_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """One chunk of a fused linear cross-entropy's logits, in the logits' dtype (its gradient is written over it)."""
    return fused_linear_chunk_tokens(m, t, f) * float(m.vocab or 0) * dtype_bytes(t, f)[0]


def trl_chunk_parts(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> tuple[float, float, float]:
    """TRL's chunked loss ([logits.trl_chunked]): (the output layer's fp32 copy, autocast's 16-bit copy of it, one
    chunk of logits beside the hidden states it reorders, valid tokens first: 'hidden = hidden[order]'), bytes. A 16-bit
    output layer (a LoRA / QLoRA base, pure 16-bit training) is copied to fp32; an fp32 one (mixed precision's master
    weights, fp32 training, QLoRA after PEFT's upcast) is used as it is. Under autocast the matmul casts it to 16 bits
    and writes 16-bit logits; without, it runs in fp32."""
    c = f["logits"]["trl_chunked"]
    head = float(m.vocab or 0) * (m.hidden or 0)
    autocast = t.precision in MIXED
    fp32_head = t.precision == "fp32" or (autocast and t.method == "full") or (t.method == "qlora" and t.upcasts_frozen)
    every = t.batch * target_tokens(m, t)
    dtype = 2.0 if autocast else 4.0
    chunk = min(every, c["chunk_tokens"]) * float(m.vocab or 0) * dtype + every * (m.hidden or 0) * dtype
    return (0.0 if fp32_head else head * c["fp32_copy_bytes"], head * c["autocast_copy_bytes"] if autocast else 0.0,
            chunk)


def trl_chunk_traffic(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> tuple[float, float]:
    """What TRL's chunked loss adds beyond the full loss: (bytes moved a step, FLOPs a sample). Each 256-token chunk runs
    under torch.utils.checkpoint, so its forward runs twice (once more in backward: the output layer's matmul over the
    chunk again, 2 FLOPs per weight and token) and so do its weight copies — 'w.float()' reads a 16-bit output layer and
    writes it in fp32 (2 + 4 B per weight; nothing where it is fp32 already), autocast reads that and writes the 16-bit
    operand of the matmul (4 + 2 B). A trained output layer (full fine-tuning) also takes each chunk's weight gradient
    back through both casts into its fp32 gradient: 2 B written, cast to fp32 (2 + 4), added to the gradient (4 + 4).
    The rerun also repeats the chunk's log-softmax. (0, 0) for any other loss. Read from trl/trainer/sft_trainer.py
    v1.9.0, _chunk and _chunked_cross_entropy_loss."""
    if not m.vocab or not m.hidden or not runs_trl_chunked(t, f):
        return 0.0, 0.0
    head = float(m.vocab) * m.hidden
    c = f["logits"]["trl_chunked"]
    tokens = t.batch * target_tokens(m, t)
    chunks = math.ceil(tokens / c["chunk_tokens"])
    fp32_copy, autocast_copy, _chunk = trl_chunk_parts(m, t, f)
    copy = head * (2.0 + c["fp32_copy_bytes"]) if fp32_copy else 0.0  # w.float(): reads 16 bits, writes fp32
    cast = head * (4.0 + c["autocast_copy_bytes"]) if autocast_copy else 0.0  # autocast: reads fp32, writes 16 bits
    per_pass = copy + cast
    grads = head * (2.0 + 6.0 + 8.0) if t.method == "full" else 0.0
    # the rerun forward's log-softmax over the chunk's logits: one more forward of the loss's fp32 element-wise work,
    # which the step's traffic counts once forward and once backward ([speed.elementwise] logit_elements)
    rerun = f["speed"]["elementwise"]["logit_elements"] * float(m.vocab) * tokens * 4.0
    return chunks * (2.0 * per_pass + grads) + rerun, 2.0 * head * target_tokens(m, t)


def chunk_transient_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """A chunked loss's backward: one chunk's gradients (nll and log-softmax) in the logits' dtype. A fused linear
    cross-entropy: one chunk of logits (its gradient written in place) and the hidden states' gradient. TRL's chunked
    loss: the output layer's copies and one chunk of logits (trl_chunk_parts)."""
    kind = loss_kind(t, f) if m.vocab else ""
    if kind == "trl_chunked":
        return sum(trl_chunk_parts(m, t, f))
    if kind == "fused_linear":
        hidden_grad = t.batch * target_tokens(m, t) * (m.hidden or 0) * dtype_bytes(t, f)[0]
        return fused_linear_chunk_bytes(m, t, f) + hidden_grad
    if kind != "chunked":
        return 0.0
    c = f["logits"]["chunked"]
    tokens = min(t.batch * target_tokens(m, t), c["chunk_tokens"])
    return tokens * m.vocab * c["transient_copies"] * dtype_bytes(t, f)[0]


def loss_block(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """The largest single tensor the vocabulary loss allocates and frees in a step: one b·s × vocab copy of the loss
    (fp32 under `full`), one chunk under `chunked` and `fused_linear`, the logits' gradient under `fused`; 0 without a
    vocabulary head."""
    if m.arch != "transformer" or not m.vocab:
        return 0.0
    kind = loss_kind(t, f)
    logit, loss = dtype_bytes(t, f)
    if kind == "chunked":
        return chunk_transient_bytes(m, t, f) / max(1.0, float(f["logits"]["chunked"]["transient_copies"]))
    if kind == "fused_linear":
        return fused_linear_chunk_bytes(m, t, f)
    if kind == "trl_chunked":
        return max(trl_chunk_parts(m, t, f))
    per = loss if f["logits"][kind]["upcast"] else logit
    return t.batch * target_tokens(m, t) * m.vocab * per


def largest_transient_block(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """The largest single tensor a step allocates and frees again: one b·s × vocab copy of the loss (fp32 under
    `full`), one chunk under `chunked` and `fused_linear`, the logits' gradient under `fused`; or one layer's attention scores in
    fp32 where attention is eager. 0 for networks without either."""
    best = loss_block(m, t, f)
    s = seq_len_of(t)
    if m.arch == "transformer" and m.eager_attention:
        best = max(best, 4.0 * (m.heads or 1) * s * s * t.batch)  # softmax in fp32 under autocast
    best = max(best, 4.0 * ctc_logits(m, t))  # a CTC head's fp32 log-probabilities or their gradient
    return best


def allocator_slack_bytes(m: ModelSpec | None, t: TrainSpec | None, f: Mapping[str, Any], backend: str,
                          allocated: float, varying_shapes: bool = True) -> float:
    """Reserved − allocated at the peak: the backend's share of what is allocated, plus (CUDA and ROCm, whose
    PyTorch allocator caches and splits blocks) the step's largest transient block, left cached by an earlier, shorter
    step that the longest one outgrew — which happens when the steps change shape (samples padded to the longest of
    each batch) and a longer step follows a shorter one. Steps of one shape (packed pre-training rows, fixed-size
    images) ask for the same sizes in the same order, and a run whose longest step comes first serves every later
    request from the blocks that step cached."""
    o = f["overhead"]
    slack = allocated * o["allocator_fraction"][backend]
    if m is not None and t is not None and varying_shapes:
        slack += o["allocator_transient_blocks"][backend] * largest_transient_block(m, t, f)
    return slack


def record_steps(steps: float) -> float:
    """The expected count of steps longer than every earlier one among `steps` steps of independent, identically
    distributed lengths: the harmonic number H_N (Rényi 1962), by its asymptotic series beyond the first hundred."""
    n = max(1, int(round(steps)))
    if n <= 100:
        return sum(1.0 / k for k in range(1, n + 1))
    return math.log(n) + 0.5772156649015329 + 1.0 / (2 * n) - 1.0 / (12 * n * n)


def cached_reserve_bytes(m: ModelSpec | None, t: TrainSpec | None, f: Mapping[str, Any], backend: str,
                         steps: float, varying_shapes: bool = True) -> float:
    """Beyond the need: the loss blocks of earlier, shorter record steps that a shuffled run of `steps` steps per GPU
    is expected to leave cached (factors.toml [overhead.cached_reserve]), less the blocks the need already counts.
    0 where the steps keep one shape, the backend's allocator does not cache this way, or the loss's blocks do not
    grow with the step (fixed-size chunks)."""
    c = f["overhead"]["cached_reserve"]
    if m is None or t is None or not varying_shapes or backend not in c["backends"]:
        return 0.0
    if m.arch == "transformer" and m.vocab and loss_kind(t, f) in ("chunked", "trl_chunked") and not m.eager_attention:
        return 0.0
    # an encoder-decoder's encoder keeps one shape (Whisper pads every clip to 30 s): only its decoder's loss grows
    block = loss_block(m, t, f) if is_seq2seq(m) else largest_transient_block(m, t, f)
    generations = float(c["record_size_fraction"]) * max(0.0, record_steps(steps) - 1.0)
    counted = float(f["overhead"]["allocator_transient_blocks"][backend])
    return max(0.0, (generations * float(c["blocks_per_generation"]) - counted) * block)
