"""Unsloth as a training stack (`--stack unsloth`): its memory as Unsloth's code keeps it (resources/factors.toml
[unsloth], [activations.unsloth]), checked on its published context-length table, and the ladder's rung that offers it
(gpucheck/advise/unsloth.py, resources/advice.toml [unsloth])."""

from __future__ import annotations

import dataclasses
import json

import pytest

from gpucheck import estimate as E
from gpucheck.advise import advise
from gpucheck.advise.unsloth import with_unsloth
from gpucheck.catalog import find_gpu, get_workload
from gpucheck.cli import main
from gpucheck.estimate.activations import transformer_activation_bytes
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.params import param_counts
from gpucheck.evidence import load_evidence
from gpucheck.hf_config import workload_from_config
from gpucheck.i18n import set_language, use_language
from tests.conftest import FIXTURES
from tests.core import accuracy as A
from tests.core.test_advise import advice_for, machine

GIB = 1024**3
UNSLOTH_COLUMN = [r for r in load_evidence() if r.id.startswith("unsloth-qlora-")]


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    set_language("en")


def _unsloth(w):
    return dataclasses.replace(w, train=with_unsloth(w.train))


def test_the_published_table_has_nine_unsloth_rows_from_8_to_80_gb():
    assert sorted(r.measured.value for r in UNSLOTH_COLUMN) == [8, 12, 16, 24, 40, 48, 48, 80, 80]
    assert all(r.train.stack == "unsloth" and r.role == "calibration" for r in UNSLOTH_COLUMN)


@pytest.mark.parametrize("row", UNSLOTH_COLUMN, ids=lambda r: r.id)
def test_the_longest_sequence_unsloth_fits_is_estimated_near_the_card(row):
    # Unsloth's table: the longest padded sequence that fits (Llama 3.1 8B from 2,972 tokens in 8 GB to 342,733 in 80 GB;
    # Llama 3.3 70B 12,106 in 48 GB, 89,389 in 80 GB). The estimate's need at that length is the card's memory within
    # the error the Hugging Face column of the same table shows (-3 % and -8 %): never far over (it would say a
    # published run does not fit) nor far under (it would promise lengths that run out of memory)
    assert -0.11 <= A.memory_error(row) <= 0.06


def test_the_hugging_face_column_needs_many_times_the_memory_unsloth_does_at_the_same_length():
    # the same table, 16 GB: Hugging Face + FA2 fits 2,551 tokens, Unsloth 40,724. At 2,551 tokens Unsloth's estimate
    # is well under the Hugging Face one (4-bit layers and 16-bit embeddings, no logits, checkpoints in RAM)
    hf = next(r for r in load_evidence() if r.id == "unsloth-hf-qlora-16gb")
    u = dataclasses.replace(hf, train=dataclasses.replace(hf.train, stack="unsloth"))
    assert A.run(u).peak_vram_bytes < A.run(hf).peak_vram_bytes - 4 * GIB


def test_the_checkpoints_wait_in_cpu_ram_and_two_buffers_stay_on_the_gpu():
    # Llama 3 8B QLoRA at 8,192 tokens: every layer's 16-bit input goes to pinned CPU RAM (32 x 8,192 x 4,096 x 2 B
    # = 2 GiB, exact given the settings); the GPU keeps the double buffer
    w = get_workload("llama3-8b-qlora")
    w = dataclasses.replace(w, train=dataclasses.replace(w.train, seq_len=8192))
    u = _unsloth(w)
    e = E.estimate(u, E.Target.from_gpu(find_gpu("rtx 4090")))
    assert e.ram_parts["offloaded_checkpoints"] == 32 * 8192 * 4096 * 2
    plain = E.estimate(w, E.Target.from_gpu(find_gpu("rtx 4090")))
    assert "offloaded_checkpoints" not in plain.ram_parts
    assert e.ram_bytes - plain.ram_bytes >= 2 * GIB * 0.99
    f = load_factors()
    ckpt_off = transformer_activation_bytes(u.model, u.train, f)
    ckpt_on = transformer_activation_bytes(u.model, dataclasses.replace(u.train, stack="fused"), f)
    assert ckpt_on > ckpt_off  # the fused stack keeps all 32 checkpoints and the Hugging Face layer count


def test_the_frozen_layers_stay_16_bit_under_unsloth():
    # PEFT's prepare_model_for_kbit_training casts the embeddings and the output layer to fp32; Unsloth leaves them
    # as loaded: Llama 3 8B's 1.05 B unquantized weights at 2 B instead of 4 B
    w = get_workload("llama3-8b-qlora")
    t = E.Target.from_gpu(find_gpu("rtx 4090"))
    pc = param_counts(w.model, w.train)
    rest = w.model.params - pc.quantized
    peft = dataclasses.replace(w, train=dataclasses.replace(w.train, qlora_upcast=True))
    saved = E.estimate(peft, t).breakdown.weights_bytes - E.estimate(_unsloth(peft), t).breakdown.weights_bytes
    assert saved == pytest.approx(rest * 2, rel=0.01)


def test_with_lora_dropout_unsloth_keeps_what_peft_layers_keep():
    # Unsloth patches its fast LoRA kernels in only at dropout 0; with dropout its adapters are PEFT's layers
    w = get_workload("llama3-8b-qlora")
    f = load_factors()
    fast = transformer_activation_bytes(w.model, dataclasses.replace(w.train, stack="unsloth", lora_dropout=0.0), f)
    peft = transformer_activation_bytes(w.model, dataclasses.replace(w.train, stack="unsloth", lora_dropout=0.05), f)
    # Hugging Face's layer keeps more than Unsloth's kernels (+37 % here, with a bitsandbytes that keeps no 4-bit
    # layer's input: 0.43.2 and newer), and the older bitsandbytes' kept inputs come back with PEFT's layers
    assert peft > fast * 1.3
    old_bnb = dataclasses.replace(w.train, stack="unsloth", lora_dropout=0.05, qlora_keeps_input=True)
    assert transformer_activation_bytes(w.model, old_bnb, f) > peft


def _rtx4060_qlora():
    w = get_workload("llama3-8b-qlora")
    return w, advise(None, w, E.Target.from_gpu(find_gpu("rtx 4060")))


def test_an_8gb_card_runs_an_8b_qlora_with_unsloth():
    # an RTX 4060 (8 GB): the Hugging Face run needs about 13 GiB, 9.6 with every change that keeps its stack (Unsloth's
    # README: Hugging Face + FA2 runs out of memory on 8 GB at any length); Unsloth fits it, loses nothing, and the
    # settings to copy are Unsloth's own
    w, a = _rtx4060_qlora()
    assert a.verdict == "runs_with_tweaks"
    assert [t.id for t in a.tweaks] == ["unsloth"]
    tweak = a.tweaks[0]
    assert tweak.loses == "nothing" and tweak.settings == {"unsloth": True}
    assert "FastLanguageModel.from_pretrained(" in a.snippet and 'use_gradient_checkpointing="unsloth"' in a.snippet
    assert "load_in_4bit=True" in a.snippet and "lora_dropout=0," in a.snippet
    assert "LoraConfig" not in a.snippet and "BitsAndBytesConfig" not in a.snippet
    before = E.estimate(w, E.Target.from_gpu(find_gpu("rtx 4060")))
    assert before.peak_vram_bytes > 8 * GIB > tweak.peak_vram_bytes


def test_the_unsloth_advice_reads_in_chinese():
    with use_language("zh_CN"):
        _, a = _rtx4060_qlora()
    assert a.tweaks[0].title == "改用 Unsloth 训练"
    assert "CPU 内存" in a.tweaks[0].cost


def test_no_unsloth_where_the_pc_lacks_the_ram_its_checkpoints_take():
    # the recorded RTX 4060 Laptop under WSL2 gives Linux 7.5 GiB of RAM, short already for loading the model: Unsloth,
    # which fits the 8 GB GPU by adding RAM, is at most tried there, and the advice says the RAM is what stops the job
    _, _, a = advice_for("rtx4060-laptop-wsl2", "llama3-8b-qlora")
    assert a.verdict == "does_not_fit" and a.final_limit == "ram" and "RAM" in a.summary
    assert a.final_ram_bytes > 7.5 * GIB
    assert [x.kind for x in a.alternatives] == ["smaller_model"]


def test_no_unsloth_where_it_does_not_run_or_does_not_apply():
    # each job needs a change here, so the ladder runs: a Pascal card (Unsloth needs compute capability 7.0), an Apple
    # GPU, GPT-2 (no fast path for its model type), a full fine-tune
    a = advise(None, get_workload("llama3-8b-qlora"), E.Target.from_gpu(find_gpu("gtx 1070")))
    assert "unsloth" not in [t.id for t in a.tweaks]
    m = machine("m1-macbookair")  # the Qwen job with the Hugging Face loss, which needs a change on this Mac
    qwen = get_workload("qwen2.5-1.5b-lora")
    qwen = dataclasses.replace(qwen, train=dataclasses.replace(qwen.train, cross_entropy="full"))
    a = advise(m, qwen, E.Target.from_machine(m))
    assert a.tweaks and "unsloth" not in [t.id for t in a.tweaks]
    gpt2 = workload_from_config(json.loads((FIXTURES / "hf" / "gpt2" / "config.json").read_text()), "config.json")
    gpt2 = E.apply_overrides(gpt2, method="lora")
    a = advise(None, gpt2, E.Target.from_gpu(find_gpu("rtx 4060")))
    assert "unsloth" not in [t.id for t in a.tweaks]
    a = advise(None, get_workload("llama3-8b-full"), E.Target.from_gpu(find_gpu("a100 80gb")))
    assert "unsloth" not in [t.id for t in a.tweaks]


def test_estimate_with_the_unsloth_stack_on_the_command_line(capsys):
    rc = main(["estimate", "llama3-8b-qlora", "--gpu", "rtx 4060", "--stack", "unsloth", "--lang", "en"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "Verdict: Runs" in out and "Unsloth (its Triton kernels, checkpoints kept in CPU RAM)" in out


def test_the_estimate_names_the_stack_the_advice_switches_to(capsys):
    # the time with the advised changes is Unsloth's: the stack row says so, beside the one as configured
    rc = main(["estimate", "llama3-8b-qlora", "--gpu", "rtx 4060", "--lang", "en"])
    out = capsys.readouterr().out
    assert rc == 0
    row = next(ln for ln in out.splitlines() if ln.startswith("Software stack"))
    assert "eager PyTorch" in row and "→ Unsloth" in row and row.endswith("with the advised changes")
