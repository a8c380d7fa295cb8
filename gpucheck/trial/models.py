"""Which model a trial builds for a job, as the JSON spec the runner reads (resources/models/).

A built-in job's [model] name picks an entry of resources/models/models.toml (architecture config files
beside it); a Hugging Face config.json given as the job is used as it is; a transformer described only by
its sizes in a user's TOML becomes a LLaMA-, GPT-2- or BERT-style config of those sizes.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from gpucheck.catalog import read_toml
from gpucheck.errors import BadInput
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.optimizer_traffic import step_impl
from gpucheck.fileio import read_text_limited, shorten
from gpucheck.i18n import N_, tr
from gpucheck.records import Workload
from gpucheck.resources import resource_path


class TrialUnsupported(Exception):
    """The trial cannot build this job's model (exit 3: cannot run here)."""


@lru_cache(maxsize=1)
def load_recipes() -> dict[str, Any]:
    """models.toml: {'by_name': {model name: entry}, 'pip': {...}}."""
    path = resource_path("models", "models.toml")
    data = read_toml(path)
    by_name: dict[str, dict[str, Any]] = {}
    for entry in data.get("model", []):
        for key in ("names", "builder", "source", "as_of"):
            if key not in entry:
                raise BadInput(f"{path}: a [[model]] entry has no '{key}'")
        for name in entry["names"]:
            by_name[name] = entry
    return {"by_name": by_name, "pip": data.get("pip", {})}


def _read_json(path: Path) -> dict[str, Any]:
    text = read_text_limited(path, folder_error=N_("is a folder; give the config.json inside it"),
                             binary_error=N_("not a text file (expected a Hugging Face config.json)"))
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # read by gpucheck.hf_config before: it changed since
        raise BadInput(tr("{where}: expected a JSON object (a Hugging Face config.json)",
                          where=shorten(str(path)))) from None
    if not isinstance(data, dict):
        raise BadInput(tr("{where}: expected a JSON object (a Hugging Face config.json)", where=shorten(str(path))))
    return data


# Model types gpucheck estimates (gpucheck/hf_config.py) that transformers cannot build without the model's own
# remote code (never run): the trial builds a Llama-shaped model of the same sizes instead.
BUILT_AS_SIZES = ("yi", "internlm2", "deepseek", "baichuan", "mixtral_dense",
                  # vision-language decoders transformers has no causal-LM class for (their text model alone)
                  "qwen2_5_vl", "qwen2_5_vl_text", "qwen3_vl_text", "qwen3_vl_moe_text")


def _model_file(rel: str) -> dict[str, Any]:
    return _read_json(resource_path("models", rel))


def _from_recipe(entry: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    model: dict[str, Any] = {k: v for k, v in entry.items() if k not in ("names", "builder", "source", "as_of")}
    for key in ("config", "vae_config", "text_config"):
        if key in model:
            model[key] = _model_file(model[key])
    return entry["builder"], model


def _task_for(cfg: dict[str, Any]) -> str:
    mt = str(cfg.get("model_type", "")).lower()
    if mt in ("bert", "roberta", "distilbert", "deberta", "deberta-v2", "electra", "xlm-roberta"):
        return "sequence-classification"
    if mt == "whisper":
        return "speech-seq2seq"
    if mt in ("t5", "mt5", "bart"):
        return "seq2seq-lm"
    if mt == "vit":
        return "image-classification"
    return "causal-lm"


def _config_from_sizes(w: Workload) -> dict[str, Any]:
    """A transformer given by its sizes only (a user's TOML): a config of the same shape."""
    m = w.model
    heads = m.heads or 1
    ffn = m.ffn or 4 * (m.hidden or 0)
    if m.encoder_decoder:
        raise TrialUnsupported(tr("the trial cannot build an encoder-decoder model from its sizes alone; "
                                  "give its config.json as the job"))
    # the job's dropout where it states one (the estimate counts dropout only where it is on); else the config
    # class's own default, which is the estimate's usual one (BertConfig, GPT2Config 0.1; LlamaConfig 0.0)
    attn = m.attention_dropout if m.attention_dropout is not None else m.dropout
    if m.vocab is None:
        drops = {} if m.dropout is None else {"hidden_dropout_prob": m.dropout, "attention_probs_dropout_prob": attn}
        return {"model_type": "bert", "hidden_size": m.hidden, "num_attention_heads": heads,
                "num_hidden_layers": m.layers, "intermediate_size": ffn, "vocab_size": 30522,
                "max_position_embeddings": max(512, w.train.seq_len or 128), **drops}
    if not m.gated:
        drops = {} if m.dropout is None else {"resid_pdrop": m.dropout, "embd_pdrop": m.dropout, "attn_pdrop": attn}
        return {"model_type": "gpt2", "n_embd": m.hidden, "n_head": heads, "n_layer": m.layers, "n_inner": ffn,
                "vocab_size": m.vocab, "n_positions": max(1024, w.train.seq_len or 1024),
                "tie_word_embeddings": bool(m.tied_embeddings), **drops}
    cfg: dict[str, Any] = {
        "model_type": "qwen2" if m.qkv_bias else "llama", "hidden_size": m.hidden, "intermediate_size": ffn,
        "num_attention_heads": heads, "num_hidden_layers": m.layers, "num_key_value_heads": m.kv_heads or heads,
        "vocab_size": m.vocab, "tie_word_embeddings": bool(m.tied_embeddings),
        "max_position_embeddings": max(4096, w.train.seq_len or 0)}
    if m.head_dim:
        cfg["head_dim"] = m.head_dim
    if m.experts:  # a mixture of experts: Qwen3-MoE's layer (Qwen2-MoE's with a shared expert) of the same sizes
        cfg.update(model_type="qwen2_moe" if m.shared_expert_ffn else "qwen3_moe", num_experts=m.experts,
                   num_experts_per_tok=m.experts_per_token, moe_intermediate_size=m.expert_ffn,
                   mlp_only_layers=list(range((m.layers or 0) - (m.moe_layers or m.layers or 0))))
        if m.shared_expert_ffn:
            cfg["shared_expert_intermediate_size"] = m.shared_expert_ffn
    if attn is not None:
        cfg["attention_dropout"] = attn
    return cfg


def _positions(cfg: dict[str, Any]) -> int | None:
    for key in ("n_positions", "max_position_embeddings"):
        if isinstance(cfg.get(key), int):
            return int(cfg[key])
    return None


def model_for(w: Workload) -> tuple[str, dict[str, Any]]:
    """(builder, model section of the spec) for a job; TrialUnsupported when the trial has no model."""
    if w.path and str(w.path).lower().endswith(".json"):  # a Hugging Face config.json given as the job
        cfg = _read_json(Path(w.path))
        if isinstance(cfg.get("text_config"), dict) and "hidden_size" not in cfg:
            cfg = dict(cfg["text_config"], model_type=cfg["text_config"].get("model_type", cfg.get("model_type")))
        if str(cfg.get("model_type", "")).lower() in BUILT_AS_SIZES:
            cfg = _config_from_sizes(w)  # transformers has no class for it without the model's own code
        model: dict[str, Any] = {"config": cfg, "task": _task_for(cfg)}
        if w.model.decoder_seq_len:  # an encoder-decoder: the target tokens the estimate prices
            model["decoder_tokens"] = int(w.model.decoder_seq_len)
        return "transformers", model
    entry = load_recipes()["by_name"].get(w.model.name or "")
    if entry is not None:
        return _from_recipe(entry)
    if w.model.arch == "transformer":
        cfg = _config_from_sizes(w)
        return "transformers", {"config": cfg, "task": _task_for(cfg)}
    known = ", ".join(sorted(load_recipes()["by_name"]))
    raise TrialUnsupported(tr("the trial has no model for '{name}' (a {arch} job); it can build: {known}",
                              name=w.model.name or w.id, arch=w.model.arch, known=known))


CHANNELS_LAST_BUILDERS = ("torchvision",)  # the runner trains these models on channels_last maps (runner.py), not on MPS


def runs_channels_last(w: Workload, device: str) -> bool:
    """Whether the runner trains the job's feature maps in channels_last (the estimate's TrainSpec.channels_last)."""
    if device == "mps" or w.model.arch == "transformer":
        return False
    entry = load_recipes()["by_name"].get(w.model.name or "")
    return entry is not None and entry["builder"] in CHANNELS_LAST_BUILDERS


def job_spec(w: Workload, *, steps: int | None, max_seconds: float, device: str = "auto",
             search_batch: bool = True) -> dict[str, Any]:
    """The JSON the runner reads on stdin."""
    builder, model = model_for(w)
    t = w.train
    train = {"method": t.method, "precision": t.precision, "optimizer": t.optimizer, "batch": t.batch,
             "seq_len": t.seq_len, "image_size": t.image_size, "grad_checkpointing": t.grad_checkpointing,
             "lora_rank": t.lora_rank, "lora_targets": t.lora_targets, "lora_dropout": t.lora_dropout,
             "cache_embeddings": t.cache_embeddings, "qlora_upcast": t.upcasts_frozen,
             "qlora_bf16_adapters": t.adapters_16bit,
             # the optimizer step the estimate prices (the stack's usual one: the Hugging Face Trainer's fused AdamW)
             "optimizer_impl": step_impl(t, load_factors())}
    if builder == "transformers" and model.get("task") == "causal-lm":
        limit = _positions(model["config"])
        if limit and (t.seq_len or 0) > limit:
            raise BadInput(tr("--seq-len {n} is longer than this model's {limit} positions", n=t.seq_len,
                              limit=limit))
    if t.method in ("lora", "qlora") and builder in ("mnist-net", "torchvision", "ultralytics"):
        raise TrialUnsupported(tr("the trial runs LoRA only on transformer and diffusion models"))
    return {"workload": w.id, "builder": builder, "model": model, "train": train, "steps": steps,
            "max_seconds": max_seconds, "device": device, "search_batch": search_batch}
