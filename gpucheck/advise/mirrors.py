"""Downloads that work from mainland China: pip, PyTorch wheel and Hugging Face mirrors (resources/mirrors.toml).

Pure. Used for region "cn" only: a copy-paste command that downloads gets the mainland way, the same
command elsewhere stays as the projects document it.
"""

from __future__ import annotations

import sys
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


def with_download_mirrors(snippet: str, shell: str = "bash", python: bool = True, model_id: str | None = None) -> str:
    """A copy-paste training snippet (it downloads the model from Hugging Face when run), with the mainland
    way to download first; unchanged outside mainland China or when empty. A Python snippet sets HF_ENDPOINT
    in Python before its first import (huggingface_hub reads it on import), which works on every OS; a
    shell command sets it in `shell`'s own form."""
    if not snippet or not in_mainland():
        return snippet
    hf = load_mirrors()["huggingface"]
    model = model_id or tr("<model-id>")
    first = (["# " + tr("In mainland China, download models through a Hugging Face mirror (set before the first "
                        "import):")] + python_env_lines("HF_ENDPOINT", hf["endpoint"]) if python else
             ["# " + tr("In mainland China, download models through a Hugging Face mirror:")]
             + env_lines("HF_ENDPOINT", hf["endpoint"], shell))
    lines = first + [
        "# " + tr("or download the same model from ModelScope and load it from that folder:"),
        "#   " + str(hf["modelscope_cli"]).format(model=model),
        "# " + tr("pip packages from a domestic mirror: pip install <package> -i {url}",
                  url=load_mirrors()["pip"]["index_url"]),
    ]
    return "\n".join(lines) + "\n" + snippet
