"""Training settings a user overrides (`apply_overrides`), checked, and the error that names a bad one.

The core knows settings by their own names (`seq_len`, `lora_rank`, `gpus`); how a caller spells them is
the caller's business: the command line shows `BadSetting.named(cli_flag)` ("--seq-len: …"), and
`str(error)` names the setting itself ("seq_len: …").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from gpucheck.choices import LORA_TARGETS, METHODS, OPTIMIZERS, PRECISIONS, STACKS, ZERO_STAGES
from gpucheck.errors import BadInput
from gpucheck.i18n import N_, tr
from gpucheck.records import ModelSpec, TrainSpec, Workload

OVERRIDE_LIMITS = {
    "batch": (1, 65536),
    "grad_accum": (1, 65536),
    "seq_len": (1, 1_048_576),
    "image_size": (8, 16384),
    "lora_rank": (1, 65536),
    "samples": (1, 10**13),
    "tokens": (1, 10**16),
    "avg_seq_len": (1, 1_048_576),
}
CHOICES: dict[str, tuple[Any, ...]] = {
    "method": METHODS, "precision": PRECISIONS, "optimizer": OPTIMIZERS, "stack": STACKS,
    "lora_targets": LORA_TARGETS, "zero_stage": ZERO_STAGES}
SWITCHES = ("grad_checkpointing", "packing", "cpu_offload")
SETTINGS = (*OVERRIDE_LIMITS, *CHOICES, *SWITCHES, "epochs", "lora_dropout")


class BadSetting(BadInput):
    """A setting the estimate cannot take. `template` (a catalog string) names it as {flag}, and any other
    setting it mentions by the names in `settings` ({other} → "image_size")."""

    def __init__(self, template: str, setting: str, settings: Mapping[str, str] | None = None, **params: Any):
        self.template, self.setting = template, setting
        self.settings = dict(settings or {})
        self.params = params
        super().__init__(self.named(str))

    def named(self, name_of: Callable[[str], str]) -> str:
        """The message with each setting called `name_of(setting)` (the CLI: "--seq-len")."""
        others = {k: name_of(v) for k, v in self.settings.items()}
        return tr(self.template, flag=name_of(self.setting), **others, **self.params)


# the most GPUs one job is estimated on: the largest published training runs (Llama 3 405B on 16,384 H100s, Meta's
# 'The Llama 3 Herd of Models', 2024, section 3.3)
MAX_GPUS = 16384


def check_gpus(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1 or n > MAX_GPUS:
        raise BadSetting(N_("{flag}: expected a whole number between 1 and {most}, got {value}"), "gpus",
                         value=n, most=MAX_GPUS)
    return n


def check_machines(m: Any, gpus: int) -> int:
    """Machines that hold `gpus` GPUs: a whole number from 1 to the number of GPUs."""
    if isinstance(m, bool) or not isinstance(m, int) or m < 1 or m > gpus:
        raise BadSetting(N_("{flag}: expected a whole number between 1 and {most}, got {value}"), "machines",
                         most=gpus, value=m)
    return m


def _checked(key: str, value: Any) -> Any:
    if key in CHOICES:
        if value not in CHOICES[key]:
            raise BadSetting(N_("{flag}: expected one of {choices}, got {value}"), key,
                             choices=", ".join(str(c) for c in CHOICES[key]), value=value)
    elif key in SWITCHES:
        if not isinstance(value, bool):
            raise BadSetting(N_("{flag}: expected on or off"), key)
    elif key == "epochs":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not (0 < value <= 1e6) \
                or value != value:
            raise BadSetting(N_("{flag}: expected a number above 0 and at most 1000000, got {value}"), key,
                             value=value)
        value = float(value)
    elif key == "lora_dropout":  # nn.Dropout's probability; 1 would zero every adapter input
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not (0 <= value < 1):
            raise BadSetting(N_("{flag}: expected a probability from 0 up to (not including) 1, got {value}"), key,
                             value=value)
        value = float(value)
    else:
        lo, hi = OVERRIDE_LIMITS[key]
        if isinstance(value, bool) or not isinstance(value, int) or not (lo <= value <= hi):
            raise BadSetting(N_("{flag}: expected a whole number from {lo} to {hi}, got {value}"), key,
                             lo=lo, hi=hi, value=value)
    return value


def fits_avg_seq_len(workload: Workload) -> bool:
    """Whether a mean sample length (`avg_seq_len`) means anything for the job: a transformer on text, not a ViT (a
    token per patch) nor Whisper (the feature extractor pads every clip to 30 seconds: model.mel_bins)."""
    t, m = workload.train, workload.model
    return m.arch == "transformer" and t.seq_len is not None and not t.image_size and not m.mel_bins


# How a message names a model architecture ("mnist-cnn is a CNN"): technical names, the same in every language.
_ARCH_NAMES = {"cnn": "CNN", "unet": "U-Net", "transformer": "transformer"}


def _check_applies(workload: Workload, given: Mapping[str, Any], train_changes: Mapping[str, Any]) -> None:
    """A setting that means nothing for this job is an error, not silently ignored: packing, a token budget and
    the mean sample length only act on language-model (transformer) jobs, the LoRA rank and targets only on
    LoRA/QLoRA."""
    arch = workload.model.arch
    name = _ARCH_NAMES.get(arch, arch)
    if arch != "transformer":
        for key in ("packing", "tokens", "avg_seq_len"):
            if given.get(key) is not None:
                raise BadSetting(N_("{flag} applies to language-model jobs; {id} is a {arch}"), key,
                                 id=workload.id, arch=name)
    if arch == "transformer" and given.get("avg_seq_len") is not None and not fits_avg_seq_len(workload):
        if workload.train.image_size:
            raise BadSetting(N_("{flag} applies to jobs on text; {id} works on images"), "avg_seq_len", id=workload.id)
        raise BadSetting(N_("{flag}: {id} pads every clip to {seq} encoder positions (Whisper's 30 seconds), so the "
                            "clips' length does not change its work"), "avg_seq_len", id=workload.id,
                         seq=workload.train.seq_len)
    method = train_changes.get("method", workload.train.method)
    if method not in ("lora", "qlora"):
        for key in ("lora_rank", "lora_targets", "lora_dropout"):
            if given.get(key) is not None:
                raise BadSetting(N_("{flag} applies to LoRA and QLoRA, not to a full fine-tune; use {other} lora"),
                                 key, {"other": "method"}, id=workload.id)


def pretrained_positions(m: ModelSpec, t: TrainSpec) -> int | None:
    """The longest sequence a pretrained transformer takes (ModelSpec.max_positions); None where the model states
    none, or where the job pre-trains from scratch, which sizes its own positions."""
    if m.arch != "transformer" or not m.max_positions or t.from_scratch:
        return None
    return m.max_positions


def position_table_limit(workload: Workload) -> int | None:
    """The longest sequence a pretrained table of absolute position embeddings takes (BERT 512, GPT-2 1,024,
    Whisper's encoder 1,500 frames: learned_positions), which has no row past its end; None for rotary positions
    (the context the model was trained on, past which it still runs) and where pretrained_positions is None."""
    most = pretrained_positions(workload.model, workload.train)
    return most if most and workload.model.learned_positions else None


def apply_overrides(workload: Workload, **overrides: Any) -> Workload:
    """The workload with overrides applied (None = keep). A bad value → BadSetting naming the setting."""
    train_changes: dict[str, Any] = {}
    data_changes: dict[str, Any] = {}
    for key, value in overrides.items():
        if value is None:
            continue
        if key not in SETTINGS:
            raise BadInput(tr("unknown setting '{key}'", key=key))
        value = _checked(key, value)
        if key in ("samples", "epochs", "tokens", "avg_seq_len"):
            data_changes[key] = value
            if key in ("samples", "epochs") and "tokens" not in data_changes:
                data_changes["tokens"] = None  # a sample count replaces the job's token budget
        else:
            train_changes[key] = value
    if "precision" in train_changes:
        train_changes["precision_chosen"] = True  # asked for: switching it on this GPU is a change to report
    arch = workload.model.arch
    if train_changes.get("method") == "qlora" and arch != "transformer":
        raise BadSetting(N_("{flag} qlora: needs a transformer model; {id} is a {arch}"), "method",
                         id=workload.id, arch=arch)
    if train_changes.get("method") in ("lora", "qlora") and (workload.train.from_scratch
                                                              or arch not in ("transformer", "unet")):
        # LoRA trains adapters on frozen pretrained weights (Hu et al. 2021, arXiv 2106.09685; PEFT adapts
        # transformer and U-Net layers): from scratch, or on a CNN, it would train 0 parameters
        raise BadSetting(N_("{flag} {value}: {id} has nothing for LoRA to adapt (it trains a {arch} from scratch or "
                            "has no transformer or U-Net layers); use {other} full"), "method", {"other": "method"},
                         id=workload.id, arch=arch, value=train_changes["method"])
    _check_applies(workload, overrides, train_changes)
    if "seq_len" in train_changes and arch != "transformer":
        raise BadSetting(N_("{flag}: {id} is not a transformer; use {other}"), "seq_len",
                         {"other": "image_size"}, id=workload.id)
    seq = train_changes.get("seq_len", workload.train.seq_len)
    most = position_table_limit(workload)
    if seq and "seq_len" in train_changes and most and seq > most:
        raise BadSetting(N_("{flag} {value}: the model of {id} has position embeddings for {most} tokens and no more "
                            "(a longer sequence stops with an index error); give at most {most}"), "seq_len",
                         value=seq, id=workload.id, most=most)
    if "avg_seq_len" in data_changes and seq and data_changes["avg_seq_len"] > seq:
        # the trainers cut longer samples to the row (the Trainer's max_length / max_seq_length truncation)
        raise BadSetting(N_("{flag} {value}: longer than the sequence length {seq}, to which longer samples are cut; "
                            "give at most {seq}, or a longer {other}"), "avg_seq_len", {"other": "seq_len"},
                         value=data_changes["avg_seq_len"], seq=seq)
    if "image_size" in train_changes and arch == "transformer":
        raise BadSetting(N_("{flag}: {id} is a transformer; use {other}"), "image_size",
                         {"other": "seq_len"}, id=workload.id)
    out = workload
    if train_changes:
        out = dataclasses.replace(out, train=dataclasses.replace(out.train, **train_changes))
    if data_changes:
        out = dataclasses.replace(out, data=dataclasses.replace(out.data, **data_changes))
    return out
