"""Command line: scan | check | estimate | report | gpus | workloads.

Exit codes: 0 ok, 2 bad input (one clear line on stderr, no traceback), 1 internal error.
Every command has --json for machine-readable output and prints a readable table otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from gpucheck import __version__
from gpucheck.errors import BadInput, UnknownName
from gpucheck.i18n import N_, set_language, tr, translate

# argparse's own words (headings, --help, its error messages), in the language in force.
_ARGPARSE_TEXTS = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("show program's version number and exit"), N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"), N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"), N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"), N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"), N_("one of the arguments %s is required"),
)
argparse._ = translate  # argparse looks its messages up through its module-level _()


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2, no usage dump
        see = f"gpucheck {self.prog.split()[-1]} --help" if " " in self.prog else "gpucheck --help"
        self.exit(2, "gpucheck: " + tr("{message} (see '{command}')", message=message, command=see) + "\n")


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help=tr("machine-readable JSON on stdout"))
    p.add_argument("--lang", choices=["en", "zh_CN"], help=tr("language (default: the system's)"))


def _add_target(p: argparse.ArgumentParser) -> None:
    p.add_argument("--machine", metavar="FILE", help=tr("a saved scan or JSON report instead of this PC"))
    p.add_argument("--gpu", metavar="NAME", help=tr("a catalog GPU instead of this PC's ('4090', 'a100 80gb'), or 'cpu' for the processor only"))
    p.add_argument("--gpus", type=int, metavar="N", help=tr("number of GPUs (default: as scanned, or 1)"))


def _add_overrides(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group(tr("training settings (override the workload's)"))
    g.add_argument("--method", choices=["full", "lora", "qlora"])
    g.add_argument("--precision", choices=["fp32", "fp16", "bf16"])
    g.add_argument("--optimizer", choices=["adamw", "adamw-8bit", "sgd"])
    g.add_argument("--batch", type=int, metavar="N", help=tr("micro-batch per GPU"))
    g.add_argument("--seq-len", type=int, metavar="N")
    g.add_argument("--image-size", type=int, metavar="N")
    g.add_argument("--grad-checkpointing", action=argparse.BooleanOptionalAction, default=None)
    g.add_argument("--lora-rank", type=int, metavar="N")
    g.add_argument("--samples", type=int, metavar="N", help=tr("training samples in the data set"))
    g.add_argument("--epochs", type=float, metavar="N")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="gpucheck",
        description=tr("Can my PC train this? Scan the hardware, estimate training jobs, get advice."),
        epilog=tr("Run 'gpucheck' with no command to open the desktop app."),
    )
    parser.add_argument("--version", action="version", version=f"gpucheck {__version__}")
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
    p.add_argument("workloads", nargs="*", metavar="WORKLOAD", help=tr("built-in id, workload .toml or config.json"))

    p = sub.add_parser("estimate", help=tr("VRAM, time, RAM and disk for one job, with advice"))
    _add_common(p)
    _add_target(p)
    _add_overrides(p)
    p.add_argument("workload", metavar="WORKLOAD", help=tr("built-in id, workload .toml or Hugging Face config.json"))

    p = sub.add_parser("report", help=tr("write a PDF, HTML or JSON report"))
    p.add_argument("output", metavar="OUT", help=tr("OUT.pdf, OUT.html or OUT.json"))
    p.add_argument("--machine", metavar="FILE", help=tr("a saved scan or JSON report instead of this PC"))
    p.add_argument("--lang", choices=["en", "zh_CN"], help=tr("language of the report"))
    p.add_argument("--workloads", nargs="+", metavar="WORKLOAD", help=tr("jobs to detail (default: all)"))
    p.add_argument("--include-ids", action="store_true",
                   help=tr("include host name and GPU UUIDs (left out by default)"))
    p.add_argument("--paper", choices=["a4", "letter"], help=tr("PDF paper size (default: by locale)"))

    p = sub.add_parser("gpus", help=tr("the GPU catalog"))
    _add_common(p)

    p = sub.add_parser("workloads", help=tr("the built-in training jobs"))
    _add_common(p)

    return parser


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _cmd_scan(args: argparse.Namespace) -> int:
    from gpucheck.probe import scan
    from gpucheck.probe.summary import format_machine, redact

    progress = None
    if not args.json and sys.stderr.isatty():
        def progress(area: str, done: int, total: int) -> None:
            sys.stderr.write(f"\r{tr('Scanning')} {done}/{total} {area:<50}")
            sys.stderr.flush()

    machine = scan(on_progress=progress, deep=args.deep, deep_disk=args.deep_disk)
    if progress:
        sys.stderr.write("\r" + " " * 80 + "\r")
    shown = machine if args.show_ids else redact(machine)
    if args.output:
        from gpucheck.fileio import write_text_atomic

        write_text_atomic(Path(args.output), shown.to_json() + "\n")
    if args.json:
        sys.stdout.write(shown.to_json() + "\n")
    else:
        sys.stdout.write(format_machine(shown) + "\n")
        if args.output:
            sys.stdout.write(tr("Saved the scan to {path}", path=args.output) + "\n")
    return 0


def load_target_machine(args: argparse.Namespace):
    """The Machine named by --machine, or a fresh scan of this PC."""
    from gpucheck.machine import Machine

    if getattr(args, "machine", None):
        return Machine.load(args.machine)
    from gpucheck.probe import scan

    return scan()


def _cmd_check(args: argparse.Namespace) -> int:
    from gpucheck.commands import run_check

    return run_check(args)


def _cmd_estimate(args: argparse.Namespace) -> int:
    from gpucheck.commands import run_estimate

    return run_estimate(args)


def _cmd_report(args: argparse.Namespace) -> int:
    from gpucheck.report import run_report

    return run_report(args)


def _cmd_gpus(args: argparse.Namespace) -> int:
    from gpucheck.commands import run_gpus

    return run_gpus(args)


def _cmd_workloads(args: argparse.Namespace) -> int:
    from gpucheck.commands import run_workloads

    return run_workloads(args)


COMMANDS = {
    "scan": _cmd_scan,
    "check": _cmd_check,
    "estimate": _cmd_estimate,
    "report": _cmd_report,
    "gpus": _cmd_gpus,
    "workloads": _cmd_workloads,
}


def _lang_in(argv: list[str]) -> str | None:
    """The value of --lang in argv, read before parsing so that --help is in that language too."""
    for i, a in enumerate(argv):
        if a == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith("--lang="):
            return a.split("=", 1)[1]
    return None


def run_guarded(fn, *args, **kwargs) -> int:
    """Run a command: BadInput → one line on stderr and exit 2; anything unexpected → logged, exit 1."""
    try:
        return fn(*args, **kwargs)
    except UnknownName as e:
        msg = str(e)
        if e.suggestions:
            msg += " — " + tr("did you mean: {names}?", names=", ".join(e.suggestions))
        sys.stderr.write(f"gpucheck: {msg}\n")
        return 2
    except BadInput as e:
        sys.stderr.write(f"gpucheck: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # noqa: BLE001 — the last line of defence: log it, one line for the user
        from gpucheck.logs import log_exception

        log_file = log_exception(e)
        sys.stderr.write(
            "gpucheck: "
            + tr("internal error: {error}. Details were written to {path}", error=f"{type(e).__name__}: {e}",
                 path=log_file)
            + "\n"
        )
        return 1


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    set_language(_lang_in(argv))  # before the parser is built, so that --help is in that language too
    parser = build_parser()
    args = parser.parse_args(argv)
    set_language(getattr(args, "lang", None))
    if not args.command:
        parser.print_help()
        return 0
    return run_guarded(COMMANDS[args.command], args)
