"""Decoders of the LLaMA lineage whose layers differ in their norms and biases, given as their config.json: OLMo 2
(and OLMo 3: norms after each sublayer, q / k norms over the whole projections), SmolLM3 (LLaMA's layer, tied
embeddings) and GLM-4-0414 (four norms per layer, biases on q, k and v only).

What a user notices: each is accepted (each was refused as an unknown model_type), its parameters are the publisher's
to the parameter, and the fused-loss advice that Liger Kernel's patch table allows for its model type is offered.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpucheck.advise.fused_loss import offered
from gpucheck.hf_config import workload_from_config, workload_from_config_file

HF = Path(__file__).resolve().parents[1] / "fixtures" / "hf"


# the Hugging Face model pages' safetensors totals: allenai/OLMo-2-0425-1B 1,484,916,736; HuggingFaceTB/SmolLM3-3B
# 3,075,098,624; THUDM/GLM-4-9B-0414 9,400,279,040 (with a bias on GLM-4's output projection too, or two norms a
# layer, it would miss by 40 × 4,096 or 80 × 4,096)
@pytest.mark.parametrize(("folder", "total", "title"), [
    ("olmo-2-0425-1b", 1_484_916_736, "Fine-tune Olmo2 (1.5B parameters)"),
    ("smollm3-3b", 3_075_098_624, "Fine-tune SmolLM3 (3.1B parameters)"),
    ("glm-4-9b-0414", 9_400_279_040, "Fine-tune Glm4 (9.4B parameters)")])
def test_the_publishers_parameter_counts(folder: str, total: int, title: str) -> None:
    w = workload_from_config_file(HF / folder / "config.json")
    assert int(w.model.params) == total
    assert w.title == title


def test_olmo_2_7b_and_its_norms_over_whole_projections() -> None:
    """allenai/OLMo-2-1124-7B: 7,298,617,344 parameters (its model page), of them 32 layers × (4,096 + 4,096) in
    the q and k norms (Olmo2Attention: RMSNorm(num_attention_heads × head_dim), RMSNorm(num_key_value_heads ×
    head_dim)); OLMo 3 has the same layer."""
    cfg = {"model_type": "olmo2", "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
           "num_attention_heads": 32, "num_key_value_heads": 32, "vocab_size": 100352, "tie_word_embeddings": False}
    assert int(workload_from_config(cfg, "config.json").model.params) == 7_298_617_344
    olmo3 = dict(cfg, model_type="olmo3")
    assert workload_from_config(olmo3, "config.json").model.params == 7_298_617_344


@pytest.mark.parametrize(("folder", "model_type"), [
    ("olmo-2-0425-1b", "olmo2"), ("smollm3-3b", "smollm3"), ("glm-4-9b-0414", "glm4")])
def test_liger_s_fused_loss_is_offered_for_its_model_types(folder: str, model_type: str) -> None:
    w = workload_from_config_file(HF / folder / "config.json")
    assert w.model.model_type == model_type
    assert offered(w, w.train, "cuda", 8.9)


def test_mistral_small_3_1_counts_its_pixtral_tower_beside_the_decoder() -> None:
    """mistralai/Mistral-Small-3.1-24B-Instruct-2503 (Mistral3ForConditionalGeneration): 24,011,361,280 parameters (its
    model page) = the Mistral decoder's 23,572,403,200 and the image side's 438,958,080 (the Pixtral tower: patch
    convolution, 24 layers of bias-free projections and gated MLP; the projector: RMSNorm, 2 × 2 patch merger, two
    linears into the 5,120-wide text), which a text fine-tune loads frozen."""
    w = workload_from_config_file(HF / "mistral-small-3.1-24b" / "config.json")
    assert (int(w.model.params), int(w.model.aux_params)) == (23_572_403_200, 438_958_080)
    assert w.title == "Fine-tune Mistral3 (24.0B parameters)"
    assert w.model.model_type == "mistral"
