"""Copyable recipes: the settings the advice found, as the command or Python a user pastes.

Pure text. Each tool's own names: Hugging Face `TrainingArguments` / `LoraConfig` / `BitsAndBytesConfig`
for text models, Ultralytics' `yolo train` for YOLO, the diffusers example scripts for Stable Diffusion,
and kohya sd-scripts for SDXL LoRA with cached text-encoder outputs (its documented low-VRAM recipe).
"""

from __future__ import annotations

import pprint
from typing import Any

from gpucheck.advise.gpu_support import GpuFacts, bf16_ok, offload_settings
from gpucheck.advise.mirrors import continuation, with_download_mirrors
from gpucheck.estimate.autocast import MIXED
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.logits import runs_trl_chunked
from gpucheck.estimate.params import qlora_upcast_bytes
from gpucheck.i18n import fmt_list, tr
from gpucheck.records import TrainSpec, Workload

_LORA_TARGETS = {"qv": '["q_proj", "v_proj"]', "attention": '["q_proj", "k_proj", "v_proj", "o_proj"]',
                 "mlp": '["gate_proj", "up_proj", "down_proj"]', "all-linear": '"all-linear"'}


def snippet(settings: dict[str, Any], train: TrainSpec, workload: Workload, facts: GpuFacts,
            shell: str = "bash") -> str:
    """What to paste for these settings (empty when nothing changes), for the machine it is pasted on:
    commands in `shell`'s own form (mirrors.shell_for), and in mainland China the download mirrors first."""
    if not settings:
        return ""
    if _is_yolo(workload):  # Ultralytics downloads its weights from GitHub, not from Hugging Face
        return _yolo_command(settings, train, workload)
    if workload.model.arch == "unet":
        if train.cache_embeddings and (workload.model.ref_image_size or 512) >= 1024 and train.method == "lora":
            cmd = _kohya_sdxl_command(settings, train, workload, shell)
        else:
            cmd = _diffusers_command(settings, train, workload, shell)
        return with_download_mirrors(cmd, shell, python=False, model=workload.model.name)
    code = _hf_snippet(settings, train, workload, facts)
    if workload.model.arch != "transformer":  # torchvision's CNNs download from PyTorch's site, not the Hub
        return code
    return with_download_mirrors(code, shell, python=True, model=workload.model.name)


def _is_yolo(workload: Workload) -> bool:
    return "yolo" in (workload.model.name or workload.id).lower()


def _sharded(settings: dict[str, Any]) -> bool:
    return int(settings.get("zero_stage", 0) or 0) >= 3


def _peft_lines(settings: dict[str, Any], train: TrainSpec, workload: Workload, facts: GpuFacts) -> list[str]:
    """The LoraConfig of a LoRA / QLoRA job on the Hugging Face stack, and QLoRA's BitsAndBytesConfig."""
    lines: list[str] = []
    task = "CAUSAL_LM" if workload.family == "llm" else None
    targets = _LORA_TARGETS.get(train.lora_targets, '"all-linear"')
    # a mixture of experts keeps its experts as 3-D weights (transformers 5): LoRA reaches them by parameter name
    experts = bool(workload.model.experts) and train.lora_targets in ("mlp", "all-linear")
    if experts:
        lines.append("# " + tr("the experts' weights take LoRA through target_parameters (PEFT 0.17 or newer), "
                                "which needs lora_dropout=0"))
    lines.append("from peft import LoraConfig")
    lines.append(f"lora = LoraConfig(r={train.lora_rank}, lora_alpha={2 * train.lora_rank}, "
                 f"lora_dropout={0 if experts else train.lora_dropout:g}, target_modules={targets}"
                 + (', target_parameters=["mlp.experts.gate_up_proj", "mlp.experts.down_proj"]' if experts else "")
                 + (f', task_type="{task}")' if task else ")"))
    if train.method == "qlora":
        dtype = "torch.bfloat16" if bf16_ok(facts) else "torch.float16"
        # FSDP / ZeRO-3 can shard 4-bit weights only when they are stored in the float type the other
        # parameters use (Transformers docs, 'bitsandbytes → FSDP-QLoRA': bnb_4bit_quant_storage)
        storage = f", bnb_4bit_quant_storage={dtype}" if _sharded(settings) else ""
        if workload.model.experts:  # bitsandbytes replaces nn.Linear only; transformers 5's experts are 3-D weights
            lines.append("# " + tr("a mixture of experts in 4 bits needs each expert as its own linear layer: "
                                    "pip install \"transformers<5\""))
        lines.append("from transformers import BitsAndBytesConfig")
        lines.append('bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", '
                     f"bnb_4bit_use_double_quant=True, bnb_4bit_compute_dtype={dtype}{storage})")
        lines += _qlora_load_lines(train, workload, dtype, task)
    return lines


def _qlora_load_lines(train: TrainSpec, workload: Workload, dtype: str, task: str | None) -> list[str]:
    """How the 4-bit model is loaded and prepared, as the estimate prices it (train.qlora_upcast): the layers QLoRA
    leaves unquantized stay 16-bit (TRL 0.26 or newer), or PEFT's prepare_model_for_kbit_training casts them to fp32."""
    lines = []
    if task == "CAUSAL_LM" and workload.model.name:
        lines.append("from transformers import AutoModelForCausalLM")
        lines.append(f'model = AutoModelForCausalLM.from_pretrained("{workload.model.name}", '
                     f"quantization_config=bnb, dtype={dtype})")
    if not train.upcasts_frozen:
        extra = qlora_upcast_bytes(workload.model, train, load_factors()) / 2**30
        lines.append("# " + tr("the embeddings, output layer and norms stay 16-bit, as in the estimate: do not call "
                                "PEFT's prepare_model_for_kbit_training, which casts them to fp32 ({gib} GiB more, and "
                                "a slower step); TRL's SFTTrainer calls it no more since TRL 0.26",
                                gib=f"{extra:.1f}"))
    return lines


def _load_dtype_lines(train: TrainSpec, facts: GpuFacts) -> list[str]:
    """The dtype to load a Hugging Face model in for the weights the estimate prices: from_pretrained loads a checkpoint
    in its saved dtype since transformers 5 (bf16 for most LLMs) and in fp32 before; TRL's SFTTrainer given a model
    name loads it in fp32 (trl/trainer/sft_trainer.py, 'it defaults to float32')."""
    if train.method == "full" and train.precision in MIXED:
        return ["# " + tr("mixed precision keeps fp32 weights, as estimated: load or build the model with "
                          "dtype=torch.float32 (transformers 5 takes the dtype its config names, bf16 for most LLMs, "
                          "which then trains in pure bf16: --precision bf16-pure)")]
    if train.method == "lora" and train.precision in MIXED:  # pure 16-bit: its own line says how to load
        dtype = "torch.bfloat16" if bf16_ok(facts) else "torch.float16"
        return ["# " + tr("the frozen model stays 16-bit, as estimated: load it with dtype={dtype} (transformers 4, "
                          "and TRL's SFTTrainer given a model name, load it in fp32: twice the weights)", dtype=dtype)]
    return []


def _hf_snippet(settings: dict[str, Any], train: TrainSpec, workload: Workload, facts: GpuFacts) -> str:
    """TrainingArguments, plus LoraConfig / BitsAndBytesConfig when used (PEFT / Transformers names)."""
    args = [f'    output_dir="{workload.id}-out",']
    b = settings.get("per_device_train_batch_size", train.batch)
    args.append(f"    per_device_train_batch_size={b},")
    k = settings.get("gradient_accumulation_steps", train.grad_accum)
    if k and k > 1:
        args.append(f"    gradient_accumulation_steps={k},")
    mps = facts.backend == "metal"
    packed = packs_rows(train, workload)
    # TRL's SFTConfig, printed for packed rows and for a job priced with TRL's chunked loss, turns bf16 and gradient
    # checkpointing on unless told otherwise (trl/trainer/sft_config.py: 'gradient_checkpointing: Defaults to True',
    # 'bf16: Defaults to True if fp16 is not set'), so its recipe says "off" where the estimate has them off
    trl_loss = runs_trl_chunked(train, load_factors())
    sft = packed or trl_loss
    if train.precision in ("bf16", "bf16-pure"):
        args.append("    bf16=True,")
    elif train.precision == "fp16" and not mps:
        args.append("    fp16=True,")
    elif sft:
        args.append("    bf16=False,")
    unsloth = bool(settings.get("unsloth")) and train.method in ("lora", "qlora")
    if train.grad_checkpointing and not unsloth:  # Unsloth's own checkpointing is set on its model (below)
        args.append("    gradient_checkpointing=True,")
    elif sft and not unsloth:
        args.append("    gradient_checkpointing=False,")
    if settings.get("use_liger_kernel"):
        args.append("    use_liger_kernel=True,")
    # TRL's chunked loss (advise/fused_loss.py; the packed jobs' own loss: TRL's default since 1.7, said for TRL
    # 1.4-1.6) or its plain one (advise/loss_speed.py)
    loss_type = settings.get("loss_type") or ("chunked_nll" if trl_loss else "")
    if loss_type and sft and not settings.get("use_liger_kernel"):
        args.append(f'    loss_type="{loss_type}",')
    if train.cpu_offload and "deepspeed" not in settings:  # configured offload: its DeepSpeed config
        settings = {**settings, **offload_settings(train)}
    optim = _optim(settings, train)
    if optim and optim != "adamw_torch":
        args.append(f'    optim="{optim}",')
    if "deepspeed" in settings:
        args.append("    deepspeed=ds_config,")
    lines = _unsloth_lines(train, workload) if unsloth else []
    if train.method == "qlora" and not unsloth:
        lines.append("import torch")
    if "deepspeed" in settings:
        lines += _ds_config_lines(settings["deepspeed"], train)
    if sft:  # the time assumes packed rows (TRL docs, "Packing"): TRL's SFTConfig does it
        args += (["    packing=True,"] if packed else []) + [f"    max_length={train.seq_len},"]
        lines += ["from trl import SFTConfig", "args = SFTConfig("] + args + [")"]
        if not unsloth and packed:  # Unsloth keeps packed samples apart itself
            lines.append("# " + tr("packing=True needs a kernel that keeps packed samples apart: load the model with "
                                    "attn_implementation=\"flash_attention_2\" (TRL docs, \"Packing\"; FlashAttention 2 "
                                    "needs an Ampere or newer NVIDIA GPU); without it the run takes longer than "
                                    "estimated"))
    else:
        lines += ["from transformers import TrainingArguments", "args = TrainingArguments("] + args + [")"]
    if mps and train.precision == "fp16":
        lines.append("# " + tr("Apple MPS: no fp16=True, this trains in FP32. FP16 mixed precision on MPS needs "
                                "PyTorch 2.8 or newer and an accelerate release with MPS mixed precision "
                                "(huggingface/accelerate#3373); older ones refuse it (\"fp16 mixed precision "
                                "requires a GPU (not 'mps')\", huggingface/accelerate#3718)"))
    elif mps and train.precision in ("bf16", "bf16-pure"):
        lines.append("# " + tr("Apple MPS: bf16=True needs macOS 14, PyTorch 2.6 or newer and an accelerate "
                                "release with MPS mixed precision (huggingface/accelerate#3373); else remove it "
                                "and train in FP32"))
    if train.precision == "bf16-pure":
        lines.append("# " + tr("pure bf16: load the model with torch_dtype=torch.bfloat16 (weights, gradients and "
                                "AdamW state all in bf16)"))
    elif train.precision == "fp16-pure":
        lines.append("# " + tr("pure fp16: load the model with torch_dtype=torch.float16 and leave fp16=True off "
                                "(weights, gradients and optimizer state all in fp16, no loss scaling: small "
                                "gradients can underflow)"))
    if workload.model.arch == "transformer" and not unsloth:
        lines += _load_dtype_lines(train, facts)
    if train.method in ("lora", "qlora") and not unsloth:
        lines += _peft_lines(settings, train, workload, facts)
    if workload.model.arch in ("cnn", "mlp") and (train.precision != "fp32" or (k and k > 1)):
        amp = {"bf16": "torch.bfloat16", "fp16": "torch.float16"}.get(train.precision)
        hint = [f"torch.autocast('cuda', dtype={amp})"] if amp else []
        if train.precision == "fp16-pure":
            hint.append("model.half()")
        if train.precision == "fp16":
            hint.append("torch.amp.GradScaler()")
        if k and k > 1:
            hint.append(tr("optimizer.step() every {k} batches", k=k))
        lines.append("# " + tr("plain PyTorch loop: {steps}", steps=fmt_list(hint, strong=True)))
    if settings.get("use_liger_kernel"):
        lines.append("# " + tr("use_liger_kernel=True: pip install liger-kernel (Hugging Face transformers 4.52 or "
                                "newer; Linux or WSL2, or the triton-windows package on Windows)"))
    if settings.get("max_seq_length"):
        n = settings["max_seq_length"]
        lines.append("# " + tr("tokenize with truncation=True, max_length={n} (TRL SFTConfig: max_length={n})", n=n))
    if settings.get("workload") == workload.id and settings.get("model"):
        lines.append("# " + tr("model: {name}", name=f'"{settings["model"]}"'))
    return "\n".join(lines)


# Unsloth's get_peft_model takes PEFT's module names; "all-linear" is spelled out
_UNSLOTH_TARGETS = {**_LORA_TARGETS,
                    "all-linear": '["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]'}


def _unsloth_lines(train: TrainSpec, workload: Workload) -> list[str]:
    """Unsloth's model and adapters (its README's FastLanguageModel example): 4-bit loading for QLoRA, LoRA dropout 0
    and its own gradient checkpointing, which keeps each layer's checkpoint in CPU RAM."""
    name = workload.model.name or workload.id
    lines = ["from unsloth import FastLanguageModel  # " + tr("import unsloth before trl and transformers"),
             "model, tokenizer = FastLanguageModel.from_pretrained(",
             f'    model_name="{name}",', f"    max_seq_length={train.seq_len or 2048},",
             f"    load_in_4bit={train.method == 'qlora'},", ")",
             "model = FastLanguageModel.get_peft_model(",
             "    model,", f"    r={train.lora_rank},", f"    lora_alpha={2 * train.lora_rank},",
             f"    lora_dropout={train.lora_dropout:g},",
             f"    target_modules={_UNSLOTH_TARGETS.get(train.lora_targets, _UNSLOTH_TARGETS['all-linear'])},"]
    if train.grad_checkpointing:
        lines.append('    use_gradient_checkpointing="unsloth",')
    return lines + [")"]


def packs_rows(train: TrainSpec, workload: Workload) -> bool:
    """The estimate packs short samples into full rows (estimate._speed): the recipe must too."""
    avg = workload.data.avg_seq_len
    return bool(workload.model.arch == "transformer" and train.packing and avg and train.seq_len
                and avg < train.seq_len)


def _optim(settings: dict[str, Any], train: TrainSpec) -> str | None:
    """TrainingArguments' optim for these settings (None: DeepSpeed's own)."""
    optim = settings.get("optim")
    if _ds_offload(settings):
        return None  # DeepSpeed's CPU AdamW (ds_config "optimizer") steps the offloaded optimizer
    if train.optimizer == "adamw-8bit":
        return optim if optim in ("adamw_bnb_8bit", "paged_adamw_8bit") else "paged_adamw_8bit"
    if train.optimizer == "adafactor":
        return "adafactor"  # transformers' Adafactor with scale_parameter and relative_step off
    return optim


def _ds_offload(settings: dict[str, Any]) -> bool:
    return "offload_optimizer" in settings.get("deepspeed", {}).get("zero_optimization", {})


def _ds_config_lines(ds: dict[str, Any], train: TrainSpec) -> list[str]:
    """The DeepSpeed config as Python (True, not JSON's true) with the fields the Trainer fills from
    TrainingArguments set to "auto" (Hugging Face Transformers docs, "DeepSpeed → Configuration"): without
    them DeepSpeed has no batch size ("Either train_batch_size or train_micro_batch_size_per_gpu needs to be
    provided") and trains without mixed precision."""
    full: dict[str, Any] = {"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",
                            "gradient_clipping": "auto"}
    if train.precision in ("bf16", "bf16-pure", "fp16"):
        full["fp16" if train.precision == "fp16" else "bf16"] = {"enabled": "auto"}
    full.update(ds)
    text = pprint.pformat(full, indent=1, width=110, sort_dicts=False)
    return ["# " + tr("DeepSpeed config; the Trainer fills each \"auto\" from TrainingArguments"),
            "ds_config = " + text.replace("\n", "\n" + " " * len("ds_config = "))]


def _yolo_command(settings: dict[str, Any], train: TrainSpec, workload: Workload) -> str:
    """Ultralytics' CLI (docs.ultralytics.com/modes/train): `batch` is the micro-batch; Ultralytics
    accumulates gradients itself up to its nominal batch of 64 (`nbs`), so no accumulation flag exists."""
    b = settings.get("per_device_train_batch_size", train.batch)
    model = (workload.model.name or "yolov8s").split("/")[-1]
    parts = [f"yolo detect train model={model}.pt data=your_data.yaml epochs={int(workload.data.epochs)}",
             f"imgsz={train.image_size or 640}", f"batch={b}", f"amp={'True' if train.precision != 'fp32' else 'False'}"]
    return " ".join(parts) + "\n# " + tr("Ultralytics accumulates gradients to its nominal batch (nbs=64) by itself")


def _diffusers_command(settings: dict[str, Any], train: TrainSpec, workload: Workload, shell: str) -> str:
    """`accelerate launch` of the diffusers example script that trains this kind of job (examples/
    dreambooth and examples/text_to_image in the diffusers repository; flag names, and the flags each
    script requires, as those scripts define them)."""
    dreambooth = workload.train.method == "full"  # full-UNet jobs are DreamBooth-style fine-tunes
    sdxl = (workload.model.ref_image_size or 512) >= 1024
    if dreambooth:
        script = "train_dreambooth_lora_sdxl.py" if sdxl else (
            "train_dreambooth_lora.py" if train.method == "lora" else "train_dreambooth.py")
    else:
        script = "train_text_to_image_lora_sdxl.py" if sdxl else "train_text_to_image_lora.py"
    b = settings.get("per_device_train_batch_size", train.batch)
    k = settings.get("gradient_accumulation_steps", train.grad_accum)
    args = [f"accelerate launch {script}"]
    if workload.model.name:
        args.append(f'  --pretrained_model_name_or_path="{workload.model.name}"')
    if dreambooth:  # required by train_dreambooth*.py; prior preservation as its README trains DreamBooth
        args.append('  --instance_data_dir="./instance_images"')
        args.append('  --instance_prompt="a photo of sks dog"')
        args.append('  --with_prior_preservation --prior_loss_weight=1.0')
        args.append('  --class_data_dir="./class_images" --class_prompt="a photo of dog"')
    else:  # train_text_to_image*.py needs a data set: a folder (imagefolder + metadata) or a Hub name
        args.append('  --train_data_dir="./train_images"')
    if train.image_size:
        args.append(f"  --resolution={train.image_size}")
    args.append(f"  --train_batch_size={b}")
    if k and k > 1:
        args.append(f"  --gradient_accumulation_steps={k}")
    args.append(f'  --mixed_precision="{ {"fp16": "fp16", "bf16": "bf16"}.get(train.precision, "no")}"')
    if train.grad_checkpointing:
        args.append("  --gradient_checkpointing")
    if train.optimizer == "adamw-8bit" or settings.get("optim") in ("adamw_bnb_8bit", "paged_adamw_8bit"):
        args.append("  --use_8bit_adam")
    if train.method == "lora":
        args.append(f"  --rank={train.lora_rank}")
    args.append(f'  --output_dir="{workload.id}-out"')
    cmd = (continuation(shell) + "\n").join(args)
    if settings.get("offload") or train.cpu_offload:
        # diffusers examples/dreambooth README, "Training on a 8 GB GPU": DeepSpeed (stage 2, optimizer on the
        # CPU) through `accelerate config`; "8-bit optimizer does not seem to be compatible with DeepSpeed"
        cmd += "\n# " + tr("CPU offload: run `accelerate config` and choose DeepSpeed, ZeRO stage 2, optimizer "
                           "offloaded to the CPU (DeepSpeed's CPU Adam; no --use_8bit_adam)")
    if dreambooth:
        cmd += "\n# " + tr("with --with_prior_preservation each batch holds the instance images and as many class "
                           "images (generated into ./class_images first): the memory of twice the batch; gradient "
                           "accumulation sums whole pairs, so it keeps the effective batch")
    if train.optimizer == "adafactor":  # the example scripts build torch's AdamW (or bitsandbytes' with --use_8bit_adam)
        cmd += "\n# " + tr("these scripts have no Adafactor option: kohya's sd-scripts take --optimizer_type "
                           "\"Adafactor\", or replace the script's optimizer with transformers.optimization.Adafactor "
                           "(scale_parameter=False, relative_step=False)")
    if train.cache_embeddings and not dreambooth:
        cmd += "\n# " + tr("cache the VAE latents and text-encoder outputs before training (kohya sd-scripts: "
                           "--cache_latents --cache_text_encoder_outputs --network_train_unet_only)")
    return cmd


def _kohya_sdxl_command(settings: dict[str, Any], train: TrainSpec, workload: Workload, shell: str) -> str:
    """kohya sd-scripts' SDXL LoRA recipe for 8 GB (docs/train_SDXL-en.md, 'Tips for SDXL training'):
    train the U-Net only with cached latents and text-encoder outputs, an 8-bit optimizer, gradient
    checkpointing, a low network rank; lower the resolution to 768 px if it still runs out of memory."""
    b = settings.get("per_device_train_batch_size", train.batch)
    res = train.image_size or 1024
    args = ["accelerate launch sdxl_train_network.py",
            f'  --pretrained_model_name_or_path="{workload.model.name or "stabilityai/stable-diffusion-xl-base-1.0"}"',
            '  --train_data_dir="./train_images"', f"  --resolution={res},{res}",
            f"  --train_batch_size={b}", "  --network_module=networks.lora",
            f"  --network_dim={min(train.lora_rank, 16)}",
            "  --cache_latents --cache_text_encoder_outputs --network_train_unet_only",
            f'  --mixed_precision="{ {"fp16": "fp16", "bf16": "bf16"}.get(train.precision, "no")}"',
            "  --sdpa",
            # SDXL's VAE overflows in FP16 (NaN latents, black images; cached, they stay NaN for the whole run):
            # kohya's docs/train_SDXL-en.md, "--no_half_vae"; or the madebyollin/sdxl-vae-fp16-fix VAE
            "  --no_half_vae"]
    if train.grad_checkpointing:
        args.append("  --gradient_checkpointing")
    if train.optimizer == "adamw-8bit":
        args.append('  --optimizer_type="AdamW8bit"')
    elif train.optimizer == "adafactor":  # kohya's README, 'SDXL training': Adafactor with a fixed learning rate
        args.append('  --optimizer_type="Adafactor" --optimizer_args "scale_parameter=False" "relative_step=False" '
                    '"warmup_init=False"')
    args.append(f'  --output_dir="{workload.id}-out"')
    return (continuation(shell) + "\n").join(args)


__all__ = ["snippet"]
