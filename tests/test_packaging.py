"""Installers, proven for real on Linux: the wheel carries resources/, and the .deb built from a clean
copy of the tree installs with apt, runs `gpucheck scan --json`, opens its window, and uninstalls cleanly.

Slow (the .deb test freezes the whole app, ~1 minute on 2 cores), but .ci/run runs it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


_NOT_IN_A_CLONE = (".git", ".venv", "build", "dist", "__pycache__", "*.egg-info", ".pytest_cache", ".ruff_cache",
                   ".hypothesis", "out")


def _clean_copy(dest: Path) -> Path:
    """The tree as a fresh clone would have it: tracked files plus new files git does not ignore."""
    # safe.directory: the test may run as root (sudo) in a checkout owned by another user
    listed = subprocess.run(["git", "-c", f"safe.directory={ROOT}", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=ROOT, capture_output=True)
    if listed.returncode != 0 or not listed.stdout:  # not a git checkout (e.g. an exported tree)
        shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(*_NOT_IN_A_CLONE))
        return dest
    for rel in filter(None, listed.stdout.decode().split("\0")):
        src = ROOT / rel
        if not src.is_file():  # deleted in the working tree but still in the index
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest / rel)
    return dest


def _resource_files() -> list[str]:
    return sorted(p.relative_to(ROOT / "resources").as_posix()
                  for p in (ROOT / "resources").rglob("*") if p.is_file() and "__pycache__" not in p.parts)


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    return _clean_copy(tmp_path_factory.mktemp("clone") / "gpucheck")


def test_wheel_ships_resources_and_the_installed_package_finds_them(tree, tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(tree)],
                   check=True, timeout=300)
    (whl,) = wheels.glob("gpucheck-*.whl")
    names = set(zipfile.ZipFile(whl).namelist())
    expected = {f"gpucheck/_resources/{f}" for f in _resource_files()}
    assert "gpucheck/_resources/workloads" not in names  # files, not a stray folder entry
    assert expected <= names, f"missing from the wheel: {sorted(expected - names)[:10]}"
    if (ROOT / "resources" / "gpus.toml").is_file():
        assert "gpucheck/_resources/gpus.toml" in names

    # Installed (not editable, no source tree next to it), the one locator finds the wheel's copy.
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(whl)],
                   check=True, timeout=300)
    probe = ("import gpucheck.resources as c, json; r = c.resource_root(); "
             "print(json.dumps([str(r), sorted(p.relative_to(r).as_posix() for p in r.rglob('*') if p.is_file())]))")
    found = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(target)})
    assert found.returncode == 0, found.stderr[-2000:]
    root, files = json.loads(found.stdout)
    assert Path(root) == target / "gpucheck" / "_resources"
    assert files == _resource_files()


def _as_root() -> list[str] | None:
    """How to run apt-get as root: directly, through password-less sudo, or not at all (None)."""
    if os.geteuid() == 0:
        return []
    if shutil.which("sudo") and subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode == 0:
        return ["sudo", "-n", "-E"]
    return None


def _no_root_or_apt() -> str | None:
    if not sys.platform.startswith("linux"):
        return "the .deb is built and installed on Linux only"
    for tool in ("apt-get", "dpkg-deb", "ldd", "objdump"):
        if shutil.which(tool) is None:
            return f"{tool} is not available"
    if _as_root() is None:
        return "installing a .deb needs root (or password-less sudo)"
    return None


def _run(cmd, **kw) -> subprocess.CompletedProcess:
    kw.setdefault("capture_output", True)
    kw.setdefault("text", True)
    kw.setdefault("timeout", 600)
    return subprocess.run(cmd, **kw)


@pytest.mark.skipif(_no_root_or_apt() is not None, reason=_no_root_or_apt() or "")
def test_deb_builds_installs_runs_and_uninstalls(tree):
    if _run(["dpkg-query", "-W", "-f=${Status}", "gpucheck"]).stdout.startswith("install ok"):
        pytest.skip("a gpucheck package is already installed on this machine; not touching it")
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env["PYTHON"] = sys.executable
    env["DEB_COMPRESSION"] = "zstd"  # same contents as the release's xz .deb, built in seconds instead of a minute

    t0 = time.monotonic()
    build = _run(["bash", "packaging/linux/build-deb.sh"], cwd=tree, env=env)
    build_s = time.monotonic() - t0
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    (deb,) = (tree / "dist").glob("gpucheck_*.deb")
    assert list((tree / "dist").glob("gpucheck-*-linux-*.tar.gz"))

    info = _run(["dpkg-deb", "--field", str(deb), "Depends", "Installed-Size"], check=True).stdout
    installed_kib = int(re.search(r"Installed-Size:\s*(\d+)", info).group(1))
    for lib in ("libxcb-cursor0", "libxkbcommon-x11-0", "libfontconfig1", "libdbus-1-3"):
        assert lib in info, f"Depends lacks {lib}: {info}"
    print(f"\n.deb built in {build_s:.0f} s: {deb.stat().st_size / 2**20:.1f} MiB, "
          f"installed {installed_kib / 1024:.0f} MiB")
    assert installed_kib < 150 * 1024, "the installed app should stay under 150 MiB"

    apt_env = {**env, "DEBIAN_FRONTEND": "noninteractive"}
    apt = [*_as_root(), "apt-get", "-o", "DPkg::Lock::Timeout=300", "-y"]  # waits if another apt/dpkg runs
    inst = _run([*apt, "install", "--no-install-recommends", f"./{deb.name}"], cwd=deb.parent, env=apt_env)
    assert inst.returncode == 0, inst.stdout[-2000:] + inst.stderr[-2000:]
    try:
        launcher = Path("/usr/bin/gpucheck")
        assert launcher.exists() and os.access(launcher, os.X_OK)
        assert Path("/usr/share/applications/gpucheck.desktop").is_file()
        assert Path("/usr/share/icons/hicolor/256x256/apps/gpucheck.png").is_file()
        assert Path("/usr/share/icons/hicolor/scalable/apps/gpucheck.svg").is_file()

        home = tree.parent / "home"  # the installed app writes logs and settings here, not in the real home
        home.mkdir(exist_ok=True)
        run_env = {**env, "HOME": str(home), "XDG_STATE_HOME": str(home / "state"),
                   "XDG_CONFIG_HOME": str(home / "config"), "GPUCHECK_LANG": "en"}
        for k in ("DISPLAY", "WAYLAND_DISPLAY", "PYTHONPATH", "VIRTUAL_ENV"):
            run_env.pop(k, None)

        version = _run([str(launcher), "--version"], env=run_env, cwd=home)
        assert version.returncode == 0 and "gpucheck" in version.stdout + version.stderr

        scan = _run([str(launcher), "scan", "--json"], env=run_env, cwd=home, timeout=120)
        assert scan.returncode == 0, scan.stderr[-2000:]
        machine = json.loads(scan.stdout)
        for key in ("schema_version", "gpus", "cpu", "memory", "disks", "findings"):
            assert key in machine, f"scan --json lacks {key!r}"
        assert machine["memory"]["total_bytes"] > 0
        assert machine["cpu"]["logical_cores"] >= 1

        # The frozen app reads its catalogs through the same locator: every built-in workload is listed.
        workloads = _run([str(launcher), "workloads", "--json"], env=run_env, cwd=home)
        assert workloads.returncode == 0, workloads.stderr[-2000:]
        shipped = {re.search(r'^id\s*=\s*"([^"]+)"', p.read_text(encoding="utf-8"), re.M).group(1)
                   for p in (ROOT / "resources" / "workloads").glob("*.toml")}
        assert shipped and shipped <= {w["id"] for w in json.loads(workloads.stdout)}

        # A PDF report in Chinese: Qt's PDF writer and the bundled CJK font work in the installed app.
        fixture = ROOT / "tests" / "fixtures" / "machines" / "rtx2060super-windows.json"
        if fixture.is_file():
            pdf = home / "report.pdf"
            rep = _run([str(launcher), "report", str(pdf), "--machine", str(fixture), "--lang", "zh_CN"],
                       env=run_env, cwd=home, timeout=120)
            assert rep.returncode == 0, rep.stderr[-2000:]
            assert pdf.read_bytes()[:5] == b"%PDF-" and pdf.stat().st_size > 10_000
            if shutil.which("pdftotext"):
                text = _run(["pdftotext", str(pdf), "-"], check=True).stdout
                assert re.search(r"[\u4e00-\u9fff]", text), "the PDF has no Chinese text"

        # The desktop app opens its window and closes: on a real X server when Xvfb is there.
        smoke_env = {**run_env, "GPUCHECK_SMOKE_TEST": "1"}
        if shutil.which("xvfb-run"):
            gui_cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", str(launcher)]
        else:
            gui_cmd = [str(launcher)]
            smoke_env["QT_QPA_PLATFORM"] = "offscreen"
        gui = _run(gui_cmd, env=smoke_env, cwd=home, timeout=120)
        assert gui.returncode == 0, gui.stdout[-2000:] + gui.stderr[-2000:]
        assert "smoke-test: window shown: " in gui.stdout and "— gpucheck" in gui.stdout
    finally:
        rm = _run([*apt, "remove", "gpucheck"], env=apt_env)
    assert rm.returncode == 0, rm.stderr[-2000:]
    assert not _run(["dpkg-query", "-W", "-f=${Status}", "gpucheck"]).stdout.startswith("install ok")
    for gone in ("/usr/bin/gpucheck", "/usr/lib/gpucheck", "/usr/share/applications/gpucheck.desktop",
                 "/usr/share/icons/hicolor/256x256/apps/gpucheck.png"):
        assert not os.path.lexists(gone), f"{gone} is left behind after apt-get remove"
