"""RAM copy bandwidth: one thread copying a buffer larger than any CPU cache (memcpy underneath).

Reported as bytes copied per second (GB/s, 10^9), the convention of memcpy benchmarks such as `mbw`;
STREAM-style figures that count the read and the write separately are twice this. One thread does not
saturate every memory channel of a big desktop, so this is a floor for what a data loader sees.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import psutil

from gpucheck.bench.common import Phase, median, timed_repeats
from gpucheck.i18n import tr_text

MIB = 1024 * 1024
DEFAULT_BUFFER_BYTES = 128 * MIB
MIN_BUFFER_BYTES = 32 * MIB


@dataclass(frozen=True)
class RamResult:
    copy_gbps: float | None
    buffer_bytes: int
    repeats: int
    notes: tuple[str, ...] = ()


def _buffer_bytes(wanted: int) -> int:
    """Shrink the buffer when little RAM is free: two buffers must fit in an eighth of what is free."""
    try:
        avail = int(psutil.virtual_memory().available)
    except Exception:
        return min(wanted, 64 * MIB)
    size = wanted
    while size > MIN_BUFFER_BYTES and 2 * size > avail // 8:
        size //= 2
    return size


def _filled(n: int) -> bytearray:
    """A buffer whose pages are really written (untouched pages would all read the same zero page)."""
    buf = bytearray(n)
    seed = os.urandom(min(MIB, n))
    buf[: len(seed)] = seed
    done = len(seed)
    while done < n:
        step = min(done, n - done)
        buf[done : done + step] = buf[:step]
        done += step
    return buf


def measure_ram(phase: Phase, buffer_bytes: int = DEFAULT_BUFFER_BYTES, max_repeats: int = 15) -> RamResult:
    size = _buffer_bytes(buffer_bytes)
    phase.check()
    src = _filled(size)
    phase.check()
    dst = bytearray(size)
    s, d = memoryview(src), memoryview(dst)
    try:
        d[:] = s  # warm-up: maps every page of dst

        def copy() -> None:
            d[:] = s

        rates = [size / dt / 1e9 for dt in timed_repeats(phase, copy, max_repeats)]
        notes = (tr_text("RAM copy: one thread copying {size} MiB buffers, median of {n} copies.",
                    size=size // MIB, n=len(rates)),)
        return RamResult(median(rates), size, len(rates), notes)
    finally:
        s.release()
        d.release()
        del src, dst
