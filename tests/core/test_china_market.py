"""Mainland China: options that work there, the cards people there rent and buy, names, usable VRAM.

Recorded machines: tests/fixtures/machines/*.json; recorded nvidia-smi output: tests/fixtures/recorded/nvidia
and /work/shared/recorded/nvidia (SOURCES.md). Offers, parts and downloads: resources/cloud.toml, parts.toml,
models/models.toml, each row with its own source and date.
"""

from __future__ import annotations

import re

import pytest

from gpucheck import estimate as E
from gpucheck.advise import advise
from gpucheck.advise.data import load_cloud, parts_of
from gpucheck.advise.gpu_support import GpuFacts
from gpucheck.advise.mirrors import load_downloads, with_download_mirrors
from gpucheck.advise.present import shop_price_text
from gpucheck.catalog import find_gpu, gpu_for, load_workloads
from gpucheck.errors import AmbiguousName, UnknownName
from gpucheck.i18n import set_language, use_language
from gpucheck.machine import Machine
from gpucheck.region import set_region, use_region
from gpucheck.trial import pip_command as trial_pip_command
from tests.conftest import FIXTURES

MIB = 2**20


@pytest.fixture(autouse=True)
def _reset():
    yield
    set_region(None)
    set_language("en")


def _advice(machine_name: str, workload_id: str, region: str, lang: str = "en"):
    m = Machine.load(FIXTURES / "machines" / f"{machine_name}.json")
    w = next(x for x in load_workloads() if x.id == workload_id)
    with use_language(lang), use_region(region):
        return advise(m, w, E.Target.from_machine(m))


# -- free offers run the printed (PyTorch) snippet ----------------------------------------------------


@pytest.mark.parametrize("job", ["bert-base-finetune", "llama3-8b-qlora", "sd15-lora", "whisper-small-finetune"])
def test_in_mainland_china_no_free_offer_without_pytorch_for_a_pytorch_job(job):
    """AI Studio's GPU environments run PaddlePaddle only (maintainer answer, PaddlePaddle/Paddle#54520):
    it is never offered beside a PyTorch snippet; ModelScope's free notebook (PyTorch preinstalled) is."""
    offers = {o.id: o for o in load_cloud()}
    a = _advice("office-pc-cpu-only", job, "cn", "zh_CN")
    assert a.cloud, job
    for c in a.cloud:
        assert "pytorch" in offers[c.offer_id].frameworks, c.offer_id
    assert all(c.offer_id != "baidu-aistudio-v100" for c in a.cloud)
    free = [c.offer_id for c in a.cloud if c.kind == "free"]
    assert "modelscope-free-a10" in free and len(free) == 2, free  # more than one free row


def test_free_tier_rows_carry_their_caveats_and_dates():
    from gpucheck.advise import cloud_offers as market

    offers = {o.id: o for o in load_cloud()}
    colab = offers["colab-free-t4"]
    with use_language("en"), use_region("global"):
        note = market._offer_note(colab, market.rented_run(colab, 10.0, 0.0))
    assert "not guaranteed" in note and "checkpoints" in note  # a 10 h run on Colab's free tier
    dsw = offers["aliyun-pai-dsw-trial-a10"]
    assert dsw.as_of.startswith("2023") and not dsw.verified
    with use_language("zh_CN"), use_region("cn"):
        assert "2023" in market._offer_note(dsw, market.rented_run(dsw, 5.0, 0.0))


def test_a_gpu_without_bf16_beside_a_bf16_snippet_is_told_to_use_fp16():
    """V100 and T4 have no bf16 (compute capability 7.x): a bf16=True snippet fails there."""
    from gpucheck.advise import cloud_offers as market

    w = next(x for x in load_workloads() if x.id == "llama3-8b-qlora")
    assert w.train.precision == "bf16"
    v100 = GpuFacts(backend="cuda", compute_capability=7.0, supports_bf16=False)
    a100 = GpuFacts(backend="cuda", compute_capability=8.0, supports_bf16=True)
    assert "fp16=True" in market._bf16_note(w.train, v100)
    assert market._bf16_note(w.train, a100) == ""


# -- provider names, working notes, one-GPU "fastest" ---------------------------------------------------


def test_autodl_a800_is_named_as_autodl_lists_it_with_a_note_on_what_it_is():
    a = _advice("office-pc-cpu-only", "llama3-8b-qlora", "cn", "zh_CN")
    a800 = [c for c in a.cloud if c.offer_id == "autodl-a800"]
    assert a800, [c.offer_id for c in a.cloud]
    assert a800[0].gpu_name == "A800 80GB" and "A100" in a800[0].note and "中国市场" in a800[0].note
    assert all("A100 80GB PCIe" not in c.gpu_name for c in a.cloud if c.provider == "AutoDL")
    autodl = [c for c in a.cloud if c.provider == "AutoDL"]
    tips = " ".join(t for c in autodl for t in c.tips)
    for words in ("无卡模式", "source /etc/network_turbo", "/root/autodl-tmp", "释放", "实名认证", "内存"):
        assert words in tips, words
    assert sum(1 for c in autodl if c.tips) == 1  # the working notes once, not on every AutoDL row


def test_fastest_option_abroad_is_one_gpu_a_one_gpu_snippet_can_use():
    a = _advice("office-pc-cpu-only", "llama3-8b-qlora", "cn")
    fastest = [c for c in a.cloud if c.label in ("fastest_abroad", "fastest_china")]
    assert fastest and all(c.gpus == 1 for c in fastest), [(c.label, c.gpus, c.gpu_name) for c in fastest]


# -- what can be bought there ---------------------------------------------------------------------------


def test_no_yuan_price_for_a_card_not_sold_there_without_a_note():
    """RTX 4090 / 5090 / RTX PRO 6000 are not sold new through official channels in mainland China: their
    dollar price is said to be an overseas one there, and the upgrade says grey market, no warranty."""
    with use_language("zh_CN"), use_region("cn"):
        for p in parts_of("gpu"):
            text = shop_price_text(p.price_usd, p.price_cny)
            if p.price_cny is None:
                assert text.startswith("$") and "海外价格" in text, (p.id, text)  # never a bare yuan figure
                assert p.cn_channel != "retail" or p.kind != "gpu" or "cn" not in p.markets, p.id
            if p.cn_channel in ("grey", "used"):
                assert p.price_cny is None, p.id
        up = _advice("office-pc-cpu-only", "llama3-70b-qlora", "cn", "zh_CN").upgrades
    grey = [u for u in up if u.kind == "gpu" and u.price_cny is None]
    for u in grey:
        assert any("官方渠道" in n or "二手" in n for n in u.notes), u.notes


def test_mainland_parts_are_the_china_market_cards():
    from gpucheck.advise import upgrades as market

    ids = {p.id: p for p in parts_of("gpu")}
    assert ids["rtx-4090-d"].price_cny and ids["rtx-4090-d"].markets == ("cn",)
    assert ids["rtx-5090-d-v2"].price_cny == 16499  # the 5090 D's launch price belongs to the 5090 D
    assert ids["rtx-4090"].cn_channel == "grey" and ids["rtx-5090"].cn_channel == "grey"
    for p in ids.values():
        if p.cn_channel == "modified":
            assert "warranty" in p.notes and "保修" in p.notes_zh, p.id
    with use_region("global"):
        assert market.shop_part_for(find_gpu("RTX 4090 D"), find_gpu) is None  # not sold outside China
    with use_region("cn"):
        assert market.shop_part_for(find_gpu("RTX 4090 D"), find_gpu).id == "rtx-4090-d"


def test_one_yuan_price_per_card_across_the_app():
    """The GPU list and the upgrade advice quote the same parts.toml price (issue: ¥2,499 vs ¥1,999)."""
    from gpucheck.advise import upgrades as market

    with use_language("zh_CN"), use_region("cn"):
        part = market.shop_part_for(find_gpu("RTX 3060 12GB"), find_gpu)
        assert part is not None and shop_price_text(part.price_usd, part.price_cny) == "¥1,999"
        used = next(p for p in parts_of("gpu") if p.id == "rtx-3090-used")
        assert "海外价格" in shop_price_text(used.price_usd, used.price_cny)  # an eBay price is not the mainland's
    with use_language("en"), use_region("cn"):
        assert shop_price_text(used.price_usd, used.price_cny) == "$750 (overseas price)"


# -- names -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, gpu_id", [
    ("A800 80GB", "a800-80gb-pcie"), ("NVIDIA A800-SXM4-80GB", "a800-80gb"), ("H800", "h800"), ("H20", "h20"),
    ("L20", "l20"), ("L40", "l40"), ("RTX 5090 D", "rtx-5090-d"), ("RTX 4090 D", "rtx-4090-d"),
    ("P100", "p100"), ("Tesla P40", "p40"), ("Titan RTX", "titan-rtx"), ("RTX 3070 Ti", "rtx-3070-ti"),
    ("RTX 4080 Laptop", "rtx-4080-laptop"), ("RTX 4090 48GB", "rtx-4090-48gb"), ("2080 Ti 22GB", "rtx-2080-ti-22gb"),
    ("4060 Ti 16GB", "rtx-4060-ti-16gb"), ("MI250", "mi250"), ("MI250X", "mi250x"), ("4090", "rtx-4090"),
    ("2080 Ti", "rtx-2080-ti"),
])
def test_names_resolve_to_the_card_meant(name, gpu_id):
    assert find_gpu(name).id == gpu_id


def test_a100_lists_all_four_variants():
    with pytest.raises(AmbiguousName) as e:
        find_gpu("a100")
    assert len(e.value.suggestions) == 4 and all("A100" in s for s in e.value.suggestions)
    with pytest.raises(AmbiguousName) as e:
        find_gpu("A800")
    assert len(e.value.suggestions) == 3


def test_rtx_3060_6gb_is_not_silently_the_laptop_part():
    with pytest.raises(UnknownName) as e:
        find_gpu("RTX 3060 6GB")
    assert not isinstance(e.value, AmbiguousName)
    assert any("Laptop" in s for s in e.value.suggestions)
    assert find_gpu("RTX 3060 Laptop GPU").segment == "laptop"


def test_a_scanned_a800_gets_a_speed():
    """A scanned A800 server got "speed unknown": its catalog entry now matches the name nvidia-smi prints."""
    g = find_gpu("NVIDIA A800-SXM4-80GB")
    scanned = type("G", (), {"name": "NVIDIA A800-SXM4-80GB", "vram_total_bytes": 85899345920, "vendor": "nvidia"})
    assert gpu_for(scanned()) == g and g.tflops_bf16_tensor == find_gpu("A100 80GB").tflops_bf16_tensor
    assert g.nvlink_gbps == 400  # the one difference from the A100 (600 GB/s)


# -- usable VRAM as nvidia-smi reports it ------------------------------------------------------------------


def _recorded_total_mib(path, pattern: str) -> int:
    text = path.read_text(encoding="utf-8", errors="replace")
    return int(re.search(pattern, text).group(1))


def test_usable_vram_is_what_nvidia_smi_reports():
    """ECC and firmware keep part of a data-centre card: a T4 is 15,360 MiB, an A10G 23,028, an L40S 46,068,
    an H100 SXM 81,559 (the recorded 8x H100 machine holds exactly that)."""
    for name, mib in (("T4", 15360), ("A10G", 23028), ("A10", 23028), ("L4", 23034), ("L40S", 46068),
                      ("A40", 46068), ("H100 SXM", 81559), ("H800", 81559), ("H20", 97871), ("L20", 46068)):
        spec = find_gpu(name)
        assert E.Target.from_gpu(spec).vram_available_bytes == mib * MIB, name
        assert spec.vram_usable_source, name
    h100 = Machine.load(FIXTURES / "machines" / "h100x8-server.json")
    assert h100.gpus[0].vram_total_bytes == find_gpu("H100 SXM").vram_usable_mib * MIB


def test_usable_vram_matches_the_recorded_nvidia_smi_files():
    rec = FIXTURES / "recorded" / "nvidia"
    xml_mib = _recorded_total_mib(rec / "rtx3080-linux-drv595.nvidia-smi-q-x.xml",
                                  r"<fb_memory_usage>\s*<total>(\d+) MiB")
    assert find_gpu("NVIDIA GeForce RTX 3080").vram_usable_mib == xml_mib
    txt = rec / "rtx-a6000-windows-drv537.nvidia-smi-q.txt"
    if txt.exists():
        a6000 = _recorded_total_mib(txt, r"FB Memory Usage\s*\n\s*Total\s*:\s*(\d+) MiB")
        assert find_gpu("RTX A6000").vram_usable_mib == a6000


# -- downloads and installs from mainland China ------------------------------------------------------------


def test_built_in_jobs_get_real_modelscope_ids_and_gated_models_say_so():
    downloads = load_downloads()
    for w in load_workloads():
        name = w.model.name or ""
        if "/" in name and not name.startswith(("torchvision/", "ultralytics/", "pytorch/")) or name in (
                "bert-base-uncased", "gpt2"):
            assert name in downloads, w.id
    assert downloads["meta-llama/Meta-Llama-3-8B"].gated and not downloads["Qwen/Qwen2.5-7B"].gated
    with use_language("en"), use_region("cn"):
        text = with_download_mirrors("import torch", model="meta-llama/Meta-Llama-3-8B")
    assert "<model-id>" not in text and "LLM-Research/Meta-Llama-3-8B" in text and "gated" in text
    with use_region("cn"):
        assert "<model-id>" not in _advice("rtx3060-12gb-hdd-desktop", "llama3-8b-qlora", "cn").snippet


def test_trial_installs_the_cpu_build_from_a_domestic_mirror_in_mainland_china():
    m = Machine.load(FIXTURES / "machines" / "cpu-only-vm.json")
    with use_region("cn"):
        cmd = trial_pip_command("torch", m)
    assert "mirrors.aliyun.com/pytorch-wheels/cpu" in cmd and "download.pytorch.org" not in cmd
    with use_region("global"):
        assert "download.pytorch.org/whl/cpu" in trial_pip_command("torch", m)
