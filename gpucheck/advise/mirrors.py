"""Downloads that work from mainland China: pip, PyTorch wheel and Hugging Face mirrors (resources/mirrors.toml).

Pure. Used for region "cn" only: a copy-paste command that downloads gets the mainland way, the same
command elsewhere stays as the projects document it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gpucheck.catalog import read_toml
from gpucheck.errors import BadInput
from gpucheck.i18n import tr
from gpucheck.region import in_mainland
from gpucheck.resources import resource_path

_TABLES = {"pip": ("index_url",), "pytorch": ("find_links", "variants"), "huggingface": ("endpoint", "modelscope_cli")}


@lru_cache(maxsize=1)
def load_mirrors() -> dict[str, Any]:
    """resources/mirrors.toml, checked: each table with its keys, a source and an as_of."""
    path = resource_path("mirrors.toml")
    data = read_toml(path)
    for name, keys in _TABLES.items():
        table = data.get(name)
        if not isinstance(table, dict):
            raise BadInput(f"{path}: missing table [{name}]")
        for key in (*keys, "source", "as_of"):
            if not table.get(key):
                raise BadInput(f"{path}: [{name}] needs '{key}'")
    return data


def pip_torch_command(variant: str | None, official_url: str | None) -> str:
    """`pip install torch torchvision` for this build: in mainland China through the Aliyun wheel mirror
    (when it carries the variant) and the TUNA PyPI mirror; elsewhere from download.pytorch.org."""
    if not in_mainland():
        if variant is None or official_url is None:
            return "pip install torch torchvision"
        return f"pip install --upgrade torch torchvision --index-url {official_url}"
    m = load_mirrors()
    index = f"-i {m['pip']['index_url']}"
    if variant is None:
        return f"pip install torch torchvision {index}"
    if variant in m["pytorch"]["variants"]:
        links = str(m["pytorch"]["find_links"]).format(variant=variant)
        return f"pip install --upgrade torch torchvision -f {links} {index}"
    # no mirror of this build: the official index for torch, the PyPI mirror for its dependencies
    return f"pip install --upgrade torch torchvision --index-url {official_url} --extra-index-url {m['pip']['index_url']}"


def pip_mirror_arg() -> str:
    """' -i <mirror>' to append to a plain `pip install …` in mainland China; '' elsewhere."""
    return f" -i {load_mirrors()['pip']['index_url']}" if in_mainland() else ""


def hf_env_prefix() -> str:
    """'HF_ENDPOINT=https://hf-mirror.com ' before a command that downloads from Hugging Face, in mainland
    China; '' elsewhere."""
    return f"HF_ENDPOINT={load_mirrors()['huggingface']['endpoint']} " if in_mainland() else ""


@dataclass(frozen=True)
class ModelDownload:
    """Where a built-in job's pretrained model is had from mainland China (resources/models/models.toml)."""
    model: str  # the Hugging Face id
    modelscope: str  # the same weights on ModelScope
    gated: bool  # Hugging Face serves it only to accounts that accepted its license
    source: str
    as_of: str


@lru_cache(maxsize=1)
def load_downloads() -> dict[str, ModelDownload]:
    """models.toml [[download]]: the ModelScope id and gating of each built-in job's model, by its HF id."""
    path = resource_path("models", "models.toml")
    out = {}
    for i, raw in enumerate(read_toml(path).get("download", [])):
        where = f"{path}: [[download]] #{i + 1}"
        if not isinstance(raw, dict) or set(raw) != {"model", "modelscope", "gated", "source", "as_of"}:
            raise BadInput(f"{where}: expected exactly the keys model, modelscope, gated, source, as_of")
        if not isinstance(raw["gated"], bool) or not all(isinstance(raw[k], str) and raw[k]
                                                          for k in ("model", "modelscope", "source", "as_of")):
            raise BadInput(f"{where}: model, modelscope, source and as_of are strings, gated is true or false")
        out[raw["model"]] = ModelDownload(raw["model"], raw["modelscope"], raw["gated"], raw["source"],
                                          raw["as_of"])
    return out


def model_download(model: str | None) -> ModelDownload | None:
    return load_downloads().get(model or "")


SHELLS = ("bash", "powershell")


def shell_for(platform: str | None) -> str:
    """The shell a command is written for on the machine it will be pasted on: PowerShell on Windows (the
    default terminal of Windows 10 and 11), bash elsewhere (Linux, WSL, macOS's zsh takes the same forms).
    `platform` is the scanned machine's (linux | windows | darwin | wsl); None: the machine running gpucheck."""
    if platform is None:
        platform = "windows" if sys.platform == "win32" else "linux"
    return "powershell" if platform == "windows" else "bash"


def env_lines(name: str, value: str, shell: str) -> list[str]:
    """Set an environment variable for the commands that follow, in the shell's own form (bash `export`,
    PowerShell `$env:`; cmd's `set` as a comment beside the PowerShell line, for a reader in a cmd window)."""
    if shell == "powershell":
        return [f'$env:{name}="{value}"', "# " + tr("in cmd (Command Prompt) instead: {line}",
                                                    line=f"set {name}={value}")]
    return [f"export {name}={value}"]


def python_env_lines(name: str, value: str) -> list[str]:
    """Set an environment variable from Python before anything reads it: works on every OS and in notebooks."""
    return ["import os", f'os.environ["{name}"] = "{value}"']


def continuation(shell: str) -> str:
    """What ends a line that a command continues on: bash's backslash, PowerShell's backtick."""
    return " `" if shell == "powershell" else " \\"


def with_download_mirrors(snippet: str, shell: str = "bash", python: bool = True, model: str | None = None) -> str:
    """A copy-paste training snippet (it downloads `model` from Hugging Face when run), with the mainland
    way to download first; unchanged outside mainland China or when empty. A Python snippet sets HF_ENDPOINT
    in Python before its first import (huggingface_hub reads it on import), which works on every OS; a
    shell command sets it in `shell`'s own form. The ModelScope line names the model's real ModelScope id
    (models.toml [[download]]) and is left out when none is known; a gated model says so."""
    if not snippet or not in_mainland():
        return snippet
    hf = load_mirrors()["huggingface"]
    dl = model_download(model)
    lines = (["# " + tr("In mainland China, download models through a Hugging Face mirror (set before the first "
                        "import):")] + python_env_lines("HF_ENDPOINT", hf["endpoint"]) if python else
             ["# " + tr("In mainland China, download models through a Hugging Face mirror:")]
             + env_lines("HF_ENDPOINT", hf["endpoint"], shell))
    if dl is not None and dl.gated:
        lines.append("# " + tr("{model} is gated: Hugging Face (and its mirror) serves it only to an account whose "
                               "access request was approved; pass your token (huggingface-cli login) or use "
                               "ModelScope", model=dl.model))
    if dl is not None:
        lines += ["# " + tr("or download the same model from ModelScope and load it from that folder:"),
                  "#   " + str(hf["modelscope_cli"]).format(model=dl.modelscope) + f" --local_dir ./{dl.modelscope}"]
    lines.append("# " + tr("pip packages from a domestic mirror: pip install <package> -i {url}",
                           url=load_mirrors()["pip"]["index_url"]))
    return "\n".join(lines) + "\n" + snippet
