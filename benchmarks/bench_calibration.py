"""Does a calibration on this PC predict the jobs it did not measure? The "Calibration on this PC" section of
docs/accuracy.md, leave-one-out over the five built-in CPU trial jobs.

    python benchmarks/bench_calibration.py measure [--python PY] [--rounds 3] [--max-seconds 12] [--out FILE]
    python benchmarks/bench_calibration.py doc [--data FILE] [--write]     # prints the section; --write puts it
                                                                           # in docs/accuracy.md
`measure` runs each job through the trial's runner (gpucheck/trial/runner.py) in a fresh child process, with ONE
PyTorch thread, round after round (the jobs interleaved), and keeps the runner's figures. One thread because
this 2-core machine is shared: the process's CPU seconds per step with one thread are what the step costs a
core, little changed by other programs taking turns on the cores (time waiting for a core is not counted), while
the wall-clock step of a two-thread run grew 2-30× with the load. The estimate compared is the uncalibrated
model's for one core of this CPU.

`doc` takes the median over rounds of each job's CPU seconds per step, and for each job in turn fits this PC's
calibration (gpucheck/estimate/calibration.py, as `gpucheck calibrate` and trials do) on the other four and
predicts the fifth. The spread is the same computed on each round's own measurements.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gpucheck.catalog import get_workload  # noqa: E402
from gpucheck.estimate import Target, apply_overrides, estimate  # noqa: E402
from gpucheck.estimate.calibration import Sample, fit  # noqa: E402
from gpucheck.machine import Machine  # noqa: E402
from gpucheck.probe import scan  # noqa: E402
from gpucheck.trial.calibrate import trial_workload  # noqa: E402
from gpucheck.trial.child import run_child  # noqa: E402
from gpucheck.trial.models import job_spec  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "calibration-loo.json"
BF16_DATA = ROOT / "benchmarks" / "data" / "calibration-fp32-vs-bf16.json"
KERNELS_DATA = ROOT / "benchmarks" / "data" / "calibration-cpu-kernels.json"
DOC = ROOT / "docs" / "accuracy.md"
BEGIN, END = "<!-- calibration-loo: `python benchmarks/bench_calibration.py doc --write` -->", "<!-- /calibration-loo -->"
# the five built-in jobs the CPU trials run (docs/accuracy.md, "CPU target"), at the same small settings
JOBS = [("mnist-cnn", {"batch": 64}), ("cifar10-resnet18", {"batch": 128}), ("resnet50-finetune", {"batch": 8}),
        ("bert-base-finetune", {"batch": 8, "seq_len": 128}), ("gpt2-124m-pretrain", {"batch": 1, "seq_len": 256})]
THREADS = 1


def _workload(job: str, opts: dict, machine: Machine):
    return trial_workload(apply_overrides(get_workload(job), **opts), machine, "cpu")


def measure(a: argparse.Namespace) -> int:
    machine = scan()
    rows: list[dict] = json.loads(Path(a.out).read_text())["rows"] if a.append and Path(a.out).exists() else []
    first = max((row["round"] for row in rows), default=-1) + 1
    for r in range(first, first + a.rounds):
        for job, opts in JOBS:
            w = _workload(job, opts, machine)
            spec = dict(job_spec(w, steps=None, max_seconds=a.max_seconds, device="cpu", search_batch=False),
                        threads=THREADS)
            load = os.getloadavg()[0]
            raw = run_child(a.python, spec, hard_cap_s=a.max_seconds + 300)
            m = raw.get("measured") or {}
            rows.append({"job": job, "settings": opts, "precision": w.train.precision, "round": r,
                         "at": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                         "load_average": round(load, 2), "outcome": raw.get("outcome"), "measured": m,
                         "libraries": raw.get("libraries")})
            print(job, r, raw.get("outcome"), m.get("step_seconds"), m.get("cpu_seconds_per_step_per_thread"),
                  round(load, 1), flush=True)
            out = {"about": "benchmarks/bench_calibration.py measure: one PyTorch thread per run, CPU device",
                   "machine": {"cpu": dataclasses.asdict(machine.cpu), "memory_total_bytes": machine.memory.total_bytes},
                   "rows": rows}
            Path(a.out).write_text(json.dumps(out, indent=1) + "\n")
    return 0


def _one_core_target(data: dict) -> Target:
    cpu = data["machine"]["cpu"]
    m = Machine.load(str(ROOT / "tests" / "fixtures" / "recorded" / "calibration" / "build-machine.scan.json"))
    m = dataclasses.replace(m, gpus=(), cpu=dataclasses.replace(m.cpu, flags=tuple(cpu["flags"]), brand=cpu["brand"]))
    return dataclasses.replace(Target.from_machine(m), cpu_cores=THREADS, calibration=None)


def _sample(job: str, opts: dict, precision: str, step: float, target: Target) -> Sample:
    w = apply_overrides(get_workload(job), precision=precision, **opts)
    est = estimate(w, target)
    host = float(est.host_step_seconds or 0.0)
    return Sample(key=job, family=w.model.arch, device="CPU", measured_step_s=step,
                  work_s=float(est.step_seconds) - host, host_s=host)


def _loo(samples: list[Sample]) -> dict[str, float]:
    """job → predicted ÷ measured, each predicted from a calibration on the other jobs."""
    out = {}
    for s in samples:
        cal = fit([o for o in samples if o.key != s.key], "CPU")
        out[s.key] = cal.step_seconds(s.estimated_step_s, s.host_s, s.family) / s.measured_step_s
    return out


def doc(a: argparse.Namespace) -> int:
    data = json.loads(Path(a.data).read_text())
    rows = [r for r in data["rows"] if r["outcome"] == "ran" and r["measured"].get("cpu_seconds_per_step_per_thread")]
    target = _one_core_target(data)
    jobs = [j for j, _o in JOBS if any(r["job"] == j for r in rows)]
    opts = dict(JOBS)
    per_job = {j: sorted(r["measured"]["cpu_seconds_per_step_per_thread"] for r in rows if r["job"] == j) for j in jobs}
    prec = {j: next(r["precision"] for r in rows if r["job"] == j) for j in jobs}
    med = [_sample(j, opts[j], prec[j], statistics.median(per_job[j]), target) for j in jobs]
    loo = _loo(med)
    rounds = sorted({r["round"] for r in rows})
    per_round: dict[str, list[float]] = {j: [] for j in jobs}
    for rd in rounds:
        rr = {r["job"]: r["measured"]["cpu_seconds_per_step_per_thread"] for r in rows if r["round"] == rd}
        if set(rr) == set(jobs):
            for j, v in _loo([_sample(j, opts[j], prec[j], rr[j], target) for j in jobs]).items():
                per_round[j].append(v)
    walls = {j: sorted(r["measured"]["step_seconds"] for r in rows if r["job"] == j) for j in jobs}
    loads = [r["load_average"] for r in rows]
    lines = [BEGIN, "## Calibration on this PC (leave one job out)", "",
             "`gpucheck calibrate` and every `gpucheck trial` keep what they measured for this PC, and every later "
             "estimate on it uses it (gpucheck/estimate/calibration.py: one factor per family — conv nets, "
             "transformers, U-Nets — on the step's arithmetic and memory part, and the PC's overall measured ÷ "
             "estimated on the host part and on families not measured). Can it predict a job it did not measure? "
             "Each of the five built-in CPU trial jobs in turn is left out, the calibration is fitted on the other "
             "four, and the fifth is predicted.", "",
             f"Measured by `python benchmarks/bench_calibration.py measure` ({len(rounds)} rounds, the jobs "
             f"interleaved; {data['machine']['cpu']['brand']}, flags {', '.join(data['machine']['cpu']['flags'])}; "
             f"PyTorch {rows[0]['libraries'].get('torch')}). This 2-core machine was shared with other work "
             f"(load average {min(loads):.1f}–{max(loads):.1f} during the runs), so each run used **one PyTorch "
             "thread** and the step is the process's **CPU seconds per step** (the median over its timed steps): "
             "what the step costs one core, which other programs taking turns on the cores barely change. The "
             "wall-clock steps of the same runs are given for comparison; the estimate is the model's for one core.",
             "", "| job, settings | precision | CPU s/step, median (min–max) | wall s/step, median (min–max) "
             "| model alone | left out: predicted ÷ measured | per round (min–max) |", "|---|---|---|---|---|---|---|"]
    for s in med:
        cpu, wall, pr = per_job[s.key], walls[s.key], per_round[s.key]
        spread = f"{min(pr):.2f}–{max(pr):.2f}" if pr else "—"
        settings = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in opts[s.key].items())
        lines.append(f"| {s.key}, {settings} | {prec[s.key]} | {statistics.median(cpu):.3f} ({cpu[0]:.3f}–{cpu[-1]:.3f}) "
                     f"| {statistics.median(wall):.3f} ({wall[0]:.3f}–{wall[-1]:.3f}) "
                     f"| {s.estimated_step_s / s.measured_step_s:.2f}× | **{loo[s.key]:.2f}×** | {spread} |")
    within = sum(1 for v in loo.values() if abs(v - 1) <= 0.10)
    worst = max(loo, key=lambda j: abs(loo[j] - 1))
    lines += ["", f"**Result:** {within} of {len(loo)} jobs predicted within 10 % of their measured step when left "
              f"out (worst: {worst}, {loo[worst]:.2f}×); the model alone is within 10 % for "
              f"{sum(1 for s in med if abs(s.estimated_step_s / s.measured_step_s - 1) <= 0.10)} of them.", ""]
    lines += _reading(med, loo)
    lines += ["", "Honesty note: these rows are calibration rows, not validation. Two model changes were made while "
              "looking at them: the bf16 rate on cores with native bf16 (`[cpu.bf16]`, the vendors' 2× checked on "
              "the fp32-against-bf16 table below) and GEMM efficiency by rows **per core** "
              "(`cpu.gemm_half_rows_per_core`: with one thread, gpt2-124m-pretrain's 256 rows were 1.40× pessimistic "
              "and bert-base-finetune's 1,024 rows 1.06×). One input was corrected by measuring it, not by fitting: "
              "cifar10-resnet18 keeps 3.6 MiB of bf16 activations per 32×32 image for backward "
              "(`torch.autograd.graph.saved_tensors_hooks` on the trial's model), not the 5 MiB the job said (with 5 MiB it "
              "was 1.38× left out on these rounds, 1.42× on the first session's five); it moved the 23 published GPU rows of the same model "
              "(yeqiao-pytorch-gpu-benchmark, 22 of them validation) from a median 1.43× to 1.27× pessimistic "
              "(leave-one-source-out)."]
    lines += _kernels_note(target)
    lines += _bf16_table(target)
    lines += ["", "Regenerate: `python benchmarks/bench_calibration.py measure --python .venv-trial/bin/python` "
              "then `python benchmarks/bench_calibration.py doc --write`.", END]
    text = "\n".join(lines) + "\n"
    print(text)
    if a.write:
        _write(text)
    return 0


def _kernels_note(target: Target) -> list[str]:
    """What the jobs' kernels measured alone (benchmarks/data/calibration-cpu-kernels.json): why the three
    convolution nets still disagree. Nothing in the model was set from these figures."""
    if not KERNELS_DATA.exists():
        return []
    k = json.loads(KERNELS_DATA.read_text())
    conv, gemm, parts = k["convolution_gflops_per_s"], k["gemm_gflops_per_s"], k["job_step_parts_idle_ms"]
    c18, c50 = parts["cifar10-resnet18 bf16: step, convolutions, rest"], parts["resnet50-finetune bf16: step, convolutions, rest"]
    m18 = parts["model, uncalibrated, one core: cifar10-resnet18 matmul, memory+host"]
    m50 = parts["model, uncalibrated, one core: resnet50-finetune matmul, memory+host"]
    rows256 = gemm["bf16 autocast forward + backward over fp32 weights, 256 rows"]
    rows1k = gemm["bf16 autocast forward + backward over fp32 weights, 1024 rows (last: 768x30522)"]
    ratios = _precision_ratios(target)
    mn = ratios.get("mnist-cnn")
    resnets = [v for j, v in ratios.items() if "resnet" in j]
    if mn is None or not resnets:
        return []
    rn = {p: " and ".join(f"{v[p]:.2f}×" for v in resnets) for p in ("fp32", "bf16")}
    fp32_loo = mn["fp32"] / statistics.geometric_mean([v["fp32"] for v in resnets])
    return ["", "What is left, measured kernel by kernel on one core of the same CPU, mostly while it was idle "
            f"(`{KERNELS_DATA.relative_to(ROOT)}`; no factor was set from it):", "",
            f"- cifar10-resnet18 against resnet50-finetune: their bf16 convolutions, each timed alone at the job's shapes, run "
            f"at the same rate, {conv['cifar10-resnet18 batch 128, all convolutions, bf16']} and "
            f"{conv['resnet50 batch 8, all convolutions, bf16']} GFLOP/s (oneDNN's AVX512_BF16 kernels; the 32×32 maps are not "
            f"slower). The step less those convolutions leaves {c18[2]} ms for ResNet-18 and {c50[2]} ms for ResNet-50 "
            f"(BatchNorm, ReLU, residual adds, the optimizer), where the model puts {m18[1]} and {m50[1]} ms; but BatchNorm + "
            "ReLU alone cost 1.3–2.8 ns per element by shape, which would leave the ResNet-18 convolutions slower in the job "
            "than alone. Where the remaining ~20 % between the two jobs lies is not settled by these measurements.",
            f"- mnist-cnn, the one fp32 job, is predicted from bf16 ResNets. On the fp32-against-bf16 rounds below the "
            f"model alone is {mn['fp32']:.2f}× for it in fp32 (the ResNets {rn['fp32']}) and {mn['bf16']:.2f}× in bf16 "
            f"(the ResNets {rn['bf16']}): from the ResNets in fp32 it would be predicted about {fp32_loo:.2f}×. The model has "
            f"its step gain {mn['gain']:.2f}× from bf16, it gained "
            f"{mn['measured_gain']:.2f}×. Its second convolution (32 input channels) does gain: "
            f"{conv['mnist-cnn conv2 32->64 batch 64, fp32']} GFLOP/s in fp32, {conv['mnist-cnn conv2, bf16']} in bf16; the "
            "rest of its step (max-pool with indices, dropout's random numbers, the loss, AdamW over fp32 weights; "
            "the convolutions' reorders between PyTorch's NCHW and oneDNN's blocked nChw16c) is a larger share than in "
            "the ResNets and gains less. fp32 is not a fixed half of bf16 either: the ResNet convolutions in fp32 run at "
            f"{conv['cifar10-resnet18, fp32']} (ResNet-18) and {conv['resnet50, fp32']} GFLOP/s (ResNet-50), 1.9–2.9× "
            f"below bf16, and MKL's fp32 GEMM at {gemm['fp32 2048^3 (MKL sgemm)']} GFLOP/s against oneDNN's "
            f"{gemm['bf16 2048^3 (oneDNN)']}–{gemm['bf16 1024^3 (oneDNN)']} in bf16 (at the ≥ 3.5 GHz that 456 GFLOP/s at "
            "128 bf16 FLOPs per cycle implies, 27 FLOPs per cycle: the AVX2 rate, not AVX-512's 64). The model has no "
            "per-layer shapes to price any of this.",
            "- bert-base-finetune against gpt2-124m-pretrain: each is the other's only family member, so any gap between "
            "them is the left-out error. The bf16 forward GEMMs reach 340–430 GFLOP/s at any number of rows from 64 to "
            "2,048; the loss with few rows that `cpu.gemm_half_rows_per_core` models appears in the forward + backward "
            f"under autocast over fp32 weights (256 rows: {min(rows256)}–{max(rows256)} GFLOP/s; 1,024 rows: "
            f"{min(rows1k)}–{max(rows1k)}).",
            "- The same job's CPU seconds per step moved by up to 20 % between the two sessions (load average 3.6–11 "
            "during the rounds; the idle figures above are lower still): a one-thread step shares the L3 cache and the "
            "memory with the other programs, so the left-out ratios move by ±5–10 % from session to session."]


def _precision_ratios(target: Target) -> dict[str, dict[str, float]]:
    """Per job of the fp32-against-bf16 rounds: the model alone ÷ measured in each precision, and the gain."""
    if not BF16_DATA.exists():
        return {}
    rows = [r for r in json.loads(BF16_DATA.read_text())["rows"]
            if r["outcome"] == "ran" and r["measured"].get("cpu_seconds_per_step_per_thread")]
    opts = dict(JOBS)
    out: dict[str, dict[str, float]] = {}
    for j in dict.fromkeys(r["job"] for r in rows):
        med = {p: statistics.median(r["measured"]["cpu_seconds_per_step_per_thread"] for r in rows
                                    if r["job"] == j and r["precision"] == p) for p in ("fp32", "bf16")}
        est = {p: _sample(j, opts[j], p, med[p], target).estimated_step_s for p in ("fp32", "bf16")}
        out[j] = {"fp32": est["fp32"] / med["fp32"], "bf16": est["bf16"] / med["bf16"],
                  "gain": est["fp32"] / est["bf16"], "measured_gain": med["fp32"] / med["bf16"]}
    return out


def _bf16_table(target: Target) -> list[str]:
    """fp32 against bf16 autocast, one thread (benchmarks/data/calibration-fp32-vs-bf16.json): what
    factors.toml [cpu.bf16] native_gemm_gain was checked on."""
    if not BF16_DATA.exists():
        return []
    rows = [r for r in json.loads(BF16_DATA.read_text())["rows"]
            if r["outcome"] == "ran" and r["measured"].get("cpu_seconds_per_step_per_thread")]
    jobs = list(dict.fromkeys(r["job"] for r in rows))
    bert = _precision_ratios(target)["bert-base-finetune"]
    out = ["", "The same machine, fp32 against bf16 autocast (one thread, CPU seconds per step, median of "
           f"{len({r['round'] for r in rows})} rounds; `{BF16_DATA.relative_to(ROOT)}`): what the bf16 rate of "
           "factors.toml `[cpu.bf16]` was checked on.", "",
           "| job | fp32 | bf16 | fp32 ÷ bf16 |", "|---|---|---|---|"]
    for j in jobs:
        med = {p: statistics.median(r["measured"]["cpu_seconds_per_step_per_thread"] for r in rows
                                    if r["job"] == j and r["precision"] == p) for p in ("fp32", "bf16")}
        out.append(f"| {j} | {med['fp32']:.3f} | {med['bf16']:.3f} | {med['fp32'] / med['bf16']:.2f}× |")
    out += ["", "The convolution nets gain the 2× of VDPBF16PS (oneDNN runs both precisions). mnist-cnn gains "
            "less (its convolutions gain, the rest of its step less: see above). BERT's fp32 linear layers are slower still "
            "than half the bf16 rate: PyTorch sends fp32 linear layers to oneMKL, which runs its AVX2 code path on AMD "
            "CPUs (90-100 GFLOP/s on one core here, against 190-245 for oneDNN's AVX-512 fp32 convolutions: "
            "`benchmarks/data/cpu-fp32-gemm-amd.json`). factors.toml `[cpu.blas_gemm]` caps the fp32 GEMM rate of "
            "transformers and MLPs on AMD at AVX2's 32 FLOPs per cycle (calibration, chosen after these figures): "
            f"the model alone for bert-base-finetune in fp32 is {bert['fp32']:.2f}× (0.68× at the AVX-512 rate), its "
            f"fp32 ÷ bf16 {bert['gain']:.2f}× against {bert['measured_gain']:.2f}× measured (1.87× before)."]
    return out


def _reading(med: list[Sample], loo: dict[str, float]) -> list[str]:
    out = []
    for fam in ("cnn", "transformer"):
        members = [s.key for s in med if s.family == fam]
        if members:
            out.append(f"- {fam}: " + ", ".join(f"{j} {loo[j]:.2f}×" for j in members) +
                       ("" if len(members) > 1 else " (alone in its family: predicted from the PC's overall factor)"))
    return out


def _write(text: str) -> None:
    doc_text = DOC.read_text(encoding="utf-8")
    if BEGIN in doc_text:
        head, rest = doc_text.split(BEGIN, 1)
        doc_text = head + text.rstrip("\n") + rest.split(END, 1)[1]
    else:
        marker = "<!-- trials-cpu:"
        at = doc_text.index(marker) if marker in doc_text else len(doc_text)
        doc_text = doc_text[:at] + text + "\n" + doc_text[at:]
    DOC.write_text(doc_text, encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("measure")
    m.add_argument("--python", default=str(ROOT / ".venv-trial" / "bin" / "python"))
    m.add_argument("--rounds", type=int, default=3)
    m.add_argument("--max-seconds", type=float, default=12)
    m.add_argument("--out", default=str(DATA))
    m.add_argument("--append", action="store_true")
    d = sub.add_parser("doc")
    d.add_argument("--data", default=str(DATA))
    d.add_argument("--write", action="store_true")
    a = ap.parse_args()
    return measure(a) if a.cmd == "measure" else doc(a)


if __name__ == "__main__":
    sys.exit(main())
