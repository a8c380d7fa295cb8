"""The clock one busy core runs at, measured where the system does not report it.

Virtual machines (cloud GPU instances, this kind of build machine) often hide the CPU's clock: Linux has no cpufreq
folder there, and /proc/cpuinfo's "cpu MHz" is the time-stamp counter's nominal rate, not what a core runs at
(an AMD EPYC VM reads 2,596 MHz there while its cores run at 3,669). The estimate prices a CPU's arithmetic, the
launches a GPU step waits for and the data loader's work at the core's clock, so a guess (the defaults in
factors.toml) can be 20-40 % off.

Measured as the latency of a chain of dependent 64-bit multiplies: each IMUL r64, r64 waits for the one before,
and takes 3 cycles on every x86-64 core of the last fifteen years that trains models (Intel from Nehalem to the
current cores, AMD Zen 1 to 5: A. Fog, 'Instruction tables', IMUL r64,r64 latency 3; Intel 64 and IA-32
Optimization Reference Manual, Appendix D). Cycles / seconds is the clock, whatever the memory or the cache. The
chain runs as 31 bytes of machine code in a page mapped writable, then made executable and not writable (W^X),
called through ctypes: about 20 ms in all, the fastest of five runs after a warm-up that lets the core reach its
boost. x86-64 Linux (and WSL) only; elsewhere, or where the system forbids executable memory, None.
"""

from __future__ import annotations

import ctypes
import mmap
import struct
import time

IMUL_LATENCY_CYCLES = 3  # IMUL r64, r64 (see the module's docstring)
IMULS_PER_ITERATION = 4
ITERATIONS = 1_000_000  # 12 M cycles: about 3 ms at 3.7 GHz
RUNS = 5
PLAUSIBLE_MHZ = (400.0, 7_000.0)  # outside this the run was disturbed, not measured
X86_64 = ("x86_64", "amd64")


def chain_code(iterations: int) -> bytes:
    """x86-64 machine code of `uint64_t f(void)`: `iterations` × 4 dependent IMUL rax, rax; returns rax.
    Uses only rax and rcx, which both the System V and the Windows calling conventions let a callee change."""
    imul = b"\x48\x0f\xaf\xc0"  # imul rax, rax
    body = imul * IMULS_PER_ITERATION + b"\xff\xc9"  # dec ecx
    jump = b"\x75" + struct.pack("b", -(len(body) + 2))  # jnz back to the first imul
    return (b"\xb8\x03\x00\x00\x00"  # mov eax, 3
            + b"\xb9" + struct.pack("<I", iterations)  # mov ecx, iterations
            + body + jump + b"\xc3")  # ret


def _run_chain(code: bytes) -> list[float]:
    """Seconds of each of RUNS calls of `code` (after one warm-up call); raises OSError where it cannot run."""
    size = mmap.PAGESIZE
    page = mmap.mmap(-1, size, prot=mmap.PROT_READ | mmap.PROT_WRITE)
    try:
        page.write(code)
        anchor = ctypes.c_char.from_buffer(page)
        try:
            addr = ctypes.addressof(anchor)
            libc = ctypes.CDLL(None, use_errno=True)
            libc.mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
            if libc.mprotect(addr, size, mmap.PROT_READ | mmap.PROT_EXEC) != 0:
                raise OSError(ctypes.get_errno(), "mprotect refused an executable page")
            chain = ctypes.CFUNCTYPE(ctypes.c_uint64)(addr)
            chain()  # the warm-up: the core leaves its idle clock
            times = []
            for _ in range(RUNS):
                t0 = time.perf_counter_ns()
                chain()
                times.append((time.perf_counter_ns() - t0) / 1e9)
            return times
        finally:
            del anchor
    finally:
        page.close()


def measure_core_clock_mhz(system: str, arch: str) -> float | None:
    """The clock (MHz) one busy core runs at, or None where it is not measured (see the module's docstring)."""
    if system != "linux" or arch.lower() not in X86_64:
        return None
    try:
        times = _run_chain(chain_code(ITERATIONS))
    except Exception:  # noqa: BLE001 — no mmap/mprotect, executable memory forbidden (SELinux execmem): not measured
        return None
    fastest = min(times)
    if fastest <= 0:
        return None
    mhz = ITERATIONS * IMULS_PER_ITERATION * IMUL_LATENCY_CYCLES / fastest / 1e6
    return round(mhz) if PLAUSIBLE_MHZ[0] <= mhz <= PLAUSIBLE_MHZ[1] else None
