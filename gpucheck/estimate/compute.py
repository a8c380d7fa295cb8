"""Speed: FLOPs per sample, the peak the device offers for the math in use, step time, run time.

step time = max(FLOPs / (peak × utilization), bytes moved / (bandwidth × efficiency), CPU kernel dispatch)
          + per-step overhead + the part of the gradient all-reduce that backward does not hide (several GPUs).

U-Nets (Stable Diffusion) are charged differently: their convolutions and attention matmuls alternate with
GroupNorm, SiLU, residual adds and up/down-sampling that stream whole feature maps through DRAM (GroupNorm
and LayerNorm also run in fp32 under autocast), so neither resource hides the other. Their step is
(compute time + memory time) / small-batch efficiency (an additive roofline), where memory time adds
`elementwise_traffic_factor` × the per-sample feature-map bytes (`activation_mib`, no checkpointing
discount; recomputation adds one more forward) to the weight and optimizer traffic, and the efficiency
P / (P + half) with P = batch × image_size² says how well the small deep levels of the U-Net fill the GPU.
This is what makes a GeForce card with twice a T4's bandwidth train Stable Diffusion faster than the
T4's much larger fp16 peak suggests, and larger batches faster per image.

- Transformers: forward = 2·(block linear params + lm_head) + 4·layers·s·(heads·head_dim) per token
  (PaLM appendix B; nanoGPT estimate_mfu). Training = forward + backward, where backward costs 2× the
  forward of trained layers and 1× that of frozen ones (LoRA/QLoRA only need input gradients);
  gradient checkpointing adds one forward.
- CNN/UNet: the workload's `forward_gflops` at `ref_image_size`, scaled by (image_size/ref)².
- Peaks come from the catalog (or the deep scan's measurements when present): 16-bit tensor rate for
  fp16/bf16 (GeForce: the fp32-accumulate rate), TF32 for fp32 where the framework uses it by default
  (cuDNN convolutions yes, matmuls no — PyTorch ≥ 1.12), plain FP32 otherwise.
- Utilization per architecture and math kind is data in resources/factors.toml.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpucheck.estimate.memory import ParamCounts, block_linear_params, head_dim
from gpucheck.records import ModelSpec, TrainSpec


@dataclass(frozen=True)
class Speed:
    flops_per_sample: float
    peak_tflops: float  # the peak used (per device)
    math: str  # bf16-tensor | fp16-tensor | tf32-tensor | fp32 | cpu-fp32 …
    utilization: float
    step_seconds: float  # one optimizer step of `batch` samples per device
    samples_per_second: float  # all devices together
    tokens_per_second: float | None
    bottleneck: str  # compute | memory | overhead | communication
    scaling_efficiency: float  # 1.0 for one device
    measured: bool  # peak/bandwidth came from the deep scan


def forward_flops_per_sample(m: ModelSpec, t: TrainSpec) -> tuple[float, float]:
    """(FLOPs in trained-or-frozen linear/conv layers, FLOPs in attention score math) for one sample."""
    if m.arch == "transformer":
        s = t.seq_len or 512
        linear = block_linear_params(m) or m.params
        if m.vocab and m.hidden:
            linear += m.hidden * m.vocab  # lm_head / MLM head
        attn = 4.0 * (m.layers or 1) * s * (m.heads or 1) * head_dim(m)
        return 2.0 * linear * s, attn * s
    g = (m.forward_gflops or 0.0) * 1e9
    if m.ref_image_size and t.image_size:
        g *= (t.image_size / m.ref_image_size) ** 2
    return g, 0.0


def train_flops_per_sample(m: ModelSpec, t: TrainSpec) -> float:
    linear, attn = forward_flops_per_sample(m, t)
    frozen = t.method in ("lora", "qlora")
    bwd_linear = 1.0 if frozen else 2.0
    total = linear * (1.0 + bwd_linear) + attn * 3.0
    if t.grad_checkpointing:
        total += linear + attn
    aux = 0.0 if getattr(t, "cache_embeddings", False) else (m.aux_forward_gflops or 0.0) * 1e9
    if aux and m.ref_image_size and t.image_size:
        aux *= (t.image_size / m.ref_image_size) ** 2
    return total + aux


def effective_precision(t: TrainSpec, spec: Any, backend: str) -> str:
    """bf16 falls back to fp16 on GPUs without bf16 (NVIDIA before Ampere)."""
    if t.precision == "bf16" and backend == "cuda" and spec is not None:
        if spec.tflops_bf16_tensor is None and spec.tflops_fp16_tensor is not None:
            return "fp16"
    return t.precision


def pick_peak(t: TrainSpec, m: ModelSpec, target: Any, f: dict[str, Any]) -> tuple[float, str, bool]:
    """(peak TFLOPS per device, math kind, measured?) for this job on this target."""
    spec = target.gpu
    meas = target.measured
    if spec is None:  # CPU
        return target.cpu_peak_tflops(f), "cpu-fp32", False
    precision = effective_precision(t, spec, spec.backend)
    uses_tf32 = f["tf32_default"].get(m.arch, False)
    if precision == "bf16" and spec.tflops_bf16_tensor:
        peak, math = spec.tflops_bf16_tensor, "bf16-tensor"
        if meas and meas.gpu_tflops_bf16:
            return meas.gpu_tflops_bf16, math, True
        return peak, math, False
    if precision in ("fp16", "bf16") and spec.tflops_fp16_tensor:
        peak, math = spec.tflops_fp16_tensor, "fp16-tensor"
        if meas and meas.gpu_tflops_fp16:
            return meas.gpu_tflops_fp16, math, True
        return peak, math, False
    if precision == "fp32" and uses_tf32 and spec.tflops_tf32_tensor:
        if meas and meas.gpu_tflops_tf32:
            return meas.gpu_tflops_tf32, "tf32-tensor", True
        return spec.tflops_tf32_tensor, "tf32-tensor", False
    if meas and meas.gpu_tflops_fp32:
        return meas.gpu_tflops_fp32, "fp32", True
    return spec.tflops_fp32, "fp32", False


def utilization(m: ModelSpec, t: TrainSpec, math: str, backend: str, f: dict[str, Any]) -> float:
    u = f["utilization"]
    table = u.get(m.arch, u["transformer"])
    kind = "tensor" if math.endswith("tensor") and not math.startswith("tf32") else (
        "tf32" if math.startswith("tf32") else "fp32")
    val = table.get(kind, table["fp32"])
    if m.arch == "transformer" and m.hidden:
        half = u["small_hidden_half"]
        val *= m.hidden / (m.hidden + half)
    val *= u["backend_factor"].get(backend, 1.0)
    if t.method == "qlora":
        val *= u["qlora_factor"]
    return val


def bytes_moved_per_step(weights: float, trainable: float, activations: float, t: TrainSpec,
                         f: dict[str, Any], quantized: float = 0.0) -> float:
    """DRAM traffic of one step: weights read in forward/backward(/recompute), optimizer update,
    activations written and read back, and (QLoRA) each 4-bit weight dequantized to 16-bit per pass."""
    reads = 3.0 if t.grad_checkpointing else 2.0
    opt = f["bandwidth"]["optimizer_bytes_per_trainable_param"].get(t.optimizer, 32.0)
    traffic = f["bandwidth"].get("activation_traffic_factor", 2.0)
    dequant = quantized * f["bandwidth"].get("dequant_bytes_per_param", 4.5) * reads
    return weights * reads + trainable * opt / max(1, t.grad_accum) + traffic * activations + dequant


def elementwise_bytes_per_step(m: ModelSpec, t: TrainSpec, f: dict[str, Any]) -> float:
    """Feature-map bytes the memory-bound layers of a U-Net read and write in one step (0 for other
    architectures): the factor × the per-sample feature maps at this image size × batch, one more
    forward's worth with gradient checkpointing (the recomputation)."""
    k = f["bandwidth"].get("elementwise_traffic_factor", {}).get(m.arch, 0.0)
    if not k or not m.activation_mib:
        return 0.0
    per_sample = m.activation_mib * 1024.0**2
    if m.ref_image_size and t.image_size:
        per_sample *= (t.image_size / m.ref_image_size) ** 2
    if t.precision == "fp32":
        per_sample *= f["activations"]["fp32_scale"]
    passes = 4.0 / 3.0 if t.grad_checkpointing else 1.0
    return k * per_sample * t.batch * passes


def small_batch_efficiency(m: ModelSpec, t: TrainSpec, f: dict[str, Any]) -> float:
    """How busy a U-Net keeps the GPU at this batch: its deepest levels work on 8×8–16×16 latents with
    1,280 channels, too few threads to fill a GPU with one or two images, so the share of the roofline
    reached grows with the pixels per step: P / (P + half), P = batch × image_size² (1.0 for other archs)."""
    half = f["utilization"].get("small_batch_half_pixels", {}).get(m.arch)
    if not half or not t.image_size:
        return 1.0
    pixels = t.batch * t.image_size**2
    return pixels / (pixels + half)


def dispatch_seconds(m: ModelSpec, t: TrainSpec, backend: str, f: dict[str, Any]) -> float:
    """CPU time to launch one step's kernels in eager PyTorch: per transformer layer, more with LoRA
    branches and QLoRA dequantization, one more forward with gradient checkpointing."""
    if m.arch != "transformer" or not m.layers:
        return 0.0
    d = f["dispatch"]
    per_layer = d["per_layer_s"] * d["backend_factor"].get(backend, 1.0)
    if t.method == "qlora":
        per_layer *= d["qlora_factor"]
    elif t.method == "full":
        per_layer *= d["full_factor"]
    if t.grad_checkpointing:
        per_layer *= 4.0 / 3.0
    return m.layers * per_layer


def allreduce_seconds(grad_bytes: float, n: int, target: Any, f: dict[str, Any]) -> float:
    if n <= 1:
        return 0.0
    link_gbps = target.link_gbps(f)
    return 2.0 * (n - 1) / n * grad_bytes / (link_gbps * 1e9)


def speed(m: ModelSpec, t: TrainSpec, target: Any, f: dict[str, Any], pc: ParamCounts,
          weights_bytes: float, activations_bytes: float, grad_bytes: float) -> Speed:
    backend = target.backend
    peak, math, measured = pick_peak(t, m, target, f)
    util = utilization(m, t, math, backend, f)
    fps = train_flops_per_sample(m, t)
    compute_s = fps * t.batch / (peak * 1e12 * util)
    bw = target.bandwidth_gbps(f)
    measured = measured or target.bandwidth_measured
    elementwise = elementwise_bytes_per_step(m, t, f)
    mem_s = (bytes_moved_per_step(weights_bytes, pc.trainable, activations_bytes, t, f, pc.quantized)
             + elementwise) / (bw * 1e9 * f["bandwidth"]["efficiency"])
    overhead_s = f["step_overhead_s"].get(backend, 0.005)
    # the CPU issues every kernel; with small steps the GPU waits for it (eager PyTorch dispatch)
    dispatch_s = dispatch_seconds(m, t, backend, f)
    if elementwise:  # additive roofline: memory-bound layers run between the compute-bound ones
        work_s = max((compute_s + mem_s) / small_batch_efficiency(m, t, f), dispatch_s)
    else:
        work_s = max(compute_s, mem_s, dispatch_s)
    bottleneck = "compute" if compute_s >= mem_s else "memory"
    if dispatch_s >= max(compute_s, mem_s) or overhead_s > work_s:
        bottleneck = "overhead"
    n = max(1, target.gpus if target.gpu is not None else 1)
    comm = allreduce_seconds(grad_bytes, n, target, f) / max(1, t.grad_accum)  # once per optimizer step
    # FSDP / ZeRO-3 moves the same bytes: two all-gathers of 16-bit weights (forward, backward) plus a
    # reduce-scatter of fp32 gradients = (n−1)/n × 8 B per parameter, like a ring all-reduce of fp32 grads.
    hidden = f["multi_gpu"]["overlap_fraction"] * work_s * (2.0 / 3.0)
    exposed = max(0.0, comm - hidden)
    step = work_s + overhead_s + exposed
    single_step = work_s + overhead_s
    eff = single_step / step if step > 0 else 1.0
    if n > 1:
        eff *= f["multi_gpu"]["base_efficiency"]
        step = single_step / eff
        if exposed > 0.5 * single_step:
            bottleneck = "communication"
    sps = t.batch * n / step
    tps = sps * (t.seq_len or 0) if m.arch == "transformer" and t.seq_len else None
    return Speed(
        flops_per_sample=fps,
        peak_tflops=peak,
        math=math,
        utilization=util,
        step_seconds=step,
        samples_per_second=sps,
        tokens_per_second=tps,
        bottleneck=bottleneck,
        scaling_efficiency=eff if n > 1 else 1.0,
        measured=measured,
    )
