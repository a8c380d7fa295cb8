"""The host time transformers' generate() spends per decoding step besides the model's own operators.

Usage (a Python with torch and transformers: the trial's, not gpucheck's):
    python benchmarks/measure_generate_step_overhead.py [--rounds 5] [--out FILE]

An evaluation with predict_with_generate (Seq2SeqTrainer) decodes token by token: each step runs the decoder's forward
over one token per sample with the KV cache, then generate()'s own work — the logits processors (Whisper: suppress
tokens, suppress tokens at the beginning), the choice of the next token, the stopping criteria, the cache and
attention-mask bookkeeping, and a read-back of whether every sequence has ended (a host sync each step). gpucheck's
dispatch model prices the decoder's operators ([dispatch] launch_us each); this measures what generate() adds.

Models so small that their kernels cost next to nothing (width 16, one layer, two heads) are decoded on one CPU core,
batch 8, in two ways for the same tokens:
- `generate`: model.generate(max_new_tokens = min_new_tokens = N), greedy, cache on;
- `manual`: the same model's decoder called step by step with the same cache class, its output projection and an
  argmax, in a plain loop.
Each is timed at two lengths (N = 10 and 70) and the per-step cost is the slope (the encoder or prompt pass and the
set-up cancel). Two models: Whisper (WhisperForConditionalGeneration, its vocabulary of 51,865 and its generation
config's suppressed tokens), a GPT-2 (GPT2LMHeadModel, vocabulary 50,257) and the same GPT-2 with a vocabulary of 256.
The difference of the slopes is generate()'s own time per step on this CPU. On a CPU it includes generate()'s
element-wise work over the vocabulary (the last position's logits copied to fp32, the processors' masks, the argmax),
which a GPU runs as a few kernels: the 256-token vocabulary leaves the host's own Python and dispatch.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time

import torch
from count_io import write_counts

BATCH = 8
SHORT, LONG = 10, 70


def _whisper():
    from transformers import WhisperConfig, WhisperForConditionalGeneration
    cfg = WhisperConfig(vocab_size=51865, num_mel_bins=80, encoder_layers=1, decoder_layers=1, d_model=16,
                        encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=32, decoder_ffn_dim=32,
                        max_source_positions=1500, max_target_positions=448)
    torch.manual_seed(0)
    m = WhisperForConditionalGeneration(cfg).eval()
    return m, {"input_features": torch.randn(BATCH, 80, 3000)}


def _gpt2(vocab: int = 50257):
    from transformers import GPT2Config, GPT2LMHeadModel
    cfg = GPT2Config(vocab_size=vocab, n_positions=1024, n_embd=16, n_layer=1, n_head=2, bos_token_id=0,
                     eos_token_id=1, pad_token_id=1)
    torch.manual_seed(0)
    m = GPT2LMHeadModel(cfg).eval()
    ids = torch.randint(2, vocab, (BATCH, 16))
    return m, {"input_ids": ids, "attention_mask": torch.ones_like(ids)}


def _generate(m, inputs, n: int) -> float:
    with torch.no_grad():
        t0 = time.perf_counter()
        out = m.generate(**inputs, max_new_tokens=n, min_new_tokens=n, do_sample=False, num_beams=1)
        dt = time.perf_counter() - t0
    assert out.shape[-1] >= n, out.shape
    return dt


def _manual_whisper(m, inputs, n: int) -> float:
    from transformers.cache_utils import DynamicCache, EncoderDecoderCache
    with torch.no_grad():
        t0 = time.perf_counter()
        enc = m.model.encoder(inputs["input_features"]).last_hidden_state
        cache = EncoderDecoderCache(DynamicCache(), DynamicCache())
        tok = torch.full((BATCH, 1), m.generation_config.decoder_start_token_id)
        for _ in range(n):
            out = m.model.decoder(input_ids=tok, encoder_hidden_states=enc, past_key_values=cache, use_cache=True)
            cache = out.past_key_values
            tok = m.proj_out(out.last_hidden_state[:, -1:]).argmax(-1)
        return time.perf_counter() - t0


def _manual_gpt2(m, inputs, n: int) -> float:
    from transformers.cache_utils import DynamicCache
    with torch.no_grad():
        t0 = time.perf_counter()
        cache = DynamicCache()
        out = m(input_ids=inputs["input_ids"], past_key_values=cache, use_cache=True)
        tok = out.logits[:, -1:].argmax(-1)
        for _ in range(n - 1):
            out = m(input_ids=tok, past_key_values=out.past_key_values, use_cache=True)
            tok = out.logits[:, -1:].argmax(-1)
        return time.perf_counter() - t0


def _slope(fn, m, inputs) -> float:
    """Seconds per decoding step: the difference of a long and a short run over their tokens."""
    fn(m, inputs, SHORT)  # warm-up
    return (fn(m, inputs, LONG) - fn(m, inputs, SHORT)) / (LONG - SHORT)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--clock-mhz", type=float, default=0.0, help="this CPU's single-thread clock (the scan's)")
    ap.add_argument("--out")
    a = ap.parse_args()
    torch.set_num_threads(1)
    models = {"whisper": (_whisper, _manual_whisper), "gpt2": (_gpt2, _manual_gpt2),
              "gpt2_vocab256": (lambda: _gpt2(256), _manual_gpt2)}
    runs: dict[str, list[float]] = {}
    for name, (build, manual) in models.items():
        m, inputs = build()
        for _ in range(a.rounds):
            runs.setdefault(f"{name}_generate", []).append(_slope(_generate, m, inputs))
            runs.setdefault(f"{name}_manual", []).append(_slope(manual, m, inputs))
    med = {k: statistics.median(v) for k, v in runs.items()}
    over = {n: round((med[f"{n}_generate"] - med[f"{n}_manual"]) * 1e3, 3) for n in models}
    print(json.dumps({"seconds_per_step": med, "generate_over_manual_ms": over}))
    if a.out:
        write_counts(a.out, __doc__, runs, transformers=__import__("transformers").__version__,
                     processor=platform.processor() or platform.machine(), clock_mhz=a.clock_mhz or None,
                     batch=BATCH, tokens=[SHORT, LONG], rounds=a.rounds,
                     seconds_per_step={k: round(v, 7) for k, v in med.items()}, generate_over_manual_ms=over)
    return 0


if __name__ == "__main__":
    sys.exit(main())
