"""Count the bytes and elements eager attention's element-wise operators move on the score matrices, per layer code.

    /work/main/.venv-trial/bin/python benchmarks/count_score_traffic.py > benchmarks/data/score-traffic.json

Eager attention materializes heads × s × s scores per sample and runs element-wise operators over them between its two
GEMMs: a scale, a mask, a softmax, casts, a dropout. How many, and in which dtype, differs by code: Hugging Face's Llama
scales the scores, adds the mask, soft-maxes in fp32 and casts back; BERT divides by √d, adds an fp32 mask (the sum
is fp32 by type promotion under autocast) and soft-maxes; Whisper scales q before the GEMM and its encoder has no mask.
Each eager lineage of count_layer_operators.py is built with 1 and 2 layers and one training step's forward and
backward run under a TorchDispatchMode that adds up, for every operator that is not a GEMM or a view, the bytes of its
tensor inputs and outputs shaped like the scores (batch × heads × s × s elements; the tiny widths are chosen so that
no other tensor has that size), and the elements. The 2-layer figure minus the 1-layer figure, divided by one layer's
score elements, gives bytes and elements per score element: forward (with the loss's share cancelling) and backward.
The GEMMs that write the scores and read the probabilities are priced by their FLOPs elsewhere and are left out.

Three precisions:
- `autocast`: the CUDA data flow emulated on the CPU with bf16 autocast (16-bit GEMM outputs as CUDA's), fp32 master
  weights; CUDA autocast runs softmax in fp32 where the code gives no dtype (PyTorch 'Automatic Mixed Precision' op
  reference, 'CUDA Ops that can autocast to float32': softmax), which CPU autocast does not: a TorchFunctionMode gives
  softmax dtype=float32 there, as CUDA's would;
- `pure16`: the model cast to bf16, no autocast;
- `fp32`: fp32, no autocast.
Dropout 0 (its operators are priced apart, factors.toml [speed.elementwise] score_dropout_elements).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import count_layer_operators as col
import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

col.SEQ = 40  # scores 2 × 4 × 40 × 40 = 12,800 elements; hidden 5,120, MLP 13,760, logits 10,240: no collision
EAGER = ("hf-llama-eager", "hf-gpt2-eager", "hf-bert-eager", "hf-distilbert-eager", "hf-vit-eager", "hf-whisper-eager")
GEMMS = {"mm", "bmm", "addmm", "baddbmm", "matmul", "addbmm"}
VIEWS = {"view", "_unsafe_view", "expand", "transpose", "permute", "slice", "select", "unsqueeze", "squeeze", "detach",
         "alias", "t", "as_strided", "reshape", "lift_fresh", "_reshape_alias", "unbind", "split", "split_with_sizes",
         "chunk", "narrow", "view_as"}


class ScoreTraffic(TorchDispatchMode):
    def __init__(self, numel: int) -> None:
        super().__init__()
        self.numel, self.bytes, self.elements = numel, 0, 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        name = str(func.overloadpacket.__name__)
        if name not in GEMMS and name not in VIEWS:
            for t in tree_flatten((args, kwargs or {}, out))[0]:
                if isinstance(t, torch.Tensor) and t.numel() == self.numel:
                    self.bytes += t.numel() * t.element_size()
                    self.elements += t.numel()
        return out


class Fp32Softmax(TorchFunctionMode):
    """CUDA autocast's softmax: fp32 where the call gives no dtype."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if func in (F.softmax, torch.softmax, torch.Tensor.softmax) and kwargs.get("dtype") is None \
                and torch.is_autocast_enabled("cpu"):
            kwargs["dtype"] = torch.float32
        return func(*args, **kwargs)


def _score_numel(kind: str) -> int:
    tokens = 17 if kind.startswith("hf-vit") else col.SEQ  # ViT: 16 patches of a 32 px image and the class token
    return col.BATCH * col.HEADS * tokens * tokens


def measure(kind: str, layers: int, mode: str) -> tuple[int, int, int, int]:
    torch.manual_seed(0)
    model = col.build(kind, layers)
    model = model.to(torch.bfloat16 if mode == "pure16" else torch.float32).train()
    ids = torch.randint(0, col.VOCAB, (col.BATCH, col.SEQ))
    n = _score_numel(kind)
    fwd, bwd = ScoreTraffic(n), ScoreTraffic(n)
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=mode == "autocast"), Fp32Softmax():
        with fwd:
            loss = col._loss(model, ids, ids.clone())
    with bwd:
        loss.backward()
    return fwd.bytes, fwd.elements, bwd.bytes, bwd.elements


def per_score_element(kind: str, mode: str) -> dict[str, float]:
    one, two = measure(kind, 1, mode), measure(kind, 2, mode)
    n = _score_numel(kind)
    keys = ("forward_bytes", "forward_elements", "backward_bytes", "backward_elements")
    return {k: round((b - a) / n, 3) for k, a, b in zip(keys, one, two, strict=True)}


def main() -> None:
    import transformers

    out: dict[str, Any] = {"torch": torch.__version__, "transformers": transformers.__version__,
                           "method": " ".join(__doc__.split("\n\n")[1:3]).replace("\n", " "), "per_score_element": {}}
    for kind in EAGER:
        out["per_score_element"][kind] = {mode: per_score_element(kind, mode) for mode in ("autocast", "pure16", "fp32")}
        print(kind, out["per_score_element"][kind], file=sys.stderr)
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
