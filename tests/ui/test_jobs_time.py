"""The jobs table gives the time the verdict refers to — the same as the details page, the report and
`gpucheck check` — on recorded machines (tests/fixtures/machines)."""

from __future__ import annotations

from gpucheck.advise import advise
from gpucheck.catalog import get_workload
from gpucheck.estimate import Target, apply_overrides, estimate
from gpucheck.i18n import fmt_duration
from gpucheck.machine import Machine
from tests.ui.conftest import machine_path

COL_TIME = 2


def _time_cell(wizard, path, workload_id: str) -> str:
    assert wizard.open_machine_file(str(path))
    wizard.next()
    wizard.next()
    row = wizard.jobs.row_of(workload_id)
    return wizard.jobs.table.item(row, COL_TIME).text()


def test_a_job_that_does_not_fit_shows_no_training_time(wizard):
    # SD 1.5 LoRA needs more RAM than the office PC's 8 GB: no "3.6 days" for a job that cannot run
    path = machine_path("office", "cpu")
    m = Machine.load(path)
    w = get_workload("sd15-lora")
    adv = advise(m, w, Target.from_machine(m))
    assert adv.verdict == "does_not_fit"
    assert _time_cell(wizard, path, "sd15-lora") == "—"


def test_a_job_slowed_by_the_cpu_shows_the_slowed_time(wizard):
    # 8× H100 with fused kernels (the user picks them under the job's software stack): the GPUs alone would
    # need well under 1.5 h for ImageNet; the JPEG-decoding CPU stretches it, and the table shows what the
    # details page says
    path = machine_path("h100")
    m = Machine.load(path)
    w = apply_overrides(get_workload("imagenet-resnet50"), stack="fused")
    t = Target.from_machine(m)
    adv = advise(m, w, t, estimate(w, t))
    assert adv.host_limited_hours and adv.host_limited_hours > estimate(w, t).total_hours
    assert wizard.open_machine_file(str(path))
    wizard.next()
    wizard.next()
    jobs = wizard.jobs
    jobs.select("imagenet-resnet50")
    jobs.stack.setCurrentIndex(jobs.stack.findData("fused"))
    assert jobs.table.item(jobs.row_of("imagenet-resnet50"), COL_TIME).text() == fmt_duration(adv.host_limited_hours)


def test_cpu_ram_chart_adds_up_to_the_ram_the_job_needs(wizard):
    # office PC, SD 1.5 LoRA on the CPU: 11 GB of RAM needed, 8 GB present. The chart must not draw
    # only the training tensors (about 5 GB), which looked as if the job fitted.
    path = machine_path("office", "cpu")
    m = Machine.load(path)
    est = estimate(get_workload("sd15-lora"), Target.from_machine(m))
    assert est.ram_bytes > m.memory.total_bytes > est.breakdown.total_bytes
    assert wizard.open_machine_file(str(path))
    wizard.next()
    wizard.next()
    wizard.jobs.select("sd15-lora")
    wizard.next()
    chart = wizard.details.chart
    assert chart.ram
    assert abs(chart.total_bytes() - est.ram_bytes) <= 1
