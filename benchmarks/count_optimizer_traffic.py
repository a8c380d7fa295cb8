"""Count the bytes one optimizer.step() reads and writes per parameter, by how the step runs.

    /path/to/python-with-torch benchmarks/count_optimizer_traffic.py [-v] [bf16]

Runs with a Python that has torch (the trial's), not gpucheck's. Builds 4 fp32 (or bf16) parameters of 2^20
elements each, takes one warm-up step (the state exists), then sums over one optimizer.step() under a
TorchDispatchMode every ATen operator's tensor arguments (read) and its mutated arguments or outputs (written),
tensors under 4,096 elements (step counters) left out. 'distinct' counts a tensor passed twice to one operator
(addcmul_(grad, grad)) once, as DRAM sees it. The fused kernels' schema marks the gradients as written; the CUDA
kernel stores them only under a GradScaler (fused_adam_utils.cuh), so the fused figures here are 4 B (fp32) high.
Checks resources/factors.toml [bandwidth.optimizer_bytes_per_trainable_param]; a count, not a fit. Adafactor (with
transformers installed, as in the trial's Python) is counted on matrices, the only tensors whose state it factors.
"""

from __future__ import annotations

import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

N_MIN = 4096  # smaller tensors (step counters, scalars) left out


def _tensors(value: object) -> list[torch.Tensor]:
    return [x for x in tree_flatten(value)[0] if isinstance(x, torch.Tensor) and x.numel() >= N_MIN]


def _bytes(tensors: list[torch.Tensor]) -> int:
    return sum(t.numel() * t.element_size() for t in tensors)


class Count(TorchDispatchMode):
    """Bytes read (all tensor arguments; distinct storages) and written (mutated arguments, else outputs)."""

    def __init__(self) -> None:
        super().__init__()
        self.read = self.distinct = self.write = 0
        self.ops: list[tuple[str, int, int]] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        reads: list[torch.Tensor] = []
        writes: list[torch.Tensor] = []
        mutates = False
        for i, a in enumerate(func._schema.arguments):
            ts = _tensors(args[i] if i < len(args) else kwargs.get(a.name))
            reads += ts
            if a.alias_info is not None and a.alias_info.is_write:
                writes += ts
                mutates = True
        if not mutates:
            writes += _tensors(out)
        r, w = _bytes(reads), _bytes(writes)
        if r or w:
            self.read += r
            self.write += w
            self.distinct += sum({(t.data_ptr(), t.numel()): _bytes([t]) for t in reads}.values())
            self.ops.append((str(func), r, w))
        return out


CASES = {
    "adamw single": lambda ps: torch.optim.AdamW(ps, lr=1e-3, foreach=False),
    "adamw foreach": lambda ps: torch.optim.AdamW(ps, lr=1e-3, foreach=True),
    "adamw fused": lambda ps: torch.optim.AdamW(ps, lr=1e-3, fused=True),
    "adam single (wd=0)": lambda ps: torch.optim.Adam(ps, lr=1e-3, foreach=False),
    "adam foreach (wd=0)": lambda ps: torch.optim.Adam(ps, lr=1e-3, foreach=True),
    "sgd-m single": lambda ps: torch.optim.SGD(ps, lr=1e-3, momentum=0.9, foreach=False),
    "sgd-m foreach": lambda ps: torch.optim.SGD(ps, lr=1e-3, momentum=0.9, foreach=True),
    "sgd-m fused": lambda ps: torch.optim.SGD(ps, lr=1e-3, momentum=0.9, fused=True),
}
# transformers' Adafactor as the Trainer (optim="adafactor") and kohya's sd-scripts build it; it factors the state of
# tensors of 2+ dimensions only, so it is counted on 1,024 x 1,024 matrices (the 1-D parameters above take its
# unfactored path)
MATRIX_CASES = {
    "adafactor (transformers)": lambda ps: _adafactor()(ps, lr=1e-4, scale_parameter=False, relative_step=False,
                                                        warmup_init=False),
}
MATRIX = (1024, 1024)


def _adafactor():  # noqa: ANN202
    from transformers.optimization import Adafactor

    return Adafactor


def count(make, dtype: torch.dtype, n_tensors: int = 4, shape: tuple[int, ...] = (1 << 20,)) -> tuple[Count, int]:  # noqa: ANN001
    torch.manual_seed(0)
    ps = [torch.nn.Parameter(torch.randn(shape, dtype=dtype)) for _ in range(n_tensors)]
    opt = make(ps)
    for p in ps:
        p.grad = torch.randn_like(p)
    opt.step()  # the state exists from here on
    for p in ps:
        p.grad = torch.randn_like(p)
    with Count() as c:
        opt.step()
    return c, n_tensors * ps[0].numel()


def main() -> None:
    dtype = torch.bfloat16 if "bf16" in sys.argv else torch.float32
    print("torch", torch.__version__, dtype)
    cases = [(name, make, (1 << 20,)) for name, make in CASES.items()]
    cases += [(name, make, MATRIX) for name, make in MATRIX_CASES.items()]
    for name, make, shape in cases:
        try:
            c, n = count(make, dtype, shape=shape)
        except (RuntimeError, TypeError, ImportError) as e:  # fused kernels a CPU build lacks; no transformers
            print(f"{name:22s} unsupported: {str(e)[:80]}")
            continue
        print(f"{name:22s} read {c.read / n:5.1f} (distinct {c.distinct / n:5.1f}) write {c.write / n:5.1f} "
              f"total {(c.read + c.write) / n:5.1f} distinct {(c.distinct + c.write) / n:5.1f} B/param, {len(c.ops)} ops")
        if "-v" in sys.argv:
            for op, r, w in c.ops:
                print("    ", op, r // n, w // n)


if __name__ == "__main__":
    main()
