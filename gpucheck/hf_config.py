"""A Hugging Face `config.json` → a `Workload` the estimator understands.

Supported families: LLaMA-style decoders (llama, mistral, qwen2, qwen3, gemma, phi3 …: RMSNorm,
rotary positions, SwiGLU MLP, grouped-query attention) and their mixture-of-experts kin (mixtral, qwen2_moe,
qwen3_moe, olmoe, gpt_oss: the MLP replaced by routed experts), GPT-2 (gpt2) and BERT-style encoders
(bert, roberta, distilbert-like keys). Parameters are counted from the architecture: embeddings,
attention (GQA/MQA via num_key_value_heads, head_dim when given, q/k/v biases for Qwen2), MLP,
norms, and the output head unless tie_word_embeddings.

The training settings default to what a hobbyist would start with (LoRA for 1–3 B decoders, QLoRA
above, full fine-tuning below 1 B) and are overridden with the CLI flags.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

from gpucheck.errors import BadInput
from gpucheck.fileio import read_text_limited, shorten
from gpucheck.i18n import N_, tr
from gpucheck.records import DataSpec, ModelSpec, TrainSpec, Workload
from gpucheck.tomldata import _check_value

LLAMA_LIKE = ("llama", "mistral", "qwen2", "qwen3", "gemma", "gemma2", "gemma3", "phi3", "yi", "internlm2", "olmo",
              "olmo2", "olmo3", "smollm3", "glm4", "granite", "deepseek", "baichuan", "mixtral_dense")
# mixture-of-experts decoders of the same lineage (gpucheck/estimate/moe.py): their config keys for the experts
MOE_LIKE = ("mixtral", "qwen2_moe", "qwen3_moe", "olmoe", "gpt_oss")
BERT_LIKE = ("bert", "roberta", "xlm-roberta", "electra", "camembert")
GPT2_LIKE = ("gpt2",)
SUPPORTED = LLAMA_LIKE + MOE_LIKE + BERT_LIKE + GPT2_LIKE
# the supported types an error message names (the message stays one short line)
SUPPORTED_SHOWN = ", ".join(LLAMA_LIKE[:6]) + " …, " + ", ".join(MOE_LIKE) + ", gpt2, bert, roberta …"
# Model types Hugging Face transformers runs with eager attention (the heads·s² scores in memory): Gemma 2 soft-caps
# its attention logits, which SDPA cannot (transformers models/gemma2/modeling_gemma2.py: '_supports_sdpa = False
# # sdpa does not support softcapping')
# gpt-oss adds learned attention sinks to the softmax, which SDPA cannot (models/gpt_oss/modeling_gpt_oss.py:
# '_supports_sdpa = False'; eager unless a flash-attention kernel with sinks is installed)
EAGER_ONLY = ("gemma2", "gpt_oss")
# What a model type's Hugging Face config class gives the keys its published config.json leaves out (a key absent
# here defaults as for LLaMA): Gemma 3's files name only what differs from Gemma3TextConfig (transformers
# models/gemma3/configuration_gemma3.py; google/gemma-3-12b-it names neither vocab_size nor head_dim,
# google/gemma-3-4b-it not even the heads)
TYPE_DEFAULTS: dict[str, dict[str, Any]] = {
    "gemma": {"tie_word_embeddings": True},  # GemmaConfig, Gemma2Config: tied
    "gemma2": {"tie_word_embeddings": True},
    "gemma3": {"vocab_size": 262_208, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
               "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
               "max_position_embeddings": 131_072, "tie_word_embeddings": True},
    # SmolLM3Config (its defaults are SmolLM3-3B's: tied embeddings) and Glm4Config (GLM-4-9B-0414's: q/k/v biases)
    "smollm3": {"num_key_value_heads": 4, "tie_word_embeddings": True},
    "glm4": {"num_key_value_heads": 2, "head_dim": 128, "attention_bias": True},
    "gpt_oss": {"attention_bias": True},  # GptOssConfig: biases on q, k, v and o
}
# Decoder layers with four RMSNorms (before and after attention, before and after the MLP: Gemma2DecoderLayer,
# Gemma3DecoderLayer; Glm4DecoderLayer's post_self_attn / post_mlp norms) instead of LLaMA's two (OLMo 2 and 3 have
# two, after each sublayer)
FOUR_NORMS = ("gemma2", "gemma3", "glm4")
# per-head RMSNorms on q and k, head_dim wide each (Qwen3Attention, Gemma3Attention q_norm / k_norm)
HEAD_QK_NORMS = ("qwen3", "qwen3_moe", "gemma3")
# RMSNorms over the whole q and k projections (OlmoeAttention, Olmo2Attention, Olmo3Attention)
WIDE_QK_NORMS = ("olmoe", "olmo2", "olmo3")
# biases on q, k and v but not on the output projection (Glm4Attention: o_proj bias=False)
QKV_BIAS_ONLY = ("glm4",)


def _int(where: str, cfg: dict[str, Any], key: str, default: Any = None, lo: int = 1,
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


def _divides(where: str, key: str, size: int, heads_key: str, heads: int) -> None:
    """Attention splits `size` evenly among the heads: more heads than the size, or a remainder, is no model."""
    if heads > size or size % heads:
        raise BadInput(tr("{where}: key '{key}': expected a multiple of {other} ({n}), got {got}", where=where,
                          key=key, other=heads_key, n=heads, got=size))


def _bool(where: str, cfg: dict[str, Any], key: str, default: bool) -> bool:
    v = cfg.get(key, default)
    if v is None:
        return default
    if not isinstance(v, bool):
        raise BadInput(tr("{where}: key '{key}': expected true or false, got {got}", where=where, key=key,
                          got=shorten(repr(v), 60)))
    return v


def llama_params(h: int, layers: int, heads: int, kv_heads: int, ffn: int, vocab: int, tied: bool,
                 head_dim: int | None = None, qkv_bias: bool = False, o_bias: bool = False,
                 mlp_bias: bool = False) -> int:
    d = head_dim or h // heads
    q_out, kv_out = heads * d, kv_heads * d
    attn = h * q_out + 2 * h * kv_out + q_out * h
    if qkv_bias:
        attn += q_out + 2 * kv_out
    if o_bias:
        attn += h
    mlp = 3 * h * ffn + (2 * ffn + h if mlp_bias else 0)
    per_layer = attn + mlp + 2 * h  # two RMSNorm gains
    total = vocab * h + layers * per_layer + h
    if not tied:
        total += vocab * h
    return total


def moe_fields(where: str, cfg: dict[str, Any], mt: str, layers: int) -> dict[str, Any]:
    """A mixture-of-experts config's expert keys as ModelSpec fields, each missing one at its Hugging Face config
    class's default. Mixtral, OLMoE and gpt-oss: every layer has experts, each intermediate_size wide. Qwen2-MoE and
    Qwen3-MoE: experts moe_intermediate_size wide in layer i when (i + 1) % decoder_sparse_step == 0 and i is not in
    mlp_only_layers (the others keep a dense MLP intermediate_size wide); Qwen2-MoE adds a shared expert
    shared_expert_intermediate_size wide (transformers Qwen2MoeConfig / Qwen3MoeConfig / MixtralConfig / OlmoeConfig /
    GptOssConfig)."""
    if mt == "deepseek":  # DeepSeekMoE (remote code DeepseekConfig): shared experts fused into one MLP
        return _deepseek_moe_fields(where, cfg, layers)
    qwen = mt in ("qwen2_moe", "qwen3_moe")
    experts = _int(where, cfg, "num_local_experts" if mt in ("mixtral", "gpt_oss") else "num_experts",
                   default={"mixtral": 8, "qwen2_moe": 60, "qwen3_moe": 128, "olmoe": 64, "gpt_oss": 128}[mt],
                   hi=100_000)
    k = _int(where, cfg, "num_experts_per_tok",
             default={"mixtral": 2, "qwen2_moe": 4, "qwen3_moe": 8, "olmoe": 8, "gpt_oss": 4}[mt], hi=experts)
    expert_ffn = _int(where, cfg, "moe_intermediate_size" if qwen else "intermediate_size",
                      default={"qwen2_moe": 1408, "qwen3_moe": 768, "mixtral": 14336, "olmoe": 2048,
                               "gpt_oss": 2880}[mt])
    shared = _int(where, cfg, "shared_expert_intermediate_size", default=5632, lo=0) if mt == "qwen2_moe" else 0
    moe_layers = layers
    if qwen:
        step = _int(where, cfg, "decoder_sparse_step", default=1, hi=1000)
        dense_only = cfg.get("mlp_only_layers") or []
        if not isinstance(dense_only, list) or not all(isinstance(i, int) and not isinstance(i, bool)
                                                       for i in dense_only):
            raise BadInput(tr("{where}: key '{key}': expected a list of layer numbers, got {got}", where=where,
                              key="mlp_only_layers", got=shorten(repr(dense_only), 60)))
        moe_layers = sum(1 for i in range(layers) if i not in dense_only and (i + 1) % step == 0)
    return {"experts": experts, "experts_per_token": k, "expert_ffn": expert_ffn, "shared_expert_ffn": shared,
            "moe_layers": moe_layers}


def _deepseek_moe_fields(where: str, cfg: dict[str, Any], layers: int) -> dict[str, Any]:
    """DeepSeekMoE (deepseek-moe-16b: model_type 'deepseek' with n_routed_experts): layer i has experts when
    i >= first_k_dense_replace and i % moe_layer_freq == 0; n_shared_experts shared experts run as one MLP
    n_shared_experts × moe_intermediate_size wide (its modeling_deepseek.py DeepseekMoE)."""
    experts = _int(where, cfg, "n_routed_experts", hi=100_000)
    k = _int(where, cfg, "num_experts_per_tok", hi=experts)
    expert_ffn = _int(where, cfg, "moe_intermediate_size")
    shared = _int(where, cfg, "n_shared_experts", default=0, lo=0, hi=1000) * expert_ffn
    first = _int(where, cfg, "first_k_dense_replace", default=0, lo=0, hi=1000)
    freq = _int(where, cfg, "moe_layer_freq", default=1, hi=1000)
    moe_layers = sum(1 for i in range(layers) if i >= first and i % freq == 0)
    return {"experts": experts, "experts_per_token": k, "expert_ffn": expert_ffn, "shared_expert_ffn": shared,
            "moe_layers": moe_layers}


def moe_mlp_params(h: int, layers: int, ffn: int, moe: dict[str, Any], active: bool = False,
                   shared_gate: bool = False) -> int:
    """Every layer's MLP parameters in a mixture-of-experts decoder: the experts' gated MLPs, the shared expert and
    the router (hidden → one logit per expert; `shared_gate`: Qwen2-MoE's shared_expert_gate, hidden → 1) in MoE
    layers, a dense gated MLP in the others. `active`: only the experts_per_token experts a token runs."""
    shared = moe["shared_expert_ffn"]
    experts = moe["experts_per_token"] if active else moe["experts"]
    per_moe = 3 * h * (experts * moe["expert_ffn"] + shared) + h * moe["experts"] + (h if shared_gate else 0)
    return moe["moe_layers"] * per_moe + (layers - moe["moe_layers"]) * 3 * h * ffn


def siglip_params(where: str, vc: dict[str, Any]) -> int:
    """A SigLIP vision tower's parameters (transformers models/siglip/modeling_siglip.py SiglipVisionTransformer, each
    missing key at SiglipVisionConfig's default): the patch convolution with its bias, one position embedding per
    patch, per layer q / k / v / out projections with biases, two LayerNorms and the fc1 / fc2 MLP with biases, the
    final LayerNorm, and the attention-pooling head where vision_use_head is true."""
    h = _int(where, vc, "hidden_size", default=768)
    ffn = _int(where, vc, "intermediate_size", default=3072)
    layers = _int(where, vc, "num_hidden_layers", default=12, hi=1000)
    channels = _int(where, vc, "num_channels", default=3, hi=100)
    image = _int(where, vc, "image_size", default=224, hi=100_000)
    patch = _int(where, vc, "patch_size", default=16, hi=image)
    mlp = 2 * h * ffn + ffn + h
    total = channels * patch * patch * h + h + (image // patch) ** 2 * h
    total += layers * (4 * (h * h + h) + 2 * 2 * h + mlp) + 2 * h
    if _bool(where, vc, "vision_use_head", True):  # probe, nn.MultiheadAttention (in and out projections), LayerNorm, MLP
        total += h + (3 * h * h + 3 * h) + (h * h + h) + 2 * h + mlp
    return total


def gemma3_vision_params(where: str, vc: dict[str, Any], top: dict[str, Any], text_hidden: int) -> int:
    """Gemma 3's image side (Gemma3ForConditionalGeneration): the SigLIP tower and Gemma3MultiModalProjector, a
    vision-hidden × text-hidden projection and an RMSNorm over the vision hidden size (nothing is read from the
    checkpoint's top level `top`, which Mistral 3's projector reads)."""
    vh = _int(where, vc, "hidden_size", default=768)
    return siglip_params(where, vc) + vh * text_hidden + vh


def mistral3_vision_params(where: str, vc: dict[str, Any], top: dict[str, Any], text_hidden: int) -> int:
    """Mistral 3's image side (Mistral3ForConditionalGeneration, Mistral Small 3.1 / 3.2): the Pixtral tower
    (transformers models/pixtral: a patch convolution without bias, an RMSNorm, per layer q / k / v / o projections of
    the tower's width and a gated MLP, all without bias, and two RMSNorms; rotary positions, no position table) and
    Mistral3MultiModalProjector (an RMSNorm, the patch merger's spatial_merge_size² × width → width linear, and two
    linears into the text width, with biases where multimodal_projector_bias). Missing keys at PixtralVisionConfig's
    and Mistral3Config's defaults."""
    h = _int(where, vc, "hidden_size", default=1024)
    ffn = _int(where, vc, "intermediate_size", default=4096)
    layers = _int(where, vc, "num_hidden_layers", default=24, hi=1000)
    channels = _int(where, vc, "num_channels", default=3, hi=100)
    patch = _int(where, vc, "patch_size", default=16, hi=100_000)
    tower = channels * patch * patch * h + h + layers * (4 * h * h + 3 * h * ffn + 2 * h)
    merge = _int(where, top, "spatial_merge_size", default=2, hi=64)
    feature = top.get("vision_feature_layer", -1)
    feature_layers = len(feature) if isinstance(feature, list) else 1
    bias = text_hidden if _bool(where, top, "multimodal_projector_bias", False) else 0
    projector = h + merge * merge * h * h + (h * feature_layers * text_hidden + bias) + (text_hidden ** 2 + bias)
    return tower + projector


# the image side a vision-language checkpoint loads beside its decoder, by the checkpoint's model_type
VISION_SIDES = {"gemma3": gemma3_vision_params, "mistral3": mistral3_vision_params}


def gpt2_params(h: int, layers: int, positions: int, vocab: int, ffn: int) -> int:
    per_layer = 2 * 2 * h + (h * 3 * h + 3 * h) + (h * h + h) + (h * ffn + ffn) + (ffn * h + h)
    return vocab * h + positions * h + layers * per_layer + 2 * h


def bert_params(h: int, layers: int, positions: int, vocab: int, ffn: int, type_vocab: int) -> int:
    emb = vocab * h + positions * h + type_vocab * h + 2 * h
    per_layer = 3 * (h * h + h) + (h * h + h) + 2 * h + (h * ffn + ffn) + (ffn * h + h) + 2 * h
    pooler = h * h + h
    return emb + layers * per_layer + pooler


def _prob(where: str, cfg: dict[str, Any], keys: tuple[str, ...], default: float) -> float:
    """A dropout probability: the first of `keys` the config sets (to a number from 0 to 1), else `default` (the
    value the model's Hugging Face config class gives it when the file leaves it out)."""
    for key in keys:
        if cfg.get(key) is not None:
            return float(_check_value(where, key, cfg[key], "float", 0, 1, None))
    return default


def _slug(path: Path) -> str:
    base = path.parent.name if path.name == "config.json" else path.stem
    s = re.sub(r"[^a-z0-9.]+", "-", base.lower()).strip("-.")
    return s or "custom-model"


_ARCH_SUFFIXES = ("ForConditionalGeneration", "ForCausalLM", "LMHeadModel", "ForMaskedLM",
                  "ForSequenceClassification", "Model")


def model_display_name(cfg: dict[str, Any], fallback: str) -> str:
    """The model's own name for titles: the repository name it was saved from ("Qwen2.5-7B"), else its
    architecture ("Qwen2" from Qwen2ForCausalLM) — never the folder the file happens to sit in."""
    saved = cfg.get("_name_or_path")
    if isinstance(saved, str) and saved.strip() and not saved.strip().startswith((".", "/", "~")):
        return saved.strip().rstrip("/").split("/")[-1]
    archs = cfg.get("architectures")
    if isinstance(archs, list) and archs and isinstance(archs[0], str):
        name = archs[0]
        for suffix in _ARCH_SUFFIXES:
            if name.endswith(suffix) and len(name) > len(suffix):
                return name[: -len(suffix)]
        return name
    return fallback


def _size(params: float) -> str:
    return f"{params / 1e9:.1f}B" if params >= 0.9995e9 else f"{params / 1e6:.0f}M"  # 999.9M reads "1.0B"


def _decoder_train(params: float, seq: int) -> TrainSpec:
    """The settings a decoder LLM of this size starts with: QLoRA from 3B, LoRA from 1B, full fine-tuning below."""
    if params >= 3e9:
        return TrainSpec(method="qlora", precision="bf16", optimizer="adamw", batch=1, seq_len=seq,
                         grad_checkpointing=True, lora_rank=16)
    if params >= 1e9:
        return TrainSpec(method="lora", precision="bf16", optimizer="adamw", batch=2, seq_len=seq,
                         grad_checkpointing=True, lora_rank=16)
    return TrainSpec(method="full", precision="bf16", optimizer="adamw", batch=4, seq_len=seq, grad_checkpointing=True)


def _llama_like(where: str, cfg: dict[str, Any], mt: str, name: str) -> tuple[ModelSpec, TrainSpec, int]:
    """(model, starting settings, parameters a token runs through) of a LLaMA-lineage decoder or its
    mixture-of-experts kin."""
    cfg = {**TYPE_DEFAULTS.get(mt, {}), **{k: v for k, v in cfg.items() if v is not None}}
    h = _int(where, cfg, "hidden_size")
    layers = _int(where, cfg, "num_hidden_layers", hi=1000)
    heads = _int(where, cfg, "num_attention_heads", hi=10_000)
    kv = _int(where, cfg, "num_key_value_heads", default=heads, hi=10_000)
    if heads % kv:
        raise BadInput(tr("{where}: key '{key}': expected a divisor of {other} ({n}), got {got}", where=where,
                          key="num_key_value_heads", other="num_attention_heads", n=heads, got=kv))
    experts = mt in MOE_LIKE or (mt == "deepseek" and cfg.get("n_routed_experts") is not None)
    moe = moe_fields(where, cfg, mt, layers) if experts else {}
    # Mixtral and OLMoE name their experts' width intermediate_size and have no dense layer
    ffn = _int(where, cfg, "intermediate_size", default=moe.get("expert_ffn"))
    vocab = _int(where, cfg, "vocab_size")
    if cfg.get("head_dim") is None:
        _divides(where, "hidden_size", h, "num_attention_heads", heads)
    head_dim = _int(where, cfg, "head_dim", default=h // heads)
    tied = _bool(where, cfg, "tie_word_embeddings", default=False)
    attention_bias = _bool(where, cfg, "attention_bias", False)
    qkv_bias = mt in ("qwen2", "qwen2_moe") or attention_bias
    o_bias = attention_bias and mt not in QKV_BIAS_ONLY
    mlp_bias = _bool(where, cfg, "mlp_bias", False)
    params = llama_params(h, layers, heads, kv, 0 if moe else ffn, vocab, tied, head_dim, qkv_bias, o_bias,
                          mlp_bias)
    active = params
    if moe:
        params += moe_mlp_params(h, layers, ffn, moe, shared_gate=mt == "qwen2_moe")
        active += moe_mlp_params(h, layers, ffn, moe, active=True, shared_gate=mt == "qwen2_moe")
    # per-head RMSNorms on q and k (Qwen3, Qwen3-MoE, Gemma 3: head_dim each); OLMoE's over the whole q and k
    # projections; Gemma 2 and 3's two more norms per layer
    norms = 2 * head_dim if mt in HEAD_QK_NORMS else (heads + kv) * head_dim if mt in WIDE_QK_NORMS else 0
    norms += 2 * h if mt in FOUR_NORMS else 0
    params += layers * norms
    active += layers * norms
    if mt == "gpt_oss":  # biases on every expert (gate_up 2 × ffn, down h) and the router, one sink per head
        bias = layers * (moe["experts"] + heads)
        params += bias + layers * moe["experts"] * (2 * ffn + h)
        active += bias + layers * moe["experts_per_token"] * (2 * ffn + h)
    positions = _int(where, cfg, "max_position_embeddings", default=4096)
    model = ModelSpec(arch="transformer", params=float(params), layers=layers, hidden=h, heads=heads,
                      kv_heads=kv, ffn=ffn, vocab=vocab, tied_embeddings=tied, gated_mlp=True,
                      head_dim=head_dim if head_dim != h // heads else None, qkv_bias=qkv_bias, name=name,
                      model_type=mt,
                      eager_attention=mt in EAGER_ONLY,
                      # Gemma 2 soft-caps its attention logits (Gemma2Config attn_logit_softcapping, 50.0 by default)
                      attention_softcap=mt == "gemma2" and cfg.get("attn_logit_softcapping", 50.0) is not None,
                      # gpt-oss: a learned sink logit per head joins the softmax (its eager_attention_forward)
                      attention_sinks=mt == "gpt_oss",
                      # Llama-lineage layers have no hidden dropout (Phi-3: resid_pdrop, 0.0 by default);
                      # attention_dropout defaults to 0.0 in LlamaConfig, MistralConfig, Qwen2Config, GemmaConfig
                      dropout=_prob(where, cfg, ("resid_pdrop",), 0.0),
                      attention_dropout=_prob(where, cfg, ("attention_dropout",), 0.0))
    model = dataclasses.replace(model, **moe)  # the experts' fields (none for a dense model)
    return model, _decoder_train(params, min(2048, positions)), active


def workload_from_config(cfg: Any, where: str, name: str = "custom-model") -> Workload:
    if not isinstance(cfg, dict):
        raise BadInput(tr("{where}: expected a JSON object (a Hugging Face config.json)", where=where))
    # a vision-language checkpoint (Gemma 3 from 4B, Mistral Small 3.1): its image side is loaded beside the decoder,
    # frozen when the text is fine-tuned (Unsloth's FastModel: finetune_vision_layers = False)
    side = VISION_SIDES.get(str(cfg.get("model_type")).lower())
    vision = cfg.get("vision_config")
    top = cfg  # the checkpoint's own name and architecture, above a vision-language model's text_config
    if isinstance(cfg.get("text_config"), dict) and "hidden_size" not in cfg:
        cfg = dict(cfg["text_config"], model_type=cfg["text_config"].get("model_type", cfg.get("model_type")))
    mt = cfg.get("model_type")
    if not isinstance(mt, str):
        raise BadInput(tr("{where}: missing key 'model_type' (a string such as 'llama', 'qwen2', 'gpt2', 'bert')",
                          where=where))
    mt = mt.lower()
    if mt.endswith("_text"):
        mt = mt[: -len("_text")]
    active = 0  # a mixture of experts: the parameters a token runs through
    if mt in GPT2_LIKE:
        h = _int(where, cfg, "n_embd")
        layers = _int(where, cfg, "n_layer", hi=1000)
        heads = _int(where, cfg, "n_head", hi=10_000)
        positions = _int(where, cfg, "n_positions", default=1024)
        vocab = _int(where, cfg, "vocab_size")
        _divides(where, "n_embd", h, "n_head", heads)
        ffn = _int(where, cfg, "n_inner", default=4 * h)
        params = gpt2_params(h, layers, positions, vocab, ffn)
        # GPT2Config: resid_pdrop and attn_pdrop default to 0.1
        model = ModelSpec(arch="transformer", params=float(params), layers=layers, hidden=h, heads=heads,
                          kv_heads=heads, ffn=ffn, vocab=vocab, tied_embeddings=True, gated_mlp=False, name=name, model_type=mt,
                          dropout=_prob(where, cfg, ("resid_pdrop",), 0.1),
                          attention_dropout=_prob(where, cfg, ("attn_pdrop",), 0.1))
        train = TrainSpec(method="full", precision="bf16", optimizer="adamw", batch=8, seq_len=min(1024, positions))
        family = "llm"
    elif mt in BERT_LIKE:
        h = _int(where, cfg, "hidden_size")
        layers = _int(where, cfg, "num_hidden_layers", hi=1000)
        heads = _int(where, cfg, "num_attention_heads", hi=10_000)
        _divides(where, "hidden_size", h, "num_attention_heads", heads)
        ffn = _int(where, cfg, "intermediate_size", default=4 * h)
        positions = _int(where, cfg, "max_position_embeddings", default=512)
        vocab = _int(where, cfg, "vocab_size")
        type_vocab = _int(where, cfg, "type_vocab_size", default=2, lo=0)
        params = bert_params(h, layers, positions, vocab, ffn, type_vocab)
        # sequence classification: no vocabulary-sized output, so no logits term
        # BertConfig (RoBERTa, ELECTRA ...): hidden_dropout_prob and attention_probs_dropout_prob default to 0.1
        model = ModelSpec(arch="transformer", params=float(params), layers=layers, hidden=h, heads=heads,
                          kv_heads=heads, ffn=ffn, vocab=None, gated_mlp=False, name=name, model_type=mt,
                          dropout=_prob(where, cfg, ("hidden_dropout_prob",), 0.1),
                          attention_dropout=_prob(where, cfg, ("attention_probs_dropout_prob",), 0.1))
        train = TrainSpec(method="full", precision="bf16", optimizer="adamw", batch=32, seq_len=min(128, positions))
        family = "nlp"
    elif mt in LLAMA_LIKE or mt in MOE_LIKE:
        model, train, active = _llama_like(where, cfg, mt, name)
        if side is not None and isinstance(vision, dict):
            model = dataclasses.replace(model, aux_params=float(side(where, vision, top, model.hidden or 0)))
        params = int(model.params + model.aux_params)
        family = "llm"
    else:
        raise BadInput(tr("{where}: key 'model_type': '{got}' is not supported (expected one of: {names})",
                          where=where, got=shorten(mt, 24), names=SUPPORTED_SHOWN))
    size = _size(params)
    shown = model_display_name(top, name)
    # a mixture of experts: how many of its parameters a token runs through (what its FLOPs follow)
    runs, runs_zh = (f", {_size(active)} active", f"，激活 {_size(active)}") if model.experts else ("", "")
    return Workload(
        id=name,
        title=f"Fine-tune {shown} ({size} parameters{runs})",
        title_zh=f"微调 {shown}（{size} 参数{runs_zh}）",
        family=family,
        level=50,
        model=model,
        train=train,
        data=DataSpec(samples=10000, epochs=3.0, bytes_per_sample=2000),
        description=f"Custom model from {where}",
        description_zh=f"来自 {where} 的自定义模型",
        source=where,
        path=where,
    )


def workload_from_config_file(path: str | Path) -> Workload:
    p = Path(path)
    text = read_text_limited(p, folder_error=N_("is a folder; give the config.json inside it"),
                             binary_error=N_("not a text file (expected a Hugging Face config.json)"))
    try:
        cfg = json.loads(text)
    except json.JSONDecodeError as e:
        raise BadInput(tr("{path}: not valid JSON (line {line}, column {column}: {reason})", path=shorten(str(p)),
                          line=e.lineno, column=e.colno, reason=e.msg)) from None
    except RecursionError:
        raise BadInput(tr("{path}: not valid JSON (nested too deeply)", path=shorten(str(p)))) from None
    except ValueError:  # Python refuses integers of more than 4300 digits
        raise BadInput(tr("{path}: not valid JSON (a number with more than 4300 digits)",
                          path=shorten(str(p)))) from None
    return workload_from_config(cfg, shorten(str(p)), name=_slug(p))
