"""Gemma 3 given as its published config.json: the 1B text model and the 4B / 27B vision-language checkpoints.

What a user notices: the job is accepted (it used to be refused as an unknown model_type, and the 4B file, which names
only what differs from transformers' Gemma3TextConfig, would have lacked its vocabulary and heads), its parameters are
Google's to the parameter, the image side is loaded beside the decoder without being trained, and the 262k-token
vocabulary shows in the memory and the advice.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpucheck.advise import advise
from gpucheck.catalog import find_gpu
from gpucheck.estimate import Target, estimate
from gpucheck.hf_config import workload_from_config, workload_from_config_file
from gpucheck.i18n import use_language
from tests.helpers import image_side_cost

HF = Path(__file__).resolve().parents[1] / "fixtures" / "hf"
GEMMA3_1B = HF / "gemma-3-1b-it" / "config.json"
GEMMA3_4B = HF / "gemma-3-4b-it" / "config.json"
GEMMA3_27B = HF / "gemma-3-27b-it" / "config.json"


# Google's figures: the Hugging Face model pages' safetensors totals (gemma-3-1b-it 999,885,952; gemma-3-4b-it
# 4,300,079,472; gemma-3-27b-it 27,432,406,640) and the Gemma 3 Technical Report (arXiv 2503.19786, Table 1):
# vision encoder 0 / 417M / 417M, non-embedding parameters 698M / 3,209M / 25,600M
@pytest.mark.parametrize(("path", "total", "vision_m", "non_embedding_m"), [
    (GEMMA3_1B, 999_885_952, 0, 698), (GEMMA3_4B, 4_300_079_472, 417, 3_209),
    (GEMMA3_27B, 27_432_406_640, 417, 25_600)])
def test_googles_parameter_counts(path: Path, total: int, vision_m: int, non_embedding_m: int) -> None:
    m = workload_from_config_file(path).model
    assert int(m.params + m.aux_params) == total
    # the image side: the SigLIP tower (417M) and the projector into the decoder's width
    assert m.aux_params / 1e6 == pytest.approx(vision_m + m.hidden * 1152 / 1e6 if vision_m else 0, abs=0.5)
    assert (m.params - m.hidden * m.vocab) / 1e6 == pytest.approx(non_embedding_m, abs=0.5)


def test_the_titles_name_the_model_and_its_size_in_both_languages() -> None:
    assert workload_from_config_file(GEMMA3_1B).title == "Fine-tune Gemma3 (1.0B parameters)"
    assert workload_from_config_file(GEMMA3_4B).title == "Fine-tune Gemma3 (4.3B parameters)"
    with use_language("zh_CN"):
        assert workload_from_config_file(GEMMA3_27B).title_zh == "微调 Gemma3（27.4B 参数）"


def test_a_sparse_config_takes_the_config_class_defaults() -> None:
    """google/gemma-3-4b-it's text_config names its width, depth and MLP only: 8 heads of 256, 4 key/value heads
    and the 262,208-token vocabulary are Gemma3TextConfig's; the tied output layer adds no second embedding."""
    m = workload_from_config_file(GEMMA3_4B).model
    assert (m.heads, m.kv_heads, m.head_dim, m.vocab, m.tied_embeddings) == (8, 4, 256, 262_208, True)


def test_the_image_side_is_held_frozen_in_16_bits_and_not_trained() -> None:
    """LoRA of the 4B on an RTX 4090: the tower and projector's 420M parameters cost their 16-bit bytes beside the
    decoder, add no trainable parameter and no FLOPs (a text fine-tune never runs them)."""
    weights, trainable, flops, side = image_side_cost(GEMMA3_4B)
    assert weights == pytest.approx(side * 2, rel=1e-6)
    assert (trainable, flops) == (0, 0)


def test_the_large_vocabulary_is_what_the_fused_loss_saves() -> None:
    """Gemma 3 4B QLoRA at 2,048 tokens on a free Colab T4: the batch's 2,048 × 262,208 logits and the loss's copies
    are gigabytes; the advice names Liger's fused cross-entropy, which never keeps them."""
    w = workload_from_config_file(GEMMA3_4B)
    t4 = Target.from_gpu(find_gpu("t4"), 1, None)
    assert estimate(w, t4).breakdown.activations_bytes > 2048 * 262_208 * 4
    a = advise(None, w, t4)
    assert a.verdict == "runs_with_tweaks"
    assert [t.id for t in a.tweaks][:1] == ["fused_loss"]


def test_gemma_2_counts_its_four_norms_per_layer() -> None:
    """Gemma2DecoderLayer has four RMSNorms (before and after attention and the MLP): gemma-2-2b's 2,614,341,888
    parameters (its model page), two more hidden-wide norms per layer than a LLaMA layer."""
    cfg = {"model_type": "gemma2", "hidden_size": 2304, "num_hidden_layers": 26, "num_attention_heads": 8,
           "num_key_value_heads": 4, "head_dim": 256, "intermediate_size": 9216, "vocab_size": 256000}
    assert int(workload_from_config(cfg, "config.json").model.params) == 2_614_341_888


def test_a_trial_of_the_vision_language_checkpoint_runs_its_decoder_alone() -> None:
    """`gpucheck trial gemma-3-4b-it/config.json` builds Gemma3ForCausalLM from text_config (the class's defaults
    fill what the file leaves out), and the estimate it is compared with leaves the image side out too."""
    from gpucheck.trial.calibrate import trial_workload
    from gpucheck.trial.models import model_for

    w = workload_from_config_file(GEMMA3_4B)
    builder, model = model_for(w)
    assert (builder, model["task"], model["config"]["model_type"]) == ("transformers", "causal-lm", "gemma3_text")
    assert trial_workload(w, None).model.aux_params == 0.0 < w.model.aux_params
