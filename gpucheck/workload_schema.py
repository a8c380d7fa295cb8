"""The schema of a workload file (resources/workloads/*.toml, a user's own job file): the keys of its top level and
of its [model], [train] and [data] tables, each with its kind and allowed values or range (gpucheck.tomldata),
read by gpucheck.catalog.parse_workload."""

from __future__ import annotations

from gpucheck.choices import (
    HOST_LOSSES,
    LAYER_CODES,
    LOADER_STARTS,
    LORA_TARGETS,
    METHODS,
    OPTIMIZER_IMPLS,
    OPTIMIZERS,
    PRECISIONS,
    QLORA_KERNELS,
    STACKS,
)
from gpucheck.records import FEATURE_EXTRACTION
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
    "activation_mib": _f(False, 0, 1e7),
    "ref_image_size": _i(False, 8, 16384),
    "aux_params": _f(False, 0, 1e13),
    "lora_params_per_rank": _f(False, 0, 1e11),
    "encoder_decoder": _B,
    "gated_mlp": _B,
    "aux_forward_gflops": _f(False, 0, 1e9),
    "eager_attention": _B, "attention_softcap": _B,
    "decoder_layers": _i(False, 0, 10_000),
    "decoder_seq_len": _i(False, 1, 10_000_000),
    "dropout": _f(False, 0, 1),
    "attention_dropout": _f(False, 0, 1),
    "drop_path": _f(False, 0, 1),
    "flops_in_linear": _B,
    "depthwise_gflops": _f(False, 0, 1e9),
    "winograd_share": _f(False, 0, 1),
    "host_loss": _s(False, HOST_LOSSES),
    "layer_code": _s(False, LAYER_CODES),
    "name": _s(),
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
    "zero_stage": _i(False, 0, 3),
    "grad_accum": _i(False, 1, 1_000_000),
    "cpu_offload": _B,
    "from_scratch": _B,
    "shard": _B,
    "cache_embeddings": _B,
    "stack": _s(False, STACKS),
    "packing": _B,
    "cross_entropy": _s(False, ("full", "chunked", "fused")),
    "host_sync": _B,
    "fsdp_frozen_grads": _B, "fsdp_16bit_params": _B, "qlora_upcast": _B,
    "qlora_kernel": _s(False, QLORA_KERNELS), "checkpoint_reentrant": _B, "qlora_double_quant": _B,
    "zero_bucket_elements": _f(False, 0, 1e10),
    "optimizer_impl": _s(False, OPTIMIZER_IMPLS),
    "channels_last": _B,
    "feature_extraction": _s(False, FEATURE_EXTRACTION),
    "input_libs": _s(False, ("current", "2022")), "input_floats": _i(False, 0, 10**9),
    "loader_workers": _i(False, 0, 1024), "loader_start": _s(False, LOADER_STARTS),
    "epoch_samples": _i(False, 0, 10**13), "loader_dataset_bytes": _i(False, 0, 10**15),
}
DATA_SPEC = {
    "samples": _i(True, 1, 10**13),
    "epochs": _f(False, 0.0001, 1e6),
    "bytes_per_sample": _i(False, 0, 10**12),
    "in_memory": _B,
    "avg_seq_len": _i(False, 1, 10_000_000),
    "tokens": _f(False, 1, 1e16),
}

