"""Records the advice returns (frozen, JSON-able through `to_jsonable`). No logic, no Qt.

Every user-facing text field is already rendered in the language that was active when `advise()`
ran; stable `id`/`code` fields let a UI or a test tell items apart without reading prose.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gpucheck.verdict import Verdict

ADVICE_VERDICTS = tuple(v.value for v in Verdict)  # gpucheck.verdict.Verdict

# The tweak ladder, in the order tweaks are tried.
TWEAK_IDS = (
    "full_precision",  # forced: FP32 where FP16 gives NaN (GTX 16xx)
    "mixed_precision",
    "fused_loss",  # a causal LM on the Hugging Face stack: Liger's fused linear cross-entropy keeps no logits
    "ddp_bucket_view",  # several GPUs with DDP: gradients as views into its buckets, no second copy
    "unsloth",  # a LoRA / QLoRA of a model Unsloth patches: its kernels, checkpoints in CPU RAM, no logits kept
    "sharding",
    "micro_batch",
    "grad_checkpointing",
    "cache_embeddings",
    "optimizer_8bit",
    "pure_bf16",
    "cpu_offload",
    "shorter_sequences",  # only a limit the data hardly reaches (loses nothing); one that cuts samples is an
)                         # alternative
# The first step of an alternative ("what fits instead"): these change what is trained (the method, the
# data — long samples cut, a lower resolution — or the model).
ALTERNATIVE_IDS = ("lora", "qlora", "shorter_sequences", "smaller_images", "smaller_model")
# Optional speed-ups for a job that already runs (Tweak.kind == "speed"), each offered on its own.
SPEED_TWEAK_IDS = ("packing", "larger_batch", "unsloth")
# those that help because the steps are too small to keep the GPU busy (per-step overhead); Unsloth is other software
OVERHEAD_SPEED_TWEAK_IDS = ("packing", "larger_batch")


@dataclass(frozen=True)
class Tweak:
    """One step of the ladder that the advice applied (cumulative with the ones before it)."""

    id: str  # one of TWEAK_IDS
    title: str  # "Use BF16 mixed precision"
    cost: str  # "none on this GPU; usually faster"
    settings: dict[str, Any]  # Hugging Face names → values, e.g. {"bf16": True}
    peak_vram_bytes: int | None = None  # per GPU, after this step
    total_hours: float | None = None  # after this step
    fits: bool | None = None  # after this step
    kind: str = "fit"  # "fit": needed to run (cumulative ladder) | "speed": optional, only makes a running job faster
    #                    | "method": the first step of an alternative (another method or model: not a tweak)
    loses: str = ""  # what the step gives up: nothing | time | quality | data (ladder.LOSSES) | method | model
    # "speed" tweaks are alternatives to each other, each applied on top of the advised configuration


@dataclass(frozen=True)
class Bottleneck:
    id: str  # data_loading | audio_input | ram | disk_speed | disk_space | pcie | thermal | psu | battery | mig | cpu_only
    severity: str  # info | warning | error
    message: str  # what is wrong, in plain words, with the numbers
    fix: str  # what to do
    figures: dict[str, Any] = field(default_factory=dict)  # the numbers behind the message (units in keys)


@dataclass(frozen=True)
class SoftwareFix:
    id: str  # torch_missing | torch_cpu_only | torch_arch | torch_driver | driver_too_old | rocm_build | mps_unavailable | no_bitsandbytes
    message: str
    command: str | None = None  # exact command to copy, when there is one
    severity: str = "warning"


@dataclass(frozen=True)
class Upgrade:
    kind: str  # gpu | ram | ssd | psu
    part_id: str
    name: str
    price_usd: float | None
    price_cny: float | None
    price_kind: str | None
    reason: str  # why this part
    notes: tuple[str, ...] = ()  # PSU, slot, PCIe, laptop considerations
    total_hours: float | None = None  # GPU: the job's time with this card
    tweaks: tuple[str, ...] = ()  # GPU: tweak ids still needed on that card
    verified: bool = True
    source: str = ""
    as_of: str = ""
    gpu_id: str | None = None  # GPU: the card's id in the GPU catalog (resources/gpus.toml)
    fit: str = "fits"  # GPU: fits (with room) | tight (inside the estimate's error band: may fit)
    gpus: int = 1  # GPU: how many of the card the plan uses (2: two cards sharing the job)


@dataclass(frozen=True)
class CloudOption:
    label: str  # free | cheapest | fastest | cheapest_china | fastest_china | cheapest_abroad | fastest_abroad
    #            | multi_gpu
    offer_id: str
    provider: str
    region_group: str  # global | china
    gpu_name: str
    gpus: int
    kind: str  # free | on_demand | spot
    price_usd_per_gpu_hour: float | None
    price_cny_per_gpu_hour: float | None
    total_hours: float | None
    cost_usd: float | None
    cost_cny: float | None
    sharding: str | None  # None = one GPU or plain DDP; "zero1" | "zero2" | "zero3" (FSDP full shard)
    per_gpu_vram_bytes: int | None
    tweaks: tuple[str, ...] = ()  # tweak ids used on this GPU
    note: str = ""
    url: str = ""
    as_of: str = ""
    verified: bool = True
    currency: str = "usd"  # what the provider bills in: usd | cny (shown first; the other as "about")
    # total_hours is the renter's whole time (start-ups + training); cost is price × GPUs × billed_hours
    train_hours: float | None = None  # the training alone
    billed_hours: float | None = None  # per GPU, by the provider's billing step and minimum (0 for free tiers)
    sessions: int = 1  # starts needed (a free tier's session limit)
    tips: tuple[str, ...] = ()  # how to use the provider well, in the reader's language (cloud.toml tips)


@dataclass(frozen=True)
class BuyVsRent:
    part_name: str
    upgrade_price_usd: float | None
    upgrade_price_cny: float | None
    cloud_offer: str
    cloud_cost_usd: float | None  # this job, whole run
    cloud_usd_per_hour: float | None  # what the cloud option costs per hour of running
    break_even_hours: float | None  # cloud hours that cost as much as the upgrade
    runs_to_break_even: float | None  # how many runs of this job
    message: str


@dataclass(frozen=True)
class Alternative:
    """When the job asked for does not fit: what fits instead — another training method for the same model
    (LoRA, QLoRA) or the smaller model of its family — with its recipe. Never a tweak: it changes what
    is trained."""

    workload_id: str
    title: str
    tweaks: tuple[Tweak, ...]  # the first is "smaller_model"
    settings: dict[str, Any]
    snippet: str
    peak_vram_bytes: int | None
    total_hours: float | None
    too_slow: bool = False
    kind: str = "smaller_model"  # lora | qlora | smaller_model (the id of the first tweak)
    fits: bool = True  # False: even this does not fit with room (shown so the reader sees it was tried)
    tight: bool = False  # not with room, but it may fit: the estimate's range spans the usable memory


@dataclass(frozen=True)
class Advice:
    workload_id: str
    target: str  # "NVIDIA GeForce GTX 1660 Ti ×1" or "CPU"
    verdict: str  # one of ADVICE_VERDICTS (after tweaks)
    summary: str  # one sentence
    needs_vram_bytes: int | None  # does_not_fit: what the smallest configuration needs per GPU
    tweaks: tuple[Tweak, ...]  # what to change, in order (empty if it runs as is)
    settings: dict[str, Any]  # all tweak settings combined (Hugging Face names)
    snippet: str  # copyable Python: TrainingArguments / LoraConfig / BitsAndBytesConfig
    final_peak_vram_bytes: int | None
    final_total_hours: float | None
    bottlenecks: tuple[Bottleneck, ...]
    software: tuple[SoftwareFix, ...]
    upgrades: tuple[Upgrade, ...]
    cloud: tuple[CloudOption, ...]
    buy_vs_rent: BuyVsRent | None
    notes: tuple[str, ...] = ()
    alternative: Alternative | None = None  # the first of `alternatives` that fits (kept for callers)
    host_limited_hours: float | None = None  # final_total_hours once CPU/disk bottlenecks are counted
    speed_tweaks: tuple[Tweak, ...] = ()  # kind "speed": optional changes for a job that runs but is
    #                                        limited by per-step overhead (each with its time and trade-off)
    alternatives: tuple[Alternative, ...] = ()  # what fits instead: LoRA / QLoRA / a smaller model, in order
    final_ram_bytes: int | None = None  # system RAM the job needs with the advised changes (Apple: with the GPU's share)
    final_limit: str = ""  # what still stops or squeezes it after the changes: "" | vram | ram | … (Estimate.limit)
    ram_unchecked: bool = False  # the advised changes raise the RAM need (CPU offload) and no computer's RAM is known

    @property
    def expected_hours(self) -> float | None:
        """How long the job takes as the verdict and summary describe it: with the advised changes and
        the CPU/disk bottlenecks counted. None when it does not run here."""
        if self.verdict in ("does_not_fit", "not_supported"):
            return None
        return self.host_limited_hours if self.host_limited_hours is not None else self.final_total_hours

    @property
    def shown_need_bytes(self) -> int | None:
        """Peak VRAM per GPU the verdict refers to: the smallest configuration tried when it does not fit,
        else the one with the advised changes."""
        if self.verdict == "does_not_fit" and self.needs_vram_bytes is not None:
            return self.needs_vram_bytes
        return self.final_peak_vram_bytes
