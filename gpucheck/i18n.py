"""Languages: one message catalog for the core, the CLI, the reports and the UI.

Every user-facing English string is written in the code as `tr("Text with {name}", name=...)`.
The translations live in ONE file, `resources/translations/gpucheck_zh_CN.ts` (Qt Linguist format,
context "gpucheck"). The core reads that file with the standard library (no Qt); the UI additionally
loads the compiled `.qm` through `QTranslator`, so Qt Linguist can edit the same catalog.
`python tools/i18n_tools.py update` re-extracts strings into the .ts; a test fails on any string
missing from the catalog or still marked unfinished.

Text a saved scan keeps (findings, reasons, notes) is made with `tr_text()` (or `finding()`): it is shown
now, and also kept as its English template and values (`Text`), so `show_text()` renders it later in the
reader's language, whatever language the scan ran in.

The language follows the system locale; `--lang` and the UI's menu override it.
"""

from __future__ import annotations

import os
import re
import string
import sys
import threading
from dataclasses import dataclass
from functools import lru_cache

from gpucheck.lazy import lazy_import
from gpucheck.region import in_mainland
from gpucheck.resources import resource_path

# Loaded on first use (gpucheck/lazy.py): the desktop app's start-up reads no catalog and asks no OS tool.
ET = lazy_import("xml.etree.ElementTree")  # only when a translation is needed
locale = lazy_import("locale")  # only when no environment variable names the language
ctypes = lazy_import("ctypes")  # Windows: the user's UI language
dt = lazy_import("datetime")  # only when a time is formatted (the app's start does not need it)
subprocess = lazy_import("subprocess")  # macOS: `defaults read -g AppleLanguages`

LANGUAGES = ("en", "zh_CN")
CONTEXT = "gpucheck"

_state = threading.local()
_default_lang = "en"


def normalize_lang(value: str | None) -> str | None:
    """Map 'zh', 'zh-CN', 'zh_CN.UTF-8', 'zh_Hans' → 'zh_CN'; 'en_US' → 'en'; anything else → None."""
    if not value:
        return None
    v = value.strip().replace("-", "_").split(".")[0].lower()
    if v.startswith("zh") or v.startswith("chinese"):  # 'Chinese (Simplified)_China' on Windows
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
    return _os_language() or "en"


def _os_language() -> str | None:
    """The user's UI language from the operating system (GUI apps often start without LANG)."""
    if sys.platform == "win32":
        try:
            lcid = ctypes.windll.kernel32.GetUserDefaultUILanguage()  # type: ignore[attr-defined]
            lang = normalize_lang(locale.windows_locale.get(lcid))
            if lang:
                return lang
        except (AttributeError, OSError, ValueError):
            pass
    elif sys.platform == "darwin":
        try:  # the first of the user's preferred languages, e.g. "zh-Hans-CN"
            out = subprocess.run(["/usr/bin/defaults", "read", "-g", "AppleLanguages"], capture_output=True,
                                 text=True, timeout=2).stdout
            first = next((w.strip(' ",()') for w in out.split() if w.strip(' ",()')), "")
            lang = normalize_lang(first)
            if lang:
                return lang
        except (OSError, subprocess.SubprocessError):
            pass
    try:
        loc = locale.getlocale()[0]
    except (ValueError, TypeError):
        loc = None
    return normalize_lang(loc)


def set_language(lang: str | None) -> str:
    """Set the process-wide language (None = detect). Returns the language in force."""
    global _default_lang
    chosen = normalize_lang(lang) or detect_language()  # an unknown name (a mistyped --lang): the system's
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
    """The catalog (.ts) for `lang`: the one source of truth, read by the core."""
    return resource_path("translations", f"gpucheck_{lang}.ts")


def qm_path(lang: str):
    """The compiled catalog (.qm) for the UI's QTranslator (built by `python tools/i18n_tools.py compile`)."""
    return resource_path("translations", f"gpucheck_{lang}.qm")


def reload_catalog() -> None:
    """Forget the loaded catalogs (after the .ts was edited while running)."""
    _catalog.cache_clear()
    _sources.cache_clear()


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
    """`source` in `lang` (default: the language in force); the English itself if not translated."""
    lang = lang or get_language()
    if lang == "en":
        return source
    text = _catalog(lang).get(source)
    if text is None:
        _record_missing(source)
        return source
    return text


def _record_missing(source: str) -> None:
    """With GPUCHECK_I18N_MISSING=FILE set, note each string shown untranslated (a translator's aid:
    it finds text that reaches tr() without being marked, e.g. from a table not wrapped in N_())."""
    path = os.environ.get("GPUCHECK_I18N_MISSING")
    if path and source.strip():
        try:
            with open(path, "a", encoding="utf-8") as f:
                f.write(source.replace("\n", "\\n") + "\n")
        except OSError:
            pass


def tr(source: str, /, **params: object) -> str:
    """Translate `source` into the current language and fill in {params}."""
    text = translate(source)
    if params:
        try:
            filled = text.format(**params)
        except (KeyError, IndexError, ValueError):
            return source.format(**params)
        return tidy_zh(filled) if text is not source else filled
    return text


_CJK = "\u3400-\u9fff\uff08\uff09\uff0c\uff1a\uff1b\u3001\u3002\uff01\uff1f\u201c\u201d\u300a\u300b"


@lru_cache(maxsize=1)
def _cjk_gap() -> re.Pattern[str]:
    # compiled on first use: the wide character range costs ~10 ms, too much for the app's start-up
    return re.compile(f"(?<=[{_CJK}]) +(?=[{_CJK}])")


def tidy_zh(text: str) -> str:
    """A Chinese sentence with values filled in, without the spaces a value brought between two Chinese
    characters or full-width marks ('在 本机的 CPU（没有可用的 GPU） 上' → '在本机的 CPU（没有可用的 GPU）上',
    '6 万 个样本' → '6 万个样本'). Spaces between Chinese and Latin letters or digits stay."""
    return _cjk_gap().sub("", text)


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


# -- texts kept as template + values (scan findings, reasons, notes), shown in the language in force ----


@dataclass(frozen=True)
class Text:
    """A user-facing text kept as its English source and values, so a saved record can show it in any
    language later: `show_text(t)`. `template` is exactly the catalog's English source with {placeholders};
    each value is text (English where it is itself a catalog string) or a Text of its own (a reason quoted
    inside a message)."""

    template: str = ""
    params: tuple[tuple[str, str | Text], ...] = ()


class TextStr(str):
    """What `tr_text()` returns: the text rendered now (a plain str to every reader), that also keeps its
    `Text` for a record to store (`text_of`). Any str operation on it gives a plain str."""

    text: Text

    def __new__(cls, rendered: str, text: Text | None = None):
        obj = super().__new__(cls, rendered)
        obj.text = text if text is not None else Text()
        return obj

    def __getnewargs__(self):  # copy and pickle keep the Text
        return str(self), self.text


def _kept(value: object) -> str | Text:
    kept = text_of(value)
    if kept is not None:
        return kept
    text = str(value)
    # ASCII text is English already (an English catalog string is its own source; names and numbers stay
    # as they are): only a translated value needs the catalog read backwards, which costs a scan in English
    # a parse of the whole catalog.
    return text if text.isascii() else source_text(text)


def keep_text(source: str, /, **params: object) -> Text:
    """The Text for `source` and its values (values in English where they are catalog strings)."""
    return Text(source, tuple((name, _kept(value)) for name, value in params.items()))


def tr_text(source: str, /, **params: object) -> TextStr:
    """Like tr(): `source` translated and filled in now; the result also keeps `source` and its values
    (`text_of(result)`), so a saved scan can show it in the reader's language, not the scanner's."""
    text = keep_text(source, **params)
    return TextStr(tr(source, **{k: (show_text(v) if isinstance(v, Text) else v) for k, v in params.items()}),
                   text)


def text_of(value: object) -> Text | None:
    """The kept Text of a `tr_text()` result (or a Text itself); None for plain text."""
    if isinstance(value, Text):
        return value
    if isinstance(value, TextStr) and value.text.template:
        return value.text
    return None


# -- catalog strings back to English (for the values kept with a text) ------------------------


@lru_cache(maxsize=4)
def _sources(lang: str) -> dict[str, str]:
    """The catalog backwards: translation → English source (the first source, if two share one)."""
    out: dict[str, str] = {}
    for src, text in _catalog(lang).items():
        out.setdefault(text, src)
    return out


def _source_of(text: str) -> str | None:
    """The English catalog source `text` is, or is a translation of; None if it is neither."""
    for lang in LANGUAGES:
        if lang != "en":
            if text in _catalog(lang):
                return text
            if text in _sources(lang):
                return _sources(lang)[text]
    return None


_LIST_SEPARATORS = (", ", "、")  # how a short list of catalog strings is joined (fmt_list / ", ".join)


def _each(text: str, convert, join) -> str | None:
    """`convert` applied to `text`, or to each item (then `join`ed) when it is a list of catalog strings;
    None if neither it nor every item is a catalog string."""
    whole = convert(text)
    if whole is not None:
        return whole
    for sep in _LIST_SEPARATORS:
        items = text.split(sep)
        if len(items) > 1:
            done = [convert(i) for i in items]
            if all(d is not None for d in done):
                return join(done)
    return None


def source_text(text: str) -> str:
    """The English source of `text` when it is a catalog string in any language (or a list of them, as
    fmt_list or ", ".join writes it); else `text` itself. Keeps the values stored with a scan's findings
    independent of the language the scan ran in."""
    found = _each(text, _source_of, ", ".join)
    return text if found is None else found


def _as_lang(text: str, lang: str) -> str:
    """A stored value in `lang`: a catalog string (in English or in any language), or a list of them,
    is translated; names, numbers and other text stay as they are."""
    def convert(item: str) -> str | None:
        src = _source_of(item)
        if src is None:
            return None
        return src if lang == "en" else _catalog(lang).get(src, src)

    with use_language(lang):  # fmt_list joins in `lang`
        found = _each(text, convert, fmt_list)
    return text if found is None else found


def _fill(text: str, params: dict[str, str]) -> str:
    """`text` with its {name} fields replaced by `params`; KeyError/ValueError if it does not fit.
    Only plain names are filled (no attribute or index look-ups from a file's text)."""
    out = []
    for literal, name, spec, conv in string.Formatter().parse(text):
        out.append(literal)
        if name is None:
            continue
        if name not in params or conv:
            raise KeyError(name)
        out.append(format(params[name], spec) if spec else params[name])
    return "".join(out)


_MAX_DEPTH = 4  # a text quoted inside a text inside a text…: deeper ones (only a hand-edited file) stop here


def _render(template: str, params, lang: str, depth: int = 0) -> str | None:
    """`template` translated into `lang` and filled with `params` (each value translated too: a catalog
    string, a list of them, or a kept Text of its own); None if the template does not fit its values."""
    if depth > _MAX_DEPTH:
        return None
    values: dict[str, str] = {}
    for k, v in params or ():
        if isinstance(v, Text):
            shown = _render(v.template, v.params, lang, depth + 1) if v.template else ""
            if shown is None:
                return None
            values[str(k)] = shown
        else:
            values[str(k)] = _as_lang(str(v), lang)
    for candidate in (translate(template, lang), template):
        try:
            filled = _fill(candidate, values)
            return tidy_zh(filled) if lang == "zh_CN" else filled  # as tr() does
        except (KeyError, ValueError, IndexError, TypeError):
            continue
    return None


def show_text(text: Text | None, fallback: str = "", lang: str | None = None) -> str:
    """A kept text in `lang` (default: the language in force); `fallback` (the text as rendered when it was
    made, e.g. `Framework.reason`) when there is no template — a record saved by an older version — or the
    template does not fit its values. The fallback itself is translated when it is a catalog string."""
    lang = normalize_lang(lang) or get_language()
    if text is not None and text.template:
        shown = _render(text.template, text.params, lang)
        if shown is not None:
            return shown
        return fallback or text.template
    return _as_lang(fallback, lang) if fallback else fallback


def show_texts(rendered, texts, lang: str | None = None) -> list[str]:
    """Notes kept as two parallel lists (`notes` as rendered, `notes_text` as Text or None) in `lang`.
    When the lists do not line up (a hand-edited file), each rendered note is shown as it was saved."""
    rendered = [str(r) for r in rendered]
    texts = tuple(texts or ())
    if len(texts) != len(rendered):
        texts = (None,) * len(rendered)
    return [show_text(t, r, lang) for r, t in zip(rendered, texts, strict=True)]


def finding_text(finding: object, lang: str | None = None) -> str:
    """A scan finding (gpucheck.machine.Finding) in `lang` (default: the language in force).

    A finding made by this version carries its English template and the values for it: the template
    is translated and filled, each value translated too when it is itself a catalog string (e.g. a
    reason such as "NVML library not found") or a kept text. A finding from an older scan has only its
    text as rendered then: shown as is, or translated when it is a catalog string without values."""
    template = getattr(finding, "template", "") or ""
    params = tuple(getattr(finding, "params", ()) or ())
    return show_text(Text(template, params) if template else None, str(getattr(finding, "message", "") or ""), lang)


# -- numbers and units, formatted for the language ---------------------------------------------

GIB = 1024**3


def fmt_gib(n_bytes: float | None, digits: int = 1) -> str:
    if n_bytes is None:
        return tr("unknown")
    return f"{n_bytes / GIB:,.{digits}f} GiB"


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
    # each unit up to the value that would round to the next unit's first step ("60 min" is "1.0 h")
    if round(s) < 60:
        return tr("{n} s", n=f"{max(s, 1):.0f}")
    if round(s / 60) < 60:
        return tr("{n} min", n=f"{s / 60:.0f}")
    if round(hours, 1) < 48:
        return tr("{n} h", n=f"{hours:.1f}")
    days = hours / 24
    if round(days, 1) < 365:
        return tr("{n} days", n=f"{days:,.1f}")
    return tr("{n} years", n=f"{days / 365:,.1f}")


def _amount(symbol: str, value: float) -> str:
    return f"{symbol}{value:,.2f}" if abs(value) < 10 else f"{symbol}{value:,.0f}"


def fmt_money(usd: float | None, cny: float | None = None, billed: str | None = None) -> str:
    """An amount in the currency it is billed in, then (for a reader who counts in the other) the other as
    "about": '$2.27（约 ¥16）' / '¥20' in Chinese, '$2.27' / '¥20 (about $2.80)' in English.
    `billed`: 'usd' | 'cny'; None = a shop price: yuan in mainland China when known, else dollars."""
    if usd is None and cny is None:
        return tr("unknown")
    if billed is None:
        billed = "cny" if cny is not None and (usd is None or in_mainland()) else "usd"
    if billed == "usd" and usd is None:
        billed = "cny"
    elif billed == "cny" and cny is None:
        billed = "usd"
    main = _amount("$", usd) if billed == "usd" else _amount("¥", cny)
    zh = get_language() == "zh_CN"
    other = cny if billed == "usd" else usd
    if other is None or (billed == "usd") != zh:  # a Chinese reader is told yuan, an English one dollars
        return main
    return tr("{amount} (about {other})", amount=main,
              other=_amount("¥", other) if billed == "usd" else _amount("$", other))


def fmt_rate(usd: float | None, cny: float | None = None, billed: str | None = None) -> str:
    """A price per GPU-hour, in the currency billed only: '$0.18/GPU-hour' / '$0.18/卡·时'."""
    if usd is None and cny is None:
        return tr("unknown")
    if billed not in ("usd", "cny"):
        billed = "usd" if usd is not None else "cny"
    billed = "cny" if usd is None else "usd" if cny is None else billed
    return tr("{amount}/GPU-hour", amount=_amount("$", usd) if billed == "usd" else _amount("¥", cny))


# -- composed output: names for the codes of the training settings (never the raw code in a sentence) -----

_METHOD_LABELS = {"full": N_("full fine-tuning"), "lora": N_("LoRA"), "qlora": N_("QLoRA")}
_PRECISION_LABELS = {"fp32": "FP32", "fp16": "FP16", "bf16": "BF16", "bf16-pure": "pure BF16",
                     "fp16-pure": "pure FP16"}
_OPTIMIZER_LABELS = {"adamw": N_("AdamW"), "adamw-8bit": N_("8-bit AdamW"), "sgd": N_("SGD"), "adafactor": N_("Adafactor")}
_LORA_TARGET_LABELS = {
    "qv": N_("the attention layers' q_proj and v_proj"),
    "attention": N_("the attention layers' q_proj, k_proj, v_proj and o_proj"),
    "mlp": N_("the MLP layers"),
    "all-linear": N_("all linear layers"),
}


def method_label(method: str, from_scratch: bool = False) -> str:
    """'qlora' → 'QLoRA', 'full' → 'full fine-tuning', a full run from scratch → 'training from scratch'
    (no pretrained weights: nothing is "fine-tuned") — translated."""
    if method == "full" and from_scratch:
        return tr("training from scratch")
    return tr(_METHOD_LABELS[method]) if method in _METHOD_LABELS else method


def precision_label(precision: str) -> str:
    return _PRECISION_LABELS.get(precision, precision.upper())


def optimizer_label(optimizer: str) -> str:
    return tr(_OPTIMIZER_LABELS[optimizer]) if optimizer in _OPTIMIZER_LABELS else optimizer


def lora_targets_label(targets: str, arch: str = "transformer") -> str:
    """'qv' → "the attention layers' q_proj and v_proj" / '注意力层的 q_proj、v_proj'. A U-Net (Stable
    Diffusion) is named as its trainers name it: the diffusers LoRA scripts' target_modules to_q, to_k, to_v,
    to_out.0; kohya's networks.lora ('all-linear') adapts every linear layer of the U-Net's transformer blocks
    and calls its rank network_dim."""
    if arch == "unet":
        if targets == "all-linear":
            return tr("every linear layer of the U-Net's transformer blocks (kohya's networks.lora)")
        return tr("the U-Net's attention layers (to_q, to_k, to_v, to_out.0)")
    return tr(_LORA_TARGET_LABELS[targets]) if targets in _LORA_TARGET_LABELS else targets


def fmt_time_of_day(when, with_zone: bool = True) -> str:
    """A moment for a report: '2026-12-01 15:08 UTC' in English; Beijing time in Chinese,
    '2026-12-01 23:08（北京时间）'. `when`: an aware datetime (a naive one is taken as UTC)."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    if get_language() == "zh_CN":
        local = when.astimezone(_beijing())
        text = local.strftime("%Y-%m-%d %H:%M")
        return tr("{time} (Beijing time)", time=text) if with_zone else text
    text = when.astimezone(dt.timezone.utc).strftime("%Y-%m-%d %H:%M")
    return f"{text} UTC" if with_zone else text


def fmt_timestamp(iso: str | None) -> str:
    """An ISO 8601 time as `fmt_time_of_day` writes it ('2026-11-29T17:01:55Z' → '2026-11-29 17:01 UTC' /
    '2026-11-30 01:01（北京时间）'); text that is not ISO 8601 is returned as it is, None as 'unknown'."""
    if not iso:
        return tr("unknown")
    try:
        when = dt.datetime.fromisoformat(iso.strip().replace("Z", "+00:00"))
    except ValueError:
        return iso
    return fmt_time_of_day(when)


def _beijing():
    return dt.timezone(dt.timedelta(hours=8), "CST")  # China has one time zone, UTC+8, no daylight saving


def fmt_number(x: float | None, digits: int = 1) -> str:
    """Large counts the way readers count: '52,000' / '8.0 B' in English, '5.2 万' / '80.3 亿' in Chinese
    (a template then reads '{n} 个样本' → '5.2 万个样本': tr() drops the space between 万 and 个)."""
    if x is None:
        return tr("unknown")
    if abs(x) >= 1e4:
        if get_language() == "zh_CN":
            if abs(x) >= 1e8:
                return f"{x / 1e8:,.{digits}f} 亿"  # a space after the number, none before the noun
            return f"{x / 1e4:,.{digits}f} 万"
        if abs(x) >= 1e9:
            return f"{x / 1e9:,.{digits}f} B"
        if abs(x) >= 1e6:
            return f"{x / 1e6:,.{digits}f} M"
        return f"{x:,.0f}"
    return f"{x:,.{digits}f}"


def fmt_list(items, strong: bool = False) -> str:
    """Join a short list for reading: 'a, b, c' in English, 'a、b、c' in Chinese.
    strong=True for items that are phrases or sentences: 'a; b' / 'a；b'."""
    items = [str(i) for i in items]
    zh = get_language() == "zh_CN"
    if strong:  # an item that ends a sentence loses its full stop before the next ('。；' / '.;' read wrong)
        items = [i.rstrip("。.") if n < len(items) - 1 else i for n, i in enumerate(items)]
        if zh:
            return "；".join(items)
        out = items[0] if items else ""
        for item in items[1:]:  # 'a; b', but 'a. Bought used …' for an item written as its own sentence
            starts = _sentence_start().match(item)
            out += (". " if starts and not out.endswith(("?", "!")) else " " if starts else "; ") + item
        return out
    return ("、" if zh else ", ").join(items)


# an English item that starts a sentence ('Bought used …', 'Needs a free M.2 slot'), not a name or an acronym
# ('NVIDIA 550', 'PCIe 5.0 card', 'RTX 4090'), which may sit after a ';'
@lru_cache(maxsize=1)
def _sentence_start() -> re.Pattern:
    return re.compile(r"[A-Z][a-z]+\b(?![.-]\w)")


def localized(record: object, field: str, lang: str | None = None) -> str:
    """A data record's text in the language in force: `record.<field>_zh` in Chinese when it is set
    (workload titles and descriptions, catalog notes), else `record.<field>`. Works on dicts too."""
    def get(name: str):
        return record.get(name) if isinstance(record, dict) else getattr(record, name, None)

    if (normalize_lang(lang) or get_language()) == "zh_CN":
        zh = get(f"{field}_zh")
        if zh:
            return str(zh)
    value = get(field)
    return "" if value is None else str(value)
