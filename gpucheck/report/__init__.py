"""Reports: the PDF a user keeps or sends, plus HTML and JSON — all from one report model.

Python API (the desktop app's Report page and the command line both use it)::

    from gpucheck.report import build_report, write_report, report_format

    model = build_report(machine,                 # gpucheck.machine.Machine (scanned or loaded)
                         workload_ids=None,       # jobs to detail; None = every built-in job
                         lang="zh_CN",            # "en" | "zh_CN"; None = the current language
                         include_ids=False,       # True keeps host name and GPU UUIDs
                         paper=None,              # "a4" | "letter"; None = by locale (Letter for en_US …)
                         evaluations=None)        # pass Evaluation(workload, estimate, advice) records
                                                  # you already have, else they are computed
    path = write_report(model, "report.pdf")      # .pdf | .html | .htm | .json, chosen by extension

    report_format(path) -> "pdf" | "html" | "json"   # raises BadInput for any other extension

Errors a user can cause — an unknown extension, a missing or unwritable folder, a full disk — raise
`gpucheck.errors.BadInput` with a one-line reason. Files are written atomically (temporary file beside
the target, then rename): a failed write leaves no half-written file and keeps any old file intact.

`build_report` is pure (no Qt, no file I/O). Only `.pdf` needs Qt (PySide6, in gpucheck.report.pdf);
the app passes its own QApplication, the command line gets an off-screen one.

Privacy: unless `include_ids` is set, the report's machine has no host name, GPU UUIDs, serial
numbers or user names in paths (see gpucheck.report.privacy).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from gpucheck.errors import BadInput
from gpucheck.fileio import write_bytes_atomic
from gpucheck.i18n import tr
from gpucheck.lazy import lazy_import

# Qt (for the PDF) loads only when a PDF is written: the command line and the app start without it
# (gpucheck/lazy.py).
pdf = lazy_import("gpucheck.report.pdf")
# The writers and the report model (which loads the estimator and the advice) load when a report is built,
# so that `gpucheck scan` can use the privacy policy (gpucheck.report.privacy) without them.
html = lazy_import("gpucheck.report.html")
json_report = lazy_import("gpucheck.report.json")
model_mod = lazy_import("gpucheck.report.build")


def build_report(machine: Any, *args: Any, **kwargs: Any) -> Any:
    """The report model: gpucheck.report.build.build_report (its arguments are listed above)."""
    return model_mod.build_report(machine, *args, **kwargs)


FORMATS = {".pdf": "pdf", ".html": "html", ".htm": "html", ".json": "json"}


def report_format(path: str | Path) -> str:
    suffix = Path(path).suffix.lower()
    fmt = FORMATS.get(suffix)
    if fmt is None:
        raise BadInput(tr("{path}: unknown report type '{ext}' (use .pdf, .html or .json)",
                          path=path, ext=suffix or tr("no extension")))
    return fmt


def check_writable(path: str | Path) -> Path:
    """Fail early, before the work of building a report, when the file cannot be written."""
    p = Path(path)
    report_format(p)
    folder = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise BadInput(tr("{path}: is a folder; give a file name", path=p))
    if not folder.is_dir():
        raise BadInput(tr("{path}: the folder {folder} does not exist", path=p, folder=folder))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise BadInput(tr("{path}: cannot write to folder {folder} (permission denied)", path=p, folder=folder))
    try:  # the real test (read-only disks, ACLs, administrators): make and drop a temporary file there
        with tempfile.TemporaryFile(dir=folder, prefix=".gpucheck-"):
            pass
    except PermissionError:
        raise BadInput(tr("{path}: cannot write to folder {folder} (permission denied)", path=p,
                          folder=folder)) from None
    except OSError as e:
        raise BadInput(tr("{path}: cannot write to folder {folder} ({reason})", path=p, folder=folder,
                          reason=e.strerror or e)) from None
    return p


def render_report(model: Any, fmt: str) -> bytes:
    if fmt == "json":
        return json_report.render_json(model).encode("utf-8")
    if fmt == "html":
        return html.render_html(model).encode("utf-8")
    if fmt == "pdf":
        return pdf.render_pdf(model)
    raise BadInput(tr("unknown report type '{ext}' (use .pdf, .html or .json)", ext=fmt))


def write_report(model: Any, path: str | Path) -> Path:
    """Render `model` in the format the extension names and write it atomically. Returns the path."""
    p = check_writable(path)
    data = render_report(model, report_format(p))
    write_bytes_atomic(p, data)
    return p


__all__ = [
    "build_report", "write_report", "render_report", "report_format", "check_writable", "FORMATS",
]
