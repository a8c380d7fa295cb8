"""Qwen2.5-VL and Qwen3-VL given as their published config.json: vision-language checkpoints whose decoder is Qwen2's,
Qwen3's or Qwen3-MoE's layer for layer.

What a user notices: the job is accepted (it was refused as an unknown model_type), its parameters are the reference
implementation's to the parameter, the image tower is held frozen beside the decoder, and the trial builds the
decoder alone (transformers has no causal-LM class for these text models).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpucheck.hf_config import workload_from_config_file
from gpucheck.i18n import use_language
from tests.helpers import image_side_cost

HF = Path(__file__).resolve().parents[1] / "fixtures" / "hf"
Q25VL = HF / "qwen2.5-vl-7b-instruct" / "config.json"
Q3VL = HF / "qwen3-vl-8b-instruct" / "config.json"
Q3VL_MOE = HF / "qwen3-vl-30b-a3b" / "config.json"


# Counted by Hugging Face transformers 5.24 itself (Qwen2_5_VLForConditionalGeneration, Qwen3VLForConditionalGeneration,
# Qwen3VLMoeForConditionalGeneration built from these files on the meta device); the model pages name 8.29B, 8.77B
# and 31.1B (tests/fixtures/hf/SOURCES.md). Qwen3-VL-30B-A3B's decoder is Qwen3-30B-A3B's 30,532,122,624.
@pytest.mark.parametrize(("path", "total", "vision", "model_type"), [
    (Q25VL, 8_292_166_656, 676_550_144, "qwen2_5_vl"), (Q3VL, 8_767_123_696, 576_388_336, "qwen3_vl"),
    (Q3VL_MOE, 31_070_754_032, 538_631_408, "qwen3_vl_moe")])
def test_the_reference_implementations_parameter_counts(path: Path, total: int, vision: int,
                                                         model_type: str) -> None:
    m = workload_from_config_file(path).model
    assert int(m.params + m.aux_params) == total
    assert int(m.aux_params) == vision
    assert m.model_type == model_type  # what Liger Kernel's patch table keys on


def test_the_titles_name_the_checkpoint() -> None:
    assert workload_from_config_file(Q25VL).title == "Fine-tune Qwen2.5-VL (8.3B parameters)"
    with use_language("zh_CN"):
        assert workload_from_config_file(Q3VL_MOE).title_zh == "微调 Qwen3VLMoe（31.1B 参数，激活 3.4B）"


def test_the_image_tower_is_held_frozen_and_not_trained() -> None:
    """LoRA of Qwen2.5-VL 7B on an RTX 4090: the tower and merger's 677M parameters cost their 16-bit bytes and add
    no trainable parameter and no FLOPs to a text fine-tune."""
    weights, trainable, flops, side = image_side_cost(Q25VL)
    assert weights == pytest.approx(side * 2, rel=1e-6)
    assert (trainable, flops) == (0, 0)


@pytest.mark.parametrize(("path", "built_as"), [(Q25VL, "qwen2"), (Q3VL, "llama"), (Q3VL_MOE, "qwen3_moe")])
def test_the_trial_builds_the_decoder_of_the_same_sizes(path: Path, built_as: str) -> None:
    from gpucheck.trial.calibrate import trial_workload
    from gpucheck.trial.models import model_for

    w = workload_from_config_file(path)
    builder, model = model_for(w)
    cfg = model["config"]
    assert (builder, model["task"], cfg["model_type"]) == ("transformers", "causal-lm", built_as)
    assert (cfg["hidden_size"], cfg["num_hidden_layers"], cfg["vocab_size"]) == (w.model.hidden, w.model.layers,
                                                                                 w.model.vocab)
    assert trial_workload(w, None).model.aux_params == 0.0 < w.model.aux_params
