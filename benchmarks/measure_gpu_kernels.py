"""Measure, on a machine with an NVIDIA GPU, three things the speed and memory model cannot settle from publications:

1. layout: a 16-bit conv net's training step with NCHW maps against channels-last ones, and how much of each step
   the GPU spends in layout-conversion kernels (cuDNN's NCHW <-> NHWC transposes; docs/evidence.md, "NCHW layout
   transposes: tried, not priced", benchmarks/count_conv_layout.py counts what they would move);
2. host: what the CPU pays per launched kernel on this machine's stack, for a bare operator and for a small
   transformer layer's forward + backward whose GPU work is far shorter than its launches (factors.toml [dispatch]
   launch_us is fitted on published rows of older stacks);
3. workspaces: what the first cuBLAS GEMMs leave allocated and reserved in PyTorch's caching allocator (the reserve
   of small jobs, e.g. the H200 mnist-cnn trial's 0.145 GiB).

    python benchmarks/measure_gpu_kernels.py [--device cuda|cpu] [--out FILE] [--steps N]

Runs in the trial's Python (torch and torchvision), not gpucheck's; benchmarks/device_check.sh runs it last. On a CPU
(`--device cpu`, for checking the script) only the layout steps and the per-operator host cost run. Prints one JSON
object; with --out also writes it.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import torch

LAYOUT_KERNELS = ("nchwtonhwc", "nhwctonchw", "transpose", "nchw2nhwc", "nhwc2nchw", "convert_layout")


def _sync(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def _kernel_groups(prof) -> dict[str, float]:
    """GPU kernel milliseconds per step, grouped: layout conversions, convolutions and GEMMs, the rest; and the 25
    longest kernels by name."""
    out: dict = {"layout_ms": 0.0, "conv_gemm_ms": 0.0, "other_ms": 0.0, "kernels": 0, "top": []}
    for e in prof.key_averages():
        # the kernels themselves (device events), not the CPU operators whose totals include them
        if e.device_type != torch.autograd.DeviceType.CUDA or e.key.startswith(("Memcpy", "Memset")):
            continue
        t = e.self_device_time_total
        name = e.key.lower()
        group = ("layout_ms" if any(k in name for k in LAYOUT_KERNELS) else
                 "conv_gemm_ms" if any(k in name for k in ("conv", "gemm", "sm80", "sm90", "cutlass", "xmma", "implicit"))
                 else "other_ms")
        out[group] += t / 1000.0
        out["kernels"] += e.count
        out["top"].append([e.key[:120], round(t / 1000.0, 3), e.count])
    out["top"] = sorted(out["top"], key=lambda k: -k[1])[:25]  # the names, for reading what the groups missed
    return out


def _layout_row(name: str, fmt: str, device: str, steps: int, batch: int, size: int) -> dict:
    import torchvision

    torch.manual_seed(0)
    dtype = torch.float16 if device == "cuda" else torch.bfloat16
    mf = torch.channels_last if fmt == "channels_last" else torch.contiguous_format
    model = getattr(torchvision.models, name)(weights=None).to(device, memory_format=mf)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    scaler = torch.amp.GradScaler(device, enabled=device == "cuda")
    x = torch.randn(batch, 3, size, size, device=device).contiguous(memory_format=mf)
    y = torch.randint(0, 1000, (batch,), device=device)

    def step() -> None:
        with torch.autocast(device, dtype=dtype):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()

    for _ in range(3):
        step()
    _sync(device)
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        step()
        _sync(device)
        times.append(time.perf_counter() - t0)
    row = {"step_s": statistics.median(times), "batch": batch, "image": size}
    if device == "cuda":
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            step()
            _sync(device)
        row.update(_kernel_groups(prof))
    return row


def layout(device: str, steps: int, batch: int, size: int) -> dict:
    """Median step seconds of torchvision ResNet-50 / ResNet-18 under fp16 autocast (bf16 on a CPU), NCHW against
    channels-last, and (CUDA) one profiled step's kernel time by group."""
    return {f"{name}-{fmt}": _layout_row(name, fmt, device, steps, batch, size)
            for name in ("resnet50", "resnet18") for fmt in ("nchw", "channels_last")}


def host(device: str, reps: int = 2000) -> dict:
    """Host microseconds per operator: a bare in-place add on a one-element tensor (dispatch + launch), and a
    transformer layer's forward + backward at 1 x 8 tokens (Python modules, autograd, launches) per launched kernel."""
    x = torch.zeros(1, device=device)
    for _ in range(50):
        x.add_(1.0)
    _sync(device)
    t0 = time.perf_counter()
    for _ in range(reps):
        x.add_(1.0)
    per_add_us = (time.perf_counter() - t0) / reps * 1e6  # the launches queue ahead of the GPU: host time
    _sync(device)
    layer = torch.nn.TransformerEncoderLayer(768, 12, 3072, dropout=0.1, batch_first=True, norm_first=True).to(device)
    h = torch.randn(1, 8, 768, device=device, requires_grad=True)

    def step() -> None:
        layer(h).sum().backward()

    for _ in range(10):
        step()
    _sync(device)
    t0 = time.perf_counter()
    n = 200
    for _ in range(n):
        step()
    _sync(device)
    per_step_s = (time.perf_counter() - t0) / n
    out = {"add_us_per_op": per_add_us, "layer_step_s": per_step_s}
    if device == "cuda":
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            step()
            _sync(device)
        launches = sum(e.count for e in prof.key_averages() if e.key in ("cudaLaunchKernel", "cuLaunchKernel",
                                                                          "cudaLaunchKernelExC", "cuLaunchKernelEx"))
        out.update({"layer_launches": launches, "layer_us_per_launch": per_step_s * 1e6 / max(1, launches)})
    return out


def workspaces() -> dict:
    """Allocated and reserved bytes after the first fp16 and the first fp32 GEMM of a fresh process."""
    out = {"start": [torch.cuda.memory_allocated(), torch.cuda.memory_reserved()]}
    for dtype in (torch.float16, torch.float32):
        a = torch.randn(256, 256, device="cuda", dtype=dtype)
        before = torch.cuda.memory_allocated()
        c = a @ a
        torch.cuda.synchronize()
        out[str(dtype)] = {"allocated_after": torch.cuda.memory_allocated(), "operands": before,
                           "reserved_after": torch.cuda.memory_reserved(), "result_bytes": c.numel() * c.element_size()}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--out")
    ap.add_argument("--steps", type=int, default=20)
    a = ap.parse_args()
    on_gpu = a.device == "cuda"
    res: dict = {"about": __doc__.split("\n\n")[0], "torch": torch.__version__, "python": platform.python_version(),
                 "device": torch.cuda.get_device_name(0) if on_gpu else platform.processor() or "cpu",
                 "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version() if on_gpu else None}
    if on_gpu:
        res["workspaces"] = workspaces()  # first, in a fresh allocator
    res["host"] = host(a.device)
    res["layout"] = layout(a.device, a.steps if on_gpu else 2, 64 if on_gpu else 2, 224 if on_gpu else 64)
    text = json.dumps(res, indent=1)
    print(text)
    if a.out:
        Path(a.out).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
