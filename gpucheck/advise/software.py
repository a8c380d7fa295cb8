"""Software that stands between the GPU and training: driver, PyTorch build, bitsandbytes.

Pure: (Machine, Workload) → tuple[SoftwareFix, ...], each with the exact command to copy.
Which PyTorch build fits which GPU and driver is data (resources/advice.toml [[torch_build]]).
"""

from __future__ import annotations

import re
import sys

from gpucheck.advise.data import TorchBuild, factor, torch_builds
from gpucheck.advise.mirrors import hf_env_prefix, pip_mirror_arg, pip_torch_command
from gpucheck.advise.model import SoftwareFix
from gpucheck.i18n import tr, tr_text
from gpucheck.machine import Framework, Gpu, Machine, reason_shown
from gpucheck.records import Workload


def _version(text: str | None) -> tuple[int, ...] | None:
    if not text:
        return None
    nums = re.findall(r"\d+", text)
    return tuple(int(n) for n in nums[:3]) if nums else None


def _cc(gpu: Gpu) -> float | None:
    try:
        return float(gpu.compute_capability) if gpu.compute_capability else None
    except ValueError:
        return None


def _torch(machine: Machine) -> Framework | None:
    for fw in machine.software.frameworks:
        if fw.name == "torch":
            return fw
    return None


def pip_command(variant: str | None) -> str:
    """The pip command for this PyTorch build (through domestic mirrors in mainland China: mirrors.py)."""
    url = None if variant is None else str(factor("torch_builds", "index_url")).format(variant=variant)
    return pip_torch_command(variant, url)


def _driver_ok(b: TorchBuild, driver_version: str | None, driver_cuda: str | None, windows: bool) -> bool | None:
    """Can this driver run build `b`? CUDA minor-version compatibility: any driver at or above the
    build's minimum runs it, whatever CUDA version the driver reports. None = unknown."""
    drv = _version(driver_version)
    if drv is not None:
        return drv >= _version(b.min_driver_windows if windows else b.min_driver_linux)
    cuda = _version(driver_cuda)
    if cuda is not None:
        return cuda[0] >= _version(b.cuda)[0]
    return None


def best_build(cc: float | None, driver_version: str | None = None, driver_cuda: str | None = None,
               windows: bool = False) -> tuple[TorchBuild | None, bool]:
    """The newest PyTorch CUDA build for this GPU and driver → (build, driver_is_new_enough).

    When the driver is too old for every build that includes the GPU, returns the oldest such build
    and False (update the driver first)."""
    fits_gpu = [b for b in torch_builds() if b.recommend and (cc is None or b.min_cc <= cc <= b.max_cc)]
    if not fits_gpu:
        return None, True
    # the newest build that does not need a brand-new driver (for an unknown or too-old driver)
    lowest = min(_version(b.min_driver_linux) for b in fits_gpu)
    modest = next(b for b in fits_gpu if _version(b.min_driver_linux) == lowest)
    for b in fits_gpu:  # newest first, as listed in advice.toml
        ok = _driver_ok(b, driver_version, driver_cuda, windows)
        if ok is None:
            return modest, True
        if ok:
            return b, True
    return modest, False


def _driver_command(machine: Machine) -> str:
    platform = (machine.software.platform or "").lower()
    if platform == "windows":
        return "https://www.nvidia.com/Download/index.aspx"
    if platform == "wsl":
        return tr("install the newest Windows NVIDIA driver (WSL uses the Windows driver)")
    return "sudo ubuntu-drivers install"


def software_fixes(machine: Machine | None, workload: Workload | None = None) -> tuple[SoftwareFix, ...]:
    if machine is None:
        return ()
    gpus = machine.compute_gpus()
    if not gpus:
        nvidia = [g for g in machine.gpus if g.vendor == "nvidia"]
        if nvidia:
            return (SoftwareFix(
                id="driver_missing", severity="error",
                message=tr("{gpu} was found, but no working NVIDIA driver: nothing can train on it until the driver "
                           "is installed.", gpu=nvidia[0].name),
                command=_driver_command(machine),
            ),)
        return ()
    g = gpus[0]
    if g.vendor == "nvidia":
        return tuple(_nvidia(machine, g))
    if g.vendor == "amd":
        return tuple(_amd(machine, g))
    if g.vendor == "apple":
        return tuple(_apple(machine, g, workload))
    return ()


def _nvidia(machine: Machine, g: Gpu) -> list[SoftwareFix]:
    out: list[SoftwareFix] = []
    cc = _cc(g)
    driver_cuda = g.cuda_driver_version or machine.software.cuda_driver_version
    driver_version = g.driver_version or machine.software.nvidia_driver_version
    windows = (machine.software.platform or "").lower() == "windows"
    build, driver_ok = best_build(cc, driver_version, driver_cuda, windows)
    if build is None:
        return [SoftwareFix(
            id="torch_arch", severity="error",
            message=tr("{gpu} (compute capability {cc}) is too old for current PyTorch builds.", gpu=g.name,
                       cc=g.compute_capability),
            command=None,
        )]
    cmd = pip_command(build.variant)
    if not driver_ok:
        out.append(SoftwareFix(
            id="driver_too_old", severity="error",
            message=tr("The NVIDIA driver ({have}) is too old for current PyTorch builds, which need driver {need} "
                       "or newer. Update the driver first, then install PyTorch.",
                       have=driver_version or tr("CUDA {v}", v=driver_cuda),
                       need=build.min_driver_windows if windows else build.min_driver_linux),
            command=_driver_command(machine),
        ))
    torch = _torch(machine)
    if torch is None:
        out.append(SoftwareFix(
            id="torch_missing", severity="info",
            message=tr("PyTorch is not installed in the Python this scan found. Install the build for {gpu}:",
                       gpu=g.name),
            command=cmd,
        ))
        return out
    variant = (torch.variant or "").lower()
    if variant == "cpu" or (torch.cuda_version is None and torch.can_use_gpu is False):
        out.append(SoftwareFix(
            id="torch_cpu_only", severity="error",
            message=tr("The installed PyTorch {v} is a CPU-only build: it cannot use {gpu}. Replace it with a "
                       "CUDA build:", v=torch.version, gpu=g.name),
            command=cmd,
        ))
        return out
    if torch.cuda_version:
        installed = next((b for b in torch_builds() if _version(b.cuda)[:2] == _version(torch.cuda_version)[:2]), None)
        if cc is not None and installed is not None and not (installed.min_cc <= cc <= installed.max_cc):
            out.append(SoftwareFix(
                id="torch_arch", severity="error",
                message=tr("The installed PyTorch {v} (CUDA {cuda}) has no kernels for {gpu} (compute capability "
                           "{cc}); it fails with 'no kernel image is available'. Install the {variant} build:",
                           v=torch.version, cuda=torch.cuda_version, gpu=g.name, cc=g.compute_capability,
                           variant=build.variant),
                command=cmd,
            ))
            return out
        if installed is not None and _driver_ok(installed, driver_version, driver_cuda, windows) is False:
            out.append(SoftwareFix(
                id="torch_driver", severity="error",
                message=tr("The installed PyTorch was built for CUDA {cuda}, but the driver supports only CUDA "
                           "{have}. Update the NVIDIA driver, or install the build that matches it:",
                           cuda=torch.cuda_version, have=driver_cuda),
                command=cmd,
            ))
            return out
    if torch.can_use_gpu is False:
        out.append(SoftwareFix(
            id="torch_no_gpu", severity="error",
            message=tr("PyTorch {v} is installed but cannot use the GPU ({why}). Reinstalling the matching build "
                       "usually fixes it:", v=torch.version, why=reason_shown(torch) or tr("reason unknown")),
            command=cmd,
        ))
    return out


def _amd(machine: Machine, g: Gpu) -> list[SoftwareFix]:
    platform = (machine.software.platform or "").lower()
    torch = _torch(machine)
    rocm = str(factor("torch_builds", "rocm_variant"))
    if platform == "windows":
        return [SoftwareFix(
            id="rocm_build", severity="warning",
            message=tr("PyTorch's official ROCm builds for AMD GPUs run on Linux. On Windows, train under Linux "
                       "(dual boot) or use a cloud GPU."),
            command=None,
        )]
    out: list[SoftwareFix] = []
    if torch is None or (torch.rocm_version is None and torch.can_use_gpu is not True):
        out.append(SoftwareFix(
            id="rocm_build", severity="error" if torch else "info",
            message=tr("Install the ROCm build of PyTorch for {gpu}:", gpu=g.name) if torch is None else
            tr("The installed PyTorch {v} is not a ROCm build: it cannot use {gpu}. Replace it:",
               v=torch.version, gpu=g.name),
            command=pip_command(rocm),
        ))
    gfx = (g.compute_capability or "").lower()
    supported = tuple(factor("rocm", "supported_gfx"))
    override = factor("rocm", "override").get(gfx)
    if gfx.startswith("gfx") and gfx not in supported:
        out.append(SoftwareFix(
            id="rocm_gfx", severity="warning",
            message=tr("{gpu} ({gfx}) is not on ROCm's list of supported GPUs, so PyTorch has no kernels built for "
                       "it. Telling ROCm to use a close relative's kernels usually works (unofficial):", gpu=g.name,
                       gfx=gfx) if override else
            tr("{gpu} ({gfx}) is not on ROCm's list of supported GPUs: PyTorch may not run on it.", gpu=g.name,
               gfx=gfx),
            command=f"export HSA_OVERRIDE_GFX_VERSION={override}" if override else None,
        ))
    return out


def macos_too_old_for_mps(machine: Machine) -> str | None:
    """The macOS version PyTorch's Apple-GPU backend needs, when this Mac's is older (else None)."""
    need = str(factor("torch_builds", "mps_min_macos"))
    have = _version(machine.software.os_version) if machine.software.os_name == "macOS" else None
    return need if have is not None and have < (_version(need) or ()) else None


def _apple(machine: Machine, g: Gpu, workload: Workload | None) -> list[SoftwareFix]:
    out: list[SoftwareFix] = []
    torch = _torch(machine)
    need = macos_too_old_for_mps(machine)
    if need is not None:
        out.append(SoftwareFix(
            id="macos_too_old", severity="error",
            message=tr("PyTorch uses the Apple GPU (MPS) only on macOS {need} or later; this Mac has macOS {have}. "
                       "Update macOS first (Apple menu → System Preferences → Software Update), then install PyTorch:",
                       need=need, have=machine.software.os_version),
            command="pip install torch torchvision" + pip_mirror_arg(),
        ))
    elif torch is None:
        out.append(SoftwareFix(
            id="torch_missing", severity="info",
            message=tr("PyTorch is not installed. The standard macOS build uses the Apple GPU (MPS):"),
            command="pip install torch torchvision" + pip_mirror_arg(),
        ))
    elif torch.can_use_gpu is False:
        out.append(SoftwareFix(
            id="mps_unavailable", severity="error",
            message=tr("PyTorch cannot use the Apple GPU (MPS). This happens with an Intel (x86_64) Python running "
                       "under Rosetta or macOS older than 12.3. Check that this prints 'arm64', then reinstall "
                       "PyTorch in an arm64 Python:"),
            command="python3 -c \"import platform; print(platform.machine())\"",
        ))
    if workload is not None and (workload.train.method == "qlora" or workload.train.optimizer == "adamw-8bit"):
        mlx_model = tr("a 4-bit MLX model")  # a placeholder the reader replaces, in the reader's language
        out.append(SoftwareFix(
            id="no_bitsandbytes", severity="warning",
            message=tr("bitsandbytes (4-bit QLoRA, 8-bit optimizers) does not train on Apple GPUs. Use LoRA on a "
                       "16-bit model with PyTorch, or MLX, which fine-tunes 4-bit models on Apple silicon:"),
            # two commands, one a line: each copies whole, and fits a printed page
            command=f"pip install mlx-lm{pip_mirror_arg()}\n{hf_env_prefix()}mlx_lm.lora --model "
                    f"<{mlx_model}> --train --data ./data",
        ))
    return out


def torch_install_hint(machine: Machine | None) -> str:
    """One sentence: what to install so the deep scan can measure this machine's GPU (passed to
    gpucheck.bench.measure by its caller)."""
    vendors = {g.vendor for g in machine.compute_gpus()} if machine is not None else set()
    if getattr(sys, "frozen", False):
        return tr_text("The desktop app cannot load PyTorch, so the GPU was not measured. To measure it, "
                  "install PyTorch in a Python environment and run 'gpucheck scan --deep' from there.")
    if "apple" in vendors or (not vendors and sys.platform == "darwin"):
        return tr_text("PyTorch is not installed, so the GPU was not measured. Install it with: pip install torch "
                  "(it includes Apple's MPS backend), then run the deep scan again.")
    if "amd" in vendors:
        if sys.platform != "linux":
            return tr_text("PyTorch with ROCm (AMD GPUs) is available on Linux only, so this AMD GPU cannot be "
                      "measured on this system.")
        return tr_text("PyTorch is not installed, so the GPU was not measured. Install the ROCm build with: {cmd}",
                  cmd=_pip_command(machine, "amd")[0])
    if "nvidia" in vendors or not vendors:
        cmd, driver_ok = _pip_command(machine, "nvidia")
        if not driver_ok:
            return tr_text("PyTorch is not installed, so the GPU was not measured. Update the NVIDIA driver, then "
                      "install the CUDA build with: {cmd}", cmd=cmd)
        return tr_text("PyTorch is not installed, so the GPU was not measured. Install the CUDA build with: {cmd}",
                  cmd=cmd)
    return tr_text("PyTorch is not installed, so the GPU was not measured (see pytorch.org/get-started for "
              "the build that fits this GPU).")


def _pip_command(machine: Machine | None, vendor: str) -> tuple[str, bool]:
    """(pip command for the PyTorch build that fits this GPU and driver, driver new enough?) — the
    build table and the choice are the advice module's (resources/advice.toml [[torch_build]])."""
    try:
        if vendor == "amd":
            return pip_command(str(factor("torch_builds", "rocm_variant"))), True
        gpus = [g for g in machine.compute_gpus() if g.vendor == "nvidia"] if machine is not None else []
        g = gpus[0] if gpus else None
        try:
            cc = float(g.compute_capability) if g is not None and g.compute_capability else None
        except ValueError:
            cc = None
        build, driver_ok = best_build(cc, g.driver_version if g else None, g.cuda_driver_version if g else None,
                                      windows=sys.platform == "win32")
        return pip_command(build.variant if build else None), driver_ok
    except Exception:  # the advice tables failing must not hide the hint
        return "pip install torch --index-url https://download.pytorch.org/whl/cu128", True


def torch_pip_command(machine: Machine | None) -> str:
    """The pip command that installs PyTorch for this PC: the CUDA build that fits its NVIDIA GPU and driver,
    the ROCm build for a Radeon on Linux, the CPU-only build on Linux without a GPU (a smaller download), and
    the plain wheel elsewhere (macOS's includes MPS; Windows' is CPU-only). The trial's missing-library line;
    the CUDA build comes from `best_build` over advice.toml [[torch_build]], as in the advice's fixes and the
    deep scan's hint."""
    vendors = {g.vendor for g in machine.compute_gpus()} if machine is not None else set()
    platform = (machine.software.platform or "").lower() if machine is not None else ""
    if "nvidia" in vendors:
        return _pip_command(machine, "nvidia")[0]
    if "amd" in vendors and platform in ("linux", "wsl"):
        return _pip_command(machine, "amd")[0]
    if not vendors and platform in ("linux", "wsl"):
        return pip_command("cpu")
    return pip_command(None)
