"""The Windows setup, proven as far as Linux allows: packaging/windows/check-installer.sh compiles
packaging/windows/gpucheck.iss with Inno Setup's own compiler (ISCC.exe 6.4.1) under Wine, installs it
silently in Chinese, checks the installed files, the Start-menu shortcut and the "Apps & features"
uninstall entry, uninstalls it and checks that nothing is left (see packaging/windows/README.md).

Slow (about a minute on 2 cores, most of it creating a Wine prefix). Needs wine (wine64 + wine32),
xvfb-run and, the first time, npm: `bash scripts/system-deps.sh test` installs them; without them the
script exits 2 and the test is skipped with its reason.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "packaging" / "windows" / "check-installer.sh"
pytestmark = pytest.mark.slow


def test_windows_setup_installs_and_uninstalls_cleanly_under_wine():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["PYTHON"] = sys.executable  # draws the setup's icon with this environment's PySide6
    done = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    out = done.stdout + done.stderr
    if done.returncode == 2:
        pytest.skip(out.strip().splitlines()[-1] if out.strip() else "check-installer.sh cannot run here")
    assert done.returncode == 0, out[-4000:]
    summary = [line for line in done.stdout.splitlines() if line.startswith("check-installer: ")]
    assert len(summary) == 1, done.stdout
    line = summary[0]
    print("\n" + line)
    assert line.startswith("check-installer: OK: gpucheck-setup-")
    for what in ("silent install (zh_CN)", "Start-menu shortcut", "uninstall entry", "nothing left"):
        assert what in line, line
