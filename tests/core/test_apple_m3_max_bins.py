"""Apple sells the M3 Max with two GPUs, and the memory size tells them apart (MacBook Pro, Nov 2023, tech specs):
14-core CPU / 30-core GPU / 300 GB/s with 36 or 96 GB, 16-core CPU / 40-core GPU / 400 GB/s with 48, 64 or 128 GB.
A 36 GB M3 Max, named or scanned, is priced as the 30-core part; Daniel Bourke's 36 GB M3 Max ('14-core CPU |
30-core GPU | 36GB' in the README's machine table) then trains Food-101 at the published rate.
"""

from __future__ import annotations

import pytest

from gpucheck.catalog import find_gpu, gpu_for
from gpucheck.machine import Gpu
from tests.core import accuracy as A
from tests.helpers import evidence_row

GIB = 1024**3


@pytest.mark.parametrize("name, cores_gpu, gbps", [
    ("M3 Max 36GB", 30, 300.0), ("M3 Max 96GB", 30, 300.0),
    ("M3 Max 48GB", 40, 400.0), ("M3 Max 64GB", 40, 400.0), ("M3 Max 128GB", 40, 400.0),
])
def test_the_memory_size_names_the_m3_max_gpu(name, cores_gpu, gbps):
    g = find_gpu(name)
    assert g.mem_bandwidth_gbps == gbps
    assert ("30-core" in g.name) == (cores_gpu == 30)


@pytest.mark.parametrize("gib, bandwidth", [(36, 300.0), (128, 400.0)])
def test_a_scanned_m3_max_is_matched_by_its_memory(gib, bandwidth):
    scanned = Gpu(name="Apple M3 Max", vendor="apple", backend="metal", vram_total_bytes=gib * GIB)
    assert gpu_for(scanned).mem_bandwidth_gbps == bandwidth


@pytest.mark.parametrize("row_id", ["macml-food101-resnet50-b32-apple-m3-max", "macml-food101-resnet50-b128-apple-m3-max"])
def test_food101_on_the_30_core_m3_max_runs_at_the_published_rate(row_id):
    row = evidence_row(row_id)
    assert row.gpu == "apple m3 max 36gb"
    # priced on the 40-core part these were 1.21-1.26x too fast
    assert 0.8 <= A.speed_ratio(row) <= 1.15, (row_id, A.speed_ratio(row))
