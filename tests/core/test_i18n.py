"""What a Chinese-reading user sees: the language follows the system, --lang overrides it, core strings,
numbers and units come out in Chinese, and every built-in workload has a Chinese title and description."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gpucheck import i18n
from gpucheck.i18n import (
    both,
    detect_language,
    fmt_duration,
    fmt_money,
    fmt_number,
    fmt_rate,
    fmt_time_of_day,
    get_language,
    normalize_lang,
    set_language,
    tidy_zh,
    tr,
    use_language,
)
from gpucheck.resources import resource_path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u4e00-\u9fff]")
LANG_VARS = ("GPUCHECK_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


@pytest.fixture
def no_lang_env(monkeypatch):
    for var in LANG_VARS:
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def test_core_strings_render_in_chinese():
    set_language("zh_CN")
    assert get_language() == "zh_CN"
    assert tr("unknown") == "未知"
    saved = tr("Saved the scan to {path}", path="/home/li/scan.json")
    assert saved == "扫描结果已保存到 /home/li/scan.json"
    set_language("en")
    assert tr("Saved the scan to {path}", path="x.json") == "Saved the scan to x.json"


def test_a_string_not_in_the_catalog_stays_english():
    set_language("zh_CN")
    assert tr("A sentence nobody translated {n}", n=3) == "A sentence nobody translated 3"


def test_use_language_renders_one_report_in_chinese_and_restores():
    set_language("en")
    with use_language("zh_CN"):
        assert tr("Does not fit") == "装不下"
    assert tr("Does not fit") == "Does not fit"
    assert both("Does not fit") == {"en": "Does not fit", "zh_CN": "装不下"}


@pytest.mark.parametrize(
    "value, expected",
    [("zh_CN.UTF-8", "zh_CN"), ("zh-CN", "zh_CN"), ("zh_Hans", "zh_CN"), ("zh", "zh_CN"),
     ("Chinese (Simplified)_China.936", "zh_CN"), ("en_US.UTF-8", "en"), ("C.UTF-8", "en"), ("C", "en"),
     ("fr_FR.UTF-8", None), ("", None), (None, None)],
)
def test_normalize_lang(value, expected):
    assert normalize_lang(value) == expected


def test_language_follows_lang_variable(no_lang_env):
    no_lang_env.setenv("LANG", "zh_CN.UTF-8")
    assert detect_language() == "zh_CN"
    assert set_language(None) == "zh_CN"
    assert tr("Too slow") == "太慢"
    no_lang_env.setenv("LANG", "en_GB.UTF-8")
    assert detect_language() == "en"


def test_language_list_and_lc_all_take_priority(no_lang_env):
    no_lang_env.setenv("LANG", "en_US.UTF-8")
    no_lang_env.setenv("LANGUAGE", "zh_CN:en")
    assert detect_language() == "zh_CN"
    no_lang_env.delenv("LANGUAGE")
    no_lang_env.setenv("LC_ALL", "zh_CN.UTF-8")
    assert detect_language() == "zh_CN"
    no_lang_env.setenv("GPUCHECK_LANG", "en")
    assert detect_language() == "en"


def test_durations_in_chinese_units():
    set_language("zh_CN")
    assert fmt_duration(3.5) == "3.5 小时"
    assert fmt_duration(0.25) == "15 分钟"
    assert fmt_duration(24 * 10) == "10.0 天"
    assert fmt_duration(None) == "未知"
    set_language("en")
    assert fmt_duration(3.5) == "3.5 h"
    assert fmt_duration(24 * 10) == "10.0 days"


def test_large_counts_in_wan_and_yi():
    set_language("zh_CN")
    assert fmt_number(52_000) == "5.2 万"  # Alpaca's 52,000 samples
    assert fmt_number(8.03e9) == "80.3 亿"  # Llama 3 8B parameters
    assert fmt_number(950) == "950.0"
    # in a sentence: a space after the number, none between 万 and the noun
    assert tr("{samples} samples × {epochs} epochs", samples=fmt_number(60_000, 0), epochs="3").startswith(
        "6 万个样本")
    set_language("en")
    assert fmt_number(8.03e9) == "8.0 B"
    assert fmt_number(52_000) == "52,000"


def test_money_in_the_currency_billed_with_the_other_as_about():
    from gpucheck.region import use_region

    set_language("zh_CN")
    # issue 18: a dollar-billed cloud run (Vast.ai RTX 3090, $0.18/GPU-hour × 12.6 h) and a yuan-billed one
    assert fmt_money(2.27, 16.2, "usd") == "$2.27（约 ¥16）"
    assert fmt_money(2.82, 19.9, "cny") == "¥20"
    assert fmt_rate(0.18, 1.28, "usd") == "$0.18/卡·时"
    assert fmt_rate(0.22, 1.58, "cny") == "¥1.58/卡·时"
    assert fmt_money(0.35) == "$0.35"
    with use_region("cn"):  # a shop price in mainland China: the domestic price in yuan
        assert fmt_money(1599, 12999) == "¥12,999"
    with use_region("global"):
        assert fmt_money(1599, 12999) == "$1,599（约 ¥12,999）"
    set_language("en")
    assert fmt_money(1599, 11499) == "$1,599"
    assert fmt_money(2.82, 19.9, "cny") == "¥20 (about $2.82)"
    assert fmt_rate(0.18, 1.28, "usd") == "$0.18/GPU-hour"


def test_report_times_in_beijing_time_for_chinese_readers():
    from datetime import datetime, timezone

    when = datetime(2026, 12, 1, 15, 8, tzinfo=timezone.utc)
    set_language("zh_CN")
    assert fmt_time_of_day(when) == "2026-12-01 23:08（北京时间）"
    set_language("en")
    assert fmt_time_of_day(when) == "2026-12-01 15:08 UTC"


def test_chinese_values_in_templates_bring_no_stray_spaces():
    set_language("zh_CN")
    assert tidy_zh("在 本机的 CPU（没有可用的 GPU） 上可以直接运行") == "在本机的 CPU（没有可用的 GPU）上可以直接运行"
    assert tidy_zh("大约 3.5 小时 后") == "大约 3.5 小时后"
    assert tidy_zh("RTX 4090 上") == "RTX 4090 上"  # Chinese next to Latin letters and digits keeps its space


def test_core_uses_no_qt():
    src = (ROOT / "gpucheck" / "i18n.py").read_text(encoding="utf-8")
    assert "PySide6" not in src and "PyQt" not in src


# -- workloads carry their Chinese title and description ---------------------------------------------


def _workload_files() -> list[Path]:
    return sorted(resource_path("workloads").glob("*.toml"))


def test_every_builtin_workload_has_a_chinese_title_and_description():
    files = _workload_files()
    if not files:
        pytest.skip("no built-in workloads yet")
    missing = []
    for f in files:
        data = tomllib.loads(f.read_text(encoding="utf-8"))
        for key in ("title_zh", "description_zh"):
            value = data.get(key)
            if not isinstance(value, str) or not CJK.search(value):
                missing.append(f"{f.name}: {key}")
    assert not missing, "workloads without Chinese text: " + ", ".join(missing)


# -- the command line -------------------------------------------------------------------------------


def _has(module: str, attr: str) -> bool:
    try:
        if importlib.util.find_spec(module) is None:
            return False
    except ImportError:
        return False
    return hasattr(importlib.import_module(module), attr)


def _cli(*args: str, env_lang: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in LANG_VARS}
    if env_lang:
        env["LANG"] = env_lang
    return subprocess.run([sys.executable, "-m", "gpucheck", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)


@pytest.mark.parametrize("command", ["workloads", "gpus"])
def test_cli_lang_option_prints_chinese(command):
    if not _has("gpucheck.commands", f"run_{command}"):
        pytest.skip(f"gpucheck {command} is not written yet")
    zh = _cli(command, "--lang", "zh_CN", env_lang="en_US.UTF-8")
    en = _cli(command, "--lang", "en", env_lang="zh_CN.UTF-8")
    assert zh.returncode == 0 and en.returncode == 0, zh.stderr + en.stderr
    assert CJK.search(zh.stdout), zh.stdout[:500]
    assert not CJK.search(en.stdout), en.stdout[:500]


def test_cli_follows_the_system_language_without_lang_option():
    if not _has("gpucheck.commands", "run_workloads"):
        pytest.skip("gpucheck workloads is not written yet")
    zh = _cli("workloads", env_lang="zh_CN.UTF-8")
    assert zh.returncode == 0, zh.stderr
    assert CJK.search(zh.stdout)


def test_cli_error_message_in_chinese(tmp_path):
    """A user mistake (a saved scan that is not there) is reported in one Chinese line, exit status 2."""
    if not _has("gpucheck.commands", "run_check"):
        pytest.skip("gpucheck check is not written yet")
    missing = tmp_path / "没有这个文件.json"
    out = _cli("check", "--machine", str(missing), "--lang", "zh_CN")
    assert out.returncode == 2, out.stderr
    assert out.stderr.strip().splitlines() == [f"gpucheck: {missing}：文件不存在"]
    out = _cli("check", "--machine", str(missing), "--lang", "en", env_lang="zh_CN.UTF-8")
    assert out.stderr.strip().splitlines() == [f"gpucheck: {missing}: file not found"]



@pytest.mark.parametrize("written", ["zh", "zh-CN", "zh_CN.UTF-8", "ZH"])
def test_lang_takes_chinese_as_people_write_it(written):
    """`--lang zh` is how most people type it: it was refused ('invalid choice') until December 2026."""
    out = _cli("workloads", "--lang", written, env_lang="en_US.UTF-8")
    assert out.returncode == 0, out.stderr
    assert CJK.search(out.stdout), out.stdout[:300]


def test_an_unknown_lang_is_one_line_in_the_system_language():
    out = _cli("workloads", "--lang", "fr", env_lang="zh_CN.UTF-8")
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        "gpucheck: 参数 --lang：未知的语言 'fr'（请用 en 或 zh_CN；也可写 zh、zh-CN）（参见 'gpucheck workloads --help'）"]
    out = _cli("workloads", "--lang", "fr", env_lang="en_US.UTF-8")
    assert "unknown language 'fr' (use en or zh_CN" in out.stderr and out.stdout == ""

def test_catalog_is_reloadable():
    i18n.reload_catalog()
    with use_language("zh_CN"):
        assert tr("Gradients") == "梯度"


def test_lists_use_the_chinese_enumeration_comma():
    from gpucheck.i18n import fmt_list

    set_language("zh_CN")
    assert fmt_list(["NVMe", "HDD"]) == "NVMe、HDD"
    set_language("en")
    assert fmt_list(["NVMe", "HDD"]) == "NVMe, HDD"


def test_localized_picks_the_chinese_field_of_a_record():
    from gpucheck.i18n import localized

    record = {"title": "Fine-tune Llama 3 8B with QLoRA", "title_zh": "用 QLoRA 微调 Llama 3 8B",
              "notes": "Free T4", "notes_zh": ""}
    set_language("zh_CN")
    assert localized(record, "title") == "用 QLoRA 微调 Llama 3 8B"
    assert localized(record, "notes") == "Free T4"  # no Chinese yet: English rather than nothing
    assert localized(record, "title", lang="en") == "Fine-tune Llama 3 8B with QLoRA"


def test_cli_help_and_usage_errors_in_chinese():
    """--help (argparse's own headings included) and a mistyped option come out in Chinese."""
    out = _cli("scan", "--help", "--lang", "zh_CN")
    assert out.returncode == 0, out.stderr
    assert "把扫描结果以 JSON 格式写入 FILE" in out.stdout
    assert "显示此帮助信息并退出" in out.stdout and "选项" in out.stdout
    bad = _cli("scan", "--no-such-option", "--lang", "zh_CN")
    assert bad.returncode == 2
    [line] = bad.stderr.strip().splitlines()
    assert line.startswith("gpucheck: 无法识别的参数：--no-such-option（参见 'gpucheck")
    en = _cli("scan", "--help", env_lang="en_US.UTF-8")
    assert "write the scan as JSON to FILE" in en.stdout and not CJK.search(en.stdout)


def test_every_part_note_has_a_chinese_version():
    """Upgrade advice shows each part's notes; Chinese readers get notes_zh."""
    path = resource_path("parts.toml")
    if not path.is_file():
        pytest.skip("no parts catalog yet")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    missing = [f"[[{kind}]] {t.get('id')}" for kind, tables in data.items() if isinstance(tables, list)
               for t in tables if t.get("notes") and not CJK.search(t.get("notes_zh", ""))]
    assert not missing, "parts.toml entries with notes but no notes_zh: " + ", ".join(missing)
