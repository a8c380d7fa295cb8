"""Deep-scan figures feed the estimate: measured speeds replace catalog peaks (and say so).

GPU facts: the recorded RTX 3080 (nvidia-smi -q -x, driver 595.58.03; /work/shared/recorded/SOURCES.md,
influxdata/telegraf testdata rtx-3080-v13.xml). Model: Llama 3 8B as published in
meta-llama/Meta-Llama-3-8B config.json (32 layers, hidden 4096, 32 heads, 8 KV heads, FFN 14336,
vocabulary 128256, 8.03e9 parameters).
"""

from __future__ import annotations

import dataclasses

import pytest

from gpucheck.catalog import gpu_for
from gpucheck.estimate import Target, estimate
from gpucheck.machine import Gpu, Machine, Measured
from gpucheck.records import DataSpec, ModelSpec, TrainSpec, Workload

MIB = 1024 * 1024
RTX3080 = Gpu(name="NVIDIA GeForce RTX 3080", vendor="nvidia", backend="cuda", compute_capability="8.6",
              driver_version="595.58.03", vram_total_bytes=10240 * MIB, vram_free_bytes=9800 * MIB,
              is_primary_compute=True)
LLAMA3_8B_QLORA = Workload(
    id="llama3-8b-qlora", title="Fine-tune Llama 3 8B with QLoRA", family="llm", level=9,
    model=ModelSpec(arch="transformer", params=8.03e9, layers=32, hidden=4096, heads=32, kv_heads=8,
                    ffn=14336, vocab=128256),
    train=TrainSpec(method="qlora", precision="bf16", batch=1, seq_len=512, grad_checkpointing=True),
    data=DataSpec(samples=52000, epochs=1, bytes_per_sample=2000),
)


@pytest.fixture()
def spec():
    s = gpu_for(RTX3080)
    if s is None:
        pytest.skip("RTX 3080 not in the GPU catalog")
    return s


def test_measured_gpu_figures_replace_the_catalog_peak(spec):
    from_specs = estimate(LLAMA3_8B_QLORA, Target.from_machine(Machine(gpus=(RTX3080,))))
    # A card that reaches only half its data-sheet speed (a hot laptop, a power-limited card):
    slow = Measured(gpu_name=RTX3080.name, gpu_tflops_bf16=spec.tflops_bf16_tensor / 2,
                    gpu_mem_bandwidth_gbps=spec.mem_bandwidth_gbps / 2)
    measured = estimate(LLAMA3_8B_QLORA, Target.from_machine(Machine(gpus=(RTX3080,), measured=slow)))
    assert not from_specs.measured_inputs and measured.measured_inputs
    assert measured.peak_tflops == pytest.approx(spec.tflops_bf16_tensor / 2)
    assert measured.samples_per_second < from_specs.samples_per_second * 0.75
    assert measured.total_hours > from_specs.total_hours


def test_figures_measured_on_another_gpu_are_not_used(spec):
    other = Measured(gpu_name="NVIDIA GeForce RTX 4090", gpu_tflops_bf16=1.0)
    est = estimate(LLAMA3_8B_QLORA, Target.from_machine(Machine(gpus=(RTX3080,), measured=other)))
    assert not est.measured_inputs
    assert est.peak_tflops == pytest.approx(spec.tflops_bf16_tensor)


def test_a_real_deep_scan_of_this_pc_feeds_a_cpu_estimate(tmp_path):
    from gpucheck.bench import run_deep

    m = run_deep(Machine(), disk_path=tmp_path, budget_s=3.0, ram_buffer_bytes=32 * MIB, disk_file_bytes=8 * MIB)
    machine = Machine(measured=m)
    est = estimate(LLAMA3_8B_QLORA, Target.from_machine(machine))
    assert est.measured_inputs  # RAM bandwidth measured here replaces the default
    again = estimate(LLAMA3_8B_QLORA, Target.from_machine(dataclasses.replace(machine, measured=None)))
    assert not again.measured_inputs


def test_summary_shows_measured_next_to_from_specs(spec):
    from gpucheck.bench.present import FROM_SPECS, MEASURED, measured_figures
    from gpucheck.machine_text import format_machine

    half = Measured(gpu_name=RTX3080.name, gpu_tflops_bf16=spec.tflops_bf16_tensor / 2, ram_copy_gbps=8.0,
                    duration_s=25.0)
    machine = Machine(gpus=(RTX3080,), measured=half)
    rows = {f.key: f for f in measured_figures(machine)}
    assert rows["gpu_tflops_bf16"].source == MEASURED and rows["gpu_tflops_bf16"].ratio == pytest.approx(0.5)
    assert "50% of the data sheet" in rows["gpu_tflops_bf16"].text
    assert rows["gpu_mem_bandwidth_gbps"].source == FROM_SPECS  # not measured: the data sheet's figure
    assert rows["gpu_mem_bandwidth_gbps"].value == pytest.approx(spec.mem_bandwidth_gbps)
    assert rows["ram_copy_gbps"].source == MEASURED
    text = format_machine(machine)
    assert "Measured by the deep scan" in text and "(from specs)" in text and "(measured" in text
    # Figures from another GPU are not shown as this GPU's.
    other = Machine(gpus=(RTX3080,), measured=dataclasses.replace(half, gpu_name="NVIDIA GeForce RTX 4090"))
    assert {f.key: f for f in measured_figures(other)}["gpu_tflops_bf16"].source == FROM_SPECS
