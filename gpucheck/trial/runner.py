"""The trial runner: a standalone script that the USER'S Python runs (`python runner.py < spec.json`).

It imports nothing from gpucheck (the packaged app cannot import PyTorch; any Python with torch can run
this file), reads one job spec as one JSON line on stdin (and stops when stdin closes: the parent is gone) and writes JSON lines on stdout: progress events
(`{"event": "phase", …}`) and, last, `{"event": "result", …}`. Whatever the libraries print goes to
stderr (file descriptor 1 is pointed at 2 before anything is imported), so stdout stays clean.

What it does: builds the job's model architecture with random weights, makes synthetic data, runs one
warm-up step and then timed training steps until `steps` or `max_seconds`, and measures step time and
peak memory (CUDA: torch.cuda.max_memory_allocated / reserved; Apple MPS: driver memory; CPU: the
process's peak resident memory). An out-of-memory error is caught and reported ("out_of_memory"); with
`search_batch` the largest micro-batch that fits is searched by halving.

No network. Where Linux permits it, the parent runs this script in a network namespace of its own (no
interface but a loopback that is down), so nothing this process or any process it starts does can reach a
network. Everywhere, the parent sets HF_HUB_OFFLINE=1 / TRANSFORMERS_OFFLINE=1, and this script adds an
in-process block (an audit hook) that refuses, in THIS Python only: socket connect / connect_ex /
create_connection to an internet address (IPv4, IPv6), sendto and sendmsg on such a socket, getaddrinfo /
gethostbyname (so urllib, http.client, requests and asyncio connections fail too). It cannot stop a program
this script starts (subprocess, os.system) or native code that calls connect() directly (a C extension,
ctypes): without the namespace those are not blocked. The parent's result says which block was in force.
Libraries are imported only when a job needs them
(`_need`), so a missing one becomes outcome "missing_library" with the pip command that adds it.

Fault injection for tests only (environment variable GPUCHECK_TRIAL_FAULT): `oom_above_batch=N` raises
an out-of-memory error in any step with a micro-batch above N; `hang` sleeps after the model is built.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import sys
import threading
import time
import traceback
from importlib import metadata

try:
    import resource
except ImportError:  # Windows
    resource = None  # type: ignore[assignment]

PROTOCOL = 1
GIB = 1024**3
_OUT = None  # the protocol stream (the original stdout)
_TORCH_ERROR = None
try:
    import torch
except Exception as _e:  # noqa: BLE001 — not installed, or a broken install: reported, never raised
    torch = None  # type: ignore[assignment]
    _TORCH_ERROR = f"{type(_e).__name__}: {_e}"

LIBRARIES = ("torch", "torchvision", "transformers", "peft", "accelerate", "bitsandbytes", "diffusers",
             "ultralytics")


class MissingLibrary(Exception):
    def __init__(self, module, why=""):
        super().__init__(module)
        self.module = module
        self.why = why


class NotSupported(Exception):
    pass


# -- plumbing ----------------------------------------------------------------------------------------


def _protocol_stream():
    """Keep the real stdout for the protocol; send fd 1 (prints of any library) to stderr."""
    try:
        fd = os.dup(1)
        os.dup2(2, 1)
        stream = os.fdopen(fd, "w", encoding="utf-8", buffering=1)
    except OSError:
        stream = sys.stdout
    sys.stdout = sys.stderr
    return stream


def emit(event, **fields):
    if _OUT is None:
        return
    _OUT.write(json.dumps(dict(fields, event=event)) + "\n")
    _OUT.flush()


def _block_network():
    """Refuse internet connections made by this Python (see the module docstring for what it cannot stop)."""
    def hook(name, args):
        if name in ("socket.connect", "socket.connect_ex", "socket.sendto", "socket.sendmsg"):
            sock = args[0] if args else None
            family = getattr(sock, "family", None)
            if family is not None and int(family) in (2, 10, 23, 30):  # AF_INET, AF_INET6 (Linux/Win/mac)
                raise ConnectionRefusedError("gpucheck trial: network access is blocked")
        elif name in ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyname_ex",
                      "socket.gethostbyaddr"):
            raise ConnectionRefusedError("gpucheck trial: network access is blocked")

    if hasattr(sys, "addaudithook"):
        sys.addaudithook(hook)


def library_versions():
    out = {}
    for name in LIBRARIES:
        try:
            out[name] = metadata.version(name)
        except Exception:  # noqa: BLE001 — not installed
            out[name] = None
    return out


def _need(module, why=""):
    top = module.split(".")[0]
    try:
        return importlib.import_module(module)
    except ImportError as e:
        if (getattr(e, "name", None) or "").split(".")[0] == top:
            raise MissingLibrary(top, why) from None
        raise NotSupported(f"{top} is installed but cannot be imported ({type(e).__name__}: {e})") from None
    except Exception as e:  # noqa: BLE001 — a broken install (e.g. torchvision built for another torch)
        raise NotSupported(f"{top} is installed but cannot be imported ({type(e).__name__}: {e})") from None


def _fault():
    return os.environ.get("GPUCHECK_TRIAL_FAULT", "")


# -- device, precision, memory --------------------------------------------------------------------


class GpuBlocked(NotSupported):
    """The GPU is there but cannot be reached from inside the trial's namespaces (the parent runs it once more
    without them)."""


def _gpu_behind_namespace(isolated):
    """In the namespaces, a CUDA / ROCm build that finds no GPU while the driver's device node is there: some
    kernels and VMs refuse the driver's calls from a user namespace (a Firecracker VM answers CUDA error 304)."""
    built_for_gpu = getattr(torch.version, "cuda", None) or getattr(torch.version, "hip", None)
    return bool(isolated and built_for_gpu and any(os.path.exists(p) for p in ("/dev/nvidiactl", "/dev/kfd")))


def pick_device(wanted, isolated=False):
    if wanted in (None, "", "auto", "cuda") and not torch.cuda.is_available() and _gpu_behind_namespace(isolated):
        raise GpuBlocked("the GPU cannot be reached from inside the trial's network namespace")
    if wanted in (None, "", "auto"):
        if torch.cuda.is_available():
            return "cuda"
        mps = getattr(torch.backends, "mps", None)
        if mps is not None and mps.is_available():
            return "mps"
        return "cpu"
    if wanted == "cuda" and not torch.cuda.is_available():
        raise NotSupported("this PyTorch cannot use a CUDA GPU here (torch.cuda.is_available() is False)")
    if wanted == "mps" and not (getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()):
        raise NotSupported("this PyTorch cannot use the Apple GPU (MPS) here")
    return wanted


def device_name(device):
    if device == "cuda":
        return torch.cuda.get_device_name(0)
    if device == "mps":
        return "Apple GPU (MPS)"
    return "CPU"


def amp_dtype(precision, device):
    """The autocast type for a mixed-precision job on this device (None: fp32)."""
    if precision == "fp32":
        return None
    if device == "cpu":
        return torch.bfloat16  # CPU autocast is bf16
    sixteen = torch.bfloat16 if precision.startswith("bf16") else torch.float16  # bf16, bf16-pure | fp16, fp16-pure
    if sixteen == torch.bfloat16 and device == "cuda" and not torch.cuda.is_bf16_supported():
        return torch.float16
    return sixteen


def frozen_dtype(precision, device):
    """16-bit type of frozen base weights (LoRA): what the job would load them in."""
    return amp_dtype(precision if precision != "fp32" else "bf16", device)


def sync(device):
    if device == "cuda":
        torch.cuda.synchronize()
    elif device == "mps":
        torch.mps.synchronize()


def peak_rss_bytes():
    if resource is not None:
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return int(rss if sys.platform == "darwin" else rss * 1024)
    try:
        import ctypes
        from ctypes import wintypes

        class Counters(ctypes.Structure):
            _fields_ = [("cb", wintypes.DWORD), ("PageFaultCount", wintypes.DWORD),
                        ("PeakWorkingSetSize", ctypes.c_size_t), ("WorkingSetSize", ctypes.c_size_t),
                        ("a", ctypes.c_size_t), ("b", ctypes.c_size_t), ("c", ctypes.c_size_t),
                        ("d", ctypes.c_size_t), ("PagefileUsage", ctypes.c_size_t),
                        ("PeakPagefileUsage", ctypes.c_size_t)]

        c = Counters()
        c.cb = ctypes.sizeof(c)
        ctypes.windll.psapi.GetProcessMemoryInfo(ctypes.windll.kernel32.GetCurrentProcess(), ctypes.byref(c), c.cb)
        return int(c.PeakWorkingSetSize)
    except Exception:  # noqa: BLE001
        return None


class MemoryWatch:
    def __init__(self, device):
        self.device = device
        self.mps_peak = 0
        if device == "cuda":
            torch.cuda.empty_cache()
            torch.cuda.reset_peak_memory_stats()

    def sample(self):
        if self.device == "mps":
            self.mps_peak = max(self.mps_peak, int(torch.mps.driver_allocated_memory()))

    def figures(self):
        rss = peak_rss_bytes()
        out = {"peak_rss_gib": None if rss is None else round(rss / GIB, 3)}
        if self.device == "cuda":
            alloc = torch.cuda.max_memory_allocated()
            reserved = torch.cuda.max_memory_reserved()
            out.update(allocated_gib=round(alloc / GIB, 3), reserved_gib=round(reserved / GIB, 3),
                       peak_memory_gib=round(reserved / GIB, 3), memory_kind="cuda_reserved")
        elif self.device == "mps":
            self.sample()
            out.update(driver_gib=round(self.mps_peak / GIB, 3), peak_memory_gib=round(self.mps_peak / GIB, 3),
                       memory_kind="mps_driver")
        else:
            out.update(peak_memory_gib=out["peak_rss_gib"], memory_kind="cpu_peak_rss")
        return out


def is_oom(exc):
    if torch is None:
        return False
    oom_type = getattr(torch, "OutOfMemoryError", None) or getattr(torch.cuda, "OutOfMemoryError", None)
    if oom_type is not None and isinstance(exc, oom_type):
        return True
    text = str(exc).lower()
    return isinstance(exc, (RuntimeError, MemoryError)) and (
        "out of memory" in text or "can't allocate memory" in text or "failed to allocate" in text
        or isinstance(exc, MemoryError))


# -- model builders: each returns a Job ---------------------------------------------------------


class Job:
    """model + what to optimize + a batch maker + a loss; `frozen` runs before the trained model."""

    def __init__(self, model, params, make_batch, loss, note=""):
        self.model = model
        self.params = [p for p in params if p.requires_grad]
        self.make_batch = make_batch
        self.loss = loss
        self.note = note


def _mnist_net(spec, device, batch):
    nn = torch.nn
    size = spec["train"].get("image_size") or 28
    side = (size - 4) // 2
    if side < 1:
        raise NotSupported(f"image size {size} is too small for this network (at least 6)")

    class Net(nn.Module):  # pytorch/examples mnist/main.py
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 32, 3, 1)
            self.conv2 = nn.Conv2d(32, 64, 3, 1)
            self.dropout1 = nn.Dropout(0.25)
            self.dropout2 = nn.Dropout(0.5)
            self.fc1 = nn.Linear(64 * side * side, 128)
            self.fc2 = nn.Linear(128, 10)

        def forward(self, x):
            x = torch.relu(self.conv1(x))
            x = torch.relu(self.conv2(x))
            x = self.dropout1(torch.max_pool2d(x, 2))
            x = torch.relu(self.fc1(torch.flatten(x, 1)))
            return torch.log_softmax(self.fc2(self.dropout2(x)), dim=1)

    model = Net().to(device)

    def make_batch():
        return (torch.randn(batch, 1, size, size, device=device), torch.randint(0, 10, (batch,), device=device))

    def loss(m, b):
        return torch.nn.functional.nll_loss(m(b[0]), b[1])

    return Job(model, model.parameters(), make_batch, loss)


def _torchvision(spec, device, batch):
    tv = _need("torchvision.models", "the job's ResNet comes from torchvision")
    m = spec["model"]
    size = spec["train"].get("image_size") or 224
    classes = int(m.get("num_classes", 1000))
    model = getattr(tv, m["torchvision"])(weights=None, num_classes=classes)
    if m.get("cifar_stem"):  # 3×3 stem, no max-pool (kuangliu/pytorch-cifar)
        model.conv1 = torch.nn.Conv2d(3, 64, 3, 1, 1, bias=False)
        model.maxpool = torch.nn.Identity()
    model = model.to(device, memory_format=torch.channels_last) if device != "mps" else model.to(device)
    job = _classifier_job(model, device, batch, size, classes)
    if spec["train"].get("method") == "lora":
        raise NotSupported("LoRA on a CNN is not part of the trial")
    return job


def _classifier_job(model, device, batch, size, classes):
    def make_batch():
        x = torch.randn(batch, 3, size, size, device=device)
        if device != "mps":
            x = x.contiguous(memory_format=torch.channels_last)
        return x, torch.randint(0, classes, (batch,), device=device)

    def loss(m, b):
        return torch.nn.functional.cross_entropy(m(b[0]), b[1])

    return Job(model, model.parameters(), make_batch, loss)


_FUSED_QKV = ("gpt_neox", "falcon", "bloom")  # one query_key_value projection (PEFT adapts it whole)
LORA_TARGETS = {
    # lora_targets → module names, by model family (each type's attention module names in transformers)
    "qv": {"gpt2": ["c_attn"], "bert": ["query", "value"], **{t: ["query_key_value"] for t in _FUSED_QKV},
           "t5": ["q", "v"], "mt5": ["q", "v"], "distilbert": ["q_lin", "v_lin"], "vit": ["query", "value", "q_proj", "v_proj"],  # ViT: its names before and after transformers 5
           "deberta-v2": ["query_proj", "value_proj"], "default": ["q_proj", "v_proj"]},
    "attention": {"gpt2": ["c_attn", "c_proj"], "bert": ["query", "key", "value", "dense"],
                  **{t: ["query_key_value", "dense"] for t in _FUSED_QKV}, "t5": ["q", "k", "v", "o"],
                  "mt5": ["q", "k", "v", "o"], "phi": ["q_proj", "k_proj", "v_proj", "dense"],
                  **{t: ["q_proj", "k_proj", "v_proj", "out_proj"] for t in ("gptj", "opt", "bart", "whisper")},
                  "distilbert": ["q_lin", "k_lin", "v_lin", "out_lin"],
                  "deberta-v2": ["query_proj", "key_proj", "value_proj", "dense"],
                  "default": ["q_proj", "k_proj", "v_proj", "o_proj"]},
}


def _lora_config(spec, model_type):
    peft = _need("peft", "LoRA adapters come from peft")
    train = spec["train"]
    targets = train.get("lora_targets") or "qv"
    modules = "all-linear" if targets == "all-linear" else \
        LORA_TARGETS[targets].get(model_type, LORA_TARGETS[targets]["default"])
    rank = int(train.get("lora_rank") or 16)
    # the job's dropout, as the estimate prices it: above 0 each adapted linear keeps a dropped-out copy of its input
    dropout = float(train.get("lora_dropout", 0.05))
    return peft, peft.LoraConfig(r=rank, lora_alpha=2 * rank, lora_dropout=dropout, target_modules=modules)


def _hf_model(spec, device):
    transformers = _need("transformers", "the job's model architecture comes from transformers")
    m, train = spec["model"], spec["train"]
    cfg = dict(m["config"])
    model_type = cfg.pop("model_type")
    config = transformers.AutoConfig.for_model(model_type, **cfg)
    config.use_cache = False  # training: no key/value cache
    task = m.get("task", "causal-lm")
    if task in ("sequence-classification", "image-classification"):
        config.num_labels = int(m.get("num_labels", 2))
    if task == "seq2seq-lm" and getattr(config, "decoder_start_token_id", None) is None:
        config.decoder_start_token_id = getattr(config, "pad_token_id", None) or 0  # T5's: the pad token
    auto = {"causal-lm": transformers.AutoModelForCausalLM,
            "sequence-classification": transformers.AutoModelForSequenceClassification,
            "speech-seq2seq": transformers.AutoModelForSpeechSeq2Seq,
            "seq2seq-lm": transformers.AutoModelForSeq2SeqLM,
            "image-classification": transformers.AutoModelForImageClassification}[task]
    method = train.get("method", "full")
    kwargs = {}
    if method == "qlora":
        return _qlora_model(spec, device, transformers, auto, config), config
    if method == "lora":
        kwargs["dtype"] = frozen_dtype(train.get("precision", "bf16"), device)
    else:  # trained weights stay fp32 under autocast; a published config.json names the dtype it was saved in
        kwargs["dtype"] = torch.float32  # ("torch_dtype": "bfloat16"), which from_config would otherwise build in
    with _built_on(device):
        try:
            model = auto.from_config(config, **kwargs)
        except TypeError:  # transformers < 4.56 calls it torch_dtype
            model = auto.from_config(config, **({"torch_dtype": kwargs["dtype"]} if kwargs else {}))
    return model.to(device), config


def _built_on(device):
    """Where a model's random weights are made. On an NVIDIA GPU, there: on the CPU, transformers' from_config builds
    about 55 million parameters a second (Qwen2.5-1.5B in 28 s on 2 cores, 2026-12-04), and bitsandbytes' Linear4bit
    first runs nn.Linear's own initialisation, so on an H200's host the 4B and 7B QLoRA trials stopped while building,
    past the set-up allowance (tests/fixtures/recorded/h200-b); built on the GPU, each whole trial took 30-42 s
    (h200-c). Elsewhere on the CPU (an Apple GPU shares its memory)."""
    where = torch.device(device)
    # a torch.device is a context manager from PyTorch 2.0 (older ones build on the CPU, as before)
    return where if device == "cuda" and hasattr(where, "__enter__") else contextlib.nullcontext()


def _qlora_model(spec, device, transformers, auto, config):
    bnb = _need("bitsandbytes", "QLoRA's 4-bit weights come from bitsandbytes")
    if device != "cuda":
        raise NotSupported("QLoRA needs an NVIDIA GPU with CUDA (bitsandbytes 4-bit); none is usable here")
    compute = amp_dtype(spec["train"].get("precision", "bf16"), device)
    with torch.device("meta"):  # no memory yet: each layer is made real (and quantized) one at a time
        try:
            model = auto.from_config(config, dtype=compute)
        except TypeError:  # transformers < 4.56
            model = auto.from_config(config, torch_dtype=compute)
    for parent_name, parent in list(model.named_modules()):
        for name, child in list(parent.named_children()):
            full = f"{parent_name}.{name}".strip(".")
            if isinstance(child, torch.nn.Linear) and "lm_head" not in full:
                q = bnb.nn.Linear4bit(child.in_features, child.out_features, bias=child.bias is not None,
                                      compute_dtype=compute, quant_type="nf4", device=device)  # see _built_on
                q.weight.data = torch.empty(child.out_features, child.in_features, dtype=compute,
                                            device=device).normal_(0, 0.02)
                setattr(parent, name, q.to(device))
    for mod in model.modules():  # the rest: embeddings, norms, head, rotary tables
        if any(t.is_meta for t in list(mod.parameters(recurse=False)) + list(mod.buffers(recurse=False))):
            mod.to_empty(device=device, recurse=False)
            for p in mod.parameters(recurse=False):
                with torch.no_grad():
                    p.normal_(0, 0.02) if p.dim() > 1 else p.fill_(1.0)
            if type(mod).__name__.endswith("RotaryEmbedding"):
                try:
                    fresh = type(mod)(config=model.config, device=device)
                except TypeError:  # transformers >= 5 takes no device
                    fresh = type(mod)(config=model.config)
                for bname, buf in fresh.named_buffers(recurse=False):
                    setattr(mod, bname, buf.to(device))
                if getattr(mod, "original_inv_freq", None) is not None and mod.original_inv_freq.is_meta:
                    mod.original_inv_freq = fresh.original_inv_freq.to(device)
    return model


def _transformers(spec, device, batch):
    train, m = spec["train"], spec["model"]
    model, config = _hf_model(spec, device)
    model_type = config.model_type
    method = train.get("method", "full")
    if train.get("grad_checkpointing"):
        if hasattr(model, "activation_checkpointing_enable"):  # transformers >= 5.x
            model.activation_checkpointing_enable({"use_reentrant": False})
        else:
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if method in ("lora", "qlora"):
        model.requires_grad_(False)
        if train.get("grad_checkpointing") and hasattr(model, "enable_input_require_grads"):
            model.enable_input_require_grads()
        peft, lcfg = _lora_config(spec, model_type)
        if method == "qlora" and train.get("qlora_upcast", False):
            # PEFT's own preparation, where the job asks for it (train.qlora_upcast: TRL's SFTTrainer before 0.26):
            # the layers left unquantized (embeddings, head, norms) become fp32; else they stay as loaded, 16-bit
            prepare = getattr(peft, "prepare_model_for_kbit_training", None)  # PEFT >= 0.4
            if prepare is not None:
                model = prepare(model, use_gradient_checkpointing=False)
            else:  # what it does to the weights: every 16-bit parameter that is not 4-bit becomes fp32
                for p in model.parameters():
                    if p.dtype in (torch.float16, torch.bfloat16) and type(p).__name__ != "Params4bit":
                        p.data = p.data.float()
        model = peft.get_peft_model(model, lcfg)
        # the adapters' dtype as the job's stack leaves it: bf16 on a 4-bit model where the job says so (TRL 0.26 and
        # newer: train.qlora_bf16_adapters), else fp32 (PEFT's autocast_adapter_dtype)
        adapter_dtype = torch.bfloat16 if train.get("qlora_bf16_adapters", False) else torch.float32
        for p in model.parameters():
            if p.requires_grad:
                p.data = p.data.to(adapter_dtype)
    task = m.get("task", "causal-lm")
    seq = int(train.get("seq_len") or 128)
    vocab = int(getattr(config, "vocab_size", 0) or 0)  # an image classifier has none
    if task == "speech-seq2seq":
        frames = 2 * int(config.max_source_positions)
        tokens = min(int(m.get("decoder_tokens", 128)), int(config.max_target_positions))

        def make_batch():
            return {"input_features": torch.randn(batch, config.num_mel_bins, frames, device=device),
                    "labels": torch.randint(0, vocab, (batch, tokens), device=device)}
    elif task == "seq2seq-lm":  # T5, BART: source tokens in, the target's tokens as labels
        tokens = int(m.get("decoder_tokens", 128))

        def make_batch():
            return {"input_ids": torch.randint(0, vocab, (batch, seq), device=device),
                    "labels": torch.randint(0, vocab, (batch, tokens), device=device)}
    elif task == "image-classification":  # ViT: the config's image size, its channels, one label an image
        def make_batch():
            px = int(config.image_size)
            return {"pixel_values": torch.randn(batch, int(config.num_channels), px, px, device=device),
                    "labels": torch.randint(0, config.num_labels, (batch,), device=device)}
    elif task == "sequence-classification":
        def make_batch():
            return {"input_ids": torch.randint(0, vocab, (batch, seq), device=device),
                    "labels": torch.randint(0, config.num_labels, (batch,), device=device)}
    else:
        def make_batch():
            ids = torch.randint(0, vocab, (batch, seq), device=device)
            return {"input_ids": ids, "labels": ids}

    def loss(mod, b):
        return mod(**b).loss

    return Job(model, model.parameters(), make_batch, loss)


def _diffusers_unet(spec, device, batch):
    diffusers = _need("diffusers", "the job's U-Net comes from diffusers")
    m, train = spec["model"], spec["train"]
    size = int(train.get("image_size") or 512)
    unet = diffusers.UNet2DConditionModel.from_config(m["config"])
    frozen = frozen_dtype(train.get("precision", "fp16"), device)
    if train.get("method") == "lora":
        peft = _need("peft", "LoRA adapters come from peft")
        unet.requires_grad_(False)
        unet.to(dtype=frozen)
        rank = int(train.get("lora_rank") or 4)
        unet.add_adapter(peft.LoraConfig(r=rank, lora_alpha=rank, init_lora_weights="gaussian",
                                         target_modules=["to_k", "to_q", "to_v", "to_out.0"]))
        for p in unet.parameters():
            if p.requires_grad:
                p.data = p.data.float()
    if train.get("grad_checkpointing"):
        unet.enable_gradient_checkpointing()
    unet.to(device)
    helpers = None
    if m.get("vae_config") and m.get("text_config") and not train.get("cache_embeddings"):
        transformers = _need("transformers", "the text encoder comes from transformers")
        vae = diffusers.AutoencoderKL.from_config(m["vae_config"]).to(device, dtype=frozen).requires_grad_(False)
        tcfg = dict(m["text_config"])
        tcfg.pop("model_type", None)
        text = transformers.CLIPTextModel(transformers.CLIPTextConfig(**tcfg)).to(device, dtype=frozen)
        text.requires_grad_(False)
        helpers = (vae, text, int(tcfg.get("vocab_size", 49408)), int(tcfg.get("max_position_embeddings", 77)))
    cross = int(unet.config.cross_attention_dim)
    latent = size // 8
    extra = {}
    if unet.config.get("addition_embed_type") == "text_time":  # SDXL: pooled text + size/crop ids
        pooled = int(unet.config.projection_class_embeddings_input_dim) - 6 * int(unet.config.addition_time_embed_dim)
        extra = {"text_embeds": (pooled,), "time_ids": (6,)}

    def make_batch():
        if helpers is not None:
            vae, text, vocab, ctx = helpers
            with torch.no_grad():
                pixels = torch.randn(batch, 3, size, size, device=device, dtype=frozen)
                latents = vae.encode(pixels).latent_dist.sample() * 0.18215
                states = text(torch.randint(0, vocab, (batch, ctx), device=device))[0]
            return latents.float(), states.float()
        return (torch.randn(batch, 4, latent, latent, device=device),
                torch.randn(batch, 77, cross, device=device))

    def loss(mod, b):
        latents, states = b
        noise = torch.randn_like(latents)
        t = torch.randint(0, 1000, (latents.shape[0],), device=device)
        cond = {k: torch.randn(latents.shape[0], *shape, device=device) for k, shape in extra.items()}
        pred = mod(latents + noise, t, encoder_hidden_states=states,
                   added_cond_kwargs=cond or None).sample
        return torch.nn.functional.mse_loss(pred.float(), noise.float())

    return Job(unet, unet.parameters(), make_batch, loss,
               note="" if helpers else "U-Net only (VAE and text encoder outputs taken as cached)")


def _ultralytics(spec, device, batch):
    _need("ultralytics", "the job's YOLO model comes from ultralytics")
    tasks = importlib.import_module("ultralytics.nn.tasks")
    cfg_mod = importlib.import_module("ultralytics.cfg")
    m = spec["model"]
    size = int(spec["train"].get("image_size") or 640)
    model = tasks.DetectionModel(m["yaml"], nc=int(m.get("num_classes", 80)), verbose=False)
    model.args = cfg_mod.get_cfg(cfg_mod.DEFAULT_CFG)
    model.to(device)
    boxes = 4

    def make_batch():
        n = batch * boxes
        return {"img": torch.rand(batch, 3, size, size, device=device),
                "batch_idx": torch.arange(batch, device=device).repeat_interleave(boxes).float(),
                "cls": torch.randint(0, int(m.get("num_classes", 80)), (n, 1), device=device).float(),
                "bboxes": torch.rand(n, 4, device=device) * 0.5 + 0.25}

    def loss(mod, b):
        total, _items = mod.loss(b)
        return total.sum()

    return Job(model, model.parameters(), make_batch, loss)


BUILDERS = {"mnist-net": _mnist_net, "torchvision": _torchvision, "transformers": _transformers,
            "diffusers-unet": _diffusers_unet, "ultralytics": _ultralytics}


# -- the timed loop ------------------------------------------------------------------------------


# torch.optim picks its multi-tensor (foreach) kernels by default on these device types only, the per-tensor loop
# elsewhere (the CPU, Apple's MPS): torch/optim/optimizer.py _default_to_fused_or_foreach and
# _get_foreach_kernels_supported_devices, PyTorch 2.0-2.14
_FOREACH_DEVICES = ("cuda", "xpu")


def _optimizer(spec, params, device):
    """The job's optimizer over `params` (a list: Job.params), stepped the way the estimate prices it
    (train.optimizer_impl: fused | foreach | single), as far as this PyTorch can: a fused step needs PyTorch >= 2.4 on
    the CPU (2.0 on CUDA); where it cannot, torch's own default runs. Returns (optimizer, how its step runs)."""
    name = spec["train"].get("optimizer", "adamw")
    if name == "adamw-8bit":
        if device != "cuda":
            raise NotSupported("the 8-bit AdamW optimizer (bitsandbytes) needs an NVIDIA GPU with CUDA")
        bnb = _need("bitsandbytes", "the 8-bit AdamW optimizer comes from bitsandbytes")
        return bnb.optim.AdamW8bit(params, lr=1e-4), "fused"  # one blockwise kernel per tensor
    if name == "adafactor":  # the Trainer's optim="adafactor" and kohya's: transformers' own, a per-tensor loop
        tf = _need("transformers.optimization", "the Adafactor optimizer the estimate prices is transformers' own")
        return tf.Adafactor(params, lr=1e-4, scale_parameter=False, relative_step=False, warmup_init=False), "single"
    make = ((lambda ps, **kw: torch.optim.SGD(ps, lr=1e-3, momentum=0.9, **kw)) if name == "sgd"
            else (lambda ps, **kw: torch.optim.AdamW(ps, lr=1e-4, **kw)))
    impl = spec["train"].get("optimizer_impl") or ""
    if impl == "fused" and params and _fused_steps(make, params[0]):
        return make(params, fused=True), "fused"
    if impl == "single":
        return make(params, foreach=False), "single"
    if impl.startswith("foreach") and device in _FOREACH_DEVICES:
        return make(params, foreach=True), impl
    return make(params), "foreach" if device in _FOREACH_DEVICES else "single"


def _fused_steps(make, like):
    """Whether this PyTorch steps `make`'s optimizer fused on `like`'s device and dtype: tried on one element, since
    where it cannot, PyTorch 2.1-2.3 refuse at construction and later versions at the first step."""
    p = torch.nn.Parameter(torch.zeros(1, device=like.device, dtype=like.dtype))
    p.grad = torch.zeros_like(p)
    try:
        make([p], fused=True).step()
    # RuntimeError: torch's own device / dtype check ("`fused=True` requires all the params to be floating point
    # Tensors of supported devices"); NotImplementedError: a backend without the kernel for the dtype (the dispatcher's
    # "Could not run"); TypeError: a PyTorch whose optimizer has no `fused` argument; ValueError: its argument checks
    except (RuntimeError, NotImplementedError, TypeError, ValueError):
        return False
    return True


def _step(job, opt, scaler, device, dtype, batch):
    limit = _fault()
    if limit.startswith("oom_above_batch="):
        if batch > int(limit.split("=", 1)[1]):
            raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB (simulated)")
    opt.zero_grad(set_to_none=True)
    data = job.make_batch()
    ctx = torch.autocast(device_type=device, dtype=dtype) if dtype is not None else contextlib.nullcontext()
    with ctx:
        loss = job.loss(job.model, data)
    if scaler is not None:
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
    else:
        loss.backward()
        opt.step()
    sync(device)  # a non-finite loss (random weights may overflow in fp16) is not checked: the timing still counts


def measure(spec, device, batch):
    """Build the job at `batch` and time it. Returns the measured figures (raises on OOM)."""
    train = spec["train"]
    watch = MemoryWatch(device)
    emit("phase", phase="building", batch=batch)
    job = BUILDERS[spec["builder"]](spec, device, batch)
    job.model.train()
    if _fault() == "hang":
        time.sleep(10**6)
    opt, optimizer_impl = _optimizer(spec, job.params, device)
    params = {"total_params": sum(p.numel() for p in job.model.parameters()),
              "trainable_params": sum(p.numel() for p in job.params)}
    dtype = amp_dtype(train.get("precision", "fp32"), device)
    scaler = None
    if dtype == torch.float16 and device == "cuda":
        scaler = torch.amp.GradScaler("cuda")
    emit("phase", phase="warmup", batch=batch)
    t0 = time.perf_counter()
    _step(job, opt, scaler, device, dtype, batch)
    warmup = time.perf_counter() - t0
    watch.sample()
    steps_max = max(1, int(spec.get("steps") or 1000))
    budget = float(spec.get("max_seconds") or 30)
    times, cpu_times = [], []
    start = time.perf_counter()
    while len(times) < steps_max:
        t, c = time.perf_counter(), time.process_time()
        _step(job, opt, scaler, device, dtype, batch)
        times.append(time.perf_counter() - t)
        cpu_times.append(time.process_time() - c)
        watch.sample()
        emit("phase", phase="timing", step=len(times), steps=steps_max,
             elapsed_s=round(time.perf_counter() - start, 2), max_seconds=budget)
        if time.perf_counter() - start >= budget:
            break
    times.sort()
    cpu_times.sort()
    step = times[len(times) // 2]  # the median: robust to a stray slow step
    # CPU seconds per step per PyTorch thread: far below the wall time when other programs shared the cores
    threads = torch.get_num_threads()
    cpu_step = cpu_times[len(cpu_times) // 2] / max(1, threads)
    out = {"step_seconds": round(step, 5), "samples_per_second": round(batch / step, 4), "steps": len(times),
           "batch": batch, "warmup_seconds": round(warmup, 3), "mean_step_seconds": round(sum(times) / len(times), 5),
           "device": device_name(device), "device_kind": device, "note": job.note, "threads": threads,
           "cpu_seconds_per_step_per_thread": round(cpu_step, 5), "optimizer_impl": optimizer_impl, **params}
    out.update(watch.figures())
    del job, opt
    return out


def _free(device):
    gc.collect()
    if device == "cuda":
        torch.cuda.empty_cache()
    elif device == "mps":
        torch.mps.empty_cache()


def run(spec):
    """The whole trial; returns the result fields (never raises)."""
    libs = library_versions()
    base = {"protocol": PROTOCOL, "python": sys.executable, "python_version": sys.version.split()[0],
            "libraries": libs}
    if torch is None:
        return dict(base, outcome="missing_library", missing="torch",
                    message=f"PyTorch cannot be imported in this Python ({_TORCH_ERROR})")
    emit("phase", phase="starting", torch=torch.__version__)
    try:
        torch.manual_seed(0)
        device = pick_device(spec.get("device"), spec.get("isolated"))
        base["cuda_build"] = torch.version.cuda
        batch = int(spec["train"].get("batch") or 1)
        try:
            return dict(base, outcome="ran", measured=measure(spec, device, batch), message="")
        except Exception as e:  # noqa: BLE001
            if not is_oom(e):
                raise
            first = f"{type(e).__name__}: {str(e).splitlines()[0][:300]}"
        _free(device)
        return dict(base, **_search(spec, device, batch, first))
    except MissingLibrary as e:
        return dict(base, outcome="missing_library", missing=e.module, message=e.why)
    except GpuBlocked as e:
        return dict(base, outcome="failed", unsupported=True, gpu_blocked=True, message=str(e))
    except NotSupported as e:
        return dict(base, outcome="failed", unsupported=True, message=str(e))
    except Exception as e:  # noqa: BLE001 — reported to the parent with the traceback's tail
        tb = traceback.format_exc().strip().splitlines()[-6:]
        return dict(base, outcome="failed", message=f"{type(e).__name__}: {str(e)[:500]}", traceback=tb)


def _search(spec, device, batch, first_error):
    """Out of memory at `batch`: halve until a micro-batch fits (when asked to search)."""
    out = {"outcome": "out_of_memory", "batch_tried": batch, "oom_error": first_error,
           "message": "does not fit here — measured"}
    if not spec.get("search_batch"):
        return out
    b = batch // 2
    while b >= 1:
        emit("phase", phase="searching", batch=b)
        try:
            out["measured"] = measure(spec, device, b)
            out["largest_batch_that_fits"] = b
            return out
        except Exception as e:  # noqa: BLE001
            if not is_oom(e):
                raise
            _free(device)
        b //= 2
    out["largest_batch_that_fits"] = 0
    return out


def _exit_when_parent_goes():
    """The parent keeps our stdin open while it waits: end of file means it is gone (closed, crashed),
    and a trial nobody waits for must not go on using the GPU."""
    try:
        sys.stdin.read()
    except Exception:  # noqa: BLE001
        pass
    os._exit(70)


def main():
    global _OUT
    _OUT = _protocol_stream()
    _block_network()
    try:
        spec = json.loads(sys.stdin.readline() or "{}")
        if not isinstance(spec, dict) or "builder" not in spec:
            raise ValueError("the job spec on stdin has no 'builder'")
    except ValueError as e:
        emit("result", outcome="failed", message=f"bad job spec: {e}", protocol=PROTOCOL)
        return 2
    threading.Thread(target=_exit_when_parent_goes, daemon=True).start()
    if spec.get("threads"):
        torch is not None and torch.set_num_threads(int(spec["threads"]))
    result = run(spec)
    emit("result", **result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
