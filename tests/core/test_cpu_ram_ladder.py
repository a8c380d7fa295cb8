"""On a PC without a GPU the system RAM holds the whole job, as a GPU's memory does, so the advice stretches it with the
same tricks it uses on a small card: a smaller micro-batch with gradient accumulation (same effective batch), cached
encoder outputs, gradient checkpointing (gpucheck/advise/ladder.py CPU_RUNGS). Checked on the recorded 8 GB office PC
(tests/fixtures/machines/office-pc-cpu-only.json: 8.0 GiB installed, 5.0 GiB free at its scan, no native bf16)."""

from __future__ import annotations

from gpucheck.i18n import use_language
from tests.conftest import FIXTURES
from tests.helpers import estimate_and_advise

OFFICE = FIXTURES / "machines" / "office-pc-cpu-only.json"
GIB = 1024**3


def test_a_job_that_needs_more_ram_than_installed_is_stretched_with_a_smaller_micro_batch():
    """ResNet-50 at batch 64 in fp32 needs 9.9 GiB of the office PC's 8: it was 'Does not fit' with no way out. A
    smaller micro-batch with accumulation keeps the effective batch and the training, and brings it under what is
    installed: the verdict says it may fit (more than the 5 GiB free at the scan), with the change to make."""
    est, adv = estimate_and_advise(OFFICE, "resnet50-finetune")
    assert est.verdict == "does_not_fit" and est.ram_bytes > 8 * GIB
    assert adv.verdict in ("tight", "runs_with_tweaks")
    (tweak,) = adv.tweaks
    assert tweak.id == "micro_batch"
    batch, accum = tweak.settings["per_device_train_batch_size"], tweak.settings["gradient_accumulation_steps"]
    assert batch < 64 and batch * accum == 64
    assert adv.final_ram_bytes < 8 * GIB < est.ram_bytes
    assert adv.final_total_hours is not None


def test_a_job_that_fits_as_configured_gets_no_change_on_a_cpu():
    est, adv = estimate_and_advise(OFFICE, "mnist-cnn")
    assert est.verdict == adv.verdict == "runs" and adv.tweaks == ()


def test_a_cpu_job_that_may_fit_keeps_the_ram_fix_its_summary_points_to():
    """BERT-base needs 7.2 GiB: less than installed, more than was free. The summary says to close programs and to
    see the RAM fix below, which is there."""
    with use_language("en"):
        _est, adv = estimate_and_advise(OFFICE, "bert-base-finetune")
    assert adv.verdict == "tight" and "RAM fix below" in adv.summary
    assert any(b.id == "ram" for b in adv.bottlenecks)


def test_a_job_no_micro_batch_saves_stays_out_of_reach_and_points_to_a_gpu():
    """Llama 3 8B LoRA needs 39 GiB: its frozen weights alone are more than the office PC holds, so no change to the
    micro-batch makes it fit; the answer stays 'does not fit', without a RAM bottleneck (a GPU is the answer)."""
    _est, adv = estimate_and_advise(OFFICE, "llama3-8b-lora")
    assert adv.verdict == "does_not_fit"
    assert not any(b.id == "ram" for b in adv.bottlenecks)


def test_a_time_range_no_published_run_checks_is_not_called_eight_in_ten():
    """The details page says 'about 8 in 10 published runs fell inside such a range' beside a time range; on a CPU,
    where no published run checks the range (it is the wide default), it says so instead. On an NVIDIA card, where
    the language-model range rests on published runs, the sentence stays."""
    from gpucheck.report.figures import job_figures, range_sentence
    from tests.helpers import advise_on_gpu

    with use_language("en"):
        est, adv = estimate_and_advise(OFFICE, "resnet50-finetune")
        cpu = range_sentence(job_figures(est, adv))
        _w, est_gpu, adv_gpu = advise_on_gpu("qwen2.5-1.5b-lora", "rtx 4090")
        gpu = range_sentence(job_figures(est_gpu, adv_gpu))
    assert not est.hours_range_checked and "8 in 10" not in cpu and "no published run of this kind" in cpu
    assert est_gpu.hours_range_checked and "8 in 10" in gpu
