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
from functools import lru_cache
from pathlib import Path
from typing import Any

from gpucheck.errors import BadInput
from gpucheck.fileio import read_text_limited, shorten
from gpucheck.hf_diffusers import diffusers_error
from gpucheck.hf_moe import DEEPSEEK_MOE, SHARED_EXPERT, moe_fields, moe_mlp_params
from gpucheck.hf_parts import (
    MLA_TYPES,
    VISION_SIDES,
    check_divides,
    gated_deltanet,
    mla_attention,
    read_bool,
    read_int,
)
from gpucheck.hf_types import fields as table_fields
from gpucheck.hf_types import image_tokens
from gpucheck.hf_types import types as table_types
from gpucheck.i18n import N_, tr
from gpucheck.records import DataSpec, ModelSpec, TrainSpec, Workload
from gpucheck.resources import resource_path
from gpucheck.tomldata import _check_value, read_toml

LLAMA_LIKE = ("llama", "mistral", "qwen2", "qwen3", "qwen3_5", "gemma", "gemma2", "gemma3", "phi3", "yi", "internlm2",
              "olmo", "olmo2", "olmo3", "smollm3", "glm4", "granite", "deepseek", "baichuan", "mixtral_dense",
              "ministral", "ministral3", "internlm3")
# mixture-of-experts decoders of the same lineage (gpucheck/estimate/moe.py): their config keys for the experts
MOE_LIKE = ("mixtral", "qwen2_moe", "qwen3_moe", "qwen3_5_moe", "qwen3_next", "olmoe", "gpt_oss", "deepseek_v2",
            "deepseek_v3", "glm4_moe", "llama4", "granitemoe")
# hybrid decoders: Gated DeltaNet layers beside gated softmax attention (gpucheck/hf_parts.py gated_deltanet)
GATED_DELTANET = ("qwen3_5", "qwen3_5_moe", "qwen3_next")
# vision-language checkpoints whose decoder is a text model's layer for layer (multimodal rotary positions change no
# count or cost; the model keeps its own type, which kernel libraries key on): Qwen2.5-VL's is Qwen2's (q / k / v biases), Qwen3-VL's Qwen3's (per-head q / k norms), Qwen3-VL-MoE's
# Qwen3-MoE's (transformers models/qwen2_5_vl, models/qwen3_vl, models/qwen3_vl_moe)
VL_DECODERS = {"qwen2_5_vl": "qwen2", "qwen3_vl": "qwen3", "qwen3_vl_moe": "qwen3_moe"}
BERT_LIKE = ("bert", "roberta", "xlm-roberta", "electra", "camembert")
GPT2_LIKE = ("gpt2",)
SUPPORTED = LLAMA_LIKE + MOE_LIKE + BERT_LIKE + GPT2_LIKE  # and the types of resources/hf_types.toml
# the supported types an error message names (the message stays one short line)
SUPPORTED_SHOWN = ("llama, mistral, qwen2, qwen3, gemma …, mixtral, qwen3_moe, gpt_oss …, gpt2, bert, phi, "
                   "gpt_neox, falcon, opt, t5, bart, whisper …")
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
    # Qwen3_5TextConfig, Qwen3_5MoeTextConfig (its defaults are Qwen3.5-35B-A3B's), Qwen3NextConfig
    "qwen3_5": {"vocab_size": 248_320, "hidden_size": 4096, "intermediate_size": 12_288, "num_hidden_layers": 32,
                "num_attention_heads": 16, "num_key_value_heads": 4, "head_dim": 256, "max_position_embeddings": 32_768},
    "qwen3_5_moe": {"vocab_size": 248_320, "hidden_size": 2048, "num_hidden_layers": 40, "num_attention_heads": 16,
                    "num_key_value_heads": 2, "head_dim": 256, "max_position_embeddings": 32_768},
    "qwen3_next": {"vocab_size": 151_936, "hidden_size": 2048, "intermediate_size": 5632, "num_hidden_layers": 48,
                   "num_attention_heads": 16, "num_key_value_heads": 2, "head_dim": 256,
                   "max_position_embeddings": 32_768},
}
# Decoder layers with four RMSNorms (before and after attention, before and after the MLP: Gemma2DecoderLayer,
# Gemma3DecoderLayer; Glm4DecoderLayer's post_self_attn / post_mlp norms) instead of LLaMA's two (OLMo 2 and 3 have
# two, after each sublayer)
FOUR_NORMS = ("gemma2", "gemma3", "glm4")
# per-head RMSNorms on q and k, head_dim wide each (Qwen3Attention, Gemma3Attention q_norm / k_norm)
HEAD_QK_NORMS = ("qwen3", "qwen3_moe", "gemma3", *GATED_DELTANET)  # the hybrids': in their softmax layers only
# RMSNorms over the whole q and k projections (OlmoeAttention, Olmo2Attention, Olmo3Attention)
WIDE_QK_NORMS = ("olmoe", "olmo2", "olmo3")
# biases on q, k and v but not on the output projection (Glm4Attention: o_proj bias=False)
QKV_BIAS_ONLY = ("glm4", "glm4_moe")


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
                name = name[: -len(suffix)]
                break
        # Qwen3_5ForCausalLM is Qwen3.5, Qwen2_5_VLForConditionalGeneration Qwen2.5-VL
        return re.sub(r"(?<=\d)_(?=\d)", ".", name).replace("_", "-")
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


def _hybrid(where: str, cfg: dict[str, Any], layers: int, h: int, q_out: int, kv_out: int,
            norms: int) -> tuple[dict[str, Any], int]:
    """A hybrid decoder (Qwen3.5, Qwen3-Next): the ModelSpec fields of its Gated DeltaNet layers and the parameters
    to add to the count of a decoder whose every layer had softmax attention with `norms` per layer: the softmax
    layers' q_proj also yields the output gate (Qwen3_5Attention: heads × head_dim × 2 outputs), and each Gated
    DeltaNet layer holds its mixer instead of q / k / v / o and the per-head q / k norms."""
    fields, mixer = gated_deltanet(where, cfg, layers, h)
    linear = fields["linear_attn_layers"]
    attention = h * q_out + 2 * h * kv_out + q_out * h
    return fields, (layers - linear) * q_out * h + linear * (mixer - attention - norms)


@lru_cache(maxsize=1)
def _no_4bit_types() -> tuple[str, ...]:
    """Model types whose trainers advise against 4-bit QLoRA (resources/advice.toml [qlora_caution], which the advice
    reads too: its QLoRA option names the caution): a config.json of these starts from LoRA on the 16-bit model at
    every size."""
    return tuple(read_toml(resource_path("advice.toml"))["qlora_caution"]["model_types"])


def _llama_like(where: str, cfg: dict[str, Any], mt: str, name: str) -> tuple[ModelSpec, TrainSpec, int]:
    """(model, starting settings, parameters a token runs through) of a LLaMA-lineage decoder or its
    mixture-of-experts kin."""
    q_bottleneck = not ("q_lora_rank" in cfg and cfg["q_lora_rank"] is None)  # MLA: null means one q_proj
    cfg = {**TYPE_DEFAULTS.get(mt, {}), **{k: v for k, v in cfg.items() if v is not None}}
    h = read_int(where, cfg, "hidden_size")
    layers = read_int(where, cfg, "num_hidden_layers", hi=1000)
    heads = read_int(where, cfg, "num_attention_heads", hi=10_000)
    kv = read_int(where, cfg, "num_key_value_heads", default=heads, hi=10_000)
    if heads % kv:
        raise BadInput(tr("{where}: key '{key}': expected a divisor of {other} ({n}), got {got}", where=where,
                          key="num_key_value_heads", other="num_attention_heads", n=heads, got=kv))
    experts = (mt in MOE_LIKE and mt not in DEEPSEEK_MOE) or \
        (mt in DEEPSEEK_MOE and cfg.get("n_routed_experts") is not None)
    moe = moe_fields(where, cfg, mt, layers) if experts else {}
    # Mixtral and OLMoE name their experts' width intermediate_size and have no dense layer
    ffn = read_int(where, cfg, "intermediate_size_mlp" if mt == "llama4" else "intermediate_size",
                   default=16384 if mt == "llama4" else moe.get("expert_ffn"))
    vocab = read_int(where, cfg, "vocab_size")
    if cfg.get("head_dim") is None:
        check_divides(where, "hidden_size", h, "num_attention_heads", heads)
    head_dim = read_int(where, cfg, "head_dim", default=h // heads)
    tied = read_bool(where, cfg, "tie_word_embeddings", default=False)
    attention_bias = read_bool(where, cfg, "attention_bias", False)
    qkv_bias = mt in ("qwen2", "qwen2_moe") or attention_bias
    o_bias = attention_bias and mt not in QKV_BIAS_ONLY
    mlp_bias = read_bool(where, cfg, "mlp_bias", False)
    params = llama_params(h, layers, heads, kv, 0 if moe else ffn, vocab, tied, head_dim, qkv_bias, o_bias,
                          mlp_bias)
    active = params
    if moe:
        params += moe_mlp_params(h, layers, ffn, moe, shared_gate=mt in SHARED_EXPERT)
        active += moe_mlp_params(h, layers, ffn, moe, active=True, shared_gate=mt in SHARED_EXPERT)
    # per-head RMSNorms on q and k (Qwen3, Qwen3-MoE, Gemma 3: head_dim each); OLMoE's over the whole q and k
    # projections; Gemma 2 and 3's two more norms per layer
    qk_norms = mt in HEAD_QK_NORMS or (mt == "glm4_moe" and read_bool(where, cfg, "use_qk_norm", False))
    norms = 2 * head_dim if qk_norms else (heads + kv) * head_dim if mt in WIDE_QK_NORMS else 0
    norms += 2 * h if mt in FOUR_NORMS else 0
    hybrid, mixers = _hybrid(where, cfg, layers, h, heads * head_dim, kv * head_dim, norms) \
        if mt in GATED_DELTANET else ({}, 0)
    if mt in MLA_TYPES:  # multi-head latent attention instead of q / k / v / o (hf_parts.mla_attention)
        mla, head_dim = mla_attention(where, cfg, h, heads, q_bottleneck)
        counted = llama_params(h, 1, heads, kv, 0, 0, True, head_dim=h // heads if cfg.get("head_dim") is None
                               else cfg["head_dim"], qkv_bias=qkv_bias, o_bias=o_bias) - 2 * h - h
        mixers += layers * (mla - counted)
    params += layers * norms + mixers
    active += layers * norms + mixers
    if mt == "gpt_oss":  # biases on every expert (gate_up 2 × ffn, down h) and the router, one sink per head
        bias = layers * (moe["experts"] + heads)
        params += bias + layers * moe["experts"] * (2 * ffn + h)
        active += bias + layers * moe["experts_per_token"] * (2 * ffn + h)
    positions = read_int(where, cfg, "max_position_embeddings", default=4096)
    model = ModelSpec(arch="transformer", params=float(params), layers=layers, hidden=h, heads=heads,
                      kv_heads=kv, ffn=ffn, vocab=vocab, tied_embeddings=tied, gated_mlp=True,
                      head_dim=head_dim if head_dim != h // heads else None, qkv_bias=qkv_bias, name=name,
                      model_type=mt, max_positions=positions if "max_position_embeddings" in cfg else None,
                      eager_attention=mt in EAGER_ONLY,
                      # Gemma 2 soft-caps its attention logits (Gemma2Config attn_logit_softcapping, 50.0 by default)
                      attention_softcap=mt == "gemma2" and cfg.get("attn_logit_softcapping", 50.0) is not None,
                      # gpt-oss: a learned sink logit per head joins the softmax (its eager_attention_forward)
                      attention_sinks=mt == "gpt_oss",
                      # Llama-lineage layers have no hidden dropout (Phi-3: resid_pdrop, 0.0 by default);
                      # attention_dropout defaults to 0.0 in LlamaConfig, MistralConfig, Qwen2Config, GemmaConfig
                      dropout=_prob(where, cfg, ("resid_pdrop",), 0.0),
                      attention_dropout=_prob(where, cfg, ("attention_dropout",), 0.0))
    model = dataclasses.replace(model, **moe, **hybrid)  # the experts' and Gated DeltaNet's fields (where it has them)
    train = _decoder_train(params, min(2048, positions))
    if mt in _no_4bit_types() and train.method == "qlora":  # LoRA on the 16-bit model, as its trainers advise
        train = dataclasses.replace(train, method="lora")
    if hybrid or mt in MLA_TYPES:  # q / k / v / o exist in a quarter of a hybrid's layers, and multi-head latent
        # attention has no v_proj (its values come out of kv_b_proj): adapters go on every linear layer, as
        # ms-swift's default target 'all-linear' does (PEFT 0.21 has no default targets for these types)
        train = dataclasses.replace(train, lora_targets="all-linear")
    if moe and train.lora_targets == "all-linear":  # PEFT puts adapters on the fused experts' weights with its
        # ParamWrapper, which refuses dropout (peft 0.21: 'lora.ParamWrapper does not work with lora_dropout != 0')
        train = dataclasses.replace(train, lora_dropout=0.0)
    return model, train, active


def _from_table(where: str, cfg: dict[str, Any], mt: str, name: str) -> tuple[ModelSpec, TrainSpec, str, DataSpec]:
    """(model, starting settings, family, data) of a type laid out in resources/hf_types.toml: a decoder starts as
    a LLaMA of its size does; an encoder as BERT (full fine-tuning for classification); T5 and BART full below 1B
    and LoRA above, 512 source tokens and 128 target tokens (a summary). A type whose table names `settings_from`
    (Whisper) takes that built-in job's settings in gpucheck/catalog.py, which reads the built-in jobs."""
    f, t = table_fields(where, cfg, mt)
    model = ModelSpec(**f, name=name, model_type=mt)
    params = model.params
    positions = read_int(where, cfg, "max_position_embeddings", default=2048)
    data = DataSpec(samples=10000, epochs=3.0, bytes_per_sample=2000)
    if t["kind"] == "decoder":
        return model, _decoder_train(params, min(2048, positions)), "llm", data
    if t["kind"] == "encoder":
        return model, TrainSpec(method="full", precision="bf16", optimizer="adamw", batch=32,
                                seq_len=min(128, positions)), "nlp", data
    if t["kind"] == "vision":  # an image classifier fine-tuned whole on photos (about 110 kB a JPEG, as ImageNet's)
        image = read_int(where, cfg, "image_size", default=224, hi=100_000)
        train = TrainSpec(method="full", precision="bf16", optimizer="adamw", batch=32,
                          seq_len=image_tokens(where, {**t.get("defaults", {}), **cfg}), image_size=image)
        return model, train, "vision", DataSpec(samples=10000, epochs=3.0, bytes_per_sample=110_000)
    model = dataclasses.replace(model, decoder_seq_len=128)
    method = "lora" if params >= 1e9 else "full"
    return model, TrainSpec(method=method, precision="bf16", optimizer="adamw", batch=8, seq_len=512,
                            grad_checkpointing=params >= 1e9, lora_rank=16), "nlp", data


def workload_from_config(cfg: Any, where: str, name: str = "custom-model") -> Workload:
    if not isinstance(cfg, dict):
        raise BadInput(tr("{where}: expected a JSON object (a Hugging Face config.json)", where=where))
    not_transformers = diffusers_error(cfg, where)
    if not_transformers is not None:
        raise not_transformers
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
    checkpoint_type, mt = mt, VL_DECODERS.get(mt, mt)  # a VL checkpoint's decoder is counted as its text model's
    active = 0  # a mixture of experts: the parameters a token runs through
    data = DataSpec(samples=10000, epochs=3.0, bytes_per_sample=2000)
    if mt in GPT2_LIKE:
        h = read_int(where, cfg, "n_embd")
        layers = read_int(where, cfg, "n_layer", hi=1000)
        heads = read_int(where, cfg, "n_head", hi=10_000)
        positions = read_int(where, cfg, "n_positions", default=1024)
        vocab = read_int(where, cfg, "vocab_size")
        check_divides(where, "n_embd", h, "n_head", heads)
        ffn = read_int(where, cfg, "n_inner", default=4 * h)
        params = gpt2_params(h, layers, positions, vocab, ffn)
        # GPT2Config: resid_pdrop and attn_pdrop default to 0.1
        model = ModelSpec(arch="transformer", params=float(params), layers=layers, hidden=h, heads=heads,
                          kv_heads=heads, ffn=ffn, vocab=vocab, tied_embeddings=True, gated_mlp=False, name=name, model_type=mt,
                          max_positions=positions, learned_positions=True,
                          dropout=_prob(where, cfg, ("resid_pdrop",), 0.1),
                          attention_dropout=_prob(where, cfg, ("attn_pdrop",), 0.1))
        train = TrainSpec(method="full", precision="bf16", optimizer="adamw", batch=8, seq_len=min(1024, positions))
        family = "llm"
    elif mt in BERT_LIKE:
        h = read_int(where, cfg, "hidden_size")
        layers = read_int(where, cfg, "num_hidden_layers", hi=1000)
        heads = read_int(where, cfg, "num_attention_heads", hi=10_000)
        check_divides(where, "hidden_size", h, "num_attention_heads", heads)
        ffn = read_int(where, cfg, "intermediate_size", default=4 * h)
        positions = read_int(where, cfg, "max_position_embeddings", default=512)
        vocab = read_int(where, cfg, "vocab_size")
        type_vocab = read_int(where, cfg, "type_vocab_size", default=2, lo=0)
        params = bert_params(h, layers, positions, vocab, ffn, type_vocab)
        # sequence classification: no vocabulary-sized output, so no logits term
        # BertConfig (RoBERTa, ELECTRA ...): hidden_dropout_prob and attention_probs_dropout_prob default to 0.1
        model = ModelSpec(arch="transformer", params=float(params), layers=layers, hidden=h, heads=heads,
                          kv_heads=heads, ffn=ffn, vocab=None, gated_mlp=False, name=name, model_type=mt,
                          # RoBERTa's table starts its positions after padding_idx (1): 514 rows hold 512 tokens
                          max_positions=positions - (2 if mt in ("roberta", "xlm-roberta", "camembert") else 0),
                          learned_positions=True,
                          dropout=_prob(where, cfg, ("hidden_dropout_prob",), 0.1),
                          attention_dropout=_prob(where, cfg, ("attention_probs_dropout_prob",), 0.1))
        train = TrainSpec(method="full", precision="bf16", optimizer="adamw", batch=32, seq_len=min(128, positions))
        family = "nlp"
    elif mt in LLAMA_LIKE or mt in MOE_LIKE:
        model, train, active = _llama_like(where, cfg, mt, name)
        # kernel libraries key their patches on the checkpoint's own type (Liger's qwen2_5_vl, not qwen2's)
        model = dataclasses.replace(model, model_type=checkpoint_type)
        if side is not None and isinstance(vision, dict):
            model = dataclasses.replace(model, aux_params=float(side(where, vision, top, model.hidden or 0)))
        params = int(model.params + model.aux_params)
        family = "llm"
    elif mt in table_types():
        model, train, family, data = _from_table(where, cfg, mt, name)
        params = int(model.params)
    else:
        raise BadInput(tr("{where}: key 'model_type': '{got}' is not supported (expected one of: {names}); give "
                          "its sizes in a workload .toml instead", where=where, got=shorten(mt, 24),
                          names=SUPPORTED_SHOWN))
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
        data=data,
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
