"""How the app starts other programs, checked over every module in gpucheck/ (static, by AST) and by
running the one runner: no shell, no os.system/os.popen, argument lists not strings, a time limit on
every call, tools found by absolute path (never from the current folder)."""

from __future__ import annotations

import ast
import os
import stat
import sys
from pathlib import Path

import pytest

from gpucheck.probe import base
from gpucheck.probe.base import resolve_tool, run_command

PKG = Path(__file__).resolve().parents[2] / "gpucheck"
SOURCES = sorted(p for p in PKG.rglob("*.py") if "__pycache__" not in p.parts)
SUBPROCESS_CALLS = {"run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput"}
FORBIDDEN = {("os", "system"), ("os", "popen"), ("subprocess", "getoutput"), ("subprocess", "getstatusoutput"),
             ("pty", "spawn"), ("asyncio", "create_subprocess_shell")}
FORBIDDEN_PREFIXES = (("os", "spawn"), ("os", "exec"), ("os", "posix_spawn"))


def _dotted(node: ast.AST) -> tuple[str, ...]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return tuple(reversed(parts))


def _calls():
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                yield path, node, _dotted(node.func)


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(PKG.parent)}:{node.lineno}"


def _is_string_expr(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return True
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return _is_string_expr(node.left) or _is_string_expr(node.right)
    return isinstance(node, ast.Call) and _dotted(node.func)[-1:] in (("format",), ("join",))


def test_the_scan_finds_the_runner():
    """Guard against a test that checks nothing: the runner's own call must be seen."""
    seen = [(p.name, d) for p, _n, d in _calls() if d[:1] == ("subprocess",) and d[-1] in SUBPROCESS_CALLS]
    assert ("base.py", ("subprocess", "run")) in seen


def test_no_shell_anywhere():
    bad = []
    for path, node, _d in _calls():
        for kw in node.keywords:
            if kw.arg == "shell" and not (isinstance(kw.value, ast.Constant) and kw.value.value is False):
                bad.append(_where(path, node))
    assert not bad, f"shell=… found at {bad}"


def test_no_os_system_popen_or_exec():
    bad = []
    for path, node, dotted in _calls():
        if dotted[-2:] in FORBIDDEN or any(dotted[-2:-1] == p[:1] and dotted[-1].startswith(p[1])
                                           for p in FORBIDDEN_PREFIXES):
            bad.append(f"{_where(path, node)} {'.'.join(dotted)}")
    assert not bad, bad
    for path in SOURCES:  # `from os import system` would hide a call from the check above
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module in ("os", "subprocess", "pty"):
                names = {a.name for a in node.names}
                assert not names & {"system", "popen", "Popen", "run", "call", "check_output", "getoutput"}, \
                    _where(path, node)


# Popen where a watchdog loop bounds it: the trial streams progress and must be cancellable, and kills the
# child's whole process group at its hard time cap (tests/core/test_trial.py proves the cap and the kill).
POPEN_WITH_A_WATCHDOG = {"gpucheck/trial/child.py"}


def test_every_subprocess_call_has_a_timeout_and_an_argument_list():
    bad = []
    for path, node, dotted in _calls():
        if dotted[:1] != ("subprocess",) or dotted[-1] not in SUBPROCESS_CALLS:
            continue
        if dotted[-1] == "Popen":
            if path.relative_to(PKG.parent).as_posix() not in POPEN_WITH_A_WATCHDOG:
                bad.append(f"{_where(path, node)}: Popen has no time limit; use run(…, timeout=) or run_command")
            continue
        if not any(kw.arg == "timeout" for kw in node.keywords):
            bad.append(f"{_where(path, node)}: no timeout")
        argv = node.args[0] if node.args else next((kw.value for kw in node.keywords if kw.arg == "args"), None)
        if argv is None or _is_string_expr(argv):
            bad.append(f"{_where(path, node)}: the command is a string, not an argument list")
    assert not bad, bad


def test_probes_start_programs_only_through_the_runner_with_literal_tool_names():
    """`src.run([...], timeout=…)`: the tool name is a constant (resolved to an absolute path by the
    runner), the command a list, and a time limit is given."""
    bad = []
    seen = 0
    for path, node, dotted in _calls():
        if "probe" not in path.parts or dotted[-1:] != ("run",) or dotted[:1] == ("subprocess",):
            continue
        if dotted not in (("src", "run"),):
            continue
        seen += 1
        argv = node.args[0] if node.args else None
        if not isinstance(argv, (ast.List, ast.Tuple)) or not argv.elts:
            bad.append(f"{_where(path, node)}: the command must be a list literal")
            continue
        first = argv.elts[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            bad.append(f"{_where(path, node)}: the tool name must be a constant")
        if not any(kw.arg == "timeout" for kw in node.keywords):
            bad.append(f"{_where(path, node)}: no timeout")
    assert seen >= 6, "the probes' commands were not found: the check would prove nothing"
    assert not bad, bad


def test_runner_rejects_strings_and_odd_arguments():
    assert run_command("echo hello") is None  # a string is not split by a shell: refused
    assert run_command([]) is None
    assert run_command(["echo", 3]) is None  # type: ignore[list-item]


def test_shell_metacharacters_are_plain_arguments(tmp_path):
    marker = tmp_path / "pwned"
    out = run_command(["echo", f"a; touch {marker}", "$(touch " + str(marker) + ")", "|", "&&"])
    assert out is not None and "touch" in out
    assert not marker.exists()


def _fake_tool(folder: Path, name: str) -> Path:
    p = folder / name
    p.write_text("#!/bin/sh\necho planted\n")
    p.chmod(p.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return p


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX executables")
def test_tools_are_never_taken_from_the_current_folder_or_a_relative_path_entry(tmp_path, monkeypatch):
    _fake_tool(tmp_path, "gpucheck-fake-tool")
    monkeypatch.chdir(tmp_path)
    for path in (os.defpath, "." + os.pathsep + os.defpath, os.pathsep + os.defpath):  # "" means "." too
        monkeypatch.setenv("PATH", path)
        assert resolve_tool("gpucheck-fake-tool") is None, path
        assert run_command(["gpucheck-fake-tool"]) is None, path
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.defpath)
    assert resolve_tool("gpucheck-fake-tool") == str(tmp_path / "gpucheck-fake-tool")
    assert run_command(["gpucheck-fake-tool"]) == "planted\n"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX executables")
def test_system_tools_come_from_their_fixed_home_not_path(tmp_path, monkeypatch):
    """A `lspci` earlier in PATH is not run when the system's own is installed."""
    _fake_tool(tmp_path, "lspci")
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ.get("PATH", os.defpath))
    home = next((c for c in base.SYSTEM_TOOLS["lspci"] if os.path.isfile(c)), None)
    if home is None:
        pytest.skip("no system lspci installed here")
    assert resolve_tool("lspci") == home
    assert run_command(["lspci", "--version"]) != "planted\n"


def test_every_system_tool_path_is_absolute():
    for name, paths in base.SYSTEM_TOOLS.items():
        assert paths and all(os.path.isabs(p) for p in paths), name


# Values from the system (not from the user) that may appear on a probe's command line.
SYSTEM_VALUES = {("storage.py", "device")}  # a device node psutil listed, e.g. /dev/disk3s1 (diskutil info)


def test_no_user_text_on_a_probes_command_line():
    """Every part of a probe's command is a constant, a module constant (ALL_CAPS), or a value the
    system itself reported (listed above) — never text a user typed or a file they chose."""
    bad = []
    for path, node, dotted in _calls():
        if "probe" not in path.parts or dotted != ("src", "run") or not node.args:
            continue
        argv = node.args[0]
        for el in getattr(argv, "elts", []):
            inner = el.value if isinstance(el, ast.Starred) else el
            if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                continue
            if isinstance(inner, ast.Name) and (inner.id.isupper() or (path.name, inner.id) in SYSTEM_VALUES):
                continue
            bad.append(f"{_where(path, node)}: {ast.unparse(el)}")
    assert not bad, bad
