"""`--avg-seq-len N`: the mean tokens per sample of the user's data set, beside `--seq-len`, the longest row. What a
user notices: a language-model job's time follows its data (samples of 600 tokens take several times as long as the
job's 128), its memory does not (the rows are as long as before); a mean longer than the rows is refused, naming both
flags, since the trainers cut longer samples; other jobs and a trial refuse it in one line.

The built-in jobs' own mean (resources/workloads/*.toml avg_seq_len) is the reference; no figure here is a number of
our own.
"""

from __future__ import annotations

import json

import pytest

from gpucheck.catalog import get_workload
from gpucheck.cli import main

JOB, GPU = "qwen2.5-1.5b-lora", "RTX 4090"


def _estimate(capsys, *args: str) -> dict:
    capsys.readouterr()
    assert main(["estimate", JOB, "--gpu", GPU, *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_time_follows_the_mean_and_the_memory_the_rows(capsys):
    own = get_workload(JOB).data.avg_seq_len
    base = _estimate(capsys)
    same = _estimate(capsys, "--avg-seq-len", str(own))
    longer = _estimate(capsys, "--avg-seq-len", str(own * 4))
    assert same["total_hours"] == base["total_hours"]  # the job's own mean, given again, changes nothing
    # packed rows of the same length carry a quarter as many samples: about four times the run
    assert 3.0 < longer["total_hours"] / base["total_hours"] < 5.0
    assert longer["peak_vram_gib"] == base["peak_vram_gib"]
    assert any(f"about {own * 4} tokens" in a for a in longer["assumptions"])


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_mean_longer_than_the_rows_is_one_line_naming_both_flags(capsys, lang):
    assert main(["estimate", JOB, "--gpu", GPU, "--seq-len", "512", "--avg-seq-len", "600", "--lang", lang]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--avg-seq-len" in err[0] and "--seq-len" in err[0] and "512" in err[0]


def test_a_job_without_text_and_a_trial_refuse_it(capsys):
    assert main(["estimate", "mnist-cnn", "--avg-seq-len", "100", "--lang", "en"]) == 2
    assert "--avg-seq-len" in capsys.readouterr().err
    # Whisper's feature extractor pads every clip to 30 seconds: the clips' length does not change the work
    assert main(["estimate", "whisper-small-finetune", "--avg-seq-len", "100", "--lang", "en"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "30 seconds" in err[0]
    assert main(["trial", JOB, "--avg-seq-len", "100", "--lang", "en"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "gpucheck estimate" in err[0]
