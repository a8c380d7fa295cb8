"""What mixed precision (PyTorch autocast over fp32 master weights) still moves in fp32.

Autocast runs the matrix math in 16 bits, but not the rest of a transformer layer:

- the residual stream stays fp32. With fp32 master weights the embedding output is fp32; `layer_norm` is on
  autocast's "CUDA ops that can autocast to float32" list, so every LayerNorm returns fp32 (and a Llama RMSNorm
  returns its input's dtype, fp32); each residual add of a 16-bit sublayer output to that fp32 stream promotes to
  fp32 (PyTorch type promotion). So the norms and residual adds of an eager layer read and write 4-byte elements,
  as in fp32 training (PyTorch docs, 'Automatic Mixed Precision package - torch.amp', Autocast Op Reference);
- every linear layer that reads the fp32 stream casts its input to 16 bits first (read 4 B, write 2 B per element):
  the query, key and value projections and the MLP's input projection(s) (`stream_casts_per_layer`); autograd
  converts each cast's 16-bit input gradient back to fp32 in backward;
- each trained weight is cast to 16 bits per forward (autocast's weight-cast cache lives for one forward) and its
  16-bit gradient converted to fp32 in backward (the cast's `ToCopyBackward`), read 2 B and written 4 B;
- fp16 (not bf16) needs a GradScaler: `unscale_` runs `_amp_foreach_non_finite_check_and_unscale_` over every fp32
  gradient once per optimizer step (read 4 B, write 4 B: torch/amp/grad_scaler.py).

Fused stacks (apex O2 / NVIDIA DeepLearningExamples, fused LayerNorm kernels that return the input's dtype) keep the
stream in 16 bits ([stack.*].autocast_fp32_stream = false, or the job's own train.autocast_fp32_stream); pure bf16 (`bf16-pure`), pure fp16 (`fp16-pure`:
`model.half()`, no autocast, no GradScaler), LoRA over 16-bit base weights and fp32 training are not autocast over fp32
weights. Every byte count is in resources/factors.toml
[speed.autocast] with its source.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.estimate.dispatch import stack_of
from gpucheck.records import ModelSpec, TrainSpec

MIXED = ("fp16", "bf16")  # autocast precisions (bf16-pure / fp16-pure keep 16-bit weights and no fp32 master copy)


def fp32_master(t: TrainSpec) -> bool:
    """Mixed precision over fp32 master weights: the trained weights are fp32, autocast casts them."""
    return t.method == "full" and t.precision in MIXED


def fp32_stream(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> bool:
    """The residual stream of a transformer runs in fp32 under this job's autocast."""
    # QLoRA through bitsandbytes after PEFT's prepare_model_for_kbit_training (train.qlora_upcast): the norms are fp32,
    # so each Llama RMSNorm returns fp32 ('self.weight * hidden_states.to(input_dtype)' with an fp32 weight), the
    # 4-bit layers return their input's dtype ('out.to(inp_dtype)') and the MLP's fp32 output promotes the residual add
    # (train.qlora_norm_keeps_dtype: a norm kernel that returns its input's dtype, as Liger's, keeps it 16-bit)
    upcast_qlora = t.method == "qlora" and t.qlora_kernel == "bitsandbytes" and t.upcasts_frozen \
        and t.precision in MIXED and not t.qlora_norm_keeps_dtype
    fp32_weights = fp32_master(t) or upcast_qlora
    return m.arch == "transformer" and fp32_weights and bool(stack_of(t, f)["autocast_fp32_stream"])


def stream_casts_per_layer(linears: int) -> int:
    """Linear layers per transformer block whose input is the residual stream: all but the attention output and
    the MLP down projection (BERT: query, key, value, intermediate = 4; Llama: q, k, v, gate, up = 5)."""
    return max(0, linears - 2)


def per_token_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any], hidden_el: float, ffn_el: float,
                    linears: int, eb: float) -> tuple[float, float]:
    """(bytes, elements) one token's hidden- and FFN-width element-wise work moves in one layer's forward: FFN
    elements at the training precision; hidden elements at 4 B where the stream is fp32 under autocast, plus the
    16-bit casts of the stream before the linears that read it."""
    h = float(m.hidden or 0)
    if not fp32_stream(m, t, f):
        return (hidden_el + ffn_el) * eb, hidden_el + ffn_el
    a = f["speed"]["autocast"]
    casts = stream_casts_per_layer(linears) * h
    return hidden_el * 4.0 + ffn_el * eb + casts * a["cast_bytes_per_element"], hidden_el + ffn_el + 2.0 * casts


def per_param_bytes(t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Bytes per trainable parameter autocast moves each micro-step outside the GEMMs: the weight's 16-bit cast in
    forward and its gradient's fp32 conversion in backward, plus, with fp16, GradScaler's unscale and inf check
    over the fp32 gradients (once per optimizer step)."""
    if not fp32_master(t):
        return 0.0
    a = f["speed"]["autocast"]
    per = a["weight_cast_bytes_per_param"] + a["grad_cast_bytes_per_param"]
    if t.precision == "fp16":
        per += a["grad_scaler_bytes_per_param"] / max(1, t.grad_accum)
    return float(per)
