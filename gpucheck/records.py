"""Records shared by the catalog, the estimator, the advice and the presenters (no Qt, no logic).

Units are in field names. `None` means unknown. These are the contract between
catalog.py → estimate/ → advise.py → report/ and ui/; extend them, don't rename fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gpucheck.choices import UNSLOTH

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
    memory_options_gib: tuple[float, ...] = ()  # Apple: the unified-memory sizes the chip is sold with
    # speed (optional; None → the documented fallback in resources/factors.toml [clocks] / fp32 rate)
    sustained_clock_fraction: float | None = None  # share of the boost clock held under a training load
    tflops_fp16_vector: float | None = None  # non-tensor fp16 rate where it differs from fp32 (Turing GTX: 2×)
    tflops_fp32_matrix: float | None = None  # fp32 GEMMs' rate where it is not tflops_fp32 (CDNA: matrix units; RDNA 3: no dual issue)
    # what nvidia-smi reports as the card's total memory (ECC reserve and firmware taken off), MiB; None: the
    # catalog size is what a job gets (gpus.toml vram_usable_mib, with its source)
    vram_usable_mib: float | None = None
    vram_usable_source: str = ""
    modified: bool = False  # a card rebuilt by a third party (memory replaced): no maker's warranty
    # a GeForce-family card that runs FP32-accumulate tensor math at full rate (TITAN RTX); other GeForce and laptop
    # cards run it at half their FP16-accumulate rate (gpucheck/estimate/accumulate.py)
    fp32_accumulate_full_rate: bool = False
    notes: str = ""  # what a buyer must know about this card (gpus.toml notes / notes_zh)
    notes_zh: str = ""


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
    # U-Net: attention-score FLOPs per sample at ref_image_size (QKᵀ and probabilities × V), priced as attention math,
    # not inside forward_gflops: self-attention over latent tokens grows with the pixels squared, cross-attention over
    # the text tokens with the pixels (benchmarks/count_unet_flops.py)
    attn_gflops: float = 0.0
    cross_attn_gflops: float = 0.0
    activation_mib: float | None = None  # per sample, 16-bit, non-transformer archs
    # with gradient checkpointing: what stays saved at the backward's peak, per sample at ref_image_size (the
    # checkpointed calls' inputs + the largest call recomputed; benchmarks/count_unet_activations.py); None: the
    # activations × factors.toml [activations] image_checkpointing_fraction
    activation_mib_checkpointed: float | None = None
    # a conv net whose element-wise traffic is counted on its code: the MiB (at 2 B an element) its element-wise
    # operators read and write per sample at ref_image_size over forward + backward (benchmarks/count_conv_elementwise
    # .py); None: the saved activations × factors.toml [speed.elementwise] feature_map_factor, a per-operation count
    elementwise_mib: float | None = None
    # U-Net with eager attention (eager_attention = true: no xformers / SDPA): the self-attention score elements
    # (heads × latent tokens²) per sample at ref_image_size, in all and in the largest single layer (what a
    # checkpointed backward recomputes at once); they grow with the pixels squared (benchmarks/count_unet_activations.py)
    attn_score_elements: float = 0.0
    attn_score_elements_max: float = 0.0
    encoder_decoder: bool = False
    name: str | None = None  # "meta-llama/Meta-Llama-3-8B"
    model_type: str = ""  # the Hugging Face config's model_type ("llama", "qwen2", "gpt2"): what kernel libraries
    #   key their patches on (Liger Kernel's MODEL_TYPE_TO_APPLY_LIGER_FN); "" = not known
    ref_image_size: int | None = None  # image size forward_gflops / activation_mib were measured at
    # U-Net: how many times smaller per side the grid it runs on is than the image (a latent-diffusion U-Net runs on
    # its VAE's latents: Stable Diffusion's AutoencoderKL, 8 = diffusers' vae_scale_factor 2 ** (len(block_out_channels)
    # - 1)); 1: on the pixels themselves (a pixel-space DDPM)
    latent_downscale: int = 1
    aux_params: float = 0.0  # frozen helper networks kept on the GPU (VAE, text encoders), in the training's dtype
    aux_vae_params: float = 0.0  # of aux_params, the VAE's (kept in fp32 beside a 16-bit U-Net with train.vae_fp32)
    # U-Net with a VAE: the live tensors of one VAE encode (the training scripts' vae.encode(x).latent_dist.sample()
    # under no_grad when latents are not cached), MiB per image at ref_image_size in 16 bits, parameters excluded;
    # 0 = not counted (benchmarks/count_vae_encode_peak.py)
    aux_encode_peak_mib: float = 0.0
    lora_params_per_rank: float | None = None  # non-transformer archs: adapter params added per unit of rank
    head_dim: int | None = None  # transformer: when not hidden / heads
    qkv_bias: bool = False  # Qwen2-style q/k/v biases
    gated_mlp: bool | None = None  # SwiGLU (LLaMA/Mistral/Qwen) vs GELU (GPT-2/BERT); None: ffn != 4·hidden
    aux_forward_gflops: float = 0.0  # per sample, forward only, through the frozen helper networks
    eager_attention: bool = False  # attention materializes the heads·s² score matrices (no SDPA/flash)
    attention_softcap: bool = False  # eager attention soft-caps its scores with tanh (Gemma 2: attn_logit_softcapping)
    # eager attention with learned sinks (gpt-oss): the scores and one sink logit per head are concatenated and
    # softmax(dtype=the scores' dtype) runs in 16 bits even under autocast, keeping a 16-bit softmax output
    attention_sinks: bool = False
    decoder_layers: int = 0  # encoder-decoder: decoder blocks beside the `layers` encoder blocks (Whisper, T5)
    decoder_seq_len: int | None = None  # target tokens per sample the decoder and the loss run over (None: seq_len)
    # transformer: the longest sequence the model takes (config.json max_position_embeddings / n_positions; None:
    # not stated). learned_positions: a table of absolute position embeddings (BERT, GPT-2, Whisper's encoder), which
    # has no row past it, so a longer sequence stops with an index error; otherwise (rotary) it is the context the
    # model was trained on, past which it runs but its outputs degrade unless the positions are rescaled.
    max_positions: int | None = None
    learned_positions: bool = False
    # transformer: a CTC head's vocabulary, 0 = none: a linear projection from the encoder's width to it, a log-softmax
    # and a CTC loss over every encoder frame, beside the decoder's loss (WeNet's hybrid CTC/attention, ctc_weight > 0)
    ctc_vocab: int = 0
    # transformer: Whisper's convolutional front end over this many log-Mel channels, 0 = none counted: Conv1d(mel_bins →
    # hidden, kernel 3) over two input frames per encoder frame and Conv1d(hidden → hidden, kernel 3, stride 2), trained
    mel_bins: int = 0
    dropout: float | None = None  # transformer: dropout probability on the hidden stream (the attention and MLP
    #   outputs: BERT hidden_dropout_prob, GPT-2 resid_pdrop); 0 = none (Llama); None = the architecture's usual
    attention_dropout: float | None = None  # on the attention probabilities (BERT attention_probs_dropout_prob,
    #   GPT-2 attn_pdrop, Llama attention_dropout); None = as `dropout`
    drop_path: float = 0.0  # stochastic depth (timm drop_path_rate): a per-sample scale of each residual branch
    # conv net / MLP: elements per sample (at ref_image_size) its own dropout layers mask in one forward pass
    # (pytorch/examples' MNIST Net: 64 × 12 × 12 after pooling + 128 after fc1); on a CPU each costs a serial random
    # draw (gpucheck/estimate/cpu_dropout.py); 0 = none
    dropout_elements: float = 0.0
    # conv net / U-Net: elements of its nn.Conv2d weights, which a CPU's convolutions reorder into oneDNN's blocked
    # layout on every call (gpucheck/estimate/cpu_conv.py; counted by benchmarks/count_conv_weights.py); 0 = not counted
    conv_params: float = 0.0
    # conv net / U-Net: share of its forward linear and convolution multiply-adds (forward_gflops, at ref_image_size)
    # whose input tap falls on a convolution's zero padding: a CPU's convolutions skip them (gpucheck/estimate/cpu_conv.py;
    # counted by benchmarks/count_conv_padding.py); 0 = none or not counted
    conv_padding_share: float = 0.0
    # conv net: output elements of its max-pool layers per sample (at ref_image_size) and their window (taps per output:
    # 4 for 2x2, 9 for 3x3); in PyTorch's default NCHW layout a CPU walks each window one element at a time
    # (gpucheck/estimate/cpu_conv.py; counted by benchmarks/count_conv_padding.py); 0 = none or not counted
    max_pool_outputs: float = 0.0
    max_pool_window: int = 0
    # conv net: the tensors one training step allocates whose size grows with the batch, as elements per sample (at
    # ref_image_size) and how many of each: on Linux those above glibc's 32 MiB mmap ceiling fault their pages in every
    # step (gpucheck/estimate/cpu_pages.py; counted by benchmarks/count_cpu_step_tensors.py); () = not counted
    step_tensor_elements: tuple[float, ...] = ()
    step_tensor_counts: tuple[float, ...] = ()
    # conv net / U-Net: the values Adafactor's factored second moment keeps for all its parameters (row and column means
    # of every tensor of 2+ dimensions, the whole of 1-D ones: gpucheck/estimate/adafactor.py; counted by
    # benchmarks/count_conv_weights.py); 0 = not counted (the whole size is assumed)
    factored_state_params: float = 0.0
    # a conv-net whose FLOPs are nn.Linear layers (torchvision ConvNeXt's and Swin's MLPs on channels-last features):
    # in fp32 they follow torch.backends.cuda.matmul.allow_tf32 (off by default), not cuDNN's TF32 convolutions, and
    # cuDNN's Winograd/FFT convolutions do not shorten them
    flops_in_linear: bool = False
    # conv-net: forward FLOPs per sample (at ref_image_size) of its depthwise convolutions (groups = input channels),
    # already inside forward_gflops; PyTorch runs them in its own direct kernels, not as GEMMs (estimate/compute.py)
    depthwise_gflops: float = 0.0
    # conv-net: share of the forward FLOPs in ungrouped 3×3 stride-1 convolutions, the layers cuDNN's and MIOpen's
    # Winograd / FFT algorithms shorten (None: factors.toml [speed.conv_fp32] usual_winograd_share)
    winograd_share: float | None = None
    # a loss the training code computes after a host sync, its operators dispatched while the GPU waits (factors.toml
    # [dispatch.host_loss]: "yolov5-seg", "yolov5-det"; None: the loss's operators queue behind the GPU's work)
    host_loss: str | None = None
    # a detector's target assigner (YOLOv8's task-aligned assigner), whose matrices of batch × boxes × anchors add to
    # the peak beside the activations (factors.toml [loss_memory.assigner]: "mmyolo-tal", "ultralytics-tal"; None: none)
    det_assigner: str | None = None
    # an instance-segmentation loss keeping one mask per positive sample for backward (factors.toml
    # [loss_memory.mask_loss]: "mmyolo-yolov5-seg", "ultralytics-yolov5-seg"; None: none)
    mask_loss: str | None = None
    # transformer: the code its layers run (choices.LAYER_CODES: "hf-llama-sdpa", "qwen1-flash", "litgpt-llama" …), whose
    # operators per layer are counted (factors.toml [dispatch.kernels.layer_code]); None: the generic count
    layer_code: str | None = None
    # U-Net: the code it runs (choices.UNET_CODES: "diffusers-sd1", "diffusers-sdxl" …), whose operators per step and
    # LoRA-adaptable linears are counted (factors.toml [dispatch.kernels.unet_code]); None: the generic count
    unet_code: str | None = None
    # transformer: a mixture-of-experts MLP (gpucheck/estimate/moe.py). `experts` routed experts in each of `moe_layers`
    # layers (0: every layer), `experts_per_token` of them run for each token, each a gated MLP `expert_ffn` wide; a
    # shared expert `shared_expert_ffn` wide runs for every token (0: none); the other layers keep a dense MLP `ffn` wide
    experts: int = 0
    experts_per_token: int = 0
    expert_ffn: int = 0
    shared_expert_ffn: int = 0
    moe_layers: int = 0
    # transformer: `linear_attn_layers` of the `layers` mix tokens with a gated linear attention (Gated DeltaNet:
    # Qwen3.5, Qwen3-Next; gpucheck/estimate/linear_attention.py) instead of softmax attention; 0 = none. Its widths
    # over all heads: keys (and queries) `linear_key_dim` in `linear_key_heads` heads, values `linear_value_dim` in
    # `linear_value_heads` heads (one recurrent state per value head)
    linear_attn_layers: int = 0
    linear_key_dim: int = 0
    linear_key_heads: int = 0
    linear_value_dim: int = 0
    linear_value_heads: int = 0
    # transformer: the softmax layers' q projection also yields a sigmoid gate on each head's output (Qwen3.5,
    # Qwen3-Next: q_proj is heads × head_dim × 2 wide)
    attn_output_gate: bool = False

    @property
    def gated(self) -> bool:
        """A SwiGLU-style MLP (three matrices: LLaMA, Mistral, Qwen), as `gated_mlp` says; unset, an FFN width other
        than 4 × hidden (the Hugging Face config reader sets ffn from intermediate_size; GPT-2 and BERT use 4 × hidden,
        with two matrices)."""
        if self.gated_mlp is not None:
            return self.gated_mlp
        return bool(self.ffn) and self.hidden is not None and self.ffn != 4 * self.hidden


# every weight, gradient and optimizer state in 16 bits, no fp32 master copy and no autocast: pure bf16 (torchtune)
# or pure fp16 (`model.half()`, the older PyTorch benchmarks)
PURE_16BIT = ("bf16-pure", "fp16-pure")
# where an audio job computes its input features (TrainSpec.feature_extraction; gpucheck/estimate/input_path.py)
FEATURE_EXTRACTION = ("on_the_fly_main", "precomputed_lists", "workers")
# how an audio job's compressed clips are decoded on the fly (TrainSpec.audio_decode; gpucheck/estimate/input_path.py):
# mp3 = each process decodes the clips it trains on; mp3_stream = an IterableDataset under the Hugging Face Trainer,
# which every process iterates whole (IterableDatasetShard), so each decodes the clips of all processes
AUDIO_DECODE = ("mp3", "mp3_stream")


@dataclass(frozen=True)
class TrainSpec:
    method: str = "full"  # full | lora | qlora
    precision: str = "bf16"  # fp32 | fp16 | bf16 (mixed precision) | bf16-pure (weights, grads, AdamW in bf16)
    #                          | fp16-pure (model.half(): weights, grads, optimizer state in fp16; no autocast)
    optimizer: str = "adamw"  # adamw | adamw-8bit | sgd | adafactor
    batch: int = 1  # micro-batch per GPU
    seq_len: int | None = None  # transformers
    image_size: int | None = None  # vision / diffusion
    grad_checkpointing: bool = False
    lora_rank: int = 16
    grad_accum: int = 1
    cpu_offload: bool = False  # ZeRO-Offload: fp32 master weights, gradients and optimizer state in CPU RAM
    lora_targets: str = "qv"  # qv | attention | all-linear (transformers)
    from_scratch: bool = False  # pre-training: no pretrained weights to download
    shard: bool = False  # FSDP / DeepSpeed ZeRO-3: weights, grads and optimizer state split across GPUs
    zero_stage: int = 0  # several GPUs: 0 replicated (DDP), 1 optimizer + fp32 master weights sharded,
    #                      2 and gradients, 3 (= shard, FSDP full shard) and weights
    cache_embeddings: bool = False  # diffusion: VAE latents and text-encoder outputs computed once before
    #                                 training, so those frozen helper networks leave the GPU
    vae_fp32: bool = False  # diffusion: the VAE encodes in fp32 while the U-Net trains in 16 bits (diffusers' SDXL
    #                         scripts without --pretrained_vae_model_name_or_path; kohya sd-scripts --no_half_vae)
    stack: str = "eager"  # eager (HF Trainer, plain PyTorch) | fused (compiled / fused kernels) | handtuned (llm.c)
    packing: bool = False  # transformers: short samples packed into full rows (variable-length attention)
    longest_first: bool = False  # the run's longest step comes before any shorter one that could outgrow it (batches
    #   sorted long to short, each window between torch.cuda.empty_cache() calls starting with its longest): the
    #   caching allocator maps the longest step's blocks first and every later step fits in them
    cross_entropy: str = ""  # the LM loss as the code writes it: full (HF / F.cross_entropy) | full_fp32_output
    #   (HF transformers 4.36–4.45: the model returns fp32 logits) | chunked (litgpt) |
    #   fused (Unsloth, llm.c, compiled) | fused_linear (Liger's fused linear cross-entropy: no logits kept);
    #   "" = the stack's usual loss (factors.toml [logits].stack_default)
    tf32_matmul: bool | None = None  # fp32 matmuls on TF32 tensor cores; None = the stack's (factors.toml [stack]);
    #   true where the container turns them on whatever the layer code (NGC PyTorch: TORCH_ALLOW_TF32_CUBLAS_OVERRIDE=1)
    autocast_fp32_stream: bool | None = None  # under autocast over fp32 weights the residual stream stays fp32; None =
    #   the stack's; false where the model itself is cast to 16 bits (model.bfloat16(), apex O2), true where plain
    #   modules add 16-bit sublayer outputs to an fp32 stream (gpucheck/estimate/autocast.py)
    host_sync: bool = False  # the forward pass waits for the GPU in every layer (a host value copied to the GPU or
    #   read back per layer, e.g. litgpt's LoRA zero_pad before commit 47806045): its host and GPU work run in turn
    fsdp_frozen_grads: bool = False  # FSDP (FlatParameter, use_orig_params=True) units that mix frozen and trained
    #   weights keep a gradient for every weight, unsharded while micro-batches accumulate under no_sync()
    fsdp_no_sync: bool = True  # FSDP full fine-tuning that accumulates micro-batches under no_sync(), as the usual
    #   stacks do by default (litgpt's fabric.no_backward_sync; accelerate's accumulate() and the Hugging Face Trainer
    #   unless sync_each_batch): every GPU holds the whole model's gradients, unsharded, until the micro-batch that
    #   synchronizes; False: the script reduce-scatters every micro-batch (sync_each_batch=True; InternEvo)
    qlora_upcast: bool = False  # QLoRA: true = the unquantized layers (embeddings, lm_head, norms) are upcast to fp32 for
    #   mixed precision by PEFT's prepare_model_for_kbit_training, which TRL's SFTTrainer ran on a 4-bit model before
    #   TRL 0.26; false = they stay in the dtype the model was loaded in, as TRL 0.26 and newer leave them (huggingface/trl
    #   #4577, Dec 2025: SFTTrainer calls get_peft_model alone), as Unsloth, torchtune and ms-swift do, and as the recipe
    #   gpucheck prints loads them (dtype=torch.bfloat16). Published rows default to true (gpucheck/evidence.py)
    qlora_keeps_input: bool = False  # bitsandbytes' MatMul4Bit keeps each 4-bit layer's input for backward, as it did
    #   before 0.43.2 ('ctx.tensors = (A, B)'); 0.43.2 and newer (July 2024, bitsandbytes-foundation/bitsandbytes#1270:
    #   'ctx.tensors = (None, B)') keep only the 4-bit weight. Published rows default to true (gpucheck/evidence.py)
    qlora_bf16_adapters: bool = True  # QLoRA under 16-bit mixed precision: true = the trained adapter weights are cast
    #   to bf16 once get_peft_model has made them (TRL's SFTTrainer since 0.26, huggingface/trl #4577, sft_trainer.py: 'the
    #   PEFT adapter weights are converted to bf16 to follow the recommendations from the original paper'), so they, their
    #   gradients and the optimizer's state are 16-bit (resources/factors.toml [pure_bf16]); false = PEFT's default
    #   (autocast_adapter_dtype) keeps them fp32, as every stack did before and as Unsloth's own preparation is priced.
    #   Published rows default to false (gpucheck/evidence.py)
    qlora_kernel: str = "bitsandbytes"  # QLoRA's 4-bit layers: bitsandbytes (Hugging Face / PEFT, litgpt, Unsloth: MatMul4Bit,
    #   whose kept input qlora_keeps_input says) | torchao (torchtune's linear_nf4: keeps only the NF4 weight) | gptq (auto-gptq's
    #   QuantLinear on the PyTorch path: dequantizes each weight to fp16 and keeps it for backward)
    qlora_dequant_dtype: str = "compute"  # bitsandbytes: the dtype a 4-bit weight dequantizes to (quant_state.dtype, the
    #   dtype it was quantized from): bitsandbytes <= 0.42 quantizes '.half()' (fp16), >= 0.43 keeps the loaded dtype (fp32
    #   where the model is loaded without torch_dtype); one that is not the compute dtype is cast in every pass
    qlora_wrapper: str = "peft"  # the LoRA layer around a bitsandbytes 4-bit layer: peft (Hugging Face PEFT 0.9-0.13
    #   lora/bnb.py Linear4bit: 'result = result.clone()' before adding the adapter's output) | litgpt (lit-gpt's LoRALinear
    #   over Lightning's bnb Linear4bit: no clone)
    qlora_norm_keeps_dtype: bool = False  # with qlora_upcast: the norm kernel returns its input's dtype whatever its fp32
    #   weight (Liger's LigerRMSNorm, ops/rms_norm.py: 'Y = torch.empty((n_rows, n_cols), dtype=X.dtype, ...)'), so the
    #   4-bit layers read 16-bit inputs and the stream stays 16-bit; false: Hugging Face's LlamaRMSNorm returns
    #   'self.weight * hidden_states.to(input_dtype)', fp32 with the fp32 weight
    checkpoint_reentrant: bool = True  # activation checkpointing through torch.utils.checkpoint(use_reentrant=True), the
    #   Hugging Face / PEFT default; false (use_reentrant=False, saved-tensor hooks): tensors a custom autograd Function keeps
    #   as ctx attributes (bitsandbytes' MatMul4Bit: its input) are not dropped, so they stay alive in every block
    qlora_double_quant: bool = True  # QLoRA: the 64-weight blocks' scales are themselves quantized to 8 bits (bnb_4bit_use_double_quant,
    #   litgpt's bnb.nf4-dq, torchao's NF4); false: one fp32 scale per 64 weights (litgpt's bnb.nf4)
    fsdp_16bit_params: bool = False  # FSDP over a model already cast to 16-bit (no MixedPrecision): 16-bit flat parameter
    #   and gradient shards; the optimizer keeps fp32 master weights and fp32 copies of the shard's gradients for the step
    ddp_bucket_copy: bool = True  # several GPUs, each with a replica: PyTorch DDP's reducer keeps a flat copy of the
    #   gradients in its buckets (gradient_as_bucket_view=False, the default); false: gradient_as_bucket_view=True, or an
    #   engine that all-reduces flat gradients in place (FSDP NO_SHARD)
    ema: bool = False  # full fine-tuning: an exponential-moving-average copy of the weights kept on the GPU (YOLOv5/YOLOv8
    #   ModelEMA, mmengine's EMAHook, timm --model-ema)
    zero_bucket_elements: float = 0.0  # DeepSpeed ZeRO-1/2's gradient buckets in elements: reduce_bucket_size, twice
    #   with overlap_comm (the engine's double buffer); 0 = DeepSpeed's defaults (factors.toml [zero])
    zero_engine: str = "deepspeed"  # the engine of zero_stage 1-3 (choices.ZERO_ENGINES): deepspeed (the advice's
    #   recipes) | fsdp (SHARD_GRAD_OP as stage 2) | other (InternEvo, ZeroRedundancyOptimizer: priced as DDP's all-reduce)
    zero_overlap_comm: bool = False  # DeepSpeed ZeRO-1/2's overlap_comm (its default false at stages 1-2,
    #   deepspeed/runtime/zero/config.py): the gradient buckets reduce on a side stream during backward; false: on the
    #   compute stream, in turn with it. Stage 3 overlaps by DeepSpeed's default (true there). DeepSpeed before 0.13.0
    #   ignored it at stage 1 (engine.py _configure_zero_optimizer: 'overlap_comm = False'): such a job says false
    allreduce_after_backward: bool = False  # several GPUs replicating the model (zero_stage 0): the gradients are
    #   all-reduced after backward, not bucket by bucket during it, so no compute hides the exchange: DeepSpeed's engine
    #   without ZeRO (engine.py allreduce_gradients at the accumulation boundary -> buffered_allreduce_fallback, after
    #   optimizer.backward returns). False: PyTorch DDP's buckets, reduced while backward runs
    channels_last: bool = False  # conv nets: feature maps in NHWC (torch.channels_last, TensorFlow's layout); False:
    #   PyTorch's default NCHW, which cuDNN transposes around every tensor-core convolution
    optimizer_impl: str = ""  # how the optimizer step runs: foreach (torch >= 2.0's default on CUDA: one state-sized
    #   temporary) | foreach_torch20 (torch 2.0.x's foreach AdamW: two) | single (a per-tensor loop: torch < 2.0,
    #   transformers' own AdamW) | fused; "" = the stack's usual one
    feature_extraction: str = ""  # audio: where the input features are computed — on_the_fly_main (in the training
    #   process) | precomputed_lists (datasets.map before training, read back as Python lists) | workers; "" = not modelled
    input_libs: str = ""  # the input path's libraries: "" (current transformers / pyarrow) | "2022" (NumPy STFT, pyarrow 10)
    audio_decode: str = ""  # compressed clips decoded (and resampled to 16 kHz) on the fly: one of AUDIO_DECODE; "" = none
    audio_seconds: float = 0.0  # audio_decode: the mean clip decoded, seconds of audio
    stream_archive_bytes: int = 0  # audio_decode = mp3_stream: archive bytes (.tar.gz) read per clip the stream yields
    input_floats: int = 0  # floats per sample on the input path: a raw 16 kHz waveform 16,000 a second (wav2vec2 / XLS-R
    #   input_values); 0 = a Whisper clip padded to 30 s, 80 log-Mel bins x 3,000 frames = 240,000
    loop: str = ""  # the loop around the step: "" = a training framework's (the Hugging Face Trainer, Lightning), whose
    #   per-step cost factors.toml [step_overhead_s] prices by backend | plain: a hand-written loop over ready batches
    #   (choices.LOOPS; gpucheck's trial runner), priced by [loop_overhead_s] plain
    loader_workers: int = 0  # DataLoader num_workers as the job's script sets it (0: in the training process / not said)
    loader_start: str = ""  # how those workers start: one of choices.LOADER_STARTS; "" = fork or persistent workers (not priced)
    epoch_samples: int = 0  # samples the DataLoader walks per epoch (0: the job's data set, DataSpec.samples)
    loader_dataset_bytes: int = 0  # bytes of the data set object each spawned worker receives pickled (an in-memory
    #   array: its size; 0 = file names only, negligible)
    precision_chosen: bool = False  # the user picked `precision` (CLI --precision); False: it is the job's
    #   default, and a GPU without BF16 starts at FP16 mixed precision (not a tweak: a default for the card)
    eval_samples: int = 0  # evaluation passes inside the run (Hugging Face Trainer eval_strategy): samples per pass
    #   (the eval split's size); 0 = no evaluation (gpucheck/estimate/evaluation.py)
    eval_every_steps: int = 0  # an evaluation every this many optimizer steps (eval_steps); 0 = once per epoch
    eval_at_end: bool = False  # one more evaluation after training (the example scripts' --do_eval)
    eval_batch: int = 0  # samples per device in an evaluation batch (per_device_eval_batch_size); 0 = `batch`
    generate_tokens: int = 0  # tokens decoded per evaluation batch with generate() (predict_with_generate: up to
    #   generation_max_length): one decoder forward over one token per step, with the KV cache; 0 = forward only
    lora_dropout: float = 0.05  # LoRA/QLoRA: dropout on each adapter's input (PEFT LoraConfig.lora_dropout, litgpt
    #   lora_dropout); 0.05 is what the recipe gpucheck prints and the trial runs. Above 0, every adapted linear keeps its
    #   own dropped-out copy of its input and a mask (gpucheck/estimate/lora_dropout.py); 0: the identity, no copy

    @property
    def upcasts_frozen(self) -> bool:
        """PEFT's prepare_model_for_kbit_training casts the layers QLoRA leaves unquantized (and the norms) to fp32
        (qlora_upcast); Unsloth's own preparation keeps every frozen weight as loaded (resources/factors.toml [unsloth])."""
        return self.qlora_upcast and self.stack != UNSLOTH

    @property
    def adapters_16bit(self) -> bool:
        """The QLoRA adapters, their gradients and optimizer state are 16-bit (qlora_bf16_adapters, under 16-bit mixed
        precision; Unsloth's stack keeps PEFT's fp32 adapters)."""
        return self.method == "qlora" and self.qlora_bf16_adapters and self.precision in ("fp16", "bf16") \
            and self.stack != UNSLOTH

    @property
    def trains_16bit(self) -> bool:
        """The trained weights, their gradients and the optimizer's state are 16-bit: a pure 16-bit full fine-tune, or
        QLoRA adapters cast to bf16."""
        return (self.precision in PURE_16BIT and self.method == "full") or self.adapters_16bit

    @property
    def offloads_checkpoints(self) -> bool:
        """Unsloth's gradient checkpointing keeps each layer's checkpoint in CPU RAM (resources/factors.toml [unsloth])."""
        return self.grad_checkpointing and self.stack == UNSLOTH


@dataclass(frozen=True)
class DataSpec:
    samples: int
    epochs: float = 1.0
    bytes_per_sample: int = 0  # on disk
    in_memory: bool | None = None  # data set held in RAM (None: decided by size)
    avg_seq_len: int | None = None  # mean tokens per sample (speed); train.seq_len is the maximum (memory)
    tokens: float | None = None  # token budget of the whole run (pre-training): replaces samples × epochs


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

VERDICTS = ("runs", "tight", "runs_with_tweaks", "too_slow", "does_not_fit", "not_supported")  # gpucheck.verdict


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


def gated_deltanet_projection_params(hidden: int, key_dim: int, value_dim: int, value_heads: int) -> int:
    """The linear layers of one Gated DeltaNet token mixer (transformers' Qwen3_5GatedDeltaNet; Qwen3-Next fuses the
    same projections): in_proj_qkv hidden → 2 × keys + values, in_proj_z hidden → values, in_proj_b and in_proj_a
    hidden → one per value head, out_proj values → hidden; no biases. What a config's count (gpucheck/hf_parts.py) and
    the estimate's linear layers (gpucheck/estimate/linear_attention.py) both read."""
    return hidden * (2 * key_dim + value_dim) + hidden * value_dim + 2 * hidden * value_heads + value_dim * hidden


def cached_worth_a_line(cached_bytes: float, need_bytes: float) -> bool:
    """Cached blocks change what nvidia-smi shows enough to say so: half a GiB and a tenth of what the job needs."""
    return cached_bytes >= max(2**29, 0.1 * need_bytes)


@dataclass(frozen=True)
class Estimate:
    """One exact configuration's estimate. `peak_vram_bytes` is what the process needs on the GPU (PyTorch's
    allocations + caching-allocator slack + the CUDA context: nvidia-smi's figure where the steps keep one shape);
    `allocated_bytes` is what torch.cuda.max_memory_allocated() reports (what most published figures
    quote) and `reserved_bytes` what torch.cuda.max_memory_reserved() reports, with the cached blocks of earlier,
    shorter steps (`cached_bytes`) that a run whose steps change shape leaves reserved on a card with room to spare
    (`nvidia_smi_bytes`: the same with the context). The verdict uses `peak_vram_bytes`, the need: the cached blocks
    are freed before PyTorch reports out of memory."""

    workload_id: str
    gpu_name: str  # "CPU" when no GPU
    gpus: int
    train: TrainSpec  # the settings this estimate is for
    fits: bool  # memory fits with room to spare (VRAM per GPU and system RAM); see `memory_fit`
    verdict: str  # a gpucheck.verdict.Verdict (for this exact configuration, before advice)
    peak_vram_bytes: int  # per GPU, as nvidia-smi shows it (incl. CUDA context)
    vram_available_bytes: int | None  # per GPU, what a job may use
    breakdown: VramBreakdown
    ram_bytes: int  # system RAM the job needs (on Apple: including the GPU's share)
    disk_bytes: int
    samples_per_second: float | None
    tokens_per_second: float | None
    step_seconds: float | None
    total_hours: float | None
    measured_inputs: bool = False  # deep-scan figures replaced catalog peaks
    notes: tuple[str, ...] = ()  # rendered, in the current language
    assumptions: tuple[str, ...] = ()
    # -- why, and the figures behind it (typed; these replace the old `extra` dict) ---------------
    memory_fit: str = "fits"  # fits | tight | does_not_fit: the worse of vram_fit and ram_fit
    vram_fit: str = "fits"  # GPU memory against the error band of docs/accuracy.md
    ram_fit: str = "fits"  # system RAM: tight = more than is free now, less than installed (close programs)
    limit: str = ""  # what stops it: "" | vram | ram | slow | qlora_backend | optimizer_backend |
    #                  training_backend | unknown_gpu_speed
    backend: str = "cpu"  # cuda | rocm | metal | xpu | cpu | other
    precision_used: str = ""  # after the GPU's forced changes (bf16 → fp16 without bf16)
    allocated_bytes: int = 0  # per GPU: torch.cuda.max_memory_allocated()
    reserved_bytes: int = 0  # per GPU: torch.cuda.max_memory_reserved() on this card (allocated + allocator slack +
    #   `cached_bytes`)
    cached_bytes: int = 0  # per GPU: of reserved_bytes, the blocks of earlier, shorter steps a run whose steps change
    #   shape is expected to leave cached (estimate/logits.py cached_reserve_bytes): shown by nvidia-smi, not needed
    context_bytes: int = 0  # per GPU: CUDA/ROCm context and libraries (nvidia-smi counts it)
    vram_band_bytes: tuple[int, int] = (0, 0)  # (low, high) of the peak within the family's error band
    ram_total_bytes: int | None = None  # installed RAM (under WSL2: the VM's limit)
    ram_available_bytes: int | None = None  # free at scan time (None: unknown)
    ram_besides_training_bytes: int = 0  # RAM besides the training tensors (CPU training charts)
    ram_parts: dict[str, int] = field(default_factory=dict)
    disk_parts: dict[str, int] = field(default_factory=dict)
    dataset_in_memory: bool = False
    total_params: float = 0.0
    trainable_params: float = 0.0
    total_samples: float = 0.0
    too_slow_hours: float = 0.0
    flops_per_sample: float | None = None
    peak_tflops: float | None = None
    math: str | None = None  # bf16-tensor | fp16-tensor | tf32-tensor | fp32 | cpu-fp32 …
    utilization: float | None = None
    bottleneck: str | None = None  # compute | memory | overhead | communication | offload | input
    scaling_efficiency: float | None = None
    stack: str = "eager"  # the software stack the speed assumes: eager | fused | handtuned
    hours_range: tuple[float, float] | None = None  # P10–P90 of the whole run from the family's validation errors
    # the range rests on published runs of this family on this vendor's devices, or on a calibration (below) (False:
    # the wide default range, "not yet checked": estimate/bands.py unchecked)
    hours_range_checked: bool = True
    # on a CPU a calibration measured: the range is how far such calibrations missed the jobs they did not measure
    hours_range_calibrated: bool = False
    step_seconds_range: tuple[float, float] | None = None  # the same band on one step
    speed_family: str = ""  # the error family the range comes from (vision | nlp | diffusion | llm | speech)
    comm_bytes_per_step: float = 0.0  # per GPU per optimizer step over the GPU-to-GPU link
    link_gbps: float | None = None  # the link those bytes use (None: one GPU)
    network_gbps: float | None = None  # per GPU between machines (None: one machine)
    offload_seconds: float = 0.0  # per step: CPU offload's copies and CPU optimizer step not hidden by the GPU
    vendor: str = ""  # the GPU's vendor (nvidia | amd | apple | intel; "" on the CPU): which speed band applies
    speed_checked: bool = True  # False: no published run on this vendor's GPUs has checked the speed model yet
    host_bound: bool = False  # the CPU's operator launches, not the GPU, set the pace of a step
    host_clock_mhz: float | None = None  # the host CPU clock the launch cost assumes
    host_clock_assumed: bool = False  # True: the typical host of this GPU, not a scanned CPU
    # calibration on this PC (gpucheck/estimate/calibration.py): {on, device, rates} when the speed above uses it
    calibrated: Mapping[str, Any] | None = None
    uncalibrated_step_seconds: float | None = None  # the model's step before this PC's measured factors
    host_step_seconds: float | None = None  # of that step: the host's part (dispatch, fixed per-step cost)
    work_memory_share: float | None = None  # of that step's device work, the memory-bound share (the rest: matrix math)
    eval_hours: float = 0.0  # the run's evaluation passes, inside total_hours (estimate/evaluation.py)
    eval_passes: int = 0
    eval_seconds_per_pass: float = 0.0
    input_seconds: float = 0.0  # per step: the CPU's input path (audio features, batches) not hidden by the GPU
    input_bound: bool = False  # that input path, not the GPU, sets the pace (advise says how to fix it)

    @property
    def on_cpu(self) -> bool:
        """The job runs on the processor (no GPU target): RAM, not VRAM, is what it must fit in."""
        return self.backend == "cpu"

    @property
    def cached_worth_a_line(self) -> bool:
        return cached_worth_a_line(self.cached_bytes, self.peak_vram_bytes)

    @property
    def nvidia_smi_bytes(self) -> int:
        """Per GPU, what nvidia-smi shows for the process while it runs: the reserve and the context."""
        return 0 if self.on_cpu else self.reserved_bytes + self.context_bytes
