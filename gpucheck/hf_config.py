"""A Hugging Face `config.json` → a `Workload` the estimator understands.

Supported families: LLaMA-style decoders (llama, mistral, qwen2, qwen3, gemma, phi3 …: RMSNorm,
rotary positions, SwiGLU MLP, grouped-query attention), GPT-2 (gpt2) and BERT-style encoders
(bert, roberta, distilbert-like keys). Parameters are counted from the architecture: embeddings,
attention (GQA/MQA via num_key_value_heads, head_dim when given, q/k/v biases for Qwen2), MLP,
norms, and the output head unless tie_word_embeddings.

The training settings default to what a hobbyist would start with (LoRA for 1–3 B decoders, QLoRA
above, full fine-tuning below 1 B) and are overridden with the CLI flags.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from gpucheck.errors import BadInput
from gpucheck.fileio import read_text_limited, shorten
from gpucheck.i18n import N_, tr
from gpucheck.records import DataSpec, ModelSpec, TrainSpec, Workload
from gpucheck.tomldata import _check_value

LLAMA_LIKE = ("llama", "mistral", "qwen2", "qwen3", "gemma", "gemma2", "phi3", "yi", "internlm2", "olmo",
              "granite", "deepseek", "baichuan", "mixtral_dense")
BERT_LIKE = ("bert", "roberta", "xlm-roberta", "electra", "camembert")
GPT2_LIKE = ("gpt2",)
SUPPORTED = LLAMA_LIKE + BERT_LIKE + GPT2_LIKE
# Model types Hugging Face transformers runs with eager attention (the heads·s² scores in memory): Gemma 2 soft-caps
# its attention logits, which SDPA cannot (transformers models/gemma2/modeling_gemma2.py: '_supports_sdpa = False
# # sdpa does not support softcapping')
EAGER_ONLY = ("gemma2",)


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


def _decoder_train(params: float, seq: int) -> TrainSpec:
    """The settings a decoder LLM of this size starts with: QLoRA from 3B, LoRA from 1B, full fine-tuning below."""
    if params >= 3e9:
        return TrainSpec(method="qlora", precision="bf16", optimizer="adamw", batch=1, seq_len=seq,
                         grad_checkpointing=True, lora_rank=16)
    if params >= 1e9:
        return TrainSpec(method="lora", precision="bf16", optimizer="adamw", batch=2, seq_len=seq,
                         grad_checkpointing=True, lora_rank=16)
    return TrainSpec(method="full", precision="bf16", optimizer="adamw", batch=4, seq_len=seq, grad_checkpointing=True)


def workload_from_config(cfg: Any, where: str, name: str = "custom-model") -> Workload:
    if not isinstance(cfg, dict):
        raise BadInput(tr("{where}: expected a JSON object (a Hugging Face config.json)", where=where))
    if isinstance(cfg.get("text_config"), dict) and "hidden_size" not in cfg:
        cfg = dict(cfg["text_config"], model_type=cfg["text_config"].get("model_type", cfg.get("model_type")))
    mt = cfg.get("model_type")
    if not isinstance(mt, str):
        raise BadInput(tr("{where}: missing key 'model_type' (a string such as 'llama', 'qwen2', 'gpt2', 'bert')",
                          where=where))
    mt = mt.lower()
    if mt.endswith("_text"):
        mt = mt[: -len("_text")]
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
    elif mt in LLAMA_LIKE:
        h = _int(where, cfg, "hidden_size")
        layers = _int(where, cfg, "num_hidden_layers", hi=1000)
        heads = _int(where, cfg, "num_attention_heads", hi=10_000)
        kv = _int(where, cfg, "num_key_value_heads", default=heads, hi=10_000)
        if heads % kv:
            raise BadInput(tr("{where}: key '{key}': expected a divisor of {other} ({n}), got {got}", where=where,
                              key="num_key_value_heads", other="num_attention_heads", n=heads, got=kv))
        ffn = _int(where, cfg, "intermediate_size")
        vocab = _int(where, cfg, "vocab_size")
        if cfg.get("head_dim") is None:
            _divides(where, "hidden_size", h, "num_attention_heads", heads)
        head_dim = _int(where, cfg, "head_dim", default=h // heads)
        tied = _bool(where, cfg, "tie_word_embeddings", default=mt in ("gemma", "gemma2"))
        qkv_bias = mt == "qwen2" or _bool(where, cfg, "attention_bias", False)
        o_bias = _bool(where, cfg, "attention_bias", False)
        mlp_bias = _bool(where, cfg, "mlp_bias", False)
        params = llama_params(h, layers, heads, kv, ffn, vocab, tied, head_dim, qkv_bias, o_bias, mlp_bias)
        positions = _int(where, cfg, "max_position_embeddings", default=4096)
        model = ModelSpec(arch="transformer", params=float(params), layers=layers, hidden=h, heads=heads,
                          kv_heads=kv, ffn=ffn, vocab=vocab, tied_embeddings=tied, gated_mlp=True,
                          head_dim=head_dim if head_dim != h // heads else None, qkv_bias=qkv_bias, name=name,
                          model_type=mt,
                          eager_attention=mt in EAGER_ONLY,
                          # Gemma 2 soft-caps its attention logits (Gemma2Config attn_logit_softcapping, 50.0 by default)
                          attention_softcap=mt == "gemma2" and cfg.get("attn_logit_softcapping", 50.0) is not None,
                          # Llama-lineage layers have no hidden dropout (Phi-3: resid_pdrop, 0.0 by default);
                          # attention_dropout defaults to 0.0 in LlamaConfig, MistralConfig, Qwen2Config, GemmaConfig
                          dropout=_prob(where, cfg, ("resid_pdrop",), 0.0),
                          attention_dropout=_prob(where, cfg, ("attention_dropout",), 0.0))
        train = _decoder_train(params, min(2048, positions))
        family = "llm"
    else:
        raise BadInput(tr("{where}: key 'model_type': '{got}' is not supported (expected one of: {names})",
                          where=where, got=shorten(mt, 24), names=", ".join(SUPPORTED)))
    billions = params / 1e9
    size = f"{billions:.1f}B" if billions >= 1 else f"{params / 1e6:.0f}M"
    shown = model_display_name(cfg, name)
    return Workload(
        id=name,
        title=f"Fine-tune {shown} ({size} parameters)",
        title_zh=f"微调 {shown}（{size} 参数）",
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
