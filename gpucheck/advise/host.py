"""Bottlenecks outside the GPU's memory: data loading, RAM, disks, PCIe, heat, power, battery.

Pure: (Machine, Workload, Estimate) → tuple[Bottleneck, ...]. Figures come from the scan (measured
ones first) and resources/advice.toml.
"""

from __future__ import annotations

import math

from gpucheck.advise.data import factor, psu_required_w
from gpucheck.advise.model import Bottleneck
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.input_path import in_training_process
from gpucheck.estimate.target import power_budget_clock
from gpucheck.i18n import fmt_duration, fmt_gib, fmt_number, tr
from gpucheck.machine import Disk, Gpu, Machine
from gpucheck.records import Estimate, Workload
from gpucheck.region import in_mainland

GIB = 1024**3
IMAGE_FAMILIES = ("vision", "diffusion")
THROTTLE_HEAT = ("thermal", "hw_thermal", "sw_thermal", "hw_slowdown")


def bottlenecks(machine: Machine | None, workload: Workload, est: Estimate | None,
                other_gpu_vendor: str | None = None, as_configured: Estimate | None = None) -> tuple[Bottleneck, ...]:
    """Bottlenecks of `machine` for this job. `other_gpu_vendor` set: the estimate is for a GPU this
    machine does not have ("what if I had…"), so only its CPU, RAM and disks are judged."""
    if machine is None:
        return ()
    out: list[Bottleneck] = []
    gpus = machine.compute_gpus()
    if other_gpu_vendor is not None:
        if est is None:
            return ()
        out += _ram(machine, est)
        loader = _data_loading(machine, workload, est, other_gpu_vendor)
        return tuple(out + loader + _audio_input(machine, est) + _disk(machine, workload, est, loader))
    if not gpus:
        out.append(Bottleneck(
            id="cpu_only", severity="warning",
            message=tr("This computer has no GPU that can train models: everything would run on the CPU, "
                       "10 to 100 times slower."),
            # no pointer to the cloud section: `gpucheck check` prints this without one (Baidu AI Studio's GPUs
            # run PaddlePaddle only, so it is no PyTorch option: PaddlePaddle/Paddle#54520)
            fix=tr("Use a free notebook platform with PyTorch (ModelScope) or rent a GPU by the hour "
                   "(AutoDL).") if in_mainland() else
            tr("Use a free notebook platform (Google Colab, Kaggle) or rent a GPU by the hour."),
        ))
    out += _battery(machine)
    out += _mig(gpus, as_configured)
    out += _thermal(machine, gpus)
    out += _psu(machine, gpus)
    out += _pcie(machine, gpus)
    if est is not None:
        out += _ram(machine, est)
        loader = _data_loading(machine, workload, est, gpus[0].vendor if gpus else None)
        out += loader + _audio_input(machine, est)
        out += _disk(machine, workload, est, loader)
    return tuple(out)


def limited_hours(est: Estimate, found: tuple[Bottleneck, ...]) -> float | None:
    """The run's hours once the CPU's decoding or the disk caps the samples per second (None: no cap)."""
    if not est.samples_per_second or not est.total_hours:
        return None
    caps = []
    for b in found:
        if b.severity != "warning":
            continue
        if b.id == "data_loading" and b.figures.get("cpu_images_per_s"):
            caps.append(b.figures["cpu_images_per_s"])
        if b.id == "disk_speed" and b.figures.get("disk_samples_per_s"):
            caps.append(b.figures["disk_samples_per_s"])
    if not caps or min(caps) >= est.samples_per_second:
        return None
    return est.total_hours * est.samples_per_second / min(caps)


# -- power ---------------------------------------------------------------------------------------


def _battery(machine: Machine) -> list[Bottleneck]:
    if machine.power.on_battery:
        pct = machine.power.battery_percent
        return [Bottleneck(
            id="battery", severity="warning",
            message=tr("This laptop is running on battery: the GPU is held to a much lower power limit, and a "
                       "training run would drain the battery{pct}.",
                       pct="" if pct is None else tr(" (now at {p}%)", p=f"{pct:.0f}")),
            fix=tr("Plug in the charger before training, and set the power mode to performance."),
            figures={"battery_percent": pct},
        )]
    return []


def _mig(gpus: tuple[Gpu, ...], est: Estimate | None) -> list[Bottleneck]:
    """MIG splits the GPU: a job that does not fit one slice may fit the whole GPU."""
    if not gpus or est is None or est.fits or not gpus[0].mig_enabled or not gpus[0].vram_total_bytes:
        return []
    g = gpus[0]
    if est.peak_vram_bytes > g.vram_total_bytes * 0.97:
        return []
    return [Bottleneck(
        id="mig", severity="info",
        message=tr("{gpu} is split into MIG slices: this job gets {slice}, but as it is configured it needs "
                   "{need}, which the whole GPU ({total}) would hold.", gpu=g.name,
                   slice=fmt_gib(est.vram_available_bytes), need=fmt_gib(est.peak_vram_bytes),
                   total=fmt_gib(g.vram_total_bytes)),
        fix=tr("Ask the administrator to turn MIG off for this GPU ('sudo nvidia-smi -i {i} -mig 0', with no jobs "
               "running, then reset the GPU), or use the changes below to fit one slice.", i=g.index),
        figures={"slice_bytes": est.vram_available_bytes, "needed_bytes": est.peak_vram_bytes,
                 "gpu_total_bytes": g.vram_total_bytes},
    )]


def _thermal(machine: Machine, gpus: tuple[Gpu, ...]) -> list[Bottleneck]:
    limit = float(factor("thermal", "throttle_temperature_c"))
    out = []
    measured_throttle = tuple(machine.measured.gpu_throttle_after) if machine.measured else ()
    measured_after = machine.measured.gpu_temperature_after_c if machine.measured else None
    for g in gpus:
        reasons = [r for r in g.throttle_reasons if r in THROTTLE_HEAT]
        if g is gpus[0]:
            reasons += [r for r in measured_throttle if r in THROTTLE_HEAT and r not in reasons]
        temps = [t for t in (g.temperature_c, measured_after if g is gpus[0] else None) if t is not None]
        hot = max(temps) if temps else None
        if reasons or (hot is not None and hot >= limit):
            out.append(Bottleneck(
                id="thermal", severity="warning",
                message=tr("{gpu} is slowing itself down because of heat ({why}). Training keeps the GPU at full "
                           "load for hours, so it will run slower than its rated speed.",
                           gpu=g.name, why=", ".join(reasons) if reasons else tr("{t} °C", t=f"{hot:.0f}")),
                fix=tr("Clean the dust filters and fans, improve case airflow (or use a laptop cooling pad), and "
                       "consider a slightly lower power limit (e.g. 'nvidia-smi -pl'): it costs little speed and "
                       "keeps clocks steady."),
                figures={"temperature_c": hot, "throttle_reasons": reasons},
            ))
    return out


def psu_rated_w(machine: Machine) -> float | None:
    """The PSU rating the user stated (the scan cannot read a PSU)."""
    return machine.power.psu_rated_w


def _psu(machine: Machine, gpus: tuple[Gpu, ...]) -> list[Bottleneck]:
    if not gpus or machine.power.is_laptop or any(g.vendor == "apple" for g in gpus):
        return []
    if machine.power.is_server:
        return []  # a server's redundant power supplies are sized by its vendor: nothing to buy here
    rated = psu_rated_w(machine)
    rest = float(factor("power", "rest_of_system_w"))
    load = float(factor("power", "max_sustained_load"))
    gpu_w = sum((g.power_limit_w or g.power_default_limit_w or 0.0) for g in gpus)
    cpu_w = machine.power.cpu_tdp_w or machine.cpu.tdp_w or 0.0
    computed = (gpu_w + cpu_w + rest) / load if gpu_w else None
    vendor = psu_required_w(gpus[0].name) if len(gpus) == 1 else None
    needed = max(x for x in (vendor, computed, machine.power.recommended_psu_w) if x is not None) \
        if any(x is not None for x in (vendor, computed, machine.power.recommended_psu_w)) else None
    if needed is None:
        return []
    figures = {"psu_rated_w": rated, "psu_needed_w": round(needed), "vendor_required_w": vendor,
               "gpu_power_limit_w": gpu_w or None, "cpu_tdp_w": cpu_w or None}
    if rated is None:
        if vendor is not None and gpu_w >= 250:  # a consumer card with a published PSU requirement
            return [Bottleneck(
                id="psu", severity="info",
                message=tr("The scan cannot read your power supply's rating. With this GPU it should be at least "
                           "{w} W.", w=f"{needed:.0f}"),
                fix=tr("Check the label on the power supply; if it is smaller, the PSU needs replacing."),
                figures=figures,
            )]
        return []
    if rated >= needed:
        return []
    who = tr("{gpu} needs a {w} W power supply (vendor's requirement)", gpu=gpus[0].name, w=f"{vendor:.0f}") \
        if vendor is not None and vendor >= needed - 1 else \
        tr("this system needs about {w} W under full load", w=f"{needed:.0f}")
    cap = max(100.0, (rated * load) - cpu_w - rest) / max(1, len(gpus))  # each GPU's share of what the PSU gives
    loss = _cap_clock_loss(cap, gpu_w / max(1, len(gpus)))
    return [Bottleneck(
        id="psu", severity="warning",
        message=tr("Your power supply is rated {rated} W, but {who}. Training holds the GPU at up to {gpu_w} W "
                   "for hours, and short power spikes can trip the supply's protection: sudden shutdowns or "
                   "reboots in the middle of a run.",
                   rated=f"{rated:.0f}", who=who, gpu_w=f"{gpu_w:.0f}"),
        fix=tr("Replace the power supply with a {w} W or larger ATX 3.x unit. Until then, cap the GPU's power, "
               "e.g. 'sudo nvidia-smi -pl {cap}': its clock drops by about {p}%, and steps bound by the memory or "
               "the CPU lose less.",
               w=f"{_round_psu(needed):.0f}", cap=f"{cap:.0f}", p=f"{loss * 100:.0f}"),
        figures={**figures, "power_cap_w": round(cap), "power_cap_clock_loss": round(loss, 3)},
    )]


def _cap_clock_loss(cap_w: float, default_w: float) -> float:
    """The share of its clock a GPU loses under a power cap, by the law the estimate prices it with
    (gpucheck/estimate/target.py power_budget_clock: the clock falls as the cube root of the power)."""
    return 0.0 if default_w <= 0 else 1.0 - power_budget_clock(cap_w / default_w, load_factors())


def _round_psu(watts: float) -> float:
    for size in (450, 550, 650, 750, 850, 1000, 1200, 1300, 1600, 2000):
        if watts <= size:
            return float(size)
    return float(watts)


# -- PCIe ----------------------------------------------------------------------------------------


def _pcie(machine: Machine, gpus: tuple[Gpu, ...]) -> list[Bottleneck]:
    out = []
    min_lanes = int(factor("pcie", "min_lanes_multi_gpu"))
    per_lane = factor("pcie", "gbps_per_lane")
    multi = len(gpus) > 1
    nvlinked = multi and all((g.nvlink_links or 0) > 0 for g in gpus)
    for g in gpus:
        w = g.pcie_width_current
        if w is None or g.vendor == "apple":
            continue
        gen = g.pcie_gen_current or g.pcie_gen_max
        gbps = per_lane.get(str(gen)) * w if gen and str(gen) in per_lane else None
        if multi and not nvlinked and w < min_lanes:
            out.append(Bottleneck(
                id="pcie", severity="warning",
                message=tr("{gpu} is connected with only {w} PCIe lanes{speed} and the GPUs have no NVLink: "
                           "multi-GPU training swaps gradients over PCIe every step, so it will scale poorly.",
                           gpu=g.name, w=w, speed="" if gbps is None else tr(" (about {g} GB/s)", g=f"{gbps:.0f}")),
                fix=tr("Move the GPUs to slots wired x8 or x16 (see the motherboard manual), or train on one GPU "
                       "with gradient accumulation."),
                figures={"pcie_width": w, "pcie_gen": gen, "gbps": gbps},
            ))
        elif not multi and w <= 4 and (g.pcie_width_max or 16) >= 8:
            out.append(Bottleneck(
                id="pcie", severity="info",
                # a laptop's link is how the laptop was built: no slot to blame, nothing to move
                message=tr("{gpu} runs on only {w} PCIe lanes (a chipset slot or riser?). Single-GPU training is "
                           "mostly fine, but loading data and CPU offload will be slower.", gpu=g.name, w=w)
                if not machine.power.is_laptop else
                tr("This laptop connects {gpu} with {w} PCIe lanes, as it was built. Single-GPU training is "
                   "mostly fine; loading data and CPU offload are slower than on a desktop.", gpu=g.name, w=w),
                fix=tr("Use the top x16 slot if you can.") if not machine.power.is_laptop else
                tr("Nothing to change: a laptop's GPU link is fixed. Keep the data set on the internal SSD."),
                figures={"pcie_width": w, "pcie_gen": gen, "gbps": gbps},
            ))
    return out


# -- RAM, data loading, disks ----------------------------------------------------------------------


def dataset_bytes(workload: Workload) -> int:
    return int(workload.data.samples * max(0, workload.data.bytes_per_sample))


def _ram(machine: Machine, est: Estimate) -> list[Bottleneck]:
    """System RAM, named as RAM with its own fix: more than installed (or than WSL 2 lets Linux use) is an
    error; more than was free at the scan is a warning (close programs). Laptops and Macs with soldered
    memory are never told to add RAM."""
    total = machine.memory.total_bytes
    free = machine.memory.available_bytes
    if total is None or not est.ram_bytes:
        return []
    over_total = est.ram_bytes > total
    if not over_total and (free is None or est.ram_bytes <= free):
        return []
    soldered = bool(machine.power.is_laptop) or machine.memory.shared_with_gpu
    add = "" if soldered else tr("add RAM, ")
    fix = tr("Close other programs (browsers, games, other notebooks) before training; {add}use fewer "
             "DataLoader workers, or stream the data set (datasets' streaming=True / memory-mapped files) instead "
             "of loading it whole.", add=add)
    if machine.software.platform == "wsl":
        # WSL 2 gives Linux only part of the PC's memory (half by default): raising the cap is free
        fix = tr("WSL 2 lets Linux use only part of the PC's memory (half by default). Give it more in "
                 "%UserProfile%\\.wslconfig — [wsl2] then memory=… (e.g. three quarters of your RAM) — and "
                 "run 'wsl --shutdown'. Otherwise: {fix}", fix=fix)
    if over_total:
        message = tr("This job needs about {need} of RAM, but this computer has {have}: it would swap to disk "
                     "and crawl, or be killed.", need=fmt_gib(est.ram_bytes), have=fmt_gib(total))
    else:
        message = tr("This job needs about {need} of RAM; {free} of {have} was free when the PC was scanned: "
                     "other programs hold the rest.", need=fmt_gib(est.ram_bytes), free=fmt_gib(free),
                     have=fmt_gib(total))
    return [Bottleneck(
        id="ram", severity="error" if over_total else "warning", message=message, fix=fix,
        figures={"ram_needed_bytes": est.ram_bytes, "ram_total_bytes": total, "ram_available_bytes": free},
    )]


def cpu_images_per_s(machine: Machine, image_size: int | None = None) -> tuple[float | None, int, bool]:
    """(images/s this CPU can decode+augment with its DataLoader workers, workers, measured?).

    Rates are for ImageNet-sized JPEGs cropped to `reference_image_size`; smaller images scale up by pixels."""
    rate, workers, measured = _cpu_reference_images_per_s(machine)
    ref = float(factor("data_loading", "reference_image_size"))
    if rate is not None and image_size:
        rate *= (ref / image_size) ** 2
    return rate, workers, measured


def _cpu_reference_images_per_s(machine: Machine) -> tuple[float | None, int, bool]:
    cores = machine.cpu.physical_cores or machine.cpu.logical_cores
    reserve = int(factor("data_loading", "reserve_cores"))
    workers = max(1, (cores or 1) - reserve)  # one worker per physical core, one core left for training
    m = machine.measured
    if m is not None and m.cpu_images_per_s_all_cores:
        return float(m.cpu_images_per_s_all_cores), workers, True
    if m is not None and m.cpu_images_per_s_one_core and cores:
        return float(m.cpu_images_per_s_one_core) * max(1, cores - reserve), workers, True
    if not cores:
        return None, workers, False
    return float(factor("data_loading", "images_per_s_per_core")) * max(1, cores - reserve), workers, False


def _data_loading(machine: Machine, workload: Workload, est: Estimate, vendor: str | None) -> list[Bottleneck]:
    if workload.family not in IMAGE_FAMILIES or not est.samples_per_second or vendor is None:
        return []
    cpu_rate, workers, measured = cpu_images_per_s(machine, est.train.image_size)
    if cpu_rate is None:
        return []
    gpu_rate = est.samples_per_second
    figures = {"gpu_samples_per_s": gpu_rate, "cpu_images_per_s": cpu_rate, "workers": workers,
               "measured": measured}
    if cpu_rate >= gpu_rate:
        return []
    slowdown = gpu_rate / cpu_rate
    hours = est.total_hours * slowdown if est.total_hours else None
    figures["time_factor"] = slowdown
    figures["total_hours_cpu_bound"] = hours
    dali = tr(", or decode on the GPU with NVIDIA DALI") if vendor == "nvidia" else ""
    return [Bottleneck(
        id="data_loading", severity="warning",
        message=tr("The GPU could train on about {gpu} images/s, but this CPU can decode and augment only about "
                   "{cpu} images/s with {w} DataLoader workers{how}: the GPU will wait for data and the run takes "
                   "about {f}× longer ({h}).",
                   gpu=fmt_number(gpu_rate, 0), cpu=fmt_number(cpu_rate, 0), w=workers,
                   how=tr(" (measured)") if measured else tr(" (typical for this core count)"),
                   f=f"{slowdown:.1f}", h=fmt_duration(hours)),
        fix=tr("Use DataLoader(num_workers={w}, pin_memory=True, persistent_workers=True); resize the images "
               "once to the training size before training{dali}.", w=workers, dali=dali),
        figures=figures,
    )]


def _audio_input(machine: Machine, est: Estimate) -> list[Bottleneck]:
    """The CPU's audio feature work sets the step's pace (the estimate counts it: estimate/input_path.py): say so
    and how to take it off the critical path, with as many workers as cover that work within a GPU step."""
    if not est.step_seconds or not est.input_seconds:
        return []
    in_process = in_training_process(est.train)  # serial with the step: moving it to workers removes it
    if not est.input_bound and not (in_process and est.input_seconds >= factor("data_loading", "serial_input_share")
                                    * est.step_seconds):
        return []
    cores = machine.cpu.physical_cores or machine.cpu.logical_cores or 1
    gpu_s = max(0.0, est.step_seconds - est.input_seconds)
    # enough workers that each prepares its batch within a GPU step (plus one spare), from the cores each GPU's
    # process can have
    per_process = max(1, (cores - int(factor("data_loading", "reserve_cores"))) // max(1, len(machine.compute_gpus())))
    workers = max(1, min(per_process, math.ceil(est.input_seconds / max(gpu_s, 1e-3)) + 1))
    how = est.train.feature_extraction
    if how == "precomputed_lists":
        work = tr("reading each clip's precomputed features back as Python lists and padding them")
        fix = tr("Set dataloader_num_workers={w} in the training arguments so the CPU prepares the next batches while "
                 "the GPU trains, or read the features as arrays (dataset.with_format(\"torch\")).", w=workers)
    elif not how and est.train.audio_decode:
        work = tr("decoding and resampling each compressed audio clip")
        fix = tr("Set dataloader_num_workers={w} in the training arguments so the CPU decodes the next clips while the "
                 "GPU trains, or decode the clips once before training (dataset.map without streaming).", w=workers) \
            if in_process else tr("Decode the clips once before training (dataset.map without streaming), or use a "
                                  "CPU with more cores.")
    elif how == "on_the_fly_main":
        work = tr("computing each clip's log-Mel features in the training process")
        fix = tr("Compute the features once before training (dataset.map), or set dataloader_num_workers={w} in the "
                 "training arguments so the CPU prepares the next batches while the GPU trains.", w=workers)
    else:
        work = tr("computing each clip's log-Mel features in the DataLoader workers")
        fix = tr("Compute the features once before training (dataset.map), or use a CPU with more cores.")
    return [Bottleneck(
        id="audio_input", severity="warning",
        message=tr("The CPU, not the GPU, sets the pace: {work} takes about {cpu} s of each {step} s step, the GPU's "
                   "work about {gpu} s.", work=work, cpu=fmt_number(est.input_seconds, 2),
                   step=fmt_number(est.step_seconds, 2), gpu=fmt_number(gpu_s, 2)),
        fix=fix,
        figures={"input_seconds_per_step": est.input_seconds, "gpu_seconds_per_step": gpu_s, "workers": workers},
    )]


def _disk_ok(d: Disk) -> bool:
    return d.kind != "virtual" and d.total_bytes is not None


def _data_disk(machine: Machine, need_bytes: int) -> Disk | None:
    """The disk the data set most likely sits on: the measured one, else the roomiest real disk."""
    disks = [d for d in machine.disks if _disk_ok(d)]
    if not disks:
        return None
    m = machine.measured
    if m is not None and m.disk_path:
        for d in disks:
            if d.mount in (m.disk_mount, m.disk_path):  # disk_mount: the mount holding the chosen folder
                return d
    return max(disks, key=lambda d: d.free_bytes or 0)


def _fast_disk_with_room(machine: Machine, need_bytes: int) -> Disk | None:
    fast = [d for d in machine.disks if d.kind in ("nvme", "ssd") and (d.free_bytes or 0) >= need_bytes]
    return max(fast, key=lambda d: d.free_bytes or 0) if fast else None


def _read_rate(machine: Machine, disk: Disk, bytes_per_sample: int) -> tuple[float, bool]:
    small_files = bytes_per_sample < 1_000_000
    m = machine.measured
    if m is not None and disk.mount in (m.disk_mount, m.disk_path):
        value = m.disk_rand_read_mb_per_s if small_files else m.disk_seq_read_mb_per_s
        if value:
            return float(value), True
    table = factor("disk", "random_read_mb_per_s" if small_files else "seq_read_mb_per_s")
    return float(table[disk.kind] if disk.kind in table else table["unknown"]), False  # advice.toml [disk]


def _disk(machine: Machine, workload: Workload, est: Estimate, loader: list[Bottleneck]) -> list[Bottleneck]:
    out: list[Bottleneck] = []
    data = dataset_bytes(workload)
    margin = int(float(factor("disk", "free_space_margin_gib")) * GIB)
    need_space = max(est.disk_bytes or 0, data) + margin
    real = [d for d in machine.disks if _disk_ok(d) and d.free_bytes is not None]
    if real and max(d.free_bytes for d in real) < need_space:
        out.append(Bottleneck(
            id="disk_space", severity="error",
            message=tr("The data set, model and checkpoints need about {need} of free disk space; the most free "
                       "space on any disk here is {have}.",
                       need=fmt_gib(need_space), have=fmt_gib(max(d.free_bytes for d in real))),
            fix=tr("Free some space, keep fewer checkpoints (save_total_limit=2), or add an SSD."),
            figures={"disk_needed_bytes": need_space, "disk_free_bytes": max(d.free_bytes for d in real)},
        ))
    if not data or not est.samples_per_second:
        return out
    disk = _data_disk(machine, data)
    if disk is None:
        return out
    rate_mb, measured = _read_rate(machine, disk, workload.data.bytes_per_sample)
    consume = est.samples_per_second
    if loader:
        consume = min(consume, loader[0].figures.get("cpu_images_per_s") or consume)
    need_mb = consume * workload.data.bytes_per_sample / 1e6
    if rate_mb >= need_mb:
        return out
    free_ram = (machine.memory.total_bytes or 0) - (est.ram_bytes or 0)
    cached = data <= free_ram * 0.8
    disk_rate_samples = rate_mb * 1e6 / workload.data.bytes_per_sample
    figures = {"disk": disk.mount, "disk_kind": disk.kind, "read_mb_per_s": rate_mb, "measured": measured,
               "needed_mb_per_s": need_mb, "disk_samples_per_s": disk_rate_samples,
               "dataset_bytes": data, "fits_in_ram_cache": cached}
    faster = _fast_disk_with_room(machine, data + margin)
    if faster is not None and faster is not disk:
        fix = tr("Copy the data set to the {kind} drive {mount} (it has {free} free) and train from there.",
                 kind=faster.kind.upper(), mount=faster.mount, free=fmt_gib(faster.free_bytes))
    else:
        fix = tr("Put the data set on an NVMe SSD, or pack it into a few large files "
                 "(WebDataset tar shards, LMDB) so the disk reads sequentially.")
    kind_text = disk.kind.upper() if disk.kind in ("hdd", "ssd", "nvme") else disk.kind
    if cached:
        first_epoch_h = data / (rate_mb * 1e6) / 3600
        out.append(Bottleneck(
            id="disk_speed", severity="info",
            message=tr("The data set ({size}) is on {mount} ({kind}), which reads about {rate} MB/s of small files; "
                       "the first epoch will take about {h} to read, later epochs come from the RAM cache.",
                       size=fmt_gib(data), mount=disk.mount, kind=kind_text, rate=fmt_number(rate_mb, 0),
                       h=fmt_duration(first_epoch_h)),
            fix=fix, figures=figures,
        ))
    else:
        out.append(Bottleneck(
            id="disk_speed", severity="warning",
            message=tr("Training wants about {need} MB/s of images, but the data set ({size}) is on {mount} "
                       "({kind}), which reads only about {rate} MB/s of small files in random order, and it is too "
                       "big to stay in RAM: the disk limits training to about {n} images/s.",
                       need=fmt_number(need_mb, 0), size=fmt_gib(data), mount=disk.mount, kind=kind_text,
                       rate=fmt_number(rate_mb, 0), n=fmt_number(disk_rate_samples, 0)),
            fix=fix, figures=figures,
        ))
    return out
