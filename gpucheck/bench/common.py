"""Shared plumbing for the deep-scan micro-benchmarks: time budgets, cancel, repeats, progress.

Every benchmark works in small steps (each well under 0.5 s) and checks its `Phase` between steps,
so a cancel or a spent budget stops it promptly; clean-up lives in `finally` blocks.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

ProgressFn = Callable[[str, float], None]


class Cancelled(Exception):
    """The user pressed cancel; raised between benchmark steps."""


@dataclass
class Phase:
    """One benchmark's share of the deep scan: a deadline, the cancel flag and the progress bar slice."""

    name: str  # shown to the user (already translated)
    deadline: float  # a value of `clock()`
    cancel: threading.Event | None = None
    on_progress: ProgressFn | None = None
    start_fraction: float = 0.0
    end_fraction: float = 1.0
    started: float = 0.0
    clock: Callable[[], float] = time.monotonic  # seconds; tests pass a fake clock

    def __post_init__(self) -> None:
        if not self.started:
            self.started = self.clock()

    def remaining(self) -> float:
        return self.deadline - self.clock()

    def expired(self) -> bool:
        return self.clock() >= self.deadline

    def check(self) -> None:
        """Raise Cancelled if the user cancelled; report progress by elapsed share of the budget."""
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled()
        self.report()

    def report(self, step: str | None = None) -> None:
        if self.on_progress is None:
            return
        total = max(self.deadline - self.started, 1e-6)
        done = min(max((self.clock() - self.started) / total, 0.0), 1.0)
        frac = self.start_fraction + (self.end_fraction - self.start_fraction) * done
        try:
            self.on_progress(step or self.name, frac)
        except Exception:  # a broken progress callback must not break the measurement
            pass

    def sub(self, name: str, share: float) -> Phase:
        """A child phase taking `share` (0..1) of the time left in this one."""
        now = self.clock()
        left = max(self.deadline - now, 0.0)
        span = self.end_fraction - self.start_fraction
        done = 0.0 if self.deadline <= self.started else (now - self.started) / (self.deadline - self.started)
        done = min(max(done, 0.0), 1.0)
        start_f = self.start_fraction + span * done
        end_f = start_f + (self.end_fraction - start_f) * share
        return Phase(name, now + left * share, self.cancel, self.on_progress, start_f, end_f, now, self.clock)


def median(values: list[float]) -> float | None:
    vals = [v for v in values if v is not None and v > 0]
    return statistics.median(vals) if vals else None


def wait_or_cancel(cancel: threading.Event | None, seconds: float) -> None:
    """Sleep, waking early (and raising Cancelled) when the user cancels."""
    if cancel is None:
        time.sleep(max(seconds, 0.0))
        return
    if cancel.wait(max(seconds, 0.0)):
        raise Cancelled()


def timed_repeats(phase: Phase, run: Callable[[], object], max_repeats: int, *, min_repeats: int = 3,
                  stop_at_deadline: bool = False) -> list[float]:
    """Seconds taken by each call of `run()` (calls timed at zero are dropped), repeated up to `max_repeats`
    times; stops once the phase has expired with `min_repeats` calls timed, or, with `stop_at_deadline`,
    right after the first call that ends past the deadline."""
    seconds: list[float] = []
    while len(seconds) < max_repeats:
        phase.check()
        if len(seconds) >= min_repeats and phase.expired():
            break
        t0 = time.perf_counter()
        run()
        dt = time.perf_counter() - t0
        if dt > 0:
            seconds.append(dt)
        if stop_at_deadline and phase.expired() and seconds:
            break
    return seconds


def counted_in_windows(phase: Phase, threads: int, worker: Callable[[int, threading.Event, list[int]], None],
                       rate: Callable[[int, float], float], *, windows: int = 4, name: str = "gpucheck-bench",
                       join_timeout_s: float = 2.0) -> list[float]:
    """Run `worker(slot, stop, counts)` in `threads` threads until the phase ends; each worker adds one to
    `counts[slot]` per item done and returns when `stop` is set. One figure per time window after the first
    (a warm-up): `rate(items, seconds)`. An error in any worker stops them all and is raised here."""
    counts = [0] * threads
    stop = threading.Event()
    errors: list[BaseException] = []

    def run(slot: int) -> None:
        try:
            worker(slot, stop, counts)
        except BaseException as e:  # noqa: BLE001 — surfaced to the caller after join
            errors.append(e)
            stop.set()

    pool = [threading.Thread(target=run, args=(k,), daemon=True, name=f"{name}-{k}") for k in range(threads)]
    for t in pool:
        t.start()
    rates: list[float] = []
    try:
        span = max(phase.remaining(), 0.05) / (windows + 1)  # window 0 is the warm-up
        last_t, last_n = time.perf_counter(), 0
        for w in range(windows + 1):
            end = time.perf_counter() + span
            while time.perf_counter() < end and not stop.is_set():
                phase.check()
                wait_or_cancel(phase.cancel, min(0.05, max(end - time.perf_counter(), 0)))
            now, n = time.perf_counter(), sum(counts)
            if w > 0 and now > last_t:
                rates.append(rate(n - last_n, now - last_t))
            last_t, last_n = now, n
            if stop.is_set():
                break
    finally:
        stop.set()
        for t in pool:
            t.join(timeout=join_timeout_s)
    if errors:
        raise errors[0]
    return rates


def throttled(on_progress: ProgressFn | None, interval_s: float = 0.05) -> ProgressFn | None:
    """Forward progress at most every `interval_s`, but always when the step changes or at the end,
    and never let the fraction go backwards (a UI progress bar must not jump back)."""
    if on_progress is None:
        return None
    last_t, last_frac = [0.0], [0.0]
    last_step: list[str | None] = [None]

    def forward(step: str, fraction: float) -> None:
        now = time.monotonic()
        fraction = max(fraction, last_frac[0])
        if step == last_step[0] and now - last_t[0] < interval_s and fraction < 1.0:
            return
        last_t[0], last_step[0], last_frac[0] = now, step, fraction
        on_progress(step, fraction)

    return forward
