"""Entry point of the frozen app (PyInstaller): the same main() as `python -m gpucheck`.

freeze_support() must run first: on Windows and macOS a frozen app re-executes itself for every
multiprocessing child, and without it each child would open another window.
"""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from gpucheck.__main__ import main

    sys.exit(main())
