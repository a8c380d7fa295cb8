"""How long one optimizer step takes on one CPU core, by how torch.optim runs it: the per-tensor loop (torch's default
on a CPU), the multi-tensor (foreach) kernels, and the fused kernel (torch.optim.AdamW(fused=True), which the Hugging
Face Trainer runs by default on PyTorch >= 2.8 and the trial's runner asks for). The parameters are BERT-base's
shapes (the 30,522 × 768 word embedding, 12 blocks' linear layers, 100 bias / norm vectors: 108.5 M fp32).

    python benchmarks/measure_optimizer_step_cpu.py OUT.json [--python PY]

Runs in a fresh child of PY (default .venv-trial/bin/python), one PyTorch thread, CPU seconds (time.process_time) and
minor page faults (getrusage) of the step alone, the median of 6 steps after fresh gradients.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gpucheck.probe import scan  # noqa: E402

CHILD = r'''
import json, resource, sys, time
import torch
torch.set_num_threads(1)
torch.manual_seed(0)
shapes = [(30522, 768)] + [(768, 768)] * 48 + [(3072, 768)] * 24 + [(768,)] * 100
out = {"torch": torch.__version__}
for optim in ("adamw", "sgd"):
    for kind in ("single", "foreach", "fused"):
        ps = [torch.nn.Parameter(torch.randn(*s)) for s in shapes]
        kw = {"fused": True} if kind == "fused" else {"foreach": kind == "foreach"}
        o = (torch.optim.AdamW(ps, lr=1e-4, **kw) if optim == "adamw"
             else torch.optim.SGD(ps, lr=1e-3, momentum=0.9, **kw))
        times, faults = [], []
        for _ in range(7):
            for p in ps:
                p.grad = torch.randn_like(p)
            f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            t0 = time.process_time()
            o.step()
            times.append(time.process_time() - t0)
            faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0)
        times, faults = sorted(times[1:]), sorted(faults[1:])
        out[f"{optim} {kind}"] = {"cpu_seconds": round(times[len(times) // 2], 4),
                                  "minor_faults": faults[len(faults) // 2]}
        del o, ps
out["parameters"] = sum(torch.Size(s).numel() for s in shapes)
print(json.dumps(out))
'''


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--python", default=str(ROOT / ".venv-trial" / "bin" / "python"))
    a = ap.parse_args()
    cpu = scan().cpu
    load = os.getloadavg()[0]
    res = json.loads(subprocess.run([a.python, "-c", CHILD], capture_output=True, text=True, check=True,
                                    timeout=900).stdout.strip().splitlines()[-1])
    data = {"about": __doc__.split("\n\n")[0].replace("\n", " "),
            "at": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
            "cpu": cpu.brand, "flags": [f for f in cpu.flags if f in ("amx_bf16", "avx512_bf16", "avx512f", "avx2")],
            "load_average": round(load, 1), "steps": res}
    Path(a.out).write_text(json.dumps(data, indent=1) + "\n")
    print(json.dumps(data, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
