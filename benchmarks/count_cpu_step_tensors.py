"""Count the tensors a conv net's training step allocates whose size grows with the batch (ModelSpec.step_tensors):
on Linux the ones above glibc's 32 MiB mmap ceiling are mapped afresh, and fault their pages in, every step
(gpucheck/estimate/cpu_pages.py, factors.toml [cpu.page_faults]).

    /path/to/python-with-torch benchmarks/count_cpu_step_tensors.py [--out FILE]

Runs with the trial's Python (one with torch and torchvision), which also imports gpucheck from this checkout for the
jobs' trial specs (gpucheck/trial/models.py job_spec). Each job's real training step (gpucheck/trial/runner.py: the
same model builder, channels_last for torchvision's nets, autocast, optimizer and `_step`) runs on the CPU, one
thread, after two warm-up steps, once under torch.profiler with profile_memory at each of two batches (JOBS), and the allocator's
record of every block the step allocates is kept. A size that appears at the larger batch at twice a size of the
smaller, as often, grows with the batch: its elements per sample (bytes / batch / the job's element size, 2 in bf16 and 4 in fp32) and how many
such tensors a step allocates are written, with the minor page faults of three plain steps at each batch (the median,
getrusage) beside them; sizes that do not double (weights' casts and gradients, the optimizer's
state, BatchNorm's statistics) are left out, as are those under 1,024 elements per sample.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import resource
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gpucheck.catalog import get_workload  # noqa: E402
from gpucheck.estimate import apply_overrides  # noqa: E402
from gpucheck.trial.calibrate import trial_workload  # noqa: E402
from gpucheck.trial.models import job_spec  # noqa: E402

RUNNER = ROOT / "gpucheck" / "trial" / "runner.py"
# job -> the two batches it is counted at: large enough that every batch-sized tensor is allocated whole (at small
# batches oneDNN's convolutions allocate other, im2col-sized, scratch buffers: the CIFAR ResNet-18 at batch 4 and 8)
JOBS = {"mnist-cnn": (64, 128), "cifar10-resnet18": (64, 128), "resnet50-finetune": (32, 64)}
MIN_ELEMENTS = 1024


def _runner():
    spec = importlib.util.spec_from_file_location("trial_runner", RUNNER)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _allocations(r, spec: dict, batch: int) -> tuple[collections.Counter, int]:
    torch = r.torch
    job = r.BUILDERS[spec["builder"]](spec, "cpu", batch)
    job.model.train()
    opt, _impl = r._optimizer(spec, job.params, "cpu")
    dtype = r.amp_dtype(spec["train"].get("precision", "fp32"), "cpu")
    for _ in range(2):
        r._step(job, opt, None, "cpu", dtype, batch)
    faults = []
    for _ in range(3):  # the plain step's minor page faults, for comparison (getrusage)
        a = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        r._step(job, opt, None, "cpu", dtype, batch)
        faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - a)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], profile_memory=True) as prof:
        r._step(job, opt, None, "cpu", dtype, batch)
    events = prof.profiler.kineto_results.events()  # the allocator's own records: one '[memory]' event per block
    sizes = collections.Counter(ev.nbytes() for ev in events if ev.name() == "[memory]" and ev.nbytes() > 0)
    return sizes, int(statistics.median(faults))


def count(r, job: str, batches: tuple[int, int]) -> dict:
    w = trial_workload(apply_overrides(get_workload(job), batch=batches[0]), None)
    spec = job_spec(w, steps=None, max_seconds=10, device="cpu", search_batch=False)
    (small, faults_small), (large, faults_large) = (_allocations(r, dict(spec, train=dict(spec["train"], batch=b)), b)
                                                    for b in batches)
    element = 2 if w.train.precision in ("bf16", "fp16", "bf16-pure", "fp16-pure") else 4
    per_sample: collections.Counter = collections.Counter()
    for size, n in small.items():
        doubled = min(n, large.get(2 * size, 0))
        elements = size // batches[0] // element
        if doubled and elements >= MIN_ELEMENTS:
            per_sample[elements] += doubled
    rows = sorted(([e, n] for e, n in per_sample.items()), reverse=True)
    return {"batches": list(batches), "precision": w.train.precision, "channels_last": w.train.channels_last,
            "image_size": w.train.image_size, "element_bytes": element, "step_tensors": rows,
            "elements_per_sample": sum(e * n for e, n in rows),
            "minor_faults_per_step": {str(batches[0]): faults_small, str(batches[1]): faults_large}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "data" / "cpu-step-tensors.json"))
    a = ap.parse_args()
    r = _runner()
    r.torch.set_num_threads(1)
    r.torch.manual_seed(0)
    jobs = {j: count(r, j, b) for j, b in JOBS.items()}
    for j, v in jobs.items():
        print(j, v["elements_per_sample"], v["step_tensors"][:6], flush=True)
    doc = {"about": __doc__.split("\n\n", 2)[2].strip(), "torch": r.torch.__version__, "jobs": jobs}
    Path(a.out).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
