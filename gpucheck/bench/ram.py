"""RAM copy bandwidth: one thread, then every thread at once, copying a buffer larger than the CPU's caches (memcpy
underneath; sized from the scanned L3 by `buffer_beyond_caches`).

Reported as bytes copied per second (GB/s, 10^9), the convention of memcpy benchmarks such as `mbw`;
STREAM-style figures that count the read and the write separately are twice this. One thread cannot keep enough
cache-line misses in flight to fill the memory channels (a core's rate is its misses in flight × 64 B over the
memory's latency), so the one-thread figure is one core's rate and the all-threads one the memory's: each thread
copies its own slice with ctypes.memmove, which releases the GIL while it copies (ctypes calls foreign functions
without the GIL), so the slices are copied side by side.
"""

from __future__ import annotations

import ctypes
import dataclasses
import os
import threading
from dataclasses import dataclass

import psutil

from gpucheck.bench.common import Phase, median, timed_repeats
from gpucheck.i18n import tr_text

MIB = 1024 * 1024
DEFAULT_BUFFER_BYTES = 128 * MIB
MIN_BUFFER_BYTES = 32 * MIB


@dataclass(frozen=True)
class RamResult:
    copy_gbps: float | None  # one thread
    buffer_bytes: int
    repeats: int
    notes: tuple[str, ...] = ()
    copy_all_gbps: float | None = None  # every thread at once, each its own slice
    threads: int = 1  # threads behind copy_all_gbps


def buffer_beyond_caches(l3_cache_bytes: int | None) -> int:
    """The copy's buffer for a CPU whose scan read `l3_cache_bytes` of last-level cache: 128 MiB, or twice the L3
    where that is larger, so source and destination together are at least four times the cache. Server and
    cache-stacked chips carry 256 MiB to over 1 GiB of L3 (Intel Xeon 5th gen: 320 MB; AMD EPYC 9684X: 1,152 MB),
    where a 128 MiB copy stays largely in the cache: on a 2-vCPU Xeon reading 300 MiB of L3 one thread copied 32 MiB
    at 9.7 GB/s, 128 MiB at 8.3 and 1 GiB at 7.1 (2026-12-05)."""
    return max(DEFAULT_BUFFER_BYTES, 2 * int(l3_cache_bytes or 0))


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


def _side_by_side(src: bytearray, dst: bytearray, threads: int):
    """A copy of `src` into `dst` in `threads` slices, each in its own thread (memmove without the GIL)."""
    n = len(src)
    a = ctypes.addressof((ctypes.c_char * n).from_buffer(src))
    b = ctypes.addressof((ctypes.c_char * n).from_buffer(dst))
    bounds = [n * i // threads for i in range(threads + 1)]

    def part(i: int) -> None:
        ctypes.memmove(b + bounds[i], a + bounds[i], bounds[i + 1] - bounds[i])

    def copy() -> None:
        workers = [threading.Thread(target=part, args=(i,), name="gpucheck-ram") for i in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()

    return copy


def measure_ram(phase: Phase, buffer_bytes: int = DEFAULT_BUFFER_BYTES, max_repeats: int = 15,
                threads: int | None = None) -> RamResult:
    """One thread's copy rate over the first part of the phase, then every thread's (`threads`, default the
    logical CPUs) over the rest."""
    size = _buffer_bytes(buffer_bytes)
    threads = max(1, threads or os.cpu_count() or 1)
    phase.check()
    src = _filled(size)
    phase.check()
    dst = bytearray(size)
    s, d = memoryview(src), memoryview(dst)
    try:
        d[:] = s  # warm-up: maps every page of dst

        def copy() -> None:
            d[:] = s

        half = dataclasses.replace(phase, deadline=phase.started + (phase.deadline - phase.started) / 2,
                                   end_fraction=(phase.start_fraction + phase.end_fraction) / 2)
        rates = [size / dt / 1e9 for dt in timed_repeats(half, copy, max_repeats)]
        notes = [tr_text("RAM copy: one thread copying {size} MiB buffers, median of {n} copies.",
                         size=size // MIB, n=len(rates))]
        all_rate = None
        if threads > 1:
            copy_all = _side_by_side(src, dst, threads)
            copy_all()  # warm-up: wakes the other cores
            together = [size / dt / 1e9 for dt in timed_repeats(phase, copy_all, max_repeats)]
            all_rate = max(together)  # the best copy, as STREAM reports its rates: what the memory can give
            notes.append(tr_text("RAM copy, all threads: {threads} threads each copying its share of the buffers, "
                                 "best of {n} copies.", threads=threads, n=len(together)))
        return RamResult(median(rates), size, len(rates), tuple(notes), copy_all_gbps=all_rate, threads=threads)
    finally:
        s.release()
        d.release()
        del src, dst
