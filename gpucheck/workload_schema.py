"""The schema of a workload file (resources/workloads/*.toml, a user's own job file): the keys of its top level and
of its [model], [train] and [data] tables, each with its kind and allowed values or range (gpucheck.tomldata),
read by gpucheck.catalog.parse_workload."""

from __future__ import annotations

from gpucheck.choices import (
    DET_ASSIGNERS,
    HOST_LOSSES,
    LAYER_CODES,
    LOADER_STARTS,
    LOOPS,
    LORA_TARGETS,
    LOSS_KINDS,
    MASK_LOSSES,
    METHODS,
    OPTIMIZER_IMPLS,
    OPTIMIZERS,
    PRECISIONS,
    QLORA_DEQUANT_DTYPES,
    QLORA_KERNELS,
    QLORA_WRAPPERS,
    STACKS,
    UNET_CODES,
    ZERO_ENGINES,
)
from gpucheck.errors import BadInput
from gpucheck.i18n import tr
from gpucheck.records import AUDIO_DECODE, FEATURE_EXTRACTION, ModelSpec
from gpucheck.tomldata import _B, _f, _i, _s

TOP_SPEC = {
    "id": _s(True),
    "title": _s(True),
    "title_zh": _s(),
    "description": _s(),
    "description_zh": _s(),
    "family": _s(True, ("vision", "nlp", "diffusion", "llm", "speech")),
    "level": _i(False, 1, 100),  # the place on the built-in ladder; cosmetic, so a user's own file may leave it out
    "smaller_model": _s(),
    "source": _s(),
}
MODEL_SPEC = {
    "arch": _s(True, ("transformer", "cnn", "unet", "mlp")),
    "params": _f(True, 1e3, 1e13),
    "layers": _i(False, 1, 1000),
    "hidden": _i(False, 1, 1_000_000),
    "heads": _i(False, 1, 10_000),
    "kv_heads": _i(False, 1, 10_000),
    "head_dim": _i(False, 1, 10_000),
    "ffn": _i(False, 1, 10_000_000),
    "vocab": _i(False, 1, 10_000_000),
    "tied_embeddings": _B,
    "qkv_bias": _B,
    "forward_gflops": _f(False, 1e-6, 1e9),
    "attn_gflops": _f(False, 0, 1e9),
    "cross_attn_gflops": _f(False, 0, 1e9),
    "activation_mib": _f(False, 0, 1e7),
    "activation_mib_checkpointed": _f(False, 0, 1e7),
    "attn_score_elements": _f(False, 0, 1e15),
    "attn_score_elements_max": _f(False, 0, 1e15),
    "ref_image_size": _i(False, 8, 16384),
    "latent_downscale": _i(False, 1, 64),
    "aux_params": _f(False, 0, 1e13),
    "aux_encode_peak_mib": _f(False, 0, 1e7),
    "aux_vae_params": _f(False, 0, 1e13),
    "lora_params_per_rank": _f(False, 0, 1e11),
    "encoder_decoder": _B,
    "gated_mlp": _B,
    "aux_forward_gflops": _f(False, 0, 1e9),
    "eager_attention": _B, "attention_softcap": _B, "attention_sinks": _B,
    "decoder_layers": _i(False, 0, 10_000),
    "decoder_seq_len": _i(False, 1, 10_000_000),
    "ctc_vocab": _i(False, 0, 10_000_000),
    "mel_bins": _i(False, 0, 100_000),
    "dropout": _f(False, 0, 1),
    "attention_dropout": _f(False, 0, 1),
    "drop_path": _f(False, 0, 1),
    "dropout_elements": _f(False, 0, 1e12),
    "conv_params": _f(False, 0, 1e13),
    "factored_state_params": _f(False, 0, 1e13),
    "flops_in_linear": _B,
    "depthwise_gflops": _f(False, 0, 1e9),
    "winograd_share": _f(False, 0, 1),
    "host_loss": _s(False, HOST_LOSSES),
    "det_assigner": _s(False, DET_ASSIGNERS),
    "mask_loss": _s(False, MASK_LOSSES),
    "layer_code": _s(False, LAYER_CODES),
    "experts": _i(False, 0, 100_000), "experts_per_token": _i(False, 0, 100_000),
    "expert_ffn": _i(False, 0, 10_000_000), "shared_expert_ffn": _i(False, 0, 10_000_000),
    "moe_layers": _i(False, 0, 1000),
    "unet_code": _s(False, UNET_CODES),
    "name": _s(),
    "model_type": _s(),
}
TRAIN_SPEC = {
    "method": _s(False, METHODS),
    "precision": _s(False, PRECISIONS),
    "optimizer": _s(False, OPTIMIZERS),
    "batch": _i(False, 1, 65536),
    "seq_len": _i(False, 1, 10_000_000),
    "image_size": _i(False, 8, 16384),
    "grad_checkpointing": _B,
    "lora_rank": _i(False, 1, 65536),
    "lora_targets": _s(False, LORA_TARGETS),
    "lora_dropout": _f(False, 0, 0.99),
    "zero_stage": _i(False, 0, 3),
    "grad_accum": _i(False, 1, 1_000_000),
    "cpu_offload": _B,
    "from_scratch": _B,
    "shard": _B,
    "cache_embeddings": _B,
    "vae_fp32": _B,
    "stack": _s(False, STACKS),
    "packing": _B,
    "longest_first": _B,
    "cross_entropy": _s(False, LOSS_KINDS),
    "host_sync": _B,
    "tf32_matmul": _B, "autocast_fp32_stream": _B,
    "fsdp_frozen_grads": _B, "fsdp_no_sync": _B, "fsdp_16bit_params": _B, "qlora_upcast": _B,
    "qlora_kernel": _s(False, QLORA_KERNELS), "checkpoint_reentrant": _B, "qlora_double_quant": _B,
    "qlora_keeps_input": _B, "qlora_bf16_adapters": _B,
    "qlora_dequant_dtype": _s(False, QLORA_DEQUANT_DTYPES), "qlora_wrapper": _s(False, QLORA_WRAPPERS),
    "qlora_norm_keeps_dtype": _B,
    "zero_bucket_elements": _f(False, 0, 1e10), "zero_engine": _s(False, ZERO_ENGINES), "zero_overlap_comm": _B, "allreduce_after_backward": _B, "ddp_bucket_copy": _B, "ema": _B,
    "optimizer_impl": _s(False, OPTIMIZER_IMPLS),
    "channels_last": _B,
    "feature_extraction": _s(False, FEATURE_EXTRACTION),
    "input_libs": _s(False, ("current", "2022")), "input_floats": _i(False, 0, 10**9),
    "audio_decode": _s(False, AUDIO_DECODE), "audio_seconds": _f(False, 0, 1e6),
    "stream_archive_bytes": _i(False, 0, 10**12),
    "loader_workers": _i(False, 0, 1024), "loader_start": _s(False, LOADER_STARTS),
    "loop": _s(False, LOOPS),
    "epoch_samples": _i(False, 0, 10**13), "loader_dataset_bytes": _i(False, 0, 10**15),
    "eval_samples": _i(False, 0, 10**12), "eval_every_steps": _i(False, 0, 10**12), "eval_at_end": _B,
    "eval_batch": _i(False, 0, 1_000_000), "generate_tokens": _i(False, 0, 10_000_000),
}
DATA_SPEC = {
    "samples": _i(True, 1, 10**13),
    "epochs": _f(False, 0.0001, 1e6),
    "bytes_per_sample": _i(False, 0, 10**12),
    "in_memory": _B,
    "avg_seq_len": _i(False, 1, 10_000_000),
    "tokens": _f(False, 1, 1e16),
}


def check_experts(where: str, prefix: str, m: ModelSpec) -> None:
    """A model with experts names how many a token runs (1 to experts), each expert's width and at most its layers
    with experts: one clear message for the first key that does not, instead of a model read as dense."""
    if not m.experts:
        return
    for key, value, lo, hi in (("experts_per_token", m.experts_per_token, 1, m.experts),
                               ("expert_ffn", m.expert_ffn, 1, 10_000_000),
                               ("moe_layers", m.moe_layers, 0, m.layers or 1000)):
        if not lo <= value <= hi:
            raise BadInput(tr("{where}: key '{key}': expected an integer from {lo} to {hi}, got {got}", where=where,
                              key=prefix + key, lo=lo, hi=hi, got=value))
