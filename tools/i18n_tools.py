"""Maintain the translation catalog: extract strings from the code, merge them into the .ts, compile the .qm.

    python tools/i18n_tools.py update            extract + merge into every resources/translations/*.ts,
                                                    then compile the .qm files; lists what still needs translating
    python tools/i18n_tools.py export [-o FILE]  the unfinished entries as JSON {"English": ""} to fill in
    python tools/i18n_tools.py fill FILE.json    write translations from {"English": "中文"} into the .ts
                                                    (placeholders checked), mark them finished, recompile
    python tools/i18n_tools.py compile           .ts → .qm with pyside6-lrelease (for the UI's QTranslator)
    python tools/i18n_tools.py check             missing / unfinished / placeholder mismatches / f-strings
                                                    given to tr(); exit status 1 if any

What is extracted (from gpucheck/**.py, by reading the syntax tree, never by importing):
the first argument of `tr(...)`, `tr_text(...)`, `N_(...)`, `both(...)`, `translate(...)` imported from
gpucheck.i18n (also as `i18n.tr(...)` or under an alias), the second argument of `QCoreApplication.translate("gpucheck", ...)`,
and the template (third argument) of a scan finding, `finding(area, severity, "template {x}", code, x=...)`
from gpucheck.probe.base.
Only string literals are extracted; `tr(f"...")` is reported as a mistake (it can never match the catalog).

The .ts is Qt Linguist's TS 2.1 format with one context, "gpucheck". Existing translations are kept;
new strings are added as `type="unfinished"`; strings no longer in the code are kept as
`type="vanished"` (so their translation comes back if the string does; `--drop-vanished` removes them).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import string
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree as ET

# Run as a script (python tools/i18n_tools.py) the checkout's gpucheck is imported, not an installed one.
if str(Path(__file__).resolve().parent.parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gpucheck.fileio import write_bytes_atomic, write_text_atomic  # noqa: E402

CONTEXT = "gpucheck"
SOURCE_ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DIR = SOURCE_ROOT / "gpucheck"
TRANSLATIONS_DIR = SOURCE_ROOT / "resources" / "translations"

# Names in gpucheck.i18n whose first argument is an English source string.
_MARKERS = {"tr", "N_", "both", "translate", "tr_text"}
# Other functions that take an English source string: (module, name) → the argument's position.
# `finding(area, severity, "template {x}", code, x=…)` makes a scan Finding from its template.
_TEMPLATE_TAKERS = {("gpucheck.probe.base", "finding"): 2}


# -- extraction ------------------------------------------------------------------------------------


@dataclass
class Extracted:
    """Strings found in the code: source → [(file relative to the repo, line)], plus mistakes found."""

    messages: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def add(self, source: str, path: str, line: int) -> None:
        self.messages.setdefault(source, []).append((path, line))


def _template_takers(tree: ast.Module, rel: str) -> dict[str, int]:
    """Names bound in the module at `rel` (gpucheck/probe/x.py) to a function of _TEMPLATE_TAKERS:
    {name: position of the template argument}."""
    out: dict[str, int] = {}
    parts = rel.removesuffix(".py").split("/")
    package = ".".join(parts[:-1])  # what `from .x import …` is relative to (also for an __init__.py)
    module = package if parts[-1] == "__init__" else ".".join(parts)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:  # from .base import finding (inside gpucheck/probe)
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                mod = f"{base}.{mod}" if mod else base
            for a in node.names:
                if (mod, a.name) in _TEMPLATE_TAKERS:
                    out[a.asname or a.name] = _TEMPLATE_TAKERS[(mod, a.name)]
    for (mod, name), pos in _TEMPLATE_TAKERS.items():
        if mod == module:
            out[name] = pos
    return out


def _marker_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(plain names bound to i18n markers in this module, module aliases of gpucheck.i18n)."""
    names: set[str] = set()
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if mod == "gpucheck.i18n" or (node.level > 0 and mod == "i18n"):
                names |= {a.asname or a.name for a in node.names if a.name in _MARKERS}
            elif mod == "gpucheck" or (node.level > 0 and not mod):
                modules |= {a.asname or a.name for a in node.names if a.name == "i18n"}
        elif isinstance(node, ast.Import):
            modules |= {a.asname for a in node.names if a.name == "gpucheck.i18n" and a.asname}
    return names, modules


def _plain_string_tables(tree: ast.Module) -> dict[str, int]:
    """Module-level dicts/tuples/lists holding bare English strings as values: {name: line}.
    If such a table is looked up inside tr(…), its strings never reach the catalog."""
    out: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if isinstance(value, ast.Dict):
            items = value.values
        elif isinstance(value, (ast.Tuple, ast.List)):
            items = [e for v in value.elts for e in (v.elts if isinstance(v, ast.Tuple) else [v])]
        else:
            continue
        texts = [_first_literal(v) for v in items if v is not None]
        if any(t and re.search(r"[A-Za-z]{2}", t) and not re.fullmatch(r"[a-z0-9_.\-]+", t) for t in texts):
            for t in targets:
                if isinstance(t, ast.Name):
                    out[t.id] = node.lineno
    return out


def _first_literal(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _is_built_string(node: ast.expr) -> bool:
    """An f-string, "a" + b, "…".format(…) or "…" % x: built at run time, so it never matches the catalog."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return _first_literal(node.left) is not None or isinstance(node.left, ast.JoinedStr)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _first_literal(node.func.value) is not None
    return False


def extract_file(path: Path, rel: str, out: Extracted) -> None:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (SyntaxError, UnicodeDecodeError, OSError) as e:
        out.problems.append(f"{rel}: cannot read: {e}")
        return
    names, modules = _marker_names(tree)
    takers = _template_takers(tree, rel)
    tables = _plain_string_tables(tree)
    if path.resolve() == (PACKAGE_DIR / "i18n.py").resolve():
        names |= _MARKERS  # the module itself calls tr("…") for its units
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        f = node.func
        arg = None
        if isinstance(f, ast.Name) and f.id in names:
            arg = node.args[0]
            what = f.id
        elif isinstance(f, ast.Name) and f.id in takers and len(node.args) > takers[f.id]:
            arg = node.args[takers[f.id]]
            what = f.id
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
            if f.value.id in modules and f.attr in _MARKERS:
                arg = node.args[0]
                what = f"{f.value.id}.{f.attr}"
            elif f.attr == "translate" and len(node.args) >= 2 and _first_literal(node.args[0]) is not None:
                # QCoreApplication.translate("gpucheck", "…") / QApplication.translate(…)
                if _first_literal(node.args[0]) == CONTEXT:
                    arg = node.args[1]
                    what = f"{f.value.id}.translate"
                else:
                    out.problems.append(
                        f"{rel}:{node.lineno}: translate() with context {_first_literal(node.args[0])!r};"
                        f" the catalog has only the context {CONTEXT!r}"
                    )
            elif f.value.id == "self" and f.attr == "tr" and _first_literal(node.args[0]) is not None:
                out.problems.append(
                    f"{rel}:{node.lineno}: self.tr(…) uses the class name as Qt context and is not in the"
                    " catalog; use gpucheck.i18n.tr(…)"
                )
        if arg is None:
            continue
        text = _first_literal(arg)
        if text is not None:
            if text.strip():
                out.add(text, rel, getattr(arg, "lineno", node.lineno))
        elif _is_built_string(arg):
            out.problems.append(
                f"{rel}:{node.lineno}: {what}() is given a string built at run time (f-string, + or"
                " .format); write tr(\"… {name} …\", name=value) instead"
            )
        else:
            for ref in {n.id for n in ast.walk(arg) if isinstance(n, ast.Name)} & set(tables):
                out.problems.append(
                    f"{rel}:{node.lineno}: {what}() looks up text in {ref} (line {tables[ref]}), whose strings"
                    " are not marked: wrap each in N_(\"…\") so they are extracted"
                )


def extract(package_dir: Path = PACKAGE_DIR, repo_root: Path = SOURCE_ROOT) -> Extracted:
    out = Extracted()
    for path in sorted(package_dir.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        extract_file(path, path.relative_to(repo_root).as_posix(), out)
    return out


# -- the .ts file ----------------------------------------------------------------------------------


@dataclass
class Entry:
    source: str
    translation: str = ""
    type: str | None = None  # None = finished; "unfinished"; "vanished"; "obsolete"
    locations: list[tuple[str, int]] = field(default_factory=list)  # (filename as written in the .ts, line)
    comment: str | None = None  # disambiguation (kept as is)
    extracomment: str | None = None
    translatorcomment: str | None = None

    @property
    def finished(self) -> bool:
        return self.type is None and bool(self.translation)


@dataclass
class Catalog:
    language: str
    entries: list[Entry]
    source_language: str = "en"

    def by_source(self) -> dict[str, Entry]:
        return {e.source: e for e in self.entries}


def read_ts(path: Path) -> Catalog:
    root = ET.parse(path).getroot()
    entries: list[Entry] = []
    for ctx in root.iter("context"):
        if (ctx.findtext("name") or "") != CONTEXT:
            continue
        for msg in ctx.iter("message"):
            src = msg.findtext("source")
            if src is None:
                continue
            tr_el = msg.find("translation")
            entries.append(
                Entry(
                    source=src,
                    translation=(tr_el.text or "") if tr_el is not None else "",
                    type=tr_el.get("type") if tr_el is not None else "unfinished",
                    locations=[
                        (loc.get("filename", ""), int(loc.get("line", "0") or 0)) for loc in msg.iter("location")
                    ],
                    comment=msg.findtext("comment"),
                    extracomment=msg.findtext("extracomment"),
                    translatorcomment=msg.findtext("translatorcomment"),
                )
            )
    return Catalog(
        language=root.get("language", ""), entries=entries, source_language=root.get("sourcelanguage", "en")
    )


def _esc(text: str, attr: bool = False) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if attr:
        text = text.replace('"', "&quot;")
    return text


def ts_text(cat: Catalog) -> str:
    """The catalog as TS 2.1 XML, laid out like Qt's lupdate writes it."""
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        "<!DOCTYPE TS>",
        f'<TS version="2.1" language="{_esc(cat.language, True)}" sourcelanguage="{_esc(cat.source_language, True)}">',
        "<context>",
        f"    <name>{CONTEXT}</name>",
    ]
    for e in cat.entries:
        lines.append("    <message>")
        for filename, line in e.locations:
            lines.append(f'        <location filename="{_esc(filename, True)}" line="{line}"/>')
        lines.append(f"        <source>{_esc(e.source)}</source>")
        if e.comment is not None:
            lines.append(f"        <comment>{_esc(e.comment)}</comment>")
        if e.extracomment is not None:
            lines.append(f"        <extracomment>{_esc(e.extracomment)}</extracomment>")
        if e.translatorcomment is not None:
            lines.append(f"        <translatorcomment>{_esc(e.translatorcomment)}</translatorcomment>")
        type_attr = f' type="{e.type}"' if e.type else ""
        if e.translation:
            lines.append(f"        <translation{type_attr}>{_esc(e.translation)}</translation>")
        else:
            lines.append(f"        <translation{type_attr}></translation>")
        lines.append("    </message>")
    lines += ["</context>", "</TS>", ""]
    return "\n".join(lines)


def write_ts(path: Path, cat: Catalog) -> None:
    write_text_atomic(path, ts_text(cat))


def ts_files(directory: Path = TRANSLATIONS_DIR) -> list[Path]:
    return sorted(directory.glob("gpucheck_*.ts"))


# -- placeholders ----------------------------------------------------------------------------------


def placeholders(text: str) -> list[str] | None:
    """The {fields} of a str.format template, sorted (with their format spec); None if it does not parse."""
    try:
        fields = [
            f"{name}" + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "")
            for _lit, name, spec, conv in string.Formatter().parse(text)
            if name is not None
        ]
    except ValueError:
        return None
    return sorted(fields)


_PERCENT = re.compile(r"%(?:\([A-Za-z_]\w*\))?[srd]")


def placeholder_mismatch(source: str, translation: str) -> str | None:
    """Why `translation` cannot stand in for `source` in tr(source, **params); None if it can.
    (Also compares printf-style %s / %(name)s fields, which argparse's own messages use.)"""
    pa, pb = sorted(_PERCENT.findall(source)), sorted(_PERCENT.findall(translation))
    if pa != pb:
        return f"%-fields differ: source {pa}, translation {pb}"
    a, b = placeholders(source), placeholders(translation)
    if a is None:  # not a template (a lone brace): must keep braces exactly
        if source.count("{") != translation.count("{") or source.count("}") != translation.count("}"):
            return "braces differ"
        return None
    if b is None:
        return "translation is not a valid {placeholder} template (a lone '{' or '}'; write '{{' / '}}')"
    if a != b:
        return f"placeholders differ: source {a}, translation {b}"
    return None


# -- merge -----------------------------------------------------------------------------------------


def _ts_location(rel_path: str, ts_path: Path) -> str:
    return Path(os.path.relpath(SOURCE_ROOT / rel_path, ts_path.parent)).as_posix()


def merge(cat: Catalog, found: Extracted, ts_path: Path, drop_vanished: bool = False) -> dict[str, int]:
    """Bring `cat` in line with the strings found in the code. Returns counts of what changed."""
    old = cat.by_source()
    entries: list[Entry] = []
    counts = {"new": 0, "kept": 0, "revived": 0, "vanished": 0, "dropped": 0}
    order = sorted(found.messages.items(), key=lambda kv: (kv[1][0][0], kv[1][0][1]))
    for source, locs in order:
        locations = [(_ts_location(p, ts_path), line) for p, line in locs]
        e = old.pop(source, None)
        if e is None:
            entries.append(Entry(source, "", "unfinished", locations))
            counts["new"] += 1
            continue
        e.locations = locations
        if e.type in ("vanished", "obsolete"):
            e.type = None if e.translation else "unfinished"
            counts["revived"] += 1
        elif e.type is None and not e.translation:
            e.type = "unfinished"
            counts["kept"] += 1
        else:
            counts["kept"] += 1
        entries.append(e)
    for e in old.values():  # no longer in the code
        if drop_vanished or not e.translation:
            counts["dropped"] += 1
            continue
        if e.type not in ("vanished", "obsolete"):
            counts["vanished"] += 1
        e.type = "vanished"
        e.locations = []
        entries.append(e)
    cat.entries = entries
    return counts


def new_catalog(ts_path: Path) -> Catalog:
    lang = ts_path.stem.split("_", 1)[1] if "_" in ts_path.stem else ts_path.stem
    return Catalog(language=lang, entries=[])


# -- compile ---------------------------------------------------------------------------------------


def find_lrelease() -> list[str] | None:
    """The command that runs Qt's lrelease (PySide6's copy first), or None."""
    exe_dir = Path(sys.executable).parent
    for name in ("pyside6-lrelease", "pyside6-lrelease.exe"):
        if (exe_dir / name).is_file():
            return [str(exe_dir / name)]
    try:
        import importlib.util

        spec = importlib.util.find_spec("PySide6")
        if spec and spec.origin:
            pkg = Path(spec.origin).parent
            for name in ("lrelease", "lrelease.exe", "Qt/libexec/lrelease"):
                if (pkg / name).is_file():
                    return [str(pkg / name)]
    except (ImportError, ValueError):
        pass
    for name in ("pyside6-lrelease", "lrelease-qt6", "lrelease"):
        found = shutil.which(name)
        if found:
            return [found]
    return None


def compile_ts(ts_path: Path, qm_path: Path) -> None:
    """Compile one .ts into a .qm (unfinished entries are left out, as the core does)."""
    cmd = find_lrelease()
    if cmd is None:
        raise RuntimeError("Qt's lrelease was not found (install PySide6: it ships pyside6-lrelease)")
    res = subprocess.run(
        [*cmd, "-silent", "-nounfinished", str(ts_path), "-qm", str(qm_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if res.returncode != 0 or not qm_path.is_file():
        raise RuntimeError(f"lrelease failed on {ts_path.name}: {(res.stderr or res.stdout).strip()}")


def compile_all(directory: Path = TRANSLATIONS_DIR) -> list[Path]:
    done = []
    for ts in ts_files(directory):
        qm = ts.with_suffix(".qm")
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / qm.name
            compile_ts(ts, out)
            data = out.read_bytes()
        if not qm.is_file() or qm.read_bytes() != data:
            write_bytes_atomic(qm, data)
        done.append(qm)
    return done


# -- check -----------------------------------------------------------------------------------------


def problems(cat: Catalog, found: Extracted) -> dict[str, list[str]]:
    """Everything that keeps the catalog from being complete, grouped by kind."""
    by_src = cat.by_source()
    out: dict[str, list[str]] = {"missing": [], "unfinished": [], "placeholders": [], "code": list(found.problems)}
    for source, locs in found.messages.items():
        e = by_src.get(source)
        where = f"{locs[0][0]}:{locs[0][1]}"
        if e is None or e.type in ("vanished", "obsolete"):
            out["missing"].append(f"{where}: {source!r}")
        elif not e.finished:
            out["unfinished"].append(f"{where}: {source!r}")
    for e in cat.entries:
        if e.translation and e.type != "vanished":
            why = placeholder_mismatch(e.source, e.translation)
            if why:
                out["placeholders"].append(f"{e.source!r} → {e.translation!r}: {why}")
    return out


# -- commands --------------------------------------------------------------------------------------


def _load_or_new(ts: Path) -> Catalog:
    return read_ts(ts) if ts.is_file() else new_catalog(ts)


def cmd_update(args: argparse.Namespace) -> int:
    found = extract()
    targets = ts_files() or [TRANSLATIONS_DIR / "gpucheck_zh_CN.ts"]
    TRANSLATIONS_DIR.mkdir(parents=True, exist_ok=True)
    for ts in targets:
        cat = _load_or_new(ts)
        counts = merge(cat, found, ts, drop_vanished=args.drop_vanished)
        write_ts(ts, cat)
        todo = [e for e in cat.entries if e.type == "unfinished"]
        print(
            f"{ts.relative_to(SOURCE_ROOT)}: {len(found.messages)} strings in the code;"
            f" {counts['new']} new, {counts['revived']} back, {counts['vanished']} vanished,"
            f" {counts['dropped']} dropped; {len(todo)} to translate"
        )
        for e in todo[: args.show]:
            print(f"  unfinished: {e.source!r}")
        if len(todo) > args.show:
            print(f"  … and {len(todo) - args.show} more (python tools/i18n_tools.py export)")
    for p in found.problems:
        print(f"warning: {p}", file=sys.stderr)
    if not args.no_compile:
        return cmd_compile(args)
    return 0


def cmd_compile(args: argparse.Namespace) -> int:
    try:
        for qm in compile_all():
            print(f"compiled {qm.relative_to(SOURCE_ROOT)}")
    except RuntimeError as e:
        print(f"i18n_tools: {e}", file=sys.stderr)
        return 1
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    found = extract()
    bad = 0
    for ts in ts_files():
        cat = read_ts(ts)
        for kind, items in problems(cat, found).items():
            for item in items:
                print(f"{ts.name}: {kind}: {item}")
            bad += len(items)
    if not ts_files():
        print("no catalog yet: run python tools/i18n_tools.py update")
        return 1
    if bad == 0:
        print(f"all {len(found.messages)} strings translated")
    return 1 if bad else 0


def cmd_export(args: argparse.Namespace) -> int:
    ts = TRANSLATIONS_DIR / f"gpucheck_{args.lang}.ts"
    cat = read_ts(ts)
    todo = {e.source: e.translation for e in cat.entries if e.type == "unfinished"}
    text = json.dumps(todo, ensure_ascii=False, indent=1) + "\n"
    if args.output:
        write_text_atomic(Path(args.output), text)
        print(f"{len(todo)} unfinished entries written to {args.output}")
    else:
        sys.stdout.write(text)
    return 0


def fill(cat: Catalog, translations: dict[str, str]) -> tuple[int, list[str]]:
    """Set translations from {source: text}. Returns (how many set, complaints)."""
    by_src = cat.by_source()
    n, complaints = 0, []
    for source, text in translations.items():
        if not isinstance(text, str) or not text.strip():
            continue
        e = by_src.get(source)
        if e is None:
            complaints.append(f"not in the catalog (run update first?): {source!r}")
            continue
        why = placeholder_mismatch(source, text)
        if why:
            complaints.append(f"{source!r}: {why}")
            continue
        if e.translation != text or e.type == "unfinished":
            e.translation = text
            if e.type == "unfinished":
                e.type = None
            n += 1
    return n, complaints


def cmd_fill(args: argparse.Namespace) -> int:
    data = json.loads(Path(args.file).read_text(encoding="utf-8"))
    ts = TRANSLATIONS_DIR / f"gpucheck_{args.lang}.ts"
    cat = read_ts(ts)
    n, complaints = fill(cat, data)
    write_ts(ts, cat)
    for c in complaints:
        print(f"skipped: {c}", file=sys.stderr)
    left = sum(1 for e in cat.entries if e.type == "unfinished")
    print(f"{n} translations written to {ts.relative_to(SOURCE_ROOT)}; {left} still unfinished")
    rc = cmd_compile(args)
    return 1 if complaints else rc


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python tools/i18n_tools.py", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    u = sub.add_parser("update", help="extract strings from the code into the .ts files, then compile")
    u.add_argument("--drop-vanished", action="store_true", help="forget translations of strings no longer used")
    u.add_argument("--no-compile", action="store_true", help="do not rebuild the .qm files")
    u.add_argument("--show", type=int, default=20, metavar="N", help="list at most N unfinished strings")
    sub.add_parser("compile", help="compile the .ts files into .qm with lrelease")
    sub.add_parser("check", help="list missing, unfinished and broken translations (exit 1 if any)")
    e = sub.add_parser("export", help="unfinished entries as JSON to translate")
    e.add_argument("-o", "--output", metavar="FILE")
    e.add_argument("--lang", default="zh_CN")
    f = sub.add_parser("fill", help="write translations from a JSON {source: translation} file")
    f.add_argument("file", metavar="FILE.json")
    f.add_argument("--lang", default="zh_CN")
    args = p.parse_args(argv)
    return {"update": cmd_update, "compile": cmd_compile, "check": cmd_check, "export": cmd_export,
            "fill": cmd_fill}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
