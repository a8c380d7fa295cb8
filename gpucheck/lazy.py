"""Deferred imports: the one way a module may use another one later than its own import lines run.

The desktop app must put its window on screen fast (docs/performance.md: at most 1.5× the time of a
bare Qt wizard, measured by benchmarks/bench_startup.py). So the modules on its start-up path
(`gpucheck.__main__`, `gpucheck.ui.app`, the wizard, the first page and what they import) name the heavy
modules they only use later — the scan, the estimator, the advice, the report, the catalogs,
`importlib.metadata` — with a handle, at the top of the module beside the other imports:

    from gpucheck.lazy import lazy_import

    readiness = lazy_import("gpucheck.advise.readiness")  # loaded on first use, after the window is up

and use the handle as the module (`readiness.gpu_readiness(machine)`). Reading an attribute of the
handle imports the module with the ordinary import machinery (thread-safe, works in a PyInstaller
bundle, errors as usual) and returns the module's attribute; nothing is copied, so a test that
monkeypatches the real module is seen through the handle. `from X import name` would load X at once,
so a deferred module is always used through its handle.

This is how gpucheck defers its own modules and slow standard-library ones; nothing imports them inside
a function (only optional third-party libraries such as torch are, see tests/test_layers.py). The layer
test reads `lazy_import("...")` calls as imports, so deferred ones obey the layers too; PyInstaller cannot
see them, so packaging/gpucheck.spec lists every gpucheck module in its hiddenimports.
tests/ui/test_startup_imports.py checks that the start-up path stays free of the heavy modules.
"""

from __future__ import annotations

import importlib
import types
from typing import Any


class LazyModule(types.ModuleType):
    """A stand-in for a module that is imported on its first attribute read."""

    def __getattr__(self, attr: str) -> Any:  # called only for names the stand-in itself lacks
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)  # copy, pickle, inspect probing a handle: never load for them
        return getattr(self._lazy_load(), attr)

    def __setattr__(self, attr: str, value: Any) -> None:
        setattr(self._lazy_load(), attr, value)

    def __delattr__(self, attr: str) -> None:
        delattr(self._lazy_load(), attr)

    def __repr__(self) -> str:
        return f"<deferred module {self.__name__!r}>"

    def _lazy_load(self) -> types.ModuleType:
        """Import the module now (a no-op after the first time) and return it."""
        return importlib.import_module(self.__name__)


def lazy_import(name: str) -> LazyModule:
    """A handle for module `name` that imports it on first use. Use at the top of a module only."""
    return LazyModule(name)
