"""Entry point. No command → the desktop app; a command (scan, check, …) → the CLI.

On a machine with no display, running with no command prints the scan and the verdicts instead.
"""

from __future__ import annotations

import os
import sys

from gpucheck.lazy import lazy_import

# The desktop app and the CLI load each other's modules never: only the path taken is imported
# (the app's window must appear fast, see gpucheck/lazy.py; the CLI must not need Qt).
cli = lazy_import("gpucheck.cli")
commands = lazy_import("gpucheck.commands")
ui_app = lazy_import("gpucheck.ui.app")
smoke = lazy_import("gpucheck.ui.smoke")


def has_display() -> bool:
    if os.environ.get("QT_QPA_PLATFORM"):
        return True
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def _gui_args(argv: list[str]) -> dict | None:
    """Options the desktop app takes: --machine FILE, --lang L. None if argv is for the CLI."""
    opts: dict = {}
    it = iter(argv)
    for a in it:
        if a in ("--machine", "--lang"):
            val = next(it, None)
            if val is None:
                return None
            opts[a[2:]] = val
        elif a.startswith("--machine=") or a.startswith("--lang="):
            k, v = a[2:].split("=", 1)
            opts[k] = v
        else:
            return None
    return opts


def gui_main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    opts = _gui_args(argv) or {}
    if os.environ.get("GPUCHECK_SMOKE_TEST", "") not in ("", "0"):
        # Installers' smoke test: open the real app, quit ~1 s after its window is shown.
        return smoke.run_smoke_test(machine_file=opts.get("machine"), lang=opts.get("lang"))
    return ui_app.run_app(machine_file=opts.get("machine"), lang=opts.get("lang"))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    opts = _gui_args(argv)  # None for a command (scan, check, …), --help, --version or anything else
    if opts is None:
        return cli.main(argv)
    if not has_display():
        return cli.run_guarded(commands.run_headless_summary, machine_file=opts.get("machine"),
                               lang=opts.get("lang"))
    return gui_main(argv)


if __name__ == "__main__":
    # No multiprocessing.freeze_support() here: it only matters in a frozen app, whose entry point
    # (packaging/entry.py) calls it first.
    sys.exit(main())
