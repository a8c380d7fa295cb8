"""Write the Windows version resource (File → Properties → Details) for PyInstaller.

    python packaging/windows/version_info.py 0.1.0 build/win-version.txt
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

TEMPLATE = """VSVersionInfo(
  ffi=FixedFileInfo(filevers={v4}, prodvers={v4}, mask=0x3f, flags=0x0, OS=0x40004, fileType=0x1,
                    subtype=0x0, date=(0, 0)),
  kids=[
    StringFileInfo([StringTable('040904B0', [
      StringStruct('CompanyName', 'gpucheck developers'),
      StringStruct('FileDescription', 'gpucheck - can my PC train this?'),
      StringStruct('FileVersion', '{version}'),
      StringStruct('InternalName', 'gpucheck'),
      StringStruct('LegalCopyright', 'MIT License'),
      StringStruct('OriginalFilename', 'gpucheck.exe'),
      StringStruct('ProductName', 'gpucheck'),
      StringStruct('ProductVersion', '{version}')])]),
    VarFileInfo([VarStruct('Translation', [1033, 1200])])
  ]
)
"""


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    version, out = argv
    nums = [int(n) for n in re.findall(r"\d+", version)[:4]]
    v4 = tuple(nums + [0] * (4 - len(nums)))
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(TEMPLATE.format(v4=v4, version=version), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
