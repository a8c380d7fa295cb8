"""Hugging Face config.json files of model types outside the LLaMA, GPT-2 and BERT lineages (resources/hf_types.toml):
Phi, GPT-NeoX / Pythia, Falcon, StableLM, StarCoder2, OPT, BLOOM, GPT-J, Command R, Nemotron, Helium, Seed-OSS,
ERNIE 4.5, GLM, Arcee; the DistilBERT and DeBERTa-v2/v3 encoders; the T5, mT5, BART and Whisper encoder-decoders.

What a user notices: each was refused as "not supported" and is now estimated; its parameters are the model's own to
the parameter (transformers' classes counted on the meta device, tests/fixtures/hf_types/counts.json); a Whisper
checkpoint trains as the built-in Whisper job does and is estimated as that job; a type gpucheck does not know still
ends in one clear message naming what it reads.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpucheck.catalog import find_gpu, get_workload
from gpucheck.errors import BadInput
from gpucheck.estimate import estimate
from gpucheck.estimate.target import Target
from gpucheck.hf_config import workload_from_config, workload_from_config_file
from gpucheck.hf_types import check_types, types

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "hf_types"
COUNTS = json.loads((HERE / "counts.json").read_text(encoding="utf-8"))["counts"]


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_parameters_are_the_models_own(name: str) -> None:
    w = workload_from_config_file(HERE / f"{name}.json")  # a vision-language model: its frozen image side too
    assert int(w.model.params + w.model.aux_params) == COUNTS[name]["params"], COUNTS[name]["class"]


def test_every_type_in_the_data_file_is_checked_against_transformers() -> None:
    checked = {json.loads((HERE / f"{n}.json").read_text(encoding="utf-8"))["model_type"] for n in COUNTS}
    assert set(types()) <= checked


@pytest.mark.parametrize(("name", "kind", "method", "family"), [
    ("phi-2", "decoder", "lora", "llm"),  # 2.8B: LoRA on the 16-bit model, as a LLaMA of its size
    ("opt-defaults", "decoder", "full", "llm"),  # 125M: full fine-tuning
    ("falcon-40b", "decoder", "qlora", "llm"),
    ("distilbert-defaults", "encoder", "full", "nlp"),
    ("flan-t5-base", "seq2seq", "full", "nlp"),
    ("vit-defaults", "vision", "full", "vision"),
])
def test_a_users_config_starts_from_the_settings_of_its_size(name: str, kind: str, method: str, family: str) -> None:
    w = get_workload(str(HERE / f"{name}.json"))
    assert (w.train.method, w.family) == (method, family)
    assert (w.model.vocab is None) == (kind in ("encoder", "vision"))  # a classifier has no vocabulary head
    assert w.model.encoder_decoder == (kind == "seq2seq")
    e = estimate(w, Target.from_gpu(find_gpu("rtx 4090")))
    weight_bytes = 0.5 if method == "qlora" else 2  # 4-bit or 16-bit weights: the least the GPU holds
    assert e.peak_vram_bytes > weight_bytes * w.model.params and e.samples_per_second > 0


def test_the_gated_t5_v1_1_layout_is_read_from_feed_forward_proj() -> None:
    """google/flan-t5-base: 247,577,856 parameters (its model page: 248M), with the lm_head untied
    (tie_word_embeddings false in its config.json; transformers 5.24's T5Config keeps it true, so the fixture, as
    transformers builds it, is tied and 24,674,304 smaller)."""
    flan = workload_from_config_file(HERE / "flan-t5-base.json").model
    t5 = workload_from_config_file(HERE / "t5-defaults.json").model
    assert flan.gated_mlp and not t5.gated_mlp
    assert (flan.decoder_layers, flan.decoder_seq_len) == (12, 128)
    cfg = json.loads((HERE / "flan-t5-base.json").read_text(encoding="utf-8"))
    published = workload_from_config(dict(cfg, tie_word_embeddings=False), "config.json").model
    assert (int(published.params), published.tied_embeddings) == (247_577_856, False)


def test_a_whisper_checkpoint_is_estimated_as_the_builtin_whisper_job() -> None:
    """openai/whisper-small's shape given as a config.json: the same 241,734,912 parameters as the built-in
    whisper-small-finetune job, which it then trains as (fp16, batch 16, 30 s clips, short labels): the same VRAM and
    speed on the same GPU."""
    w = get_workload(str(HERE / "whisper-small.json"))
    b = get_workload("whisper-small-finetune")
    assert w.model.params == b.model.params and w.family == "speech"
    assert (w.train, w.data, w.model.mel_bins, w.model.decoder_seq_len) == (b.train, b.data, 80, 100)
    t4 = Target.from_gpu(find_gpu("t4"))
    ew, eb = estimate(w, t4), estimate(b, t4)
    assert ew.peak_vram_bytes == pytest.approx(eb.peak_vram_bytes, rel=0.01)
    assert ew.samples_per_second == pytest.approx(eb.samples_per_second, rel=0.02)


def test_attention_without_sdpa_keeps_its_scores() -> None:
    """BLOOM (ALiBi) and DeBERTa (disentangled attention) run eager attention in transformers: the estimate keeps
    their heads × tokens² scores; Phi runs SDPA."""
    assert workload_from_config_file(HERE / "bloom-560m.json").model.eager_attention
    assert workload_from_config_file(HERE / "deberta-v3-base.json").model.eager_attention
    assert not workload_from_config_file(HERE / "phi-2.json").model.eager_attention


def test_multi_query_falcon_has_one_key_value_head() -> None:
    assert workload_from_config_file(HERE / "falcon-defaults.json").model.kv_heads == 1
    assert workload_from_config_file(HERE / "falcon-40b.json").model.kv_heads == 8


@pytest.mark.parametrize(("cfg", "says"), [
    ({"model_type": "mamba", "hidden_size": 768}, "'mamba' is not supported (expected one of: llama"),
    ({"model_type": "phi", "hidden_size": 2560}, "missing key 'num_hidden_layers'"),
    ({"model_type": "t5", "d_model": 512, "num_layers": 6, "num_heads": 8, "d_ff": "2048", "vocab_size": 32128},
     "key 'd_ff': expected an integer"),
    ({"model_type": "falcon", "hidden_size": 4544, "num_hidden_layers": 32, "num_attention_heads": 71,
      "vocab_size": 65024, "multi_query": "yes"}, "key 'multi_query': expected true or false"),
])
def test_a_broken_or_unknown_config_is_one_clear_message(cfg: dict, says: str) -> None:
    with pytest.raises(BadInput, match=says.replace("(", r"\(").replace(")", r"\)")):
        workload_from_config(cfg, "config.json")


def test_a_misspelt_key_in_the_data_file_is_named() -> None:
    broken = {"phi": dict(types()["phi"], qkv_bais=True)}
    with pytest.raises(ValueError, match=r"\[types.phi\]: unknown key 'qkv_bais'"):
        check_types(broken)


def test_a_vit_sees_one_token_per_patch_and_its_class_token() -> None:
    """ViT-L/16 at 384 px: 24 × 24 patches and the class token, 577 tokens a sample (its position table's rows)."""
    w = get_workload(str(HERE / "vit-large-patch16-384.json"))
    assert (w.train.seq_len, w.train.image_size, w.family) == (577, 384, "vision")
    e = estimate(w, Target.from_gpu(find_gpu("rtx 4090")))
    assert e.tokens_per_second is None  # pictures per second, not tokens
    assert any("577 tokens a picture" in a for a in e.assumptions)
    with pytest.raises(BadInput, match="key 'patch_size': expected at most image_size"):
        workload_from_config({"model_type": "vit", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
                              "image_size": 8, "patch_size": 16}, "config.json")


def test_deepseek_and_glm_mixtures_of_experts_answer_can_i_fine_tune_them() -> None:
    """DeepSeek-V3 / R1 (and Kimi K2, Moonlight: the same model_type): 671B parameters, 37B of them run per token
    (the DeepSeek-V3 model card: '671B total parameters with 37B activated for each token'); its multi-head latent
    attention has no v_proj, so LoRA goes on every linear layer. GLM-4.5-Air: 106B in all, 12B active (its model card;
    the 1.2B of untied embeddings come on top). Both are refused on one RTX 4090 and priced on rented GPUs instead.
    PEFT puts adapters on the fused experts' weights with its ParamWrapper, which refuses dropout: the job starts
    with none."""
    v3 = get_workload(str(HERE / "deepseek-v3-defaults.json"))
    assert v3.title.endswith("(671.0B parameters, 37.6B active)")
    assert (v3.model.experts, v3.model.experts_per_token, v3.train.lora_targets) == (256, 8, "all-linear")
    assert v3.train.lora_dropout == 0.0  # PEFT's adapters on fused experts take no dropout
    air = get_workload(str(HERE / "glm-4.5-air.json"))
    assert air.title.endswith("(106.9B parameters, 13.4B active)")
    gpu = Target.from_gpu(find_gpu("rtx 4090"))
    for w in (v3, air):
        e = estimate(w, gpu)
        assert e.vram_fit == "does_not_fit"
    lite = get_workload(str(HERE / "deepseek-v2-lite.json"))  # 15.7B, q_lora_rank null: one q_proj
    assert estimate(lite, gpu).vram_fit != "does_not_fit"


def test_llama_4_scout_is_a_mixture_of_experts_beside_its_frozen_image_side() -> None:
    """Llama 4 Scout: 109B parameters, 17B active (Meta's model card); 16 experts and a shared expert in every
    layer, one routed expert a token; the 0.46B vision tower and projector are loaded beside the decoder, frozen."""
    w = get_workload(str(HERE / "llama4-scout-defaults.json"))
    m = w.model
    assert (m.experts, m.experts_per_token, m.moe_layers, m.shared_expert_ffn) == (16, 1, 48, 8192)
    assert int(m.aux_params) == 455_178_240
    assert w.title.endswith("(108.2B parameters, 17.2B active)")


def test_a_refused_type_says_what_to_do_instead() -> None:
    with pytest.raises(BadInput, match=r"'jamba' is not supported .*; give its sizes in a workload \.toml instead$"):
        workload_from_config({"model_type": "jamba", "hidden_size": 4096}, "config.json")
