"""Command line: scan | check | estimate | trial | calibrate | report | gpus | workloads.

This module is the parser and the table of commands; what each command does is in gpucheck/commands.py
(`run_*`), the command line's glue, which no layer below knows about. Training settings are named here
the way the command line spells them (`cli_flag`: seq_len → --seq-len).
Exit codes: 0 ok, 2 bad input (one clear line on stderr, no traceback), 1 internal error.
Every command has --json for machine-readable output and prints a readable table otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import re
import sys
from typing import Any

import gpucheck
from gpucheck.choices import LORA_TARGETS, METHODS, OPTIMIZERS, PRECISIONS, STACKS, ZERO_STAGES
from gpucheck.errors import AmbiguousName, BadInput, UnknownName
from gpucheck.fileio import shorten
from gpucheck.i18n import N_, fmt_list, get_language, normalize_lang, set_language, tr, translate
from gpucheck.lazy import lazy_import
from gpucheck.region import REGIONS, set_region

# Each command loads what it uses, when it runs: `gpucheck scan` loads the probes, not the estimator, the
# advice or the reports (benchmarks/bench_scan.py). Only the parser is built for every command.
commands = lazy_import("gpucheck.commands")
scan_command = lazy_import("gpucheck.scan_command")
trial_command = lazy_import("gpucheck.trial.command")
commands_calibrate = lazy_import("gpucheck.commands_calibrate")
logs = lazy_import("gpucheck.logs")  # only when something goes wrong

# argparse's own words (headings, --help, its error messages), in the language in force.
_ARGPARSE_TEXTS = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("show program's version number and exit"), N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"), N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"), N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"), N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"), N_("one of the arguments %s is required"),
)
argparse._ = translate  # type: ignore[attr-defined]  # argparse looks its messages up through its module-level _()
_ZH_HEADING = re.compile(r"(?m)^(\S[^\n]*[\u4e00-\u9fff）]):$")


class _Parser(argparse.ArgumentParser):
    def format_help(self) -> str:  # argparse ends its headings with ':'; Chinese headings take '：'
        text = super().format_help()
        return _ZH_HEADING.sub("\\1：", text) if get_language() == "zh_CN" else text

    def error(self, message: str):  # one line, exit 2, no usage dump
        see = f"gpucheck {self.prog.split()[-1]} --help" if " " in self.prog else "gpucheck --help"
        self.exit(2, "gpucheck: " + tr("{message} (see '{command}')", message=message, command=see) + "\n")


class _VersionAction(argparse.Action):
    """--version: reads gpucheck.__version__ only when asked (importlib.metadata is slow to import)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        parser.exit(message=f"gpucheck {gpucheck.__version__}\n")


def _language(value: str) -> str:
    """--lang: en or zh_CN, as people write them (zh, zh-CN, zh_CN.UTF-8, en_US, …)."""
    lang = normalize_lang(value)
    if lang is None:
        raise argparse.ArgumentTypeError(tr("unknown language {value!r} (use en or zh_CN; zh and zh-CN work too)",
                                            value=value))
    return lang


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help=tr("machine-readable JSON on stdout"))
    p.add_argument("--lang", type=_language, metavar="{en,zh_CN}", help=tr("language (default: the system's)"))


def _add_region(p: argparse.ArgumentParser) -> None:
    p.add_argument("--region", choices=list(REGIONS),
                   help=tr("where you are, for cloud and shop advice: cn (mainland China) or global "
                           "(default: from the time zone and locale)"))


def _add_target(p: argparse.ArgumentParser) -> None:
    p.add_argument("--machine", metavar="FILE", help=tr("a saved scan or JSON report instead of this PC"))
    p.add_argument("--gpu", metavar="NAME", help=tr("a catalog GPU instead of this PC's ('4090', 'a100 80gb'), or 'cpu' for the processor only"))
    p.add_argument("--gpus", type=int, metavar="N", help=tr("number of GPUs (default: as scanned, or 1)"))
    p.add_argument("--machines", type=int, metavar="M",
                   help=tr("with --gpu: the machines the GPUs sit in, joined by their network "
                           "(default: as few as hold them, 8 GPUs each)"))


def _add_overrides(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group(tr("training settings (override the workload's)"))
    g.add_argument("--method", choices=METHODS)
    g.add_argument("--precision", choices=PRECISIONS,
                   help=tr("bf16 = mixed precision (fp32 master weights); bf16-pure = weights, gradients and "
                           "AdamW state all in bf16; fp16-pure = the same in fp16 (model.half())"))
    g.add_argument("--optimizer", choices=OPTIMIZERS)
    g.add_argument("--batch", type=int, metavar="N", help=tr("micro-batch per GPU"))
    g.add_argument("--grad-accum", type=int, metavar="K",
                   help=tr("gradient accumulation: micro-batches per optimizer step (the Trainer's "
                           "gradient_accumulation_steps; effective batch = micro-batch × K × GPUs)"))
    g.add_argument("--seq-len", type=int, metavar="N")
    g.add_argument("--image-size", type=int, metavar="N")
    g.add_argument("--grad-checkpointing", action=argparse.BooleanOptionalAction, default=None)
    g.add_argument("--lora-rank", type=int, metavar="N")
    g.add_argument("--lora-targets", choices=LORA_TARGETS,
                   help=tr("the layers LoRA adapts: q and v projections, all attention projections, the MLP, or "
                           "every linear layer"))
    g.add_argument("--lora-dropout", type=float, metavar="P",
                   help=tr("dropout on each LoRA adapter's input (0.05 by default); above 0 every adapted layer keeps "
                           "a copy of its input in VRAM, 0 keeps none"))
    g.add_argument("--zero-stage", type=int, choices=ZERO_STAGES,
                   help=tr("several GPUs: DeepSpeed ZeRO stage (3 = FSDP full shard)"))
    g.add_argument("--cpu-offload", action=argparse.BooleanOptionalAction, default=None,
                   help=tr("ZeRO-Offload: fp32 master weights, gradients and optimizer state in CPU RAM"))
    g.add_argument("--samples", type=int, metavar="N", help=tr("training samples in the data set"))
    g.add_argument("--epochs", type=float, metavar="N")
    g.add_argument("--tokens", type=int, metavar="N", help=tr("token budget of the whole run (pre-training)"))
    g.add_argument("--avg-seq-len", type=int, metavar="N",
                   help=tr("mean tokens per sample in your data set (at most --seq-len): the time follows it, the "
                           "memory the longest"))
    g.add_argument("--stack", choices=STACKS,
                   help=tr("software stack: eager (a plain PyTorch loop or the Hugging Face Trainer), fused "
                           "(compiled / fused kernels), handtuned (llm.c-style CUDA), unsloth (Unsloth: LoRA / QLoRA with its "
                           "kernels, activation checkpoints in CPU RAM)"))
    g.add_argument("--packing", action=argparse.BooleanOptionalAction, default=None,
                   help=tr("pack short samples into full-length rows"))


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; given the `command` the arguments name, another command's options that come from
    a heavier module (the trial's) are left out, since they are only read to parse or print that command."""
    parser = _Parser(
        prog="gpucheck",
        description=tr("Can my PC train this? Scan the hardware, estimate training jobs, get advice."),
        epilog=tr("Run 'gpucheck' with no command to open the desktop app."),
    )
    parser.add_argument("--version", action=_VersionAction, help=tr("show program's version number and exit"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("scan", help=tr("scan this PC (GPU, CPU, RAM, disks, power, software)"))
    _add_common(p)
    p.add_argument("-o", "--output", metavar="FILE", help=tr("write the scan as JSON to FILE"))
    p.add_argument("--deep", action="store_true", help=tr("also run short measured benchmarks (~30 s)"))
    p.add_argument("--deep-disk", metavar="PATH", help=tr("folder whose disk the deep scan measures"))
    p.add_argument("--show-ids", action="store_true", help=tr("keep GPU UUIDs and the host name in the output"))

    p = sub.add_parser("check", help=tr("verdict for each training job on this PC (all built-ins by default)"))
    _add_common(p)
    _add_target(p)
    _add_region(p)
    p.add_argument("workloads", nargs="*", metavar="WORKLOAD", help=tr("built-in id, workload .toml or config.json"))

    p = sub.add_parser("estimate", help=tr("VRAM, time, RAM and disk for one job, with advice"))
    _add_common(p)
    _add_target(p)
    _add_region(p)
    _add_overrides(p)
    p.add_argument("workload", metavar="WORKLOAD", help=tr("built-in id, workload .toml or Hugging Face config.json"))

    p = sub.add_parser("report", help=tr("write a PDF, HTML or JSON report"))
    p.add_argument("output", metavar="OUT", help=tr("OUT.pdf, OUT.html or OUT.json"))
    p.add_argument("--machine", metavar="FILE", help=tr("a saved scan or JSON report instead of this PC"))
    p.add_argument("--lang", type=_language, metavar="{en,zh_CN}", help=tr("language of the report"))
    _add_region(p)
    p.add_argument("--workloads", nargs="+", metavar="WORKLOAD", help=tr("jobs to detail (default: all)"))
    p.add_argument("--include-ids", action="store_true",
                   help=tr("include host name and GPU UUIDs (left out by default)"))
    p.add_argument("--paper", choices=["a4", "letter"], help=tr("PDF paper size (default: by locale)"))
    p.add_argument("--trial", action="append", metavar="FILE",
                   help=tr("a saved `gpucheck trial --json` result: its job's figures are shown as measured "
                           "(repeat for more jobs)"))

    p = sub.add_parser("trial", help=tr("run real training steps of one job in this PC's PyTorch and measure them"))
    _add_common(p)
    _add_region(p)  # the install commands it prints use domestic mirrors in mainland China
    _add_overrides(p)
    if command in (None, "trial"):
        trial_command.add_arguments(p)

    p = sub.add_parser("calibrate", help=tr("measure this PC with short real training steps; later estimates use it"))
    _add_common(p)
    if command in (None, "calibrate"):
        commands_calibrate.add_arguments(p)

    p = sub.add_parser("gpus", help=tr("the GPU catalog"))
    _add_common(p)
    _add_region(p)  # shop prices where the reader buys

    p = sub.add_parser("workloads", help=tr("the built-in training jobs"))
    _add_common(p)

    return parser


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


# command → (module handle, function): the module loads when its command runs
COMMANDS: dict[str, tuple[Any, str]] = {
    "scan": (scan_command, "run_scan"),
    "check": (commands, "run_check"),
    "estimate": (commands, "run_estimate"),
    "report": (commands, "run_report"),
    "gpus": (commands, "run_gpus"),
    "workloads": (commands, "run_workloads"),
    "trial": (trial_command, "run"),
    "calibrate": (commands_calibrate, "run"),
}


def _command_in(argv: list[str]) -> str | None:
    """The command argv names (its first word that is one), or None (no command, or only --help)."""
    return next((a for a in argv if a in COMMANDS), None)


def _lang_in(argv: list[str]) -> str | None:
    """The value of --lang in argv, read before parsing so that --help is in that language too."""
    for i, a in enumerate(argv):
        if a == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith("--lang="):
            return a.split("=", 1)[1]
    return None


def cli_flag(setting: str) -> str:
    """A training setting's option on the command line: seq_len → --seq-len (argparse's own naming)."""
    return "--" + setting.replace("_", "-")


def run_guarded(fn, *args, **kwargs) -> int:
    """Run a command: BadInput → one line on stderr and exit 2; anything unexpected → logged, exit 1."""
    try:
        code = fn(*args, **kwargs)
        sys.stdout.flush()  # a full or broken output fails here, inside the guard
        return code
    except UnknownName as e:
        msg = str(e)
        zh = get_language() == "zh_CN"  # full-width list punctuation in Chinese, no space after '：'
        if isinstance(e, AmbiguousName):
            msg += ("" if zh else " ") + ("；" if zh else "; ").join(e.suggestions)  # names, not sentences
        elif e.suggestions:
            msg += " — " + tr("did you mean: {names}?", names=fmt_list(e.suggestions))
        sys.stderr.write(f"gpucheck: {msg}\n")
        return 2
    except BadInput as e:  # a training setting is named as the command line spells it (--seq-len)
        sys.stderr.write(f"gpucheck: {e.named(cli_flag)}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        return 130
    except BrokenPipeError:
        return 0
    except OSError as e:
        line = user_os_error(e)
        if line is None:
            return _internal_error(e)
        sys.stderr.write(f"gpucheck: {line}\n")
        return 2
    except Exception as e:  # noqa: BLE001 — the last line of defence: log it, one line for the user
        return _internal_error(e)


def _internal_error(e: BaseException) -> int:
    log_file = logs.log_exception(e)
    sys.stderr.write("gpucheck: " + tr("internal error: {error}. Details were written to {path}",
                                       error=shorten(f"{type(e).__name__}: {e}", 300), path=log_file) + "\n")
    return 1


_USER_ERRNOS = {errno.ENAMETOOLONG, errno.ENOSPC, errno.EFBIG, errno.EROFS, getattr(errno, "EDQUOT", -1)}


def user_os_error(e: OSError) -> str | None:
    """A system error the user's input or disk caused (a file name too long, a full disk or output) as one
    line; None for any other (an internal error). A full standard output is then pointed at the null device,
    so that Python's own last flush does not fail again."""
    if e.errno not in _USER_ERRNOS:
        return None
    if e.errno in (errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", -1)) and not e.filename:
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return tr("cannot write the output ({reason})", reason=e.strerror or e)
    if e.errno == errno.ENAMETOOLONG:
        return tr("{path}: file name too long", path=shorten(str(e.filename or ""), 120))
    return tr("{path}: cannot write ({reason})", path=shorten(str(e.filename or ""), 120), reason=e.strerror or e)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    set_language(_lang_in(argv))  # before the parser is built, so that --help is in that language too
    parser = build_parser(_command_in(argv))
    args = parser.parse_args(argv)
    set_language(getattr(args, "lang", None))
    set_region(getattr(args, "region", None))
    if not args.command:
        parser.print_help()
        return 0
    module, name = COMMANDS[args.command]
    return run_guarded(lambda: getattr(module, name)(args))
