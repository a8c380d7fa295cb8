"""Leftovers of issues 13 and 17: a GPU's default precision (not a tweak), upgrades that never contradict
the need, and one time / one RAM figure per fact across the table, the advice, the cloud options and JSON.
Each test would fail if its class of mistake came back.
"""

from __future__ import annotations

import json
import re

import pytest

from gpucheck import estimate as E
from gpucheck.advise import advise
from gpucheck.advise.job_json import job_to_json
from gpucheck.catalog import find_gpu, get_workload
from gpucheck.cli import main
from gpucheck.machine import Machine
from gpucheck.resources import resource_path
from gpucheck.verdict import Verdict
from tests.conftest import FIXTURES
from tests.helpers import advise_on_gpu as on_gpu

MACHINES = FIXTURES / "machines"
GIB = 1024**3


def on_machine(fixture: str, workload: str, **overrides):
    m = Machine.load(MACHINES / fixture)
    w = E.apply_overrides(get_workload(workload), **overrides)
    t = E.Target.from_machine(m)
    e = E.estimate(w, t)
    return w, e, advise(m, w, t, e)


# -- 1. default precision per GPU ------------------------------------------------------------------------

# GPUs without BF16 matrix units. NVIDIA: BF16 tensor cores arrived with Ampere, compute capability 8.0
# (NVIDIA A100 Tensor Core GPU Architecture whitepaper, 2020; PyTorch's torch.cuda.is_bf16_supported() is False
# below 8.0): GTX 10xx (Pascal, 6.1), GTX 16xx / RTX 20xx / T4 (Turing, 7.5), V100 (Volta, 7.0). AMD RDNA 2
# (RX 6800) has no BF16 WMMA/dot instructions; RDNA 3 added WMMA with BF16 (AMD "RDNA3" ISA reference guide,
# 2023). Apple M1/M2 GPUs have no BF16 arithmetic (Apple GPU family 7/8; bfloat arrived with Metal 3.1).
NO_BF16 = ["GTX 1080", "RTX 2080", "T4", "V100 16GB", "RX 6800", "Apple M1 8GB", "Apple M2 8GB"]


@pytest.mark.parametrize("gpu", NO_BF16)
def test_a_builtin_bf16_job_starts_at_fp16_on_a_gpu_without_bf16_and_plainly_runs(gpu):
    # issue 17: "a GTX 1660 Ti starts at BF16 it doesn't have and so shows 'runs with tweaks' for CIFAR-10"
    w, e, a = on_gpu("cifar10-resnet18", gpu)
    assert w.train.precision == "bf16"  # the built-in job says bf16 ...
    assert a.verdict == Verdict.RUNS  # ... and the card's FP16 default is not a change the user has to make
    assert not any(t.id == "mixed_precision" for t in a.tweaks)
    assert e.precision_used == "fp16"
    assert any("FP16" in x and "default" in x for x in e.assumptions), e.assumptions  # said as a default


def test_the_gtx_1660_ti_fixture_and_the_catalog_card_agree_that_cifar10_runs():
    # a GTX 16xx has no BF16 either, and FP16 gives NaN losses there (factors.toml [fp16_nan]): a built-in job's
    # default is FP32 on it, in the estimate as in the advice, said as a default, not a change to make
    _w, e, a = on_machine("gtx1660-laptop.json", "cifar10-resnet18")
    assert a.verdict == Verdict.RUNS and e.precision_used == "fp32"
    assert any("FP32" in x and "default" in x and "NaN" in x for x in e.assumptions), e.assumptions
    _w, c, b = on_gpu("cifar10-resnet18", "GTX 1660 Ti")
    assert b.verdict == Verdict.RUNS and c.precision_used == "fp32"
    assert not any(t.id in ("mixed_precision", "full_precision") for t in b.tweaks)


def test_a_gpu_with_bf16_keeps_bf16_and_says_nothing_about_a_default():
    # RTX 3060 (Ampere, compute capability 8.0+): BF16 tensor cores
    _w, e, a = on_gpu("cifar10-resnet18", "RTX 3060 12GB")
    assert e.precision_used == "bf16" and not any("default" in x for x in e.assumptions)


def test_bf16_asked_for_on_a_gpu_without_it_is_reported_as_the_change_to_make():
    # the user chose bf16 (--precision bf16): HF Trainer refuses bf16=True on a pre-Ampere GPU, so switching
    # is a change the user must make, named as such
    _w, _e, a = on_gpu("cifar10-resnet18", "RTX 2080", precision="bf16")
    assert a.verdict == Verdict.RUNS_WITH_TWEAKS
    assert [t.id for t in a.tweaks] == ["mixed_precision"]
    # on a GTX 16xx the change is to FP32: FP16 gives NaN there (pytorch/pytorch#58123)
    _w, _e, a = on_gpu("cifar10-resnet18", "GTX 1660 Ti", precision="bf16")
    assert [t.id for t in a.tweaks] == ["full_precision"]


def test_check_on_a_gtx_1660_ti_calls_cifar10_plain_runs(capsys):
    assert main(["check", "--gpu", "GTX 1660 Ti", "--json"]) == 0
    rows = {r["workload"]: r for r in json.loads(capsys.readouterr().out)["estimates"]}
    assert rows["cifar10-resnet18"]["verdict"] == "runs"
    # BERT-base at 32 × 128 tokens in FP32: the activations widen by the NLP family's memory band on NVIDIA
    # (resources/factors.toml [memory_band.cell.nlp.nvidia], up to 2.71× from the published memory rows), which
    # spans 6 GB; a smaller micro-batch with accumulation (same effective batch) is the one change it may take
    bert = rows["bert-base-finetune"]
    assert bert["verdict"] == "runs" or (bert["verdict"] == "runs_with_tweaks" and
                                         [t["id"] for t in bert["tweaks"]] == ["micro_batch"]), bert["verdict"]
    # in FP32 (FP16 gives NaN on GTX 16xx, pytorch/pytorch#58123) ResNet-50 needs a smaller micro-batch
    assert rows["resnet50-finetune"]["verdict"] in ("runs", "runs_with_tweaks")


# -- 2. upgrades never contradict the need -------------------------------------------------------------------


def test_llama3_70b_qlora_runs_on_a_48gb_card_only_with_unsloth():
    # The QLoRA paper (Dettmers et al. 2023, arXiv 2305.14314) fine-tuned 65B on one 48 GB GPU: 70B at 2048 tokens
    # on the Hugging Face stack needs more (gpucheck ≈51.5 GB). Unsloth's context-length table fits Llama 3.3 70B at
    # 12,106 tokens in 48 GB: a 48 GB card runs it only with Unsloth, and says so; else it is tight, never "runs"
    _w, e, a = on_machine("rtx3060-12gb-hdd-desktop.json", "llama3-70b-qlora")
    assert e.peak_vram_bytes > 48e9
    cards = [u for u in a.upgrades if u.kind == "gpu"]
    assert any(find_gpu(u.gpu_id).vram_bytes < 50 * GIB and u.gpus == 1 for u in cards)
    for u in cards:
        spec = find_gpu(u.gpu_id)
        assert spec.id == u.gpu_id  # a typed catalog id, not a parts.toml name to map
        if spec.vram_bytes < 50 * GIB and u.gpus == 1:  # (two 48 GB cards sharing the job hold it)
            if u.fit == "fits":
                assert "unsloth" in u.tweaks and any("Train with Unsloth" in n for n in u.notes), u
            else:
                assert u.fit == "tight" and "runs this job" not in u.reason


@pytest.mark.parametrize("fixture,job", [
    ("rtx3060-12gb-hdd-desktop.json", "llama3-70b-qlora"), ("rtx3060-12gb-hdd-desktop.json", "llama3-8b-full"),
    ("rtx2060super-windows.json", "llama3-8b-lora"), ("rtx3060-12gb-hdd-desktop.json", "sd15-dreambooth"),
    ("office-pc-cpu-only.json", "sdxl-lora"),
])
def test_an_upgrade_offered_as_fitting_runs_the_job_when_estimated_on_that_card(fixture, job):
    _w, _e, a = on_machine(fixture, job)
    m = Machine.load(MACHINES / fixture)
    for u in (u for u in a.upgrades if u.kind == "gpu"):
        _w2, _e2, on_card = on_gpu(job, u.gpu_id, u.gpus)  # two cards sharing the job: judged on two
        if u.fit == "tight":  # that card in this PC: its RAM may rule out the CPU offload a bare card takes
            on_card = advise(m, get_workload(job), E.Target.from_gpu(find_gpu(u.gpu_id), u.gpus, m))
        if u.fit == "fits":
            assert on_card.verdict in (Verdict.RUNS, Verdict.RUNS_WITH_TWEAKS, Verdict.TOO_SLOW), (u.name, on_card.verdict)
        else:
            assert u.fit == "tight" and on_card.verdict in (Verdict.TIGHT, Verdict.TOO_SLOW)


# -- 3. one number per fact --------------------------------------------------------------------------------


def _time_of(text: str) -> str:
    m = re.search(r"about ([\d.,]+ (?:s|min|h|days|weeks))", text)
    assert m, text
    return m.group(1)


def test_8x_h100_imagenet_gives_one_time_in_table_advice_and_json(capsys, tmp_path):
    # issue 13 §6: the table said 34 min, the advice 2.4 h (the CPU decoding limit). The answer is the time
    # with this PC's limits; the GPU-alone time is labelled as such. With fused kernels (NVIDIA's own ResNet-50
    # recipe) the 8 GPUs train faster than this server's CPU decodes JPEGs.
    path = str(MACHINES / "h100x8-server.json")
    fused = ["--stack", "fused"]
    assert main(["estimate", "imagenet-resnet50", "--machine", path, "--json", *fused]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["expected_hours"] == d["advice"]["host_limited_hours"] > d["total_hours"]
    assert main(["estimate", "imagenet-resnet50", "--machine", path, *fused]) == 0
    text = capsys.readouterr().out
    answer = re.search(r"Whole run \(with this PC's CPU and disk limits\)\s+(\S+ \S+)", text)
    gpu_alone = re.search(r"GPU alone, as configured, if data loading kept up\s+(\S+ \S+)", text)
    assert answer and gpu_alone
    assert answer.group(1) == _time_of(next(ln for ln in text.splitlines() if "as it is" in ln))
    job = tmp_path / "imagenet-fused.toml"  # `check` takes the stack from the job's file
    job.write_text(resource_path("workloads", "imagenet-resnet50.toml").read_text(encoding="utf-8")
                   .replace('stack = "eager"', 'stack = "fused"'), encoding="utf-8")
    assert main(["check", str(job), "--machine", path, "--json"]) == 0
    row = next(r for r in json.loads(capsys.readouterr().out)["estimates"] if r["workload"] == "imagenet-resnet50")
    assert row["expected_hours"] == d["expected_hours"]


def test_a_cloud_machine_like_this_one_is_not_called_faster_because_of_this_pcs_cpu():
    # 8× H100 with a CPU that decodes slower than the GPUs train: at 9000 epochs it is too slow here. The same
    # 8× H100 in a cloud has an unknown CPU: it must not be offered as faster, and every cloud time says it is
    # the GPU's alone.
    _w, e, a = on_machine("h100x8-server.json", "imagenet-resnet50", epochs=9000.0, stack="fused")
    assert a.verdict == Verdict.TOO_SLOW and a.host_limited_hours is not None
    for c in a.cloud:
        assert not (c.gpu_name == e.gpu_name and c.gpus == e.gpus)
        assert "GPU time only" in c.note


def test_a_config_that_does_not_fit_prints_its_time_only_as_if_it_fitted(capsys):
    # issue 13 §6: `estimate llama3-8b-full --gpu 4090` printed "does not fit … Whole run 23.3 h"
    assert main(["estimate", "llama3-8b-full", "--gpu", "RTX 4090"]) == 0
    text = capsys.readouterr().out
    for line in text.splitlines():
        if re.search(r"\d (?:h|min|days)\s*$", line) and ("Whole run" in line or "as configured" in line):
            assert "with the advised changes" in line or "if it fitted" in line or "likely range" in line, line


def test_m1_sdxl_lora_shows_one_ram_figure_per_setting(capsys):
    # issue 13 §6: 18.9 GB and 20.8 GB of RAM in two lines, neither labelled
    # (at 512 px: at 1024 px the U-Net does not fit the M1's GPU share, and 512 px is what fits instead)
    path = str(MACHINES / "m1-macbookair.json")
    assert main(["estimate", "sdxl-lora", "--machine", path, "--json", "--image-size", "512"]) == 0
    d = json.loads(capsys.readouterr().out)
    after = d["ram_need_gib"]
    assert d["advice"]["final_limit"] == "ram" and after is not None and after < d["ram_gib"]
    assert main(["estimate", "sdxl-lora", "--machine", path, "--image-size", "512"]) == 0
    text = capsys.readouterr().out
    row = next(ln for ln in text.splitlines() if ln.startswith("System RAM"))
    assert "with the advised changes" in row and f"{after:.1f} GiB" in row
    summary = next(ln for ln in text.splitlines() if "system RAM" in ln and "needs about" in ln)
    assert f"{after:.1f} GiB" in summary


def test_advice_json_has_expected_hours_for_the_report_and_the_cli_alike():
    w, e, a = on_gpu("llama3-8b-full", "RTX 4090")
    d = job_to_json(e, w, a)
    assert d["expected_hours"] == (None if a.expected_hours is None else round(a.expected_hours, 3))
    _w, e2, a2 = on_gpu("llama3-70b-qlora", "RTX 3060 12GB")
    assert job_to_json(e2, None, a2)["expected_hours"] is None  # it does not run here: no time to expect


def test_a_ram_shortfall_in_the_check_table_gets_the_ram_fix_not_a_cloud_gpu(capsys):
    # issue 13 §3: on the WSL 2 laptop (7.5 GB for Linux) SD 1.5 LoRA is stopped by RAM, and the one-line
    # advice said "rent a 3090" for a GPU that holds the job; the fix is WSL's memory= in .wslconfig
    assert main(["check", "--machine", str(MACHINES / "rtx4060-laptop-wsl2.json")]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("sd15-lora —"))
    assert "RAM" in line and ".wslconfig" in line and "rent" not in line


def test_more_gpus_are_never_slower_for_a_full_fine_tune_on_4090s():
    # issue 13 §4: 8B full on RTX 4090: 2 GPUs 4.2 h, 4 GPUs 3.2 days, 8 GPUs 17.6 h. One can always leave GPUs
    # idle, so the advised time never grows with the GPU count.
    hours = []
    for n in (1, 2, 4, 8):
        _w, _e, a = on_gpu("llama3-8b-full", "RTX 4090", n)
        hours.append(a.expected_hours)
    assert all(h is not None for h in hours)
    assert all(b <= a * 1.001 for a, b in zip(hours[:-1], hours[1:], strict=True)), hours


def test_a_sequence_limit_far_above_the_mean_length_is_said_to_lose_almost_nothing():
    # issue 13 §1: order by what is lost and say so. Qwen2.5 1.5B LoRA data average 128 tokens: a 512 limit
    # cuts only the rare long sample.
    _w, _e, a = on_gpu("qwen2.5-1.5b-lora", "GTX 1060 6GB")
    short = next(t for t in a.tweaks if t.id == "shorter_sequences")
    assert short.loses == "nothing" and "almost nothing" in short.cost
