"""Records shared by the catalog, the estimator, the advice and the presenters (no Qt, no logic).

Units are in field names. `None` means unknown. These are the contract between
catalog.py → estimate/ → advise.py → report/ and ui/; extend them, don't rename fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# -- catalog: GPUs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GpuSpec:
    """One GPU model from resources/gpus.toml."""

    id: str  # kebab-case, e.g. "rtx-4090"
    name: str  # "NVIDIA GeForce RTX 4090"
    vendor: str  # nvidia | amd | apple | intel
    segment: str  # consumer | laptop | workstation | datacenter | apple | integrated
    backend: str  # cuda | rocm | metal | xpu
    vram_bytes: int
    mem_bandwidth_gbps: float
    tflops_fp32: float  # dense, non-tensor
    tflops_fp16_tensor: float | None  # dense, FP32 accumulate (GeForce: half the marketing figure)
    tflops_bf16_tensor: float | None
    tflops_tf32_tensor: float | None = None
    tflops_fp8_tensor: float | None = None
    tdp_w: float | None = None
    architecture: str | None = None  # "Ada Lovelace"
    compute_capability: str | None = None  # "8.9"; AMD "gfx1100"
    tensor_cores: bool = False
    interconnect: str = "pcie"  # pcie | nvlink | infinity-fabric | unified
    nvlink_gbps: float | None = None  # per GPU, bidirectional
    pcie_gen: int | None = None
    price_usd: float | None = None
    price_cny: float | None = None
    price_kind: str | None = None  # street | msrp | list
    release_year: int | None = None
    aliases: tuple[str, ...] = ()
    source: str = ""
    as_of: str = ""
    price_source: str = ""
    price_as_of: str = ""
    memory_type: str | None = None  # GDDR6X | HBM3 | LPDDR5 …


# -- catalog: workloads ------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelSpec:
    arch: str  # transformer | cnn | unet | mlp
    params: float
    layers: int | None = None
    hidden: int | None = None
    heads: int | None = None
    kv_heads: int | None = None
    ffn: int | None = None
    vocab: int | None = None
    tied_embeddings: bool = False
    forward_gflops: float | None = None  # per sample, FLOPs (not MACs), non-transformer archs
    activation_mib: float | None = None  # per sample, 16-bit, non-transformer archs
    encoder_decoder: bool = False
    name: str | None = None  # "meta-llama/Meta-Llama-3-8B"
    ref_image_size: int | None = None  # image size forward_gflops / activation_mib were measured at
    aux_params: float = 0.0  # frozen helper networks kept on the GPU at 16-bit (VAE, text encoders)
    lora_params_per_rank: float | None = None  # non-transformer archs: adapter params added per unit of rank
    head_dim: int | None = None  # transformer: when not hidden / heads
    qkv_bias: bool = False  # Qwen2-style q/k/v biases
    gated_mlp: bool | None = None  # SwiGLU (LLaMA/Mistral/Qwen) vs GELU (GPT-2/BERT); None: ffn != 4·hidden
    aux_forward_gflops: float = 0.0  # per sample, forward only, through the frozen helper networks
    eager_attention: bool = False  # attention materializes the heads·s² score matrices (no SDPA/flash)


@dataclass(frozen=True)
class TrainSpec:
    method: str = "full"  # full | lora | qlora
    precision: str = "bf16"  # fp32 | fp16 | bf16 (mixed precision)
    optimizer: str = "adamw"  # adamw | adamw-8bit | sgd
    batch: int = 1  # micro-batch per GPU
    seq_len: int | None = None  # transformers
    image_size: int | None = None  # vision / diffusion
    grad_checkpointing: bool = False
    lora_rank: int = 16
    grad_accum: int = 1
    cpu_offload: bool = False
    lora_targets: str = "qv"  # qv | attention | all-linear (transformers)
    from_scratch: bool = False  # pre-training: no pretrained weights to download
    shard: bool = False  # FSDP / DeepSpeed ZeRO-3: weights, grads and optimizer state split across GPUs
    cache_embeddings: bool = False  # diffusion: VAE latents and text-encoder outputs computed once before
    #                                 training, so those frozen helper networks leave the GPU


@dataclass(frozen=True)
class DataSpec:
    samples: int
    epochs: float = 1.0
    bytes_per_sample: int = 0  # on disk
    in_memory: bool | None = None  # data set held in RAM (None: decided by size)
    avg_seq_len: int | None = None  # mean tokens per sample (speed); train.seq_len is the maximum (memory)


@dataclass(frozen=True)
class Workload:
    id: str
    title: str
    family: str  # vision | nlp | diffusion | llm | speech
    level: int
    model: ModelSpec
    train: TrainSpec
    data: DataSpec
    title_zh: str = ""
    description: str = ""
    description_zh: str = ""
    smaller_model: str | None = None  # id of a smaller workload in the same family (advice)
    source: str = ""  # where the architecture / data-set figures come from
    path: str | None = None  # file it was loaded from (custom jobs)


# -- estimates ---------------------------------------------------------------------------------

VERDICTS = ("runs", "runs_with_tweaks", "too_slow", "does_not_fit", "not_supported")


@dataclass(frozen=True)
class VramBreakdown:
    weights_bytes: int
    gradients_bytes: int
    optimizer_bytes: int
    activations_bytes: int
    overhead_bytes: int  # CUDA context, allocator fragmentation, workspace

    @property
    def total_bytes(self) -> int:
        return (
            self.weights_bytes
            + self.gradients_bytes
            + self.optimizer_bytes
            + self.activations_bytes
            + self.overhead_bytes
        )


@dataclass(frozen=True)
class Estimate:
    workload_id: str
    gpu_name: str  # "CPU" when no GPU
    gpus: int
    train: TrainSpec  # the settings this estimate is for
    fits: bool
    verdict: str  # one of VERDICTS (for this exact configuration, before advice)
    peak_vram_bytes: int  # per GPU
    vram_available_bytes: int | None  # per GPU, what a job may use
    breakdown: VramBreakdown
    ram_bytes: int
    disk_bytes: int
    samples_per_second: float | None
    tokens_per_second: float | None
    step_seconds: float | None
    total_hours: float | None
    measured_inputs: bool = False  # deep-scan figures replaced catalog peaks
    notes: tuple[str, ...] = ()  # rendered, in the current language
    assumptions: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def on_cpu(self) -> bool:
        """The job runs on the processor (no GPU target): RAM, not VRAM, is what it must fit in."""
        return self.extra.get("backend") == "cpu"
