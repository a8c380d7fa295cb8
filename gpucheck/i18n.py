"""Languages: one message catalog for the core, the CLI, the reports and the UI.

Every user-facing English string is written in the code as `tr("Text with {name}", name=...)`.
The translations live in ONE file, `resources/translations/gpucheck_zh_CN.ts` (Qt Linguist format,
context "gpucheck"). The core reads that file with the standard library (no Qt); the UI additionally
loads the compiled `.qm` through `QTranslator`, so Qt Linguist can edit the same catalog.
`python -m gpucheck.i18n_tools update` re-extracts strings into the .ts; a test fails on any string
missing from the catalog or still marked unfinished.

The language follows the system locale; `--lang` and the UI's menu override it.
"""

from __future__ import annotations

import locale
import os
import threading
import xml.etree.ElementTree as ET
from functools import lru_cache

LANGUAGES = ("en", "zh_CN")
CONTEXT = "gpucheck"

_state = threading.local()
_default_lang = "en"


def normalize_lang(value: str | None) -> str | None:
    """Map 'zh', 'zh-CN', 'zh_CN.UTF-8', 'zh_Hans' → 'zh_CN'; 'en_US' → 'en'; anything else → None."""
    if not value:
        return None
    v = value.strip().replace("-", "_").split(".")[0].lower()
    if v.startswith("zh"):
        return "zh_CN"
    if v.startswith("en") or v in ("c", "posix"):
        return "en"
    return None


def detect_language() -> str:
    """The system's language: LANGUAGE / LC_ALL / LC_MESSAGES / LANG, then the OS locale."""
    for var in ("GPUCHECK_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        raw = os.environ.get(var)
        if raw:
            for part in raw.split(":"):
                lang = normalize_lang(part)
                if lang:
                    return lang
    try:
        loc = locale.getlocale()[0]
    except (ValueError, TypeError):
        loc = None
    return normalize_lang(loc) or "en"


def set_language(lang: str | None) -> str:
    """Set the process-wide language (None = detect). Returns the language in force."""
    global _default_lang
    chosen = normalize_lang(lang) if lang else detect_language()
    _default_lang = chosen or "en"
    _state.lang = _default_lang
    return _default_lang


def get_language() -> str:
    return getattr(_state, "lang", _default_lang)


class use_language:
    """Context manager: render in `lang` on this thread, e.g. a report in Chinese from an English UI."""

    def __init__(self, lang: str):
        self.lang = normalize_lang(lang) or "en"

    def __enter__(self):
        self._old = getattr(_state, "lang", None)
        _state.lang = self.lang
        return self

    def __exit__(self, *exc):
        if self._old is None:
            del _state.lang
        else:
            _state.lang = self._old


def translations_path(lang: str):
    from gpucheck.catalog import resource_path

    return resource_path("translations", f"gpucheck_{lang}.ts")


@lru_cache(maxsize=4)
def _catalog(lang: str) -> dict[str, str]:
    if lang == "en":
        return {}
    path = translations_path(lang)
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return {}
    out: dict[str, str] = {}
    for ctx in root.iter("context"):
        for msg in ctx.iter("message"):
            src = msg.findtext("source")
            tr_el = msg.find("translation")
            if src is None or tr_el is None:
                continue
            if tr_el.get("type") in ("unfinished", "obsolete", "vanished"):
                continue
            text = tr_el.text or ""
            if text:
                out[src] = text
    return out


def translate(source: str, lang: str | None = None) -> str:
    lang = lang or get_language()
    return _catalog(lang).get(source, source)


def tr(source: str, /, **params: object) -> str:
    """Translate `source` into the current language and fill in {params}."""
    text = translate(source)
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return source.format(**params)
    return text


def N_(source: str) -> str:
    """Mark a string for extraction without translating it now (translate later with tr(s))."""
    return source


def both(source: str, /, **params: object) -> dict[str, str]:
    """The string in every language: {'en': …, 'zh_CN': …} — for JSON output that carries both."""
    out = {}
    for lang in LANGUAGES:
        with use_language(lang):
            out[lang] = tr(source, **params)
    return out


# -- numbers and units, formatted for the language ---------------------------------------------

GIB = 1024**3


def fmt_gib(n_bytes: float | None, digits: int = 1) -> str:
    if n_bytes is None:
        return tr("unknown")
    return f"{n_bytes / GIB:,.{digits}f} GB"


def fmt_bytes(n_bytes: float | None) -> str:
    if n_bytes is None:
        return tr("unknown")
    n = float(n_bytes)
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if abs(n) < 1024 or unit == "PB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1024
    return f"{n:,.1f} PB"


def fmt_duration(hours: float | None) -> str:
    """Human duration: '45 s', '12 min', '3.5 h', '2.1 days', '1.4 years' (translated units)."""
    if hours is None:
        return tr("unknown")
    s = hours * 3600
    if s < 60:
        return tr("{n} s", n=f"{max(s, 1):.0f}")
    if s < 3600:
        return tr("{n} min", n=f"{s / 60:.0f}")
    if hours < 48:
        return tr("{n} h", n=f"{hours:.1f}")
    days = hours / 24
    if days < 365:
        return tr("{n} days", n=f"{days:,.1f}")
    return tr("{n} years", n=f"{days / 365:,.1f}")


def fmt_money(usd: float | None, cny: float | None = None) -> str:
    """'$1,599' or, in Chinese, '¥11,499 ($1,599)'."""
    if usd is None and cny is None:
        return tr("unknown")
    if get_language() == "zh_CN" and cny is not None:
        return f"¥{cny:,.0f}" + (f" (${usd:,.0f})" if usd is not None else "")
    if usd is None:
        return f"¥{cny:,.0f}"
    return f"${usd:,.2f}" if usd < 10 else f"${usd:,.0f}"


def fmt_number(x: float | None, digits: int = 1) -> str:
    if x is None:
        return tr("unknown")
    if abs(x) >= 1e4:
        if get_language() == "zh_CN":
            if abs(x) >= 1e8:
                return f"{x / 1e8:,.{digits}f} 亿"
            return f"{x / 1e4:,.{digits}f} 万"
        if abs(x) >= 1e9:
            return f"{x / 1e9:,.{digits}f} B"
        if abs(x) >= 1e6:
            return f"{x / 1e6:,.{digits}f} M"
        return f"{x:,.0f}"
    return f"{x:,.{digits}f}"
