"""Evaluation passes inside a training run's time (gpucheck/estimate/evaluation.py), checked against the
transformers speech-recognition README's whole-run times, whose commands evaluate during training.

Role of the published rows here: the Whisper README rows are CALIBRATION (their input path was priced while looking
at them), as are the ROCm blog's Ray BERT rows (the MI210's FP32 matrix rate); the CTC rows are VALIDATION. The evaluation keys are a reading of the README's commands (eval_steps,
per_device_eval_batch_size, generation_max_length, --do_eval) and the test splits' sizes; the evaluation has no
constant of its own (it is priced at the training step's FLOPs, bytes and operators).
"""

from __future__ import annotations

import dataclasses

from gpucheck.catalog import find_gpu, get_workload, load_workloads
from gpucheck.estimate import Target, estimate
from gpucheck.estimate.evaluation import eval_passes
from gpucheck.records import DataSpec, Workload
from tests.helpers import evidence_row

WHISPER_1 = "hf-whisper-small-hi-1xv100"  # 'On a single V100, training should take approximately 8 hours'
WHISPER_2 = "hf-whisper-small-hi-2xv100"  # 'On two V100s, training should take approximately 4 hours'
CTC_1 = "hf-ctc-xlsr53-cv-tr-1xv100"  # 'On a single V100 GPU, this script should run in *ca.* 1 hour 20 minutes'


def _run_hours(row_id: str, **train_changes) -> float:
    """The estimate's whole-run hours for the row's configuration over the row's training samples."""
    r = evidence_row(row_id)
    t = dataclasses.replace(r.train, **train_changes)
    w = Workload(id=r.id, title=r.what, family=r.family, level=1, model=r.model, train=t,
                 data=DataSpec(samples=int(r.measured.samples), avg_seq_len=r.avg_len))
    e = estimate(w, Target.from_gpu(find_gpu(r.gpu), gpus=r.gpus))
    return e.total_hours


def test_the_readme_commands_count_their_evaluations():
    # Whisper: 5,000 steps with --eval_steps 1000, then --do_eval: six; CTC: 15 epochs of 3,478 clips at 32 a step
    # (1,630 steps) with --eval_steps 100, then --do_eval: seventeen (the rows' notes count the same)
    w = evidence_row(WHISPER_1)
    assert eval_passes(w.train, w.measured.samples, 0, 1) == 6
    c = evidence_row(CTC_1)
    assert eval_passes(c.train, c.measured.samples, 0, 1) == 17
    # once per epoch when no step interval is given; none without an eval set
    per_epoch = dataclasses.replace(c.train, eval_every_steps=0, eval_at_end=False)
    assert eval_passes(per_epoch, 52170, 3478, 1) == 15
    assert eval_passes(dataclasses.replace(c.train, eval_samples=0), 52170, 3478, 1) == 0


def test_whisper_readme_one_v100_whole_run_with_its_evaluations():
    # the README's 8 hours hold five generate() evaluations and a final one: with them the estimate lands within
    # 1.5x of the stated time; without them it falls short by more than a quarter of the stated time (what a user
    # planning by training alone would be short of; with the eager attention of 2022's WhisperAttention the training
    # is about two thirds of the run)
    with_eval = _run_hours(WHISPER_1)
    training_only = _run_hours(WHISPER_1, eval_samples=0)
    assert 8.0 / 1.5 <= with_eval <= 8.0 * 1.5, f"{with_eval:.2f} h against the README's 'approximately 8 hours'"
    assert training_only < 0.75 * 8.0
    assert with_eval - training_only > 0.25 * 8.0
    # two V100s: each process decodes half the test split, so the whole run halves with the training (4 h stated)
    two = _run_hours(WHISPER_2)
    assert 4.0 / 1.5 <= two <= 4.0 * 1.5, f"{two:.2f} h against the README's 'approximately 4 hours'"


def test_predict_with_generate_lengthens_the_run():
    # the same evaluations as a forward-only pass (no predict_with_generate) are far shorter: 225 decoding steps
    # per batch, each reading the decoder's weights and dispatching its blocks, cost more than the forward
    forward_only = _run_hours(WHISPER_1, generate_tokens=0)
    training_only = _run_hours(WHISPER_1, eval_samples=0)
    generating = _run_hours(WHISPER_1)
    assert training_only < forward_only < generating
    assert generating - forward_only > 3.0 * (forward_only - training_only)


def test_ctc_readme_one_v100_evaluations_move_the_estimate_towards_the_stated_time():
    # 17 forward-only evaluations of 1,647 test clips: the estimate gets longer, and stays under the stated 1 h
    # 20 min, which also holds the dataset's MP3 decoding and resampling, checkpoint saves and downloads
    with_eval = _run_hours(CTC_1)
    training_only = _run_hours(CTC_1, eval_samples=0)
    assert training_only * 1.2 < with_eval < 1.333


def test_built_in_jobs_evaluate_nothing_unless_they_say_so():
    target = Target.from_gpu(find_gpu("rtx 4090"))
    for w in load_workloads():
        assert w.train.eval_samples == 0, w.id
        assert estimate(w, target).eval_hours == 0.0, w.id
    # a job that states its eval set gets its evaluations priced into the run
    w = get_workload("whisper-small-finetune")
    t = dataclasses.replace(w.train, eval_samples=2894, eval_every_steps=1000, generate_tokens=225)
    base = estimate(w, target)
    evaluated = estimate(w, target, t)
    assert evaluated.eval_passes >= 1 and evaluated.total_hours > base.total_hours
    # and the estimate says so where the user reads its assumptions
    assert any(f"{evaluated.eval_passes} evaluation passes" in a for a in evaluated.assumptions)
    assert not any("evaluation passes" in a for a in base.assumptions)


def test_one_evaluation_pass_matches_the_trainers_printed_eval_runtime():
    # AMD ROCm blog, Ray Train + HF Trainer, bert-base-cased on 2 MI210s: the per-epoch evaluation of 1,000 test reviews
    # (512 tokens, fp32, per_device_eval_batch_size 8) prints eval_runtime 3.1 s; the row's role is calibration (of the
    # MI210's FP32 matrix rate, which this pass is priced with), the evaluation itself has no constant of its own
    r = evidence_row("rocmblog-ray-bert-base-2xmi210")
    w = Workload(id=r.id, title=r.what, family=r.family, level=1, model=r.model, train=r.train,
                 data=DataSpec(samples=int(r.measured.samples)))
    e = estimate(w, Target.from_gpu(find_gpu(r.gpu), gpus=r.gpus))
    assert e.eval_passes == 3
    assert 3.1 / 1.35 <= e.eval_seconds_per_pass <= 3.1 * 1.35, f"{e.eval_seconds_per_pass:.2f} s against 3.1 s"
