"""Issue 13 §7 "Recipes that work when pasted": a plan that reaches CPU offload is DeepSpeed ZeRO-Offload with
DeepSpeed's own CPU Adam, and the settings to copy are a config DeepSpeed and the Hugging Face Trainer accept.

Sources:
- DeepSpeed tutorial "ZeRO-Offload" (deepspeed.ai/tutorials/zero-offload): the optimizer step runs on the CPU
  in DeepSpeedCPUAdam, which needs the fp32 master parameters in CPU memory.
- Hugging Face Transformers docs, "DeepSpeed → Optimizer": offload works best with DeepSpeed's CPU Adam; any
  other optimizer beside offload needs "zero_force_ds_cpu_optimizer": false (DeepSpeed >= 0.8.3), i.e. a
  client optimizer such as `optim="paged_adamw_8bit"` is refused as pasted.
- DeepSpeed `estimate_zero2_model_states_mem_needs` (runtime/zero/stage_1_and_2.py), cpu_offload=True, one GPU:
  CPU memory = params × (4 master + 8 Adam momentum/variance + 4 fp32 gradients) = 16 B/param; GPU keeps the
  16-bit weights (2 B/param). Ren et al. 2021, ZeRO-Offload (arXiv 2101.06840): fp32 optimizer states and
  gradients on the CPU, 16-bit parameters on the GPU.
"""

from __future__ import annotations

import json

from gpucheck import estimate as E
from gpucheck.advise import advise
from gpucheck.catalog import find_gpu, get_workload
from gpucheck.cli import main

GIB = 1024**3


def _advice(workload: str, gpu: str, **overrides):
    w = E.apply_overrides(get_workload(workload), **overrides)
    t = E.Target.from_gpu(find_gpu(gpu), 1, None)
    e = E.estimate(w, t)
    return w, e, advise(None, w, t, e)


def _ds_config(snippet: str) -> dict:
    """Run the pasted ds_config lines as Python, as a user would."""
    code = snippet.split("from transformers import TrainingArguments")[0].split("from trl import SFTConfig")[0]
    scope: dict = {}
    exec(code, {}, scope)  # noqa: S102 - the recipe's own text, which must be valid Python
    return scope["ds_config"]


def test_8b_full_fine_tune_on_a_3090_offloads_with_deepspeeds_cpu_adam_not_8bit_adamw():
    # Before: "1. paged 8-bit AdamW  2. DeepSpeed ZeRO-Offload" and optim="paged_adamw_8bit" beside
    # offload_optimizer — DeepSpeed refuses that client optimizer with offload (HF docs, above)
    w, _e, a = _advice("llama3-8b-full", "RTX 3090")
    ids = [t.id for t in a.tweaks]
    assert "cpu_offload" in ids and "optimizer_8bit" not in ids
    assert "optim" not in a.settings and "paged_adamw_8bit" not in a.snippet and "optim=" not in a.snippet
    ds = _ds_config(a.snippet)
    assert ds["zero_optimization"]["offload_optimizer"]["device"] == "cpu"
    assert ds["optimizer"]["type"] == "AdamW"  # DeepSpeed builds DeepSpeedCPUAdam for it
    assert "zero_force_ds_cpu_optimizer" not in ds
    # without a batch size DeepSpeed stops: "Either train_batch_size or train_micro_batch_size_per_gpu ..."
    assert ds["train_micro_batch_size_per_gpu"] == "auto" and ds["bf16"] == {"enabled": "auto"}
    assert "deepspeed=ds_config" in a.snippet


def test_offload_ram_matches_deepspeeds_estimator_with_its_buffer():
    # DeepSpeed's estimator (deepspeed/runtime/zero/stage_1_and_2.py estimate_zero2_model_states_mem_needs,
    # cpu_offload: cpu_mem = total_params * max(4 * total_gpus, 16) * additional_buffer_factor, default 1.5):
    # 8,030,261,248 params on 1 GPU → 179.5 GiB of CPU RAM. Before: 16 B/param (119.7 GiB) without its buffer;
    # before that 83.7 GB, which counted 2 B/param of 8-bit Adam state in RAM
    w, _e, a = _advice("llama3-8b-full", "RTX 3090")
    offloaded = E.estimate(w, E.Target.from_gpu(find_gpu("RTX 3090"), 1, None),
                           E.apply_overrides(w, cpu_offload=True).train).ram_parts["offloaded_state"]
    assert abs(offloaded / GIB - 179.5) <= 0.5
    assert a.final_ram_bytes is not None and a.final_ram_bytes >= 16 * w.model.params
    assert a.final_ram_bytes / GIB > 100  # ~120 GB of state alone; no longer "83.7 GB"
    # and the GPU keeps the 16-bit weights only (2 B/param), which is what lets 24 GB hold an 8B model
    assert a.final_peak_vram_bytes is not None and a.final_peak_vram_bytes <= 24 * GIB


def test_configured_8bit_adamw_with_offload_is_counted_and_pasted_as_cpu_adam(capsys):
    # `--optimizer adamw-8bit --cpu-offload`: DeepSpeed still steps with its CPU Adam (fp32 states), so the
    # RAM is the same 16 B/param and the recipe carries no 8-bit optim
    assert main(["estimate", "llama3-8b-full", "--gpu", "RTX 3090", "--json", "--optimizer", "adamw-8bit",
                 "--cpu-offload"]) == 0
    eight = json.loads(capsys.readouterr().out)
    assert main(["estimate", "llama3-8b-full", "--gpu", "RTX 3090", "--json", "--cpu-offload"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert abs(eight["ram_gib"] - plain["ram_gib"]) < 0.05 * plain["ram_gib"]
    snip = eight["advice"]["snippet"]
    assert "paged_adamw_8bit" not in snip and "optim=" not in snip
    assert _ds_config(snip)["optimizer"]["type"] == "AdamW"


def test_cloud_offers_that_offload_say_how_much_ram_the_rented_machine_needs():
    # SGD: no pure-bf16 + 8-bit AdamW plan (issue 26 §6), so the cloud offers offload
    _w, _e, a = _advice("llama3-8b-full", "RTX 3090", optimizer="sgd")
    offload = [c for c in a.cloud if "cpu_offload" in c.tweaks]
    assert offload, [c.tweaks for c in a.cloud]
    for c in offload:
        assert "of RAM on the rented machine" in c.note
    assert all("rented machine" not in c.note for c in a.cloud if "cpu_offload" not in c.tweaks)
