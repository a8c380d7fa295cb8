"""No data lost: every save goes through gpucheck.fileio, and a save that fails half-way — a full disk,
a rename refused, Ctrl-C, the process killed — leaves the old file exactly as it was and (when the
process lives on to clean up) no temporary file behind. An unwritable or missing folder is BadInput."""

from __future__ import annotations

import ast
import errno
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gpucheck import fileio
from gpucheck.errors import BadInput
from gpucheck.fileio import write_bytes_atomic, write_text_atomic

OLD = "the report saved last week\n"
NEW = "a new report " * 1000


@pytest.fixture
def old_file(tmp_path) -> Path:
    p = tmp_path / "report.json"
    p.write_text(OLD, encoding="utf-8")
    return p


def _leftovers(folder: Path, keep: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p != keep)


def test_a_save_replaces_the_file_and_leaves_nothing_else(old_file):
    write_text_atomic(old_file, NEW)
    assert old_file.read_text(encoding="utf-8") == NEW
    assert _leftovers(old_file.parent, old_file) == []


def test_new_file_gets_normal_permissions_and_old_file_keeps_its_own(tmp_path, old_file):
    umask = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.html"
        write_text_atomic(fresh, "x")
        assert fresh.stat().st_mode & 0o777 == 0o644  # not the 0600 of a temporary file
        os.chmod(old_file, 0o640)
        write_text_atomic(old_file, NEW)
        assert old_file.stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(umask)


@pytest.mark.parametrize("failure", ["replace", "fsync_disk_full", "write_io_error"])
def test_failure_during_save_keeps_the_old_file_and_no_temp(old_file, monkeypatch, failure):
    if failure == "replace":
        def boom(*a, **k):
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        monkeypatch.setattr(fileio.os, "replace", boom)
    elif failure == "fsync_disk_full":
        def boom(*a, **k):
            raise OSError(errno.ENOSPC, "No space left on device")
        monkeypatch.setattr(fileio.os, "fsync", boom)
    else:
        real_fdopen = os.fdopen

        class FailingFile:
            def __init__(self, f):
                self.f = f

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.f.close()

            def write(self, data):
                self.f.write(data[: len(data) // 2])  # half of it reached the disk …
                raise OSError(errno.EIO, "Input/output error")  # … then the device failed

            def __getattr__(self, name):
                return getattr(self.f, name)

        monkeypatch.setattr(fileio.os, "fdopen", lambda fd, mode: FailingFile(real_fdopen(fd, mode)))
    with pytest.raises(BadInput) as e:
        write_text_atomic(old_file, NEW)
    assert str(old_file) in str(e.value) and "\n" not in str(e.value)
    assert old_file.read_text(encoding="utf-8") == OLD
    assert _leftovers(old_file.parent, old_file) == []


def test_disk_full_message_says_why(old_file, monkeypatch):
    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(fileio.os, "fsync", full)
    with pytest.raises(BadInput, match="No space left on device"):
        write_text_atomic(old_file, NEW)


@pytest.mark.parametrize("where", ["fsync", "replace"])
def test_ctrl_c_in_the_middle_of_a_save_keeps_the_old_file_and_no_temp(old_file, monkeypatch, where):
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(fileio.os, where, interrupted)
    with pytest.raises(KeyboardInterrupt):  # the interrupt is not swallowed: the program can stop
        write_text_atomic(old_file, NEW)
    assert old_file.read_text(encoding="utf-8") == OLD
    assert _leftovers(old_file.parent, old_file) == []


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_process_killed_mid_save_keeps_the_old_file(old_file):
    """A real crash: the saving process is killed while writing. Only the old file's content counts."""
    child = textwrap.dedent(f"""
        import os, sys, time
        sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
        from gpucheck import fileio
        real_fsync = os.fsync
        def slow_fsync(fd):
            print("writing", flush=True)
            time.sleep(30)
        fileio.os.fsync = slow_fsync
        fileio.write_bytes_atomic({str(old_file)!r}, b"x" * 5_000_000)
    """)
    proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE)
    try:
        assert proc.stdout.readline().strip() == b"writing"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
    assert old_file.read_text(encoding="utf-8") == OLD
    # what a killed process leaves is a hidden temporary beside it, never a damaged report
    assert all(n.startswith(".report.json.") and n.endswith(".tmp") for n in _leftovers(old_file.parent, old_file))
    assert _leftovers(old_file.parent, old_file)
    write_text_atomic(old_file, NEW)  # the next save cleans up what the killed one left
    assert _leftovers(old_file.parent, old_file) == []


def test_missing_folder_and_folder_as_target_are_bad_input(tmp_path):
    with pytest.raises(BadInput, match="does not exist"):
        write_text_atomic(tmp_path / "no" / "such" / "r.json", "x")
    with pytest.raises(BadInput, match="folder"):
        write_text_atomic(tmp_path, "x")


def test_unwritable_folder_is_bad_input_and_writes_nothing(tmp_path, monkeypatch):
    folder = tmp_path / "locked"
    folder.mkdir()
    target = folder / "r.json"
    if os.geteuid() != 0:
        folder.chmod(0o500)
    else:  # root may write anywhere: refuse the temporary file the way a read-only folder does
        def denied(*a, **k):
            raise PermissionError(errno.EACCES, "Permission denied")
        monkeypatch.setattr(fileio.tempfile, "mkstemp", denied)
    try:
        with pytest.raises(BadInput) as e:
            write_bytes_atomic(target, b"{}")
        assert "permission denied" in str(e.value) and str(target) in str(e.value)
        assert not target.exists()
    finally:
        folder.chmod(0o700)


def test_read_only_file_system_is_bad_input():
    ro = Path("/proc/gpucheck-report.json")
    if not Path("/proc").is_dir():
        pytest.skip("no /proc here")
    with pytest.raises(BadInput) as e:
        write_text_atomic(ro, "x")
    assert str(ro) in str(e.value)


def test_every_file_the_app_writes_goes_through_fileio():
    """Static: in gpucheck/, only fileio.py writes files; appending to a log (mode 'a') is allowed."""
    pkg = Path(__file__).resolve().parents[2] / "gpucheck"
    allowed = {"fileio.py", "logs.py"}
    bad = []
    for path in pkg.rglob("*.py"):
        if path.name in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else "")
            if name in ("write_text", "write_bytes"):
                bad.append(f"{path.name}:{node.lineno} {name}")
            if name == "open":
                modes = [a for a in node.args[1:2]] + [k.value for k in node.keywords if k.arg == "mode"]
                for m in modes:
                    if isinstance(m, ast.Constant) and isinstance(m.value, str) and set(m.value) & set("wx+"):
                        bad.append(f"{path.name}:{node.lineno} open(…, {m.value!r})")
    assert not bad, bad


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_device_or_pipe_is_never_replaced_by_a_file(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(BadInput, match="not a regular file"):
        write_text_atomic(fifo, "x")
    assert stat_is_fifo(fifo) and _leftovers(tmp_path, fifo) == []


def stat_is_fifo(p: Path) -> bool:
    import stat

    return stat.S_ISFIFO(os.lstat(p).st_mode)


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges on Windows")
def test_saving_through_a_link_updates_the_file_and_keeps_the_link(tmp_path):
    real = tmp_path / "synced" / "report.json"
    real.parent.mkdir()
    real.write_text(OLD, encoding="utf-8")
    link = tmp_path / "report.json"
    link.symlink_to(real)
    write_text_atomic(link, NEW)
    assert link.is_symlink() and real.read_text(encoding="utf-8") == NEW
    assert _leftovers(real.parent, real) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown to another user needs root")
def test_a_read_only_file_of_another_user_is_not_replaced(old_file):
    """Before, root replaced another user's 0444 file without a word."""
    os.chown(old_file, 65534, 65534)
    os.chmod(old_file, 0o444)
    with pytest.raises(BadInput, match="read-only"):
        write_text_atomic(old_file, NEW)
    assert old_file.read_text(encoding="utf-8") == OLD
    assert _leftovers(old_file.parent, old_file) == []


def test_stale_temporaries_are_removed_and_others_left_alone(old_file):
    folder = old_file.parent
    dead = folder / ".report.json.999999999.abcd1234.tmp"  # a process that no longer exists
    old_style = folder / ".report.json.abcd1234.tmp"  # no pid, two hours old
    young = folder / ".report.json.efgh5678.tmp"  # no pid, being written now by someone
    alive = folder / f".report.json.{os.getppid()}.ijkl9012.tmp"  # a live process's
    other = folder / ".other.json.999999999.abcd1234.tmp"  # another file's
    for p in (dead, old_style, young, alive, other):
        p.write_text("x")
    os.utime(old_style, (1, 1))
    write_text_atomic(old_file, NEW)
    assert sorted(_leftovers(folder, old_file)) == sorted(p.name for p in (young, alive, other))


def test_the_folder_is_synced_after_the_rename(old_file, monkeypatch):
    import stat as stat_mod
    synced = []
    real = os.fsync

    def fsync(fd):
        synced.append(stat_mod.S_ISDIR(os.fstat(fd).st_mode))
        return real(fd)

    monkeypatch.setattr(fileio.os, "fsync", fsync)
    write_text_atomic(old_file, NEW)
    assert synced == [False, True] or sys.platform == "win32"


def test_a_killed_deep_scans_test_file_is_removed_by_the_next(tmp_path):
    """An interrupted `scan --deep` left a 224–256 MiB hidden file that no later run removed."""
    import time

    from gpucheck.bench.common import Phase
    from gpucheck.bench.disk import TEMP_PREFIX, measure_disk
    left = tmp_path / f"{TEMP_PREFIX}999999999-abcd1234.tmp"
    left.write_bytes(b"x" * 1024)
    mine = tmp_path / f"{TEMP_PREFIX}{os.getpid()}-efgh5678.tmp"  # a test file of a run still going
    mine.write_bytes(b"x")
    measure_disk(Phase("disk", deadline=time.monotonic() + 0.01), tmp_path, file_bytes=0)
    assert not left.exists() and mine.exists()
