"""The values each training setting may take: one list that the command line, the settings check and the factor
tables read (no imports, so the command line can build its parser without loading the estimator)."""

from __future__ import annotations

METHODS = ("full", "lora", "qlora")
PRECISIONS = ("fp32", "fp16", "bf16", "bf16-pure", "fp16-pure")
OPTIMIZERS = ("adamw", "adamw-8bit", "sgd", "adafactor")
# the stack whose checkpoints live in CPU RAM and whose frozen layers stay 16-bit (resources/factors.toml [unsloth])
UNSLOTH = "unsloth"
STACKS = ("eager", "fused", "handtuned", UNSLOTH)
LORA_TARGETS = ("qv", "attention", "mlp", "all-linear")
ZERO_STAGES = (0, 1, 2, 3)
# the engine a job's ZeRO stage 1-3 runs under (train.zero_engine): deepspeed — DeepSpeed's ZeRO optimizers, the
# advice's recipes, timed as their code runs (gpucheck/estimate/zero_comm.py); fsdp — PyTorch FSDP (SHARD_GRAD_OP as
# stage 2; `shard` is FSDP's full shard whatever this says); other — another engine's ZeRO (InternEvo's hybrid ZeRO,
# PyTorch's ZeroRedundancyOptimizer), its gradient exchange priced as DDP's overlapped all-reduce
ZERO_ENGINES = ("deepspeed", "fsdp", "other")
# how DataLoader workers start (train.loader_start; gpucheck/estimate/input_path.py): spawn_each_epoch — a fresh
# interpreter per worker (spawn, macOS' and Windows' default), started anew at every epoch (no persistent_workers)
LOADER_STARTS = ("spawn_each_epoch",)
# the loop around the training step (train.loop; factors.toml [loop_overhead_s]): plain — a hand-written loop
# over batches that are ready (gpucheck's trial runner and calibrate probes, airbench, nanoGPT), with no framework's
# per-step work beside the operators
LOOPS = ("plain",)
# how a job's loss is written (train.cross_entropy; gpucheck/estimate/logits.py): full — the logits kept whole,
# full_fp32_output — the same with an fp32 copy, chunked, fused, fused_linear (Liger's linear cross-entropy),
# trl_chunked — TRL's SFTTrainer's chunked loss (its default since TRL 1.7)
LOSS_KINDS = ("full", "full_fp32_output", "chunked", "fused", "fused_linear", "trl_chunked")
# QLoRA's 4-bit layers: bitsandbytes (PEFT, litgpt, Unsloth), torchao (torchtune's NF4), gptq (auto-gptq's QuantLinear)
QLORA_KERNELS = ("bitsandbytes", "torchao", "gptq")
# the dtype bitsandbytes dequantizes a 4-bit weight to (its quant_state.dtype): "compute" = the matmuls' own dtype
# (resources/factors.toml [bandwidth.dequant_cast_bytes_per_param])
QLORA_DEQUANT_DTYPES = ("compute", "fp16", "bf16", "fp32")
# the LoRA layer around a bitsandbytes 4-bit layer: Hugging Face PEFT's lora/bnb.py Linear4bit | lit-gpt's LoRALinear
QLORA_WRAPPERS = ("peft", "litgpt")
# how the optimizer step runs (resources/factors.toml [optimizer_step.temporary_buffers])
OPTIMIZER_IMPLS = ("foreach", "foreach_torch20", "single", "fused")
# a training loss whose operators the CPU dispatches after a host sync (the GPU idle, waiting for each launch), counted
# from the training code (resources/factors.toml [dispatch.host_loss]): YOLOv5's segmentation and detection losses
HOST_LOSSES = ("yolov5-seg", "yolov5-det")
# a detector's target assigner whose (image × box slot × anchor) matrices sit on the loss side of the peak, counted
# from the training code (resources/factors.toml [loss_memory.assigner]): MMYOLO's and Ultralytics' TaskAlignedAssigner
DET_ASSIGNERS = ("mmyolo-tal", "ultralytics-tal")
# an instance-segmentation loss that builds one mask per positive sample at the prototypes' resolution and keeps them for
# backward (resources/factors.toml [loss_memory.mask_loss]): YOLOv5-seg's, with mmdet's weighted BCE or Ultralytics' own
MASK_LOSSES = ("mmyolo-yolov5-seg", "ultralytics-yolov5-seg")
# the code a transformer's layers run (model.layer_code): its operators per layer are counted in resources/factors.toml
# [dispatch.kernels.layer_code] (benchmarks/count_layer_operators.py); unset, the generic count
LAYER_CODES = ("hf-llama-sdpa", "hf-llama-eager", "hf-gpt2", "hf-gpt2-eager", "hf-bert", "hf-bert-eager", "hf-distilbert",
               "hf-distilbert-eager", "hf-vit", "hf-vit-eager", "hf-whisper", "hf-whisper-eager", "hf-gemma3",
               "hf-gemma3-eager", "hf-gemma2-eager", "hf-qwen3", "hf-qwen3-eager", "qwen1-torch",
               "qwen1-flash", "qwen1-flash-pynorm", "litgpt-llama", "litgpt-neox", "torchvision-vit", "hf-moe-grouped")
# the code a U-Net runs (model.unet_code): its operators per training step are counted in resources/factors.toml
# [dispatch.kernels.unet_code] (benchmarks/count_unet_operators.py); unset, the generic count of layers_default.unet
UNET_CODES = ("diffusers-sd1", "diffusers-sd2", "diffusers-sdxl", "calibration-unet-block")
# layer codes whose attention runs q, k and v as ONE linear (GPT-2's and Qwen-1's c_attn, litgpt's fused attn): LoRA
# on any of them is one adapted input (litgpt LoRAQKVLinear: one lora_dropout; PEFT on c_attn: one LoRA layer;
# torchvision's nn.MultiheadAttention: one packed in_proj_weight)
FUSED_QKV_LAYER_CODES = ("hf-gpt2", "hf-gpt2-eager", "qwen1-torch", "qwen1-flash", "qwen1-flash-pynorm", "litgpt-llama",
                         "litgpt-neox", "torchvision-vit")
