"""What a speech model runs beside its encoder and decoder blocks: WeNet's CTC head (a linear layer, log-softmax and CTC
loss over every encoder frame, model.ctc_vocab) and Whisper's convolutional front end over the log-Mel features
(model.mel_bins), both counted from the engines' code (gpucheck/estimate/seq2seq.py), and WeNet's eager attention.

Role of the published rows here: VALIDATION (resources/evidence/roles.lock); nothing was set on them: the keys are read
from WeNet's configs and code and from Whisper's config.json. What a user notices is asserted against the sources' own
figures.
"""

from __future__ import annotations

import json

from gpucheck.catalog import get_workload
from gpucheck.estimate.compute import train_flops_per_sample
from gpucheck.estimate.seq2seq import frontend_flops
from gpucheck.resources import resource_path
from tests.core import accuracy as A
from tests.helpers import evidence_row

WENET = ("wenet-e2e/wenet examples/aishell/whisper/README.md (January 2024): 'acc_grad 1, 8 * 3090 gpu, 30 epochs (about "
         "16 hours), conf/finetune_whisper_largev3_onlyattn.yaml' (ctc_weight 0.0) and '80 epochs (about 43 hours), "
         "conf/finetune_whisper_largev3.yaml' (ctc_weight 0.3), the same data, batch and GPUs")


def _seconds_per_utterance(row_id: str) -> float:
    return 1.0 / A.run(evidence_row(row_id)).samples_per_second


def test_the_ctc_head_adds_time_within_what_weNets_two_published_runs_allow():
    # published, per epoch of the same 120,098 utterances: 43 h / 80 with the CTC head against 16 h / 30 without, 15 s
    # more; both times are rounded ('about': +-0.5 h each, +-22 s and +-60 s per epoch), so the head costs at most
    # 15 + 82 s an epoch. The estimate's difference (its FLOPs and logits, its 66 M weights in the optimizer and the
    # gradient reduction) must be positive and inside that bound; the rest of both runs' time is not the head's
    published_s, rounding_s = (43.0 / 80 - 16.0 / 30) * 3600, (0.5 / 80 + 0.5 / 30) * 3600
    with_ctc = _seconds_per_utterance("wenet-whisper-largev3-aishell-80ep-8x3090")
    without = _seconds_per_utterance("wenet-whisper-largev3-onlyattn-aishell-30ep-8x3090")
    extra_s = (with_ctc - without) * 120098
    assert 0.0 < extra_s < published_s + rounding_s, f"{WENET}: estimated {extra_s:.0f} s more per epoch"


def test_the_ctc_heads_fp32_log_probabilities_are_in_the_peak():
    # WeNet's CTC (wenet/transformer/ctc.py) keeps log_softmax's fp32 output of every encoder frame x 51,866 tokens for
    # backward: 26 utterances x 225 frames x 51,866 x 4 B = 1.21 GB per micro-batch, which the attention-only config does
    # not hold
    with_ctc = A.run(evidence_row("wenet-whisper-largev3-aishell-80ep-8x3090"))
    without = A.run(evidence_row("wenet-whisper-largev3-onlyattn-aishell-30ep-8x3090"))
    extra = with_ctc.breakdown.activations_bytes - without.breakdown.activations_bytes
    assert extra >= 26 * 225 * 51866 * 4, WENET


def test_whispers_conv_front_end_follows_its_config_and_is_about_one_percent_of_the_work():
    # openai/whisper-small config.json (shipped in resources/models): num_mel_bins 80, d_model 768; conv1 over the 3,000
    # log-Mel frames of 30 s, conv2 with stride 2 over them: 2 x 3 x 80 x 768 x 3,000 + 2 x 3 x 768 x 768 x 1,500 FLOPs
    # forward (torch.utils.flop_counter's convolution rule: 2 x output elements x input channels x kernel)
    config = json.loads(resource_path("models", "whisper-small", "config.json").read_text(encoding="utf-8"))
    w = get_workload("whisper-small-finetune")
    assert w.model.mel_bins == config["num_mel_bins"] and w.model.hidden == config["d_model"]
    forward, train = frontend_flops(w.model, w.train)
    assert abs(forward / 6.415e9 - 1.0) < 0.01
    assert 0.005 < train / train_flops_per_sample(w.model, w.train) < 0.02
