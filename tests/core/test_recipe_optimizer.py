"""The optimizer the printed recipe sets is the one the estimate priced.

The QLoRA jobs train with AdamW (their `train.optimizer`), and the assumptions line says so; the recipe used to set
`optim="paged_adamw_8bit"` for every QLoRA job regardless, so a user read "AdamW" above a snippet that ran another
optimizer. 8-bit AdamW (2 B of state per trained weight instead of 8; bitsandbytes' paged variant, as the QLoRA paper's
code trains, Dettmers et al. 2023, arXiv 2305.14314 §2) is now printed where it is priced: a job set to it, or the
advice's own 8-bit step.
"""

from __future__ import annotations

from gpucheck import estimate as E
from gpucheck.advise import advise
from gpucheck.catalog import find_gpu, get_workload


def _advice(job: str, gpu: str, **overrides):
    w = E.apply_overrides(get_workload(job), **overrides)
    t = E.Target.from_gpu(find_gpu(gpu), 1, None)
    e = E.estimate(w, t)
    return e, advise(None, w, t, e)


def test_a_qlora_recipe_runs_the_adamw_its_estimate_prices():
    e, a = _advice("llama3-8b-qlora", "rtx 3060 12gb")
    assert a.verdict == "runs_with_tweaks" and a.snippet  # a recipe is printed
    assert any("AdamW" in line and "8-bit" not in line for line in e.assumptions)
    assert "optim=" not in a.snippet  # the Trainer's default: torch's AdamW
    assert "load_in_4bit=True" in a.snippet


def test_a_qlora_job_set_to_8bit_adamw_prints_the_paged_8bit_optimizer_and_prices_its_smaller_state():
    e32, a32 = _advice("llama3-8b-qlora", "rtx 3060 12gb")
    e8, a8 = _advice("llama3-8b-qlora", "rtx 3060 12gb", optimizer="adamw-8bit")
    assert 'optim="paged_adamw_8bit"' in a8.snippet
    # 8-bit AdamW keeps 2 B per trained weight where torch's AdamW keeps two states in the adapters' bf16 (4 B)
    assert e8.breakdown.optimizer_bytes > 2e6 and e32.breakdown.optimizer_bytes >= 1.9 * e8.breakdown.optimizer_bytes
