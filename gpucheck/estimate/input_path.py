"""The host's input path: the CPU work that turns stored samples into a batch, where it runs and what it adds.

Modelled where a job says where its features are computed (train.feature_extraction, audio jobs):
  on_the_fly_main    log-Mel features computed from the audio in the training process (no DataLoader workers),
  precomputed_lists  features computed once before training (datasets.map) and read back as Python float lists
                     (the Trainer's default dataloader_num_workers 0), padded by the collator,
  workers            features computed on the fly in DataLoader workers, in parallel with the GPU.
In the training process the work is serial with the GPU's step: a 16-bit step waits for the GPU at its end (torch.amp
GradScaler.step reads found_inf back with .item(); DeepSpeed's fp16 overflow check), so the process prepares the next
batch only once the GPU is done; in workers it overlaps, so the step is the longer of the two.
The work is priced by its size: CPU seconds per million floats (resources/factors.toml [input_path], measured in
benchmarks/data/audio-input-path.json) times the floats of one sample (train.input_floats: a Whisper clip padded to
30 s is 80 x 3,000 = 240,000; a wav2vec2 / XLS-R clip is its raw 16 kHz waveform, 16,000 a second), scaled by the
single-thread clock like the operators' dispatch (dispatch.host_clock_mhz).

DataLoader workers that start by spawn at every epoch (train.loader_start = spawn_each_epoch: macOS' and Windows'
default start method, persistent_workers=False) cost a fixed time per epoch, serial with training: each worker is a
fresh interpreter that re-imports the script's modules before it reads the pickled data set (pickled anew by the
parent for each worker: train.loader_dataset_bytes), and the parent, blocked
writing that pickle into the worker's pipe, starts the next worker only after it (Python's popen_spawn_posix
_launch; factors.toml [input_path] spawn_worker_start_s, measured in benchmarks/data/loader-worker-start.json).
On macOS (an Apple GPU or an Apple CPU) the imports take longer than on the Linux machine they were measured on at the
same clock: [input_path] spawn_import_factor_macos, from a published `import torch` time on a Mac (pytorch#97106).
The epoch's workers × that time is spread over its steps.

Compressed clips decoded on the fly (train.audio_decode, with the mean clip's train.audio_seconds): the Hugging Face
datasets Audio feature decodes each MP3 clip and resamples it 48 -> 16 kHz when the example is read (datasets 1.16-2.x
Audio._decode_mp3: torchaudio's sox_io with libmad, then torchaudio.transforms.Resample), priced per second of audio
([input_path] mp3_decode_s_per_audio_s + resample_s_per_audio_s, benchmarks/data/audio-decode.json); a streamed
archive adds the .tar.gz bytes read per clip it yields (train.stream_archive_bytes x tar_gz_read_s_per_mb). A stream
under the Trainer (mp3_stream) is iterated whole by every process (transformers' IterableDatasetShard keeps every
processes-th batch of the full stream), so each process decodes the clips of all processes. Without DataLoader workers
(train.loader_workers 0, the Trainer's default) the work is serial with the step, as above; downloading the stream is
not priced (no rate for the network to the Hub).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.choices import LOADER_STARTS
from gpucheck.estimate.dispatch import at_host_clock
from gpucheck.estimate.host import loader_workers
from gpucheck.records import AUDIO_DECODE, FEATURE_EXTRACTION, TrainSpec

IN_MAIN = ("on_the_fly_main", "precomputed_lists")


def sample_floats(t: TrainSpec, f: Mapping[str, Any]) -> int:
    """Floats one sample carries on the input path: train.input_floats, or a Whisper clip padded to 30 s."""
    return t.input_floats or int(f["input_path"]["whisper_clip_floats"])


def clip_seconds(t: TrainSpec, target: Any, f: Mapping[str, Any]) -> float:
    """CPU seconds the input path spends on one sample on this host (0.0 where the job does not say): the measured
    CPU seconds per million floats times the sample's floats."""
    if t.feature_extraction not in FEATURE_EXTRACTION:
        return 0.0
    p = f["input_path"]
    libs = t.input_libs or "current"
    kind = "lists" if t.feature_extraction == "precomputed_lists" else "feature"
    cpu_s = float(p[f"{kind}_s_per_mfloat_{libs}"]) * sample_floats(t, f) / 1e6
    return at_host_clock(cpu_s, p["reference_clock_mhz"], target, f)


def decode_seconds(t: TrainSpec, target: Any, f: Mapping[str, Any]) -> float:
    """CPU seconds one process spends decoding compressed audio for each sample it trains on, on this host (0.0 where
    the job's clips are not decoded on the fly): the clip's MP3 decoding and resampling, plus the archive bytes a
    stream reads for it; times the processes where each iterates the whole stream."""
    if t.audio_decode not in AUDIO_DECODE or t.audio_seconds <= 0.0:
        return 0.0
    p = f["input_path"]
    cpu_s = (t.audio_seconds * (float(p["mp3_decode_s_per_audio_s"]) + float(p["resample_s_per_audio_s"]))
             + t.stream_archive_bytes / 1e6 * float(p["tar_gz_read_s_per_mb"]))
    readers = target.processes if t.audio_decode == "mp3_stream" else 1
    return at_host_clock(cpu_s * readers, p["reference_clock_mhz"], target, f)


def sample_input_seconds(t: TrainSpec, target: Any, f: Mapping[str, Any]) -> float:
    """CPU seconds of the input path per sample on this host: its features (clip_seconds) and its decoding
    (decode_seconds)."""
    return clip_seconds(t, target, f) + decode_seconds(t, target, f)


def in_training_process(t: TrainSpec) -> bool:
    """The input path runs in the training process: features computed or read back there, or clips decoded there
    (no DataLoader workers)."""
    return t.feature_extraction in IN_MAIN or (not t.feature_extraction and t.loader_workers <= 0)


def on_macos(target: Any) -> bool:
    """The host runs macOS: the GPU is Apple's (Metal), or the CPU is."""
    return target.backend == "metal" or target.cpu_vendor == "apple"


def worker_start_seconds(t: TrainSpec, target: Any, f: Mapping[str, Any], data_samples: int) -> float:
    """Seconds per step the epoch's serial worker starts take (0.0 where the job's workers do not start by spawn at
    every epoch); `data_samples` stands for the epoch where train.epoch_samples is not set."""
    epoch = t.epoch_samples or data_samples
    if t.loader_start not in LOADER_STARTS or t.loader_workers <= 0 or epoch <= 0:
        return 0.0
    p = f["input_path"]
    imports_s = float(p["spawn_worker_start_s"]) * (float(p["spawn_import_factor_macos"]) if on_macos(target) else 1.0)
    cpu_s = imports_s + t.loader_dataset_bytes / 1e9 * float(p["spawn_pickle_s_per_gb"])
    per_worker_s = at_host_clock(cpu_s, p["reference_clock_mhz"], target, f)
    steps = max(1.0, epoch / float(t.batch * target.processes))  # each GPU's process starts its own, side by side
    return t.loader_workers * per_worker_s / steps


def with_worker_starts(sp: Any, t: TrainSpec, target: Any, f: Mapping[str, Any], data_samples: int) -> Any:
    """The Speed with the epoch's serial worker starts spread over its steps (input_seconds grows with them)."""
    extra = worker_start_seconds(t, target, f, data_samples)
    if extra <= 0.0 or not sp.step_seconds:
        return sp
    return sp.with_step(sp.step_seconds + extra, input_seconds=sp.input_seconds + extra)


def with_input_path(sp: Any, t: TrainSpec, target: Any, f: Mapping[str, Any]) -> Any:
    """The Speed with the input path's time in its step: added where the training process does the work, the longer
    of the two where workers do. input_seconds: what it adds to a step; input_bound: it sets the pace."""
    per = sample_input_seconds(t, target, f)
    if per <= 0.0 or not sp.step_seconds:
        return sp
    work = per * t.batch  # each GPU's process prepares its own micro-batch
    if in_training_process(t):
        step = sp.step_seconds + work
        bound = work >= sp.step_seconds
    else:
        step = max(sp.step_seconds, work / loader_workers(target.cpu_cores, target.processes, f))
        bound = step > sp.step_seconds
    return sp.with_step(step, input_seconds=step - sp.step_seconds, input_bound=bound,
                        bottleneck="input" if bound else sp.bottleneck)
