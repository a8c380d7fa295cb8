"""Chinese text a mainland beginner acts on (issue 23, text items): commands in the pasting machine's form,
one colon per line, no pointer to a section that is not printed, no placeholder left in English.

Recorded machines: tests/fixtures/machines/*.json (sources in tests/fixtures/SOURCES.md).
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from gpucheck import estimate as E
from gpucheck.advise import advise
from gpucheck.advise.mirrors import shell_for
from gpucheck.catalog import get_workload, load_workloads
from gpucheck.cli import main
from gpucheck.i18n import set_language, use_language
from gpucheck.machine import Machine
from gpucheck.region import set_region, use_region
from tests.conftest import FIXTURES

MACHINES = FIXTURES / "machines"
# Windows 10 desktop, WSL 2 laptop, Linux desktop, Linux laptop, macOS, a CPU-only Linux PC
ZH_MACHINES = ("rtx2060super-windows", "rtx4060-laptop-wsl2", "rtx3060-12gb-hdd-desktop", "gtx1660-laptop",
               "m1-macbookair", "office-pc-cpu-only")


@pytest.fixture(autouse=True)
def _reset():
    yield
    set_region(None)
    set_language("en")


def _advice(machine: str, job: str, platform: str | None = None):
    m = Machine.load(MACHINES / f"{machine}.json")
    if platform is not None:
        m = dataclasses.replace(m, software=dataclasses.replace(m.software, platform=platform))
    w = get_workload(job)
    t = E.Target.from_machine(m)
    with use_language("zh_CN"), use_region("cn"):
        return advise(m, w, t, E.estimate(w, t))


@pytest.fixture(scope="module")
def zh_cli_outputs():
    """`check` and `estimate JOB` for every built-in job, in Chinese for mainland China, on each machine."""
    import contextlib
    import io

    out = {}
    for name in ZH_MACHINES:
        buf = io.StringIO()
        for args in [["check"]] + [["estimate", w.id] for w in load_workloads()]:
            with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
                main([*args, "--machine", str(MACHINES / f"{name}.json"), "--lang", "zh_CN", "--region", "cn"])
            buf.write("\n=====\n")
        out[name] = buf.getvalue()
    set_region(None)
    set_language("en")
    return out


# -- environment variables in the form the reader's shell takes ---------------------------------------------


def test_the_mirror_is_set_in_the_shell_of_the_machine_the_command_is_pasted_on():
    # Before: every OS got `export HF_ENDPOINT=…`, which PowerShell and cmd do not understand.
    # a kohya command, pasted in PowerShell: the recorded Windows PC (RTX 2060 SUPER 8 GB), where SDXL LoRA at 1024 px
    # needs kohya's cached latents and text-encoder outputs, so it gets a command; the same PC as Linux takes bash
    win = _advice("rtx2060super-windows", "sdxl-lora").snippet
    assert '$env:HF_ENDPOINT="https://hf-mirror.com"' in win and "export HF_ENDPOINT" not in win
    assert "set HF_ENDPOINT=https://hf-mirror.com" in win  # the cmd form beside it, as a comment
    assert win.splitlines()[-2].endswith(" `") and " \\" not in win  # PowerShell continues lines with `
    linux = _advice("rtx2060super-windows", "sdxl-lora", platform="linux").snippet
    assert "export HF_ENDPOINT=https://hf-mirror.com" in linux and "$env:" not in linux and " `" not in linux
    assert [shell_for(Machine.load(MACHINES / f"{n}.json").software.platform)
            for n in ("rtx2060super-windows", "rtx4060-laptop-wsl2", "rtx3060-12gb-hdd-desktop")] == \
        ["powershell", "bash", "bash"]  # WSL 2 pastes into bash


# jobs that need a change on each machine, so a snippet is printed (the Qwen 1.5B LoRA runs as configured on both 8 GB
# cards since its loss is TRL's chunked one, TRL's default)
@pytest.mark.parametrize(("machine", "job"), [("rtx2060super-windows", "gemma3-4b-qlora"),
                                             ("rtx4060-laptop-wsl2", "whisper-small-finetune"),
                                             ("rtx3060-12gb-hdd-desktop", "llama3-8b-qlora")])
def test_python_snippets_set_the_mirror_in_python_before_the_first_import(machine, job):
    code = _advice(machine, job).snippet
    lines = [ln for ln in code.splitlines() if ln and not ln.startswith("#")]
    assert lines[:2] == ["import os", 'os.environ["HF_ENDPOINT"] = "https://hf-mirror.com"']  # any OS, any shell
    assert "export " not in code and "$env:" not in code


def test_a_cnn_snippet_carries_no_hugging_face_mirror():
    code = _advice("rtx2060super-windows", "imagenet-resnet50").snippet  # torchvision weights, not the Hub
    assert code and "HF_ENDPOINT" not in code


# -- what a Chinese reader reads --------------------------------------------------------------------------------


def test_no_untranslated_placeholder_in_chinese_output(zh_cli_outputs):
    # Before: "modelscope download --model <model-id>"; a placeholder the reader fills in is in Chinese.
    for name, text in zh_cli_outputs.items():
        latin = re.findall(r"<[A-Za-z][A-Za-z0-9 _-]*>", text)
        assert not latin, (name, sorted(set(latin)))


def test_no_colon_chains_or_doubled_words_in_chinese_advice(zh_cli_outputs):
    # Before: "代价：代价是时间：…", "瓶颈：…不够用：…", "按当前设置：很紧：…", "很紧：可能装得下：把…".
    for name, text in zh_cli_outputs.items():
        chains = [ln.strip() for ln in text.splitlines() if re.search(r"：[^：\n]*：", ln)]
        assert not chains, (name, chains[:5])
        doubled = re.findall(r"([\u4e00-\u9fff]{2,4})[：，]?\1", text)
        assert not doubled, (name, sorted(set(doubled)))
        stutter = set(re.findall(r"([\u4e00-\u9fff])\1", text)) - {"试", "看", "常", "稍"}  # 试试 is a word
        assert not stutter, (name, stutter)  # before: "就改用用 LoRA 微调…"


def test_cross_references_name_a_section_printed_in_the_same_output(zh_cli_outputs):
    # Before: "见下方的“租用云 GPU”" in `check`, which prints no cloud section; "加装内存（见“升级”）".
    for name, text in zh_cli_outputs.items():
        for block in text.split("=====\n"):
            for heading in re.findall(r"见(?:下方的?|上方的?)?“([^”]+)”", block):
                printed = re.search(r"^\s*" + re.escape(heading) + r"[：:]?\s*$|^\s*" + re.escape(heading) + "：",
                                    block, re.M)
                assert printed, (name, heading)


def test_the_alternatives_heading_has_one_name_in_both_languages(zh_cli_outputs):
    text = "\n".join(zh_cli_outputs.values())
    assert "能装下的替代方案：" in text and "可以改跑" not in text
    with use_language("zh_CN"):
        from gpucheck.i18n import tr
        assert tr("What fits instead: another method or a smaller model").startswith("能装下的替代方案")


def test_a_laptops_narrow_pcie_link_gets_its_own_message():
    # Before: the desktop text, "(插在芯片组插槽上，或用了延长线？)" and "不用挪动任何东西", on a laptop.
    from gpucheck.advise.host import bottlenecks

    m = Machine.load(MACHINES / "gtx1650-hybrid-laptop.json")  # recorded: its GTX 1650 runs at PCIe x4
    with use_language("zh_CN"):
        pcie = [b for b in bottlenecks(m, get_workload("mnist-cnn"), None) if b.id == "pcie"]
    assert pcie and "笔记本" in pcie[0].message and "芯片组" not in pcie[0].message
    assert "挪动" not in pcie[0].fix


def test_stable_diffusion_lora_names_the_layers_sd_trainers_name():
    # Before: "作用于注意力层的 q_proj、v_proj" (an LLM's layers) for SD 1.5 LoRA.
    a = _advice("rtx2060super-windows", "sd15-lora")
    w, m = get_workload("sd15-lora"), Machine.load(MACHINES / "rtx2060super-windows.json")
    with use_language("zh_CN"):
        notes = " ".join(E.estimate(w, E.Target.from_machine(m)).assumptions)
    assert "to_q、to_k、to_v、to_out.0" in notes and "network_dim" in notes and "q_proj" not in notes
    with use_language("en"):
        notes_en = " ".join(E.estimate(w, E.Target.from_machine(m)).assumptions)
    assert "to_q, to_k, to_v, to_out.0" in notes_en and "q_proj" not in notes_en
    assert a.verdict  # the job itself is advised as before


def test_usable_vram_is_called_usable_and_terms_are_one_each(zh_cli_outputs):
    text = "\n".join(zh_cli_outputs.values())
    assert "共有" not in text  # 11.7 GB is the usable part: 可用
    for old in ("等效批大小", "张量核心", "整次训练", "目标："):
        assert old not in text, old


@pytest.mark.parametrize("machine", ["rtx2060super-windows", "rtx4060-laptop-wsl2", "m1-macbookair"])
def test_the_chinese_report_has_one_colon_per_line_and_names_its_assumptions_jobs(machine):
    from gpucheck.report.build import build_report
    from gpucheck.report.html import render_html

    with use_region("cn"):
        model = build_report(Machine.load(MACHINES / f"{machine}.json"), lang="zh_CN")
    text = re.sub(r"<[^>]+>", "\n", render_html(model))
    chains = [ln.strip() for ln in text.splitlines() if re.search(r"：[^：\n]*：", ln)]
    assert not chains, chains[:5]
    assert not any(re.match(r"\d+ 个任务：", a) for a in model.assumptions)  # before: "8 个任务：…"
