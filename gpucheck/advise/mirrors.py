"""Downloads that work from mainland China: pip, PyTorch wheel and Hugging Face mirrors (resources/mirrors.toml).

Pure. Used for region "cn" only: a copy-paste command that downloads gets the mainland way, the same
command elsewhere stays as the projects document it.
"""

from __future__ import annotations

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


def with_download_mirrors(snippet: str) -> str:
    """A copy-paste training snippet (it downloads the model from Hugging Face when run), with the mainland
    way to download first as comments; unchanged outside mainland China or when empty."""
    if not snippet or not in_mainland():
        return snippet
    hf = load_mirrors()["huggingface"]
    lines = [
        "# " + tr("In mainland China, download models through a Hugging Face mirror:"),
        f"#   export HF_ENDPOINT={hf['endpoint']}",
        "# " + tr("or download the same model from ModelScope and load it from that folder:"),
        "#   " + str(hf["modelscope_cli"]).format(model="<model-id>"),
        "# " + tr("pip packages from a domestic mirror: pip install <package> -i {url}",
                  url=load_mirrors()["pip"]["index_url"]),
    ]
    return "\n".join(lines) + "\n" + snippet
