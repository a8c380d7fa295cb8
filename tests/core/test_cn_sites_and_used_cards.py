"""Mainland China's rental sites without a sourced price, the cheap-VRAM cards hobbyists there buy, and a used
48 GB card for 70B QLoRA — as a reader sees them in `estimate`, its JSON and the report.

Data: resources/cloud.toml [[unlisted]] and parts.toml (rtx-a6000-used, rtx-2080-ti-22gb, tesla-p40-used), each
row with its source and date. The 48 GB card for 70B QLoRA: the QLoRA paper (Dettmers et al., 2023) fine-tuned a
65B model on one 48 GB GPU; a used RTX A6000 was quoted at $2,800 (specpicks.com, 2026).
"""

from __future__ import annotations

import json

import pytest

from gpucheck.advise.data import _UNLISTED_SPEC, load_cloud, load_unlisted_clouds, parts_of
from gpucheck.catalog import validate_table
from gpucheck.cli import main
from gpucheck.errors import BadInput
from gpucheck.i18n import set_language
from gpucheck.region import set_region
from tests.conftest import FIXTURES

MACHINES = FIXTURES / "machines"
SITES_ZH = ("恒源云", "矩池云", "Featurize")


@pytest.fixture(autouse=True)
def _reset():
    yield
    set_region(None)
    set_language("en")


def run(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr()
    assert rc == 0, out.err
    return out.out


def _advice_json(capsys, *argv) -> dict:
    return json.loads(run(capsys, "estimate", *argv, "--json"))["advice"]


# -- 恒源云, 矩池云, Featurize: named in region cn, never priced -----------------------------------------------


def test_domestic_sites_without_a_price_are_named_beside_the_clouds_in_region_cn(capsys):
    out = run(capsys, "estimate", "llama3-8b-qlora", "--gpu", "GTX 1060 6GB", "--region", "cn", "--lang", "zh_CN")
    cloud = out[out.index("租用云 GPU："):]
    line = next(ln for ln in cloud.splitlines() if "恒源云" in ln)
    for name in SITES_ZH:
        assert name in line, line
    assert "未列出价格" in line and "未核实" in line, line
    assert "按分钟计费" in line and "预装 PyTorch" in line and "JupyterLab" in line, line  # what each is known for
    assert "¥" not in line and "/卡·时" not in line, line  # no price without a source


def test_json_lists_them_with_source_and_date_and_no_price(capsys):
    sites = _advice_json(capsys, "llama3-8b-qlora", "--gpu", "GTX 1060 6GB", "--region", "cn")["cloud_unlisted"]
    assert [s["url"] for s in sites] == ["https://gpushare.com", "https://www.matpool.com", "https://featurize.cn"]
    for s in sites:
        assert s["price"] is None and s["source"] and s["as_of"] and s["known_for"], s


def test_outside_mainland_china_they_are_not_shown(capsys):
    a = _advice_json(capsys, "llama3-8b-qlora", "--gpu", "GTX 1060 6GB", "--region", "global")
    assert a["cloud"] and a["cloud_unlisted"] == []
    assert "gpushare" not in json.dumps(a)


def test_the_report_names_them_in_its_cloud_table(tmp_path, capsys):
    out = tmp_path / "r.html"
    run(capsys, "report", str(out), "--machine", str(MACHINES / "gtx1660-laptop.json"), "--lang", "zh_CN",
        "--region", "cn")
    html = out.read_text(encoding="utf-8")
    row = html[html.index("国内还有"):]
    end = row.index("</tr>")
    row = row[:row.index("</tr>", end + 1)]  # the row and its note, printed under it across the table
    for name in SITES_ZH:
        assert name in row
    assert "未列出价格" in row and "未核实" in row


def test_an_unlisted_site_cannot_carry_a_price_and_none_is_an_offer():
    """A price needs a source and a date: an [[unlisted]] row with one is refused, and none of these sites has
    an [[offer]] row (no price of theirs could be read with a source)."""
    row = {k: "x" for k in _UNLISTED_SPEC} | {"price_cny_per_gpu_hour": 1.5}
    with pytest.raises(BadInput, match="price_cny_per_gpu_hour"):
        validate_table("cloud.toml: unlisted #1", row, _UNLISTED_SPEC)
    hosts = [u.url.split("//")[1].removeprefix("www.") for u in load_unlisted_clouds()]
    assert hosts == ["gpushare.com", "matpool.com", "featurize.cn"]
    for o in load_cloud():
        assert not any(h in o.url for h in hosts), o.id


# -- 70B QLoRA: a used 48 GB card, at a shorter sequence ------------------------------------------------------


def test_70b_qlora_upgrades_offer_a_used_48gb_card_with_unsloth(capsys):
    # a used RTX A6000 (48 GB) holds 70B QLoRA with Unsloth (its table: 12,106 tokens in 48 GB); the card says so, and
    # what it is: second-hand, its price's source and date
    ups = {u["part_id"]: u for u in _advice_json(capsys, "llama3-70b-qlora", "--gpu", "RTX 3060 12GB",
                                                   "--region", "global")["upgrades"]}
    a6000 = ups["rtx-a6000-used"]
    assert a6000["fit"] == "fits" and a6000["price_usd"] == 2800 and not a6000["verified"]
    assert a6000["as_of"] == "2026-01-01" and "specpicks" in a6000["source"]
    assert a6000["tweaks"] == ["unsloth"] and any("Train with Unsloth" in n for n in a6000["notes"]), a6000["notes"]
    assert any("not re-checked" in n for n in a6000["notes"])


def test_a_tight_card_is_not_offered_when_a_card_with_room_costs_little_more(capsys):
    """8B QLoRA from a 6 GB card: the 3060 12GB is tight, the 5060 Ti 16GB has room for $140 more: only the
    card with room is advised."""
    ups = _advice_json(capsys, "llama3-8b-qlora", "--gpu", "GTX 1060 6GB", "--region", "global")["upgrades"]
    gpus = [u for u in ups if u["kind"] == "gpu"]
    assert gpus and all(u["fit"] == "fits" for u in gpus), gpus


# -- the cheap-VRAM cards of the mainland market ----------------------------------------------------------------


def test_region_cn_names_a_cheaper_modified_card_beside_the_new_one_with_its_warning(capsys):
    ups = _advice_json(capsys, "llama3-8b-qlora", "--gpu", "GTX 1060 6GB", "--region", "cn",
                       "--lang", "zh_CN")["upgrades"]
    gpus = [u for u in ups if u["kind"] == "gpu"]
    # a new card with its warranty comes first (the cheapest that runs the job), the modified one beside it
    assert gpus[0]["part_id"] in ("rtx-3060-12gb", "rtx-5060-ti-16gb") and "没有厂商保修" not in gpus[0]["reason"]
    mod = next(u for u in gpus if u["part_id"] == "rtx-2080-ti-22gb")
    assert mod["price_cny"] == 1700 and mod["as_of"] == "2026-01-01" and "cyberbus" in mod["source"]
    assert "没有厂商保修" in mod["reason"]
    assert any("没有 NVIDIA 或板卡厂商的保修" in n for n in mod["notes"]), mod["notes"]
    assert not any(u["name"].startswith("2×") for u in gpus)  # one 22-24 GB card holds 8B QLoRA: no pair


def test_the_p40_is_shown_with_its_warnings_in_region_cn(capsys):
    ups = _advice_json(capsys, "llama3-70b-qlora", "--gpu", "RTX 3060 12GB", "--region", "cn",
                       "--lang", "zh_CN")["upgrades"]
    p40 = next(u for u in ups if u["part_id"] == "tesla-p40-used")
    notes = "；".join(p40["notes"])
    for warning in ("被动散热", "服务器风扇", "没有视频输出", "fp16 极慢", "Pascal", "bitsandbytes", "LLM.int8()"):
        assert warning in notes, warning
    assert "二手" in notes and p40["as_of"] == "2026-01-01"


@pytest.mark.parametrize("job", ["llama3-8b-qlora", "llama3-70b-qlora", "sdxl-lora"])
def test_mainland_only_hobby_cards_are_not_advised_elsewhere(capsys, job):
    ups = _advice_json(capsys, job, "--gpu", "GTX 1060 6GB", "--region", "global")["upgrades"]
    assert not {u["part_id"] for u in ups} & {"rtx-2080-ti-22gb", "tesla-p40-used"}


def test_the_hobby_cards_carry_a_dated_sourced_price():
    parts = {p.id: p for p in parts_of("gpu")}
    for pid in ("rtx-a6000-used", "rtx-2080-ti-22gb", "tesla-p40-used"):
        p = parts[pid]
        assert (p.price_usd or p.price_cny) and p.source and p.as_of and not p.verified, pid
        if p.price_cny is not None:
            assert p.price_cny_source and p.price_cny_as_of, pid
