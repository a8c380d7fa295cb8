"""gpucheck — can my PC train this? And if not, what is the cheapest way to get there."""


def __getattr__(name: str):
    # __version__ is looked up on first use: importlib.metadata costs ~20 ms, too much for the
    # desktop app's start-up, which never needs it before its window is shown.
    if name == "__version__":
        from importlib import metadata as _metadata

        try:
            version = _metadata.version("gpucheck")
        except _metadata.PackageNotFoundError:  # running from a source tree or a frozen bundle
            version = "0.1.0"
        globals()["__version__"] = version
        return version
    raise AttributeError(f"module 'gpucheck' has no attribute {name!r}")
