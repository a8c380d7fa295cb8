"""How the count and measurement scripts write their results: how they counted, the software they ran on, the runs."""

from __future__ import annotations

import json
import sys


def write_counts(path: str, module_doc: str, runs, **extra) -> None:
    """Write a script's result as indented JSON: its docstring after the usage lines, Python's and torch's versions,
    `extra` (other libraries' versions, the machine, settings) and the runs."""
    import torch

    doc = {"how": module_doc.split("\n\n", 2)[2].strip(), "python": sys.version.split()[0], "torch": torch.__version__,
           **extra, "runs": runs}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
