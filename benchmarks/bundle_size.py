"""Where the installed size of the frozen app goes, and how big the installers are.

    bash packaging/linux/build-deb.sh        # (or the macOS / Windows script) first
    python benchmarks/bundle_size.py [dist/gpucheck]

Prints the one-folder app's total size, its biggest parts grouped (Qt libraries, ICU, Qt plugins,
Python, Pillow, gpucheck's resources …) and the size of every installer found in dist/.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GROUPS = (  # first match wins; matched against the path inside the bundle, with forward slashes
    ("ICU data and libraries", ("libicu", "icudt", "icuin", "icuuc")),
    ("Qt plugins", ("/plugins/",)),
    ("Qt libraries", ("Qt6", "libQt6", "Qt/lib/Qt")),
    ("PySide6/shiboken bindings", ("PySide6/", "shiboken6/")),
    ("Pillow (deep scan JPEG benchmark)", ("PIL/", "pillow.libs/", "pillow")),
    ("Python runtime and standard library", ("libpython", "python3", "base_library.zip", "lib-dynload", "python3")),
    ("gpucheck resources (catalogs, fonts, icons, translations)", ("resources/",)),
)


def _group(rel: str) -> str:
    for name, needles in GROUPS:
        if any(n in rel for n in needles):
            return name
    return "other"


def main(argv: list[str]) -> int:
    app = Path(argv[0]) if argv else ROOT / "dist" / "gpucheck"
    if not app.is_dir():
        print(f"bundle_size: {app} does not exist; build it first (packaging/linux/build-deb.sh)", file=sys.stderr)
        return 2
    sizes: dict[str, int] = defaultdict(int)
    total = 0
    for p in app.rglob("*"):
        if p.is_file() and not p.is_symlink():
            n = p.stat().st_size
            total += n
            sizes[_group(p.relative_to(app).as_posix())] += n
    print(f"{app}: {total / 2**20:.1f} MiB")
    for name, n in sorted(sizes.items(), key=lambda kv: -kv[1]):
        print(f"  {n / 2**20:7.1f} MiB  {name}")
    for pattern in ("*.deb", "*.tar.gz", "*.dmg", "*.exe"):
        for f in sorted((app.parent).glob(pattern)):
            print(f"{f.name}: {f.stat().st_size / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
