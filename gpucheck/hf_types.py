"""A Hugging Face `config.json` of a model type laid out in resources/hf_types.toml (Phi, GPT-NeoX, Falcon, StableLM,
StarCoder2, OPT, BLOOM, GPT-J, Command R, Nemotron, Hunyuan …; DistilBERT and DeBERTa-v2 encoders; T5, BART and
Whisper encoder-decoders; ViT image classifiers) → the ModelSpec fields gpucheck/hf_config.py builds its Workload from.

Each type's table says which layers carry biases, how many norms a block has and of which kind, where the positions
come from and what the config keys are called; the counting is the same for all: per block the attention's q / k / v
/ o projections, the MLP (gated or dense) and the norms, then the embeddings, the final norm and the head. A key the
file leaves out takes the type's config class default (the table's `defaults`), else LLaMA's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gpucheck.errors import BadInput
from gpucheck.hf_parts import check_divides, read_bool, read_int
from gpucheck.i18n import tr
from gpucheck.resources import resource_path
from gpucheck.tomldata import _check_value, read_toml

KEYS = {"hidden": "hidden_size", "layers": "num_hidden_layers", "heads": "num_attention_heads",
        "kv_heads": "num_key_value_heads", "ffn": "intermediate_size", "head_dim": "head_dim", "vocab": "vocab_size",
        "positions": "max_position_embeddings"}
_KINDS = ("decoder", "encoder", "seq2seq", "vision")
_NORM_WEIGHTS = {"layernorm": 2, "layernorm_nobias": 1, "rmsnorm": 1}  # parameters per norm, per hidden unit
_TABLE_KEYS = {"source", "kind", "mlp", "norm", "norms_per_layer", "parallel_key", "qkv_bias", "o_bias", "mlp_bias",
               "lm_head_bias", "tied", "positions", "position_offset", "embed_norm", "eager", "ffn_times_hidden",
               "dropout", "attention_dropout", "keys", "defaults", "settings_from", "qk_norm", "activation_params"}


@lru_cache(maxsize=1)
def types() -> dict[str, dict[str, Any]]:
    """resources/hf_types.toml's tables by model type, each checked (a broken entry is a bug in the data file)."""
    return check_types(read_toml(resource_path("hf_types.toml"))["types"])


def check_types(doc: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    for name, t in doc.items():
        misspelt = set(t) - _TABLE_KEYS
        if misspelt:
            raise ValueError(f"resources/hf_types.toml: [types.{name}]: unknown key {sorted(misspelt)[0]!r}")
        if t.get("kind") not in _KINDS or t.get("mlp") not in ("gated", "dense") or t.get("norm") not in _NORM_WEIGHTS \
                or not t.get("source") or t.get("positions") not in ("rotary", "alibi", "learned", "relative"):
            raise ValueError(f"resources/hf_types.toml: [types.{name}] is incomplete")
        unknown = set(t.get("keys", {})) - set(KEYS)
        if unknown:
            raise ValueError(f"resources/hf_types.toml: [types.{name}.keys]: unknown {sorted(unknown)}")
    return doc


@dataclass(frozen=True)
class Shape:
    """What one config.json says about the blocks, read through its type's key names and defaults."""

    hidden: int
    layers: int
    heads: int
    kv_heads: int
    ffn: int
    head_dim: int
    vocab: int
    positions: int
    tied: bool
    gated: bool


def _key(t: dict[str, Any], field: str) -> str:
    return t.get("keys", {}).get(field, KEYS[field])


def _flag(where: str, cfg: dict[str, Any], value: bool | str) -> bool:
    """A table's bias entry: true / false, or the config key that decides (its default merged into `cfg`)."""
    return read_bool(where, cfg, value, False) if isinstance(value, str) else bool(value)


def _prob(where: str, cfg: dict[str, Any], spec: list[Any]) -> float:
    keys, default = spec
    for key in keys:
        if cfg.get(key) is not None:
            return float(_check_value(where, key, cfg[key], "float", 0, 1, None))
    return float(default)


def read_shape(where: str, cfg: dict[str, Any], mt: str, t: dict[str, Any]) -> Shape:
    h = read_int(where, cfg, _key(t, "hidden"))
    layers = read_int(where, cfg, _key(t, "layers"), hi=1000)
    heads = read_int(where, cfg, _key(t, "heads"), hi=10_000)
    kv = read_int(where, cfg, _key(t, "kv_heads"), default=heads, hi=10_000)
    if mt == "falcon":  # multi-query unless the new decoder architecture, which reads num_kv_heads
        kv = kv if read_bool(where, cfg, "new_decoder_architecture", False) else \
            1 if read_bool(where, cfg, "multi_query", True) else heads
    if heads % kv:
        raise BadInput(tr("{where}: key '{key}': expected a divisor of {other} ({n}), got {got}", where=where,
                          key=_key(t, "kv_heads"), other=_key(t, "heads"), n=heads, got=kv))
    if cfg.get(_key(t, "head_dim")) is None:
        check_divides(where, _key(t, "hidden"), h, _key(t, "heads"), heads)
    head_dim = read_int(where, cfg, _key(t, "head_dim"), default=h // heads)
    ffn = read_int(where, cfg, _key(t, "ffn"), default=int(t.get("ffn_times_hidden", 4)) * h)
    vocab = 0 if t["kind"] == "vision" else read_int(where, cfg, _key(t, "vocab"))
    positions = image_tokens(where, cfg) if t["kind"] == "vision" else \
        read_int(where, cfg, _key(t, "positions"), default=2048)
    proj = str(cfg.get("feed_forward_proj", ""))
    gated = proj.startswith("gated") if mt in ("t5", "mt5") else t["mlp"] == "gated"
    tied = read_bool(where, cfg, "tie_word_embeddings", bool(t.get("tied", False)))
    return Shape(h, layers, heads, kv, ffn, head_dim, vocab, positions, tied, gated)


def _attention(s: Shape, cfg: dict[str, Any], where: str, t: dict[str, Any], whisper: bool = False) -> int:
    q_out, kv_out = s.heads * s.head_dim, s.kv_heads * s.head_dim
    n = 2 * s.hidden * q_out + 2 * s.hidden * kv_out
    if _flag(where, cfg, t.get("qkv_bias", False)):
        n += q_out + (kv_out if whisper else 2 * kv_out)  # Whisper's k_proj has no bias
    if _flag(where, cfg, t.get("o_bias", False)):
        n += s.hidden
    return n


def _mlp(s: Shape, ffn: int, cfg: dict[str, Any], where: str, t: dict[str, Any]) -> int:
    n = (3 if s.gated else 2) * s.hidden * ffn
    if _flag(where, cfg, t.get("mlp_bias", False)):
        n += (2 if s.gated else 1) * ffn + s.hidden
    return n


def _norms_per_block(cfg: dict[str, Any], where: str, mt: str, t: dict[str, Any]) -> int:
    if mt == "falcon" and read_bool(where, cfg, "new_decoder_architecture", False):
        return read_int(where, cfg, "num_ln_in_parallel_attn", default=2, hi=2)
    key = t.get("parallel_key")
    return 1 if key and read_bool(where, cfg, key, False) else int(t["norms_per_layer"])


def count_params(where: str, cfg: dict[str, Any], mt: str, t: dict[str, Any], s: Shape) -> int:
    """Parameters of the type's model as its causal-LM, sequence-classification body or seq2seq class builds it."""
    norm = _NORM_WEIGHTS[t["norm"]] * s.hidden
    if t["kind"] == "seq2seq":
        return _seq2seq_params(where, cfg, mt, t, s, norm)
    block = _attention(s, cfg, where, t) + _mlp(s, s.ffn, cfg, where, t) + _norms_per_block(cfg, where, mt, t) * norm
    if t.get("qk_norm") == "head":  # an RMSNorm over each head's q and one over its k (head_dim each)
        block += 2 * s.head_dim
    block += int(t.get("activation_params", 0))  # a learned activation's own scalars (Apertus' xIELU)
    total = s.layers * block + s.vocab * s.hidden
    if t["positions"] == "learned":
        total += (s.positions + int(t.get("position_offset", 0))) * s.hidden
    total += norm if t.get("embed_norm") else 0
    if t["kind"] == "encoder":
        return total + _deberta_extra(where, cfg, s, norm) if mt == "deberta-v2" else total
    if t["kind"] == "vision":  # the patch convolution with its bias, the class token, the final norm
        patch, channels = read_int(where, cfg, "patch_size", hi=1024), read_int(where, cfg, "num_channels", hi=64)
        return total - s.vocab * s.hidden + channels * patch * patch * s.hidden + 2 * s.hidden + norm
    if mt == "opt":
        total += _opt_extra(where, cfg, s)
    total += norm  # the final norm
    if not s.tied:
        total += s.vocab * s.hidden
    return total + (s.vocab if t.get("lm_head_bias") else 0)


def _opt_extra(where: str, cfg: dict[str, Any], s: Shape) -> int:
    """OPT-350M's embeddings are word_embed_proj_dim wide, projected in and out of the blocks' width, and its
    blocks norm after each sublayer (do_layer_norm_before false), which leaves no final LayerNorm."""
    proj = read_int(where, cfg, "word_embed_proj_dim", default=s.hidden)
    extra = 0 if proj == s.hidden else 2 * proj * s.hidden + s.vocab * (proj - s.hidden)
    return extra - (0 if read_bool(where, cfg, "do_layer_norm_before", True) else 2 * s.hidden)


def _deberta_extra(where: str, cfg: dict[str, Any], s: Shape, norm: int) -> int:
    """DeBERTa-v2's embeddings and relative positions beyond BERT's word embeddings, its LayerNorm and blocks."""
    extra = 0 if read_bool(where, cfg, "position_biased_input", True) else -s.positions * s.hidden
    extra += read_int(where, cfg, "type_vocab_size", default=0, lo=0) * s.hidden
    if read_bool(where, cfg, "relative_attention", False):
        buckets = read_int(where, cfg, "position_buckets", default=-1, lo=-1)
        span = read_int(where, cfg, "max_relative_positions", default=-1, lo=-1)
        rows = 2 * (buckets if buckets > 0 else span if span > 0 else s.positions)
        extra += rows * s.hidden
        extra += norm if "layer_norm" in str(cfg.get("norm_rel_ebd", "none")) else 0
        if not read_bool(where, cfg, "share_att_key", False):  # own position projections per block
            kinds = cfg.get("pos_att_type") or []
            kinds = kinds.split("|") if isinstance(kinds, str) else kinds
            extra += s.layers * sum(k in kinds for k in ("c2p", "p2c")) * (s.hidden * s.hidden + s.hidden)
    return extra


def _seq2seq_params(where: str, cfg: dict[str, Any], mt: str, t: dict[str, Any], s: Shape, norm: int) -> int:
    whisper = mt == "whisper"
    dec_layers = decoder_layers(where, cfg, mt, s)
    dec_ffn = read_int(where, cfg, "decoder_ffn_dim", default=s.ffn) if mt in ("bart", "whisper") else s.ffn
    attn = _attention(s, cfg, where, t, whisper)
    enc = s.layers * (attn + _mlp(s, s.ffn, cfg, where, t) + 2 * norm)
    dec = dec_layers * (2 * attn + _mlp(s, dec_ffn, cfg, where, t) + 3 * norm)
    total = enc + dec + s.vocab * s.hidden + (0 if s.tied else s.vocab * s.hidden)
    if mt in ("t5", "mt5"):  # relative position buckets in each stack's first block, a final norm per stack
        buckets = read_int(where, cfg, "relative_attention_num_buckets", default=32)
        return total + 2 * buckets * s.heads + 2 * norm
    if mt == "bart":  # learned positions and a LayerNorm after the embeddings, in each stack
        return total + 2 * ((s.positions + 2) * s.hidden + norm)
    mel = read_int(where, cfg, "num_mel_bins", default=80)
    src = read_int(where, cfg, "max_source_positions", default=1500)
    tgt = read_int(where, cfg, "max_target_positions", default=448)
    convs = 3 * mel * s.hidden + s.hidden + 3 * s.hidden * s.hidden + s.hidden
    return total + convs + (src + tgt) * s.hidden + 2 * norm


def image_tokens(where: str, cfg: dict[str, Any]) -> int:
    """A ViT's tokens: one per patch of the image and the class token."""
    image, patch = read_int(where, cfg, "image_size", hi=100_000), read_int(where, cfg, "patch_size", hi=1024)
    if patch > image:
        raise BadInput(tr("{where}: key '{key}': expected at most {other} ({n}), got {got}", where=where,
                          key="patch_size", other="image_size", n=image, got=patch))
    return (image // patch) ** 2 + 1


def decoder_layers(where: str, cfg: dict[str, Any], mt: str, s: Shape) -> int:
    if mt in ("t5", "mt5"):
        return read_int(where, cfg, "num_decoder_layers", default=s.layers, hi=1000)
    return read_int(where, cfg, "decoder_layers", default=s.layers, hi=1000)


def fields(where: str, cfg: dict[str, Any], mt: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(ModelSpec fields, the type's table) for a config.json of a type in resources/hf_types.toml."""
    t = types()[mt]
    cfg = {**t.get("defaults", {}), **{k: v for k, v in cfg.items() if v is not None}}
    s = read_shape(where, cfg, mt, t)
    out: dict[str, Any] = {
        "arch": "transformer", "params": float(count_params(where, cfg, mt, t, s)), "layers": s.layers,
        "hidden": s.hidden, "heads": s.heads, "kv_heads": s.kv_heads, "ffn": s.ffn,
        "vocab": None if t["kind"] in ("encoder", "vision") else s.vocab, "tied_embeddings": s.tied, "gated_mlp": s.gated,
        "head_dim": s.head_dim if s.head_dim != s.hidden // s.heads else None,
        "qkv_bias": _flag(where, cfg, t.get("qkv_bias", False)), "eager_attention": bool(t.get("eager")),
        "dropout": _prob(where, cfg, t["dropout"]), "attention_dropout": _prob(where, cfg, t["attention_dropout"])}
    if t["kind"] == "seq2seq":
        out.update(encoder_decoder=True, decoder_layers=decoder_layers(where, cfg, mt, s))
        if mt == "whisper":
            out["mel_bins"] = read_int(where, cfg, "num_mel_bins", default=80)
    return out, t


def settings_from(model_type: str) -> str | None:
    """The built-in job whose training settings and data a config.json of this type starts from (Whisper's)."""
    return types().get(model_type, {}).get("settings_from")
