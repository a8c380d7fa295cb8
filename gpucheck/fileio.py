"""Atomic file writing: write to a temporary file beside the target, fsync, rename.

A crash or a full disk during the write leaves the old file as it was; never a half-written one.
Reading a file the user named (`read_bytes_limited`) stops at a size limit, so a wrong path such as
/dev/zero or a multi-gigabyte file is one clear error instead of a hang that fills memory.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

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
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
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


def write_text_atomic(path: Path, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


MAX_INPUT_BYTES = 16 * 1024**2  # a scan, report, workload or config.json is far smaller


def read_bytes_limited(path: Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a file the user named. OSError as `open` raises it (missing, folder, permission);
    BadInput when the file holds more than `limit` bytes."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise BadInput(tr("{path}: too large (more than {limit} MB); is this the right file?",
                          path=path, limit=limit // 1024**2))
    return data


def read_text_limited(path: Path, *, folder_error: str, binary_error: str) -> str:
    """The UTF-8 text of a file the user named, or one BadInput "{path}: …" saying why it cannot be read:
    missing, a folder (`folder_error`), no permission, not text (`binary_error`), any other OS error."""
    try:
        return read_bytes_limited(path).decode("utf-8")
    except FileNotFoundError:
        raise BadInput(f"{path}: file not found") from None
    except IsADirectoryError:
        raise BadInput(f"{path}: {folder_error}") from None
    except PermissionError:
        raise BadInput(f"{path}: permission denied") from None
    except UnicodeDecodeError:
        raise BadInput(f"{path}: {binary_error}") from None
    except OSError as e:
        raise BadInput(f"{path}: cannot read ({e.strerror or e})") from None
