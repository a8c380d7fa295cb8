"""The estimator's arithmetic (golden numbers) and the behaviour a user notices (verdicts, targets)."""

from __future__ import annotations

import dataclasses

import pytest

from gpucheck.catalog import find_gpu, get_workload, load_workloads
from gpucheck.cli import cli_flag
from gpucheck.errors import BadInput
from gpucheck.estimate import (
    BadSetting,
    Target,
    apply_overrides,
    check,
    estimate,
    estimate_to_json,
    estimate_variant,
    too_slow_hours,
    verdict_for,
)
from gpucheck.estimate.params import lora_params
from gpucheck.machine import Machine, Measured
from gpucheck.records import VERDICTS, DataSpec, ModelSpec, TrainSpec, Workload
from tests.conftest import FIXTURES

GIB = 1024**3
N = 1_000_000_000  # one billion parameters: bytes per parameter read straight off the breakdown

TINY_LLM = ModelSpec(arch="transformer", params=N, layers=16, hidden=2048, heads=16, kv_heads=16, ffn=8192,
                     gated_mlp=False)


def _w(model=TINY_LLM, **train):
    t = TrainSpec(**dict(dict(method="full", precision="bf16", optimizer="adamw", batch=1, seq_len=128), **train))
    return Workload(id="t", title="t", family="llm", level=1, model=model, train=t, data=DataSpec(samples=100))


def _bd(**train):
    return estimate(_w(**train), Target.from_gpu(find_gpu("h200"))).breakdown


def _per_param(bd):
    return ((bd.weights_bytes + bd.gradients_bytes + bd.optimizer_bytes) / N)


# -- golden numbers: bytes per parameter (Hugging Face 'Model training anatomy') --------------------


def test_fp32_adamw_is_16_bytes_per_parameter():
    assert _per_param(_bd(precision="fp32")) == pytest.approx(16.0)


def test_mixed_precision_adamw_is_18_bytes_per_parameter():
    bd = _bd(precision="bf16")
    assert bd.weights_bytes / N == pytest.approx(6.0)
    assert _per_param(bd) == pytest.approx(18.0)


def test_8bit_adamw_and_sgd():
    assert _bd(optimizer="adamw-8bit").optimizer_bytes / N == pytest.approx(2.0)
    assert _bd(optimizer="sgd").optimizer_bytes / N == pytest.approx(4.0)


def test_lora_keeps_a_16bit_frozen_base_and_trains_only_adapters():
    bd = _bd(method="lora", lora_rank=8)
    adapters = lora_params(TINY_LLM, TrainSpec(method="lora", lora_rank=8))
    assert adapters == 16 * 8 * (2048 + 2048) * 2  # q and v, rank 8, 16 layers
    assert bd.weights_bytes == pytest.approx(2 * N + 4 * adapters, rel=1e-6)
    assert bd.optimizer_bytes == pytest.approx(8 * adapters, rel=1e-6)


def test_litgpt_trainable_parameter_count_for_llama2_7b():
    # litgpt resource tables: Llama 2 7B LoRA (r=8, query+value) → 4,194,304 trainable parameters.
    llama2 = ModelSpec(arch="transformer", params=6.74e9, layers=32, hidden=4096, heads=32, ffn=11008)
    assert lora_params(llama2, TrainSpec(method="lora", lora_rank=8, lora_targets="qv")) == 4_194_304


def test_qlora_stores_block_linears_in_about_4_bits():
    llama = get_workload("llama3-8b-qlora").model
    e = estimate(get_workload("llama3-8b-qlora"), Target.from_gpu(find_gpu("4090")))
    # 6.98B block-linear params × 4.127 bits + 1.05B embeddings/head in bf16, as loaded (+ adapters)
    assert 5.1 * GIB < e.breakdown.weights_bytes < 5.6 * GIB
    full16 = llama.params * 2
    assert e.breakdown.weights_bytes < 0.5 * full16


# -- activations respond to the knobs ---------------------------------------------------------------


def test_activations_grow_with_batch_and_sequence_and_shrink_with_checkpointing():
    a1 = _bd(batch=1, seq_len=512).activations_bytes
    a2 = _bd(batch=2, seq_len=512).activations_bytes
    s2 = _bd(batch=1, seq_len=1024).activations_bytes
    ck = _bd(batch=1, seq_len=512, grad_checkpointing=True).activations_bytes
    assert a2 == pytest.approx(2 * a1, rel=0.01)
    assert s2 == pytest.approx(2 * a1, rel=0.01)  # flash/SDPA: linear in sequence length
    assert ck < 0.3 * a1


def test_image_activations_scale_with_image_area():
    w = get_workload("resnet50-finetune")
    t = Target.from_gpu(find_gpu("a100 80gb"))
    a224 = estimate(w, t).breakdown.activations_bytes
    a448 = estimate_variant(w, t, image_size=448).breakdown.activations_bytes
    assert a448 == pytest.approx(4 * a224, rel=0.01)


def test_eager_attention_adds_the_quadratic_score_matrices():
    flash = _bd(seq_len=2048).activations_bytes
    eager = estimate(_w(model=dataclasses.replace(TINY_LLM, eager_attention=True), seq_len=2048),
                     Target.from_gpu(find_gpu("h200"))).breakdown.activations_bytes
    # 5 B × 16 heads × 2048² × 16 layers
    assert eager - flash == pytest.approx(11 * 16 * 2048**2 * 16, rel=0.01)  # 11 B × heads × s² × layers (autocast)


# -- speed ---------------------------------------------------------------------------------------------


def test_fp32_convnets_use_tf32_on_ampere_but_transformers_do_not():
    a100 = Target.from_gpu(find_gpu("a100 80gb"))
    cnn = estimate_variant(get_workload("resnet50-finetune"), a100, precision="fp32")
    llm = estimate(_w(precision="fp32"), a100)
    assert cnn.math == "tf32-tensor"
    assert llm.math == "fp32"


def test_bf16_falls_back_to_fp16_before_ampere():
    e = estimate(get_workload("llama3-8b-qlora"), Target.from_gpu(find_gpu("t4")))
    assert e.precision_used == "fp16"
    assert any("FP16" in n and "default" in n for n in e.assumptions)  # the card's default, said as such


def test_tiny_jobs_are_bound_by_per_step_overhead_not_flops():
    e = estimate(get_workload("mnist-cnn"), Target.from_gpu(find_gpu("h100")))
    assert e.bottleneck == "overhead"
    assert e.step_seconds >= 0.004


def test_small_llm_steps_wait_for_kernel_dispatch_not_the_gpu():
    # batch 1 × ~128 tokens: a faster GPU barely helps (litgpt: 141.6 ms per step for Llama 2 7B on an A100)
    w = get_workload("llama3-8b-lora")
    w = dataclasses.replace(w, train=dataclasses.replace(w.train, packing=False))  # one short sample per row
    a100 = estimate(w, Target.from_gpu(find_gpu("a100 80gb")))
    h100 = estimate(w, Target.from_gpu(find_gpu("h100")))
    assert a100.bottleneck == "overhead"
    assert h100.samples_per_second < 1.3 * a100.samples_per_second
    packed = dataclasses.replace(w, data=dataclasses.replace(w.data, avg_seq_len=None))  # full 8k sequences
    long = estimate_variant(packed, Target.from_gpu(find_gpu("a100 80gb")), seq_len=8192)
    assert long.bottleneck in ("compute", "memory")


def test_gradient_checkpointing_costs_about_a_third_more_time():
    w = get_workload("llama3-8b-lora")
    t = Target.from_gpu(find_gpu("a100 80gb"))
    on = estimate_variant(w, t, grad_checkpointing=True).step_seconds
    off = estimate_variant(w, t, grad_checkpointing=False).step_seconds
    assert 1.2 < on / off < 1.6


def test_deep_scan_measurements_replace_catalog_peaks():
    m = Machine.load(FIXTURES / "machines" / "rtx4090-650w-desktop.json")
    job = get_workload("imagenet-resnet50")  # compute-bound: big batches of images
    base = estimate(job, Target.from_machine(m))
    slow = dataclasses.replace(m, measured=Measured(gpu_name=m.gpus[0].name, gpu_tflops_bf16=82.6,
                                                    gpu_mem_bandwidth_gbps=900.0))
    est = estimate(job, Target.from_machine(slow))
    assert est.measured_inputs and not base.measured_inputs
    assert est.peak_tflops == pytest.approx(82.6)
    assert est.samples_per_second < base.samples_per_second


# -- targets from recorded machines ------------------------------------------------------------------


def _machine(name):
    return Machine.load(FIXTURES / "machines" / f"{name}.json")


def test_mig_slice_is_what_a_job_gets():
    t = Target.from_machine(_machine("a100-mig-server"))
    assert t.vram_available_bytes < 20 * GIB
    assert any("MIG" in n for n in t.notes)


def test_eight_h100s_are_one_target_with_eight_gpus_over_nvlink():
    t = Target.from_machine(_machine("h100x8-server"))
    assert t.gpus == 8 and t.gpu.id == "h100-sxm"
    one = estimate(get_workload("gpt2-124m-pretrain"), Target.from_machine(_machine("h100x8-server"), gpus=1))
    eight = estimate(get_workload("gpt2-124m-pretrain"), t)  # the same host: its CPU prices both steps' dispatch
    assert 6 * one.samples_per_second < eight.samples_per_second < 8 * one.samples_per_second


def test_apple_uses_the_metal_working_set_and_cannot_run_qlora():
    t = Target.from_machine(_machine("m2max-macbookpro"))
    assert t.backend == "metal" and t.unified_memory
    assert t.vram_available_bytes < t.ram_bytes
    q = estimate(get_workload("llama3-8b-qlora"), t)
    assert q.verdict == "not_supported" and q.limit == "qlora_backend"
    lora = estimate(get_workload("qwen2.5-1.5b-lora"), t)
    assert lora.verdict in ("runs", "too_slow")


def test_cpu_only_pc_trains_small_jobs_on_the_cpu_and_says_so():
    t = Target.from_machine(_machine("office-pc-cpu-only"))
    assert t.gpu is None and t.backend == "cpu"
    e = estimate(get_workload("mnist-cnn"), t)
    assert e.verdict == "runs" and e.peak_vram_bytes == 0
    assert any("CPU" in n for n in e.notes)
    big = estimate(get_workload("llama3-8b-full"), t)
    assert big.verdict == "does_not_fit" and big.limit == "ram"


def test_busy_gpu_memory_is_noted_but_not_taken_away():
    t = Target.from_machine(_machine("rtx3080-desktop"))
    assert t.vram_available_bytes == 10 * GIB
    assert any("in use by other programs" in n for n in t.notes)


def test_unknown_gpu_checks_memory_but_leaves_speed_unknown():
    t = Target.from_machine(_machine("phoenix-apu-laptop"))
    e = estimate(get_workload("mnist-cnn"), t)
    assert e.samples_per_second is None and e.total_hours is None
    assert e.verdict == "runs" and e.limit == "unknown_gpu_speed"


# -- verdicts ------------------------------------------------------------------------------------------


def test_verdict_rules_in_order():
    assert verdict_for(supported=False, fits=False, total_hours=1e9) == "not_supported"
    assert verdict_for(supported=True, fits=False, total_hours=1) == "does_not_fit"
    assert verdict_for(supported=True, fits=True, total_hours=too_slow_hours() + 1) == "too_slow"
    assert verdict_for(supported=True, fits=True, total_hours=1) == "runs"
    assert verdict_for(supported=True, fits=True, total_hours=None) == "runs"


def test_a_4090_verdicts_look_like_what_people_report():
    res = {e.workload_id: e for e in check(Target.from_gpu(find_gpu("4090")))}
    assert all(e.verdict in VERDICTS for e in res.values())
    for runs in ("mnist-cnn", "cifar10-resnet18", "bert-base-finetune", "sd15-lora", "llama3-8b-qlora"):
        assert res[runs].verdict == "runs", runs
    assert res["llama3-8b-full"].verdict == "does_not_fit"
    assert res["llama3-8b-full"].peak_vram_bytes > 100 * GIB
    # GPT-2 124M on the 10B tokens llm.c trains it on: about a day on one 4090 (nanoGPT issue #182: ≈ 106k
    # tokens/s); nanoGPT's full 300B-token budget is a month: too slow
    assert res["gpt2-124m-pretrain"].verdict == "runs"
    full = apply_overrides(get_workload("gpt2-124m-pretrain"), tokens=300_000_000_000)
    assert estimate(full, Target.from_gpu(find_gpu("4090"))).verdict == "too_slow"


def test_sharding_splits_the_model_state_across_gpus():
    w = get_workload("llama3-8b-full")
    t = Target.from_gpu(find_gpu("h100"), gpus=8)
    assert estimate(w, t).verdict == "does_not_fit"
    assert estimate_variant(w, t, shard=True).verdict == "runs"


# -- overrides and JSON ------------------------------------------------------------------------------


def test_apply_overrides_changes_only_what_was_given():
    w = apply_overrides(get_workload("llama3-8b-qlora"), method="lora", batch=4, seq_len=None, epochs=1.5)
    assert (w.train.method, w.train.batch, w.train.seq_len, w.data.epochs) == ("lora", 4, 2048, 1.5)


@pytest.mark.parametrize("kw, flag", [
    ({"batch": 0}, "--batch"), ({"batch": -3}, "--batch"), ({"seq_len": 10**9}, "--seq-len"),
    ({"epochs": 0}, "--epochs"), ({"method": "dora"}, "--method"), ({"lora_rank": 0}, "--lora-rank"),
])
def test_bad_overrides_name_the_flag(kw, flag):
    with pytest.raises(BadSetting) as e:
        apply_overrides(get_workload("llama3-8b-qlora"), **kw)
    assert e.value.named(cli_flag).startswith(flag + ":")  # as the command line prints it
    assert str(e.value).startswith(next(iter(kw)) + ":")  # the core names the setting itself


def test_overrides_must_fit_the_architecture():
    with pytest.raises(BadInput, match="qlora"):
        apply_overrides(get_workload("resnet50-finetune"), method="qlora")
    with pytest.raises(BadSetting) as e:
        apply_overrides(get_workload("llama3-8b-qlora"), image_size=512)
    assert e.value.named(cli_flag).startswith("--image-size:") and e.value.named(cli_flag).endswith("use --seq-len")


def test_bad_gpu_count():
    with pytest.raises(BadSetting) as e:
        Target.from_gpu(find_gpu("4090"), gpus=0)
    assert e.value.named(cli_flag).startswith("--gpus:")


def test_json_has_the_design_keys():
    e = estimate(get_workload("sd15-lora"), Target.from_gpu(find_gpu("RTX 3060 12GB")))
    d = estimate_to_json(e)
    for key in ("workload", "gpu", "gpus", "fits", "verdict", "peak_vram_gib", "vram_breakdown_gib", "ram_gib",
                "disk_gib", "samples_per_second", "total_hours", "tweaks"):
        assert key in d
    assert set(d["vram_breakdown_gib"]) == {"weights", "gradients", "optimizer", "activations", "overhead"}
    assert sum(d["vram_breakdown_gib"].values()) == pytest.approx(d["peak_vram_gib"], abs=0.05)


def test_ram_and_disk_needs_are_plausible():
    e = estimate(get_workload("imagenet-resnet50"), Target.from_gpu(find_gpu("4090")))
    assert e.disk_bytes > 140e9 * 1.5  # ImageNet (≈ 140 GB) plus its prepared cache
    assert not e.dataset_in_memory
    small = estimate(get_workload("cifar10-resnet18"), Target.from_gpu(find_gpu("4090")))
    assert small.dataset_in_memory
    assert 2 * GIB < small.ram_bytes < 8 * GIB


def test_a_cpu_only_pc_needs_disk_for_the_cpu_build_of_pytorch_not_the_cuda_one():
    """Without a GPU gpucheck advises PyTorch's CPU-only build (advise/software.py torch_pip_command), which leaves out
    the 4.5 GiB of CUDA libraries the default wheel installs (benchmarks/data/environment-size.json): MNIST on a CPU
    needs under 2 GiB of disk, on a GPU over 6."""
    w = get_workload("mnist-cnn")
    cpu = estimate(w, Target.from_machine(_machine("cpu-only-vm")))
    gpu = estimate(w, Target.from_gpu(find_gpu("4090")))
    assert cpu.disk_bytes < 2 * GIB < 6 * GIB < gpu.disk_bytes
    assert gpu.disk_bytes - cpu.disk_bytes == pytest.approx(4.6 * GIB, rel=0.05)


def test_every_builtin_workload_estimates_on_every_gpu():
    from gpucheck.catalog import load_gpus

    for g in load_gpus():
        t = Target.from_gpu(g)
        for w in load_workloads():
            e = estimate(w, t)
            assert e.peak_vram_bytes > 0 and e.verdict in VERDICTS
            assert e.samples_per_second is None or e.samples_per_second > 0
