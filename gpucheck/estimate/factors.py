"""resources/factors.toml as validated, read-only records, loaded once: `load_factors() -> FactorTable`.

Every table and key the estimator reads is declared in FACTORS_SCHEMA with its kind. An unknown table or
key, a missing one and a value of the wrong kind are a `BadInput` naming the file and the dotted key (one
line): the file ships with the app, so a mistake in it is a bug a test catches, never a silent fallback to
a number written in the code. Tables keyed by a backend, an architecture, a GPU segment or an optimizer
must list every one of them, so the estimator looks them up without a default. Every top-level table
carries `source` and `as_of`; a sub-table of numbers either has its own or says `inherit_source = true`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from gpucheck.choices import (
    DET_ASSIGNERS,
    HOST_LOSSES,
    LAYER_CODES,
    MASK_LOSSES,
    OPTIMIZER_IMPLS,
    OPTIMIZERS,
    QLORA_KERNELS,
    STACKS,
    UNET_CODES,
)
from gpucheck.errors import BadInput
from gpucheck.resources import resource_path
from gpucheck.tomldata import VALUE_KINDS, read_toml, shown_key

BACKENDS = ("cuda", "rocm", "metal", "xpu", "cpu", "other")
ARCHS = ("transformer", "cnn", "unet", "mlp")
SEGMENTS = ("consumer", "laptop", "workstation", "datacenter", "apple", "integrated")
FAMILIES = ("vision", "nlp", "diffusion", "llm", "speech")  # a workload's family (bands per family)
VENDORS = ("nvidia", "amd", "apple", "intel", "laptop", "cpu")  # bands per family and vendor ("laptop": any laptop
#   GPU, whose sustained clock rests on no measurement; "cpu": no GPU)


@dataclass(frozen=True)
class FactorTable(Mapping[str, Any]):
    """One validated table of factors.toml (read-only). Values: float, int, bool, tuple of str, or a FactorTable.
    `name` is the dotted path ("speed.gemm_efficiency"); `source`/`as_of` are the table's own or inherited."""

    name: str
    entries: Mapping[str, Any]
    source: str = field(repr=False)
    as_of: str = field(repr=False)

    def __getitem__(self, key: str) -> Any:
        try:
            return self.entries[key]
        except KeyError:
            raise KeyError(f"factors.toml has no key '{self.name}.{key}'") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, key: object) -> bool:
        return key in self.entries

    def __hash__(self) -> int:
        return hash(self.name)


@dataclass(frozen=True)
class Open:
    """A table whose keys are not fixed: any key matching `pattern` (or listed in `allowed`), each of `kind`;
    `required` keys must be present. Absent keys mean what the table's source says (no cap, no effect)."""

    kind: Any
    pattern: str = ""
    allowed: tuple[str, ...] = ()
    required: tuple[str, ...] = ()


def _each(keys: tuple[str, ...], kind: Any) -> dict[str, Any]:
    return {k: kind for k in keys}


_CC = r"\d+\.\d+"  # a compute capability, "8.9"
_GEMM = {"tensor": "pos", "tf32": "pos", "fp32": "pos"}
_LAYER_BYTES = {"hidden_bytes": "num", "kv_bytes": "num", "ffn_bytes": "num"}
_BAND = {"p10": "pos", "p90": "pos"}
_MBAND = {"lo": "frac", "hi": "pos"}
_LOSS = {"held_logits": "num", "loss_copies": "num", "upcast": "bool", "output_fp32": "bool"}

FACTORS_SCHEMA: dict[str, Any] = {
    "verdict": {"too_slow_days": "pos"},
    "fit_band": {"headroom_fraction": "frac", "ram_short": "frac"},
    "bytes_per_param": {"weights_fp32": "pos", "weights_mixed": "pos", "weights_frozen_16bit": "pos",
                        "weights_frozen_fp32": "pos", "adapter_weights": "pos", "grads": "num",
                        "optimizer": _each(OPTIMIZERS, "num")},
    "pure_bf16": {"weights": "pos", "grads": "num", "optimizer": _each(OPTIMIZERS, "num")},
    "qlora": {"bits_per_quantized_param": "pos", "unquantized_bytes_per_param": "pos",
              "unquantized_bytes_per_param_pure_bf16": "pos", "time_factor_low": "pos",
              "bits_per_quantized_param_single_quant": "pos",
              "kept_input_copies": _each(QLORA_KERNELS, "num"),
              "kept_weight_bytes": _each(QLORA_KERNELS, "num"), "dequant_transient_bytes": _each(QLORA_KERNELS, "num"),
              "time_factor_high": "pos"},
    "activations": {"fp32_scale": "pos", "score_bytes_16bit": "num", "score_bytes_fp32": "num", "score_dropout_bytes": "num", "score_bytes_pure_16bit": "num",
                    "score_dropout_bytes_pure_16bit": "num", "score_softcap_bytes": "num", "score_backward_bytes": "num", "score_backward_bytes_pure_16bit": "num", "image_checkpointing_fraction": "frac",
                    "swiglu": _LAYER_BYTES, "gelu": _LAYER_BYTES, "unsloth": _LAYER_BYTES,
                    "gelu_chain": {"ffn_bytes_autocast": "num", "ffn_bytes": "num", "layer_codes": "strlist"},
                    "moe": {"pair_hidden_bytes": "num", "router_bytes_per_expert": "num"}},
    "linear_attention": {"chunk_tokens": "pos", "qkv_stream_bytes": "num", "value_bytes": "num", "per_head_bytes": "num",
                         "softmax_hidden_bytes": "num", "output_gate_bytes": "num"},
    "unsloth": {"checkpoint_gpu_buffers": "num", "checkpoint_bytes_per_element": "pos", "backward_hidden_bytes": "num",
                "backward_ffn_bytes": "num"},
    "lora_dropout": {"copy_bytes_16bit": "pos", "copy_bytes_fp32": "pos", "mask_bytes": "num"},
    "loss_memory": {"batch_max_boxes": "pos", "anchors_at_640": "pos",
                    "assigner": _each(DET_ASSIGNERS, {"floor_bytes_per_anchor": "num", "bytes_per_anchor": "num",
                                                      "bytes_per_anchor_box": "num"}),
                    "boxes_per_image": "pos", "positives_per_box": "pos", "mask_side_at_640": "pos",
                    "mask_loss": _each(MASK_LOSSES, {"bytes_per_mask_pixel": "num"})},
    "overhead": {"context_bytes": _each(BACKENDS, "int"), "allocator_fraction": _each(BACKENDS, "frac"),
                 "allocator_transient_blocks": _each(BACKENDS, "num"),
                 "cached_reserve": {"record_size_fraction": "frac", "blocks_per_generation": "num",
                                    "backends": "strlist"}},
    "optimizer_step": {"stack_default": _each(STACKS, "str"), "temporary_state_fraction": _each(OPTIMIZERS, "num"),
                       "temporary_buffers": _each(OPTIMIZER_IMPLS, "num")},
    "seq2seq": {"cross_hidden_bytes": "num", "cross_kv_bytes": "num", "cross_attention_operators": "num"},
    "logits": {"stack_default": _each(STACKS, "str"), "full": _LOSS, "full_fp32_output": _LOSS,
               "chunked": {**_LOSS, "chunk_tokens": "posint", "transient_copies": "num"}, "fused": _LOSS,
               "fused_linear": {**_LOSS, "chunk_hidden_multiple": "posint"},
               "trl_chunked": {**_LOSS, "chunk_tokens": "posint", "fp32_copy_bytes": "num",
                               "autocast_copy_bytes": "num"}},
    "tf32_default": {**_each(ARCHS + ("linear",), "bool"), "backends": "strlist"},
    "fp16_nan": {"gpu_names": "strlist"},
    "utilization": {"small_batch_half_positions": Open("pos", allowed=ARCHS),
                    "backend_factor": _each(BACKENDS, "pos")},
    "speed": {"small_hidden_half": "pos", "legacy_mma_fraction": Open("posfrac", pattern=_CC),
              "tensor_share": Open("posfrac", pattern=_CC),
              "conv_fp32": {"conv_fp32_speedup": "pos", "usual_winograd_share": "frac",
                            "winograd_flops_per_cu_clock": "pos"},
              "gemm_efficiency": _each(ARCHS, _GEMM),
              "elementwise": {"hidden_elements": "num", "ffn_elements": "num",
                              "score_traffic": Open({f"{mode}_{q}": "num" for mode in ("autocast", "pure16", "fp32")
                                                     for q in ("forward_bytes", "forward_elements", "backward_bytes",
                                                               "backward_elements")}, allowed=LAYER_CODES),
                              "moe_pair_hidden_elements": "num",
                              "logit_elements": "num", "sm_cycles_per_element": "num",
                              "depthwise_loads_per_mac": "num",
                              "dropout_elements": "num", "score_dropout_elements": "num", "drop_path_elements": "num",
                              "usual_dropout": _each(("gated", "plain"), "frac"),
                              "fp32_lanes_per_sm": Open("posint", pattern=r"default|\d+\.\d+|gfx\w+", required=("default",)),
                              "feature_map_factor": _each(("cnn", "unet", "mlp"), "num")},
              "autocast": {"cast_bytes_per_element": "num", "weight_cast_bytes_per_param": "num",
                           "grad_cast_bytes_per_param": "num", "grad_scaler_bytes_per_param": "num"}},
    "stack": _each(STACKS, {"kernel_scale": "pos", "elementwise_scale": "pos", "gemm_scale": "pos",
                            "tf32_matmul": "bool", "native_mma": "bool", "autocast_fp32_stream": "bool"}),
    "clocks": {"tensor_tflops_per_watt": Open("pos", pattern=_CC), "fallback_fraction": _each(SEGMENTS, "posfrac"),
               "power_cap_exponent": "posfrac"},
    "bandwidth": {"efficiency": "posfrac", "dequant_bytes_per_param": "pos",
                  "dequant_cast_bytes_per_param": _each(("fp16", "bf16", "fp32"), "num"),
                  "optimizer_bytes_per_trainable_param": _each(OPTIMIZERS, _each(OPTIMIZER_IMPLS, "pos")),
                  "optimizer_bytes_per_trainable_param_16bit": _each(OPTIMIZERS, _each(OPTIMIZER_IMPLS, "pos"))},
    "step_overhead_s": _each(BACKENDS, "num"),
    "loop_overhead_s": {"plain": "num"},
    "dispatch": {"launch_us": "num", "reference_clock_mhz": "pos",
                 "kernels": {"backward_per_forward": "num", "adapter_forward": "num", "adapter_backward": "num",
                             "dequant_per_linear": "num", "dequant_cast_per_linear": "num", "linear4bit_upcast_casts": "num",
                             "peft_4bit_clone": "num", "image_layer_forward": "num", "optimizer_per_tensor": "num",
                             "residual_branches_per_layer": "num", "dropout_forward": "num",
                             "dropout_backward": "num", "drop_path_forward": "num", "drop_path_backward": "num",
                             "layers_default": _each(("cnn", "unet", "mlp"), "posint"),
                             "layer_code": _each(LAYER_CODES, {"forward": "pos", "backward": "pos",
                                                               "backward_frozen_weights": "pos"}),
                             "usual_layer_code": {"sdpa": "str", "eager": "str",
                                                  "by_model_type": Open({"sdpa": "str", "eager": "str"},
                                                                        pattern=r"[a-z0-9_-]+")},
                             "unet_code": _each(UNET_CODES, {"forward": "pos", "backward": "pos",
                                                             "backward_frozen_weights": "pos", "attention_linears": "posint",
                                                             "transformer_linears": "posint"})},
                 "host_clock_mhz": _each(SEGMENTS, "pos"), "backend_factor": _each(BACKENDS, "num"),
                 "optimizer_loop": {"backends": "strlist", "ops_per_tensor": _each(OPTIMIZERS, "num")},
                 "host_loss": _each(HOST_LOSSES, {"ops_per_step": "num", "ops_per_image": "num"}),
                 "moe_fallback": {"min_compute_capability": "pos", "forward_ops_per_expert": "num",
                                  "backward_ops_per_expert": "num"}},
    "multi_gpu": {"overlap_fraction": "posfrac", "base_efficiency": "posfrac", "nvlink_efficiency": "posfrac",
                  "unknown_pcie_gen": "posint", "pcie_gbps": Open("pos", pattern=r"\d+"),
                  "links": {"no_p2p_factor": "posfrac", "gpus_per_node": "posint", "host_copies_per_byte": "pos"},
                  "network": {"efficiency": "posfrac", "node_gbit": _each(SEGMENTS, "pos"),
                              "per_gpu_gbit": Open("pos", pattern=r"default|\d+\.\d+|gfx\w+", required=("default",))}},
    "cpu": {"default_cores": "posint", "default_clock_mhz": "pos", "default_mem_bandwidth_gbps": "pos",
            "gemm_half_rows_per_core": "num", "linear_efficiency": "frac", "native_bf16_flags": "strlist",
            "gemm_half_rows_by_core": Open("pos", pattern=r"[a-z0-9][a-z0-9-]*"),
            "bf16": {"native_gemm_gain": "pos", "amx_gemm_gain": "pos", "amx_conv_gain": "pos",
                     "amx_conv_archs": "strlist"},
            "dropout": {"mask_ns_per_element": "pos", "reference_clock_mhz": "pos"},
            "attention": {"fused_forward_ns_per_score": "pos", "fused_backward_ns_per_score": "pos",
                          "reference_clock_mhz": "pos"},
            "conv_reorder": {"forward_ns_per_weight_bf16": "pos", "forward_ns_per_weight_fp32": "pos",
                             "backward_ns_per_weight_bf16": "pos", "backward_ns_per_weight_fp32": "pos",
                             "reference_clock_mhz": "pos"},
            "conv_padding": {"max_share": "posfrac"},
            "max_pool": {"nchw_ns_per_output": "pos", "nchw_ns_per_tap": "pos", "reference_clock_mhz": "pos"},
            "page_faults": {"mmap_ceiling_bytes": "pos", "page_bytes": "pos", "fault_us": "pos",
                            "fault_us_by_core": Open("pos", pattern=r"[a-z0-9][a-z0-9-]*"),
                            "reference_clock_mhz": "pos", "platforms": "strlist"},
            "blas_gemm": {"vendors": "strlist", "archs": "strlist", "fp32_flops_per_cycle_cap": "pos"},
            "core_mem_bandwidth_gbps": Open("pos", pattern=r"[a-z0-9][a-z0-9-]*", required=("default",)),
            "cores": Open({"vendor": "str", "requires": "strlist", "brand": "strlist", "fp32_flops_per_cycle": "pos",
                           "bf16_flops_per_cycle": "pos"}, pattern=r"[a-z0-9][a-z0-9-]*", required=("default",))},
    "vram": {"display_reserve_default_gib": "num", "display_reserve_max_gib": "num", "busy_note_gib": "num"},
    "support": {"training_backends": "strlist", "bitsandbytes_backends": "strlist"},
    "host": {"in_memory_threshold_gib": "num", "max_loader_workers": "posint", "worker_gib": "num",
             "load_shard_gib": "num", "dataset_cache_factor": "num",
             "environment_gib": _each(BACKENDS, "num"),
             "checkpoint_bytes_per_param_full": "num", "checkpoints_kept": "int", "fp16_checkpoint_above_params": "num",
             "process_gib": _each(BACKENDS, "num"),
             "import_gib": {"torch": "num", "torchvision": "num", "transformers": "num", "diffusers": "num"}},
    "speed_band": {"default": _BAND, "calibrated_cpu": _BAND,
                   "cell": Open(Open(_BAND, allowed=VENDORS), allowed=FAMILIES)},
    "memory_band": {"default": _MBAND, "cell": Open(Open(_MBAND, allowed=VENDORS), allowed=FAMILIES)},
    "fitted": Open({"prior": "num", "fitted_on": "strlist"}, pattern=r"[a-z_][a-z0-9_.\-]*"),
    "sequence": {"default_seq_len": "posint"},
    "zero": {"grads_bytes_16bit": "pos", "fp32_grad_partition_bytes": "pos", "default_bucket_elements": "num",
             "advised_bucket_elements": "num"},
    "zero3_hooks": {"ops_per_module_call_forward": "num", "ops_per_module_call_backward": "num",
                    "ops_per_gathered_weight": "num", "ops_per_gradient": "num", "ops_per_gradient_slice": "num",
                    "ops_per_bucket": "num", "block_module_calls_besides_linears": "num",
                    "cross_attention_linears": "num", "cross_attention_module_calls_besides_linears": "num",
                    "lora_module_calls_per_adapted_linear": "num", "model_module_calls": "num", "norms_per_block": "num"},
    "ddp": {"bucket_gradient_copies": "num"},
    "ema": {"weight_copies": "num"},
    "unknown_gpu": {"shared_memory_max_gbps": "pos"},
    "input_path": {"reference_clock_mhz": "pos", "whisper_clip_floats": "posint", "feature_s_per_mfloat_current": "pos",
                   "feature_s_per_mfloat_2022": "pos", "lists_s_per_mfloat_current": "pos", "lists_s_per_mfloat_2022": "pos",
                   "spawn_worker_start_s": "pos", "spawn_pickle_s_per_gb": "pos",
                   "spawn_import_factor_macos": "pos", "mp3_decode_s_per_audio_s": "pos",
                   "resample_s_per_audio_s": "pos", "tar_gz_read_s_per_mb": "pos"},
    "cpu_offload": {"buffer_factor": "pos", "grad_out_bytes_per_param": "pos", "param_in_bytes_per_param": "pos",
                    "min_grad_bytes_per_gpu": "pos", "host_efficiency": "posfrac",
                    "host_mem_bandwidth_gbps": _each(SEGMENTS, "pos")},
}
_TEXT_KEYS = ("source", "as_of")


def _value(where: str, key: str, kind: str, value: Any) -> Any:
    what, ok = VALUE_KINDS[kind]
    if not ok(value):
        raise BadInput(f"{where}: key '{shown_key(key)}': expected {what}, got {value!r:.60}")
    if kind == "strlist":
        return tuple(value)
    if kind in ("int", "posint", "bool", "str"):
        return value
    return float(value)


def _table(where: str, name: str, raw: Any, spec: Any, inherited: tuple[str, str] | None) -> FactorTable:
    if not isinstance(raw, dict):
        raise BadInput(f"{where}: key '{shown_key(name)}': expected a table, got {raw!r:.60}")
    own = tuple(raw.get(k) for k in _TEXT_KEYS)
    grouping = all(isinstance(v, dict) for k, v in raw.items() if k not in (*_TEXT_KEYS, "inherit_source"))
    if (raw.get("inherit_source") is True or grouping) and inherited is not None and own == (None, None):
        source, as_of = inherited
    elif all(isinstance(x, str) and x for x in own):
        source, as_of = own  # type: ignore[assignment]
    else:
        hint = " (or 'inherit_source = true')" if inherited is not None else ""
        raise BadInput(f"{where}: table [{shown_key(name)}] needs 'source' and 'as_of' strings{hint}")
    keys = [k for k in raw if k not in (*_TEXT_KEYS, "inherit_source")]
    values: dict[str, Any] = {}
    for k in keys:
        path = f"{name}.{k}"
        kind = _kind_of(spec, k)
        if kind is None:
            expected = ", ".join(spec.allowed or (f"keys like {spec.pattern}",)) if isinstance(spec, Open) \
                else ", ".join(spec)
            raise BadInput(f"{where}: unknown key '{shown_key(path)}' (expected one of: {expected})")
        if isinstance(kind, (dict, Open)):
            values[k] = _table(where, path, raw[k], kind, (source, as_of))
        else:
            values[k] = _value(where, path, kind, raw[k])
    needed = spec.required if isinstance(spec, Open) else tuple(spec)
    missing = [k for k in needed if k not in values]
    if missing:
        kind = _kind_of(spec, missing[0])
        what = "a table" if isinstance(kind, (dict, Open)) else VALUE_KINDS[kind][0]
        raise BadInput(f"{where}: missing key '{name}.{missing[0]}' ({what})")
    return FactorTable(name, MappingProxyType(values), source, as_of)


def _kind_of(spec: Any, key: str) -> Any:
    if isinstance(spec, Open):
        if key in spec.allowed or (spec.pattern and re.fullmatch(spec.pattern, key)):
            return spec.kind
        return None
    return spec.get(key)


def parse_factors(data: dict[str, Any], where: str) -> FactorTable:
    """factors.toml's tables → one read-only FactorTable tree; every problem is a one-line BadInput."""
    unknown = sorted(set(data) - set(FACTORS_SCHEMA))
    if unknown:
        raise BadInput(f"{where}: unknown table [{shown_key(unknown[0])}] "
                       f"(expected one of: {', '.join(FACTORS_SCHEMA)})")
    tables = {}
    for name, spec in FACTORS_SCHEMA.items():
        if name not in data:
            raise BadInput(f"{where}: missing table [{name}]")
        tables[name] = _table(where, name, data[name], spec, None)
    return FactorTable("", MappingProxyType(tables), "resources/factors.toml", "")


@lru_cache(maxsize=1)
def load_factors() -> FactorTable:
    """resources/factors.toml, validated (see FACTORS_SCHEMA)."""
    path = resource_path("factors.toml")
    return parse_factors(read_toml(path), str(path))


def default_seq_len() -> int:
    """The sequence length of a transformer job whose file gives none (factors.toml [sequence])."""
    return int(load_factors()["sequence"]["default_seq_len"])


def seq_len_of(t: Any) -> int:
    """A job's sequence length (a TrainSpec's `seq_len`), else the default."""
    return int(t.seq_len) if t.seq_len else default_seq_len()


def image_scale(m: Any, t: Any) -> float:
    """How a conv net's or U-Net's per-sample figures (FLOPs, saved activations, depthwise work), stated at the model's
    `ref_image_size`, grow at the job's image size: with the pixels, (image_size / ref_image_size)²; 1 where either is
    unknown."""
    return (t.image_size / m.ref_image_size) ** 2 if m.ref_image_size and t.image_size else 1.0


def fp32_lanes_per_sm(spec: Any, f: Mapping[str, Any]) -> float:
    """FP32 lanes of one SM (AMD: one CU) of the GPU `spec`, by compute capability or gfx target
    ([speed.elementwise] fp32_lanes_per_sm; its default where the generation is not listed)."""
    lanes = f["speed"]["elementwise"]["fp32_lanes_per_sm"]
    return float(lanes.get(spec.compute_capability or "", lanes["default"]))
