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
    deadline: float  # time.monotonic() value
    cancel: threading.Event | None = None
    on_progress: ProgressFn | None = None
    start_fraction: float = 0.0
    end_fraction: float = 1.0
    started: float = 0.0

    def __post_init__(self) -> None:
        if not self.started:
            self.started = time.monotonic()

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def expired(self) -> bool:
        return time.monotonic() >= self.deadline

    def check(self) -> None:
        """Raise Cancelled if the user cancelled; report progress by elapsed share of the budget."""
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled()
        self.report()

    def report(self, step: str | None = None) -> None:
        if self.on_progress is None:
            return
        total = max(self.deadline - self.started, 1e-6)
        done = min(max((time.monotonic() - self.started) / total, 0.0), 1.0)
        frac = self.start_fraction + (self.end_fraction - self.start_fraction) * done
        try:
            self.on_progress(step or self.name, frac)
        except Exception:  # a broken progress callback must not break the measurement
            pass

    def sub(self, name: str, share: float) -> Phase:
        """A child phase taking `share` (0..1) of the time left in this one."""
        now = time.monotonic()
        left = max(self.deadline - now, 0.0)
        span = self.end_fraction - self.start_fraction
        done = 0.0 if self.deadline <= self.started else (now - self.started) / (self.deadline - self.started)
        done = min(max(done, 0.0), 1.0)
        start_f = self.start_fraction + span * done
        end_f = start_f + (self.end_fraction - start_f) * share
        return Phase(name, now + left * share, self.cancel, self.on_progress, start_f, end_f, now)


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


def throttled(on_progress: ProgressFn | None, interval_s: float = 0.05) -> ProgressFn | None:
    """Forward progress at most every `interval_s`, but always when the step changes or at the end,
    and never let the fraction go backwards (a UI progress bar must not jump back)."""
    if on_progress is None:
        return None
    state = {"t": 0.0, "step": None, "frac": 0.0}

    def forward(step: str, fraction: float) -> None:
        now = time.monotonic()
        fraction = max(fraction, state["frac"])
        if step == state["step"] and now - state["t"] < interval_s and fraction < 1.0:
            return
        state.update(t=now, step=step, frac=fraction)
        on_progress(step, fraction)

    return forward
