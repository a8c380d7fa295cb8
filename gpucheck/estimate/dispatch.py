"""The host's side of a GPU step: the operators the CPU dispatches and what one costs.

Operators per micro-batch step (forward, backward, recompute, the optimizer's share), counted per layer with the stack's
fusion (resources/factors.toml [dispatch], [stack]); each priced from PyTorch's gpt-fast eager measurement and scaled by
the CPU's single-thread clock. The roofline that adds them to the GPU's time is gpucheck/estimate/compute.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.estimate import dropout as dr  # dropout and drop_path, where the model turns them on
from gpucheck.estimate import moe  # mixture-of-experts layers: their counted code, weight tensors
from gpucheck.estimate import qlora_cast as q4
from gpucheck.estimate import seq2seq as s2s  # encoder-decoder blocks (Whisper): the decoder's operators
from gpucheck.estimate.optimizer_traffic import step_impl
from gpucheck.estimate.params import ParamCounts
from gpucheck.estimate.sharding import frozen_weight_grads
from gpucheck.records import ModelSpec, TrainSpec

STACK_OVERRIDES = ("tf32_matmul", "autocast_fp32_stream")  # TrainSpec fields that, when set, replace the stack's


def stack_of(t: TrainSpec, f: Mapping[str, Any]) -> Mapping[str, Any]:
    """The job's stack ([stack.*] in factors.toml) with the settings the job states itself (a container that turns
    TF32 on under plain PyTorch layers; a model cast to 16 bits under a stack that would keep an fp32 stream)."""
    own = {k: getattr(t, k) for k in STACK_OVERRIDES if getattr(t, k) is not None}
    return {**f["stack"][t.stack], **own} if own else f["stack"][t.stack]


# -- bytes -----------------------------------------------------------------------------------------


def kernels_per_step(m: ModelSpec, t: TrainSpec, pc: ParamCounts, f: Mapping[str, Any],
                     backend: str = "cuda", gpus: int = 1) -> float:
    """Kernels the CPU launches in one micro-batch step (forward, backward, recompute) plus the
    optimizer's share, with the stack's fusion."""
    k = f["dispatch"]["kernels"]
    st = stack_of(t, f)
    passes_fwd = 2.0 if t.grad_checkpointing else 1.0
    if m.arch == "transformer":
        layers = m.layers or 1
        n_linear = linears(m)
        drop_fwd, drop_bwd = dr.layer_operators(m, f)  # dropout and drop_path: operators only where they are on
        blocks = layers + (m.decoder_layers if s2s.is_seq2seq(m) else 0)
        layer_fwd, bwd_per_fwd = layer_operators(m, f)
        fwd = layer_fwd * layers + s2s.decoder_kernels(m, f, layer_fwd)
        bwd = fwd * bwd_per_fwd + drop_bwd * blocks
        fwd += drop_fwd * blocks
        if t.method in ("lora", "qlora"):
            adapted = adapted_linears(m, t)
            if not frozen_weight_grads(t, gpus):  # frozen: no weight gradients
                bwd = max(0.0, bwd - frozen_weights_saving(m, f) * layers)
            fwd += k["adapter_forward"] * adapted * layers
            bwd += k["adapter_backward"] * adapted * layers
        if t.method == "qlora":
            per_linear = k["dequant_per_linear"] + (k["dequant_cast_per_linear"] if q4.dequant_cast(t) else 0.0)
            fwd += per_linear * n_linear * layers * passes_fwd
            bwd += per_linear * n_linear * layers
            casts = k["linear4bit_upcast_casts"] * q4.upcast_linears(m) * layers if q4.upcast_casts(t) else 0.0
            fwd += casts + (k["peft_4bit_clone"] * adapted_linears(m, t) * layers if q4.peft_clone(t) else 0.0)
            bwd += casts  # each cast's ToCopyBackward; the clone's backward passes the gradient through
        total = fwd * passes_fwd + bwd
    elif m.arch == "unet" and m.unet_code:
        total = unet_operators(m, t, f, passes_fwd, gpus)
    else:
        layers = m.layers or k["layers_default"][m.arch]
        total = layers * k["image_layer_forward"] * (passes_fwd + k["backward_per_forward"])
    opt = optimizer_tensors(m, t, pc, k) * optimizer_ops_per_tensor(t, backend, f) / max(1, t.grad_accum)
    return (total + opt) * st["kernel_scale"]


def unet_operators(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any], passes_fwd: float, gpus: int = 1) -> float:
    """Operators of a whole U-Net's step, counted for the code it runs (model.unet_code; factors.toml
    [dispatch.kernels.unet_code]): forward (twice with checkpointing) and backward, the latter without weight
    gradients under LoRA, plus each adapted linear's adapter (adapter_forward, adapter_backward)."""
    k = f["dispatch"]["kernels"]
    counted = k["unet_code"][m.unet_code]
    fwd, bwd = float(counted["forward"]), float(counted["backward"])
    if t.method in ("lora", "qlora"):
        adapted = unet_adapted_linears(m, t, k)
        if not frozen_weight_grads(t, gpus):
            bwd = float(counted["backward_frozen_weights"])
        fwd += k["adapter_forward"] * adapted
        bwd += k["adapter_backward"] * adapted
    return fwd * passes_fwd + bwd


def unet_adapted_linears(m: ModelSpec, t: TrainSpec, k: Mapping[str, Any]) -> int:
    """Linears of a counted U-Net that carry a LoRA adapter: 'attention' = to_q, to_k, to_v, to_out.0 of every
    attention (diffusers' LoRA scripts), 'all-linear' = every linear of its transformer blocks (kohya's networks.lora),
    'qv' = two of each attention's four, 'mlp' = the transformer blocks' linears outside attention."""
    counted = k["unet_code"][m.unet_code]
    attn, every = int(counted["attention_linears"]), int(counted["transformer_linears"])
    return {"qv": attn // 2, "attention": attn, "mlp": every - attn, "all-linear": every}[t.lora_targets]


def layer_code_name(m: ModelSpec, f: Mapping[str, Any]) -> str:
    """The code the model's layers run: the one it names (model.layer_code), else transformers' code for its config's
    model_type where that is counted (GPT-2, the BERT family, DistilBERT, ViT, Whisper, Gemma 2, Gemma 3, Qwen3:
    factors.toml [dispatch.kernels.usual_layer_code.by_model_type]), else Hugging Face's Llama layer, each with eager
    attention where the model materializes its scores."""
    if m.layer_code:
        return m.layer_code
    if moe.is_moe(m):
        return moe.MOE_LAYER_CODE
    usual = f["dispatch"]["kernels"]["usual_layer_code"]
    own = usual["by_model_type"].get(m.model_type, usual)
    return own["eager" if m.eager_attention else "sdpa"]


def layer_code(m: ModelSpec, f: Mapping[str, Any]) -> Mapping[str, float]:
    """The counted operators of the code the model's layers run (layer_code_name; factors.toml
    [dispatch.kernels.layer_code]), so every transformer is priced in the same unit: ATen operators, views and casts
    included."""
    return f["dispatch"]["kernels"]["layer_code"][layer_code_name(m, f)]


def layer_operators(m: ModelSpec, f: Mapping[str, Any]) -> tuple[float, float]:
    """(operators one layer dispatches in forward, backward's operators per forward one), counted (layer_code)."""
    counted = layer_code(m, f)
    return float(counted["forward"]), float(counted["backward"]) / float(counted["forward"])


def frozen_weights_saving(m: ModelSpec, f: Mapping[str, Any]) -> float:
    """Operators one layer's backward skips when its weights are frozen (LoRA, QLoRA: no weight gradients, no gradient
    accumulation), counted (layer_code)."""
    counted = layer_code(m, f)
    return float(counted["backward"] - counted["backward_frozen_weights"])


def optimizer_ops_per_tensor(t: TrainSpec, backend: str, f: Mapping[str, Any]) -> float:
    """Operators the optimizer dispatches per trainable tensor: a share of a foreach call where PyTorch has
    foreach kernels for the device, else one operator per line of its per-tensor loop (factors.toml
    [dispatch.optimizer_loop])."""
    loop = f["dispatch"]["optimizer_loop"]
    if backend in loop["backends"] and t.stack == "eager" or (backend == "cpu" and t.optimizer == "adafactor"):
        return loop["ops_per_tensor"][t.optimizer]  # Adafactor has no foreach path on any device
    if serial_optimizer_loop(t, backend, f):
        return 0.0  # dispatched after the step's host sync: serial_optimizer_ops, not hidden behind the GPU's queue
    return f["dispatch"]["kernels"]["optimizer_per_tensor"]


def serial_optimizer_loop(t: TrainSpec, backend: str, f: Mapping[str, Any]) -> bool:
    """A per-tensor optimizer loop (optimizer_impl = "single": transformers' AdamW before torch's, NVIDIA's BertAdam;
    Adafactor always) on a GPU backend with foreach kernels: it runs after the step's host sync, one launch at a time."""
    return step_impl(t, f) == "single" and backend not in f["dispatch"]["optimizer_loop"]["backends"] \
        and backend != "cpu"


def serial_optimizer_ops(m: ModelSpec, t: TrainSpec, pc: ParamCounts, f: Mapping[str, Any], backend: str) -> float:
    """Operators of the per-tensor optimizer loop per micro-batch step, where it runs serially (factors.toml
    [dispatch.optimizer_loop]); 0 where the optimizer is a foreach or fused call."""
    if not serial_optimizer_loop(t, backend, f):
        return 0.0
    ops = f["dispatch"]["optimizer_loop"]["ops_per_tensor"][t.optimizer]
    return optimizer_tensors(m, t, pc, f["dispatch"]["kernels"]) * ops / max(1, t.grad_accum)


def host_loss_ops(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Operators per micro-batch step of a loss the training code computes after a host sync (model key host_loss:
    factors.toml [dispatch.host_loss], counted from the code): a fixed part per step and a part per image of the
    GPU's batch (YOLOv5's segmentation loss loops over the images in Python); 0 for any other loss."""
    if not m.host_loss:
        return 0.0
    loss = f["dispatch"]["host_loss"][m.host_loss]
    return float(loss["ops_per_step"]) + float(loss["ops_per_image"]) * t.batch


def linears(m: ModelSpec) -> int:
    """Weight matrices per block: the four of attention and the MLP's (a MoE layer: gpucheck/estimate/moe.py)."""
    return 4 + moe.mlp_weight_tensors(m)


def optimizer_tensors(m: ModelSpec, t: TrainSpec, pc: ParamCounts, k: Mapping[str, Any]) -> float:
    """Trainable tensors the optimizer walks: weight + bias per linear and one per norm (full),
    A and B per adapted module (LoRA), weight + BN scale/shift per layer (CNN)."""
    if pc.trainable <= 0:
        return 0.0
    if m.arch == "transformer":
        layers = m.layers or 1
        if t.method in ("lora", "qlora"):
            return 2.0 * adapted_linears(m, t) * layers
        return (2.0 * linears(m) + 2.0) * layers + 3.0
    if m.arch == "unet" and m.unet_code and t.method in ("lora", "qlora"):
        return 2.0 * unet_adapted_linears(m, t, k)
    return 3.0 * (m.layers or k["layers_default"][m.arch])


def adapted_linears(m: ModelSpec, t: TrainSpec) -> int:
    """Linear layers per block that carry a LoRA adapter (lora_targets)."""
    mlp = linears(m) - 4
    return {"qv": 2, "attention": 4, "mlp": mlp, "all-linear": linears(m)}[t.lora_targets]


def host_clock_mhz(target: Any, f: Mapping[str, Any]) -> float:
    """The CPU's single-thread clock: as scanned, else the typical host of this kind of GPU."""
    if target.cpu_max_clock_mhz:
        return float(target.cpu_max_clock_mhz)
    seg = target.gpu.segment if target.gpu is not None else "consumer"
    return float(f["dispatch"]["host_clock_mhz"][seg])


def at_host_clock(seconds: float, reference_clock_mhz: float, target: Any, f: Mapping[str, Any]) -> float:
    """Single-threaded CPU work measured (or priced) at `reference_clock_mhz`, on this target's host CPU."""
    return seconds * float(reference_clock_mhz) / host_clock_mhz(target, f)


def shared_by_cores(items: float, seconds_each: float, reference_clock_mhz: float, target: Any,
                    f: Mapping[str, Any]) -> float:
    """`items` of CPU work measured on one core at `reference_clock_mhz` (`seconds_each`), on this target's host CPU,
    split over the cores it trains on."""
    cores = target.cpu_cores or f["cpu"]["default_cores"]
    return items * at_host_clock(seconds_each, reference_clock_mhz, target, f) / max(1, cores)


def dispatch_seconds(kernels: float, target: Any, f: Mapping[str, Any]) -> float:
    d = f["dispatch"]
    per = at_host_clock(d["launch_us"] * 1e-6, d["reference_clock_mhz"], target, f)
    return kernels * per * d["backend_factor"][target.backend]
