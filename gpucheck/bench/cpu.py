"""CPU data-pipeline benchmarks: image decode + resize per second, and tokenizer-like text throughput.

Images: with Pillow installed, generated 500×375 JPEGs (about ImageNet's average size) are decoded and
resized to 224×224 with bilinear filtering — the work a vision data loader does per sample. Without
Pillow the same number of pixels is stored zlib-compressed (as in a PNG) and only decompressed; that is
a different codec, so the result says which one was measured (`method`).
"All cores" runs one worker thread per logical CPU the process may use. Pillow's decoder and resampler
and zlib release Python's GIL while they work, so threads scale, though less than the separate worker
processes a PyTorch DataLoader uses: the all-core figure is a floor.

Text: generated English-like text is split with a regular expression and each piece looked up in a
vocabulary dict — the Python side of tokenizing, on one core. Rust tokenizers run faster per core.
"""

from __future__ import annotations

import io
import os
import random
import re
import threading
import zlib
from dataclasses import dataclass

from gpucheck.bench.common import Phase, counted_in_windows, median, timed_repeats
from gpucheck.i18n import tr_text

IMAGE_W, IMAGE_H = 500, 375
RESIZE_TO = (224, 224)
JPEG_QUALITY = 90
N_SAMPLES = 6  # distinct encoded images cycled through


@dataclass(frozen=True)
class ImageResult:
    images_per_s: float | None
    threads: int
    method: str  # "pillow-jpeg" | "zlib"
    windows: int


@dataclass(frozen=True)
class TextResult:
    mb_per_s: float | None
    windows: int


def usable_cpus() -> int:
    try:
        return max(len(os.sched_getaffinity(0)), 1)  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return max(os.cpu_count() or 1, 1)


def pillow_available() -> bool:
    try:
        import PIL.Image  # noqa: F401
    except Exception:
        return False
    return True


# -- sample data ---------------------------------------------------------------------------------


def make_jpegs(count: int = N_SAMPLES, check=None) -> list[bytes]:
    """Photo-like JPEGs (smooth gradients plus fine texture), about 80 KB each at quality 90."""
    from PIL import Image, ImageChops, ImageFilter

    out = []
    grad = Image.linear_gradient("L").resize((IMAGE_W, IMAGE_H))
    for i in range(count):
        if check is not None:
            check()
        coarse = Image.effect_noise((IMAGE_W, IMAGE_H), 60 + 5 * i).filter(ImageFilter.GaussianBlur(2))
        fine = Image.effect_noise((IMAGE_W, IMAGE_H), 25)
        r = ImageChops.add(grad, coarse, scale=1.5, offset=-40)
        g = ImageChops.add(grad.transpose(Image.Transpose.ROTATE_180), fine, scale=1.5, offset=-40)
        b = ImageChops.blend(coarse, fine, 0.5)
        buf = io.BytesIO()
        Image.merge("RGB", (r, g, b)).save(buf, "JPEG", quality=JPEG_QUALITY)
        out.append(buf.getvalue())
    return out


def make_zlib_images(count: int = N_SAMPLES, check=None) -> list[bytes]:
    """Raw 8-bit RGB pixels of the same size (gradient plus noise), zlib-compressed as a PNG stores them."""
    rng = random.Random(1234)
    out = []
    row_len = IMAGE_W * 3
    for i in range(count):
        if check is not None:
            check()
        noise = rng.randbytes(row_len * 8)
        rows = []
        for y in range(IMAGE_H):
            base = (y * 255 // IMAGE_H + i * 17) & 0xFF
            n = noise[(y % 8) * row_len : (y % 8 + 1) * row_len]
            rows.append(bytes(((base + (x // 6) + (n[x] & 0x03)) & 0xFF) for x in range(row_len)))
        out.append(zlib.compress(b"".join(rows), 6))
    return out


def decode_jpeg(data: bytes) -> int:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        small = im.convert("RGB").resize(RESIZE_TO, Image.Resampling.BILINEAR)
    return small.size[0]


def decode_zlib(data: bytes) -> int:
    return len(zlib.decompress(data))


# -- the runner ----------------------------------------------------------------------------------


def _run_workers(phase: Phase, threads: int, work, samples: list[bytes], windows: int = 4) -> list[float]:
    """Run `work(sample)` in `threads` threads until the phase ends; items/s in each window after the first."""

    def worker(slot: int, stop: threading.Event, counts: list[int]) -> None:
        i = slot
        while not stop.is_set():
            work(samples[i % len(samples)])
            counts[slot] += 1
            i += 1

    return counted_in_windows(phase, threads, worker, lambda items, seconds: items / seconds, windows=windows,
                              name="gpucheck-bench", join_timeout_s=2.0)


def measure_images(phase: Phase, threads: int = 1, samples: list[bytes] | None = None,
                   method: str | None = None) -> ImageResult:
    if method is None:
        method = "pillow-jpeg" if pillow_available() else "zlib"
    if samples is None:
        samples = (make_jpegs if method == "pillow-jpeg" else make_zlib_images)(check=phase.check)
    work = decode_jpeg if method == "pillow-jpeg" else decode_zlib
    phase.check()
    work(samples[0])  # warm-up (loads the codec)
    rates = _run_workers(phase, threads, work, samples)
    return ImageResult(median(rates), threads, method, len(rates))


def image_note(method: str, one: float | None, threads: int) -> str:
    if method == "pillow-jpeg":
        return tr_text("Images: {w}×{h} JPEGs decoded and resized to 224×224 with Pillow; all cores = {n} threads.",
                  w=IMAGE_W, h=IMAGE_H, n=threads)
    return tr_text("Images: Pillow is not installed, so {w}×{h} zlib-compressed (PNG-like) images were only "
              "decompressed; JPEG decoding is usually slower. Install Pillow (pip install pillow) for a "
              "JPEG figure. All cores = {n} threads.", w=IMAGE_W, h=IMAGE_H, n=threads)


_WORDS_RE = re.compile(r"\w+|[^\w\s]")


def make_text(n_bytes: int = 256 * 1024, seed: int = 7) -> tuple[str, dict[str, int]]:
    """English-like text from a 5,000-word vocabulary with a Zipf-like spread, and that vocabulary."""
    rng = random.Random(seed)
    letters = "etaoinshrdlcumwfgypbvkjxqz"
    vocab: dict[str, int] = {}
    words: list[str] = []
    while len(words) < 5000:
        w = "".join(letters[min(int(rng.expovariate(0.25)), 25)] for _ in range(rng.randint(1, 10)))
        if w not in vocab:
            vocab[w] = len(vocab)
            words.append(w)
    for w in words:  # sentence starts are capitalized: real vocabularies hold both forms
        vocab.setdefault(w.capitalize(), len(vocab))
    for p in ".,;:!?\"'()-":
        vocab[p] = len(vocab)
    weights = [1.0 / (k + 1) for k in range(len(words))]
    parts: list[str] = []
    size = 0
    while size < n_bytes:
        sentence = rng.choices(words, weights, k=rng.randint(5, 25))
        sentence[0] = sentence[0].capitalize()
        s = " ".join(sentence) + rng.choice(".,;!?") + " "
        parts.append(s)
        size += len(s)
    return "".join(parts), vocab


def tokenize(text: str, vocab: dict[str, int]) -> list[int]:
    unk = len(vocab)
    get = vocab.get
    return [get(t, unk) for t in _WORDS_RE.findall(text)]


def measure_text(phase: Phase, max_repeats: int = 50) -> TextResult:
    text, vocab = make_text()
    n_bytes = len(text.encode("utf-8"))
    phase.check()
    tokenize(text, vocab)  # warm-up
    seconds = timed_repeats(phase, lambda: tokenize(text, vocab), max_repeats, stop_at_deadline=True)
    rates = [n_bytes / dt / 1e6 for dt in seconds]
    return TextResult(median(rates), len(rates))
