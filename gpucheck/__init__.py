"""gpucheck — can my PC train this? And if not, what is the cheapest way to get there."""

from gpucheck.lazy import lazy_import

# importlib.metadata costs ~10-20 ms, too much for the desktop app's start-up, which never needs the
# version before its window is shown: `gpucheck.__version__` reads it on first use (PEP 562).
_metadata = lazy_import("importlib.metadata")
_FALLBACK_VERSION = "0.1.0"  # a source tree that was never installed


def __getattr__(name: str) -> str:
    if name == "__version__":
        try:
            version = _metadata.version("gpucheck")
        except _metadata.PackageNotFoundError:
            version = _FALLBACK_VERSION
        globals()["__version__"] = version
        return version
    raise AttributeError(f"module 'gpucheck' has no attribute {name!r}")
