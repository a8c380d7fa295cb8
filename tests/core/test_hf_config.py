"""Hugging Face config.json → Workload: parameter counts against the published model sizes."""

from __future__ import annotations

import json

import pytest

from gpucheck.catalog import find_gpu, get_workload
from gpucheck.errors import BadInput
from gpucheck.estimate import Target, estimate
from gpucheck.hf_config import workload_from_config, workload_from_config_file
from gpucheck.resources import resource_path
from tests.conftest import FIXTURES

HF = FIXTURES / "hf"


@pytest.mark.parametrize("folder, params, published", [
    # exact counts as the Hub's safetensors metadata / model cards state them
    ("meta-llama-3-8b", 8_030_261_248, "Meta-Llama-3-8B model card: 8B (8.03B in the safetensors index)"),
    ("qwen2.5-7b", 7_615_616_512, "Qwen2.5-7B model card: 'Number of Parameters: 7.61B'"),
    ("mistral-7b-v0.1", 7_241_732_096, "Mistral-7B-v0.1: 7.24B parameters on the Hub"),
    ("gpt2", 124_439_808, "GPT-2 small: 124M (124,439,808 with the 1024 learned positions)"),
    ("bert-base-uncased", 109_482_240, "BERT-base: 110M (109,482,240 with the pooler)"),
])
def test_parameter_count_matches_the_published_size(folder, params, published):
    w = workload_from_config_file(HF / folder / "config.json")
    assert w.model.params == params, published


def test_gqa_tied_embeddings_and_biases_are_read():
    llama = workload_from_config_file(HF / "meta-llama-3-8b" / "config.json").model
    assert (llama.kv_heads, llama.tied_embeddings, llama.gated_mlp) == (8, False, True)
    qwen = workload_from_config_file(HF / "qwen2.5-7b" / "config.json").model
    assert qwen.qkv_bias and qwen.kv_heads == 4
    gpt2 = workload_from_config_file(HF / "gpt2" / "config.json").model
    assert gpt2.tied_embeddings and gpt2.gated_mlp is False
    bert = workload_from_config_file(HF / "bert-base-uncased" / "config.json")
    assert bert.family == "nlp" and bert.model.vocab is None  # classification head, no vocab logits


def test_defaults_follow_model_size():
    assert workload_from_config_file(HF / "meta-llama-3-8b" / "config.json").train.method == "qlora"
    assert workload_from_config_file(HF / "gpt2" / "config.json").train.method == "full"


def test_a_folder_holding_config_json_works_through_get_workload():
    w = get_workload(str(HF / "mistral-7b-v0.1"))
    assert w.id == "mistral-7b-v0.1"


def test_tied_embeddings_drop_the_output_head():
    cfg = json.loads((HF / "meta-llama-3-8b" / "config.json").read_text())
    untied = workload_from_config(cfg, "cfg").model.params
    tied = workload_from_config(dict(cfg, tie_word_embeddings=True), "cfg").model.params
    assert untied - tied == 128256 * 4096


@pytest.mark.parametrize("folder, hidden, attention", [
    ("bert-base-uncased", 0.1, 0.1),  # hidden_dropout_prob, attention_probs_dropout_prob
    ("gpt2", 0.1, 0.1),  # resid_pdrop, attn_pdrop
    ("meta-llama-3-8b", 0.0, 0.0),  # no hidden dropout in the layer; attention_dropout 0.0
    ("qwen2.5-7b", 0.0, 0.0),
    ("mistral-7b-v0.1", 0.0, 0.0),  # the file has no attention_dropout: MistralConfig's 0.0
])
def test_dropout_is_read_from_the_released_config(folder, hidden, attention):
    m = workload_from_config_file(HF / folder / "config.json").model
    assert (m.dropout, m.attention_dropout) == (hidden, attention)


def test_a_bert_without_dropout_trains_faster_than_the_released_one():
    """PyTorch's dropout at p = 0 returns its input (ATen Dropout.cpp): a user who turns BERT's dropout off gets a
    faster estimate, by no more than the two masked copies of the hidden stream per layer can cost."""
    cfg = json.loads((HF / "bert-base-uncased" / "config.json").read_text())
    on = workload_from_config(cfg, "config.json")
    cfg.update(hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
    off = workload_from_config(cfg, "config.json")
    assert (off.model.dropout, off.model.attention_dropout) == (0.0, 0.0)
    target = Target.from_gpu(find_gpu("rtx 4090"))
    fast, slow = estimate(off, target).samples_per_second, estimate(on, target).samples_per_second
    assert slow < fast < 1.25 * slow


@pytest.mark.parametrize("edit, key", [
    ({"attention_dropout": 1.5}, "attention_dropout"),
    ({"resid_pdrop": "0.1"}, "resid_pdrop"),
    ({"hidden_size": "4096"}, "hidden_size"),
    ({"num_hidden_layers": -1}, "num_hidden_layers"),
    ({"num_key_value_heads": 5}, "num_key_value_heads"),
    ({"model_type": "mamba"}, "model_type"),
    ({"tie_word_embeddings": "yes"}, "tie_word_embeddings"),
])
def test_bad_values_name_the_key(edit, key):
    cfg = json.loads((HF / "meta-llama-3-8b" / "config.json").read_text())
    cfg.update(edit)
    with pytest.raises(BadInput, match=key):
        workload_from_config(cfg, "config.json")


def test_missing_key_and_broken_json(tmp_path):
    cfg = json.loads((HF / "meta-llama-3-8b" / "config.json").read_text())
    del cfg["intermediate_size"]
    with pytest.raises(BadInput, match="missing key 'intermediate_size'"):
        workload_from_config(cfg, "config.json")
    p = tmp_path / "config.json"
    p.write_text('{"model_type": "llama",', encoding="utf-8")
    with pytest.raises(BadInput, match=r"config.json: not valid JSON \(line 1"):
        workload_from_config_file(p)
    with pytest.raises(BadInput, match="expected a JSON object"):
        workload_from_config([1, 2], "config.json")


@pytest.mark.parametrize("job, folder", [
    ("bert-base-finetune", "bert-base-uncased"), ("gpt2-124m-pretrain", "gpt2-nanogpt"),
    ("llama3-8b-full", "llama3-8b"), ("llama3-70b-qlora", "llama3-70b"),
    ("qwen2.5-1.5b-lora", "qwen2.5-1.5b"), ("qwen2.5-7b-qlora", "qwen2.5-7b"),
])
def test_a_built_in_jobs_dropout_is_its_shipped_configs(job, folder):
    """The trial trains the shipped config.json; the estimate must count the same dropouts (nanoGPT's 0.0, not
    GPT-2's 0.1)."""
    shipped = workload_from_config_file(resource_path("models", folder, "config.json")).model
    m = get_workload(job).model
    assert (m.dropout, m.attention_dropout) == (shipped.dropout, shipped.attention_dropout)
