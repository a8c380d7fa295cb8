"""Build hook: ship resources/ inside the wheel as gpucheck/_resources/.

All metadata lives in pyproject.toml. resources/ sits at the repository root (shared by the source
tree, the PyInstaller spec and the wheel); gpucheck.resources.resource_root() looks for it in
sys._MEIPASS/resources (frozen), gpucheck/_resources (installed wheel) and ../resources (source tree).
An editable install keeps using ../resources, so nothing is copied for it.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".DS_Store")


class build_py_with_resources(build_py):  # noqa: N801 (setuptools command naming)
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        src = ROOT / "resources"
        if not src.is_dir():
            raise SystemExit(f"setup.py: {src} is missing; build from a full source tree or sdist")
        dest = Path(self.build_lib) / "gpucheck" / "_resources"
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(src, dest, ignore=SKIP)

    def get_outputs(self, include_bytecode=1):
        outputs = list(super().get_outputs(include_bytecode))
        dest = Path(self.build_lib) / "gpucheck" / "_resources"
        if dest.is_dir():
            outputs += [str(p) for p in dest.rglob("*") if p.is_file()]
        return outputs


setup(cmdclass={"build_py": build_py_with_resources})
