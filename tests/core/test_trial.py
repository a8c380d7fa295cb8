"""`gpucheck trial` without PyTorch: what the user sees when the trial cannot run, and the safety of the
child process (time cap, killing the whole process tree, the temporary folder removed) — with stand-in
"Pythons" (shell scripts) so no PyTorch is needed. The real training steps are in test_trial_torch.py."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import stat
import sys
import threading
import time
from pathlib import Path

import pytest

from gpucheck import cli
from gpucheck.advise.software import software_fixes
from gpucheck.catalog import get_workload, load_workloads
from gpucheck.machine import Machine
from gpucheck.trial import pip_command, run_trial
from gpucheck.trial.child import find_pythons, python_for_site_dir, run_child
from gpucheck.trial.models import TrialUnsupported, job_spec

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CPU_VM = FIXTURES / "machines" / "cpu-only-vm.json"
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="stand-in Pythons are POSIX shell scripts")


def _script(folder: Path, name: str, body: str) -> Path:
    p = folder / name
    p.write_text("#!/bin/sh\n" + body)
    p.chmod(p.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return p


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped by its parent) counts as gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def _trial(capsys, *args):
    code = cli.main(["trial", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


# -- every built-in job has a model the trial can build -----------------------------------------------


def test_every_builtin_job_has_a_model_to_build():
    """Built-in jobs all map to an architecture shipped in resources/models/ (nothing is downloaded)."""
    for w in load_workloads():
        spec = job_spec(w, steps=3, max_seconds=5)
        assert spec["builder"] in ("mnist-net", "torchvision", "transformers", "diffusers-unet", "ultralytics"), w.id
        if spec["builder"] == "transformers":
            assert spec["model"]["config"]["model_type"], w.id


def test_the_shipped_configs_are_the_jobs_own_sizes():
    """The config.json files in resources/models/ describe the same model as the job (the hidden size,
    layers and vocabulary of the published config.json the job's TOML cites)."""
    for wid in ("llama3-8b-qlora", "qwen2.5-1.5b-lora", "qwen2.5-7b-qlora", "llama3-70b-qlora", "bert-base-finetune"):
        w = get_workload(wid)
        cfg = job_spec(w, steps=1, max_seconds=1)["model"]["config"]
        assert cfg["hidden_size"] == w.model.hidden and cfg["num_hidden_layers"] == w.model.layers, wid
        assert cfg["num_attention_heads"] == w.model.heads, wid
    gpt2 = job_spec(get_workload("gpt2-124m-pretrain"), steps=1, max_seconds=1)["model"]["config"]
    assert (gpt2["n_embd"], gpt2["n_layer"], gpt2["vocab_size"]) == (768, 12, 50304)  # nanoGPT's vocabulary


def test_a_custom_toml_transformer_is_built_from_its_sizes(tmp_path):
    toml = tmp_path / "mine.toml"
    toml.write_text('id = "my-llm"\ntitle = "x"\nfamily = "llm"\nlevel = 5\n[model]\narch = "transformer"\n'
                    'params = 1e6\nlayers = 2\nhidden = 64\nheads = 4\nkv_heads = 2\nffn = 172\nvocab = 300\n'
                    '[train]\nbatch = 2\nseq_len = 16\n[data]\nsamples = 100\n')
    spec = job_spec(get_workload(str(toml)), steps=1, max_seconds=1)
    cfg = spec["model"]["config"]
    assert cfg["model_type"] == "llama" and cfg["num_key_value_heads"] == 2 and cfg["vocab_size"] == 300


def test_a_cnn_the_trial_does_not_know_cannot_run_here(tmp_path, capsys):
    toml = tmp_path / "cnn.toml"
    toml.write_text('id = "my-cnn"\ntitle = "x"\nfamily = "vision"\nlevel = 5\n[model]\narch = "cnn"\n'
                    'params = 1e6\nforward_gflops = 1\nactivation_mib = 1\nname = "my own net"\n'
                    '[train]\nbatch = 2\nimage_size = 32\n[data]\nsamples = 100\n')
    with pytest.raises(TrialUnsupported):
        job_spec(get_workload(str(toml)), steps=1, max_seconds=1)
    code, _out, err = _trial(capsys, str(toml), "--python", sys.executable, "--machine", str(CPU_VM))
    assert code == 3 and "no model for 'my own net'" in err and err.count("\n") == 1


def test_bad_input_is_exit_2(capsys):
    code, _out, err = _trial(capsys, "no-such-job", "--machine", str(CPU_VM))
    assert code == 2 and "unknown workload" in err
    code, _out, err = _trial(capsys, "mnist-cnn", "--steps", "0", "--machine", str(CPU_VM))
    assert code == 2 and "--steps" in err
    code, _out, err = _trial(capsys, "gpt2-124m-pretrain", "--seq-len", "4096", "--machine", str(CPU_VM))
    assert code == 2 and "1024 positions" in err
    # the estimate's settings a trial cannot run are refused, not silently dropped
    for flag, value in (("--stack", "unsloth"), ("--zero-stage", "3"), ("--cpu-offload", None)):
        code, _out, err = _trial(capsys, "gpt2-124m-pretrain", flag, *([value] if value else []), "--machine",
                                 str(CPU_VM))
        assert code == 2 and err.startswith(f"gpucheck: {flag}: a trial runs plain PyTorch") and err.count("\n") == 1


def test_the_lora_settings_reach_the_trial():
    """--lora-targets and --lora-dropout are the job's (they were accepted and dropped): the runner's spec has them."""
    from gpucheck.estimate import apply_overrides
    from gpucheck.trial.command import OVERRIDE_KEYS

    args = {"method": "lora", "lora_targets": "all-linear", "lora_dropout": 0.0}
    w = apply_overrides(get_workload("qwen2.5-1.5b-lora"), **{k: args.get(k) for k in OVERRIDE_KEYS})
    spec = job_spec(w, steps=1, max_seconds=1)
    assert (spec["train"]["lora_targets"], spec["train"]["lora_dropout"]) == ("all-linear", 0.0)


# -- cannot run here: exit 3 with one clear line ---------------------------------------------------------


def test_a_python_without_pytorch_says_how_to_install_it(capsys):
    """gpucheck's own environment has no PyTorch (like the packaged app): exit 3 and the pip line,
    with PyTorch's CPU index on a Linux PC without a GPU."""
    code, out, err = _trial(capsys, "mnist-cnn", "--python", sys.executable, "--machine", str(CPU_VM), "--json")
    assert code == 3
    data = json.loads(out)
    assert data["outcome"] == "missing_library" and data["measured"] is None
    assert data["install"] == "pip install --upgrade torch torchvision --index-url https://download.pytorch.org/whl/cpu"
    assert err.startswith("gpucheck: torch is not installed in ") and err.count("\n") == 1


def test_no_python_with_pytorch_anywhere(monkeypatch, tmp_path):
    monkeypatch.setattr("gpucheck.trial.find_pythons", lambda machine=None: [])
    r = run_trial(get_workload("mnist-cnn"), machine=Machine.load(CPU_VM))
    assert r.outcome == "missing_library" and r.exit_code == 3
    assert "No Python with PyTorch was found" in r.message and "--python" in r.message


@POSIX
def test_a_python_that_is_not_a_python(tmp_path, capsys):
    fake = _script(tmp_path, "python3", "echo 'I am not Python'\nexit 0\n")
    code, _out, err = _trial(capsys, "mnist-cnn", "--python", str(fake), "--machine", str(CPU_VM))
    assert code == 3 and "is not a working Python 3" in err
    code, _out, err = _trial(capsys, "mnist-cnn", "--python", str(tmp_path / "missing"), "--machine", str(CPU_VM))
    assert code == 3 and "cannot be started" in err
    text = tmp_path / "notes.txt"
    text.write_text("not a program")
    code, _out, err = _trial(capsys, "mnist-cnn", "--python", str(text), "--machine", str(CPU_VM))
    assert code == 3 and "cannot be started" in err


def test_pip_lines_follow_the_gpu():
    """Source for the index URLs: pytorch.org/get-started/locally (pip, CUDA 12.8, ROCm, CPU). The trial offers
    the same build as the advice (one table: resources/advice.toml [[torch_build]])."""
    def line(fixture, module="torch"):
        return pip_command(module, Machine.load(FIXTURES / "machines" / f"{fixture}.json"))

    def advised(fixture):
        m = Machine.load(FIXTURES / "machines" / f"{fixture}.json")
        m = dataclasses.replace(m, software=dataclasses.replace(m.software, frameworks=()))  # as if torch were missing
        return next(f.command for f in software_fixes(m) if f.id == "torch_missing")

    index = "--index-url https://download.pytorch.org/whl/"
    # driver 550.90 reports CUDA 12.4, and CUDA 12 wheels run on any driver from 525.60 (minor-version
    # compatibility): the cu128 build, not an older one
    assert line("rtx3060-12gb-hdd-desktop") == f"pip install --upgrade torch torchvision {index}cu128"
    assert line("rtx4060-laptop-wsl2", "torchvision") == f"pip install --upgrade torch torchvision {index}cu128"
    assert line("rx7900xt-desktop").startswith(f"pip install --upgrade torch torchvision {index}rocm")  # Radeon, Linux
    assert line("cpu-only-vm", "torchvision") == f"pip install --upgrade torch torchvision {index}cpu"
    assert line("m2max-macbookpro") == "pip install torch torchvision"  # PyPI's macOS wheel has MPS
    assert line("rtx3060-12gb-hdd-desktop", "peft") == "pip install peft"
    assert line("rtx3060-12gb-hdd-desktop") == advised("rtx3060-12gb-hdd-desktop")


# -- finding the user's Python ------------------------------------------------------------------------


@POSIX
def test_finds_the_python_of_a_virtualenv_that_has_torch(tmp_path):
    venv = tmp_path / "proj" / ".venv"
    site = venv / "lib" / "python3.11" / "site-packages"
    (site / "torch").mkdir(parents=True)
    (site / "torch" / "__init__.py").write_text("")
    (venv / "bin").mkdir()
    py = _script(venv / "bin", "python3.11", "exit 0\n")
    env = {"VIRTUAL_ENV": str(venv)}
    assert find_pythons(env=env, system="linux", home=str(tmp_path / "home"))[:1] == [str(py)]
    assert python_for_site_dir(str(site), "linux") == str(py)
    (site / "torch" / "__init__.py").unlink()
    assert str(py) not in find_pythons(env=env, system="linux", home=str(tmp_path / "home"))


# -- the child process: cap, kill, cleanup -----------------------------------------------------------------


def _pids_running(token: str) -> list[int]:
    """Processes whose command line holds `token` (a PID namespace hides their own ids from themselves)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if token.encode() in (entry / "cmdline").read_bytes() and _alive(int(entry.name)):
                    out.append(int(entry.name))
            except OSError:
                pass
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="processes found through /proc")
def test_a_hang_past_the_cap_kills_the_whole_tree_and_removes_the_temp_folder(tmp_path):
    folder_file = tmp_path / "folder"
    _script(tmp_path, "hold.sh", "sleep 300\n")
    fake = _script(tmp_path, "python3", f"sh {tmp_path}/hold.sh &\npwd >> {folder_file}\nsh {tmp_path}/hold.sh\n")
    spec = job_spec(get_workload("mnist-cnn"), steps=1, max_seconds=1)
    t0 = time.monotonic()
    raw = run_child(str(fake), spec, hard_cap_s=2)
    assert raw["outcome"] == "timed_out" and time.monotonic() - t0 < 15
    time.sleep(0.3)
    assert not _pids_running(f"{tmp_path}/hold.sh") and not _pids_running(str(fake))
    assert not Path(folder_file.read_text().strip()).exists()


@POSIX
def test_cancel_stops_the_trial_at_once(tmp_path):
    fake = _script(tmp_path, "python3", "sleep 300\n")
    cancel = threading.Event()
    started = {}
    spec = job_spec(get_workload("mnist-cnn"), steps=1, max_seconds=1)
    threading.Timer(0.5, cancel.set).start()
    raw = run_child(str(fake), spec, hard_cap_s=60, cancel=cancel,
                    on_started=lambda pid, tmp: started.update(pid=pid, tmp=tmp))
    assert raw["reason"] == "cancelled"
    assert not _alive(started["pid"]) and not Path(started["tmp"]).exists()


@POSIX
def test_a_killed_child_is_reported(tmp_path):
    fake = _script(tmp_path, "python3", "sleep 300\n")
    spec = job_spec(get_workload("mnist-cnn"), steps=1, max_seconds=1)

    def kill_soon(pid, _tmp):
        threading.Timer(0.3, os.kill, (pid, signal.SIGKILL)).start()

    raw = run_child(str(fake), spec, hard_cap_s=60, on_started=kill_soon)
    assert raw["outcome"] == "failed" and raw["signal"] == signal.SIGKILL


@POSIX
def test_the_child_runs_offline_in_its_own_temp_folder(tmp_path):
    env_dump = tmp_path / "env.json"
    fake = _script(tmp_path, "python3", f"env > {env_dump}\npwd >> {env_dump}\n")
    run_child(str(fake), job_spec(get_workload("mnist-cnn"), steps=1, max_seconds=1), hard_cap_s=10)
    lines = env_dump.read_text().splitlines()
    env = dict(line.split("=", 1) for line in lines if "=" in line)
    assert env["HF_HUB_OFFLINE"] == "1" and env["TRANSFORMERS_OFFLINE"] == "1"
    cwd = lines[-1]
    assert Path(cwd).name.startswith("gpucheck-trial-")
    for key in ("HF_HOME", "TORCH_HOME", "XDG_CACHE_HOME", "TMPDIR"):
        assert env[key].startswith(cwd), key
    assert not Path(cwd).exists()


@POSIX
def test_a_pytorch_built_for_the_gpu_comes_first(tmp_path):
    """Two Pythons with PyTorch: the one whose torch/version.py says CUDA is tried first on an NVIDIA PC."""
    home = tmp_path / "home"
    pys = {}
    for env_name, cuda in (("zz-cpu-env", "None"), ("aa-cuda-env", "'12.6'")):  # the CPU one is globbed first
        prefix = home / "miniconda3" / "envs" / env_name
        site = prefix / "lib" / "python3.11" / "site-packages"
        (site / "torch").mkdir(parents=True)
        (site / "torch" / "__init__.py").write_text("")
        (site / "torch" / "version.py").write_text(f"__version__ = '2.5.1'\ncuda = {cuda}\n")
        (prefix / "bin").mkdir()
        pys[env_name] = str(_script(prefix / "bin", "python3.11", "exit 0\n"))
    nvidia = Machine.load(FIXTURES / "machines" / "rtx3060-12gb-hdd-desktop.json")
    found = find_pythons(nvidia, env={}, system="linux", home=str(home))
    assert found.index(pys["aa-cuda-env"]) < found.index(pys["zz-cpu-env"])


@POSIX
def test_a_trial_says_when_its_optimizer_ran_the_slow_loop(tmp_path, capsys, monkeypatch):
    """A PyTorch without a fused optimizer step for the device runs its per-tensor loop (PyTorch before 2.4 on a
    CPU): the trial says so beside the figures, and its estimate prices that loop, slower than the fused step (the
    recorded BERT-base trial of the build machine, its answer played by a stand-in Python)."""
    monkeypatch.setenv("GPUCHECK_CALIBRATION_DIR", str(tmp_path / "store"))
    rec = json.loads((FIXTURES / "recorded" / "calibration" / "trials-epyc-zen5-2026-12-01.json").read_text())
    recorded = next(t for t in rec["trials"] if t["workload"] == "bert-base-finetune")["measured"]
    said, estimated = {}, {}
    for impl in ("single", "fused"):
        answer = json.dumps({"event": "result", "outcome": "ran", "protocol": 1,
                             "measured": dict(recorded, optimizer_impl=impl)})
        py = _script(tmp_path, f"python-{impl}", f"read line\necho '{answer}'\n")
        args = ["bert-base-finetune", "--batch", "8", "--seq-len", "128", "--python", str(py), "--machine", str(CPU_VM)]
        code, out, _err = _trial(capsys, *args)
        assert code == 0
        said[impl] = "per-tensor loop" in out
        code, out, _err = _trial(capsys, *args, "--json")
        estimated[impl] = json.loads(out)["estimated"]["step_seconds"]
    assert said == {"single": True, "fused": False}
    assert estimated["single"] > estimated["fused"]
