"""The fused linear cross-entropy (Liger Kernel): its memory as Liger's code sizes it, and the ladder's rung that
offers it where Liger runs, or TRL's chunked loss where it does not (gpucheck/advise/fused_loss.py,
resources/advice.toml [fused_loss], resources/factors.toml [logits.trl_chunked])."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from gpucheck import estimate as E
from gpucheck.advise import advise
from gpucheck.catalog import find_gpu, get_workload
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.logits import fused_linear_chunk_tokens, logits_bytes
from gpucheck.hf_config import workload_from_config
from gpucheck.records import ModelSpec, TrainSpec
from tests.conftest import FIXTURES
from tests.core.test_advise import advice_for, machine

GIB = 1024**3
ROOT = Path(__file__).resolve().parents[2]


def test_the_chunk_is_the_one_liger_computes_in_its_own_example():
    # liger_kernel/ops/fused_linear_cross_entropy.py: "for ex: BT = 4096*4, V = 32000, H = 4096 ==> inc_factor = 8,
    # chunk_size = 2048"
    m = ModelSpec(arch="transformer", params=7e9, layers=32, hidden=4096, heads=32, vocab=32000)
    t = TrainSpec(method="lora", precision="bf16", batch=4, seq_len=4096)
    assert fused_linear_chunk_tokens(m, t, load_factors()) == 2048


def test_the_fused_loss_keeps_no_vocabulary_wide_tensor():
    # Llama 3 8B at 2,048 tokens: the Hugging Face loss holds the bf16 logits and three fp32 copies of 2,048 × 128,256
    # entries (3.4 GiB); Liger's holds one chunk of 64 tokens and the hidden states' gradient
    w = get_workload("llama3-8b-lora")
    f = load_factors()
    full = logits_bytes(w.model, dataclasses.replace(w.train, cross_entropy="full"), f)
    fused = logits_bytes(w.model, dataclasses.replace(w.train, cross_entropy="fused_linear"), f)
    assert full == pytest.approx(2048 * 128256 * (2 + 3 * 4))
    assert fused == pytest.approx(64 * 128256 * 2 + 2048 * 4096 * 2)
    assert fused < full / 50


def test_a_24gb_card_runs_an_8b_lora_with_the_fused_loss_alone():
    # 21 GiB of 24 with the Hugging Face loss is inside the error band; the fused loss frees its 3.4 GiB of logits,
    # loses nothing, and the settings to copy switch it on
    m, w, a = advice_for("rtx4090-650w-desktop", "llama3-8b-lora")
    assert a.verdict == "runs_with_tweaks"
    assert [t.id for t in a.tweaks] == ["fused_loss"]
    tweak = a.tweaks[0]
    assert tweak.loses == "nothing" and tweak.settings == {"use_liger_kernel": True}
    assert "use_liger_kernel=True," in a.snippet and "pip install liger-kernel" in a.snippet
    before = E.estimate(w, E.Target.from_machine(m))
    assert before.peak_vram_bytes - tweak.peak_vram_bytes > 2.5 * GIB


def _with_hf_loss(job: str):
    """The built-in job with the Hugging Face loss, which keeps the logits, in place of its own (TRL's chunked loss:
    the recipe is TRL's SFTConfig, whose default it is since TRL 1.7)."""
    w = get_workload(job)
    assert w.train.cross_entropy == "trl_chunked"
    return dataclasses.replace(w, train=dataclasses.replace(w.train, cross_entropy="full"))


def test_a_free_t4_fits_an_8b_qlora_with_the_fused_loss():
    # a T4 (16 GB, Turing: Triton runs there) with the Hugging Face loss is "may fit"; with the fused loss it fits with
    # room. TRL's chunked loss, the job's own, runs as configured
    a = advise(None, _with_hf_loss("llama3-8b-qlora"), E.Target.from_gpu(find_gpu("t4")))
    assert a.verdict == "runs_with_tweaks"
    assert "fused_loss" in [t.id for t in a.tweaks]
    assert advise(None, get_workload("llama3-8b-qlora"), E.Target.from_gpu(find_gpu("t4"))).verdict == "runs"


def test_no_liger_where_it_does_not_run_and_trls_chunked_loss_in_its_place():
    # with the Hugging Face loss each job needs a change here, so the ladder runs. Apple GPUs (no Triton) and a Pascal
    # card (Triton needs compute capability 7.0) get no Liger; the packed job's recipe is TRL's SFTConfig, whose chunked
    # loss is plain PyTorch (loss_type="chunked_nll"), so the rung offers it instead and nothing else needs to change.
    # GPT-2 from a config.json (no Liger patch for its model type, no packed rows, so no SFTConfig): neither
    hf = _with_hf_loss("qwen2.5-1.5b-lora")
    m = machine("m1-macbookair")
    apple = advise(m, hf, E.Target.from_machine(m))
    pascal = advise(None, hf, E.Target.from_gpu(find_gpu("gtx 1070")))
    for a in (apple, pascal):
        assert [(t.id, t.settings) for t in a.tweaks] == [("fused_loss", {"loss_type": "chunked_nll"})]
        assert 'loss_type="chunked_nll"' in a.snippet and "use_liger_kernel" not in a.snippet
    turing = advise(None, hf, E.Target.from_gpu(find_gpu("rtx 2060")))
    assert any(t.settings.get("use_liger_kernel") for t in turing.tweaks)  # where Liger runs, Liger
    # the job as shipped runs TRL's chunked loss already: on the GTX 1070 it runs as configured, and where a change is
    # needed and Liger runs (a 6 GB RTX 2060), Liger's loss replaces TRL's, whose chunks copy the output layer
    job = get_workload("qwen2.5-1.5b-lora")
    assert advise(None, job, E.Target.from_gpu(find_gpu("gtx 1070"))).verdict == "runs"
    turing = advise(None, job, E.Target.from_gpu(find_gpu("rtx 2060")))
    assert [(t.id, t.settings) for t in turing.tweaks] == [("fused_loss", {"use_liger_kernel": True})]
    gpt2 = workload_from_config(json.loads((FIXTURES / "hf" / "gpt2" / "config.json").read_text()), "config.json")
    a = advise(None, gpt2, E.Target.from_gpu(find_gpu("rtx 4060")))
    assert a.tweaks and "fused_loss" not in [t.id for t in a.tweaks]


def test_trls_chunked_loss_memory_is_what_its_code_allocates():
    """benchmarks/measure_sft_loss_memory.py ran TRL 1.9's _chunked_cross_entropy_loss as published under bf16
    autocast (a frozen 16-bit lm_head of 128,256 × 1,024, 2,047 and 4,094 tokens): the estimate's two copies of the
    output layer, one chunk and the reordered hidden states come within 2 % under its peak, whatever the batch."""
    data = json.loads((ROOT / "benchmarks" / "data" / "sft-loss-memory.json").read_text(encoding="utf-8"))
    m = ModelSpec(arch="transformer", params=float(data["vocab"] * data["hidden"]), layers=1, hidden=data["hidden"],
                  heads=8, vocab=data["vocab"])
    rows = [r for r in data["rows"] if r["loss"] == "trl_chunked_nll"]
    assert [r["batch"] for r in rows] == [1, 2]
    for r in rows:
        t = TrainSpec(method="lora", precision="bf16", batch=r["batch"], seq_len=r["tokens"] // r["batch"],
                      cross_entropy="trl_chunked")
        assert -0.02 <= logits_bytes(m, t, load_factors()) / r["peak_bytes"] - 1 <= 0.0


@pytest.mark.parametrize("config, model_type, offered", [("meta-llama-3-8b", "llama", True),
                                                         ("qwen2.5-7b", "qwen2", True), ("gpt2", "gpt2", False)])
def test_an_imported_config_keeps_its_model_type(config, model_type, offered):
    from gpucheck.advise.fused_loss import offered as is_offered

    cfg = json.loads((FIXTURES / "hf" / config / "config.json").read_text())
    w = workload_from_config(cfg, "config.json")
    assert w.model.model_type == model_type
    assert is_offered(w, w.train, "cuda", 8.9) is offered


def _liger_benchmark() -> dict[str, dict[int, float]]:
    """provider → {tokens: peak MiB} from Liger Kernel's published A100 benchmark (tests/fixtures/liger/)."""
    import csv

    path = FIXTURES / "liger" / "fused-linear-ce-memory-a100.csv"
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
    out: dict[str, dict[int, float]] = {}
    for row in csv.DictReader(lines):
        out.setdefault(row["kernel_provider"], {})[int(row["x_value"])] = float(row["y_value_50"])
    return out


def test_per_token_loss_memory_follows_liger_s_published_benchmark():
    # Liger's benchmark runs lm_head (H 4,096 → V 128,256, bf16, no autocast) and the loss forward + backward at
    # 4,096 to 32,768 tokens. What grows with the tokens is the loss's memory plus the input and its gradient (2 × H
    # × 2 B a token); the weights are fixed. The plain loss keeps three bf16 copies of the logits (nothing holds the
    # model's output here), the count `full` uses for pure 16-bit; the fused one keeps a chunk and grows ~14× less.
    bench = _liger_benchmark()
    f = load_factors()
    m = ModelSpec(arch="transformer", params=8e9, layers=32, hidden=4096, heads=32, vocab=128256)
    mib = 2**20
    io_per_token = 2 * 4096 * 2  # the benchmark's input and its accumulated gradient, bf16

    def slope(points: dict[int, float]) -> float:
        return (points[32768] - points[4096]) * mib / (32768 - 4096)  # bytes per token

    t = TrainSpec(method="full", precision="bf16-pure", batch=1, seq_len=1)
    full_per_token = 3 * 128256 * 2  # the loss's copies, without the caller's held output
    assert f["logits"]["full"]["loss_copies"] == 3
    assert logits_bytes(m, t, f) == pytest.approx((1 + 3) * 128256 * 2)  # as counted for a model: + held output
    assert slope(bench["huggingface"]) == pytest.approx(full_per_token + io_per_token, rel=0.02)
    hf, liger = slope(bench["huggingface"]), slope(bench["liger"])
    assert hf / liger > 10  # measured: 750 KiB against 55 KiB a token
    # the estimate's fused_linear count grows by one chunk's share and the hidden gradient a token, below the
    # benchmark's measured growth (which also holds its input's gradient, and a second chunk in Liger 0.4.2)
    fl = dataclasses.replace(t, cross_entropy="fused_linear")
    per_token = (logits_bytes(m, dataclasses.replace(fl, seq_len=32768), f)
                 - logits_bytes(m, dataclasses.replace(fl, seq_len=4096), f)) / (32768 - 4096)
    assert per_token + io_per_token < liger < 2 * (per_token + io_per_token)
