"""The CLI commands a user types: check, estimate, gpus, workloads (and the headless summary)."""

from __future__ import annotations

import json

import pytest

from gpucheck.cli import main
from tests.conftest import FIXTURES

MACHINES = FIXTURES / "machines"


def run(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_estimate_json_carries_the_design_keys(capsys):
    rc, out, err = run(capsys, "estimate", "llama3-8b-qlora", "--gpu", "4090", "--json")
    assert rc == 0, err
    d = json.loads(out)
    for key in ("workload", "gpu", "gpus", "fits", "verdict", "peak_vram_gib", "vram_breakdown_gib", "ram_gib",
                "disk_gib", "samples_per_second", "total_hours", "tweaks"):
        assert key in d
    assert d["workload"] == "llama3-8b-qlora" and d["gpu"] == "NVIDIA GeForce RTX 4090" and d["gpus"] == 1
    assert d["fits"] is True and 10 < d["peak_vram_gib"] < 20


def test_estimate_overrides_change_the_numbers(capsys):
    _, base, _ = run(capsys, "estimate", "llama3-8b-qlora", "--gpu", "4090", "--json")
    _, big, _ = run(capsys, "estimate", "llama3-8b-qlora", "--gpu", "4090", "--json", "--batch", "8",
                    "--no-grad-checkpointing", "--seq-len", "4096")
    b, g = json.loads(base), json.loads(big)
    assert g["vram_breakdown_gib"]["activations"] > 10 * b["vram_breakdown_gib"]["activations"]
    assert g["verdict_as_configured"] == "does_not_fit" and g["fits"] is False
    assert g["train"]["batch"] == 8 and g["train"]["grad_checkpointing"] is False


def test_estimate_readable_output(capsys):
    rc, out, _ = run(capsys, "estimate", "sd15-lora", "--gpu", "rtx 3060 12gb")
    assert rc == 0
    for word in ("Weights", "Activations", "Peak VRAM per GPU", "Whole run", "Verdict: Runs"):
        assert word in out


def test_estimate_on_a_recorded_machine(capsys):
    rc, out, _ = run(capsys, "estimate", "llama3-8b-qlora", "--machine", str(MACHINES / "m1-macbookair.json"),
                     "--json")
    d = json.loads(out)
    assert rc == 0 and d["verdict_as_configured"] == "not_supported" and d["gpu"] == "Apple M1"
    assert d["reason"] == "qlora_backend"


def test_estimate_hf_config(capsys):
    rc, out, _ = run(capsys, "estimate", str(FIXTURES / "hf" / "qwen2.5-7b" / "config.json"), "--gpu", "a100 80gb",
                     "--method", "lora", "--json")
    d = json.loads(out)
    assert rc == 0 and d["workload"] == "qwen2.5-7b" and d["train"]["method"] == "lora"


def test_check_all_builtins_on_a_catalog_gpu(capsys):
    rc, out, _ = run(capsys, "check", "--gpu", "rtx 3060 12gb", "--json")
    d = json.loads(out)
    assert rc == 0 and len(d["estimates"]) == 18
    verdicts = {e["workload"]: e["verdict_as_configured"] for e in d["estimates"]}
    assert verdicts["mnist-cnn"] == "runs" and verdicts["llama3-70b-qlora"] == "does_not_fit"


def test_check_table_on_an_eight_gpu_server(capsys):
    rc, out, _ = run(capsys, "check", "--machine", str(MACHINES / "h100x8-server.json"), "llama3-70b-qlora",
                     "mnist-cnn")
    assert rc == 0
    assert "8× NVIDIA H100" in out and "llama3-70b-qlora" in out and "Runs" in out


def test_gpus_and_workloads(capsys):
    rc, out, _ = run(capsys, "gpus", "--json")
    assert rc == 0 and len(json.loads(out)) >= 45
    rc, out, _ = run(capsys, "gpus")
    assert "NVIDIA GeForce RTX 4090" in out and "$1,599" in out
    rc, out, _ = run(capsys, "workloads", "--json")
    assert [w["id"] for w in json.loads(out)][0] == "mnist-cnn"
    rc, out, _ = run(capsys, "workloads", "--lang", "zh_CN")
    assert rc == 0 and "llama3-8b-qlora" in out


@pytest.mark.parametrize("argv, needle", [
    (("estimate", "no-such-job", "--gpu", "4090"), "unknown workload"),
    (("estimate", "mnist-cnn", "--gpu", "RTX 4099"), "did you mean"),
    (("estimate", "mnist-cnn", "--gpu", "4090", "--batch", "0"), "--batch"),
    (("estimate", "mnist-cnn", "--gpu", "4090", "--gpus", "0"), "--gpus"),
    (("check", "--machine", "/nonexistent/scan.json"), "file not found"),
])
def test_bad_input_is_exit_2_with_one_line(capsys, argv, needle):
    rc, out, err = run(capsys, *argv)
    assert rc == 2
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_workload_file_names_file_and_key(capsys, tmp_path):
    p = tmp_path / "job.toml"
    p.write_text('id = "x"\ntitle = "x"\nfamily = "llm"\nlevel = 1\n[model]\narch = "transformer"\n'
                 'params = -5\nlayers = 2\nhidden = 64\nheads = 2\n[data]\nsamples = 10\n', encoding="utf-8")
    rc, _, err = run(capsys, "estimate", str(p), "--gpu", "4090")
    assert rc == 2 and str(p) in err and "model.params" in err


def test_headless_summary_prints_the_verdict_table(capsys):
    from gpucheck.commands import run_headless_summary

    rc = run_headless_summary(str(MACHINES / "rtx3060-12gb-hdd-desktop.json"), "en")
    out = capsys.readouterr().out
    assert rc == 0 and "RTX 3060" in out and "qwen2.5-7b-qlora" in out
