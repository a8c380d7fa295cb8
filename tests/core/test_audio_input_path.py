"""Whisper's input path on the host: log-Mel features computed, or precomputed features read back as Python lists, in
the training process, serial with the GPU's step (gpucheck/estimate/input_path.py, resources/factors.toml
[input_path], measured in benchmarks/data/audio-input-path.json).

Role of the published rows here: CALIBRATION (resources/evidence/roles.lock): the structure and the measured per-clip
CPU seconds were chosen while the five Whisper rows were compared. What a user notices is asserted against the
sources' own figures, never against the model's output.
"""

from __future__ import annotations

import dataclasses

from gpucheck import estimate as E
from gpucheck.advise import advise
from gpucheck.catalog import get_workload
from gpucheck.machine import Machine
from tests.conftest import FIXTURES
from tests.core import accuracy as A
from tests.helpers import evidence_row

EVENT = ("huggingface/community-events whisper-fine-tuning-event/README.md, 'Recommended Batch Sizes with DeepSpeed': "
         "whisper small, batch 32 on a V100 16 GB at 1.3 s/it, batch 64 on an A100 40GB at 2.3 s/it")
README = ("huggingface/transformers examples/pytorch/speech-recognition/README.md: whisper-small, 5,000 steps x 16 x 2 "
          "accumulation, 'On a single V100, training should take approximately 8 hours'")


def _row(row_id: str):
    return evidence_row(row_id)


def _seconds_per_clip(row_id: str, **train_changes) -> float:
    r = _row(row_id)
    r = dataclasses.replace(r, train=dataclasses.replace(r.train, **train_changes))
    e = A.run(r)
    return 1.0 / e.samples_per_second


def test_a100_barely_beats_a_v100_when_the_cpu_computes_the_features():
    # published: 2.3 s / 64 = 35.9 ms per clip on the A100 against 1.3 s / 32 = 40.6 ms on the V100, 0.88 of it,
    # on a GPU with 2.5x the fp16 tensor peak: the clips' features, not the GPU, set most of the step
    published = (2.3 / 64) / (1.3 / 32)
    a100 = _seconds_per_clip("whisper-event-small-ds-a100")
    v100 = _seconds_per_clip("whisper-event-small-ds-v100")
    assert 0.6 < a100 / v100 < 1.0, f"{EVENT}: A100/V100 time per clip {a100 / v100:.2f}, published {published:.2f}"
    # with the features computed in DataLoader workers the GPUs' own ratio returns (the A100 far ahead): their memory
    # bandwidth's (900 / 1,555 GB/s = 0.58), since 2022's eager attention over 1,500 frames moves its score matrices
    # through memory, between that and their tensor peaks' (125 / 312 TFLOPS = 0.40)
    a100_w = _seconds_per_clip("whisper-event-small-ds-a100", feature_extraction="workers")
    v100_w = _seconds_per_clip("whisper-event-small-ds-v100", feature_extraction="workers")
    assert 0.40 <= a100_w / v100_w < 0.62 and a100_w < a100


def test_the_readme_run_spends_hours_reading_features_back_as_python_lists():
    # 160,000 clips whose 80 x 3,000 features come back from Arrow as Python float lists and are padded in the
    # training process: the estimate reaches well over a third of the stated 8 hours (the GPU alone: under 1.5 h);
    # the rest holds five evaluations that generate up to 225 tokens per test clip, which the estimate leaves out
    r = _row("hf-whisper-small-hi-1xv100")
    e = A.run(r)
    hours = r.measured.samples / e.samples_per_second / 3600
    assert 3.0 <= hours <= 8.0, f"{README}: estimated {hours:.1f} h"


def test_h100_server_scan_is_told_the_cpu_sets_the_pace_and_how_to_fix_it():
    # the built-in job does what the Hugging Face blog does: features precomputed with datasets.map, the Trainer's
    # default dataloader_num_workers=0; on a scanned 8 x H100 server the GPU outruns the CPU's per-clip work
    m = Machine.load(FIXTURES / "machines" / "h100x8-server.json")
    w = get_workload("whisper-small-finetune")
    t = E.Target.from_machine(m)
    a = advise(m, w, t)
    found = [b for b in a.bottlenecks if b.id == "audio_input"]
    assert found and found[0].severity == "warning"
    assert "dataloader_num_workers=" in found[0].fix
    e = E.estimate(w, t)
    # the CPU sets the pace: its per-clip work, or its operator dispatch where that is the larger CPU part (the per-clip
    # work then still holds the GPU up for a third of the step or more, and the advice names it)
    assert e.bottleneck in ("input", "overhead") and e.input_seconds >= e.step_seconds / 3
    # following the fix (workers) makes the step faster
    faster = E.estimate_variant(w, t, feature_extraction="workers")
    assert faster.step_seconds < 0.8 * e.step_seconds and not faster.input_bound


def test_a_desktop_gpu_is_not_held_up_by_its_cpu():
    m = Machine.load(FIXTURES / "machines" / "rtx3060-12gb-hdd-desktop.json")
    w = get_workload("whisper-small-finetune")
    a = advise(m, w, E.Target.from_machine(m))
    assert not [b for b in a.bottlenecks if b.id == "audio_input"]


def test_a_trial_is_compared_with_the_estimate_of_what_it_runs():
    # `gpucheck trial` feeds Whisper random log-Mel tensors made on the device: the estimate set beside its measured
    # step (and fed to this PC's calibration) must not hold the CPU's feature work the trial never does
    from gpucheck.trial.calibrate import trial_workload

    m = Machine.load(FIXTURES / "machines" / "h100x8-server.json")
    w = get_workload("whisper-small-finetune")
    t = E.Target.from_machine(m)
    tried = E.estimate(trial_workload(w, m, "auto"), t)
    assert tried.input_seconds == 0.0 and tried.step_seconds < E.estimate(w, t).step_seconds


CTC = ("huggingface/transformers examples/pytorch/speech-recognition/README.md, 'Single GPU CTC': wav2vec2-large-xlsr-53 "
       "on Common Voice Turkish, 15 epochs x 3,478 clips, batch 16 x 2, 'On a single V100 GPU, this script should run in "
       "ca. 1 hour 20 minutes'")


def test_raw_waveforms_read_back_as_lists_are_priced_by_their_size():
    # the CTC script stores each clip's raw 16 kHz waveform (62,496 floats for the 3.906 s mean clip) as a Python list
    # and pads it in the training process, as Whisper's README run does with its 240,000 log-Mel floats: the same
    # measured seconds per float, so a clip costs its share of a Whisper clip
    from gpucheck.estimate.factors import load_factors
    from gpucheck.estimate.input_path import clip_seconds

    r = _row("hf-ctc-xlsr53-cv-tr-1xv100")
    t = A._target(r.gpu, 1)
    f = load_factors()
    ctc = clip_seconds(r.train, t, f)
    whisper = clip_seconds(dataclasses.replace(r.train, input_floats=0), t, f)
    assert abs(ctc / whisper - 62_496 / 240_000) < 1e-9


def test_the_ctc_run_spends_a_part_of_its_time_reading_waveforms_back_as_lists():
    # 52,170 clips read back from Arrow as Python float lists and padded between the steps: the training alone takes
    # over a quarter of the stated whole run (which also holds 17 evaluations that read 28,000 test clips back the same
    # way, the MP3 decoding of the data set and 4 checkpoint saves) and not more than all of it
    r = _row("hf-ctc-xlsr53-cv-tr-1xv100")
    e = A.run(r)
    hours = r.measured.samples / e.samples_per_second / 3600
    assert 0.25 * r.measured.value <= hours <= r.measured.value, f"{CTC}: estimated {hours:.2f} h"


STREAM = ("huggingface/transformers examples/pytorch/speech-recognition/README.md, 'Multi GPU CTC with Dataset Streaming': "
          "wav2vec2-xls-r-300m on Common Voice Turkish streamed, 5,000 steps x 8 x 2 x 4 GPUs, 'On 4 V100 GPUs, this "
          "script should run in ca. 3h 31min'")


def _clips_per_s_per_gpu(row_id: str, **train_changes) -> float:
    r = _row(row_id)
    r = dataclasses.replace(r, train=dataclasses.replace(r.train, **train_changes))
    return A.run(r).samples_per_second / r.gpus


def test_a_streamed_run_that_decodes_every_clip_in_every_process_trains_fewer_clips_per_gpu():
    # published: the streamed run trains 320,000 clips in 3 h 31 min on 4 V100s, 6.3 clips/s per GPU; the one-GPU run
    # on inputs decoded once before training 52,170 clips in 1 h 20 min, 10.9 clips/s on its V100. In the streamed run
    # every process decodes every MP3 clip of the stream (the Trainer's IterableDatasetShard), 4 for each it trains on
    stream = _clips_per_s_per_gpu("hf-ctc-xlsr300m-cv-tr-stream-4xv100")
    single = _clips_per_s_per_gpu("hf-ctc-xlsr53-cv-tr-1xv100")
    assert stream < single, f"{STREAM} and {CTC}: per GPU {stream:.1f} against {single:.1f} clips/s"
    # each process decoding only its own clips (a map-style data set) would be faster per GPU
    own = _clips_per_s_per_gpu("hf-ctc-xlsr300m-cv-tr-stream-4xv100", audio_decode="mp3")
    assert own > stream


def test_decoding_in_dataloader_workers_leaves_the_step():
    # with DataLoader workers the clips are decoded beside the GPU's step, not before it
    serial = _clips_per_s_per_gpu("hf-ctc-xlsr300m-cv-tr-stream-4xv100")
    workers = _clips_per_s_per_gpu("hf-ctc-xlsr300m-cv-tr-stream-4xv100", loader_workers=4)
    undecoded = _clips_per_s_per_gpu("hf-ctc-xlsr300m-cv-tr-stream-4xv100", audio_decode="")
    assert serial < workers <= undecoded * 1.0001
