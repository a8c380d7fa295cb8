"""The evaluation passes a training run makes, priced at the estimator's own costs (no constant of their own).

A Hugging Face Trainer run with eval_strategy (evaluation_strategy) "steps" evaluates the eval split every eval_steps
optimizer steps, with "epoch" once per epoch, and the example scripts' --do_eval once more after training
(trainer.evaluate()); published whole-run times hold them (transformers examples/pytorch/speech-recognition README).
Train keys: eval_samples (the eval split), eval_every_steps (0: per epoch), eval_at_end, eval_batch
(per_device_eval_batch_size) and generate_tokens (Seq2SeqTrainer with predict_with_generate: up to
generation_max_length decoding steps per batch). Each process evaluates its share of the split (the Trainer's
distributed sampler).

One evaluation batch, forward only, without gradients:
- the GPU: the training step's own matrix and memory time (compute.Speed) times the forward's share of the step's
  FLOPs (compute.forward_flops_per_sample over compute.train_flops_per_sample: a third without checkpointing, a
  quarter with it), per sample of the batch; the CPU: the forward's operators (dispatch.layer_operators, the decoder's
  in seq2seq.decoder_kernels) at dispatch.dispatch_seconds; the longer of the two (the GPU runs its queue while the
  CPU launches); the step's optimizer traffic, a few per cent of its memory time, is scaled along with the rest;
- with generate(): one more forward (Seq2SeqTrainer.prediction_step runs generate(), whose encoder pass or prompt
  prefill is a forward, and model(**inputs) for the loss), then generate_tokens decoding steps. Each step is a
  forward over one token per sample with the KV cache (Pope et al. 2022, 'Efficiently Scaling Transformer
  Inference', §2: a decode step is memory-bound at small batch): it reads the decoder's weights and the vocabulary
  projection once per step for the whole batch plus each sample's cached keys and values (Whisper: the
  cross-attention's over every encoder frame, and the self-attention's over the tokens so far, on average half the
  steps), and its FLOPs are the forward's per token; the CPU dispatches the decoder blocks' forward operators
  every step. Not counted: generate()'s own per-step host work (logits processors, stopping criteria), measured at
  0.24 ms a step beyond the decoder's operators on one 3.6 GHz core (transformers 5.24,
  benchmarks/measure_generate_step_overhead.py -> benchmarks/data/generate-step-overhead-amd-zen4.json; with a
  51,865-token vocabulary the CPU's own element-wise work over the logits adds 2 ms, which a GPU runs as a few
  kernels): a few per cent of a decoder's dispatch, below what the estimate resolves; early stops
  when every sample of a batch has ended (generate_tokens is what the batch decodes: the cap where only the cap is
  known, so an upper bound there);
- the input path: each eval sample read back (and decoded) the same way as in training
  (input_path.sample_input_seconds), serial in the training process where training's is.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpucheck.estimate import linear_attention as la
from gpucheck.estimate import seq2seq as s2s
from gpucheck.estimate.compute import Speed, forward_flops_per_sample, train_flops_per_sample
from gpucheck.estimate.cpu_core import element_bytes
from gpucheck.estimate.dispatch import adapted_linears, dispatch_seconds, layer_operators, stack_of
from gpucheck.estimate.factors import seq_len_of
from gpucheck.estimate.input_path import in_training_process, sample_input_seconds
from gpucheck.estimate.params import block_linear_params, kv_dim
from gpucheck.records import ModelSpec, TrainSpec


@dataclass(frozen=True)
class Evaluation:
    passes: int  # evaluations in the run
    seconds_per_pass: float  # one evaluation of the eval split, all processes together (they run side by side)

    @property
    def hours(self) -> float:
        return self.passes * self.seconds_per_pass / 3600.0


def eval_passes(t: TrainSpec, run_samples: float, epoch_samples: float, processes: int) -> int:
    """Evaluations in a run of `run_samples` training samples: every eval_every_steps optimizer steps (the Trainer
    evaluates when global_step is a multiple of eval_steps), else once per epoch of `epoch_samples`, plus the one
    after training (eval_at_end)."""
    if t.eval_samples <= 0:
        return 0
    if t.eval_every_steps > 0:
        steps = run_samples / (t.batch * max(1, processes) * max(1, t.grad_accum))
        during = int(steps // t.eval_every_steps)
    else:
        during = int(run_samples // epoch_samples) if epoch_samples > 0 else 0
    return during + (1 if t.eval_at_end else 0)


def forward_operators(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Operators the CPU dispatches for one forward pass (no dropout at evaluation), with the stack's fusion."""
    k = f["dispatch"]["kernels"]
    if m.arch == "transformer":
        layer_fwd, _ = layer_operators(m, f)
        ops = layer_fwd * (m.layers or 1) + s2s.decoder_kernels(m, f, layer_fwd)
        if t.method in ("lora", "qlora"):
            ops += k["adapter_forward"] * adapted_linears(m, t) * (m.layers or 1)
    else:
        ops = (m.layers or k["layers_default"][m.arch]) * k["image_layer_forward"]
    return ops * stack_of(t, f)["kernel_scale"]


def decode_step_operators(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Operators of one decoding step: the decoder blocks' forward (a causal LM: all its blocks)."""
    layer_fwd, _ = layer_operators(m, f)
    ops = s2s.decoder_kernels(m, f, layer_fwd) if s2s.is_seq2seq(m) else layer_fwd * (m.layers or 1)
    return ops * stack_of(t, f)["kernel_scale"]


def _decode_step_seconds(m: ModelSpec, t: TrainSpec, target: Any, f: Mapping[str, Any], sp: Speed,
                         batch: int) -> float:
    """One decoding step of `batch` samples: the weights and the KV cache read once, the forward's FLOPs for one token
    per sample at the training step's achieved matrix rate, the decoder's operators dispatched; the longest."""
    eb = element_bytes(t.precision)
    h = m.hidden or 0
    head = h * (m.vocab or 0)
    kv = kv_dim(m)
    steps_so_far = t.generate_tokens / 2.0
    if s2s.is_seq2seq(m):
        weights = s2s.decoder_linear_params(m) + head
        cache = 2.0 * m.decoder_layers * kv * (seq_len_of(t) + steps_so_far)
    else:
        weights = block_linear_params(m) + head
        # Gated DeltaNet layers keep a fixed state per head instead of a cache (gpucheck/estimate/linear_attention.py)
        cache = 2.0 * la.softmax_layers(m) * kv * (seq_len_of(t) + steps_so_far)
    bw = target.streaming_gbps(f) * 1e9
    memory_s = (weights + cache * batch) * eb / bw
    step_flops = sp.flops_per_sample * t.batch
    matmul_s = sp.matmul_seconds * 2.0 * weights * batch / step_flops if step_flops else 0.0
    return max(memory_s, matmul_s, dispatch_seconds(decode_step_operators(m, t, f), target, f))


def pass_seconds(m: ModelSpec, t: TrainSpec, target: Any, f: Mapping[str, Any], sp: Speed) -> float:
    """One evaluation of t.eval_samples on `target` (each process its share, side by side)."""
    per_process = math.ceil(t.eval_samples / max(1, target.processes))
    batch = t.eval_batch or t.batch
    batches = math.ceil(per_process / batch)
    linear, attn = forward_flops_per_sample(m, t)
    forward = linear + attn + (m.aux_forward_gflops or 0.0) * 1e9 + s2s.extra_forward_flops(m, t)
    share = forward / max(1.0, train_flops_per_sample(m, t))
    gpu_s = (sp.matmul_seconds + sp.memory_seconds) * share * batch / max(1, t.batch)
    forward_s = max(gpu_s, dispatch_seconds(forward_operators(m, t, f), target, f)) if target.gpu is not None \
        else gpu_s + dispatch_seconds(forward_operators(m, t, f), target, f)
    per_batch = forward_s
    if t.generate_tokens > 0 and m.arch == "transformer":
        per_batch += forward_s + t.generate_tokens * _decode_step_seconds(m, t, target, f, sp, batch)
    reading = per_process * sample_input_seconds(t, target, f) if in_training_process(t) else 0.0
    return batches * per_batch + reading


def evaluation(m: ModelSpec, t: TrainSpec, target: Any, f: Mapping[str, Any], sp: Speed | None,
               run_samples: float, epoch_samples: float) -> Evaluation:
    """The run's evaluations: how many and what one costs (none unless the job states an eval set; the cost of one
    even where the run is too short to reach one)."""
    if t.eval_samples <= 0 or sp is None:
        return Evaluation(0, 0.0)
    return Evaluation(eval_passes(t, run_samples, epoch_samples, target.processes), pass_seconds(m, t, target, f, sp))
