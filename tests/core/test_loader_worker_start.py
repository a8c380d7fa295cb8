"""DataLoader workers that start by spawn at every epoch (macOS' and Windows' default start method, no
persistent_workers): each epoch waits for its workers to start one after another, the GPU idle
(gpucheck/estimate/input_path.py worker_start_seconds, resources/factors.toml [input_path] spawn_worker_start_s,
measured in benchmarks/data/loader-worker-start.json).

Role of the published rows here: CALIBRATION (resources/evidence/roles.lock): the structure was chosen while the
Apple CIFAR-100 rows of mrdbourke/mac-ml-speed-test were compared. What a user notices is asserted against the
source's own figures, never against the model's output.
"""

from __future__ import annotations

import dataclasses

from tests.core import accuracy as A
from tests.helpers import evidence_rows

SOURCE = ("mrdbourke/mac-ml-speed-test results/results_pytorch_cv/*_CIFAR100_resnet50_32_pytorch_results.csv "
          "(commit c0430a5a): avg_time_per_epoch at batch 256, M3 115.5 s (8 workers), M3 Max 113.3 s (14 workers)")
M3, M3_MAX = "macml-cifar100-resnet50-b256-apple-m3", "macml-cifar100-resnet50-b256-apple-m3-max"


def _epoch_seconds(row, **train_changes) -> float:
    r = dataclasses.replace(row, train=dataclasses.replace(row.train, **train_changes))
    return 50_000 / A.run(r).samples_per_second


def test_a_mac_with_three_times_the_gpu_runs_small_image_epochs_no_faster_when_workers_restart():
    rows = evidence_rows((M3, M3_MAX))
    published = (50_000 / rows[M3].measured.value) / (50_000 / rows[M3_MAX].measured.value)
    m3, m3_max = _epoch_seconds(rows[M3]), _epoch_seconds(rows[M3_MAX])
    # published: the 30-core M3 Max's epoch is 0.98x the 10-core M3's; the M3 Max restarts 14 workers, the M3 8
    assert 0.75 < m3 / m3_max < 1.35, f"{SOURCE}: M3/M3 Max epoch {m3 / m3_max:.2f}, published {published:.2f}"
    # with persistent workers (started once) the GPUs' own ratio returns: the M3 Max well ahead
    m3_p, m3_max_p = (_epoch_seconds(rows[k], loader_start="") for k in (M3, M3_MAX))
    assert m3_p / m3_max_p > 1.5 and m3_max_p < m3_max


def test_the_estimate_counts_the_workers_starts_in_a_small_image_epoch():
    # the published epochs at batch 256 are 113-120 s on all four Macs; the GPUs' work alone is estimated at a seventh
    # to a third of that, and the epoch's serial worker starts bring the estimate within 2.5x of every one
    ids = [f"macml-cifar100-resnet50-b256-apple-{m}" for m in ("m1-pro", "m3", "m3-pro", "m3-max")]
    for row_id, row in evidence_rows(ids).items():
        measured = 50_000 / row.measured.value
        estimated = _epoch_seconds(row)
        assert measured / 2.5 < estimated < measured * 1.35, f"{row_id}: {estimated:.0f} s, published {measured:.0f} s"


def test_a_macs_worker_starts_are_priced_at_macos_import_speed():
    # a spawned worker's imports on macOS (factors.toml [input_path] spawn_import_factor_macos, from pytorch#97106's
    # published `import torch` time on a Mac): with them the batch-256 and batch-1024 epochs of the Macs, which the
    # source publishes at 110-120 s, are estimated within 1.6x; priced at the Linux import speed they were off by 2x
    ids = [f"macml-cifar100-resnet50-b256-apple-{m}" for m in ("m1-pro", "m3", "m3-pro", "m3-max")]
    ids += [f"mrdbourke-cifar100-resnet50-b1024-apple-{m}" for m in ("m1-pro-32gb", "m3-8gb")]
    for row_id, row in evidence_rows(ids).items():
        measured = 50_000 / A.measured_samples_per_s(row)
        estimated = _epoch_seconds(row)
        assert measured / 1.6 < estimated < measured * 1.35, f"{row_id}: {estimated:.0f} s, published {measured:.0f} s"
