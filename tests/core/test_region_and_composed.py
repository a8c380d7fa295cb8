"""Issue 18: advice that can be followed in mainland China, and composed output that reads as written.

Recorded machines: tests/fixtures/machines/*.json (sources in tests/fixtures/SOURCES.md). Prices and
quotas come from resources/cloud.toml / parts.toml, each with its own source and date.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest

from gpucheck import estimate as E
from gpucheck.advise import advise, format_advice, format_advice_brief
from gpucheck.advise.present import _cloud_line
from gpucheck.advise.software import pip_command
from gpucheck.catalog import get_workload
from gpucheck.i18n import _catalog, set_language, use_language
from gpucheck.machine import Machine
from gpucheck.region import detect_region, set_region, use_region
from tests.conftest import FIXTURES

RAW_CODES = re.compile(r"(?<![\w\"'=-])(qlora|lora|full|bf16|fp16|fp32|adamw|adamw-8bit|sgd|qv|all-linear)(?![\w\"'=-])")
NESTED = re.compile(r"（[^）]*（|\([^)]*\(")
FOREIGN_ZH = "需境外信用卡，国内访问可能不稳定"


@pytest.fixture(autouse=True)
def _reset_region():
    yield
    set_region(None)  # back to the environment's (tests/conftest.py: global)
    set_language("en")


def _advice(machine_name: str, workload_id: str, region: str, lang: str = "en"):
    m = Machine.load(FIXTURES / "machines" / f"{machine_name}.json")
    w = get_workload(workload_id)
    with use_language(lang), use_region(region):
        return advise(m, w, E.Target.from_machine(m))


# -- the region --------------------------------------------------------------------------------------


@pytest.mark.parametrize("env, zone, want", [
    ({"LANG": "en_US.UTF-8"}, "Asia/Shanghai", "cn"),  # an English speaker in Shanghai
    ({"LANG": "zh_CN.UTF-8"}, "Asia/Singapore", "global"),  # a Chinese reader in Singapore
    ({"LANG": "zh_CN.UTF-8"}, "Etc/UTC", "cn"),  # a server clock says nothing: the locale decides
    ({"LANG": "en_GB.UTF-8"}, None, "global"),
    ({"LANG": "zh_TW.UTF-8"}, "Asia/Taipei", "global"),
    ({}, "/usr/share/zoneinfo/Asia/Urumqi", "cn"),
    ({}, "China Standard Time", "cn"),  # Windows' name for Beijing time
    ({"GPUCHECK_REGION": "global"}, "Asia/Shanghai", "global"),  # --region / the menu wins
])
def test_region_from_time_zone_then_locale(env, zone, want):
    assert detect_region(env, zone) == want


# -- cloud offers in the reader's region -------------------------------------------------------------


def test_mainland_china_gets_domestic_clouds_first_and_foreign_ones_labelled():
    """CPU-only office PC, Llama 3 8B QLoRA: it needs a cloud GPU. In mainland China the domestic options
    come first (AutoDL was last, after Vast.ai and AWS, which need an overseas credit card)."""
    a = _advice("office-pc-cpu-only", "llama3-8b-qlora", "cn", "zh_CN")
    groups = [c.region_group for c in a.cloud]
    assert groups[0] == "china"
    assert groups == sorted(groups, key=lambda g: g != "china"), groups  # no domestic one after a foreign one
    paid = [c for c in a.cloud if c.kind != "free"]
    assert paid[0].region_group == "china" and paid[0].label == "cheapest_china"
    for c in a.cloud:
        if c.region_group == "global" and c.kind != "free":
            assert FOREIGN_ZH in c.note, c
    with use_language("zh_CN"), use_region("cn"):
        brief = format_advice_brief(a)
    assert "AutoDL" in brief or "阿里云" in brief or "腾讯云" in brief, brief


def test_outside_china_global_clouds_first_and_no_mainland_labels():
    a = _advice("office-pc-cpu-only", "llama3-8b-qlora", "global")
    paid = [c for c in a.cloud if c.kind != "free"]
    assert paid[0].region_group == "global"
    free = [c for c in a.cloud if c.kind == "free"]
    assert not free or free[0].region_group == "global"
    assert all("foreign credit card" not in c.note for c in a.cloud)


def test_free_notebooks_in_mainland_china_are_domestic_and_colab_says_it_needs_google():
    from gpucheck.advise import cloud_offers as market
    from gpucheck.advise.data import load_cloud

    offers = {o.id: o for o in load_cloud()}
    for oid in ("modelscope-free-a10", "aliyun-pai-dsw-trial-a10", "baidu-aistudio-v100"):
        o = offers[oid]
        assert o.kind == "free" and o.region_group == "china" and o.source and o.as_of
    with use_language("zh_CN"), use_region("cn"):
        note = market._offer_note(offers["colab-free-t4"], market.rented_run(offers["colab-free-t4"], 3.0, 0.0))
    assert "Google" in note and "国内无法直接访问" in note
    a = _advice("office-pc-cpu-only", "bert-base-finetune", "cn", "zh_CN")
    free = [c for c in a.cloud if c.kind == "free"]
    assert free and free[0].region_group == "china", a.cloud


def test_chinese_provider_names_for_alibaba_and_tencent():
    from gpucheck.advise.data import load_cloud
    from gpucheck.i18n import localized

    offers = {o.id: o for o in load_cloud()}
    with use_language("zh_CN"):
        assert localized(offers["aliyun-gn7i-a10"], "provider").startswith("阿里云")
        assert localized(offers["tencent-gn7-t4"], "provider").startswith("腾讯云")


def test_download_commands_get_the_mainland_way():
    with use_region("cn"):
        cmd = pip_command("cu128")
        assert "mirrors.aliyun.com/pytorch-wheels/cu128" in cmd and "pypi.tuna.tsinghua.edu.cn" in cmd
        a = _advice("rtx3060-12gb-hdd-desktop", "llama3-8b-qlora", "cn", "zh_CN")
        assert 'os.environ["HF_ENDPOINT"] = "https://hf-mirror.com"' in a.snippet  # set in Python: any OS
        assert "modelscope download" in a.snippet
    with use_region("global"):
        assert pip_command("cu128").endswith("--index-url https://download.pytorch.org/whl/cu128")
        a = _advice("rtx3060-12gb-hdd-desktop", "llama3-8b-qlora", "global")
        assert "HF_ENDPOINT" not in a.snippet


def test_shop_prices_in_mainland_china_are_domestic_yuan_with_their_own_source():
    """The RTX 5060 Ti 16GB is quoted at NVIDIA China's launch price ¥3,599 (parts.toml, with its own source
    and date) in mainland China, not at a European street price in euros; elsewhere at NVIDIA's $429."""
    from gpucheck.advise import upgrades as market
    from gpucheck.advise.data import parts_of
    from gpucheck.i18n import fmt_money, localized

    ti = next(p for p in parts_of("gpu") if p.id == "rtx-5060-ti-16gb")
    with use_language("zh_CN"), use_region("cn"):
        source, as_of = market._price_source(ti)
        assert "NVIDIA China" in source and as_of == "2025-04-16"
        assert fmt_money(ti.price_usd, ti.price_cny) == "¥3,599"
        assert "欧元" not in localized(ti, "notes")
    with use_language("en"), use_region("global"):
        source, _ = market._price_source(ti)
        assert "NVIDIA launch" in source
        assert fmt_money(ti.price_usd, ti.price_cny) == "$429"


def test_parts_are_named_in_chinese_for_chinese_readers():
    from gpucheck.advise.upgrades import part_upgrade

    with use_language("zh_CN"):
        psu = part_upgrade("psu", 850, "reason")
        ram = part_upgrade("ram", 32, "reason")
    assert psu is not None and psu.name.endswith("电源") and "PSU" not in psu.name
    assert ram is not None and "内存" in ram.name and "kit" not in ram.name


# -- composed output -----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_assumptions_name_settings_not_codes(lang):
    m = Machine.load(FIXTURES / "machines" / "rtx3060-12gb-hdd-desktop.json")
    with use_language(lang):
        est = E.estimate(get_workload("llama3-8b-qlora"), E.Target.from_machine(m))
    line = "; ".join(est.assumptions)
    assert not RAW_CODES.search(line), line
    assert "QLoRA" in line and "BF16" in line and "AdamW" in line
    assert "q_proj" in line and "v_proj" in line
    if lang == "zh_CN":
        # not "训练方式为从零训练" (a doubled word) for a job trained from scratch
        assert line.startswith("QLoRA，BF16，AdamW，微批次 1") and "注意力层的 q_proj、v_proj" in line


@pytest.mark.parametrize("lang, region", [("en", "global"), ("zh_CN", "cn"), ("zh_CN", "global"), ("en", "cn")])
def test_cloud_lines_have_no_nested_brackets_and_bill_currency_first(lang, region):
    a = _advice("gtx1660-laptop", "llama3-8b-qlora", region, lang)
    assert a.cloud
    with use_language(lang), use_region(region):
        lines = [_cloud_line(c) for c in a.cloud]
        text = format_advice(a)
    for c, line in zip(a.cloud, lines, strict=True):
        assert not NESTED.search(line), line
        head = line.split(c.provider, 1)[0]
        assert head.count("：") + head.count(": ") == 1, line  # one label, no colon chain
        if c.kind != "free":
            first = re.search(r"[$¥]", line.split(c.provider, 1)[1]).group()
            assert first == ("$" if c.currency == "usd" else "¥"), line
    assert "（$" not in text  # a yuan price never followed by a pointless dollar figure in Chinese


def test_chinese_catalog_states_multipliers_as_what_the_number_becomes():
    """'显存减少约 4 倍' / '多花 N 倍' misstate the number in Chinese (issue 18)."""
    bad = re.compile(r"(减少|多花|多占|少|慢|快)[^，。；：]{0,6}(\d+(\.\d+)?|\{\w+\})\s*倍")
    offenders = [f"{src!r} → {zh!r}" for src, zh in _catalog("zh_CN").items() if bad.search(zh)]
    assert not offenders, "\n".join(offenders)


@pytest.mark.parametrize("word", ["放得下", "这块 GPU", "这块卡", "可中断实例", "每 GPU 小时", "估计", "假定",
                                  "修改设置后可运行", "外接电源", "每个插槽", "扫描发现的问题", "云端笔记本",
                                  "不建议电源", "等效批大小", "张量核心", "整次训练", "可以改跑",
                                  "共有", "按估算在已公开"])
def test_chinese_catalog_uses_one_term_per_concept(word):
    """docs/glossary-zh.md: one term per concept (装得下, 这块显卡, 竞价实例, 卡·时, 估算, 假设 …)."""
    offenders = [src for src, zh in _catalog("zh_CN").items() if word in zh]
    assert not offenders, offenders


def test_chinese_terms_named_in_issue_18():
    cat = _catalog("zh_CN")
    assert cat["VRAM use"] == "显存占用"
    assert cat["What the scan found"] == "扫描结果"
    assert cat["mains"] == "市电（插电）"
    assert cat["Runs with tweaks"] == "调整后可运行"
    assert all(zh == "调整后可运行" for src, zh in cat.items() if src.lower() in ("runs with tweaks", "runs with changes"))
    assert "每颗 CPU" in cat["server CPU class default, {w} W per socket"]
    assert "Notebook 平台" in cat["Use a free notebook platform (Google Colab, Kaggle) or rent a GPU by the hour."]


def test_chinese_report_times_are_beijing_time():
    from gpucheck.report.build import build_report
    from gpucheck.report.html import render_html

    m = Machine.load(FIXTURES / "machines" / "office-pc-cpu-only.json")
    now = datetime(2026, 12, 1, 15, 8, tzinfo=timezone.utc)
    zh = build_report(m, workload_ids=["mnist-cnn"], lang="zh_CN", now=now)
    assert "2026-12-01 23:08（北京时间）" in zh.generated_text
    assert "UTC" not in zh.generated_text
    assert "北京时间" in render_html(zh)
    en = build_report(m, workload_ids=["mnist-cnn"], lang="en", now=now)
    assert "2026-12-01 15:08 UTC" in en.generated_text


def test_help_prints_the_version_option_in_chinese(capsys, monkeypatch):
    from gpucheck.cli import main

    monkeypatch.setenv("GPUCHECK_LANG", "zh_CN")
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "显示程序版本号并退出" in out and "show program's version" not in out
    assert "选项：" in out and "选项:" not in out  # full-width colons after Chinese headings


def test_region_flag_on_the_cli(capsys):
    from gpucheck.cli import main

    rc = main(["check", "--lang", "zh_CN", "--region", "cn", "--machine",
               str(FIXTURES / "machines" / "office-pc-cpu-only.json"), "sd15-lora"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "在 AutoDL 租用" in out or "阿里云" in out or "腾讯云" in out, out
    assert "：租用：" not in out and "：最便宜：" not in out  # no colon chains


@pytest.mark.parametrize("lang, region", [("zh_CN", "cn"), ("en", "global")])
def test_report_cloud_table_in_the_readers_region_and_bill_currency(lang, region):
    """Both report formats draw this table: GTX 1660 Ti laptop (6 GB), Llama 3 8B QLoRA needs a cloud GPU."""
    from gpucheck.report.build import build_report
    from gpucheck.report.html import render_html

    m = Machine.load(FIXTURES / "machines" / "gtx1660-laptop.json")
    with use_region(region):
        model = build_report(m, workload_ids=["llama3-8b-qlora"], lang=lang)
    job = next(j for j in model.jobs if j.cloud is not None)
    rows = job.cloud.rows
    domestic = ("AutoDL", "阿里云", "腾讯云", "魔搭", "飞桨", "PAI")
    first_paid = next(r for r in rows if not any(w in r[3] for w in ("免费", "free")))
    assert any(d in first_paid[1] for d in domestic) == (region == "cn"), first_paid
    for row in rows:
        for cell in row:
            assert not NESTED.search(str(cell)), cell
    with use_language(lang):
        html = render_html(model)
    if lang == "zh_CN":
        assert "/卡·时" in html and "每 GPU 小时" not in html


# -- a Chinese report read start to finish (QA of issue 18 on the RTX 3060 desktop and the M1 MacBook Air) --


def test_strong_lists_do_not_stack_a_full_stop_and_a_semicolon():
    """Upgrade reasons end with a sentence before the 'price not re-checked' note: '…矿卡。；价格…' read wrong."""
    from gpucheck.i18n import fmt_list

    with use_language("zh_CN"):
        assert fmt_list(["并确认不是矿卡。", "价格未重新核实"], strong=True) == "并确认不是矿卡；价格未重新核实"
        assert fmt_list(["a", "b。"], strong=True) == "a；b。"  # the last one keeps its full stop
    with use_language("en"):
        assert fmt_list(["(about 550 MB/s).", "price not re-checked"], strong=True) == \
            "(about 550 MB/s); price not re-checked"


@pytest.fixture(scope="module")
def zh_report_3060():
    """RTX 3060 12 GB desktop with only hard disks (tests/fixtures/machines, sources in SOURCES.md)."""
    from gpucheck.report.build import build_report

    m = Machine.load(FIXTURES / "machines" / "rtx3060-12gb-hdd-desktop.json")
    with use_region("cn"):
        model = build_report(m, lang="zh_CN")
    yield model
    set_region(None)


def _report_cells(model):
    for job in model.jobs:
        yield job.headline
        for table in (job.figures, job.upgrades, job.cloud, job.tweaks):
            if table is not None:
                yield from (str(c) for row in table.rows for c in row)
        yield from job.notes
        yield from job.buy_vs_rent
    yield from model.software
    yield from model.sources
    yield from model.assumptions


def test_chinese_report_has_no_raw_codes_half_width_joins_or_nested_brackets(zh_report_3060):
    cells = list(_report_cells(zh_report_3060))
    text = "\n".join(cells)
    assert "zero2_offload" not in text and "zero3_offload" not in text  # sharding named in words
    assert "(used)" not in text  # the part's Chinese name: （二手）
    assert not re.search(r"[\u4e00-\u9fff]; ", text)  # notes joined with '；' in Chinese
    assert "。；" not in text
    assert "：请运行：" not in text and "版本：请运行" not in text  # 'Install the build for X:' leads in
    for cell in cells:
        assert not NESTED.search(cell), cell  # '（截至 2022-11-30，未核实）', not '（截至 …（未核实））'


def test_chinese_report_names_video_memory_and_from_scratch_jobs_rightly(zh_report_3060):
    """内存 is system RAM in Chinese: the per-GPU memory row is 显存. MNIST is trained from scratch (no
    pretrained weights), so its assumptions do not say 全量微调 (pytorch/examples mnist/main.py)."""
    mnist = next(j for j in zh_report_3060.jobs if j.workload_id == "mnist-cnn")
    rows = dict(mnist.figures.rows)
    assert "每块 GPU 需要的显存" in rows and "内存" not in rows  # the row's value does not repeat its label
    assert rows["每块 GPU 需要的显存"].startswith("按当前设置 0.8 GiB；现有")
    line = next(a for a in zh_report_3060.assumptions if a.startswith("在 MNIST"))
    assert "从零训练" in line and "全量微调" not in line


def test_chinese_report_gives_dollar_shop_prices_in_yuan_too(zh_report_3060):
    """A used RTX 3090 has only an eBay dollar price (parts.toml): a mainland reader is told 约 ¥ as well,
    and the buy-or-rent line compares it with a yuan cloud bill. Issue 23: a dollar price is said to be an
    overseas one there (海外价格), never shown as if it were the mainland market."""
    prices = [row[2] for j in zh_report_3060.jobs if j.upgrades is not None for row in j.upgrades.rows]
    assert prices and all("¥" in p for p in prices), prices
    assert all(p.startswith("¥") or "海外价格" in p for p in prices), prices
    bvr = [b for j in zh_report_3060.jobs for b in j.buy_vs_rent]
    assert bvr and all("约 ¥" in b or b.count("¥") >= 2 for b in bvr), bvr
    assert not any("买卡" in b for b in bvr)  # an SSD is not a card


def test_chinese_snippet_comments_are_in_chinese(zh_report_3060):
    snippets = "\n".join(j.snippet for j in zh_report_3060.jobs if j.snippet)
    comments = [ln for ln in snippets.splitlines() if ln.lstrip().startswith("#")]
    assert comments
    for ln in comments:
        assert re.search(r"[\u4e00-\u9fff]", ln) or re.fullmatch(r"#\s+(export|modelscope) .*", ln.strip()), ln


def test_old_macos_is_told_the_settings_app_it_has_and_a_placeholder_in_chinese():
    """macOS 11.2.3 (M1 MacBook Air fixture) has System Preferences; 'System Settings' came with macOS 13."""
    from gpucheck.advise.software import software_fixes

    m = Machine.load(FIXTURES / "machines" / "m1-macbookair.json")
    with use_language("zh_CN"), use_region("cn"):
        fixes = software_fixes(m, get_workload("llama3-8b-qlora"))
    text = "\n".join(f"{f.message} {f.command}" for f in fixes)
    assert "系统偏好设置" in text and "系统设置 →" not in text
    assert "<4 位 MLX 模型>" in text and "a 4-bit" not in text


def test_a_job_the_hardware_cannot_train_is_not_said_to_be_out_of_memory():
    """QLoRA on the M1 MacBook Air: bitsandbytes has no 4-bit kernels for Apple GPUs (verdict 'not supported'),
    so its training time is not 'none: it does not fit here'."""
    from gpucheck.report.build import build_report

    m = Machine.load(FIXTURES / "machines" / "m1-macbookair.json")
    with use_region("cn"):
        model = build_report(m, workload_ids=["llama3-8b-qlora"], lang="zh_CN")
    job = next(j for j in model.jobs if j.workload_id == "llama3-8b-qlora")
    rows = dict(job.figures.rows)
    assert job.verdict_text == "不支持"
    assert "装不下" not in rows["训练时间"] and "不支持" in rows["训练时间"]


def test_notes_on_the_settings_as_configured_say_so_under_a_job_that_runs_with_changes(zh_report_3060):
    """Llama 3 8B QLoRA runs on the RTX 3060 with a shorter sequence (9.7 GB of 11.7 GB): its note that the
    settings as configured need 13.5 GB is marked as such, not left to contradict the verdict."""
    job = next(j for j in zh_report_3060.jobs if j.workload_id == "llama3-8b-qlora")
    vram_notes = [n for n in job.notes if "显存" in n and "可用" in n]
    assert vram_notes and all(n.startswith("按当前设置（调整前）：") for n in vram_notes), job.notes
