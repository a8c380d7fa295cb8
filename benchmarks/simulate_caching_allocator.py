"""Replay a language-model loss's vocabulary-wide allocations through PyTorch's CUDA caching allocator, step after step
at varying lengths, and report how far the reserve (torch.cuda.max_memory_reserved) rises above the longest step's
allocated peak (resources/evidence/ms-swift-benchmark.toml, [source] note).

Usage: python benchmarks/simulate_caching_allocator.py > benchmarks/data/caching-allocator-ms-swift.json (pure Python).

The allocator, as c10/cuda/CUDACachingAllocator.cpp runs it with the default settings (PyTorch 2.1, the ms-swift
benchmark's; unchanged in later releases without PYTORCH_CUDA_ALLOC_CONF): sizes rounded up to 512 B; requests over
1 MiB (kSmallSize) come from the large pool; a request takes the smallest cached free block that fits
(get_free_block: pool.blocks.lower_bound, blocks ordered by size then address; max_split_size unlimited) and splits it
when more than 1 MiB would remain (should_split); with none, a new segment is mapped (alloc_block), 20 MiB
(kLargeBuffer) for requests under 10 MiB (kMinLargeAlloc), else the request rounded up to 2 MiB (kRoundLarge); a freed
block merges with free neighbours of its own segment only; segments go back to the driver only when a cudaMalloc fails
(release_cached_blocks) or on torch.cuda.empty_cache(), neither of which these runs reach.

The step: ms-swift 1.x (commit 97e4d198b, the benchmark's) trains through the Hugging Face Trainer with bf16, so
accelerate wraps the model's forward in autocast and convert_outputs_to_fp32. Qwen-1's remote modeling_qwen.py
(QWenLMHeadModel.forward): lm_logits = self.lm_head(hidden_states) [bf16]; shift_logits = lm_logits[..., :-1,
:].contiguous() [a copy only when batch > 1: at batch 1 the slice is already contiguous]; CrossEntropyLoss ->
cross_entropy -> log_softmax(x, dim, x.dtype) [bf16: autocast's fp32_set_opt_dtype keeps the explicit dtype] ->
nll_loss [autocast fp32: an fp32 cast of the log-probabilities, saved for backward]. convert_outputs_to_fp32 then
returns logits.float() [fp32] and drops the bf16 output; swift's Seq2SeqTrainer.compute_loss reads
outputs.logits.argmax(dim=2) and returns the loss only, so the fp32 logits die before backward. Backward:
nll_loss_backward's zero-filled fp32 gradient (the saved fp32 cast released after it), the cast's bf16 gradient,
log_softmax_backward's bf16 result (the saved log-probabilities released), the slice's zero-filled bf16 gradient
(slice_backward), then lm_head's input gradient. The layers' activations are left out of the other cases: the last two
cases run the same ten orders without and with a stand-in of Qwen 7B's 32 checkpointed layers (`layers`).
"""

from __future__ import annotations

import bisect
import json
import random
import statistics

KiB, MiB = 1 << 10, 1 << 20


def _round(n: int) -> int:
    return 512 * -(-n // 512)


def _segment(n: int) -> int:
    if n <= MiB:
        return 2 * MiB
    if n < 10 * MiB:
        return 20 * MiB
    return 2 * MiB * -(-n // (2 * MiB))


class Allocator:
    """Best-fit caching allocator (one stream; the small pool kept apart, as the real one does)."""

    def __init__(self) -> None:
        self.free: dict[bool, list[tuple[int, int]]] = {True: [], False: []}  # pool -> sorted (size, block id)
        self.block: dict[int, list] = {}  # id -> [segment, offset, size, is_free, small]
        self.at: dict[tuple[int, int], int] = {}  # (segment, offset) -> id
        self.end: dict[tuple[int, int], int] = {}  # (segment, end offset) -> id
        self.reserved = self.allocated = self.peak_reserved = self.peak_allocated = 0
        self._ids = self._segs = 0

    def _add(self, seg: int, off: int, size: int, free: bool, small: bool) -> int:
        self._ids += 1
        self.block[self._ids] = [seg, off, size, free, small]
        self.at[(seg, off)] = self.end[(seg, off + size)] = self._ids
        if free:
            bisect.insort(self.free[small], (size, self._ids))
        return self._ids

    def _drop(self, b: int) -> list:
        seg, off, size, _, small = blk = self.block.pop(b)
        del self.at[(seg, off)], self.end[(seg, off + size)]
        return blk

    def malloc(self, nbytes: int) -> int:
        n = _round(nbytes)
        small = n <= MiB
        pool = self.free[small]
        i = bisect.bisect_left(pool, (n, -1))
        if i < len(pool):
            _, b = pool.pop(i)
            seg, off, size, _, _ = self._drop(b)
        else:
            self._segs, seg, off, size = self._segs + 1, self._segs + 1, 0, _segment(n)
            self.reserved += size
            self.peak_reserved = max(self.peak_reserved, self.reserved)
        rest = size - n
        if rest > (0 if small else MiB) and rest >= 512:
            self._add(seg, off + n, rest, True, small)
            size = n
        self.allocated += size
        self.peak_allocated = max(self.peak_allocated, self.allocated)
        return self._add(seg, off, size, False, small)

    def release(self, b: int) -> None:
        seg, off, size, _, small = self._drop(b)
        self.allocated -= size
        for key, before in (((seg, off + size), False), ((seg, off), True)):
            n = (self.end if before else self.at).get(key)
            if n is not None and self.block[n][3]:
                self.free[small].remove((self.block[n][2], n))
                s2 = self._drop(n)
                off, size = (s2[1], size + s2[2]) if before else (off, size + s2[2])
        self._add(seg, off, size, True, small)


def ms_swift_step(a: Allocator, tokens: int, vocab: int, batch: int, layers: tuple[int, int, int] | None = None) -> None:
    """One training step's loss chain (see the module's docstring), in the order the tensors live and die. `layers`
    (count, hidden, ffn): a stand-in of the checkpointed layers around it — each layer's kept input and a transient
    MLP-sized tensor in the forward, the recomputed layer's tensors and gradients in the backward."""
    e = tokens * vocab
    kept, grad = [], None
    for _ in range(layers[0] if layers else 0):
        mlp = a.malloc(2 * tokens * layers[2])
        kept.append(a.malloc(2 * tokens * layers[1]))
        a.release(mlp)
    logits = a.malloc(2 * e)
    shift = a.malloc(2 * e) if batch > 1 else None
    logp = a.malloc(2 * e)
    logp32 = a.malloc(4 * e)
    if shift is not None:
        a.release(shift)
    out32 = a.malloc(4 * e)
    a.release(logits)
    a.release(out32)
    g_nll = a.malloc(4 * e)
    a.release(logp32)
    g_cast = a.malloc(2 * e)
    a.release(g_nll)
    g_lsm = a.malloc(2 * e)
    a.release(logp)
    a.release(g_cast)
    g_slice = a.malloc(2 * e)
    a.release(g_lsm)
    if layers:
        grad = a.malloc(2 * tokens * layers[1])
    a.release(g_slice)
    for x in reversed(kept):
        mlp, g = a.malloc(2 * tokens * layers[2]), a.malloc(2 * tokens * layers[1])
        a.release(mlp)
        a.release(grad)
        a.release(x)
        grad = g
    if grad is not None:
        a.release(grad)


def run(step_tokens: list[int], vocab: int, batch: int, layers: tuple[int, int, int] | None = None) -> tuple[int, int]:
    """(peak reserved, peak allocated) over the steps, in bytes."""
    a = Allocator()
    for t in step_tokens:
        ms_swift_step(a, t, vocab, batch, layers)
    return a.peak_reserved, a.peak_allocated


def gamma_lengths(rng: random.Random, samples: int, longest: int, mean: float, sd: float, shortest: int) -> list[int]:
    """The dataset's token lengths as the rows' `how` models them (a gamma with the published mean and s.d.), the
    samples over max_length dropped (swift's truncation_strategy 'delete'), in one shuffled epoch."""
    k, theta = (mean / sd) ** 2, sd * sd / mean
    lengths = [max(shortest, int(rng.gammavariate(k, theta))) for _ in range(samples)]
    kept = [x for x in lengths if x <= longest]
    rng.shuffle(kept)
    return kept


def case(longest: int, samples: int, batch: int, vocab: int, seeds: int, order: str = "shuffled",
         layers: tuple[int, int, int] | None = None) -> dict:
    """The reserve's excess over the longest step's allocated peak, in bytes per (batch x max_length) x vocabulary
    entry, over `seeds` draws of the data order."""
    unit = batch * longest * vocab
    one = Allocator()
    ms_swift_step(one, batch * longest, vocab, batch, layers)
    excess, records = [], []
    for s in range(seeds):
        lengths = gamma_lengths(random.Random(s), samples, longest, 3236.4, 2547.5, 93)
        if order == "longest_first":
            lengths.sort(reverse=True)
        steps = [batch * max(lengths[i:i + batch]) for i in range(0, len(lengths) - batch + 1, batch)]
        reserved, _ = run(steps, vocab, batch, layers)
        excess.append((reserved - one.peak_allocated) / unit)
        records.append(sum(1 for i, t in enumerate(steps) if t > max(steps[:i], default=0)))
    q = statistics.quantiles(excess, n=10)
    return {"max_length": longest, "batch": batch, "order": order, "layers": layers, "steps_last_order": len(steps), "seeds": seeds,
            "allocated_bytes_per_element": one.peak_allocated / unit,
            "excess_bytes_per_element": {"p10": round(q[0], 1), "median": round(statistics.median(excess), 1),
                                         "p90": round(q[-1], 1), "min": round(min(excess), 1),
                                         "max": round(max(excess), 1)},
            "new_longest_steps_median": statistics.median(records)}


def one_generation(longest: int, vocab: int, batch: int) -> float:
    """Bytes per element a step a few tokens longer than every earlier one maps anew (2 MiB segments: 4 tokens at
    Qwen's vocabulary in fp32)."""
    a = Allocator()
    ms_swift_step(a, batch * (longest - 4), vocab, batch)
    before = a.reserved
    ms_swift_step(a, batch * longest, vocab, batch)
    return (a.reserved - before) / (batch * longest * vocab)


def main() -> None:
    vocab, samples = 151936, 4959  # Qwen-1's vocabulary; cls-fudan-news-zh's 4,959 samples (swift's dataset table)
    cases = [case(512, samples, 1, vocab, 40), case(2048, samples, 1, vocab, 40), case(8192, 1000, 1, vocab, 40),
             case(2048, samples, 2, vocab, 40), case(2048, samples, 4, vocab, 40),
             case(2048, samples, 1, vocab, 10, order="longest_first"),
             case(2048, samples, 1, vocab, 10), case(2048, samples, 1, vocab, 10, layers=(32, 4096, 11008))]  # Qwen 7B
    print(json.dumps({"what": __doc__.split("\n\n")[0], "allocator": "PyTorch 2.1 CUDACachingAllocator defaults",
                      "one_generation_bytes_per_element": {"batch 1": round(one_generation(2048, vocab, 1), 2),
                                                           "batch 2": round(one_generation(2048, vocab, 2), 2)},
                      "cases": cases}, indent=1))


if __name__ == "__main__":
    main()
