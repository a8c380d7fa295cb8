"""Where a CPU trial step's time goes, operator kind by operator kind (torch.profiler).

    python benchmarks/profile_cpu_step.py SPECS.json OUT.json [--steps 3] [--jobs mnist-cnn,...]
        [--variants cifar10-resnet18:adamw,resnet50-finetune:sgd] [--elementwise]

Runs with the USER'S Python (one with torch: the trial runner's), not gpucheck's. SPECS.json maps job → the job
spec the trial sends its runner (gpucheck/trial/models.py job_spec, `threads` = 1; `bench_calibration.py
profile` writes it and calls this). Each job's real training step (gpucheck/trial/runner.py: the same model
builder, optimizer, autocast and `_step`) runs with one PyTorch thread: two warm-up steps, then `--steps` steps
under torch.profiler (CPU activities, record_shapes). Every operator's SELF CPU time is put in one group by what
it does and where it runs (forward, backward: inside an autograd node, or optimizer.step), and the groups are
given per step in CPU seconds: the profiler times wall-clock intervals, so each is scaled by the profiled
steps' CPU ÷ wall seconds (waits for a core on a shared machine stretch every operator alike). "unprofiled" is the step's CPU seconds measured the same way without the profiler (median of
`--steps` steps, time.process_time) less the profiled self time: Python and autograd-engine time outside any
operator, plus whatever the profiler's own recording adds to it (it is not subtracted). The unprofiled steps also
give the kernel (system) seconds and minor page faults per step (getrusage): memory the C allocator handed back to
the operating system and takes again in the next step is zeroed and mapped page by page, in the step's CPU time.
`--variants` runs a job with another optimizer (no profiler) for those figures; `--elementwise` times ReLU,
its backward, an add and BatchNorm forward / backward alone per element, fp32 against bf16.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import resource
import statistics
import sys
import time
from pathlib import Path

RUNNER = Path(__file__).resolve().parents[1] / "gpucheck" / "trial" / "runner.py"

# operator name (aten::..., without the prefix) → kind; the first pattern contained in the name wins
KINDS = [
    ("convolution", ("convolution", "conv2d", "mkldnn_conv", "conv_depthwise")),
    ("attention", ("scaled_dot_product", "flash_attention")),
    ("matmul", ("addmm", "matmul", "linear", "bmm", "baddbmm", "::mm", "mkldnn_linear", "addbmm")),
    ("batch_norm", ("batch_norm",)),
    ("layer_norm", ("layer_norm",)),
    ("pooling", ("pool",)),
    ("loss / softmax", ("nll_loss", "log_softmax", "cross_entropy", "softmax")),
    ("embedding", ("embedding",)),
    ("dtype cast / copy", ("_to_copy", "copy_", "::to", "clone", "contiguous", "_copy_from")),
    ("dropout / random", ("dropout", "bernoulli", "rand", "uniform_", "normal_")),
    ("reduction", ("sum", "mean", "::max", "::min", "norm", "amax")),
    ("elementwise", ("relu", "threshold", "add", "mul", "div", "sub", "gelu", "tanh", "where", "masked", "fill_",
                     "zero_", "sqrt", "pow", "exp", "neg", "lerp", "addcdiv", "addcmul", "clamp", "sign", "abs")),
    ("view / shape", ("view", "reshape", "transpose", "permute", "expand", "slice", "select", "split", "unsqueeze",
                      "squeeze", "flatten", "t", "as_strided", "empty", "resize_", "detach", "alias", "chunk",
                      "narrow", "cat", "stack", "index", "result_type", "is_", "_has_compatible", "lift")),
]


def kind_of(name: str) -> str:
    low = name.lower()
    if not low.startswith("aten::"):
        return "framework (autograd nodes, profiler scopes)"
    for kind, keys in KINDS:
        if any(k in low for k in keys):
            return kind
    return "other aten"


def phase_of(ev) -> str:
    p = ev
    while p is not None:
        n = p.name
        if n.startswith("Optimizer.step"):
            return "optimizer"
        if n.startswith("Optimizer.zero_grad"):
            return "zero_grad"
        if n.startswith("autograd::engine::evaluate_function") or n.endswith("Backward0") or "Backward" in n:
            return "backward"
        p = p.cpu_parent
    return "forward"


def _load_runner():
    spec = importlib.util.spec_from_file_location("trial_runner", RUNNER)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def profile_job(r, spec: dict, steps: int) -> dict:
    torch = r.torch
    device, batch = "cpu", int(spec["train"]["batch"])
    job = r.BUILDERS[spec["builder"]](spec, device, batch)
    job.model.train()
    opt, _impl = r._optimizer(spec, job.params, device)
    dtype = r.amp_dtype(spec["train"].get("precision", "fp32"), device)
    for _ in range(2):
        r._step(job, opt, None, device, dtype, batch)
    plain, kernel = [], []
    for _ in range(steps):
        a = resource.getrusage(resource.RUSAGE_SELF)
        r._step(job, opt, None, device, dtype, batch)
        z = resource.getrusage(resource.RUSAGE_SELF)
        plain.append(z.ru_utime - a.ru_utime + z.ru_stime - a.ru_stime)
        kernel.append((z.ru_stime - a.ru_stime, z.ru_minflt - a.ru_minflt))
    steps = max(steps, int(2.0 / max(statistics.median(plain), 1e-3)))  # at least ~2 CPU seconds profiled
    acts = [torch.profiler.ProfilerActivity.CPU]
    c, w = time.process_time(), time.perf_counter()
    with torch.profiler.profile(activities=acts, record_shapes=True) as prof:
        for _ in range(steps):
            r._step(job, opt, None, device, dtype, batch)
    profiled_cpu, profiled_wall = (time.process_time() - c) / steps, (time.perf_counter() - w) / steps
    # the profiler times wall-clock intervals; on a shared machine they stretch by waits for a core: every
    # operator's time is scaled by the profiled steps' CPU ÷ wall seconds (a uniform stretch)
    cpu_per_wall = min(1.0, profiled_cpu / profiled_wall)
    groups: dict[str, float] = collections.defaultdict(float)
    ops: dict[str, float] = collections.defaultdict(float)
    for ev in prof.events():
        self_s = ev.self_cpu_time_total / 1e6 / steps * cpu_per_wall
        if self_s <= 0:
            continue
        phase, kind = phase_of(ev), kind_of(ev.name)
        if kind.startswith("framework"):
            phase = "-"
        groups[f"{phase} | {kind}"] += self_s
        ops[f"{phase} | {ev.name}"] += self_s
    step_s = statistics.median(plain)
    total = sum(groups.values())
    top = sorted(ops.items(), key=lambda kv: -kv[1])[:25]
    return {"profiled_steps": steps, "precision": spec["train"].get("precision"), "batch": batch,
            "cpu_s_per_step_unprofiled": round(step_s, 5), "cpu_s_per_step_profiled": round(profiled_cpu, 5),
            "wall_s_per_step_profiled": round(profiled_wall, 5),
            "system_s_per_step": round(statistics.median(k[0] for k in kernel), 5),
            "minor_page_faults_per_step": int(statistics.median(k[1] for k in kernel)),
            "profiled_self_s": round(total, 5), "unprofiled_s": round(step_s - total, 5),
            "groups_s": {k: round(v, 5) for k, v in sorted(groups.items(), key=lambda kv: -kv[1])},
            "top_ops_s": {k: round(v, 5) for k, v in top}}


def faults_only(r, spec: dict, steps: int) -> dict:
    """CPU seconds, kernel seconds and minor page faults per step, no profiler (median over `steps` steps after
    two warm-up steps)."""
    batch = int(spec["train"]["batch"])
    job = r.BUILDERS[spec["builder"]](spec, "cpu", batch)
    job.model.train()
    opt, _impl = r._optimizer(spec, job.params, "cpu")
    dtype = r.amp_dtype(spec["train"].get("precision", "fp32"), "cpu")
    rows = []
    for i in range(steps + 2):
        a = resource.getrusage(resource.RUSAGE_SELF)
        r._step(job, opt, None, "cpu", dtype, batch)
        z = resource.getrusage(resource.RUSAGE_SELF)
        if i >= 2:
            rows.append((z.ru_utime - a.ru_utime, z.ru_stime - a.ru_stime, z.ru_minflt - a.ru_minflt))
    med = [statistics.median(x[k] for x in rows) for k in range(3)]
    return {"optimizer": spec["train"].get("optimizer"), "user_s_per_step": round(med[0], 4),
            "system_s_per_step": round(med[1], 4), "minor_page_faults_per_step": int(med[2])}


def _timed(fn) -> float:
    fn()
    xs = []
    for _ in range(5):
        c = time.process_time()
        fn()
        xs.append(time.process_time() - c)
    return statistics.median(xs)


def _ops_at(torch, shape: tuple, dt) -> dict:
    """ns per element of each operator alone at `shape` (channels_last) and `dt`, one thread."""
    aten = torch.ops.aten
    x = torch.randn(shape).to(dt).contiguous(memory_format=torch.channels_last)
    g = torch.randn(shape).to(dt).contiguous(memory_format=torch.channels_last)
    c = shape[1]
    w, b, rm, rv = torch.ones(c), torch.zeros(c), torch.zeros(c), torch.ones(c)
    _y, sm, sr = aten.native_batch_norm(x, w, b, rm, rv, True, 0.1, 1e-5)
    ops = {"relu": lambda: torch.relu(x), "threshold_backward (ReLU's backward)": lambda: aten.threshold_backward(g, x, 0),
           "add": lambda: x + g, "batch_norm forward": lambda: aten.native_batch_norm(x, w, b, rm, rv, True, 0.1, 1e-5),
           "batch_norm backward": lambda: aten.native_batch_norm_backward(g, x, w, rm, rv, sm, sr, True, 1e-5,
                                                                          [True, True, True])}
    return {k: round(_timed(fn) / x.numel() * 1e9, 3) for k, fn in ops.items()}


def elementwise(torch) -> dict:
    """ns per element, one thread, channels_last, the ResNet shapes: fp32 against bf16."""
    return {f"{'x'.join(map(str, shape))} {str(dt).replace('torch.', '')}": _ops_at(torch, shape, dt)
            for shape in ((8, 256, 56, 56), (128, 64, 16, 16)) for dt in (torch.float32, torch.bfloat16)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("specs")
    ap.add_argument("out")
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--jobs", default="")
    ap.add_argument("--variants", default="", help="job:optimizer,... run without the profiler, page faults only")
    ap.add_argument("--elementwise", action="store_true")
    a = ap.parse_args()
    specs = json.loads(Path(a.specs).read_text())
    r = _load_runner()
    r.torch.set_num_threads(1)
    out_path = Path(a.out)
    res = json.loads(out_path.read_text()) if out_path.exists() else {}
    res.setdefault("jobs", {})
    res["how"] = (f"benchmarks/profile_cpu_step.py: each job's trial step (gpucheck/trial/runner.py), one PyTorch "
                  f"thread, 2 warm-up steps, {a.steps} plain steps (getrusage: CPU, kernel seconds, minor page faults), then "
                  f"{a.steps} steps (more for a short step: ~2 CPU seconds in all) under torch.profiler (CPU activities, "
                  "record_shapes); each operator's self time per step, scaled by the profiled steps' CPU / wall "
                  "seconds, grouped by phase | operator kind")
    res["torch"] = r.torch.__version__
    res["cpu_capability"] = r.torch.backends.cpu.get_cpu_capability()
    for job in [j for j in (a.jobs.split(",") if a.jobs else specs)]:
        t = time.time()
        res["jobs"][job] = profile_job(r, specs[job], a.steps)
        print(job, round(time.time() - t, 1), "s", res["jobs"][job]["cpu_s_per_step_unprofiled"], flush=True)
        out_path.write_text(json.dumps(res, indent=1) + "\n")
    for v in filter(None, a.variants.split(",")):
        job, optim = v.split(":")
        spec = json.loads(json.dumps(specs[job]))
        spec["train"]["optimizer"] = optim
        res.setdefault("optimizer_variants", {})[f"{job} with {optim}"] = faults_only(r, spec, max(a.steps, 5))
        out_path.write_text(json.dumps(res, indent=1) + "\n")
    if a.elementwise:
        res["elementwise_ns_per_element"] = elementwise(r.torch)
        out_path.write_text(json.dumps(res, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
