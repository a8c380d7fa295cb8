"""The settings the core can take beyond the basic ones — LoRA targets and dropout, pure BF16, the software stack, ZeRO
stage and CPU offload on several GPUs, sequence packing — are controls on the jobs page. Changing one
recomputes the job at once, and the figures shown are those `gpucheck estimate --json` gives with the same
flags (one story). The time reads as a range with the stack it assumes, in the app and in the report.

Machines are the recorded scans of tests/fixtures/machines (each names its source); no figure is checked
against a number of our own: each view against the command line.
"""

from __future__ import annotations

import json

import pytest

from gpucheck.cli import main as cli_main
from gpucheck.machine import Machine
from gpucheck.report import build_report
from gpucheck.report.figures import (
    alternative_lines,
    stack_text,
    tight_advice,
    tight_text,
    time_range_text,
    time_text,
)
from tests.ui.conftest import machine_path

GIB = 1024**3


def _jobs(wizard, *words):
    path = machine_path(*words)
    assert wizard.open_machine_file(str(path))
    wizard.next()
    wizard.next()
    return path, wizard.jobs


def _cli(capsys, job: str, path, *flags: str) -> dict:
    capsys.readouterr()
    assert cli_main(["estimate", job, "--machine", str(path), "--json", *flags]) == 0
    return json.loads(capsys.readouterr().out)


def _agrees(wizard, job: str, x: dict) -> None:
    """The app's figures for the job are the command line's."""
    s, page = wizard.session, wizard.jobs
    est, adv = s.estimate(job), s.advice(job)
    assert round(est.peak_vram_bytes / GIB, 2) == x["peak_vram_gib"]
    assert (est.total_hours is None) == (x["total_hours"] is None)
    if est.total_hours is not None:
        assert abs(est.total_hours - x["total_hours"]) < 0.001
    assert page.verdict_of(job) == adv.verdict == x["verdict"]
    assert est.stack == x["stack"]
    # the table shows the recomputed job (its time cell is the figures' own)
    row = page.row_of(job)
    assert page.table.item(row, 2).text() == time_text(s.figures(job))


def _pick(combo, code) -> None:
    combo.setCurrentIndex(combo.findData(code))


def test_lora_targets_recompute_and_agree_with_the_cli(wizard, capsys):
    path, page = _jobs(wizard, "rtx3060")
    job = "llama3-8b-qlora"
    page.select(job)
    assert page.lora_targets.isEnabled() and page.lora_targets.currentData() == "qv"
    before = wizard.session.estimate(job)
    _pick(page.lora_targets, "all-linear")
    assert wizard.session.train_for(job).lora_targets == "all-linear"
    after = wizard.session.estimate(job)
    assert after.trainable_params > before.trainable_params  # every linear layer gets an adapter
    _agrees(wizard, job, _cli(capsys, job, path, "--lora-targets", "all-linear"))
    # shown in words, not as the command line's codes
    assert all(page.lora_targets.itemText(i) not in ("qv", "all-linear") for i in range(page.lora_targets.count()))
    # a full fine-tune has no LoRA targets: greyed out, and says why
    _pick(page.method, "full")
    assert not page.lora_targets.isEnabled() and "LoRA" in page.lora_targets.toolTip()


def test_lora_dropout_changes_the_memory_shown_and_agrees_with_the_cli(wizard, capsys):
    """LoRA dropout above 0 keeps a copy of each adapted layer's input (gpucheck/estimate/lora_dropout.py): on a
    LoRA job without gradient checkpointing, adapting every linear layer, dropout 0 shows a smaller need, the
    command line's figure for --lora-dropout 0; the control sits with the LoRA targets and is greyed out where
    they are."""
    path, page = _jobs(wizard, "rtx3060")
    job = "qwen2.5-1.5b-lora"
    page.select(job)
    assert page.lora_dropout.isEnabled() and page.lora_dropout.value() == 0.05  # the job's own setting
    assert page.lora_dropout.singleStep() == 0.05 and page.lora_dropout.minimum() == 0
    tip = page.lora_dropout.toolTip()  # what it costs, in the words of `estimate --help`
    assert "copy of its input in VRAM" in tip and "0 keeps none" in tip and "0.05–0.1" in tip
    _pick(page.lora_targets, "all-linear")
    page.checkpointing.setChecked(False)
    bar = page.table.cellWidget(page.row_of(job), 3)
    shown, before = bar.toolTip(), wizard.session.estimate(job).peak_vram_bytes
    page.lora_dropout.setValue(0)
    assert wizard.session.train_for(job).lora_dropout == 0
    bar = page.table.cellWidget(page.row_of(job), 3)
    assert bar.toolTip() != shown and wizard.session.estimate(job).peak_vram_bytes < before
    _agrees(wizard, job, _cli(capsys, job, path, "--lora-targets", "all-linear", "--no-grad-checkpointing",
                              "--lora-dropout", "0"))
    # any value above 0 keeps the copies: the need comes back, the same as at the default
    page.lora_dropout.stepBy(2)
    assert wizard.session.train_for(job).lora_dropout == 0.1
    assert wizard.session.estimate(job).peak_vram_bytes == before
    # the tooltip in Chinese names 显存 (VRAM), as the command line's help does
    wizard.switch_language("zh_CN")
    assert "显存" in page.lora_dropout.toolTip() and "0.05–0.1" in page.lora_dropout.toolTip()
    assert page.labels["dropout"].text() == "LoRA dropout 比例(&D)"
    wizard.switch_language("en")
    # a full fine-tune has no adapters: greyed out, saying why, and the job's setting is kept
    _pick(page.method, "full")
    assert not page.lora_dropout.isEnabled() and "LoRA" in page.lora_dropout.toolTip()
    assert wizard.session.train_for(job).lora_dropout == 0.1
    page.select("llama3-8b-full")
    assert not page.lora_dropout.isEnabled() and not page.labels["dropout"].isEnabled()
    # a U-Net's LoRA: the estimate counts no dropout copies there, so the control says it would change nothing
    page.select("sd15-lora")
    assert not page.lora_dropout.isEnabled() and "transformer" in page.lora_dropout.toolTip()


def test_pure_bf16_and_the_stack_agree_with_the_cli(wizard, capsys):
    path, page = _jobs(wizard, "rtx3060")
    job = "gpt2-124m-pretrain"
    page.select(job)
    mixed = wizard.session.estimate(job)
    _pick(page.precision, "bf16-pure")
    pure = wizard.session.estimate(job)
    # pure BF16 keeps no fp32 master weights: less memory for the same model (issue 13 §9)
    assert pure.peak_vram_bytes < mixed.peak_vram_bytes
    _pick(page.stack, "fused")
    _agrees(wizard, job, _cli(capsys, job, path, "--precision", "bf16-pure", "--stack", "fused"))
    fig = wizard.session.figures(job)
    tip = page.table.item(page.row_of(job), 2).toolTip()
    assert stack_text("fused") in tip and time_range_text(fig) in tip
    wizard.next()
    text = wizard.details.time_text.text()
    assert stack_text("fused") in text and time_range_text(fig) in text and "estimate" in text


def test_zero_stage_needs_several_gpus_and_offload_a_cuda_or_rocm_gpu(wizard, capsys):
    _path, page = _jobs(wizard, "m1")
    page.select("llama3-8b-full")
    assert not page.cpu_offload.isEnabled() and "NVIDIA or AMD" in page.cpu_offload.toolTip()

    path, page = _jobs(wizard, "rtx3060")
    job = "llama3-8b-full"
    page.select(job)
    assert not page.zero_stage.isEnabled() and "several GPUs" in page.zero_stage.toolTip()
    # ZeRO-Offload on one GPU: the advice offers it on this card, so the control is there too
    assert page.cpu_offload.isEnabled()
    page.cpu_offload.setChecked(True)
    _agrees(wizard, job, _cli(capsys, job, path, "--cpu-offload"))

    path, page = _jobs(wizard, "h100x8")
    job = "llama3-8b-full"
    page.select(job)
    page.reset_settings()  # the settings chosen above belong to the job, not to the machine
    assert page.zero_stage.isEnabled() and page.cpu_offload.isEnabled()
    _pick(page.zero_stage, 2)
    assert wizard.session.train_for(job).zero_stage == 2
    _agrees(wizard, job, _cli(capsys, job, path, "--zero-stage", "2"))
    page.cpu_offload.setChecked(True)
    _agrees(wizard, job, _cli(capsys, job, path, "--zero-stage", "2", "--cpu-offload"))


def test_gradient_accumulation_recomputes_and_agrees_with_the_cli(wizard, capsys):
    """Gradient accumulation (--grad-accum) sits beside the ZeRO stage: on eight GPUs the gradient exchange then comes
    once per 8 micro-batches, so the job's time falls while its memory stays; the figures are the command line's,
    and the tooltip names the Trainer's setting in the language shown."""
    path, page = _jobs(wizard, "h100x8")
    job = "bert-base-finetune"
    page.select(job)
    assert page.grad_accum.isEnabled() and page.grad_accum.value() == 1  # the job's own setting
    assert "gradient_accumulation_steps" in page.grad_accum.toolTip()
    before = wizard.session.estimate(job)
    page.grad_accum.setValue(8)
    assert wizard.session.train_for(job).grad_accum == 8
    after = wizard.session.estimate(job)
    assert after.total_hours < before.total_hours and after.peak_vram_bytes == before.peak_vram_bytes
    _agrees(wizard, job, _cli(capsys, job, path, "--grad-accum", "8"))
    wizard.switch_language("zh_CN")
    assert page.labels["accum"].text() == "梯度累积步数(&U)" and "有效批大小" in page.grad_accum.toolTip()
    wizard.switch_language("en")
    page.reset_settings()
    assert page.grad_accum.value() == 1 and wizard.session.train_for(job).grad_accum == 1


def test_the_optimizer_is_a_choice_and_agrees_with_the_cli(wizard, capsys):
    """--optimizer on the jobs page: Adafactor on a transformer's full fine-tune keeps next to no optimizer state, so
    the memory shown falls by AdamW's 8 bytes a parameter; the figures are the command line's; the choices are words,
    not the command line's codes."""
    path, page = _jobs(wizard, "h100x8")
    job = "llama3-8b-full"
    page.select(job)
    assert page.optimizer.currentData() == "adamw" and "8 bytes" in page.optimizer.toolTip()
    assert all(page.optimizer.itemText(i) not in ("adamw", "adamw-8bit", "adafactor")
               for i in range(page.optimizer.count()))
    before = wizard.session.estimate(job)
    _pick(page.optimizer, "adafactor")
    assert wizard.session.train_for(job).optimizer == "adafactor"
    after = wizard.session.estimate(job)
    assert after.breakdown.optimizer_bytes < 0.05 * before.breakdown.optimizer_bytes
    assert after.peak_vram_bytes < before.peak_vram_bytes
    _agrees(wizard, job, _cli(capsys, job, path, "--optimizer", "adafactor"))
    wizard.switch_language("zh_CN")
    assert page.labels["optimizer"].text() == "优化器(&O)" and "Adafactor" in page.optimizer.currentText()
    wizard.switch_language("en")
    page.reset_settings()
    assert page.optimizer.currentData() == "adamw"


def test_the_mean_sample_length_follows_the_data_and_agrees_with_the_cli(wizard, capsys):
    """--avg-seq-len on the jobs page: a language-model job's mean sample length, at most its sequence length; a longer
    mean lengthens the run, not the memory; the figures are the command line's; greyed out for a job on images."""
    path, page = _jobs(wizard, "rtx3060")
    job = "qwen2.5-1.5b-lora"
    page.select(job)
    own, seq = wizard.session.data_for(job).avg_seq_len, wizard.session.train_for(job).seq_len
    assert page.avg_len.isEnabled() and page.avg_len.value() == own and page.avg_len.maximum() == seq
    assert "--avg-seq-len" in page.avg_len.toolTip()
    before = wizard.session.estimate(job)
    page.avg_len.setValue(own * 4)
    assert wizard.session.data_for(job).avg_seq_len == own * 4
    after = wizard.session.estimate(job)
    assert after.total_hours > 3 * before.total_hours and after.peak_vram_bytes == before.peak_vram_bytes
    _agrees(wizard, job, _cli(capsys, job, path, "--avg-seq-len", str(own * 4)))
    page.reset_settings()
    assert page.avg_len.value() == own
    for other in ("mnist-cnn", "whisper-small-finetune"):  # images; clips padded to 30 seconds
        page.select(other)
        assert not page.avg_len.isEnabled() and "text" in page.avg_len.toolTip()


def test_packing_for_language_model_jobs(wizard, capsys):
    path, page = _jobs(wizard, "rtx3060")
    page.select("mnist-cnn")
    assert not page.packing.isEnabled() and page.packing.toolTip()
    job = "qwen2.5-1.5b-lora"
    page.select(job)
    assert page.packing.isEnabled()
    flag = "--no-packing" if page.packing.isChecked() else "--packing"
    page.packing.setChecked(not page.packing.isChecked())
    _agrees(wizard, job, _cli(capsys, job, path, flag))


def test_report_names_the_range_the_stack_and_what_fits_instead(wizard):
    path, page = _jobs(wizard, "rtx3060")
    s = wizard.session
    model = build_report(Machine.load(path), lang="en", evaluations=s.report_evaluations(False))
    sections = {j.workload_id: j for j in model.jobs}
    for ev in model.evaluations:
        fig = s.figures(ev.workload.id)
        rows = dict(sections[ev.workload.id].figures.rows)
        if fig.shown_range is not None:
            label = ("Likely time (P10–P90)" if not fig.range_is_advised else  # which time the range is of
                     "Likely time with the changes (P10–P90)" if fig.changed else
                     "Likely time with this PC's CPU and disk limits (P10–P90)")
            assert rows[label] == time_range_text(fig)
            assert rows["Software stack"] == stack_text(fig.stack)
    # the 8B full fine-tune does not fit a 12 GB card: LoRA and QLoRA were tried instead
    job = "llama3-8b-full"
    adv = s.advice(job)
    alt = sections[job].alternative
    assert alt is not None and alt.others == alternative_lines(adv)
    page.select(job)
    wizard.next()
    d = wizard.details
    others = [d.alt_others.itemAt(i).widget().text() for i in range(d.alt_others.count())]
    assert others == list(alternative_lines(adv))
    kinds = {a.kind for a in adv.alternatives}
    assert kinds & {"lora", "qlora"}  # another method is offered, not only a smaller model


@pytest.mark.parametrize("words, job", [(("rtx3080",), "llama3-8b-qlora"), (("m1",), "sd15-lora")])
def test_tight_says_try_it_and_what_to_do_if_it_runs_out(wizard, words, job):
    path, page = _jobs(wizard, *words)
    adv = wizard.session.advice(job)
    if adv.verdict != "tight":
        pytest.skip(f"{job} is {adv.verdict} on this machine today")
    page.select(job)
    wizard.next()
    d = wizard.details
    train = wizard.session.train_for(job)  # what can be lowered is named (no micro-batch below 1)
    assert d.tight_line.isVisible() and d.tight_line.text() == tight_text(adv, train)
    assert d.tight_line.text().startswith("May fit — try it; if it runs out of memory, ")
    assert d.badge.toolTip() == d.tight_line.text()
    # the report's verdict row says the same
    model = build_report(Machine.load(path), lang="en", evaluations=wizard.session.report_evaluations(False))
    rows = dict(next(j for j in model.jobs if j.workload_id == job).figures.rows)
    assert rows["Verdict"] == f"Tight: may fit — {tight_advice(adv, train)}."


def test_the_sequence_length_stops_at_a_learned_position_table(wizard):
    """BERT-base has 512 learned position embeddings (bert-base-uncased config.json max_position_embeddings): the box
    stops there, as `--seq-len 2048` is refused; GPT-2 pre-trained from scratch and Llama 3's rotary positions do not
    cap it."""
    _path, page = _jobs(wizard, "rtx3060")
    page.select("bert-base-finetune")
    assert page.seq_len.maximum() == 512
    page.seq_len.setValue(4096)
    assert wizard.session.train_for("bert-base-finetune").seq_len == 512
    for job in ("gpt2-124m-pretrain", "llama3-8b-qlora"):
        page.select(job)
        assert page.seq_len.maximum() > 100_000
