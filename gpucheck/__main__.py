"""Entry point. No command → the desktop app; a command (scan, check, …) → the CLI.

On a machine with no display, running with no command prints the scan and the verdicts instead.
"""

from __future__ import annotations

import multiprocessing
import os
import sys

from gpucheck.cli import COMMANDS


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
        from gpucheck.ui.smoke import run_smoke_test

        return run_smoke_test(machine_file=opts.get("machine"), lang=opts.get("lang"))
    from gpucheck.ui.app import run_app

    return run_app(machine_file=opts.get("machine"), lang=opts.get("lang"))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    from gpucheck.cli import main as cli_main

    if argv and argv[0] in COMMANDS or any(a in ("-h", "--help", "--version") for a in argv[:1]):
        return cli_main(argv)
    opts = _gui_args(argv)
    if opts is None:
        return cli_main(argv)
    if not has_display():
        from gpucheck.cli import run_guarded
        from gpucheck.commands import run_headless_summary

        return run_guarded(run_headless_summary, machine_file=opts.get("machine"), lang=opts.get("lang"))
    return gui_main(argv)


if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())
