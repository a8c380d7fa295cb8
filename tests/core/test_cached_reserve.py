"""What nvidia-smi shows beyond what a job needs when its steps change shape (gpucheck/estimate/logits.py
cached_reserve_bytes, resources/factors.toml [overhead.cached_reserve]): the loss blocks each step longer than every
earlier one leaves cached, H_N − 1 generations for N shuffled steps. They are freed before PyTorch reports out of
memory, so they are shown, never part of the verdict.

Role of the published rows here: ModelScope SWIFT's reserves are CALIBRATION (resources/evidence/roles.lock,
2026-12-03): the two constants come from the caching-allocator replay of that benchmark's own length model. Answer.AI's
and Qwen's rows, whose steps keep one shape (dummy data cut to the context length; every sample padded to one length),
are validation rows for the other half of the rule: nothing may be cached there.
"""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gpucheck.catalog import find_gpu, get_workload, read_toml  # noqa: E402
from gpucheck.estimate import Target, estimate  # noqa: E402
from gpucheck.estimate.factors import parse_factors  # noqa: E402
from gpucheck.estimate.logits import record_steps  # noqa: E402
from gpucheck.evidence import load_evidence  # noqa: E402
from gpucheck.machine import Machine  # noqa: E402
from gpucheck.resources import resource_path  # noqa: E402
from tests.core import accuracy as A  # noqa: E402

ROWS = {r.id: r for r in load_evidence()}
# SWIFT's LoRA table at batch 1 (Qwen 1.8B, 7B, 14B at 512 and 2,048 tokens): torch.cuda.max_memory_reserved()
SWIFT = [f"swift-qwen-{m}-lora-s{s}-mem" for m in ("1_8b", "7b", "14b") for s in (512, 2048)]


def _records(rng: random.Random, n: int) -> int:
    lengths = [rng.random() for _ in range(n)]
    best, count = -1.0, 0
    for x in lengths:
        if x > best:
            best, count = x, count + 1
    return count


@pytest.mark.parametrize("n", [1, 2, 10, 320, 2000])
def test_the_expected_count_of_new_longest_steps_is_the_harmonic_number(n: int) -> None:
    """A shuffled run of n steps meets a step longer than every earlier one H_n times on average (counted here over
    600 random orders, fixed seed)."""
    rng = random.Random(20261203 + n)
    mean = sum(_records(rng, n) for _ in range(600)) / 600
    assert record_steps(n) == pytest.approx(mean, rel=0.06)
    assert record_steps(2) == pytest.approx(1.5)


@pytest.mark.parametrize("rid", SWIFT)
def test_swift_reserves_are_met_once_the_cached_blocks_count(rid: str) -> None:
    """What the job needs falls short of the published reserve (by more than 10 % at 2,048 tokens, where one cached
    generation of Qwen's 151,936-entry loss is 2.4 GiB); the reserve with the blocks a shuffled run leaves cached is
    within −10 % … +25 % of it."""
    row = ROWS[rid]
    e = A.run(row)
    measured = row.measured.bytes
    assert e.cached_bytes > 0
    assert -0.10 <= e.reserved_bytes / measured - 1 <= 0.25, (rid, e.reserved_bytes / measured - 1)
    if row.train.seq_len == 2048:
        assert (e.reserved_bytes - e.cached_bytes) / measured - 1 < -0.10, rid


def test_steps_of_one_shape_leave_nothing_cached() -> None:
    """Answer.AI's benchmark trains on dummy samples cut to the context length, and Qwen's README profile pads every
    sample to one length: every step has one shape, so their reserves hold no blocks of shorter steps."""
    rows = [r for r in ROWS.values() if r.measured.is_memory
            and r.source.id in ("answerai-fsdp-qlora-benchmarks", "qwen-readme-finetune-profile")]
    assert len(rows) > 20
    for r in rows:
        assert A.run(r).cached_bytes == 0, r.id


def _without_cache():
    doc = copy.deepcopy(read_toml(resource_path("factors.toml")))
    doc["overhead"]["cached_reserve"]["record_size_fraction"] = 0.0
    return parse_factors(doc, "test")


@pytest.mark.parametrize("gpu", ["rtx 4060 8gb", "rtx 3060 12gb", "rtx 4090", "a100 80gb"])
def test_the_cache_is_shown_but_never_decides_the_verdict(gpu: str) -> None:
    """Whisper-small's labels are padded to each batch's longest: what nvidia-smi may show grows by the cached loss
    blocks, up to the card's memory at most, while what the job needs, its verdict and its band stay as they are."""
    w = get_workload("whisper-small-finetune")
    target = Target.from_gpu(find_gpu(gpu))
    e = estimate(w, target)
    with A.with_factors(_without_cache()):
        bare = estimate(w, target)
    assert bare.cached_bytes == 0 < e.cached_bytes
    assert (e.peak_vram_bytes, e.verdict, e.vram_band_bytes) == (bare.peak_vram_bytes, bare.verdict,
                                                                bare.vram_band_bytes)
    assert e.nvidia_smi_bytes == bare.nvidia_smi_bytes + e.cached_bytes <= find_gpu(gpu).vram_bytes
    said = [n for n in e.notes if "nvidia-smi" in n]
    assert len(said) == (1 if e.cached_worth_a_line else 0)


def test_the_cache_note_names_the_allocator_setting_that_avoids_it_where_pytorch_has_it() -> None:
    """expandable_segments maps one growing segment whose freed blocks merge, so a longer step reuses the shorter
    steps' memory (PyTorch devlog, "When does fragmentation occur in the CUDA caching allocator?", 2026-06-01). Only
    Linux CUDA builds have it (c10/cuda/CUDAAllocatorConfig.h warns "not supported on this platform" elsewhere, ROCm
    builds included): the tip is given on NVIDIA GPUs, says Linux, and is not given on AMD's."""
    w = get_workload("whisper-small-finetune")
    nvidia = estimate(w, Target.from_gpu(find_gpu("rtx 3060 12gb")))
    assert nvidia.cached_worth_a_line
    tip = [n for n in nvidia.notes if "expandable_segments:True" in n]
    assert len(tip) == 1 and "Linux" in tip[0]
    amd = estimate(w, Target.from_gpu(find_gpu("rx 7900 xtx")))
    assert amd.cached_bytes > 0
    assert not [n for n in amd.notes if "expandable_segments" in n]
    # a scanned Windows PC (an RTX 2060 SUPER, 8 GB): the cache is still shown, the Linux-only setting is not
    windows = Machine.load(str(ROOT / "tests" / "fixtures" / "machines" / "rtx2060super-windows.json"))
    target = Target.from_machine(windows)
    assert target.platform == "windows"
    on_windows = estimate(w, target)
    assert on_windows.cached_bytes > 0
    assert not [n for n in on_windows.notes if "expandable_segments" in n]
