"""A user who points gpucheck at a downloaded diffusion checkpoint (a diffusers folder, its model_index.json or a
model's config.json) is told what it is and which built-in job prices it, in their language, and the command the
message suggests runs. Before, every such file ended in "missing key 'model_type'"."""

from __future__ import annotations

import re
import shutil

import pytest

from gpucheck.cli import main
from tests.conftest import FIXTURES

HF = FIXTURES / "hf"


def _err(capsys, *argv):
    rc = main(list(argv))
    return rc, capsys.readouterr().err


def _suggested_command(err: str) -> list[str]:
    m = re.search(r"'gpucheck (estimate [^']+)'|“gpucheck (estimate [^”]+)”", err)
    assert m, err
    return (m.group(1) or m.group(2)).split()


@pytest.mark.parametrize("path, job", [
    ("stable-diffusion-xl-base-1.0/model_index.json", "sdxl-lora"),
    ("stable-diffusion-v1-5/unet/config.json", "sd15-lora"),
])
def test_a_stable_diffusion_config_names_the_builtin_job_and_its_command_runs(capsys, path, job):
    rc, err = _err(capsys, "estimate", str(HF / path), "--gpu", "rtx 3060 12gb", "--lang", "en")
    assert rc == 2 and "model_type" not in err and job in err
    cmd = _suggested_command(err)
    assert cmd[1] == job
    rc, _ = _err(capsys, *cmd, "--gpu", "rtx 3060 12gb", "--lang", "en")
    assert rc == 0


def test_a_flux_folder_is_named_a_diffusion_transformer_not_a_missing_key(capsys, tmp_path):
    folder = tmp_path / "FLUX.1-dev"
    shutil.copytree(HF / "flux.1-dev", folder)  # the folder as downloaded: model_index.json, transformer/ …
    rc, err = _err(capsys, "estimate", str(folder), "--gpu", "4090", "--lang", "en")
    assert rc == 2 and "FluxPipeline" in err and "not modelled yet" in err and "lower bound" in err
    rc, err = _err(capsys, "estimate", str(folder / "transformer" / "config.json"), "--gpu", "4090", "--lang", "en")
    assert rc == 2 and "FluxTransformer2DModel" in err and "not modelled yet" in err


def test_the_message_is_in_chinese_under_zh_cn(capsys):
    rc, err = _err(capsys, "estimate", str(HF / "flux.1-dev" / "model_index.json"), "--gpu", "4090",
                   "--lang", "zh_CN")
    assert rc == 2 and "暂不支持" in err and "not modelled" not in err
    rc, err = _err(capsys, "estimate", str(HF / "stable-diffusion-xl-base-1.0" / "model_index.json"),
                   "--lang", "zh_CN")
    assert rc == 2 and "sdxl-lora" in err and "内置任务" in err
    rc, _ = _err(capsys, *_suggested_command(err), "--gpu", "4090", "--lang", "zh_CN")
    assert rc == 0


def test_a_transformers_config_is_still_read_as_a_model(capsys):
    rc, _ = _err(capsys, "estimate", str(HF / "gpt2" / "config.json"), "--gpu", "4090", "--json")
    assert rc == 0
