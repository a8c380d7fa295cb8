"""The host's input path of a Whisper fine-tune as the Hugging Face Trainer runs it, against its priced parts.

Usage (a Python with torch, transformers and datasets; the trial's Python plus `pip install datasets`):
    python benchmarks/measure_whisper_trainer_input.py [--clips 256] [--batch 4]

Features precomputed by datasets.map are read back from an Arrow file (list<list<float32>>, 80 x 3,000 a clip, the
blog's layout) by a Seq2SeqTrainer with dataloader_num_workers 0 and padded by the blog's collator
(WhisperFeatureExtractor.pad). The model is a Whisper of width 16 and one layer each side, on one CPU thread, so its
own step is the same in both loops timed: the Trainer over the Arrow rows, and a plain loop over the same batches made
beforehand. Their difference per clip is what the Trainer's input path costs a clip; the read-back and collation alone
are timed too. resources/factors.toml [input_path] prices the same path from its parts (measure_audio_input_path.py):
lists_s_per_mfloat_current x 240,000 floats, scaled by the clock. Results: benchmarks/data/whisper-trainer-input-*.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time

import numpy as np
import torch

BINS, FRAMES, LABEL_TOKENS = 80, 3000, 24


def arrow_dataset(clips: int, folder: str):
    """`clips` random clips' features and labels in an Arrow stream file, opened memory-mapped as datasets.map leaves
    them (Dataset.from_file)."""
    import pyarrow as pa
    from datasets import Dataset

    rng = np.random.default_rng(0)
    feats = [list(rng.standard_normal((BINS, FRAMES), dtype=np.float32)) for _ in range(clips)]
    labels = [list(rng.integers(0, 50000, LABEL_TOKENS)) for _ in range(clips)]
    table = pa.table({"input_features": pa.array(feats, type=pa.list_(pa.list_(pa.float32()))),
                      "labels": pa.array(labels, type=pa.list_(pa.int64()))})
    path = f"{folder}/clips.arrow"
    with pa.OSFile(path, "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table, max_chunksize=8)
    return Dataset.from_file(path)


class Collator:
    """The Hugging Face blog's DataCollatorSpeechSeq2SeqWithPadding: features padded by the feature extractor, labels
    padded with -100."""

    def __init__(self) -> None:
        from transformers import WhisperFeatureExtractor
        self.fe = WhisperFeatureExtractor()

    def __call__(self, features: list[dict]) -> dict:
        batch = self.fe.pad([{"input_features": f["input_features"]} for f in features], return_tensors="pt")
        longest = max(len(f["labels"]) for f in features)
        batch["labels"] = torch.tensor([f["labels"] + [-100] * (longest - len(f["labels"])) for f in features])
        return batch


def tiny_whisper():
    from transformers import WhisperConfig, WhisperForConditionalGeneration
    cfg = WhisperConfig(vocab_size=51865, num_mel_bins=BINS, encoder_layers=1, decoder_layers=1, d_model=16,
                        encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=32, decoder_ffn_dim=32,
                        max_source_positions=1500, max_target_positions=448, decoder_start_token_id=50258)
    torch.manual_seed(0)
    return WhisperForConditionalGeneration(cfg)


def trainer_step(ds, batch: int, folder: str) -> float:
    from transformers import Seq2SeqTrainer, Seq2SeqTrainingArguments
    steps = len(ds) // batch
    args = Seq2SeqTrainingArguments(output_dir=f"{folder}/out", per_device_train_batch_size=batch, max_steps=steps,
                                    learning_rate=1e-5, logging_steps=1000, save_strategy="no", eval_strategy="no",
                                    report_to=[], use_cpu=True, disable_tqdm=True, dataloader_num_workers=0, seed=0)
    out = Seq2SeqTrainer(model=tiny_whisper(), args=args, train_dataset=ds, data_collator=Collator()).train()
    return out.metrics["train_runtime"] / steps


def plain_step(batches: list[dict]) -> float:
    model = tiny_whisper()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-5)
    t0 = time.perf_counter()
    for b in batches:
        model(**b).loss.backward()
        opt.step()
        opt.zero_grad()
    return (time.perf_counter() - t0) / len(batches)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clips", type=int, default=256)
    ap.add_argument("--batch", type=int, default=4)
    a = ap.parse_args()
    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as folder:
        ds = arrow_dataset(a.clips, folder)
        collate = Collator()
        t0 = time.perf_counter()
        batches = [collate([ds[i] for i in range(j, j + a.batch)]) for j in range(0, a.clips, a.batch)]
        read_s = (time.perf_counter() - t0) / len(batches)
        trainer_s = trainer_step(ds, a.batch, folder)
    plain_s = plain_step(batches)
    print(json.dumps({"batch": a.batch, "trainer_step_s": round(trainer_s, 4), "plain_step_s": round(plain_s, 4),
                      "read_and_collate_per_clip_ms": round(1e3 * read_s / a.batch, 2),
                      "trainer_minus_plain_per_clip_ms": round(1e3 * (trainer_s - plain_s) / a.batch, 2)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
