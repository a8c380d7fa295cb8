"""How much disk a PyTorch training environment takes, and how much of it the CUDA build alone needs
(factors.toml [host.environment_gib]).

    python benchmarks/measure_environment_size.py [VENV] [--out FILE]

Sums the files of a virtual environment (default: the trial's, .venv-trial, which has PyPI's default torch wheel,
the CUDA build) and, inside it, what only the CUDA build installs: the nvidia-* wheels (cuBLAS, cuDNN, NCCL, ...),
triton (the GPU kernel compiler torch.compile uses) and torch's own CUDA libraries (torch/lib/*cuda*, *nvshmem*,
*nvrtc*). The CPU-only build (download.pytorch.org/whl/cpu, which gpucheck advises on a Linux PC without a GPU)
installs the rest: torch's CPU libraries and Python code, and the same other libraries.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CUDA_ONLY_DIRS = ("nvidia", "triton")
CUDA_ONLY_TORCH_LIBS = ("cuda", "nvshmem", "nvrtc", "cudnn", "cublas")


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def measure(venv: Path) -> dict:
    site = next(venv.glob("lib/python3*/site-packages"))
    total = _size(venv)
    cuda_dirs = {d: _size(site / d) for d in CUDA_ONLY_DIRS if (site / d).exists()}
    torch_cuda = {p.name: p.stat().st_size for p in (site / "torch" / "lib").iterdir()
                  if p.is_file() and any(k in p.name for k in CUDA_ONLY_TORCH_LIBS)}
    cuda_only = sum(cuda_dirs.values()) + sum(torch_cuda.values())
    gib = 1024 ** 3
    where = venv.resolve()
    shown = str(where.relative_to(ROOT)) if where.is_relative_to(ROOT) else where.name
    return {"venv": shown, "total_gib": round(total / gib, 2), "cuda_only_gib": round(cuda_only / gib, 2),
            "without_cuda_gib": round((total - cuda_only) / gib, 2),
            "cuda_only_parts_gib": {**{k: round(v / gib, 2) for k, v in cuda_dirs.items()},
                                    "torch/lib CUDA libraries": round(sum(torch_cuda.values()) / gib, 2)},
            "largest_packages_gib": {p.name: round(_size(p) / gib, 2) for p in sorted(
                (d for d in site.iterdir() if d.is_dir()), key=_size, reverse=True)[:8]}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("venv", nargs="?", default=str(ROOT / ".venv-trial"))
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "data" / "environment-size.json"))
    a = ap.parse_args()
    out = {"about": __doc__.split("\n\n", 2)[2].strip(), **measure(Path(a.venv))}
    print(json.dumps(out, indent=1))
    Path(a.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
