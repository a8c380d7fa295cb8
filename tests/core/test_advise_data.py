"""The advice's data files: every price and factor has a source and a date, and every GPU in them is
one the catalog knows (so the cloud and upgrade advice can estimate it)."""

from __future__ import annotations

import datetime as dt

import pytest

from gpucheck.advise.data import load_advice_factors, load_cloud, load_parts, parts_of, psu_required_w
from gpucheck.advise.software import best_build
from gpucheck.catalog import find_gpu

TODAY_OR_EARLIER = dt.date.today()  # an as_of date is never in the future


def _date(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def test_every_cloud_offer_names_a_catalog_gpu_a_price_a_source_and_a_date():
    offers = load_cloud()
    assert len({o.provider.split(" ")[0] for o in offers}) >= 10
    for o in offers:
        find_gpu(o.gpu)  # raises UnknownName otherwise
        assert o.url.startswith("https://"), o.id
        assert o.source and _date(o.as_of) <= TODAY_OR_EARLIER, o.id
        if o.kind == "free":
            assert (o.price_usd_per_gpu_hour or 0) == 0 and (o.price_cny_per_gpu_hour or 0) == 0, o.id
        else:
            assert (o.price_usd_per_gpu_hour or 0) > 0 or (o.price_cny_per_gpu_hour or 0) > 0, o.id
        if o.region_group == "china":
            assert o.price_cny_per_gpu_hour is not None, f"{o.id}: Chinese clouds bill in yuan"
            assert o.mainland_access == "domestic", o.id


def test_cloud_covers_free_tiers_global_and_chinese_providers():
    providers = " ".join(o.provider for o in load_cloud())
    for name in ("Colab", "Kaggle", "AWS", "Google Cloud", "Azure", "Lambda", "RunPod", "Vast.ai", "AutoDL",
                 "Alibaba", "Tencent"):
        assert name in providers
    kinds = {o.kind for o in load_cloud()}
    assert kinds == {"free", "on_demand", "spot"}


def test_every_part_has_a_price_a_source_and_a_date():
    """A yuan price is a domestic one (issue 18: not the dollar price converted) with its own source and date."""
    for p in load_parts():
        assert p.price_usd or p.price_cny, p.id
        assert p.source and _date(p.as_of) <= TODAY_OR_EARLIER, p.id
        if p.price_cny is not None:
            assert p.price_cny_source and _date(p.price_cny_as_of) <= TODAY_OR_EARLIER, p.id
        if p.kind == "gpu":
            spec = find_gpu(p.gpu)
            assert p.required_psu_w > (spec.tdp_w or 0), p.id
    assert {p.kind for p in load_parts()} == {"gpu", "ram", "ssd", "psu"}


def test_psu_requirements_follow_nvidia_spec_pages():
    assert psu_required_w("NVIDIA GeForce RTX 4090") == 850
    assert psu_required_w("NVIDIA GeForce RTX 5090") == 1000
    assert psu_required_w("NVIDIA GeForce RTX 3060") == 550
    assert psu_required_w("NVIDIA GeForce RTX 3060 Ti") == 600  # the longer name wins
    assert psu_required_w("NVIDIA H100 80GB HBM3") is None  # servers: no consumer PSU rule


def test_every_advice_table_has_source_and_date():
    data = load_advice_factors()
    for name, table in data.items():
        if isinstance(table, dict):
            assert table.get("source") and _date(table["as_of"]) <= TODAY_OR_EARLIER, name


@pytest.mark.parametrize("cc, driver, variant, ok", [
    (6.1, "535.54.03", "cu126", True),   # Pascal: only the CUDA 12.6 build still has its kernels
    (7.5, "551.61", "cu128", True),      # Turing
    (8.9, "560.35.03", "cu128", True),   # Ada on a 560 driver: CUDA 13 builds need 580+
    (12.0, "581.15", "cu130", True),     # Blackwell on a new driver
    (8.6, "470.82.01", "cu128", False),  # driver too old for any CUDA 12 build: update it first
])
def test_pytorch_build_for_gpu_and_driver(cc, driver, variant, ok):
    build, driver_ok = best_build(cc, driver)
    assert (build.variant, driver_ok) == (variant, ok)


def test_rtx5090_is_never_sent_to_a_build_without_blackwell_kernels():
    for driver in ("560.35.03", "575.1", "590.1"):
        build, _ = best_build(12.0, driver)
        assert build.max_cc >= 12.0


def test_ssd_ram_psu_parts_are_sorted_by_size_with_rising_prices():
    for kind, size in (("ssd", "capacity_gb"), ("psu", "watts")):
        items = sorted(parts_of(kind), key=lambda p: getattr(p, size))
        prices = [p.price_usd for p in items]
        assert prices == sorted(prices), kind


def test_an_installed_cu124_wheel_on_blackwell_is_flagged():
    import dataclasses

    from gpucheck.advise.software import software_fixes
    from gpucheck.machine import Machine
    from tests.conftest import FIXTURES

    m = Machine.load(FIXTURES / "machines" / "rtx4090-650w-desktop.json")
    assert software_fixes(m) == ()  # torch 2.5.1+cu124 on an RTX 4090 (8.9): fine
    # the same PC with an RTX 5090 (compute capability 12.0) in place of the 4090
    g = dataclasses.replace(m.gpus[0], name="NVIDIA GeForce RTX 5090", compute_capability="12.0")
    fix = software_fixes(dataclasses.replace(m, gpus=(g,)))
    assert [f.id for f in fix] == ["torch_arch"]
    assert fix[0].command.endswith("https://download.pytorch.org/whl/cu128")
