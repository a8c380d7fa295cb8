"""Advice: what a beginner should do next with a job — tweaks, bottlenecks, software, upgrades, cloud.

Pure: (Machine | None, Workload, Target, Estimate) → Advice. Used by the CLI, the wizard and the report.

    from gpucheck.advise import advise, advice_to_dict, format_advice
    adv = advise(machine, workload, Target.from_machine(machine))
    adv.verdict          # a gpucheck.verdict.Verdict: runs | tight | runs_with_tweaks | too_slow | does_not_fit |
                         # not_supported (only changes that keep what is trained count as tweaks)
    adv.alternatives     # what fits instead: LoRA / QLoRA for the same model, or a smaller model
    adv.tweaks           # ladder steps applied, each with Hugging Face settings; adv.snippet to copy
    adv.bottlenecks      # data loading, RAM, disk, PCIe, heat, PSU, battery — each with a fix
    adv.software         # driver / PyTorch build problems with the exact command
    adv.upgrades         # cheapest GPU that runs the job; RAM / SSD / PSU when they are the gap
    adv.cloud            # free tier, cheapest, fastest, cheapest in China — hours and whole-run cost
    adv.buy_vs_rent      # the upgrade's price against renting, break-even hours

Cloud options, upgrades and buy-vs-rent are worked out only when the job does not simply run here
(verdict other than "runs"); RAM/SSD/PSU upgrades whenever a bottleneck calls for one.
"""

from __future__ import annotations

from gpucheck.advise.model import (
    ADVICE_VERDICTS,
    Advice,
    Alternative,
    Bottleneck,
    BuyVsRent,
    CloudOption,
    SoftwareFix,
    Tweak,
    Upgrade,
)
from gpucheck.advise.plan import advise, cli_check_lines, facts_for_spec, facts_for_target, fit_verdict
from gpucheck.advise.present import advice_to_dict, format_advice, format_advice_brief, format_machine_advice

__all__ = [
    "ADVICE_VERDICTS",
    "Advice",
    "Alternative",
    "Bottleneck",
    "BuyVsRent",
    "CloudOption",
    "SoftwareFix",
    "Tweak",
    "Upgrade",
    "advise",
    "advice_to_dict",
    "format_advice",
    "format_advice_brief",
    "format_machine_advice",
    "facts_for_target",
    "facts_for_spec",
    "fit_verdict",
    "cli_check_lines",
]
