"""CPU seconds per million floats of the host-side audio input path, one thread (benchmarks/data/audio-input-path.json).

Prices the path by its size: a Whisper clip is 80 log-Mel bins x 3,000 frames = 240,000 floats (every clip padded to
30 s), a wav2vec2 / XLS-R clip is its raw 16 kHz waveform, 16,000 floats a second (62,500 for Common Voice Turkish's
3.906 s mean clip). Two parts, both in the training process of a Hugging Face Trainer with dataloader_num_workers 0:

  arrow   datasets' Python formatter reading one row back (pyarrow.Table.to_pydict()): Whisper's list<list<float>>
          features and wav2vec2's list<float> input_values (run under each pyarrow to compare: needs only pyarrow);
  pad     the collator turning a micro-batch of Python float lists into one tensor: DataCollatorSpeechSeq2SeqWithPadding
          (WhisperFeatureExtractor.pad) and DataCollatorCTCWithPadding (Wav2Vec2FeatureExtractor.pad, padding
          'longest'), 16 clips (needs transformers and torch).

Usage (one thread; prints JSON):
  OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=<pyarrow dir> python \
      benchmarks/measure_audio_input_path.py arrow
  OMP_NUM_THREADS=1 ... /work/main/.venv-trial/bin/python benchmarks/measure_audio_input_path.py pad
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time

WHISPER_BINS, WHISPER_FRAMES = 80, 3000
CTC_SAMPLES = 62_500  # 3.906 s at 16 kHz
BATCH = 16
RUNS = 7


def cpu_median(fn, runs: int = RUNS) -> float:
    fn()  # warm-up
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times)


def _floats(n: int) -> list[float]:
    rnd = random.Random(n)
    return [rnd.uniform(-1.0, 1.0) for _ in range(n)]


def measure_arrow() -> dict:
    import numpy as np
    import pyarrow as pa

    whisper = pa.table({
        "input_features": pa.array([[np.random.rand(WHISPER_FRAMES).astype(np.float32) for _ in range(WHISPER_BINS)]],
                                   type=pa.list_(pa.list_(pa.float32()))),
        "labels": pa.array([list(range(60))], type=pa.list_(pa.int64())),
    })
    ctc = pa.table({
        "input_values": pa.array([np.random.rand(CTC_SAMPLES).astype(np.float32)], type=pa.list_(pa.float32())),
        "input_length": pa.array([CTC_SAMPLES], type=pa.int64()),
        "labels": pa.array([list(range(40))], type=pa.list_(pa.int64())),
    })
    w = cpu_median(whisper.to_pydict)
    c = cpu_median(lambda: [ctc.to_pydict() for _ in range(4)]) / 4
    return {
        "pyarrow": pa.__version__, "numpy": np.__version__,
        "whisper_s_per_clip": round(w, 5), "whisper_s_per_mfloat": round(w / (WHISPER_BINS * WHISPER_FRAMES / 1e6), 5),
        "ctc_s_per_clip": round(c, 5), "ctc_s_per_mfloat": round(c / (CTC_SAMPLES / 1e6), 5),
    }


def measure_pad() -> dict:
    import torch
    import transformers
    from transformers import Wav2Vec2FeatureExtractor, WhisperFeatureExtractor

    torch.set_num_threads(1)
    whisper_fe = WhisperFeatureExtractor()
    ctc_fe = Wav2Vec2FeatureExtractor(feature_size=1, sampling_rate=16000, padding_value=0.0, do_normalize=True,
                                      return_attention_mask=True)  # facebook/wav2vec2-large-xlsr-53's preprocessor
    row = [_floats(WHISPER_FRAMES) for _ in range(WHISPER_BINS)]
    whisper_batch = [{"input_features": [list(r) for r in row]} for _ in range(BATCH)]
    # group_by_length: a micro-batch of clips of about the same length, padded to the longest
    lengths = [CTC_SAMPLES - 800 * i for i in range(BATCH)]
    wave = _floats(CTC_SAMPLES)
    ctc_batch = [{"input_values": wave[:n]} for n in lengths]
    ctc_floats = sum(lengths)

    w = cpu_median(lambda: whisper_fe.pad(whisper_batch, return_tensors="pt"))
    c = cpu_median(lambda: ctc_fe.pad(ctc_batch, padding="longest", return_tensors="pt"))
    return {
        "transformers": transformers.__version__, "torch": torch.__version__,
        "whisper_batch_s": round(w, 4), "whisper_s_per_clip": round(w / BATCH, 5),
        "whisper_s_per_mfloat": round(w / (BATCH * WHISPER_BINS * WHISPER_FRAMES / 1e6), 5),
        "ctc_batch_s": round(c, 4), "ctc_floats_in_batch": ctc_floats,
        "ctc_s_per_mfloat": round(c / (ctc_floats / 1e6), 5),
    }


if __name__ == "__main__":
    part = sys.argv[1] if len(sys.argv) > 1 else "pad"
    print(json.dumps(measure_arrow() if part == "arrow" else measure_pad(), indent=1))
