"""Count the peak of live tensors while Stable Diffusion's VAE encodes one training image (latents not cached).

    /path/to/python-with-torch-and-diffusers benchmarks/count_vae_encode_peak.py [--out FILE]

Runs with a Python that has torch and diffusers (the trial's), not gpucheck's. Builds diffusers' AutoencoderKL from
each catalog VAE's published vae/config.json (resources/models/sd15/vae.json, resources/models/sdxl/vae.json: the
same architecture, 83.7M parameters), with diffusers' default attention processor (AttnProcessor2_0: PyTorch's
fused scaled_dot_product_attention, no score matrix), in eval mode, and runs what the training scripts run on every
step when latents are not cached (diffusers examples/text_to_image/train_text_to_image_lora.py,
train_text_to_image_lora_sdxl.py, examples/dreambooth/train_dreambooth.py; kohya sd-scripts without --cache_latents):
`vae.encode(pixel_values).latent_dist.sample()` under torch.no_grad(), batch 1, at 256, 512 and 1024 px, with the VAE
and the pixels in fp32 and in 16 bits (CUDA fp16 emulated on the CPU with bf16: the same 2-byte elements; the scripts
cast the VAE itself with vae.to(dtype=weight_dtype), no autocast).

Two independent counts:

- dispatch: a TorchDispatchMode sees every aten operator's outputs; each output storage not seen before is live
  from then on, until its StorageWeakRef expires (checked after every operator, before the new outputs are added);
  the peak is the largest sum of live bytes right after an operator returned (its inputs and outputs alive together).
  Parameters and buffers are excluded; the input pixels are counted. What an operator allocates and frees inside
  itself (a convolution's workspace) is not seen: on CUDA that is cuDNN's workspace, a separate allocator matter.
- profiler (one configuration per dtype at 512 px): torch.profiler with profile_memory=True records every CPU allocator
  allocation and free in the encode; the running sum's maximum, plus the input pixels allocated before. It sees the
  operators' internal buffers too, so it may exceed the dispatch count by such transients. In fp32 the two agree
  (643.6 against 643.0 MiB at 512 px); in bf16 the profiler is one 16-bit full-resolution map higher (385.5 against
  321.5 MiB): aten::mkldnn_convolution makes a contiguous copy of its bf16 input (aten::contiguous -> aten::clone, the
  allocation at the profiler's peak), a CPU-only step that cuDNN's convolution does not take on a contiguous NCHW
  input. The catalog takes the dispatch count; cuDNN's own workspace is in neither.

The result per configuration: peak_mib (dispatch), the operator at which it happened, and mib_per_megapixel, which is
constant across sizes if the encode grows linearly with the pixels (fused attention: no tokens² matrix).
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import torch
from count_io import write_counts
from torch.multiprocessing.reductions import StorageWeakRef
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

ROOT = Path(__file__).resolve().parent.parent
MIB = 2.0**20
VAES = {"sd15": "resources/models/sd15/vae.json", "sdxl": "resources/models/sdxl/vae.json"}
SIZES = (256, 512, 1024)
DTYPES = {"fp32": torch.float32, "16bit": torch.bfloat16}


class LiveBytes(TorchDispatchMode):
    """The live tensor storages after every operator, and their largest sum."""

    def __init__(self, excluded: set[int]) -> None:
        super().__init__()
        self.excluded = excluded
        self.live: dict[int, tuple[StorageWeakRef, int]] = {}
        self.now = 0
        self.peak = 0
        self.peak_op = ""

    def track(self, t: torch.Tensor) -> None:
        s = t.untyped_storage()
        k = s.data_ptr()
        if not k or k in self.excluded or k in self.live:
            return
        self.live[k] = (StorageWeakRef(s), s.nbytes())
        self.now += s.nbytes()

    def sweep(self) -> None:
        for k, (ref, n) in list(self.live.items()):
            if ref.expired():
                del self.live[k]
                self.now -= n

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        self.sweep()
        for t in tree_flatten(out)[0]:
            if isinstance(t, torch.Tensor):
                self.track(t)
        if self.now > self.peak:
            self.peak, self.peak_op = self.now, str(func)
        return out


def build(config: str, dtype: torch.dtype):
    from diffusers import AutoencoderKL
    from diffusers.models.attention_processor import AttnProcessor2_0

    cfg = json.loads((ROOT / config).read_text(encoding="utf-8"))
    kw = {k: v for k, v in cfg.items() if not k.startswith("_")}
    torch.manual_seed(0)
    vae = AutoencoderKL(**kw).to(dtype).eval()
    vae.requires_grad_(False)
    vae.set_attn_processor(AttnProcessor2_0())
    return vae


def excluded(vae) -> set[int]:
    return {t.untyped_storage().data_ptr() for t in list(vae.parameters()) + list(vae.buffers())}


def dispatch_count(vae, pixels: int, dtype: torch.dtype) -> dict:
    mode = LiveBytes(excluded(vae))
    with torch.no_grad(), mode:
        x = torch.randn(1, 3, pixels, pixels, dtype=dtype)
        t0 = time.perf_counter()
        latents = vae.encode(x).latent_dist.sample()
        seconds = time.perf_counter() - t0
    del x, latents
    return {"peak_mib": round(mode.peak / MIB, 2), "peak_at": mode.peak_op,
            "mib_per_megapixel": round(mode.peak / MIB / (pixels * pixels / 1e6), 2), "seconds": round(seconds, 1)}


def profiler_count(vae, pixels: int, dtype: torch.dtype) -> dict:
    from torch._C._profiler import _EventType

    x = torch.randn(1, 3, pixels, pixels, dtype=dtype)
    with torch.no_grad(), torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU],
                                                 profile_memory=True) as prof:
        latents = vae.encode(x).latent_dist.sample()
    del latents

    def walk(nodes):
        for n in nodes:
            yield n
            yield from walk(n.children)

    allocs = sorted((n for n in walk(prof.profiler.kineto_results.experimental_event_tree())
                     if n.typed[0] == _EventType.Allocation), key=lambda n: n.start_time_ns)
    now = peak = 0
    for a in allocs:  # every allocation (+) and free (-) of the CPU allocator, in time order
        now += a.typed[1].alloc_size
        peak = max(peak, now)
    peak += x.untyped_storage().nbytes()
    return {"peak_mib": round(peak / MIB, 2), "allocator_events": len(allocs)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "benchmarks/data/vae-encode-peak.json"))
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    args = ap.parse_args()
    torch.set_num_threads(max(1, torch.get_num_threads()))
    runs: dict[str, dict] = {}
    for name, config in VAES.items():
        for dname, dtype in DTYPES.items():
            vae = build(config, dtype)
            for pixels in map(int, args.sizes.split(",")):
                r = dispatch_count(vae, pixels, dtype)
                if pixels == 512:
                    r["profiler"] = profiler_count(vae, pixels, dtype)
                runs[f"{name}/{dname}/{pixels}"] = r
                print(name, dname, pixels, json.dumps(r), flush=True)
            del vae
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    write_counts(args.out, __doc__, runs, diffusers=__import__("diffusers").__version__, machine=platform.machine(),
                 processor="AttnProcessor2_0 (scaled_dot_product_attention)", batch=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
