"""Parts of a Hugging Face `config.json` that gpucheck/hf_config.py reads: its keys checked one by one (one clear
message naming the file and the key), the image side a vision-language checkpoint loads beside its decoder, and the
Gated DeltaNet layers of hybrid decoders (Qwen3.5, Qwen3-Next).

Each count is read in Hugging Face transformers' modeling code for the model type (named in each docstring); a key
the file leaves out takes that config class's default.
"""

from __future__ import annotations

from typing import Any

from gpucheck.errors import BadInput
from gpucheck.fileio import shorten
from gpucheck.i18n import tr
from gpucheck.records import gated_deltanet_projection_params


def read_int(where: str, cfg: dict[str, Any], key: str, default: Any = None, lo: int = 1,
         hi: int = 10_000_000) -> int:
    if key not in cfg or cfg[key] is None:
        if default is None:
            raise BadInput(tr("{where}: missing key '{key}' (an integer)", where=where, key=key))
        return default
    v = cfg[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise BadInput(tr("{where}: key '{key}': expected an integer, got {got}", where=where, key=key,
                          got=shorten(repr(v), 60)))
    if not lo <= v <= hi:
        raise BadInput(tr("{where}: key '{key}': expected an integer from {lo} to {hi}, got {got}", where=where,
                          key=key, lo=lo, hi=hi, got=shorten(str(v), 60)))
    return v


def check_divides(where: str, key: str, size: int, heads_key: str, heads: int) -> None:
    """Attention splits `size` evenly among the heads: more heads than the size, or a remainder, is no model."""
    if heads > size or size % heads:
        raise BadInput(tr("{where}: key '{key}': expected a multiple of {other} ({n}), got {got}", where=where,
                          key=key, other=heads_key, n=heads, got=size))


def read_bool(where: str, cfg: dict[str, Any], key: str, default: bool) -> bool:
    v = cfg.get(key, default)
    if v is None:
        return default
    if not isinstance(v, bool):
        raise BadInput(tr("{where}: key '{key}': expected true or false, got {got}", where=where, key=key,
                          got=shorten(repr(v), 60)))
    return v


def siglip_params(where: str, vc: dict[str, Any]) -> int:
    """A SigLIP vision tower's parameters (transformers models/siglip/modeling_siglip.py SiglipVisionTransformer, each
    missing key at SiglipVisionConfig's default): the patch convolution with its bias, one position embedding per
    patch, per layer q / k / v / out projections with biases, two LayerNorms and the fc1 / fc2 MLP with biases, the
    final LayerNorm, and the attention-pooling head where vision_use_head is true."""
    h = read_int(where, vc, "hidden_size", default=768)
    ffn = read_int(where, vc, "intermediate_size", default=3072)
    layers = read_int(where, vc, "num_hidden_layers", default=12, hi=1000)
    channels = read_int(where, vc, "num_channels", default=3, hi=100)
    image = read_int(where, vc, "image_size", default=224, hi=100_000)
    patch = read_int(where, vc, "patch_size", default=16, hi=image)
    mlp = 2 * h * ffn + ffn + h
    total = channels * patch * patch * h + h + (image // patch) ** 2 * h
    total += layers * (4 * (h * h + h) + 2 * 2 * h + mlp) + 2 * h
    if read_bool(where, vc, "vision_use_head", True):  # probe, nn.MultiheadAttention (in and out projections), LayerNorm, MLP
        total += h + (3 * h * h + 3 * h) + (h * h + h) + 2 * h + mlp
    return total


def gemma3_vision_params(where: str, vc: dict[str, Any], top: dict[str, Any], text_hidden: int) -> int:
    """Gemma 3's image side (Gemma3ForConditionalGeneration): the SigLIP tower and Gemma3MultiModalProjector, a
    vision-hidden × text-hidden projection and an RMSNorm over the vision hidden size (nothing is read from the
    checkpoint's top level `top`, which Mistral 3's projector reads)."""
    vh = read_int(where, vc, "hidden_size", default=768)
    return siglip_params(where, vc) + vh * text_hidden + vh


def mistral3_vision_params(where: str, vc: dict[str, Any], top: dict[str, Any], text_hidden: int) -> int:
    """Mistral 3's image side (Mistral3ForConditionalGeneration, Mistral Small 3.1 / 3.2): the Pixtral tower
    (transformers models/pixtral: a patch convolution without bias, an RMSNorm, per layer q / k / v / o projections of
    the tower's width and a gated MLP, all without bias, and two RMSNorms; rotary positions, no position table) and
    Mistral3MultiModalProjector (an RMSNorm, the patch merger's spatial_merge_size² × width → width linear, and two
    linears into the text width, with biases where multimodal_projector_bias). Missing keys at PixtralVisionConfig's
    and Mistral3Config's defaults."""
    h = read_int(where, vc, "hidden_size", default=1024)
    ffn = read_int(where, vc, "intermediate_size", default=4096)
    layers = read_int(where, vc, "num_hidden_layers", default=24, hi=1000)
    channels = read_int(where, vc, "num_channels", default=3, hi=100)
    patch = read_int(where, vc, "patch_size", default=16, hi=100_000)
    tower = channels * patch * patch * h + h + layers * (4 * h * h + 3 * h * ffn + 2 * h)
    merge = read_int(where, top, "spatial_merge_size", default=2, hi=64)
    feature = top.get("vision_feature_layer", -1)
    feature_layers = len(feature) if isinstance(feature, list) else 1
    bias = text_hidden if read_bool(where, top, "multimodal_projector_bias", False) else 0
    projector = h + merge * merge * h * h + (h * feature_layers * text_hidden + bias) + (text_hidden ** 2 + bias)
    return tower + projector


def qwen3_vl_vision_params(where: str, vc: dict[str, Any], top: dict[str, Any], text_hidden: int) -> int:
    """Qwen3-VL's and Qwen3.5's image side (Qwen3VLVisionModel, Qwen3_5VisionModel and their MoE twins: transformers
    models/qwen3_vl/modeling_qwen3_vl.py, models/qwen3_5/modeling_qwen3_5.py): a Conv3d patch embedding with bias
    (temporal_patch_size × patch_size² per channel), a learned position table (num_position_embeddings × width), per
    block two LayerNorms, a fused qkv and an output projection and a two-layer MLP, all with biases; the patch merger
    (a LayerNorm over the width, then spatial_merge_size² × width → the same → out_hidden_size, with biases) and one
    more merger per deepstack_visual_indexes entry, its LayerNorm over the merged width (Qwen3-VL; Qwen3.5 has none).
    Missing keys at Qwen3VLVisionConfig's defaults; `top` and `text_hidden` are not read (out_hidden_size names the
    text width)."""
    h = read_int(where, vc, "hidden_size", default=1152)
    ffn = read_int(where, vc, "intermediate_size", default=4304)
    depth = read_int(where, vc, "depth", default=27, hi=1000)
    channels = read_int(where, vc, "in_channels", default=3, hi=100)
    patch = read_int(where, vc, "patch_size", default=16, hi=100_000)
    frames = read_int(where, vc, "temporal_patch_size", default=2, hi=100)
    positions = read_int(where, vc, "num_position_embeddings", default=2304, hi=10_000_000)
    merge = read_int(where, vc, "spatial_merge_size", default=2, hi=64)
    out = read_int(where, vc, "out_hidden_size", default=3584)
    deepstack = vc.get("deepstack_visual_indexes") or []
    if not isinstance(deepstack, list):
        raise BadInput(tr("{where}: key '{key}': expected a list of layer numbers, got {got}", where=where,
                          key="deepstack_visual_indexes", got=shorten(repr(deepstack), 60)))
    block = 2 * 2 * h + (3 * h * h + 3 * h) + (h * h + h) + (h * ffn + ffn) + (ffn * h + h)
    tower = channels * frames * patch * patch * h + h + positions * h + depth * block
    merged = h * merge * merge
    mlp = (merged * merged + merged) + (merged * out + out)
    return tower + 2 * h + mlp + len(deepstack) * (2 * merged + mlp)


def qwen2_5_vl_vision_params(where: str, vc: dict[str, Any], top: dict[str, Any], text_hidden: int) -> int:
    """Qwen2.5-VL's image side (Qwen2_5_VisionTransformerPretrainedModel: transformers
    models/qwen2_5_vl/modeling_qwen2_5_vl.py): a Conv3d patch embedding without bias, per block two RMSNorms, a fused
    qkv and an output projection with biases and a gated MLP (gate / up / down) with biases; the patch merger: an
    RMSNorm over the width, then spatial_merge_size² × width → the same → out_hidden_size, with biases. No position
    table (rotary positions). The published files name the channels in_chans; missing keys at Qwen2.5-VL-7B's."""
    h = read_int(where, vc, "hidden_size", default=1280)
    ffn = read_int(where, vc, "intermediate_size", default=3420)
    depth = read_int(where, vc, "depth", default=32, hi=1000)
    channels = read_int(where, vc, "in_channels", default=read_int(where, vc, "in_chans", default=3, hi=100), hi=100)
    patch = read_int(where, vc, "patch_size", default=14, hi=100_000)
    frames = read_int(where, vc, "temporal_patch_size", default=2, hi=100)
    merge = read_int(where, vc, "spatial_merge_size", default=2, hi=64)
    out = read_int(where, vc, "out_hidden_size", default=text_hidden or 3584)
    block = 2 * h + (3 * h * h + 3 * h) + (h * h + h) + (3 * h * ffn + 2 * ffn + h)
    merged = h * merge * merge
    return channels * frames * patch * patch * h + depth * block + h + (merged * merged + merged) + (merged * out + out)


# the image side a vision-language checkpoint loads beside its decoder, by the checkpoint's model_type
def llama4_vision_params(where: str, vc: dict[str, Any], top: dict[str, Any], text_hidden: int) -> int:
    """Llama 4's image side (Llama4ForConditionalGeneration: transformers models/llama4/modeling_llama4.py): the
    vision tower (a class embedding, (image_size / patch_size)² + 1 learned positions, the patches unfolded into a
    linear without bias, LayerNorms before and after, per layer q / k / v / o and an fc1 / fc2 GELU MLP with biases
    and two LayerNorms), its pixel-shuffle adapter (two linears without bias: intermediate_size → projector_input_dim,
    projector_output_dim → projector_output_dim) and the projector from vision_output_dim to the text width (a bias
    where multi_modal_projector_bias). Missing keys at Llama4VisionConfig's defaults (Llama 4 Scout and Maverick)."""
    h = read_int(where, vc, "hidden_size", default=768)
    ffn = read_int(where, vc, "intermediate_size", default=5632)
    layers = read_int(where, vc, "num_hidden_layers", default=34, hi=1000)
    channels = read_int(where, vc, "num_channels", default=3, hi=100)
    patch = read_int(where, vc, "patch_size", default=14, hi=100_000)
    image = read_int(where, vc, "image_size", default=448, hi=100_000)
    positions = (image // patch) ** 2 + 1
    tower = h + positions * h + channels * patch * patch * h + 4 * h + \
        layers * (4 * (h * h + h) + 2 * h * ffn + ffn + h + 4 * h)
    p_in = read_int(where, vc, "projector_input_dim", default=4096)
    p_out = read_int(where, vc, "projector_output_dim", default=4096)
    out = read_int(where, vc, "vision_output_dim", default=7680)
    bias = text_hidden if read_bool(where, vc, "multi_modal_projector_bias", False) else 0
    return tower + ffn * p_in + p_out * p_out + out * text_hidden + bias


VISION_SIDES = {"gemma3": gemma3_vision_params, "llama4": llama4_vision_params, "mistral3": mistral3_vision_params,
                "qwen2_5_vl": qwen2_5_vl_vision_params, "qwen3_vl": qwen3_vl_vision_params,
                "qwen3_vl_moe": qwen3_vl_vision_params, "qwen3_5": qwen3_vl_vision_params,
                "qwen3_5_moe": qwen3_vl_vision_params}

LAYER_KINDS = ("linear_attention", "full_attention")


def gated_deltanet(where: str, cfg: dict[str, Any], layers: int, h: int) -> tuple[dict[str, Any], int]:
    """A hybrid decoder's Gated DeltaNet layers (Qwen3.5, Qwen3-Next): the ModelSpec fields that describe them
    (gpucheck/estimate/linear_attention.py) and the parameters of one such token mixer.

    Which layers: `layer_types` ("linear_attention" / "full_attention", one per layer), else every layer but each
    full_attention_interval-th (4 by default: Qwen3_5TextConfig.__post_init__). One mixer (Qwen3_5GatedDeltaNet;
    Qwen3NextGatedDeltaNet fuses the same projections into in_proj_qkvz and in_proj_ba): in_proj_qkv hidden →
    2 × keys + values, in_proj_z hidden → values, in_proj_b and in_proj_a hidden → one per value head, out_proj
    values → hidden (no biases), the depthwise conv1d over the q / k / v stream (kernel linear_conv_kernel_dim, no
    bias), dt_bias and A_log (one per value head) and the gated RMSNorm (one value head wide)."""
    kinds = cfg.get("layer_types")
    if kinds is None:
        interval = read_int(where, cfg, "full_attention_interval", default=4, hi=1000)
        linear = sum(1 for i in range(layers) if (i + 1) % interval)
    else:
        if not isinstance(kinds, list) or len(kinds) != layers or any(k not in LAYER_KINDS for k in kinds):
            raise BadInput(tr("{where}: key '{key}': expected a list of {n} layer kinds ({kinds}), got {got}",
                              where=where, key="layer_types", n=layers, kinds=", ".join(LAYER_KINDS),
                              got=shorten(repr(kinds), 60)))
        linear = kinds.count("linear_attention")
    key_heads = read_int(where, cfg, "linear_num_key_heads", default=16, hi=10_000)
    value_heads = read_int(where, cfg, "linear_num_value_heads", default=32, hi=10_000)
    if value_heads % key_heads:
        raise BadInput(tr("{where}: key '{key}': expected a multiple of {other} ({n}), got {got}", where=where,
                          key="linear_num_value_heads", other="linear_num_key_heads", n=key_heads, got=value_heads))
    key_dim = key_heads * read_int(where, cfg, "linear_key_head_dim", default=128, hi=100_000)
    head_v = read_int(where, cfg, "linear_value_head_dim", default=128, hi=100_000)
    value_dim = value_heads * head_v
    kernel = read_int(where, cfg, "linear_conv_kernel_dim", default=4, hi=1000)
    stream = 2 * key_dim + value_dim
    mixer = gated_deltanet_projection_params(h, key_dim, value_dim, value_heads) + stream * kernel \
        + 2 * value_heads + head_v
    fields = {"linear_attn_layers": linear, "linear_key_dim": key_dim, "linear_key_heads": key_heads,
              "linear_value_dim": value_dim, "linear_value_heads": value_heads, "attn_output_gate": True}
    return fields, mixer




MLA_TYPES = ("deepseek_v2", "deepseek_v3")


def mla_attention(where: str, cfg: dict[str, Any], h: int, heads: int, q_bottleneck: bool = True) -> tuple[int, int]:
    """(parameters of one multi-head latent attention block, its q / k head width) — DeepSeek-V2 / V3
    (transformers models/deepseek_v3/modeling_deepseek_v3.py DeepseekV3Attention; DeepSeek-V2 paper §2.1): q through
    a q_lora_rank bottleneck with its RMSNorm (q_a_proj, q_a_layernorm, q_b_proj; one q_proj when q_lora_rank is
    null), keys and values through a kv_lora_rank latent beside a shared rotary key (kv_a_proj_with_mqa,
    kv_a_layernorm, kv_b_proj to every head's key and value), o_proj from the heads' values; no biases unless
    attention_bias. Each key missing takes DeepseekV3Config's default; `q_bottleneck` false: the file sets
    q_lora_rank to null (DeepSeek-V2-Lite)."""
    nope = read_int(where, cfg, "qk_nope_head_dim", default=128)
    rope = read_int(where, cfg, "qk_rope_head_dim", default=64)
    v = read_int(where, cfg, "v_head_dim", default=128)
    kv_rank = read_int(where, cfg, "kv_lora_rank", default=512)
    q_rank = read_int(where, cfg, "q_lora_rank", default=1536) if q_bottleneck else 0
    qk = nope + rope
    q = h * q_rank + q_rank + q_rank * heads * qk if q_rank else h * heads * qk
    kv = h * (kv_rank + rope) + kv_rank + kv_rank * heads * (nope + v)
    bias = (q_rank or heads * qk) + kv_rank + rope + h if read_bool(where, cfg, "attention_bias", False) else 0
    return q + kv + heads * v * h + bias, qk
