"""`gpucheck trial` for real: training steps in a separate Python with PyTorch ("the user's Python";
scripts/trial-venv.sh makes it and scripts/test.sh points GPUCHECK_TRIAL_TEST_PYTHON at it), on the CPU,
at tiny settings of each model family. What is asserted is what a user relies on: it ran and measured
step time and memory, a missing library names its pip command, an out-of-memory is reported as measured
with the micro-batch that fits, a hang is stopped at the cap, and nothing connects to the network."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from gpucheck import cli
from gpucheck.catalog import get_workload
from gpucheck.estimate import apply_overrides
from gpucheck.machine import Machine
from gpucheck.trial import run_trial
from gpucheck.trial.child import run_child
from gpucheck.trial.models import job_spec

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
CPU_VM = FIXTURES / "machines" / "cpu-only-vm.json"
TINY = FIXTURES / "trial"


def _torch_python() -> str | None:
    for c in (os.environ.get("GPUCHECK_TRIAL_TEST_PYTHON"), ROOT / ".venv-trial" / "bin" / "python",
              ROOT / ".venv-trial" / "Scripts" / "python.exe"):
        if c and Path(c).is_file():
            return str(c)
    return None


PY = _torch_python()
pytestmark = pytest.mark.skipif(PY is None, reason="no Python with PyTorch for the trial tests: run "
                                "scripts/trial-venv.sh (scripts/test.sh does) or set GPUCHECK_TRIAL_TEST_PYTHON")


def _trial_json(capsys, *args):
    code = cli.main(["trial", *args, "--python", PY, "--machine", str(CPU_VM), "--json"])
    out = capsys.readouterr()
    return code, json.loads(out.out), out.err


def _assert_measured(data, batch):
    m = data["measured"]
    assert data["outcome"] == "ran", data
    assert m["steps"] >= 1 and m["step_seconds"] > 0 and m["batch"] == batch
    assert m["samples_per_second"] == pytest.approx(batch / m["step_seconds"], rel=0.01)
    assert 0.05 < m["peak_memory_gib"] < 16 and m["memory_kind"] == "cpu_peak_rss" and m["device"] == "CPU"
    assert data["estimated"]["samples_per_second"] > 0 and data["ratios"]["samples_per_second"] > 0
    assert data["libraries"]["torch"]


# tiny-gpt2: the network test; llama: LoRA; t5: an encoder-decoder (source tokens in, target tokens as labels); phi:
# a decoder outside the LLaMA lineage (resources/hf_types.toml); vit: an image classifier
@pytest.mark.parametrize("config", ["tiny-qwen2", "tiny-bert", "tiny-t5", "tiny-phi", "tiny-vit"])
def test_a_users_config_json_trains_for_real(capsys, config):
    code, data, _err = _trial_json(capsys, str(TINY / config / "config.json"), "--steps", "2", "--max-seconds", "5",
                                   "--batch", "2", "--seq-len", "32")
    assert code == 0
    _assert_measured(data, 2)
    assert data["measured"]["trainable_params"] == data["measured"]["total_params"]  # full fine-tune


@pytest.mark.parametrize("targets", ["all-linear", "attention", "qv"])
def test_a_hybrid_linear_attention_model_trains_and_its_adapters_are_counted(capsys, targets):
    """A tiny Qwen3.5 (three Gated DeltaNet layers, one softmax layer) builds from its text_config and trains; PEFT's
    adapters on each target set are the parameters the estimate counts (q / k / v / o exist in the softmax layer
    only; all-linear adds in_proj_qkv / z / b / a and out_proj)."""
    from gpucheck.estimate.params import lora_params
    from gpucheck.hf_config import workload_from_config_file

    path = TINY / "tiny-qwen3_5" / "config.json"
    code, data, _err = _trial_json(capsys, str(path), "--method", "lora", "--lora-rank", "4", "--lora-targets", targets,
                                   "--steps", "1", "--batch", "1", "--seq-len", "32")
    assert code == 0
    _assert_measured(data, 1)
    w = apply_overrides(workload_from_config_file(path), method="lora", lora_rank=4, lora_targets=targets)
    assert data["measured"]["trainable_params"] == lora_params(w.model, w.train)


def test_a_config_saved_in_bf16_still_trains_fp32_weights():
    """Published config.json files name the dtype they were saved in ("dtype": "bfloat16"), which transformers 5's
    from_config builds in: a full fine-tune under autocast keeps fp32 weights, as the estimate it is compared with."""
    cfg = json.loads((TINY / "tiny-qwen3_5" / "config.json").read_text())["text_config"]
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); import runner; "
            "spec = {'model': {'config': json.loads(sys.argv[2]), 'task': 'causal-lm'}, "
            "'train': {'method': 'full', 'precision': 'bf16'}}; "
            "model, _ = runner._hf_model(spec, 'cpu'); print({str(p.dtype) for p in model.parameters()})")
    out = subprocess.run([PY, "-c", code, str(ROOT / "gpucheck" / "trial"), json.dumps(cfg)], capture_output=True,
                         text=True, timeout=120, check=True).stdout
    assert out.strip() == "{'torch.float32'}"


def test_the_trial_steps_the_optimizer_the_estimate_prices(capsys):
    """The estimate prices the Hugging Face Trainer's fused AdamW (28 bytes a parameter); torch.optim's default on a
    CPU is the per-tensor loop (80 bytes and two parameter-sized temporaries, 4× the time of the fused step for
    BERT-base here). The trial steps fused where this PyTorch can, says so, and its estimate is the same step's."""
    code, data, _err = _trial_json(capsys, "mnist-cnn", "--steps", "2", "--max-seconds", "5", "--batch", "8")
    assert code == 0 and data["measured"]["optimizer_impl"] == "fused"


def test_a_pytorch_without_that_step_runs_its_own_default_and_says_which():
    """fused=True on a device PyTorch has no fused kernel for (here: tensors on the meta device) falls back to
    torch's default for the device, and the runner reports it, so the estimate beside it prices that step."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import runner, torch; "
            "p = [torch.nn.Parameter(torch.zeros(4, device='meta'))]; "
            "print([runner._optimizer({'train': {'optimizer': o, 'optimizer_impl': i}}, p, d)[1] "
            "for o, i, d in (('adamw', 'fused', 'meta'), ('sgd', 'fused', 'meta'), ('adamw', 'single', 'cpu'), "
            "('adamw', 'foreach', 'cpu'), ('adamw', '', 'cpu'))])")
    out = subprocess.run([PY, "-c", code, str(ROOT / "gpucheck" / "trial")], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.strip() == "['single', 'single', 'single', 'single', 'single']"


def test_lora_finds_the_attention_of_a_fused_qkv_decoder(capsys, tmp_path):
    """GPT-NeoX (Pythia) names its attention query_key_value: LoRA on q and v adapts that projection."""
    cfg = json.loads((FIXTURES / "hf_types" / "pythia-1.4b.json").read_text(encoding="utf-8"))
    tiny = dict(cfg, hidden_size=64, intermediate_size=128, num_attention_heads=4, num_hidden_layers=2,
                vocab_size=256, max_position_embeddings=128)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(tiny), encoding="utf-8")
    code, data, _err = _trial_json(capsys, str(path), "--method", "lora", "--lora-rank", "4", "--steps", "2",
                                   "--max-seconds", "5", "--batch", "1", "--seq-len", "32")
    assert code == 0
    _assert_measured(data, 1)
    assert data["measured"]["trainable_params"] == 2 * (4 * 64 + 3 * 64 * 4)  # per layer: A (r × 64), B (192 × r)


def test_an_encoder_decoder_s_adapters_are_the_ones_peft_makes(capsys):
    """T5 LoRA on q and v: PEFT adapts every attention's q and v — the encoder's self-attention and the decoder's
    self- and cross-attention — and the estimate counts the same adapters."""
    from gpucheck.estimate.params import lora_params

    path = TINY / "tiny-t5" / "config.json"
    code, data, _err = _trial_json(capsys, str(path), "--method", "lora", "--lora-rank", "4", "--steps", "2",
                                   "--max-seconds", "5", "--batch", "1", "--seq-len", "32")
    assert code == 0
    w = apply_overrides(get_workload(str(path)), method="lora", lora_rank=4)
    assert data["measured"]["trainable_params"] == lora_params(w.model, w.train) == 6 * 2 * 4 * (64 + 64)


def test_lora_trains_only_the_adapters(capsys):
    code, data, _err = _trial_json(capsys, str(TINY / "tiny-llama" / "config.json"), "--method", "lora",
                                   "--lora-rank", "4", "--steps", "2", "--batch", "1", "--seq-len", "32")
    assert code == 0
    _assert_measured(data, 1)
    m = data["measured"]
    # rank 4 on q_proj and v_proj of 2 layers: 2 × (4·(64+64) + 4·(64+32)) adapter weights
    assert m["trainable_params"] == 2 * (4 * (64 + 64) + 4 * (64 + 32))


@pytest.mark.parametrize("job, args", [
    ("mnist-cnn", ["--batch", "8"]),
    ("cifar10-resnet18", ["--batch", "2"]),  # torchvision's ResNet (resnet50-finetune: the same builder)
])
def test_builtin_vision_jobs_train_at_small_settings(capsys, job, args):
    code, data, _err = _trial_json(capsys, job, "--steps", "2", "--max-seconds", "5", *args)
    assert code == 0
    _assert_measured(data, int(args[1]))
    assert data["measured"]["total_hours"] > 0


def test_a_missing_library_names_its_pip_command(capsys):
    """The test Python has no ultralytics and no bitsandbytes (scripts/trial-venv.sh installs neither)."""
    code, data, err = _trial_json(capsys, "yolov8s-finetune")
    assert code == 3 and data["outcome"] == "missing_library"
    assert data["install"] == "pip install ultralytics" and "pip install ultralytics" in err
    code, data, err = _trial_json(capsys, "qwen2.5-7b-qlora")
    assert code == 3 and data["install"] == "pip install bitsandbytes"


def test_out_of_memory_is_measured_and_the_batch_that_fits_is_found(capsys, monkeypatch):
    monkeypatch.setenv("GPUCHECK_TRIAL_FAULT", "oom_above_batch=2")  # the runner raises CUDA's OOM error
    code, data, _err = _trial_json(capsys, "mnist-cnn", "--batch", "16", "--steps", "1")
    assert code == 0 and data["outcome"] == "out_of_memory"
    assert data["message"].startswith("Does not fit here — measured")
    assert data["details"]["largest_batch_that_fits"] == 2 and data["measured"]["batch"] == 2
    code, data, _err = _trial_json(capsys, "mnist-cnn", "--batch", "16", "--steps", "1", "--no-search")
    assert code == 0 and data["outcome"] == "out_of_memory" and data["measured"] is None


def test_a_hang_is_stopped_at_the_cap(monkeypatch):
    monkeypatch.setenv("GPUCHECK_TRIAL_FAULT", "hang")
    monkeypatch.setattr("gpucheck.trial.SETUP_ALLOWANCE_S", 8)
    r = run_trial(get_workload("mnist-cnn"), python=PY, max_seconds=1, machine=Machine.load(CPU_VM))
    assert r.outcome == "timed_out" and r.exit_code == 3 and "did not finish within 9 s" in r.message


def test_a_killed_trial_is_reported_and_cleaned_up():
    spec = job_spec(get_workload("mnist-cnn"), steps=1000, max_seconds=60)
    seen = {}

    def started(pid, tmp):
        seen.update(pid=pid, tmp=tmp)

    def on_event(ev):
        if ev.get("phase") == "timing" and "killed" not in seen:
            seen["killed"] = True
            os.kill(seen["pid"], signal.SIGKILL)

    raw = run_child(PY, spec, hard_cap_s=120, on_event=on_event, on_started=started)
    assert raw["outcome"] == "failed" and raw["signal"] == signal.SIGKILL
    assert not Path(seen["tmp"]).exists()


def test_cancel_during_training_stops_it(tmp_path):
    spec = job_spec(get_workload("mnist-cnn"), steps=1000, max_seconds=60)
    cancel = threading.Event()
    raw = run_child(PY, spec, hard_cap_s=120, cancel=cancel,
                    on_event=lambda ev: ev.get("phase") == "timing" and cancel.set())
    assert raw["reason"] == "cancelled"


AUDIT = """
import sys, os
_log = os.environ["GPUCHECK_TEST_NET_LOG"]
def _hook(name, args):
    if name in ("socket.connect", "socket.getaddrinfo", "socket.sendto"):
        with open(_log, "a") as f:
            f.write(name + " " + repr(args[1:])[:200] + "\\n")
sys.addaudithook(_hook)
"""


def test_nothing_connects_to_the_network(tmp_path, monkeypatch):
    """An audit hook installed before anything else (sitecustomize) records every connection attempt of
    the child; a transformers trial (the library most eager to reach the Hugging Face Hub) makes none."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(AUDIT)
    log = tmp_path / "net.log"
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "site"))
    monkeypatch.setenv("GPUCHECK_TEST_NET_LOG", str(log))
    # the detector works: a plain lookup in the same set-up is recorded
    subprocess.run([PY, "-c", "import socket\ntry: socket.getaddrinfo('example.com', 80)\nexcept OSError: pass"],
                   timeout=60, check=False)
    assert "socket.getaddrinfo" in log.read_text()
    log.unlink()
    w = apply_overrides(get_workload(str(TINY / "tiny-gpt2" / "config.json")), batch=1, seq_len=16)
    r = run_trial(w, python=PY, steps=1, max_seconds=5, machine=Machine.load(CPU_VM))
    assert r.outcome == "ran", r
    assert not log.exists() or log.read_text() == ""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups")
def test_the_app_s_own_python_is_not_changed():
    """The trial never imports PyTorch into gpucheck's own process (the packaged app cannot)."""
    assert "torch" not in sys.modules


def test_the_runner_stops_when_the_app_is_gone():
    """The app keeps the runner's stdin open; if the app dies (crash, killed), stdin closes and the
    runner ends itself instead of training on with nobody waiting."""
    runner = ROOT / "gpucheck" / "trial" / "runner.py"
    spec = job_spec(get_workload("mnist-cnn"), steps=1000, max_seconds=60)
    env = dict(os.environ, GPUCHECK_TRIAL_FAULT="hang")
    proc = subprocess.Popen([PY, str(runner)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env)
    try:
        proc.stdin.write((json.dumps(spec) + "\n").encode())
        proc.stdin.flush()
        assert b'"phase": "building"' in proc.stdout.readline() + proc.stdout.readline()
        proc.stdin.close()
        assert proc.wait(timeout=30) == 70
    finally:
        proc.kill()


def test_an_error_inside_the_job_is_one_line_and_exit_1(capsys, tmp_path):
    """A config transformers refuses (a rope type it does not know, which gpucheck does not read): the trial
    failed inside the job's own code — exit 1, one line on stderr, the traceback's tail in the JSON. (A hidden
    size that is not a multiple of the heads is refused before, at load: exit 2.)"""
    bad = tmp_path / "odd" / "config.json"
    bad.parent.mkdir()
    cfg = {"model_type": "llama", "hidden_size": 60, "intermediate_size": 128, "num_attention_heads": 7,
           "num_key_value_heads": 7, "num_hidden_layers": 1, "vocab_size": 100}
    bad.write_text(json.dumps(cfg))
    code = cli.main(["trial", str(bad), "--python", PY, "--machine", str(CPU_VM), "--json"])
    assert code == 2 and "'hidden_size'" in capsys.readouterr().err
    bad.write_text(json.dumps(dict(cfg, hidden_size=64, num_attention_heads=8, num_key_value_heads=8,
                                   rope_scaling={"rope_type": "bogus", "factor": 2.0})))
    code, data, err = _trial_json(capsys, str(bad), "--steps", "1", "--seq-len", "8")
    assert code == 1 and data["outcome"] == "failed"
    assert err.startswith("gpucheck: The trial failed: ") and err.count("\n") == 1 and "bogus" in err
