"""The layer contract, read from the imports (the source is parsed, nothing is imported).

gpucheck's layers import downwards only, with no cycles:

    __main__ | ui | cli | commands, commands_calibrate | scan_command | report, trial, machine_text | advise | estimate | bench | probe
    | evidence | catalog | hf_config | hf_types, hf_diffusers | hf_moe | hf_parts | workload_schema | machine, verdict, records, tomldata | fileio | logs | i18n | region | lazy, resources, errors, choices, console

A name in a tier may import anything in the tiers below it, never above; names sharing a tier (", ")
are independent and do not import each other. Every import counts: at the top of a module, inside a
function, and the deferred ones (`lazy_import("gpucheck.x")`, gpucheck/lazy.py). A module's own
package (`gpucheck.probe.nvidia` → `gpucheck.probe.base`) is one layer.
PySide6 (and shiboken6) are imported only in gpucheck/ui/ and gpucheck/report/pdf.py. Outside ui/,
imports sit at the top of modules; inside a function only the optional or platform-only libraries
listed in OPTIONAL_INSIDE_FUNCTIONS, each for the reason given.

A new top-level module or package gets a place in LAYERS (and in the docstring above and in
docs/CONTRIBUTING.md): that is the decision where it belongs.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "gpucheck"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("__main__",),
    ("ui",),
    ("cli",),
    ("commands", "commands_calibrate"),
    ("scan_command",),
    ("report", "trial", "machine_text"),
    ("advise",),
    ("estimate",),
    ("bench",),
    ("probe",),
    ("evidence",),
    ("catalog",),
    ("hf_config",),
    ("hf_types", "hf_diffusers"),
    ("hf_moe",),
    ("hf_parts",),
    ("workload_schema",),
    ("machine", "verdict", "records", "tomldata"),
    ("fileio",),
    ("logs",),
    ("i18n",),
    ("region",),
    ("lazy", "resources", "errors", "choices", "console"),
)
QT_ALLOWED = ("gpucheck.ui", "gpucheck.report.pdf")
# Imported inside a function on purpose: optional, slow to load, or present on one platform only.
OPTIONAL_INSIDE_FUNCTIONS = {
    "torch": "optional (the deep scan and trials use the user's own PyTorch); seconds to import",
    "PIL": "optional (Pillow: the deep scan's JPEG benchmark)",
    "pynvml": "optional binding (nvidia-ml-py): a missing one is a finding, not an import error",
    "amdsmi": "optional, Linux with ROCm only",
    "fcntl": "POSIX only",
    "ctypes": "platform APIs (Windows kernel32, macOS sysctl) called where they exist",
    "PySide6": "report/pdf.py: Qt only when a PDF is written",
}


def _modules() -> dict[str, Path]:
    out = {}
    for p in sorted(PACKAGE.rglob("*.py")):
        rel = p.relative_to(PACKAGE.parent).with_suffix("")
        name = ".".join(rel.parts)
        out[name.removesuffix(".__init__")] = p
    return out


def _imports(name: str, path: Path) -> list[tuple[str, int, bool]]:
    """(imported module, line, inside a function) for every import and lazy_import(...) of `path`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    found: list[tuple[str, int, bool]] = []

    def visit(node: ast.AST, in_func: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_func or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                found.extend((a.name, child.lineno, in_func) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = name if is_pkg else name.rpartition(".")[0]
                    for _ in range(child.level - 1):
                        base = base.rpartition(".")[0]
                    mod = f"{base}.{child.module}" if child.module else base
                else:
                    mod = child.module or ""
                found.append((mod, child.lineno, in_func))
                found.extend((f"{mod}.{a.name}", child.lineno, in_func) for a in child.names)
            elif (isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id == "lazy_import"
                  and child.args and isinstance(child.args[0], ast.Constant) and isinstance(child.args[0].value, str)):
                found.append((child.args[0].value, child.lineno, in_func))
            visit(child, inside)

    visit(tree, False)
    return found


def _resolve(target: str, modules: dict[str, Path]) -> str | None:
    while target and target not in modules:
        target = target.rpartition(".")[0]
    return target or None


def _unit(module: str) -> str:
    """The layer unit of a module: gpucheck.probe.nvidia → 'probe'; gpucheck → ''."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _tier(unit: str) -> int | None:
    for i, names in enumerate(LAYERS):
        if unit in names:
            return i
    return None


def _edges() -> tuple[dict[str, set[str]], list[tuple[str, str, int]]]:
    modules = _modules()
    edges: dict[str, set[str]] = {m: set() for m in modules}
    where: list[tuple[str, str, int]] = []
    for m, p in modules.items():
        for target, line, _ in _imports(m, p):
            if not target.startswith("gpucheck"):
                continue
            r = _resolve(target, modules)
            if r and r != m and not m.startswith(r + "."):  # a module importing its own package is fine
                edges[m].add(r)
                where.append((m, r, line))
    return edges, where


def test_every_module_has_a_layer():
    units = {_unit(m) for m in _modules()} - {""}
    missing = sorted(u for u in units if _tier(u) is None)
    assert not missing, f"give these a place in LAYERS (tests/test_layers.py): {missing}"


def test_layers_import_downwards_only():
    _, where = _edges()
    wrong = []
    for src, dst, line in where:
        a, b = _unit(src), _unit(dst)
        if a == b or b == "":  # within one layer; `gpucheck` itself (the version) is below everything
            continue
        ta, tb = _tier(a), _tier(b)
        if ta is None or tb is None:
            continue  # reported by test_every_module_has_a_layer
        if tb <= ta:
            wrong.append(f"{src} (line {line}) imports {dst}: '{b}' is {'beside' if tb == ta else 'above'} '{a}'")
    assert not wrong, "imports against the layers:\n" + "\n".join(sorted(set(wrong)))


def test_no_import_cycles():
    edges, _ = _edges()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    cycles: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in edges:
        if v not in index:
            strong(v)
    assert not cycles, f"import cycles: {cycles}"


def test_qt_only_in_the_ui_and_the_pdf_writer():
    wrong = []
    for m, p in _modules().items():
        if m.startswith(QT_ALLOWED):
            continue
        for target, line, _ in _imports(m, p):
            if target.split(".")[0] in ("PySide6", "shiboken6"):
                wrong.append(f"{m} line {line}: {target}")
    assert not wrong, "Qt outside gpucheck/ui/ and gpucheck/report/pdf.py:\n" + "\n".join(wrong)


def test_imports_at_the_top_of_modules_outside_the_ui():
    wrong = set()
    for m, p in _modules().items():
        if m.startswith("gpucheck.ui"):
            continue
        for target, line, in_func in _imports(m, p):
            if in_func and target.split(".")[0] not in OPTIONAL_INSIDE_FUNCTIONS:
                wrong.add((m, line))
    assert not wrong, ("imports inside functions (move them to the top of the module, or defer them with "
                       "gpucheck.lazy.lazy_import):\n" + "\n".join(f"{m} line {n}" for m, n in sorted(wrong)))
