"""CPU seconds per audio second of decoding a 48 kHz MP3 clip and resampling it to 16 kHz, one thread
(benchmarks/data/audio-decode.json).

What the Hugging Face `datasets` Audio feature does with an MP3 clip in datasets 1.16-2.x (src/datasets/features/
audio.py, Audio._decode_mp3, unchanged from 1.16.0 to 2.8.0): `torchaudio.load(path_or_file, format="mp3")` on the
sox_io backend (libsox with libmad 0.15.1b, which torchaudio's wheels linked in statically: pytorch/audio
third_party/sox/CMakeLists.txt, `--with-mad`), then `torchaudio.transforms.Resample(48000, 16000)` (kept on the
feature, so its kernel is built once), then `.numpy()` and the mean over channels. Three parts, each timed with
time.process_time() of this process, median of RUNS after a warm-up, one thread:

  decode     needs libsox 14.4.2 with its MP3 module (libmad for reading, LAME for writing the test clip) and the
             sox command; pass the directory holding libsox.so.3. A synthetic speech-like 48 kHz mono clip is encoded
             with LAME at CLIP_KBPS (Common Voice's archives hold about 50-61 kbit/s of MP3 per second of audio:
             common-voice/cv-dataset, size x 8 / (clips x avgDurationSecs)), then decoded from memory
             (sox_open_mem_read + sox_read, as torchaudio's sox_io reads a file object) and converted to float32
             (torchaudio's normalize=True). For comparison, the same bytes through libsndfile's mpg123 (soundfile).
  resample   torchaudio's band-limited sinc resampler of 2021-2022 (functional._get_sinc_resample_kernel with its
             defaults lowpass_filter_width 6, rolloff 0.99, Hann window; _apply_sinc_resample_kernel: pad, conv1d with
             stride orig/gcd), written out here in PyTorch because no torchaudio of that time installs on Python 3.11;
             needs torch.
  reference  librosa's kaiser_best (resampy), which datasets used for non-MP3 files, and soxr (librosa's default
             since 0.10), for scale; needs numpy, resampy, soxr.

Usage (prints JSON):
  LD_LIBRARY_PATH=<dir> python benchmarks/measure_audio_decode.py decode <dir with libsox.so.3> <sox binary>
  OMP_NUM_THREADS=1 /work/main/.venv-trial/bin/python benchmarks/measure_audio_decode.py resample
  OMP_NUM_THREADS=1 python benchmarks/measure_audio_decode.py reference
"""

from __future__ import annotations

import ctypes
import io
import json
import math
import os
import subprocess
import sys
import tempfile
import wave

from measure_audio_input_path import cpu_median

RATE_IN, RATE_OUT = 48_000, 16_000
CLIP_S = 4.0
CLIP_KBPS = (48, 64)
RUNS = 15


def _cpu_median(fn, runs: int = RUNS) -> float:
    return cpu_median(fn, runs)  # measure_audio_input_path's: warm-up, then the median CPU seconds of `runs` calls


def speech_like(seconds: float = CLIP_S, rate: int = RATE_IN) -> list[float]:
    """A voiced, speech-like test signal: a glottal-like harmonic series whose pitch glides 110-220 Hz, syllable-rate
    (4 Hz) amplitude envelope, plus low noise (the decoder's cost barely depends on the content; LAME's bit
    allocation does a little)."""
    import random
    rnd = random.Random(0)
    out, phase = [], 0.0
    for n in range(int(seconds * rate)):
        t = n / rate
        f0 = 165.0 + 55.0 * math.sin(2 * math.pi * 0.7 * t)
        phase += 2 * math.pi * f0 / rate
        env = 0.5 * (1.0 - math.cos(2 * math.pi * 4.0 * t))
        v = sum(math.sin(k * phase) / k for k in range(1, 16))
        out.append(0.25 * env * v + 0.01 * rnd.uniform(-1.0, 1.0))
    return out


def _wav_bytes(samples: list[float], rate: int) -> bytes:
    import struct
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(struct.pack(f"<{len(samples)}h", *(max(-32767, min(32767, int(s * 32767))) for s in samples)))
    return buf.getvalue()


def measure_decode(libdir: str, sox_bin: str) -> dict:
    import numpy as np
    import soundfile as sf

    sox = ctypes.CDLL(os.path.join(libdir, "libsox.so.3"))
    sox.sox_open_mem_read.restype = ctypes.c_void_p
    sox.sox_open_mem_read.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_void_p,
                                      ctypes.c_char_p]
    sox.sox_read.restype = ctypes.c_size_t
    sox.sox_read.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
    sox.sox_close.argtypes = [ctypes.c_void_p]
    assert sox.sox_init() == 0
    chunk = 1 << 16
    out = np.empty(chunk, dtype=np.int32)

    def libmad(data: bytes) -> np.ndarray:
        buf = ctypes.create_string_buffer(data, len(data))
        ft = sox.sox_open_mem_read(buf, len(data), None, None, b"mp3")
        parts = []
        while True:
            n = sox.sox_read(ft, out.ctypes.data, chunk)
            if not n:
                break
            parts.append(out[:n].astype(np.float32) * (1.0 / 2 ** 31))  # torchaudio normalize=True
        sox.sox_close(ft)
        return np.concatenate(parts)

    pcm = _wav_bytes(speech_like(), RATE_IN)
    result = {"libsox": "14.4.2 (Debian 12 libsox3 14.4.2+git20190427-3.5)", "libmad": "0.15.1b (Debian 12 libmad0)",
              "libsndfile": sf.__libsndfile_version__, "soundfile": sf.__version__, "clip_seconds": CLIP_S,
              "per_bitrate": {}}
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "clip.wav")
        with open(src, "wb") as f:
            f.write(pcm)
        for kbps in CLIP_KBPS:
            dst = os.path.join(tmp, f"clip{kbps}.mp3")
            subprocess.run([sox_bin, src, "-C", str(kbps), dst], check=True)
            data = open(dst, "rb").read()
            decoded = libmad(data)
            t_mad = _cpu_median(lambda d=data: libmad(d))
            t_mpg = _cpu_median(lambda d=data: sf.read(io.BytesIO(d), dtype="float32"))
            result["per_bitrate"][str(kbps)] = {
                "mp3_bytes": len(data), "decoded_samples": int(decoded.size),
                "libmad_sox_s_per_clip": round(t_mad, 5), "libmad_sox_s_per_audio_s": round(t_mad / CLIP_S, 6),
                "mpg123_soundfile_s_per_clip": round(t_mpg, 5), "mpg123_soundfile_s_per_audio_s": round(t_mpg / CLIP_S, 6),
            }
        result["archive"] = _measure_archive(tmp, sox_bin)
    return result


def _measure_archive(tmp: str, sox_bin: str) -> dict:
    """A streamed .tar.gz of MP3 clips read member by member (tarfile mode 'r|gz', as datasets' iter_archive reads
    Common Voice's archive): CPU seconds per MB of archive. The members are 31,000-byte pieces of one long 64 kbit/s
    MP3 (synthetic pitched tone under pink noise, so deflate finds little to compress, as in Common Voice's archives)."""
    import tarfile
    mp3 = os.path.join(tmp, "long.mp3")
    subprocess.run([sox_bin, "-n", "-r", str(RATE_IN), "-c", "1", "-C", "64", mp3, "synth", "900", "pinknoise",
                    "synth", "900", "sine", "amod", "150-250", "tremolo", "4", "90"], check=True)
    data = open(mp3, "rb").read()
    piece = 31_000
    arch = os.path.join(tmp, "clips.tar.gz")
    with tarfile.open(arch, "w:gz") as tar:
        for i in range(len(data) // piece):
            info = tarfile.TarInfo(f"cv-corpus/tr/clips/common_voice_tr_{i}.mp3")
            info.size = piece
            tar.addfile(info, io.BytesIO(data[i * piece:(i + 1) * piece]))
    size = os.path.getsize(arch)

    def read_all() -> None:
        with open(arch, "rb") as f, tarfile.open(fileobj=f, mode="r|gz") as tar:
            for member in tar:
                tar.extractfile(member).read()

    t = _cpu_median(read_all, runs=7)
    return {"archive_bytes": size, "mp3_bytes": len(data), "deflate_ratio": round(size / len(data), 4),
            "tar_gz_read_s": round(t, 5), "tar_gz_read_s_per_mb": round(t / (size / 1e6), 6)}


def _sinc_kernel(orig: int, new: int, width_zero_crossings: int = 6, rolloff: float = 0.99):
    """The band-limited interpolation kernel of torchaudio's sinc resampler (Hann window), one row per output phase."""
    import torch
    g = math.gcd(orig, new)
    orig, new = orig // g, new // g
    base = min(orig, new) * rolloff
    width = math.ceil(width_zero_crossings * orig / base)
    idx = torch.arange(-width, width + orig, dtype=torch.float64)
    rows = []
    for phase in range(new):
        t = ((-phase / new + idx / orig) * base).clamp(-width_zero_crossings, width_zero_crossings)
        window = torch.cos(t * math.pi / width_zero_crossings / 2) ** 2
        t = t * math.pi
        rows.append(torch.where(t == 0, torch.ones_like(t), torch.sin(t) / t) * window * (base / orig))
    return torch.stack(rows).view(new, 1, -1).to(torch.float32), width, orig, new


def measure_resample() -> dict:
    import numpy as np
    import torch
    torch.set_num_threads(1)
    x = torch.tensor(speech_like(), dtype=torch.float32).view(1, -1)
    kernel, width, orig, new = _sinc_kernel(RATE_IN, RATE_OUT)

    def apply(w: torch.Tensor) -> np.ndarray:
        n = w.shape[-1]
        padded = torch.nn.functional.pad(w, (width, width + orig))
        y = torch.nn.functional.conv1d(padded[:, None], kernel, stride=orig).transpose(1, 2).reshape(1, -1)
        return y[..., : math.ceil(new * n / orig)].numpy().mean(axis=0)  # datasets: .numpy(), mono mean

    t_apply = _cpu_median(lambda: apply(x))
    t_kernel = _cpu_median(lambda: _sinc_kernel(RATE_IN, RATE_OUT))
    return {"torch": torch.__version__, "kernel_taps": int(kernel.shape[-1]), "clip_seconds": CLIP_S,
            "apply_s_per_clip": round(t_apply, 6), "apply_s_per_audio_s": round(t_apply / CLIP_S, 7),
            "kernel_build_s": round(t_kernel, 6)}


def measure_reference() -> dict:
    import numpy as np
    import resampy
    import soxr
    x = np.asarray(speech_like(), dtype=np.float32)
    t_best = _cpu_median(lambda: resampy.resample(x, RATE_IN, RATE_OUT, filter="kaiser_best"), runs=7)
    t_soxr = _cpu_median(lambda: soxr.resample(x, RATE_IN, RATE_OUT, quality="HQ"))
    return {"resampy": resampy.__version__, "soxr": soxr.__version__, "numpy": np.__version__, "clip_seconds": CLIP_S,
            "resampy_kaiser_best_s_per_audio_s": round(t_best / CLIP_S, 6),
            "soxr_hq_s_per_audio_s": round(t_soxr / CLIP_S, 7)}


if __name__ == "__main__":
    part = sys.argv[1] if len(sys.argv) > 1 else "resample"
    if part == "decode":
        res = measure_decode(sys.argv[2], sys.argv[3])
    elif part == "reference":
        res = measure_reference()
    else:
        res = measure_resample()
    print(json.dumps(res, indent=1))
