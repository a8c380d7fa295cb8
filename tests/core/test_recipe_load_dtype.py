"""The dtype the printed recipe loads a Hugging Face model in is the one the estimate prices.

from_pretrained loads a checkpoint in the dtype its config names since transformers 5 ('dtype ... defaults to "auto"',
modeling_utils.py), in fp32 before; TRL's SFTTrainer given a model name loads it in fp32 ('If dtype is not specified in
args.model_init_kwargs, it defaults to float32', trl/trainer/sft_trainer.py). Without the line a user of either gets
other weights than estimated: a LoRA base twice as large, or a mixed-precision run that trains in pure bf16.
"""

from __future__ import annotations

from gpucheck import estimate as E
from gpucheck.advise import advise
from gpucheck.catalog import find_gpu, get_workload
from gpucheck.i18n import use_language


def _snippet(job: str, gpu: str) -> str:
    a = advise(None, get_workload(job), E.Target.from_gpu(find_gpu(gpu)))
    assert a.verdict == "runs_with_tweaks", a.verdict  # a recipe is printed only for changed settings
    return a.snippet


def test_a_lora_recipe_loads_the_frozen_model_in_16_bits():
    s = _snippet("qwen2.5-1.5b-lora", "rtx 3060 laptop")
    assert "load it with dtype=torch.bfloat16" in s and "float32" not in s


def test_a_mixed_precision_full_fine_tune_loads_fp32_weights():
    s = _snippet("llama3-8b-full", "rtx 4090")
    assert "bf16=True" in s and "dtype=torch.float32" in s and "--precision bf16-pure" in s


def test_the_load_line_reads_in_chinese():
    with use_language("zh_CN"):
        s = _snippet("qwen2.5-1.5b-lora", "rtx 3060 laptop")
    assert "用 dtype=torch.bfloat16 加载" in s


def test_a_packed_recipe_turns_off_what_trls_sftconfig_turns_on():
    """TRL's SFTConfig turns gradient checkpointing on by default ('gradient_checkpointing: Defaults to True instead of
    False', trl/trainer/sft_config.py): a packed job estimated without it says so, or its run is slower than estimated."""
    w = E.apply_overrides(get_workload("qwen2.5-1.5b-lora"), grad_checkpointing=False)
    a = advise(None, w, E.Target.from_gpu(find_gpu("rtx 3060 12gb")))
    assert "SFTConfig(" in a.snippet
    assert "gradient_checkpointing=False" in a.snippet and "gradient_checkpointing=True" not in a.snippet
