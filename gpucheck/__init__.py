"""gpucheck — can my PC train this? And if not, what is the cheapest way to get there."""

from importlib import metadata as _metadata

try:
    __version__ = _metadata.version("gpucheck")
except _metadata.PackageNotFoundError:  # running from a source tree or a frozen bundle
    __version__ = "0.1.0"
