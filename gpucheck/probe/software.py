"""Software: the OS, Python, and the installed AI frameworks — found WITHOUT importing them.

Importing torch takes seconds and may crash on a broken install, so versions come from the installed
distributions' folders (torch-2.3.1.dist-info, as importlib.metadata finds them, without loading it) and
the CUDA/ROCm a build was made for from the file the build wrote
(`torch/version.py`: `cuda = '12.1'`, `hip = None`; TensorFlow's `build_info.py`; jax's plugin
packages). `judge()` then says whether that build can drive the GPU that was found (resources/probe.toml
holds the first CUDA version each compute capability needs).
"""

from __future__ import annotations

import dataclasses
import glob as _glob
import os
import platform as _platform
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from gpucheck.i18n import tr_text
from gpucheck.machine import Framework, Gpu, Software, kept
from gpucheck.probe.base import Part, Sources
from gpucheck.probe.facts import nvidia_cc, version_key
from gpucheck.probe.linux import is_wsl


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def parse_torch_version_py(text: str) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for key in ("__version__", "cuda", "hip", "rocm", "xpu", "git_version"):
        m = re.search(rf"^{key}\s*(?::\s*[^=]+)?=\s*(?:'([^']*)'|\"([^\"]*)\"|(None))", text, re.M)
        if m:
            out[key] = m.group(1) if m.group(1) is not None else (m.group(2) if m.group(2) is not None else None)
    return out


def _variant(version: str) -> str | None:
    m = re.search(r"\+(\w[\w.]*)$", version)
    return m.group(1) if m else None


def _dist_files_root(dist) -> Path | None:
    try:
        return Path(dist.locate_file(""))
    except Exception:  # noqa: BLE001 — odd distributions (eggs, zips)
        return None


def _dist_version(dist) -> str:
    """The installed version; from the folder name (torch-2.3.1.dist-info) when METADATA is damaged."""
    try:
        v = dist.version
    except Exception:  # noqa: BLE001 — unreadable or binary METADATA of a half-removed install
        v = None
    if isinstance(v, str) and v:
        return v
    folder = getattr(getattr(dist, "_path", None), "name", "") or ""
    m = re.match(r"[^-]+-(.+?)\.(?:dist|egg)-info$", folder)
    return m.group(1) if m else "unknown"


class _Dist:
    """One installed distribution, found by its metadata folder in a path entry (what importlib.metadata's
    PathDistribution reads; importing importlib.metadata costs the scan more than the lookup itself)."""

    def __init__(self, folder: Path):
        self._path = folder
        self._normalized_name = re.split(r"[-.]", folder.name, maxsplit=1)[0]

    def locate_file(self, name: str) -> Path:
        return self._path.parent / name

    @property
    def version(self) -> str | None:
        """The Version field of METADATA (PKG-INFO for an egg); None when there is none."""
        meta = self._path / ("PKG-INFO" if self._path.name.endswith(".egg-info") else "METADATA")
        with open(meta, encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    break  # the headers end at the first blank line
                if line.lower().startswith("version:"):
                    return line.split(":", 1)[1].strip() or None
        return None


def _distributions(paths: list[str]):
    for entry in paths:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # not a folder (a zip on sys.path), gone, or unreadable
            continue
        for n in names:
            if n.endswith((".dist-info", ".egg-info")):
                yield _Dist(Path(entry or ".") / n)


def find_frameworks(paths: tuple[str, ...] | None = None) -> tuple[Framework, ...]:
    found: dict[str, Framework] = {}
    names: dict[str, object] = {}
    for dist in _distributions(list(paths) if paths is not None else sys.path):
        # The folder name (torch-2.3.1.dist-info) gives the name without reading every METADATA file.
        name = dist._normalized_name.lower().replace("_", "-")
        if name in ("torch", "tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tensorflow-macos", "jax", "jaxlib",
                    "tensorflow-metal", "jax-metal", "torch-directml", "intel-extension-for-pytorch") \
                or name.startswith("jax-cuda") or name.startswith("nvidia-cudnn") or name.startswith("jax-rocm"):
            names.setdefault(name, dist)
    t = names.get("torch")
    if t is not None:
        version = _dist_version(t)
        root = _dist_files_root(t)
        info = parse_torch_version_py(_read(root / "torch" / "version.py") or "") if root else {}
        cuda, hip = info.get("cuda"), info.get("hip") or info.get("rocm")
        variant = _variant(version)
        if variant is None:
            variant = f"cu{cuda.replace('.', '')}" if cuda else (f"rocm{hip}" if hip else None)
        found["torch"] = Framework(name="torch", version=version, cuda_version=cuda, rocm_version=hip,
                                   variant=variant, location=str(root / "torch") if root else None)
    for tf_name in ("tensorflow", "tensorflow-gpu", "tensorflow-cpu", "tensorflow-macos"):
        d = names.get(tf_name)
        if d is None or "tensorflow" in found:
            continue
        root = _dist_files_root(d)
        text = _read(root / "tensorflow" / "python" / "platform" / "build_info.py") if root else None
        cuda = None
        rocm = None
        if text:
            m = re.search(r"['\"]cuda_version['\"]\s*:\s*['\"]([\d.]+)['\"]", text)
            cuda = m.group(1) if m else None
            m = re.search(r"['\"]rocm_version['\"]\s*:\s*['\"]([\d.]+)['\"]", text)
            rocm = m.group(1) if m else None
        variant = "cpu" if tf_name == "tensorflow-cpu" else ("metal" if "tensorflow-metal" in names else None)
        found["tensorflow"] = Framework(name="tensorflow", version=_dist_version(d), cuda_version=cuda, rocm_version=rocm,
                                        variant=variant or (f"cuda{cuda}" if cuda else None),
                                        location=str(root / "tensorflow") if root else None)
    j = names.get("jax")
    if j is not None:
        cuda_plugin = next((n for n in names if n.startswith("jax-cuda")), None)
        rocm_plugin = next((n for n in names if n.startswith("jax-rocm")), None)
        cuda = None
        if cuda_plugin:
            m = re.search(r"cuda(\d+)", cuda_plugin)
            cuda = f"{m.group(1)}.0" if m else None
        variant = cuda_plugin or rocm_plugin or ("metal" if "jax-metal" in names else "cpu")
        found["jax"] = Framework(name="jax", version=_dist_version(j), cuda_version=cuda, variant=variant,
                                 rocm_version=None)
    return tuple(found[k] for k in ("torch", "tensorflow", "jax") if k in found)


def _judged(fw: Framework, can_use_gpu: bool | None, why: str) -> Framework:
    return dataclasses.replace(fw, can_use_gpu=can_use_gpu, **kept(why, "reason"))


def judge(fw: Framework, gpus: tuple[Gpu, ...], platform: str | None, cuda_driver: str | None) -> Framework:
    """Can this build drive the GPU a job would run on? Sets can_use_gpu and reason."""
    compute = [g for g in gpus if g.is_primary_compute] or [g for g in gpus if g.backend in ("cuda", "rocm", "metal")]
    if not compute:
        return _judged(fw, False, tr_text("no GPU it could use was found"))
    g = compute[0]
    if g.vendor == "nvidia":
        if fw.name == "jax" and fw.cuda_version is None or fw.name != "jax" and fw.cuda_version is None:
            return _judged(fw, False, tr_text(
                "this {name} build is CPU-only ({variant}); install a CUDA build to use the {gpu}",
                name=fw.name, variant=fw.variant or "cpu", gpu=g.name))
        row = nvidia_cc(g.compute_capability)
        if row and version_key(fw.cuda_version) < version_key(row.min_cuda):
            return _judged(fw, False, tr_text(
                "built for CUDA {have}, but the {gpu} (compute capability {cc}) needs CUDA {need} or newer",
                have=fw.cuda_version, gpu=g.name, cc=g.compute_capability, need=row.min_cuda))
        if cuda_driver and version_key(cuda_driver)[:1] < version_key(fw.cuda_version)[:1]:
            return _judged(fw, False, tr_text(
                "built for CUDA {have}, but the installed driver supports only CUDA {driver}: update the NVIDIA driver",
                have=fw.cuda_version, driver=cuda_driver))
        if row is None:
            return _judged(fw, None, tr_text(
                "CUDA build {have}; the GPU's compute capability is unknown, so support is not certain",
                have=fw.cuda_version))
        return _judged(fw, True, tr_text("CUDA {have} build supports compute capability {cc}",
                                         have=fw.cuda_version, cc=g.compute_capability))
    if g.vendor == "amd":
        if fw.rocm_version:
            return _judged(fw, True, tr_text("ROCm {v} build", v=fw.rocm_version))
        return _judged(fw, False, tr_text(
            "this {name} build has no ROCm support; install a ROCm build to use the {gpu}", name=fw.name, gpu=g.name))
    if g.vendor == "apple":
        if fw.name == "torch":
            ok = version_key(fw.version) >= (1, 12)
            return _judged(fw, ok, tr_text("PyTorch uses the Apple GPU through MPS")
                           if ok else tr_text("PyTorch before 1.12 has no Apple GPU (MPS) support"))
        if fw.variant == "metal":
            return _judged(fw, True, tr_text("Metal plugin installed"))
        return _judged(fw, False, tr_text("no Metal plugin installed for {name}", name=fw.name))
    return _judged(fw, None, tr_text("support for the {gpu} could not be judged", gpu=g.name))


def _os(src: Sources) -> tuple[str | None, str | None, str | None]:
    if src.system == "linux":
        rel = src.read("/etc/os-release") or ""
        m = re.search(r'^PRETTY_NAME="?([^"\n]*)"?', rel, re.M)
        return "Linux", (m.group(1) if m else None), _platform.release() if src.root == Path("/") else None
    if src.system == "darwin":
        v = _platform.mac_ver()[0]
        return "macOS", v or None, _platform.release()
    ver = _platform.version()
    rel = _platform.release()
    try:
        build = int(ver.split(".")[-1])
        if rel == "10" and build >= 22000:
            rel = "11"
    except (ValueError, IndexError):
        pass
    return "Windows", f"{rel} ({ver})", ver


# Where people's own Pythons keep their packages, by system ({home}, {env} are filled in; * is globbed).
# A frozen gpucheck has no site-packages of its own worth looking at, and even a pip-installed one may
# not live in the environment the user trains in, so these are searched too.
_USER_SITE_GLOBS = {
    "linux": ("{home}/.local/lib/python3*/site-packages", "/usr/lib/python3/dist-packages",
              "/usr/local/lib/python3*/site-packages", "/usr/local/lib/python3*/dist-packages"),
    "darwin": ("{home}/Library/Python/3*/lib/python/site-packages", "/opt/homebrew/lib/python3*/site-packages",
               "/usr/local/lib/python3*/site-packages",
               "/Library/Frameworks/Python.framework/Versions/3*/lib/python3*/site-packages"),
    "windows": ("{LOCALAPPDATA}/Programs/Python/Python3*/Lib/site-packages",
                "{APPDATA}/Python/Python3*/site-packages", "C:/Python3*/Lib/site-packages"),
}
_CONDA_ROOTS = ("miniconda3", "anaconda3", "miniforge3", "mambaforge")


def user_site_dirs(system: str, env: Mapping[str, str], home: str,
                   glob: Callable[[str], list[str]]) -> tuple[str, ...]:
    """Site-packages folders of the Pythons a user trains with: the active virtualenv/conda env first,
    then per-user and system Pythons, then conda/mamba installs and their envs. Pure: `glob` is injected."""
    lib = "Lib/site-packages" if system == "windows" else "lib/python3*/site-packages"
    patterns: list[str] = []
    for var in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        if env.get(var):
            patterns.append(f"{env[var]}/{lib}")
    fill = {"home": home, **{k: v for k, v in env.items() if k in ("LOCALAPPDATA", "APPDATA")}}
    for pat in _USER_SITE_GLOBS.get(system, ()):
        try:
            patterns.append(pat.format(**fill))
        except KeyError:  # e.g. no %LOCALAPPDATA%
            continue
    for root in _CONDA_ROOTS:
        patterns += [f"{home}/{root}/{lib}", f"{home}/{root}/envs/*/{lib}"]
    out: list[str] = []
    for pat in patterns:
        for path in sorted(glob(pat), reverse=True):  # newest Python first
            if path not in out:
                out.append(path)
    return tuple(out)


def _framework_paths(src: Sources) -> tuple[str, ...]:
    if src.site_paths is not None:
        return src.site_paths
    own = () if getattr(sys, "frozen", False) else tuple(p for p in sys.path if p)
    home = src.env.get("USERPROFILE" if src.system == "windows" else "HOME") or str(Path.home())
    extra = user_site_dirs(src.system, src.env, home, _glob.glob)
    return own + tuple(p for p in extra if p not in own)


def probe(src: Sources) -> Part:
    os_name, os_version, kernel = _os(src)
    platform = src.system
    if src.system == "linux" and is_wsl(src):
        platform = "wsl"
    frameworks = find_frameworks(_framework_paths(src))
    return Part(area="software", software=Software(
        os_name=os_name, os_version=os_version, platform=platform, kernel=kernel,
        python_version=src.python_version or None, frameworks=frameworks,
        rocm_version=src.read_strip("/opt/rocm/.info/version") if src.system == "linux" else None))
