"""Speed: a per-operation roofline of one training step, from the device's specifications.

Eager PyTorch runs a step as a sequence of kernels on one stream, so the GPU's time is the SUM of
what each kind of operation costs, each at the resource that bounds it:

- matrix math (linear layers, convolutions, attention score matmuls): FLOPs at the rate of the units
  the math runs on (`pick_peak`: 16-bit tensor cores with FP32 accumulate — GeForce cards run that at
  half the FP16-accumulate rate; TF32 tensor cores for fp32 convolutions, where cuDNN uses them by
  default, but not for fp32 matmuls since PyTorch 1.12; the FP32 vector units otherwise; Turing GTX
  (TU116/TU117) runs fp16 at twice its fp32 rate on the vector units), × the clock the card holds
  under its power limit (`sustained_clock_fraction`), × the share of that peak large GEMM/conv kernels
  reach (`speed.gemm_efficiency`), less for small matrices (hidden / (hidden + half)). A linear
  layer's pass cannot be faster than streaming its weights from DRAM (small token counts).
- element-wise operations (norms, activations, residual adds, dropout, softmax, loss): the bytes of
  feature maps they read and write at the sustained DRAM bandwidth, or the SM time they spend per
  element at SMs × clock, whichever is longer (a 16-bit element costs the SMs as much as a 32-bit one).
  Transformers: per token and layer from the hidden and FFN widths; CNNs and U-Nets: a factor × the
  per-sample feature maps (BatchNorm/GroupNorm, ReLU/SiLU and residual adds stream whole feature maps).
- the optimizer update (weights, gradients and moments read and written, per trainable parameter),
  autocast's per-forward casts of fp32 master weights to 16-bit, QLoRA's dequantization (each 4-bit weight read, written as a 16-bit copy and read back by the GEMM
  in every pass: a cost per weight read, amortized over the tokens of the step).
- the CPU dispatching the operators: operators per step (counted per layer, views and casts included) × the
  host cost of one (priced from PyTorch's gpt-fast eager measurement), scaled by the CPU's single-thread clock,
  so a step is never faster than the host can issue it; on the CPU backend the same cores do this in turn with
  the math. Hopper's tensor rate is capped for kernels that use mma.sync rather than wgmma (legacy_mma_fraction).
- several GPUs (gpucheck/estimate/links.py): the collectives over the real links — NVLink, PCIe with peer-to-peer,
  PCIe through host memory where the driver disables peer-to-peer (GeForce), and between machines each GPU's
  share of the network — hidden as each engine schedules them (gpucheck/estimate/zero_comm.py: DDP behind backward,
  DeepSpeed ZeRO-1/2 bucket by bucket or in turn, its post-step gather alone, sharded gathers behind their own pass);
  only the exposed part costs time; DeepSpeed ZeRO-3's per-module hooks add to the host's dispatch
  (gpucheck/estimate/zero3_hooks.py). CPU offload: its PCIe copies and the CPU's optimizer pass, by their bytes.

The software stack (`train.stack`) changes the kernel count and the memory traffic: `eager`
(Hugging Face Trainer, plain PyTorch modules), `fused` (fused/compiled kernels: torch.compile, apex,
NVIDIA's DeepLearningExamples, FlashAttention), `handtuned` (llm.c-style hand-written CUDA). Every
number is in resources/factors.toml with its source; docs/accuracy.md checks the result against
published runs, separating the rows used to set a factor (calibration) from the rest (validation).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpucheck.estimate import autocast as ac  # what mixed precision still moves in fp32
from gpucheck.estimate import dropout as dr  # dropout and drop_path, where the model turns them on
from gpucheck.estimate import linear_attention as la  # Gated DeltaNet layers beside softmax attention
from gpucheck.estimate import moe  # mixture-of-experts layers: what is stored, what a token runs
from gpucheck.estimate import (
    seq2seq as s2s,  # encoder-decoder blocks (Whisper): the decoder over its target tokens
)
from gpucheck.estimate.accumulate import half_rate_efficiency, half_rate_fp32_accumulate
from gpucheck.estimate.conv_fp32 import conv_fp32_multiplier
from gpucheck.estimate.cpu_attention import fused_score_seconds
from gpucheck.estimate.cpu_conv import conv_reorder_seconds, max_pool_seconds, padding_skipped_share
from gpucheck.estimate.cpu_core import cpu_math, cpu_rows_efficiency, element_bytes, sixteen_bit
from gpucheck.estimate.cpu_dropout import mask_seconds
from gpucheck.estimate.cpu_pages import fault_seconds
from gpucheck.estimate.dispatch import (
    dispatch_seconds,
    host_clock_mhz,
    host_loss_ops,
    kernels_per_step,
    layer_operators,
    linears,
    serial_optimizer_ops,
    stack_of,
)
from gpucheck.estimate.eager_scores import score_traffic  # eager attention's operators over its scores
from gpucheck.estimate.factors import fp32_lanes_per_sm, image_scale, load_factors, seq_len_of
from gpucheck.estimate.links import Traffic
from gpucheck.estimate.logits import trl_chunk_traffic
from gpucheck.estimate.loop import step_overhead_seconds
from gpucheck.estimate.optimizer_traffic import step_bytes_per_param, stepped_params
from gpucheck.estimate.params import ParamCounts, active_block_linear_params, block_linear_params, head_dim
from gpucheck.estimate.qlora_cast import dequant_bytes, linear4bit_activation_bytes
from gpucheck.estimate.sharding import frozen_weight_grads
from gpucheck.estimate.target import power_budget_clock
from gpucheck.estimate.zero3_hooks import hook_ops as zero3_hook_ops
from gpucheck.estimate.zero_comm import exposed_seconds
from gpucheck.records import ModelSpec, TrainSpec, Workload


@dataclass(frozen=True)
class Speed:
    flops_per_sample: float
    peak_tflops: float  # the peak used (per device), at the sustained clock
    math: str  # bf16-tensor | fp16-tensor | tf32-tensor | fp16-vector | fp32 | cpu-fp32 …
    utilization: float  # share of `peak_tflops` the step as a whole reaches (model-FLOPs utilization)
    step_seconds: float  # one optimizer step of `batch` samples per device
    samples_per_second: float  # all devices together
    tokens_per_second: float | None
    bottleneck: str  # compute | memory | overhead | communication | offload | input
    scaling_efficiency: float  # 1.0 for one device
    measured: bool  # peak/bandwidth came from the deep scan
    stack: str = "eager"
    matmul_seconds: float = 0.0  # per step and device: the parts of the step
    memory_seconds: float = 0.0
    dispatch_seconds: float = 0.0
    communication_seconds: float = 0.0  # exposed (not hidden behind backward)
    kernels_per_step: float = 0.0
    clock_fraction: float = 1.0  # sustained / boost clock under the power limit
    offload_seconds: float = 0.0  # CPU offload: host copies and the CPU's optimizer step not hidden by the GPU
    host_bound: bool = False  # the CPU's operator launches, not the GPU, set the step's pace
    host_clock_mhz: float = 0.0  # the host CPU's single-thread clock the dispatch cost was priced at
    serial_seconds: float = 0.0  # CPU target: dropout's masks and page faults (cpu_dropout.py, cpu_pages.py)
    input_seconds: float = 0.0  # what the host's input path (features, batches) adds to a step (estimate/input_path.py)
    input_bound: bool = False  # that input path, not the GPU, sets the step's pace

    def with_step(self, step_seconds: float, **changes: Any) -> Speed:
        """The same work done in `step_seconds` per step: the rates scale with it (and `changes` are applied)."""
        k = self.step_seconds / step_seconds
        tokens = None if self.tokens_per_second is None else self.tokens_per_second * k
        return dataclasses.replace(self, step_seconds=step_seconds, samples_per_second=self.samples_per_second * k,
                                   utilization=self.utilization * k, tokens_per_second=tokens, **changes)


# -- work ------------------------------------------------------------------------------------------


def _attn_len(t: TrainSpec, attn_len: int | None) -> int:
    return attn_len or seq_len_of(t)


def forward_flops_per_sample(m: ModelSpec, t: TrainSpec, attn_len: int | None = None) -> tuple[float, float]:
    """(FLOPs in trained-or-frozen linear/conv layers, FLOPs in attention score math) for one sample.
    `attn_len`: the length attention spans when it differs from the row length (packed samples)."""
    if m.arch == "transformer":
        s = seq_len_of(t)
        linear = active_block_linear_params(m) or m.params  # a MoE layer: the experts a token runs
        head = m.hidden * m.vocab if m.vocab and m.hidden else 0  # lm_head / MLM head, over the target tokens
        attn = 4.0 * la.softmax_layers(m) * _attn_len(t, attn_len) * (m.heads or 1) * head_dim(m)
        attn += la.recurrence_flops_per_token(m, load_factors())  # Gated DeltaNet layers: no term in the length²
        dec_linear, dec_attn = s2s.decoder_forward_flops(m, t)
        return 2.0 * (linear * s + head * s2s.target_tokens(m, t)) + dec_linear, attn * s + dec_attn
    scale = image_scale(m, t)
    # U-Nets: self-attention scores span latent tokens × latent tokens (pixels²), cross-attention latent × text tokens
    attn = (m.attn_gflops * scale + m.cross_attn_gflops) * scale * 1e9
    return (m.forward_gflops or 0.0) * 1e9 * scale, attn


def _aux_flops(m: ModelSpec, t: TrainSpec) -> float:
    return 0.0 if t.cache_embeddings else (m.aux_forward_gflops or 0.0) * 1e9 * image_scale(m, t)


def _backward_per_forward(t: TrainSpec, gpus: int) -> float:
    """Backward's FLOPs per forward FLOP of a linear layer: 2 trained (input and weight gradients), 1 frozen."""
    return 1.0 if t.method in ("lora", "qlora") and not frozen_weight_grads(t, gpus) else 2.0


def train_flops_per_sample(m: ModelSpec, t: TrainSpec, attn_len: int | None = None, gpus: int = 1) -> float:
    """Forward + backward (+ recomputation). Backward costs 2× the forward of trained layers (input
    and weight gradients) and 1× that of frozen ones (LoRA/QLoRA: input gradients only)."""
    linear, attn = forward_flops_per_sample(m, t, attn_len)
    bwd_linear = _backward_per_forward(t, gpus)
    total = linear * (1.0 + bwd_linear) + attn * 3.0
    if t.grad_checkpointing:
        total += linear + attn
    total += trl_chunk_traffic(m, t, load_factors())[1]  # TRL's chunked loss runs the output layer again in backward
    return total + _aux_flops(m, t) + s2s.extra_train_flops(m, t, bwd_linear)  # CTC head, conv front end


# -- the CPU's cores --------------------------------------------------------------------------------


def effective_precision(t: TrainSpec, spec: Any, backend: str) -> str:
    """bf16 falls back to fp16 on GPUs without bf16 (NVIDIA before Ampere)."""
    if t.precision in ("bf16", "bf16-pure") and backend == "cuda" and spec is not None:
        if spec.tflops_bf16_tensor is None and spec.tflops_fp16_tensor is not None:
            return "fp16"
    return t.precision



def pick_peak(t: TrainSpec, m: ModelSpec, target: Any, f: Mapping[str, Any]) -> tuple[float, str, bool]:
    """(peak TFLOPS per device at the boost clock, math kind, measured?) for this job on this target."""
    spec = target.gpu
    meas = target.measured
    if spec is None:  # CPU
        per_cycle, math = cpu_math(t, target.cpu_core(f), f, m.arch)
        return target.cpu_peak_tflops(f, per_cycle), math, False
    precision = effective_precision(t, spec, spec.backend)
    tf32 = f["tf32_default"]
    # a job that turns TF32 on itself (train.tf32_matmul: NGC's override, Intel's ITEX_FP32_MATH_MODE=TF32 or IPEX's
    # torch.xpu.set_fp32_math_mode) gets it on any device with TF32 units; otherwise the backend's defaults decide
    uses_tf32 = bool(t.tf32_matmul) or (spec.backend in tf32["backends"] and (
        tf32["linear" if m.flops_in_linear else m.arch] or stack_of(t, f)["tf32_matmul"]))
    if precision.startswith("bf16") and spec.tflops_bf16_tensor:
        if meas and meas.gpu_tflops_bf16:
            return meas.gpu_tflops_bf16, "bf16-tensor", True
        return spec.tflops_bf16_tensor, "bf16-tensor", False
    if sixteen_bit(precision) and spec.tflops_fp16_tensor:
        if meas and meas.gpu_tflops_fp16:
            return meas.gpu_tflops_fp16, "fp16-tensor", True
        return spec.tflops_fp16_tensor, "fp16-tensor", False
    if sixteen_bit(precision) and getattr(spec, "tflops_fp16_vector", None):
        return spec.tflops_fp16_vector, "fp16-vector", False  # Turing GTX: double-rate fp16, no tensor cores
    if precision == "fp32" and uses_tf32 and spec.tflops_tf32_tensor:
        if meas and meas.gpu_tflops_tf32:
            return meas.gpu_tflops_tf32, "tf32-tensor", True
        return spec.tflops_tf32_tensor, "tf32-tensor", False
    if meas and meas.gpu_tflops_fp32:
        return meas.gpu_tflops_fp32, "fp32", True
    return fp32_gemm_tflops(spec), "fp32", False


def fp32_gemm_tflops(spec: Any) -> float:
    """The catalog's FP32 rate for matrix multiplies (gpus.toml tflops_fp32_matrix where it differs from tflops_fp32):
    AMD CDNA runs FP32 GEMMs on its matrix cores (rocBLAS/MIOpen MFMA kernels, v_mfma_f32_*) at twice the FP32 vector
    rate; AMD RDNA 3's FP32 peak counts dual issue (VOPD), which compiled GEMM kernels do not reach, so its GEMMs run
    at half of it. Element-wise kernels keep tflops_fp32."""
    return getattr(spec, "tflops_fp32_matrix", None) or spec.tflops_fp32


def clock_fraction(target: Any, f: Mapping[str, Any], measured: bool) -> float:
    """Share of the boost clock the GPU holds through a training run within its power limit. Where a scan read the
    limit (Target.power_budget_fraction), the card's own: the catalog's `sustained_clock_fraction` (or the full boost
    clock, which cards hold at their rated power) times what a lower limit leaves of it (power_budget_clock). Where
    not, the catalog's `sustained_clock_fraction`, else the fallback for its segment (a laptop of unknown TGP)."""
    spec = target.gpu
    if spec is None or measured:
        return 1.0
    own = getattr(spec, "sustained_clock_fraction", None)
    budget = getattr(target, "power_budget_fraction", None)
    if budget:
        return (float(own) if own else 1.0) * power_budget_clock(budget, f)
    return float(own) if own else float(f["clocks"]["fallback_fraction"][spec.segment])


def tensor_power_fraction(target: Any, math: str, f: Mapping[str, Any]) -> float:
    """Share of the boost clock tensor math holds inside the board's power limit: dense tensor work costs
    about a fixed energy per FLOP on a given silicon generation (`clocks.tensor_tflops_per_watt`, keyed by
    compute capability), so a card whose tensor peak needs more than its TDP allows runs at
    TDP × TFLOPS-per-watt / peak. GeForce cards do the physical work of their FP16-accumulate rate (twice
    the FP32-accumulate figure in the catalog; not the TITAN RTX, which runs FP32 accumulation at full rate). 1.0 where the generation has no published measurement."""
    spec = target.gpu
    if spec is None or not math.endswith("tensor") or not spec.tdp_w:
        return 1.0
    per_watt = f["clocks"]["tensor_tflops_per_watt"].get(spec.compute_capability or "")  # absent: no measurement
    if not per_watt:
        return 1.0
    physical = spec.tflops_fp16_tensor or spec.tflops_bf16_tensor or 0.0
    if half_rate_fp32_accumulate(spec):
        physical *= 2.0
    if physical <= 0:
        return 1.0
    return min(1.0, spec.tdp_w * per_watt / physical)


def legacy_mma_fraction(target: Any, math: str, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Share of the tensor peak that kernels written for the previous generation's MMA instructions reach: on
    Hopper the full rate needs warpgroup MMA (wgmma); mma.sync reaches about 2/3 of it (Shah et al. 2024,
    FlashAttention-3). Hand-tuned stacks (cuBLASLt's sm90 kernels) are exempt."""
    spec = target.gpu
    if spec is None or not math.endswith("tensor") or stack_of(t, f)["native_mma"]:
        return 1.0
    return _by_generation(f["speed"]["legacy_mma_fraction"], spec)  # a generation not listed has no such split


def tensor_share(target: Any, math: str, f: Mapping[str, Any]) -> float:
    """Share of the tensor peak the first tensor-core generations (Volta, Turing) sustain in PyTorch's kernels
    (factors.toml [speed.tensor_share], fitted); 1 for every other generation and for non-tensor math."""
    spec = target.gpu
    if spec is None or not math.endswith("tensor"):
        return 1.0
    return _by_generation(f["speed"]["tensor_share"], spec)


def _by_generation(per_cc: Mapping[str, Any], spec: Any) -> float:
    """A factors.toml table keyed by compute capability: this GPU's value, 1 where its generation is not listed."""
    return float(per_cc[spec.compute_capability]) if spec.compute_capability in per_cc else 1.0


def sm_cycle_rate(target: Any, clock: float, f: Mapping[str, Any]) -> float:
    """SM-cycles per second (SMs × sustained clock): the rate at which element-wise kernels issue their
    loads, stores and index math. Taken from the FP32 peak over the FP32 lanes of one SM (2 FLOPs per lane
    and cycle), because doubling the FP32 lanes (Pascal GP10x, GA10x, Ada, Hopper, Blackwell) doubles
    the peak but not the load/store units or the issue slots. 0 without a GPU."""
    spec = target.gpu
    if spec is None or not spec.tflops_fp32:
        return 0.0
    return spec.tflops_fp32 * 1e12 * clock / (2.0 * fp32_lanes_per_sm(spec, f))


def gemm_efficiency(m: ModelSpec, math: str, backend: str, f: Mapping[str, Any], spec: Any = None) -> float:
    """Share of the peak that the model's matrix kernels reach (GEMMs, convolutions) on the GPU `spec`."""
    s = f["speed"]
    if backend == "cpu" and m.arch == "transformer":  # a CPU's linear layers: measured on its kernels, not GPUs' fit
        return float(f["cpu"]["linear_efficiency"]) * f["utilization"]["backend_factor"][backend]
    table = s["gemm_efficiency"][m.arch]
    # 16-bit kernels on the vector units (Turing GTX) are the same kernels as on tensor cores, less well fed
    kind = "tf32" if math.startswith("tf32") else ("tensor" if math.endswith(("tensor", "vector")) else "fp32")
    val = table[kind]
    if m.arch == "cnn" and math == "fp32" and backend in ("cuda", "rocm") and not m.flops_in_linear:
        val *= conv_fp32_multiplier(m, spec, f)  # Winograd / FFT on the 3×3 stride-1 layers (estimate/conv_fp32.py)
    if m.arch == "transformer" and m.hidden:
        half = s["small_hidden_half"]
        val *= m.hidden / (m.hidden + half)
    return val * f["utilization"]["backend_factor"][backend]


def elementwise_traffic_per_step(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any],
                                 attn_len: int | None = None, backend: str = "") -> tuple[float, float]:
    """(bytes, elements) the memory-bound operations of one step read and write (forward, backward
    = 2 forwards, recomputation = one more forward), before the stack's fusion factor. Bytes set the
    time at the memory's bandwidth; elements set the instructions on the vector lanes, which do not
    shrink when the elements are 16-bit."""
    e = f["speed"]["elementwise"]
    passes = 3.0 + (1.0 if t.grad_checkpointing else 0.0)
    eb = element_bytes(t.precision)
    if m.arch == "transformer":
        h, ffn = m.hidden or 0, moe.token_ffn(m)  # a MoE layer: the k experts' widths a token runs
        # under autocast over fp32 master weights the residual stream stays fp32 (gpucheck/estimate/autocast.py)
        # dropout and drop_path move bytes only where the model turns them on (gpucheck/estimate/dropout.py)
        hidden_el = (e["hidden_elements"] + dr.hidden_elements(m, f) + moe.routing_hidden_elements(m, f)) * h
        tok_bytes, per_token = ac.per_token_bytes(m, t, f, hidden_el, e["ffn_elements"] * ffn, linears(m), eb)
        tok_eb = tok_bytes / per_token if per_token else eb
        # softmax and the loss run in fp32 under autocast (PyTorch AMP op reference: softmax, log_softmax,
        # cross_entropy autocast to float32), so their elements are 4 bytes in every precision
        # eager attention: heads × s scores per token and layer, the element-wise operators over them counted per
        # code for the whole step ([speed.elementwise.score_traffic]); their dropout per pass, in fp32
        scores = (m.heads or 1) * _attn_len(t, attn_len) if m.eager_attention else 0.0
        score_bytes, score_el = score_traffic(m, t, f) if scores else (0.0, 0.0)
        dropped = dr.score_elements(m, f) * scores
        tokens = seq_len_of(t) * t.batch
        layers = m.layers or 1
        logits = e["logit_elements"] * (m.vocab or 0) * s2s.target_tokens(m, t) * t.batch * 2.0  # loss: fwd + bwd
        # a CTC head's log-softmax and loss stream its logits over every encoder frame, in fp32 as the loss's
        logits += e["logit_elements"] * m.ctc_vocab * seq_len_of(t) * t.batch * 2.0
        decoder = s2s.decoder_elementwise_elements(m, t, per_token) * t.batch * passes
        elements = ((per_token + dropped) * passes + scores * score_el) * layers * tokens + decoder + logits
        moved = ((tok_bytes + dropped * 4.0) * passes + scores * score_bytes) * layers * tokens
        # TRL's chunked loss copies the output layer in every chunk's forward, and again when backward reruns it
        return moved + decoder * tok_eb + logits * 4.0 + trl_chunk_traffic(m, t, f)[0], elements
    if not (m.activation_mib or m.elementwise_mib):
        return 0.0, 0.0
    if m.elementwise_mib:  # counted on the model's code (benchmarks/count_conv_elementwise.py), in 16-bit MiB
        per_sample = m.elementwise_mib * 1024.0**2 * image_scale(m, t)
        k = 1.0
    else:  # the saved activations (bytes of 16-bit elements) × the per-operation count for the arch
        per_sample = (m.activation_mib or 0.0) * 1024.0**2 * image_scale(m, t)
        k = e["feature_map_factor"][m.arch]
    elements = (k * per_sample / 2.0 + depthwise_loads_per_sample(m, t, f, backend)) * t.batch * passes / 3.0
    return elements * eb, elements


def depthwise_loads_per_sample(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any], backend: str) -> float:
    """Elements a conv net's depthwise convolutions load per sample over forward and backward: PyTorch runs them in
    its own direct kernels (one thread per output looping over the taps; the weight gradient one block per channel
    and tap, re-reading the input and the output gradient for every tap), so each multiply-add loads its operands
    rather than reusing them from registers as a GEMM does (factors.toml [speed.elementwise] depthwise_loads_per_mac).
    On CUDA, fp16 depthwise layers go to cuDNN's tiled kernels instead (PyTorch Convolution.cpp use_cudnn_depthwise:
    FP16 with cuDNN >= 8.2, 1×1/3×3/5×5 filters; channels-last always): nothing is added there."""
    cudnn = backend == "cuda" and (t.channels_last or t.precision.startswith("fp16"))
    if not m.depthwise_gflops or cudnn:
        return 0.0
    macs = m.depthwise_gflops * 1e9 / 2.0 * image_scale(m, t)
    return macs * f["speed"]["elementwise"]["depthwise_loads_per_mac"]


def weight_stream_bytes(weights_16bit: float, t: TrainSpec, gpus: int = 1) -> tuple[float, int]:
    """(bytes of one read of the working weights, passes over them): forward, input-gradient pass,
    weight-gradient pass (trained layers only), recomputation."""
    grads = t.method == "full" or frozen_weight_grads(t, gpus)
    passes = 2 + (1 if grads else 0) + (1 if t.grad_checkpointing else 0)
    return weights_16bit, passes


def optimizer_bytes(trainable: float, t: TrainSpec, f: Mapping[str, Any], gpus: int = 1) -> float:
    """One GPU's optimizer reads and writes, spread over the step's micro-batches (estimate/optimizer_traffic.py)."""
    return stepped_params(trainable, t, gpus) * step_bytes_per_param(t, f) / max(1, t.grad_accum)


def autocast_cast_bytes(trainable: float, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Mixed precision keeps fp32 master weights: autocast's weight casts, their gradients' fp32 conversion and
    fp16's GradScaler pass over the gradients (gpucheck/estimate/autocast.py)."""
    return trainable * ac.per_param_bytes(t, f)


# -- several GPUs ----------------------------------------------------------------------------------


def small_batch_efficiency(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """How busy a U-Net keeps the GPU at this batch: its deepest levels work on 8×8–16×16 latents with
    1,280 channels, too few threads to fill a GPU with one or two images: P / (P + half),
    P = batch × the positions of the grid the U-Net runs on ((image_size / latent_downscale)²: a latent-diffusion
    U-Net's latents, a pixel-space U-Net's pixels); 1.0 for other archs."""
    half = f["utilization"]["small_batch_half_positions"].get(m.arch)  # absent: no small-batch effect measured
    if not half or not t.image_size:
        return 1.0
    positions = t.batch * (t.image_size / m.latent_downscale) ** 2
    return positions / (positions + half)


# -- the step --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Gpu:
    matmul_s: float
    memory_s: float
    kernels: float
    fixed_s: float = 0.0  # the part that does not grow with the samples of the step (weights, optimizer, dequant)


def _gpu_time(m: ModelSpec, t: TrainSpec, target: Any, f: Mapping[str, Any], pc: ParamCounts,
              rate_flops: float, bw: float, attn_len: int | None,
              sm_rate: float = 0.0) -> _Gpu:
    st = stack_of(t, f)
    linear, attn = forward_flops_per_sample(m, t, attn_len)
    linear *= t.batch * (1.0 - padding_skipped_share(m, t, target, f))  # a CPU's convolutions skip their zero padding
    attn *= t.batch
    w16 = (block_linear_params(m) + s2s.decoder_linear_params(m) + (m.hidden or 0) * (m.vocab or 0)) \
        if m.arch == "transformer" else m.params
    w16 *= element_bytes(t.precision)
    gpus = target.processes
    one_read, passes = weight_stream_bytes(w16, t, gpus)
    # each pass over the linear layers: its FLOPs at the matrix rate, or streaming its weights, whichever is longer
    pass_s = max(linear / rate_flops, one_read / bw)
    matmul = pass_s * passes + attn * (3.0 + (1.0 if t.grad_checkpointing else 0.0)) / rate_flops
    matmul += _aux_flops(m, t) * t.batch / rate_flops
    matmul += fused_score_seconds(m, t, target, f, attn_len)  # a CPU's fused attention: its softmax per score
    matmul += conv_reorder_seconds(m, t, target, f)  # a CPU's convolutions: their weights reordered every call
    matmul += max_pool_seconds(m, t, target, f)  # a CPU's max pools in NCHW: each window walked element by element
    matmul += s2s.extra_train_flops(m, t, _backward_per_forward(t, gpus)) * t.batch / rate_flops
    ew_bytes, ew_elements = elementwise_traffic_per_step(m, t, f, attn_len, target.backend)
    rest = optimizer_bytes(pc.trainable, t, f, gpus) + dequant_bytes(pc.quantized, t, f) \
        + autocast_cast_bytes(pc.trainable, t, f) + linear4bit_activation_bytes(m, t, f)
    # element-wise kernels also issue instructions per element (loads and stores, index math, type conversion,
    # normalization in fp32): as many for a 16-bit element as for a 32-bit one, at the SMs' issue rate; on a GPU
    # with few SM-cycles per byte of bandwidth, 16-bit feature maps are issue-bound and gain less than half the bytes
    alu_s = f["speed"]["elementwise"]["sm_cycles_per_element"] * ew_elements / sm_rate if sm_rate else 0.0
    memory = max(ew_bytes / bw, alu_s) * st["elementwise_scale"] + rest / bw
    streaming = passes * max(0.0, one_read / bw - linear / rate_flops)  # weight reads beyond the math's time
    # DeepSpeed ZeRO-3's module hooks dispatch besides the layers' own operators (gpucheck/estimate/zero3_hooks.py)
    kernels = kernels_per_step(m, t, pc, f, target.backend, gpus) + zero3_hook_ops(m, t, pc, f, gpus)
    return _Gpu(matmul, memory, kernels, fixed_s=streaming + rest / bw)


def speed(m: ModelSpec, t: TrainSpec, target: Any, f: Mapping[str, Any], pc: ParamCounts, traffic: Traffic,
          attn_len: int | None = None) -> Speed:
    """One step's time on `target`. `t.seq_len` is the tokens per row the GPU processes; `attn_len`
    the length attention spans (shorter when several samples are packed in a row); `traffic` what each
    GPU sends over the link per optimizer step and moves to and from the host (CPU offload)."""
    backend = target.backend
    peak, math, measured = pick_peak(t, m, target, f)
    clock = clock_fraction(target, f, measured)
    eff = gemm_efficiency(m, math, backend, f, target.gpu) * stack_of(t, f)["gemm_scale"] * cpu_rows_efficiency(m, t, target, f)
    if math.endswith("tensor") and half_rate_fp32_accumulate(target.gpu):
        eff = half_rate_efficiency(eff)  # MMA time doubles, the work around it does not (estimate/accumulate.py)
    explicit = target.gpu is not None and bool(getattr(target.gpu, "sustained_clock_fraction", None))
    tensor_clock = clock if explicit or measured else clock * tensor_power_fraction(target, math, f)
    # the board's power caps the tensor FLOPs per second, whatever the kernel: kernels that issue the previous
    # generation's MMA instructions run below the power limit rather than below it twice
    tensor_clock = min(tensor_clock, legacy_mma_fraction(target, math, t, f))
    if not measured:  # a deep scan's measured peak already is what this GPU sustains
        tensor_clock *= tensor_share(target, math, f)
    rate = peak * 1e12 * tensor_clock * eff
    if target.gpu is not None and not math.startswith("fp32"):
        # cuDNN/cuBLAS pick the fastest kernel: never slower than the fp32 vector path
        fp32 = fp32_gemm_tflops(target.gpu) * 1e12 * clock * gemm_efficiency(m, "fp32", backend, f, target.gpu)
        rate = max(rate, fp32)
    bw = target.streaming_gbps(f) * 1e9
    measured = measured or target.bandwidth_measured
    g = _gpu_time(m, t, target, f, pc, rate, bw, attn_len, sm_cycle_rate(target, clock, f))
    # a GPU's occupancy at small batches; a CPU's few cores fill with far less parallel work
    gpu_s = (g.matmul_s + g.memory_s) / (small_batch_efficiency(m, t, f) if target.gpu is not None else 1.0)
    disp_s = dispatch_seconds(g.kernels, target, f)
    overhead_s = step_overhead_seconds(t, backend, f)
    # a GPU runs its queue while the CPU dispatches the next operators; on the CPU the same cores do both in turn,
    # one of them alone draws dropout's random masks, and the step's largest tensors fault their pages in afresh
    serial_s = mask_seconds(m, t, target, f, attn_len) + fault_seconds(m, t, target, f)
    work_s = max(gpu_s, disp_s) if target.gpu is not None else gpu_s + disp_s + serial_s
    # a per-tensor optimizer loop (optimizer_impl "single") starts after the step's host sync (gradient clipping's
    # norm, the loss scaler's inf check): the GPU waits for each of its launches, so its dispatch adds to the step
    # so does a loss computed after a host sync (YOLOv5's: factors.toml [dispatch.host_loss]), forward and backward
    serial_ops = serial_optimizer_ops(m, t, pc, f, target.backend) + host_loss_ops(m, t, f)
    # a MoE layer's grouped GEMMs as a loop over the experts (NVIDIA below compute capability 8.0): each loop starts
    # after a host sync, in every MoE layer's forward and backward, so launches and GPU work run in turn
    fallback = moe.grouped_gemm_falls_back(m, target, f)
    if fallback:
        serial_ops += moe.fallback_loop_ops(m, t, f)
        work_s = gpu_s + disp_s
    loop_s = dispatch_seconds(serial_ops, target, f) if target.gpu else 0.0
    work_s += loop_s
    if t.host_sync and target.gpu is not None and not fallback:
        # the forward pass waits for the GPU in every layer: there the CPU's launches and the GPU's work run in turn
        # (the forward is 1 / (1 + backward's operators per forward one, counted for the layer code) of both; backward,
        # in autograd's thread, still overlaps, except where activation checkpointing runs each layer's forward, and its
        # wait, again inside backward)
        fwd = 2.0 if t.grad_checkpointing else 1.0
        work_s += min(gpu_s, disp_s) * fwd / (fwd + layer_operators(m, f)[1])
    disp_s += loop_s
    # "overhead": the step is too small — the CPU's launches, or the per-step costs that do not grow with the
    # samples (reading every weight, QLoRA's dequantization, the optimizer update) outweigh the work that does
    host_bound = target.gpu is not None and disp_s >= gpu_s  # the CPU launches slower than the GPU runs
    small = host_bound or g.fixed_s > gpu_s - g.fixed_s
    bottleneck = "overhead" if small else ("compute" if g.matmul_s >= g.memory_s else "memory")
    n = target.processes
    # the collectives and offload copies the GPU's work does not hide, as each engine schedules them (zero_comm.py)
    exposed, off_exposed, off_serial = exposed_seconds(traffic, t, target, f, gpu_s, n)
    base = work_s + overhead_s + off_serial + off_exposed  # the step without the other GPUs
    step = base + exposed
    scaling = base / step if step > 0 else 1.0
    if n > 1:
        scaling *= f["multi_gpu"]["base_efficiency"]
        step = base / scaling
    if exposed > 0.5 * (work_s + overhead_s):
        bottleneck = "communication"
    elif off_serial + off_exposed > 0.5 * (work_s + overhead_s):
        bottleneck = "offload"
    fps = train_flops_per_sample(m, t, attn_len, n)
    sps = t.batch * n / step
    # a transformer over text: tokens per second; over image patches (ViT: image_size set) images are what it counts
    tps = sps * (t.seq_len or 0) if m.arch == "transformer" and t.seq_len and not t.image_size else None
    util = fps * t.batch / (step * peak * 1e12) if peak else 0.0
    return Speed(
        flops_per_sample=fps, peak_tflops=peak * tensor_clock, math=math, utilization=util, step_seconds=step,
        samples_per_second=sps, tokens_per_second=tps, bottleneck=bottleneck,
        scaling_efficiency=scaling if n > 1 else 1.0, measured=measured, stack=t.stack,
        matmul_seconds=g.matmul_s, memory_seconds=g.memory_s, dispatch_seconds=disp_s,
        communication_seconds=exposed, kernels_per_step=g.kernels, clock_fraction=clock,
        offload_seconds=off_serial + off_exposed, host_bound=host_bound,
        host_clock_mhz=host_clock_mhz(target, f) if target.gpu is not None else 0.0, serial_seconds=serial_s,
    )


# -- the run ---------------------------------------------------------------------------------------


def run_samples(w: Workload, t: TrainSpec) -> float:
    """Samples the whole run trains on: the job's token budget over the tokens per sample when it
    states one (pre-training), else samples × epochs."""
    tokens = w.data.tokens
    if tokens and w.model.arch == "transformer":
        per_sample = w.data.avg_seq_len or seq_len_of(t)
        return tokens / per_sample
    return w.data.samples * w.data.epochs
