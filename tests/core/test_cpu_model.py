"""The CPU target from the CPU's own flags (recorded /proc/cpuinfo of real CPUs): the vector units' peak, native
bf16, and the precision a CPU job trains in — the same in the estimate, the advice and the trial."""

from __future__ import annotations

import dataclasses
import json
import statistics
from pathlib import Path

import pytest

from gpucheck.advise import advise
from gpucheck.catalog import get_workload
from gpucheck.estimate import Target, apply_overrides, estimate
from gpucheck.estimate.factors import load_factors
from gpucheck.machine import Machine
from gpucheck.probe.cpu import parse_cpuinfo
from gpucheck.trial.calibrate import trial_workload
from gpucheck.trial.models import job_spec
from tests.helpers import BENCH, bench_module

CPUINFO = Path(__file__).resolve().parents[1] / "fixtures" / "recorded" / "cpuinfo"
CPU_VM = Path(__file__).resolve().parents[1] / "fixtures" / "machines" / "cpu-only-vm.json"

# recorded CPU → (the [cpu.cores] row its flags pick, fp32 FLOPs per core per cycle, native bf16)
CPUS = {
    "amd-epyc-7451-2socket-96threads": ("amd-zen1", 16, False),  # Zen 1: AVX2 on 128-bit halves
    "intel-core-i7-1165g7-laptop": ("intel-avx512-client", 32, False),  # Tiger Lake: one 512-bit FMA, no bf16
    "arm64-cortex-x3-a715-a710-a510": ("arm", 16, True),  # Armv9 with FEAT_BF16
    "arm64-cavium-thunderx-server": ("arm", 16, False),
    "amd-epyc-zen5-kvm-2vcpu": ("amd-zen5", 64, True),  # this project's build machine: AVX512_BF16, AVX-VNNI
    "amd-epyc-zen4-kvm-2vcpu": ("amd-zen4", 32, True),  # a later build machine: AVX512_BF16, no AVX-VNNI
}


def _machine(name: str) -> Machine:
    """The recorded CPU in an otherwise CPU-only machine (no GPU: every job trains on the processor)."""
    info = parse_cpuinfo((CPUINFO / f"{name}.proc-cpuinfo.txt").read_text())
    base = Machine.load(str(CPU_VM))
    brand = info.get("brand")
    vendor = "arm" if name.startswith("arm64") else ("amd" if "AMD" in (brand or "") else "intel")
    cpu = dataclasses.replace(base.cpu, brand=brand, vendor=vendor, flags=tuple(info.get("flags", ())),
                              arch="arm64" if name.startswith("arm64") else "x86_64")
    return dataclasses.replace(base, cpu=cpu, gpus=())


@pytest.mark.parametrize("name", sorted(CPUS))
def test_the_cores_are_read_from_the_flags(name):
    kind, fp32, native = CPUS[name]
    core = Target.from_machine(_machine(name)).cpu_core(load_factors())
    assert (core.kind, core.fp32_flops_per_cycle, core.native_bf16) == (kind, fp32, native)


@pytest.mark.parametrize("name", sorted(CPUS))
def test_a_cpu_without_native_bf16_trains_in_fp32(name):
    """bert-base-finetune is a bf16 job: a CPU that only emulates bf16 (slower than fp32) gets fp32, says so,
    and its step is not slower for it; a CPU with native bf16 keeps bf16."""
    native = CPUS[name][2]
    w = get_workload("bert-base-finetune")
    est = estimate(w, Target.from_machine(_machine(name)))
    assert est.precision_used == ("bf16" if native else "fp32")
    said = any("no native BF16" in a for a in est.assumptions)
    assert said is (not native)


def test_asking_for_bf16_on_a_cpu_without_it_is_kept_and_flagged():
    w = apply_overrides(get_workload("bert-base-finetune"), precision="bf16")
    est = estimate(w, Target.from_machine(_machine("intel-core-i7-1165g7-laptop")))
    assert est.precision_used == "bf16"
    assert est.math == "cpu-bf16-emulated"
    assert any("emulates" in n for n in est.notes)


def test_fp16_on_a_cpu_is_bf16_where_native_and_fp32_where_not():
    w = get_workload("sd15-lora")  # an fp16 job
    assert w.train.precision == "fp16"
    with_bf16 = estimate(w, Target.from_machine(_machine("amd-epyc-zen5-kvm-2vcpu")))
    without = estimate(w, Target.from_machine(_machine("amd-epyc-7451-2socket-96threads")))
    assert (with_bf16.precision_used, without.precision_used) == ("bf16", "fp32")


def test_the_advice_and_the_trial_use_the_estimates_precision():
    """What the user is told to run and what the trial runs are what was estimated: no bf16=True for a CPU
    that would emulate it."""
    m = _machine("amd-epyc-7451-2socket-96threads")
    w = get_workload("bert-base-finetune")
    target = Target.from_machine(m)
    est = estimate(w, target)
    adv = advise(m, w, target, est)
    assert "bf16=True" not in (adv.snippet or "")
    assert not adv.settings.get("bf16")
    spec = job_spec(trial_workload(w, m, "auto"), steps=1, max_seconds=1)
    assert spec["train"]["precision"] == est.precision_used == "fp32"
    native = _machine("amd-epyc-zen5-kvm-2vcpu")
    assert job_spec(trial_workload(w, native, "auto"), steps=1, max_seconds=1)["train"]["precision"] == "bf16"


def test_a_wider_core_is_a_faster_estimate():
    """Same cores, same clock: the Tiger Lake laptop's one 512-bit FMA beats Zen 1's 128-bit halves on a
    compute-bound fp32 job, and Zen 5's two 512-bit FMAs beat both."""
    w = apply_overrides(get_workload("resnet50-finetune"), precision="fp32", batch=8)
    steps = {}
    for name in ("amd-epyc-7451-2socket-96threads", "intel-core-i7-1165g7-laptop", "amd-epyc-zen5-kvm-2vcpu"):
        t = dataclasses.replace(Target.from_machine(_machine(name)), cpu_cores=4, cpu_max_clock_mhz=3000)
        steps[name] = estimate(w, t).step_seconds
    assert steps["amd-epyc-7451-2socket-96threads"] > steps["intel-core-i7-1165g7-laptop"] > \
        steps["amd-epyc-zen5-kvm-2vcpu"]


# -- the matrix kernels' own figures (one core of an Intel Xeon with AMX-BF16, benchmarks/data) ---------------------

def test_gemm_efficiency_by_rows_is_the_kernels_own():
    """A transformer's GEMM rate at r rows per core is r / (r + h) of its rate at many rows: h is what pure bf16
    linear layers measured at 64 to 1,024 rows (not a stand-in for other costs of the step)."""
    costs = bench_module("measure_cpu_step_costs")
    fit = costs.half_rows_fit(BENCH / "data" / "calibration-cpu-costs-intel-amx.json")
    assert abs(load_factors()["cpu"]["gemm_half_rows_per_core"] / fit - 1) <= 0.05


def test_cpu_linear_layers_run_at_their_kernels_measured_share_of_the_peak():
    """A transformer's linear layers on a CPU run at the share of the vector units' peak that linear layers measured
    on two kinds of core (fp32 and bf16, at the trial jobs' shapes), not at the GPUs' fitted transformer efficiency:
    BERT-base's bf16 step on one Zen 4 core prices its matrix math near the kernels' own rate by rows."""
    gain = bench_module("bench_cpu_matrix_gain")
    shares = gain.linear_shares([BENCH / "data" / "calibration-cpu-matrix-gain-amd-zen4.json",
                                 BENCH / "data" / "calibration-cpu-matrix-gain-intel-amx-b.json"])
    assert len(shares) >= 10
    assert abs(load_factors()["cpu"]["linear_efficiency"] / statistics.median(shares) - 1) <= 0.02
    m = _machine("amd-epyc-zen5-kvm-2vcpu")
    zen4 = dataclasses.replace(m, cpu=dataclasses.replace(
        m.cpu, flags=("avx", "avx2", "avx512_bf16", "avx512f", "f16c", "fma"), measured_clock_mhz=3641))
    target = dataclasses.replace(Target.from_machine(zen4), cpu_cores=1)
    w = get_workload("bert-base-finetune")  # without dropout's masks, priced apart from the matrix math
    w = dataclasses.replace(w, model=dataclasses.replace(w.model, dropout=0.0, attention_dropout=0.0))
    e = estimate(apply_overrides(w, precision="bf16", batch=8, seq_len=128), target)
    flops = e.flops_per_sample * 8
    # the Zen 4 core's bf16 linear layers at 512 and 1,024 rows (benchmarks/data/cpu-threads-amd-zen4.json, one thread)
    kernels = json.loads((BENCH / "data" / "cpu-threads-amd-zen4.json").read_text())["by_threads"]["1"]
    measured = statistics.median(v[r] for k, v in kernels.items() if k.startswith("linear") for r in ("512", "1024"))
    assert e.step_seconds > flops / (measured * 1e9)  # the step holds more than its matrix math
    matrix_s = (e.step_seconds - float(e.host_step_seconds or 0.0)) * (1.0 - float(e.work_memory_share or 0.0))
    # the GPUs' 0.705 priced it at 0.79 of the kernels' rate; the fused attention's softmax is in the matrix part too
    assert 0.85 <= (flops / matrix_s / 1e9) / measured <= 1.1


def test_amx_bf16_gains_are_the_kernels_medians_for_linear_layers_and_convolutions():
    """On AMX cores a transformer's bf16 matrix math runs at the linear layers' measured gain over fp32 and a conv net's
    at its convolutions' (less: small channel counts fill the tiles worse), so the same CPU prices a ResNet's bf16
    step slower, relative to fp32, than BERT's."""
    g = json.loads((BENCH / "data" / "calibration-cpu-matrix-gain.json").read_text())
    idle = json.loads((BENCH / "data" / "calibration-cpu-matrix-gain-intel-amx-b.json").read_text())  # re-measured
    b = load_factors()["cpu"]["bf16"]
    assert abs(b["amx_gemm_gain"] / idle["median_gain_linear"] - 1) <= 0.02
    assert abs(b["amx_conv_gain"] / g["median_gain_convolutions"] - 1) <= 0.02
    m = _machine("amd-epyc-zen5-kvm-2vcpu")
    amx = dataclasses.replace(m, cpu=dataclasses.replace(
        m.cpu, brand="Intel(R) Xeon(R) Processor", vendor="intel",
        flags=("amx_bf16", "amx_tile", "avx", "avx2", "avx512_bf16", "avx512f", "f16c", "fma")))
    target = Target.from_machine(amx)

    def gain(job: str) -> float:  # the matrix units' gain: without dropout's masks, which bf16 does not shorten
        w = get_workload(job)
        w = dataclasses.replace(w, model=dataclasses.replace(w.model, dropout=0.0, attention_dropout=0.0))
        fp32 = estimate(apply_overrides(w, precision="fp32"), target)
        bf16 = estimate(apply_overrides(w, precision="bf16"), target)
        return fp32.step_seconds / bf16.step_seconds

    assert gain("cifar10-resnet18") < gain("bert-base-finetune")
