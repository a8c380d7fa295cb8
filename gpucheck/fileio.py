"""Atomic file writing: write to a temporary file beside the target, fsync, rename.

A crash or a full disk during the write leaves the old file as it was; never a half-written one.
Reading a file the user named (`read_bytes_limited`) stops at a size limit, so a wrong path such as
/dev/zero or a multi-gigabyte file is one clear error instead of a hang that fills memory.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
import tempfile
import time
from pathlib import Path

import psutil

from gpucheck.errors import BadInput
from gpucheck.i18n import tr


def write_bytes_atomic(path: Path, data: bytes) -> None:
    path = Path(path)
    if path.is_symlink():  # write the file the link points to, and keep the link
        path = Path(os.path.realpath(path))
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise BadInput(tr("{path}: is a folder; give a file name", path=path))
    if path.exists() and not path.is_file():  # a device or a pipe must not be replaced by a file
        raise BadInput(tr("{path}: not a regular file; give a file name", path=path))
    if not folder.is_dir():
        raise BadInput(tr("{path}: the folder {folder} does not exist", path=path, folder=folder))
    _refuse_read_only(path)
    clean_stale_temps(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=TEMP_SUFFIX, dir=folder)
    except PermissionError:
        raise BadInput(tr("{path}: cannot write to folder {folder} (permission denied)",
                          path=path, folder=folder)) from None
    except OSError as e:
        raise BadInput(tr("{path}: cannot write ({reason})", path=path, reason=e.strerror or e)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if path.exists():
            try:
                os.chmod(tmp, path.stat().st_mode & 0o777)
            except OSError:
                pass
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
        _fsync_folder(folder)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, PermissionError):
            raise BadInput(tr("{path}: permission denied", path=path)) from None
        raise BadInput(tr("{path}: cannot write ({reason})", path=path, reason=e.strerror or e)) from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


TEMP_SUFFIX = ".tmp"
STALE_TEMP_S = 3600.0  # a temporary of an unknown or an old-style name is stale after an hour


def _refuse_read_only(path: Path) -> None:
    """A read-only file is not replaced: one we may not write (os.access), or one with no write permission
    at all that belongs to another user (which root could otherwise replace without a word)."""
    try:
        st = path.stat()
    except OSError:
        return
    not_ours = hasattr(os, "geteuid") and st.st_uid != os.geteuid()
    if not os.access(path, os.W_OK) or (not_ours and not st.st_mode & 0o222):
        raise BadInput(tr("{path}: the file is read-only; give another name or make it writable",
                          path=shorten(str(path))))


def clean_stale_files(folder: Path, prefix: str, sep: str = ".", suffix: str = TEMP_SUFFIX) -> list[str]:
    """Remove temporary files "<prefix><pid><sep><8 random chars><suffix>" in `folder` whose process is gone,
    and old-style ones "<prefix><8 random chars><suffix>" older than an hour (what a killed save or benchmark
    left behind). Other names are never touched. Returns the names removed."""
    pattern = re.compile(rf"{re.escape(prefix)}(?:(\d+){re.escape(sep)})?[a-z0-9_]{{8}}{re.escape(suffix)}")
    removed: list[str] = []
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(suffix)]
    except OSError:
        return removed
    for name in names:
        m = pattern.fullmatch(name)
        if not m:
            continue
        full = Path(folder) / name
        try:
            st = full.lstat()
            if not stat.S_ISREG(st.st_mode):
                continue
            if m.group(1) is not None:
                pid = int(m.group(1))
                stale = pid != os.getpid() and not psutil.pid_exists(pid)
            else:
                stale = time.time() - st.st_mtime > STALE_TEMP_S
            if stale:
                full.unlink()
                removed.append(name)
        except OSError:
            continue
    return removed


def clean_stale_temps(path: Path) -> list[str]:
    """Remove the hidden temporaries ".NAME.<pid>.<random>.tmp" beside `path` that a killed save left behind."""
    path = Path(path)
    return clean_stale_files(path.parent if str(path.parent) else Path("."), f".{path.name}.")


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX: fsync the folder; Windows cannot open a folder so)."""
    if sys.platform == "win32":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_text_atomic(path: Path, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


MAX_INPUT_BYTES = 16 * 1024**2  # a scan, report, workload or config.json is far smaller


def _open_regular(path: Path) -> int:
    """A read-only descriptor of `path`, which must be a regular file: a FIFO is opened without waiting for a
    writer (O_NONBLOCK) and then refused like a device (/dev/zero), a socket or a folder."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise BadInput(tr("{path}: not a regular file (a device, a pipe or a socket); give a file",
                              path=shorten(str(path))))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes_limited(path: Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a file the user named. OSError as `open` raises it (missing, folder, permission);
    BadInput when the file is not a regular file or holds more than `limit` bytes."""
    with os.fdopen(_open_regular(Path(path)), "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise BadInput(tr("{path}: too large (more than {limit} MB); is this the right file?",
                          path=shorten(str(path)), limit=limit // 1024**2))
    return data


def read_text_limited(path: Path, *, folder_error: str, binary_error: str) -> str:
    """The UTF-8 text of a file the user named, or one BadInput "{path}: …" saying why it cannot be read:
    missing, a folder (`folder_error`, translated here), no permission, not a regular file, too large, not
    text (`binary_error`, translated here), any other OS error (a name too long …)."""
    shown = shorten(str(path))
    try:
        return read_bytes_limited(path).decode("utf-8")
    except FileNotFoundError:
        raise BadInput(tr("{path}: file not found", path=shown)) from None
    except IsADirectoryError:
        raise BadInput(f"{shown}: {tr(folder_error)}") from None
    except PermissionError:
        raise BadInput(tr("{path}: permission denied", path=shown)) from None
    except UnicodeDecodeError:
        raise BadInput(f"{shown}: {tr(binary_error)}") from None
    except OSError as e:
        raise BadInput(tr("{path}: cannot read ({reason})", path=shown, reason=e.strerror or e)) from None


def shorten(text: str, limit: int = 160) -> str:
    """A value echoed in a one-line message, cut in the middle to `limit` characters ("abc…xyz")."""
    text = str(text)
    if len(text) <= limit:
        return text
    half = (limit - 1) // 2
    return text[:half] + "…" + text[len(text) - (limit - 1 - half):]
