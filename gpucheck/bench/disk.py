"""Disk read speed on the folder the user picked for data sets: sequential and random, MB/s (10^6).

A temporary file (".gpucheck-disk-*.tmp") is written into that folder, read back, and ALWAYS removed,
also on cancel or error. The operating system's file cache would otherwise answer the reads from RAM,
so it is bypassed where the system allows:
  - Linux: O_DIRECT reads into page-aligned buffers ("direct"); where the file system refuses O_DIRECT
    (tmpfs, some network file systems) the file's cached pages are dropped with
    posix_fadvise(POSIX_FADV_DONTNEED) before each pass ("dropped").
  - macOS: F_NOCACHE on both the writing and the reading descriptor ("nocache").
  - Windows: FILE_FLAG_NO_BUFFERING reads into page-aligned buffers ("direct").
  - Otherwise the figures may come from RAM ("cached") and the notes say so.
The disk's own DRAM cache cannot be bypassed from here; on a large SSD a just-written 256 MiB file may
partly sit there. Sequential reads use 4 MiB blocks. The random-read figure is what a shuffled data
set asks of the disk: 8 readers in parallel (like a DataLoader's workers), each reading 128 KiB pieces
(about one training image) at random offsets. The classic 4 KiB random read at queue depth 1 is kept
beside it (`rand_4k_qd1_mb_per_s`).
"""

from __future__ import annotations

import mmap
import os
import random
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from gpucheck.bench.common import Phase, counted_in_windows, median
from gpucheck.fileio import clean_stale_files
from gpucheck.i18n import N_, tr, tr_text

MIB = 1024 * 1024
DEFAULT_FILE_BYTES = 256 * MIB
MIN_FILE_BYTES = 8 * MIB
SEQ_BLOCK = 4 * MIB
RAND_BLOCK = 4096  # the classic small random read, one at a time (queue depth 1)
LOADER_BLOCK = 128 * 1024  # about one shuffled training image (ImageNet JPEGs average ~110 KB)
LOADER_THREADS = 8  # readers in parallel, like a DataLoader with 8 workers
SYNC_EVERY = 8  # write chunks between fsyncs: bounds the dirty data a cancel has to wait for
FREE_MARGIN_BYTES = 1024 * MIB  # never take the last GiB of a disk
TEMP_PREFIX = ".gpucheck-disk-"


@dataclass(frozen=True)
class DiskResult:
    path: str
    seq_read_mb_per_s: float | None = None
    rand_read_mb_per_s: float | None = None
    seq_write_mb_per_s: float | None = None
    file_bytes: int = 0
    cache_mode: str | None = None  # direct | dropped | nocache | cached
    rand_block_bytes: int = LOADER_BLOCK  # block of rand_read_mb_per_s
    rand_threads: int = LOADER_THREADS  # parallel readers behind rand_read_mb_per_s
    rand_4k_qd1_mb_per_s: float | None = None
    notes: tuple[str, ...] = ()


# -- readers: one per way of getting past the file cache -------------------------------------------


class _PosixReader:
    """pread on a descriptor; O_DIRECT needs page-aligned buffers, offsets and sizes."""

    def __init__(self, path: str, mode: str):
        self.mode = mode
        self.path = path
        flags = os.O_RDONLY | getattr(os, "O_BINARY", 0)
        if mode == "direct":
            flags |= os.O_DIRECT  # type: ignore[attr-defined]
        self.fd = os.open(path, flags)
        if mode == "nocache":
            import fcntl

            fcntl.fcntl(self.fd, getattr(fcntl, "F_NOCACHE", 48), 1)
        self.bufs: dict[int, mmap.mmap] = {}

    def clone(self) -> _PosixReader:
        return _PosixReader(self.path, self.mode)

    def read_at(self, offset: int, size: int) -> int:
        if self.mode == "direct":
            buf = self.bufs.get(size)
            if buf is None:
                buf = self.bufs[size] = mmap.mmap(-1, size)  # page-aligned
            return os.preadv(self.fd, [buf], offset)  # type: ignore[attr-defined]
        if hasattr(os, "pread"):
            return len(os.pread(self.fd, size, offset))
        os.lseek(self.fd, offset, os.SEEK_SET)  # Windows fallback (no pread)
        return len(os.read(self.fd, size))

    def drop_cache(self) -> None:
        if self.mode == "dropped":
            os.posix_fadvise(self.fd, 0, 0, os.POSIX_FADV_DONTNEED)  # type: ignore[attr-defined]

    def hint_random(self) -> None:
        if self.mode == "dropped" and hasattr(os, "posix_fadvise"):
            os.posix_fadvise(self.fd, 0, 0, os.POSIX_FADV_RANDOM)  # type: ignore[attr-defined]

    def close(self) -> None:
        try:
            os.close(self.fd)
        finally:
            for b in self.bufs.values():
                b.close()
            self.bufs.clear()


class _WindowsReader:
    """CreateFileW with FILE_FLAG_NO_BUFFERING, positional ReadFile into page-aligned buffers."""

    mode = "direct"

    def __init__(self, path: str):
        import ctypes

        self.path = path
        from ctypes import wintypes

        self._ct = ctypes
        k32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
        self._create = k32.CreateFileW
        self._create.argtypes = [wintypes.LPCWSTR, wintypes.DWORD, wintypes.DWORD, wintypes.LPVOID,
                                 wintypes.DWORD, wintypes.DWORD, wintypes.HANDLE]
        self._create.restype = wintypes.HANDLE
        self._read = k32.ReadFile
        self._read.argtypes = [wintypes.HANDLE, wintypes.LPVOID, wintypes.DWORD,
                               ctypes.POINTER(wintypes.DWORD), wintypes.LPVOID]
        self._read.restype = wintypes.BOOL
        self._seek = k32.SetFilePointerEx
        self._seek.argtypes = [wintypes.HANDLE, ctypes.c_longlong, ctypes.POINTER(ctypes.c_longlong),
                               wintypes.DWORD]
        self._seek.restype = wintypes.BOOL
        self._close = k32.CloseHandle
        self._close.argtypes = [wintypes.HANDLE]
        generic_read, share_all, open_existing = 0x80000000, 0x1 | 0x2 | 0x4, 3
        no_buffering = 0x20000000
        handle = self._create(path, generic_read, share_all, None, open_existing, no_buffering, None)
        if handle is None or handle == wintypes.HANDLE(-1).value:
            raise OSError(ctypes.get_last_error(), "CreateFileW failed")  # type: ignore[attr-defined]
        self.handle = handle
        self._dword = wintypes.DWORD
        self.bufs: dict[int, tuple[mmap.mmap, object]] = {}

    def clone(self) -> _WindowsReader:
        return _WindowsReader(self.path)

    def read_at(self, offset: int, size: int) -> int:
        ct = self._ct
        entry = self.bufs.get(size)
        if entry is None:
            mm = mmap.mmap(-1, size)  # page-aligned (allocation granularity)
            entry = self.bufs[size] = (mm, (ct.c_char * size).from_buffer(mm))
        view = entry[1]
        if not self._seek(self.handle, offset, None, 0):
            raise OSError(ct.get_last_error(), "SetFilePointerEx failed")  # type: ignore[attr-defined]
        got = self._dword(0)
        if not self._read(self.handle, ct.addressof(view), size, ct.byref(got), None):
            raise OSError(ct.get_last_error(), "ReadFile failed")  # type: ignore[attr-defined]
        return got.value

    def drop_cache(self) -> None:
        pass

    def hint_random(self) -> None:
        pass

    def close(self) -> None:
        try:
            self._close(self.handle)
        finally:
            maps = [mm for mm, _view in self.bufs.values()]
            self.bufs.clear()  # drops the ctypes views, the only other holders of the buffers
            for mm in maps:
                try:
                    mm.close()
                except BufferError:
                    pass


def _open_reader(path: str):
    """The best reader this system allows, most cache-proof first."""
    if sys.platform == "win32":
        try:
            return _WindowsReader(path)
        except Exception:
            return _PosixReader(path, "cached")
    if sys.platform == "darwin":
        try:
            return _PosixReader(path, "nocache")
        except Exception:
            return _PosixReader(path, "cached")
    if hasattr(os, "O_DIRECT") and hasattr(os, "preadv"):
        reader = None
        try:
            reader = _PosixReader(path, "direct")
            reader.read_at(0, RAND_BLOCK)  # some file systems accept the flag but fail the read
            return reader
        except OSError:
            if reader is not None:
                reader.close()
    if hasattr(os, "posix_fadvise"):
        return _PosixReader(path, "dropped")
    return _PosixReader(path, "cached")


# -- the benchmark -------------------------------------------------------------------------------


def _problem(path: Path) -> str | None:
    if not path.exists():
        return tr_text("Disk test skipped: the folder {path} does not exist.", path=str(path))
    if not path.is_dir():
        return tr_text("Disk test skipped: {path} is not a folder.", path=str(path))
    if not os.access(path, os.W_OK):
        return tr_text("Disk test skipped: no permission to write in {path}.", path=str(path))
    return None


def _remove(path: str) -> str | None:
    for attempt in range(5):
        try:
            os.unlink(path)
            return None
        except FileNotFoundError:
            return None
        except OSError:  # Windows: a scanner may hold the file for a moment
            time.sleep(0.1 * (attempt + 1))
    return tr_text("Could not remove the test file {path}; please delete it.", path=path)


def _write_file(fd: int, size: int, phase: Phase) -> tuple[int, float]:
    """Write up to `size` bytes of incompressible data; returns (bytes written, seconds incl. fsync)."""
    block = bytearray(os.urandom(SEQ_BLOCK))
    written = 0
    t0 = time.perf_counter()
    n = 0
    while written < size:
        phase.check()
        if written >= MIN_FILE_BYTES and phase.expired():
            break
        block[:8] = n.to_bytes(8, "little")  # no two blocks alike (deduplicating file systems)
        os.write(fd, block)
        written += len(block)
        n += 1
        if n % SYNC_EVERY == 0:
            os.fsync(fd)
    os.fsync(fd)
    return written, time.perf_counter() - t0


def _sequential(reader, file_bytes: int, phase: Phase, window_bytes: int = 64 * MIB) -> list[float]:
    rates: list[float] = []
    offset = 0
    reader.drop_cache()
    win_start, win_bytes = time.perf_counter(), 0
    while True:
        phase.check()
        if phase.expired() and (rates or win_bytes >= SEQ_BLOCK * 4):
            break
        if offset >= file_bytes:
            offset = 0
            reader.drop_cache()
        size = min(SEQ_BLOCK, file_bytes - offset)
        got = reader.read_at(offset, size)
        if got <= 0:
            offset = file_bytes
            continue
        offset += got
        win_bytes += got
        if win_bytes >= min(window_bytes, file_bytes):
            dt = time.perf_counter() - win_start
            if dt > 0:
                rates.append(win_bytes / dt / 1e6)
            win_start, win_bytes = time.perf_counter(), 0
    if not rates and win_bytes:
        dt = time.perf_counter() - win_start
        if dt > 0:
            rates.append(win_bytes / dt / 1e6)
    return rates


def _random(reader, file_bytes: int, phase: Phase, window_reads: int = 128) -> list[float]:
    rng = random.Random(99)
    blocks = file_bytes // RAND_BLOCK
    reader.drop_cache()
    reader.hint_random()
    rates: list[float] = []
    while True:
        phase.check()
        if phase.expired() and rates:
            break
        t0 = time.perf_counter()
        for _ in range(window_reads):
            reader.read_at(rng.randrange(blocks) * RAND_BLOCK, RAND_BLOCK)
        dt = time.perf_counter() - t0
        if dt > 0:
            rates.append(window_reads * RAND_BLOCK / dt / 1e6)
        if dt > 0.25:  # slow disk (HDD): smaller windows keep cancel prompt
            window_reads = max(8, window_reads // 2)
    return rates


def _random_parallel(reader, file_bytes: int, phase: Phase, threads: int = LOADER_THREADS,
                     block: int = LOADER_BLOCK, windows: int = 4) -> list[float]:
    """MB/s of `threads` readers each reading `block`-sized pieces at random offsets (each thread has its
    own descriptor and buffer), one figure per time window after a warm-up window."""
    blocks = max(file_bytes // block, 1)
    reader.drop_cache()

    def worker(slot: int, stop: threading.Event, counts: list[int]) -> None:
        rng = random.Random(1000 + slot)
        own = reader.clone()
        try:
            own.hint_random()
            while not stop.is_set():
                own.read_at(rng.randrange(blocks) * block, block)
                counts[slot] += 1
        finally:
            own.close()

    return counted_in_windows(phase, threads, worker, lambda items, seconds: items * block / seconds / 1e6,
                              windows=windows, name="gpucheck-disk", join_timeout_s=5.0)


_CACHE_NOTES = {
    "direct": N_("the file cache was bypassed (direct reads)"),
    "dropped": N_("the file cache was emptied before each pass (the file system refused direct reads)"),
    "nocache": N_("the file cache was turned off for the test file"),
    "cached": N_("the file cache could NOT be bypassed here, so the figures may be RAM speed, not disk speed"),
}


def measure_disk(phase: Phase, folder: str | os.PathLike[str], file_bytes: int = DEFAULT_FILE_BYTES) -> DiskResult:
    folder_path = Path(folder).expanduser()
    where = str(folder_path)
    problem = _problem(folder_path)
    if problem:
        return DiskResult(where, notes=(problem,))
    clean_stale_files(folder_path, TEMP_PREFIX, sep="-")  # the test files of deep scans that were killed
    try:
        free = shutil.disk_usage(folder_path).free
    except OSError as e:
        return DiskResult(where, notes=(tr_text("Disk test skipped: cannot read free space of {path} ({err}).",
                                           path=where, err=e.strerror or str(e)),))
    size = min(file_bytes, max(free - FREE_MARGIN_BYTES, 0) // 4)
    size -= size % SEQ_BLOCK
    if size < MIN_FILE_BYTES:
        return DiskResult(where, notes=(tr_text("Disk test skipped: too little free space in {path}.", path=where),))

    notes: list[str] = []
    path = None
    fd = None
    reader = None
    try:
        try:
            fd, path = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-", suffix=".tmp", dir=folder_path)
        except OSError as e:
            return DiskResult(where, notes=(tr_text("Disk test skipped: cannot create a file in {path} ({err}).",
                                               path=where, err=e.strerror or str(e)),))
        if sys.platform == "darwin":
            try:
                import fcntl

                fcntl.fcntl(fd, getattr(fcntl, "F_NOCACHE", 48), 1)
            except OSError:
                pass
        write_phase = phase.sub(tr("Measuring disk (writing a test file)"), 0.35)
        written, write_s = _write_file(fd, size, write_phase)
        if hasattr(os, "posix_fadvise"):
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)  # type: ignore[attr-defined]
            except OSError:
                pass
        os.close(fd)
        fd = None
        reader = _open_reader(path)
        seq = _sequential(reader, written, phase.sub(tr("Measuring disk (sequential read)"), 0.45))
        rnd4k = _random(reader, written, phase.sub(tr("Measuring disk (random read)"), 0.4))
        rnd = _random_parallel(reader, written, phase.sub(tr("Measuring disk (parallel random read)"), 1.0))
        mode = reader.mode
        notes.append(tr_text("Disk: {size} MiB test file in {path}; {cache}.", size=written // MIB, path=where,
                        cache=tr(_CACHE_NOTES[mode])))
        figures = (median(seq), median(rnd), written / write_s / 1e6 if write_s > 0 else None, written, mode,
                   median(rnd4k))
    except OSError as e:  # disk full, I/O error, file system refusing something: a note, not a crash
        notes.append(tr_text("Disk test in {path} failed: {err}", path=where, err=e.strerror or str(e)))
        figures = (None, None, None, 0, None, None)
    finally:
        if reader is not None:
            try:
                reader.close()
            except OSError:
                pass
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass
        if path is not None:
            left = _remove(path)
            if left:
                notes.append(left)
    seq_mb, rand_mb, write_mb, written, mode, rand4k_mb = figures
    return DiskResult(where, seq_mb, rand_mb, write_mb, written, mode, LOADER_BLOCK, LOADER_THREADS, rand4k_mb,
                      tuple(notes))
