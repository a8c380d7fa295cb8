"""What one CPU core spends a trial step's time on, kernel by kernel: the figures behind the "Calibration on this PC"
section's Intel AMX notes (docs/accuracy.md). One factor is set from them: factors.toml cpu.gemm_half_rows_per_core,
the rows at which a GEMM runs at half its rate (`half_rows_fit`, on the pure bf16 linear layers).

    python benchmarks/measure_cpu_step_costs.py OUT.json [--python PY]

Runs in gpucheck's Python; each measurement runs in a fresh child of PY (default .venv-trial/bin/python, one with torch),
one PyTorch thread, CPU seconds (time.process_time / getrusage), so other programs on the cores change little:
- mnist-cnn's layers alone at the job's shapes (batch 64, NCHW as the trial runs it), forward + backward, fp32;
- linear layers at BERT / GPT-2 block shapes by rows (tokens per call): pure bf16 (no casts) and bf16 autocast over
  fp32 weights (the trial's way: each call casts the weight), forward + backward, against fp32;
- element-wise kernels per element (benchmarks/profile_cpu_step.py elementwise) and plain streaming rates;
- each trial job's step in a fresh process (the trial runner's model, optimizer and step): user and kernel CPU seconds
  and minor page faults per step, and which optimizer path torch.optim takes on the CPU (foreach / fused flags).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_calibration as bc  # noqa: E402

from gpucheck.probe import scan  # noqa: E402
from gpucheck.trial.models import job_spec  # noqa: E402

OPTIMIZER_DATA = ROOT / "benchmarks" / "data" / "optimizer-step-cpu-intel-amx.json"  # measure_optimizer_step_cpu.py

CHILD = r'''
import json, resource, statistics, sys, time, importlib.util
import torch
torch.set_num_threads(1)
what, arg = sys.argv[1], sys.argv[2]

def timed(fn, n=7):
    fn(); fn()
    xs = []
    for _ in range(n):
        c = time.process_time(); fn(); xs.append(time.process_time() - c)
    return statistics.median(xs)

def linear_rate(rows, k, n, mode):
    dt = torch.bfloat16 if mode == "bf16" else torch.float32
    lin = torch.nn.Linear(k, n).to(dt)
    x = torch.randn(rows, k, dtype=dt, requires_grad=True)
    def step():
        lin.weight.grad = None; x.grad = None
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=mode == "bf16 autocast"):
            y = lin(x)
        y.float().sum().backward()
    return round(6 * rows * k * n / timed(step) / 1e9)

def conv_rate(cin, cout, hw, batch, input_grad):
    conv = torch.nn.Conv2d(cin, cout, 3)
    x = torch.randn(batch, cin, hw, hw, requires_grad=input_grad)
    out = (hw - 2) ** 2 * cout * cin * 9 * 2 * batch
    def step():
        conv.weight.grad = None
        conv(x).sum().backward()
    return round(out * (3 if input_grad else 2) / timed(step) / 1e9, 1)

if what == "kernels":
    out = {"mnist conv1 1->32 28x28 batch 64, forward + weight gradient, GFLOP/s": conv_rate(1, 32, 28, 64, False),
           "mnist conv2 32->64 26x26 batch 64, forward + both gradients, GFLOP/s": conv_rate(32, 64, 26, 64, True)}
    for mode in ("bf16", "bf16 autocast", "fp32"):
        for k, n in ((768, 768), (768, 3072), (3072, 768)):
            out[f"linear {k}x{n} {mode}, forward + backward, GFLOP/s by rows"] = {
                r: linear_rate(r, k, n, mode) for r in (64, 128, 256, 512, 1024, 2048)}
    sys.path.insert(0, arg)
    import profile_cpu_step
    out["elementwise ns per element (one thread, channels_last)"] = profile_cpu_step.elementwise(torch)
    a, b = torch.randn(64 * 2**20), torch.randn(64 * 2**20)
    ab, bb = a.bfloat16(), b.bfloat16()
    out["streaming GB/s, 64 Mi elements"] = {
        "fp32 copy_ (8 B per element)": round(8 * a.numel() / timed(lambda: b.copy_(a), 5) / 1e9, 1),
        "fp32 add_ (12 B)": round(12 * a.numel() / timed(lambda: b.add_(a), 5) / 1e9, 1),
        "bf16 copy_ (4 B)": round(4 * a.numel() / timed(lambda: bb.copy_(ab), 5) / 1e9, 1),
        "bf16 add_ (6 B)": round(6 * a.numel() / timed(lambda: bb.add_(ab), 5) / 1e9, 1)}
    print(json.dumps(out))
else:
    spec = json.loads(arg)
    s = importlib.util.spec_from_file_location("trial_runner", sys.argv[3])
    r = importlib.util.module_from_spec(s); s.loader.exec_module(r)
    batch = int(spec["train"]["batch"])
    job = r.BUILDERS[spec["builder"]](spec, "cpu", batch); job.model.train()
    opt, _impl = r._optimizer(spec, job.params, "cpu"); dtype = r.amp_dtype(spec["train"].get("precision", "fp32"), "cpu")
    rows = []
    for i in range(6):
        a = resource.getrusage(resource.RUSAGE_SELF)
        r._step(job, opt, None, "cpu", dtype, batch)
        z = resource.getrusage(resource.RUSAGE_SELF)
        if i >= 1:
            rows.append([round(z.ru_utime - a.ru_utime, 4), round(z.ru_stime - a.ru_stime, 4), z.ru_minflt - a.ru_minflt])
    print(json.dumps({"optimizer": type(opt).__name__, "foreach": opt.defaults.get("foreach"),
                      "fused": opt.defaults.get("fused"), "steps (user s, kernel s, minor faults)": rows}))
'''


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--python", default=str(ROOT / ".venv-trial" / "bin" / "python"))
    a = ap.parse_args()
    def child(*args: str) -> dict:
        res = subprocess.run([a.python, "-c", CHILD, *args], capture_output=True, text=True, check=True)
        return json.loads(res.stdout.strip().splitlines()[-1])

    machine = scan()
    load = [os.getloadavg()[0]]
    out = {"about": __doc__.split("\n\n")[0], "at": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
           "cpu": machine.cpu.brand, "flags": [f for f in machine.cpu.flags if f.startswith(("amx", "avx512_bf16"))],
           "kernels": child("kernels", str(ROOT / "benchmarks")), "jobs": {}}
    load.append(os.getloadavg()[0])
    for job, opts in bc.JOBS:
        spec = dict(job_spec(bc._workload(job, opts, machine), steps=None, max_seconds=10, device="cpu",
                             search_batch=False), threads=1)
        out["jobs"][job] = [child("job", json.dumps(spec), str(ROOT / "gpucheck" / "trial" / "runner.py"))
                            for _ in range(2)]
        load.append(os.getloadavg()[0])
    out["load_average"] = [round(min(load), 1), round(max(load), 1)]
    Path(a.out).write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())


def half_rows_fit(path: Path, max_rows: int = 1024) -> int:
    """The h of rate = peak × r / (r + h) that fits the pure bf16 linear layers' GFLOP/s by rows r ≤ max_rows best
    (least squares in log rate, the peak fitted with it). Past 1,024 rows the rate falls again (the activations
    leave the caches), which is not the per-call cost this term stands for."""
    return half_rows_fit_of(json.loads(path.read_text())["kernels"], max_rows)


def half_rows_fit_of(k: dict, max_rows: int = 1024) -> int:
    """half_rows_fit on kernels already read: {"linear … bf16, …": {rows: GFLOP/s}} (this script's "kernels", or one
    thread's figures from benchmarks/measure_cpu_threads.py)."""
    points = [(int(r), g) for key, v in k.items() if key.startswith("linear") and " bf16, " in key
              for r, g in v.items() if int(r) <= max_rows]

    def misfit(h: int) -> float:
        logs = [math.log(g * (r + h) / r) for r, g in points]
        mean = statistics.fmean(logs)
        return sum((x - mean) ** 2 for x in logs)

    return min(range(1, 2001), key=misfit)


def optimizer_note() -> str:
    """One AdamW step of BERT-base's parameters on one core, by how it runs (benchmarks/measure_optimizer_step_cpu.py)."""
    if not OPTIMIZER_DATA.exists():
        return ""
    d = json.loads(OPTIMIZER_DATA.read_text())
    st = d["steps"]
    return (f". One AdamW step of BERT-base's {st['parameters'] / 1e6:.1f} M fp32 parameters on one core of this CPU "
            f"(`{OPTIMIZER_DATA.relative_to(ROOT)}`, PyTorch {st['torch']}): {st['adamw single']['cpu_seconds']:.3f} s "
            f"in the loop ({st['adamw single']['minor_faults']:,} page faults), {st['adamw foreach']['cpu_seconds']:.3f} "
            f"s with foreach, {st['adamw fused']['cpu_seconds']:.3f} s fused ({st['adamw fused']['minor_faults']:,} "
            f"faults): the fused step moves its 28 bytes a parameter at "
            f"{28 * st['parameters'] / st['adamw fused']['cpu_seconds'] / 1e9:.0f} GB/s, the model's one-core rate is 14 "
            "([cpu.core_mem_bandwidth_gbps]; 30, the whole memory's, until December 2026)")


def costs_note(path: Path, half_rows: float) -> list[str]:
    """The docs/accuracy.md bullets from a file this script wrote; `half_rows`: factors.toml cpu.gemm_half_rows_per_core."""
    d = json.loads(path.read_text())
    k, jobs = d["kernels"], d["jobs"]
    conv1, conv2 = (v for key, v in k.items() if key.startswith("mnist conv"))

    def lin(mode: str) -> dict[str, dict[str, float]]:
        return {key.split()[1]: v for key, v in k.items() if key.startswith("linear") and f" {mode}, " in key}

    pure, cast = lin("bf16"), lin("bf16 autocast")
    ratio = [v["256"] / v["1024"] for v in pure.values()]
    model = (256 / (256 + half_rows)) / (1024 / (1024 + half_rows))
    ew = k["elementwise ns per element (one thread, channels_last)"]
    gain = [ew[s + " float32"][op] / ew[s + " bfloat16"][op] for s in ("8x256x56x56", "128x64x16x16")
            for op in ew[s + " float32"]]
    amd = json.loads(bc.PROFILE_DATA.read_text()).get("elementwise_ns_per_element", {})
    amd_gain = [amd[s + " float32"][op] / amd[s + " bfloat16"][op] for s in ("8x256x56x56", "128x64x16x16")
                for op in amd.get(s + " float32", {})] or [0.0]
    st = k["streaming GB/s, 64 Mi elements"]
    paths = {(r["optimizer"], r["foreach"], r["fused"]) for runs in jobs.values() for r in runs}

    def steps(job: str, i: int) -> list[float]:
        return [s[i] for r in jobs[job] for s in r["steps (user s, kernel s, minor faults)"]]

    faults = ", ".join(f"{j} {min(steps(j, 2)):,}–{max(steps(j, 2)):,} ({min(steps(j, 1)):.2f}–{max(steps(j, 1)):.2f} s)"
                       for j in jobs)
    return ["", f"Kernel by kernel on one core of the same Intel CPU (`{path.relative_to(ROOT)}`, "
            f"`python benchmarks/measure_cpu_step_costs.py`, {d['at']}, load average {d['load_average'][0]}–"
            f"{d['load_average'][1]}: the memory-bound figures are slower under load; no factor was set from them):", "",
            f"- mnist-cnn's fp32 layers at its shapes: conv1 (1→32 channels, a GEMM with K = 9) {conv1:.0f} GFLOP/s, "
            f"conv2 (32→64) {conv2:.0f}, against the model's 135 for all its matrix math: the fp32 job's matrix part "
            "is priced somewhat fast, not slow, so neither the fp32 rate nor conv1's small K is why it was predicted too slow. "
            "Left out, it is priced with the two rates the four bf16 jobs fit: a matrix factor below its own and a "
            "memory-bound factor about twice its own (its parts in the profile table above), a pair skewed by the "
            "transformers, whose split the model gets wrong both ways (GEMMs about 2× faster, the rest 5–12× slower "
            "than the model's parts).",
            f"- GEMM efficiency by rows: pure bf16 linear layers (no casts), forward + backward, run at 256 rows at "
            f"{min(ratio):.2f}–{max(ratio):.2f} of their 1,024-row rate ({min(v['256'] for v in pure.values())}–"
            f"{max(v['256'] for v in pure.values())} GFLOP/s), where `cpu.gemm_half_rows_per_core` = {half_rows:g} "
            f"gives {model:.2f}; under autocast over fp32 weights, the trial's way, {min(v['256'] for v in cast.values())}–"
            f"{max(v['256'] for v in cast.values())} GFLOP/s at 256 rows: the weight casts, which the model prices "
            "apart (memory-bound part), are most of the loss with few rows.",
            "- The trial's optimizer: until December 2026 the runner built torch.optim's default, here "
            + ", ".join(f"{o} (foreach={fe}, fused={fu})" for o, fe, fu in sorted(paths, key=str))
            + ", which on a CPU is the per-tensor loop (torch/optim/optimizer.py _default_to_fused_or_foreach: foreach "
            "only on CUDA / XPU tensors, fused only when asked): AdamW's 80 bytes per parameter and two parameter-sized "
            "temporaries per tensor (`exp_avg_sq.sqrt()`, its division), where the estimate prices the Hugging Face "
            "Trainer's fused step (28 bytes, factors.toml [optimizer_step.stack_default])" + optimizer_note() + ". The "
            "runner now steps the optimizer the estimate prices (fused where the PyTorch it runs in can: 2.4 or later "
            "on a CPU) and reports which; rounds measured before are estimated with the loop they ran.",
            f"- Minor page faults per step in fresh processes (kernel CPU seconds in brackets): {faults}. "
            "resnet50-finetune (all 25.6 M parameters trained, batch 8 at 224 px as the job says) faults every step here; "
            "the profiled process above took none, which is why its plain step there is 0.84 s against 1.00 s in the "
            "rounds.",
            f"- Memory-bound kernels on this core: fp32 copy_ {st['fp32 copy_ (8 B per element)']} GB/s, add_ "
            f"{st['fp32 add_ (12 B)']}; bf16 copy_ {st['bf16 copy_ (4 B)']}, in-place add_ {st['bf16 add_ (6 B)']} "
            f"(the model's one-core rate: 14, [cpu.core_mem_bandwidth_gbps]); a bf16 element-wise kernel at the ResNet shapes is "
            f"{statistics.median(gain):.1f}× ({min(gain):.1f}–{max(gain):.1f}×) faster per element than fp32 (on the "
            f"AMD EPYC: {min(amd_gain):.1f}–{max(amd_gain):.1f}×). resnet50-finetune is the bf16 job whose memory-bound part is most feature-map "
            "kernels (batch norm, ReLU, residual adds), so a memory-bound factor fitted on jobs whose memory-bound part "
            "is largely optimizer passes and page faults (the transformers) prices it too fast."]
