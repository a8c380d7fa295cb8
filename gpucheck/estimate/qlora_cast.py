"""QLoRA's 4-bit layers in a step, counted from bitsandbytes' and PEFT's code (resources/factors.toml [bandwidth],
[dispatch.kernels], [qlora.wrapper]):

- every pass dequantizes each 4-bit weight, and casts the copy to the compute dtype where bitsandbytes dequantized it to
  another (dequant_cast);
- bitsandbytes' Linear4bit.forward casts its input to the compute dtype and its output back, 'x = x.to(self.compute_dtype)'
  … 'out = out.to(inp_dtype)': under PEFT's prepare_model_for_kbit_training (train.qlora_upcast) the norms are fp32, so
  the layers that read them get fp32 inputs and return fp32 outputs (upcast_casts);
- PEFT's LoRA wrapper of a 4-bit layer clones the base output before adding the adapter's, 'result = result.clone()'
  (peft_clone); lit-gpt's LoRA layer does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.estimate import moe
from gpucheck.estimate.cpu_core import element_bytes
from gpucheck.estimate.factors import seq_len_of
from gpucheck.estimate.params import kv_dim
from gpucheck.records import ModelSpec, TrainSpec

MIXED = ("fp16", "bf16")  # autocast precisions


def dequant_bytes(quantized: float, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """QLoRA: every pass over a 4-bit weight dequantizes it (read 0.5 B, write 2 B, read 2 B back), and casts the
    copy to the compute dtype where bitsandbytes dequantized it to another (dequant_cast)."""
    passes = 3.0 if t.grad_checkpointing else 2.0
    bw = f["bandwidth"]
    cast = bw["dequant_cast_bytes_per_param"][t.qlora_dequant_dtype] if dequant_cast(t) else 0.0
    return quantized * (bw["dequant_bytes_per_param"] + cast) * passes


def dequant_cast(t: TrainSpec) -> bool:
    """bitsandbytes' MatMul4Bit casts each dequantized weight, 'F.dequantize_4bit(B, quant_state).to(A.dtype)', which
    costs a copy where the weight was quantized from another dtype than the one the matmuls run in
    (train.qlora_dequant_dtype; factors.toml [bandwidth.dequant_cast_bytes_per_param])."""
    if not bitsandbytes_qlora(t) or t.qlora_dequant_dtype == "compute":
        return False
    compute = "fp16" if t.precision.startswith("fp16") else "bf16" if t.precision.startswith("bf16") else "fp32"
    return t.qlora_dequant_dtype != compute


def bitsandbytes_qlora(t: TrainSpec) -> bool:
    return t.method == "qlora" and t.qlora_kernel == "bitsandbytes"


def upcast_casts(t: TrainSpec) -> bool:
    """PEFT's prepare_model_for_kbit_training left the norms fp32 under autocast: Linear4bit's own casts copy."""
    return bitsandbytes_qlora(t) and t.upcasts_frozen and t.precision in MIXED and not t.qlora_norm_keeps_dtype


def peft_clone(t: TrainSpec) -> bool:
    """PEFT's lora/bnb.py Linear4bit.forward clones the 4-bit layer's output (train.qlora_wrapper)."""
    return bitsandbytes_qlora(t) and t.qlora_wrapper == "peft"


def _outputs(m: ModelSpec) -> dict[str, tuple[float, bool]]:
    """Each linear of a block: (output width, whether it reads an fp32 input under the upcast): all but the attention
    output projection, whose input is attention's 16-bit output under autocast."""
    h, kv = float(m.hidden or 0), float(kv_dim(m))
    ffn = moe.token_ffn(m)  # per token: the k experts' widths in a mixture-of-experts layer
    down = h * moe.mlp_calls_per_token(m)
    out = {"q": (h, True), "k": (kv, True), "v": (kv, True), "o": (h, False), "up": (ffn, True), "down": (down, True)}
    if m.gated:
        out["gate"] = (ffn, True)
    return out


_TARGETS = {"qv": ("q", "v"), "attention": ("q", "k", "v", "o"), "mlp": ("gate", "up", "down")}


def upcast_linears(m: ModelSpec) -> int:
    """Linear layers per block that read an fp32 input under PEFT's upcast (Linear4bit's in- and out-casts copy)."""
    return sum(1 for _, fp32 in _outputs(m).values() if fp32)


def linear4bit_activation_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Bytes per micro-batch step of Linear4bit's casts and PEFT's clone beyond what the layer moves anyway. Per token
    and block: the fp32 outputs cast back from 16 bits ('out.to(inp_dtype)', read 2 B write 4 B per element), the MLP
    down projection's fp32 input cast to 16 bits (the other fp32 inputs are autocast's stream casts, autocast.py), each
    in every forward pass and once more in backward (ToCopyBackward); and each adapted layer's output cloned
    (read and write, at its dtype) in every forward pass; the clone's backward passes the gradient through."""
    if m.arch != "transformer" or not bitsandbytes_qlora(t):
        return 0.0
    fwd = 2.0 if t.grad_checkpointing else 1.0
    outs = _outputs(m)
    per_token = 0.0
    if upcast_casts(t):
        cast_el = sum(w for w, fp32 in outs.values() if fp32) + moe.token_ffn(m)
        per_token += cast_el * f["speed"]["autocast"]["cast_bytes_per_element"] * (fwd + 1.0)
    if peft_clone(t):
        names = _TARGETS.get(t.lora_targets, tuple(outs))
        eb16 = element_bytes(t.precision)
        per_token += sum(2.0 * w * (4.0 if fp32 and upcast_casts(t) else eb16) * fwd
                         for n, (w, fp32) in outs.items() if n in names)
    return per_token * (m.layers or 1) * seq_len_of(t) * t.batch
