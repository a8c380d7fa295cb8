"""The report as one HTML document, rendered from the ReportModel.

The same HTML is saved as OUT.html and laid out by Qt's QTextDocument for OUT.pdf, so it keeps to
the HTML/CSS subset QTextDocument supports: tables with cellpadding/bgcolor, simple selectors in one
<style> block, no JavaScript, no external files. The memory chart is drawn with table cells whose
widths are percentages — vector shapes in the PDF and in any browser, with selectable labels.
"""

from __future__ import annotations

import re
import unicodedata
from html import escape

from gpucheck.i18n import fmt_duration, fmt_gib
from gpucheck.report.figures import status_text, status_verdict
from gpucheck.report.model import JobSection, MemoryChart, ReportModel, Table
from gpucheck.report.option_points import OPTIONS_COLUMNS, OptionPoint, hours_axis, time_fraction
from gpucheck.verdict import verdict_colour

# Where the PDF draws a job's options chart with QPainter (gpucheck.report.pdf); the HTML file has an SVG.
OPTIONS_PLACEHOLDER = "[[gpucheck-options-{i}]]"

BROWSER_FONTS = ('"Segoe UI", "Noto Sans", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", '
                 '"WenQuanYi Micro Hei", "Source Han Sans SC", sans-serif')

_CSS = """
body { font-family: %(fonts)s; font-size: 10pt; color: #1f1f1f; }
h1 { font-size: 20pt; margin-top: 0px; margin-bottom: 2px; color: #0b3d91; }
h2 { font-size: 14pt; margin-top: 22px; margin-bottom: 8px; color: #0b3d91; }
h3 { font-size: 12pt; margin-top: 18px; margin-bottom: 6px; color: #1f1f1f; }
h4 { font-size: 10.5pt; margin-top: 12px; margin-bottom: 4px; color: #333333; }
p { margin-top: 2px; margin-bottom: 6px; }
ul { margin-top: 0px; margin-bottom: 4px; }
th { background-color: #e8eef7; text-align: left; font-weight: bold; }
td.k { font-weight: bold; }
.sub { font-size: 12pt; color: #444444; }
.small { font-size: 8.5pt; color: #555555; }
.verdict { font-weight: bold; }
"""

_BROWSER_EXTRA_CSS = """
body { max-width: 52em; margin: 2em auto; padding: 0 1em; }
table.grid { border-collapse: collapse; }
table.grid td, table.grid th { border: 1px solid #b8c2d0; padding: 3pt 5pt; vertical-align: top; }
@media print { body { margin: 0; } tr { page-break-inside: avoid; } }
"""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


# A no-wrap cell is broken into lines here, only between parts: after a space (not the one between a number and
# its unit: '2.7 小时', '8.0 GB'), after '，' '；' '、', before a bracket. A CJK word ('国内最便宜'), a date, a rate
# ('¥1.58/卡·时') and a Latin word ('unverified') stay whole. Lines are filled up to the column's width in ems
# of the body font (the A4 text width, 174 mm at 9.5 pt, is about 52 em: CELL_EMS_PER_PERCENT per percent).
_TOKENS = re.compile(r"[（(][^）)]*[）)]?|[^\s，；、（(/]+/?|\s+|[，；、]")
CELL_EMS_PER_PERCENT = 0.52
CELL_PADDING_EMS = 0.6


def _ems(text: str) -> float:
    """Rough width in ems: a CJK character or full-width mark one em, a Latin letter or digit about half."""
    return sum(1.0 if unicodedata.east_asian_width(ch) in ("W", "F") else 0.55 for ch in text)


def _parts(text: str) -> list[str]:
    """The text as the pieces a line may break between (see above); joined they give the text back."""
    tokens = _TOKENS.findall(text)
    parts: list[str] = []
    for i, tok in enumerate(tokens):
        if not parts or tok.isspace():  # a space stays with the part before it
            if parts:
                parts[-1] += tok
            else:
                parts.append(tok)
            continue
        prev = tokens[i - 1]
        if tok[:1] in "（(→" or prev in "，；、" or (prev.endswith("/") and tok[:1].isascii() and tok[:1].isalpha()):
            glue = False  # a bracket, an arrow, after a Chinese comma, and '$0.18/' + 'GPU-hour' (not '/卡·时')
        elif prev.isspace():  # '2.7 小时', '8.0 GB', '可用 8.0 GB', 'RTX 3090' stay together
            glue = (tokens[i - 2][-1:].isdigit() if i >= 2 else False) or tok[:1].isdigit()
        else:
            glue = True
        if glue:
            parts[-1] += tok
        else:
            parts.append(tok)
    return parts


def _keep_whole(text: str, width_ems: float) -> str:
    """A short value for a cell that never breaks inside a word ('国内最便/宜', '2.7 小/时', 'unverifi/ed' are
    what Qt's line breaking does in a narrow column): its own line breaks, between whole parts, filling lines
    up to `width_ems`; the cell is set not to wrap, so a part wider than the column widens the column."""
    lines: list[str] = []
    cur = ""
    for part in _parts(text):
        if cur.strip() and _ems((cur + part).rstrip()) > width_ems:
            lines.append(cur.rstrip())
            cur = part.lstrip()
        else:
            cur += part
    if cur.strip():
        lines.append(cur.rstrip())
    return "<br/>".join(_e(ln) for ln in lines)


def _table(t: Table, widths: tuple[int, ...] = (), key_first: bool = False, nowrap: tuple[int, ...] = (),
           below: int | None = None) -> str:
    """A grid. `nowrap`: columns of short values kept whole (`_keep_whole`); `below`: a column of notes printed
    under its row across the whole width (an eight-column table leaves a note column too narrow to read)."""
    out = ['<table class="grid" width="100%" border="1" cellspacing="0" cellpadding="4" '
           'style="border-color:#b8c2d0; border-style:solid; border-collapse:collapse;">']
    out.append("<thead><tr>")
    for i, h in enumerate(t.headers):
        if i == below:
            continue
        w = f' width="{widths[i]}%"' if i < len(widths) and widths[i] else ""
        if i in nowrap and " " not in str(h):  # one word ('整个训练', 'Time'): whole; a phrase wraps at its spaces
            w += ' style="white-space:nowrap;"'
        out.append(f"<th{w}>{_e(h)}</th>")
    out.append("</tr></thead><tbody>")
    for r, row in enumerate(t.rows):
        out.append("<tr>")
        for i, cell in enumerate(row):
            if i == below:
                continue
            attrs = ' class="k"' if key_first and i == 0 else ""
            text = _e(cell)
            if i in nowrap:  # the table widens the column to the value instead (white-space on the cell: Qt)
                attrs += ' style="white-space:nowrap;"'
                pct = widths[i] if i < len(widths) and widths[i] else 100 // max(1, len(t.headers))
                text = _keep_whole(str(cell), pct * CELL_EMS_PER_PERCENT - CELL_PADDING_EMS)
            if i == t.verdict_column and r < len(t.row_verdicts):
                color = verdict_colour(t.row_verdicts[r])
                text = f'<span class="verdict" style="color:{color}; font-weight:bold;">{text}</span>'
            out.append(f'<td valign="top"{attrs}>{text}</td>')
        out.append("</tr>")
        note = str(row[below]).strip() if below is not None and below < len(row) else ""
        if note and note != "—":
            out.append(f'<tr><td colspan="{len(t.headers) - 1}" valign="top"><span class="small">{_e(note)}'
                       '</span></td></tr>')
    out.append("</tbody></table>")
    return "".join(out)


def _bar(segments: list[tuple[float, str, str]]) -> str:
    """One horizontal bar: (percent of the full width, colour, tooltip) per segment."""
    cells = []
    for pct, color, title in segments:
        if pct <= 0:
            continue
        cells.append(f'<td width="{pct:.2f}%" bgcolor="{color}" style="background-color:{color};" '
                     f'title="{_e(title)}">&nbsp;</td>')
    if not cells:
        cells.append('<td width="100%">&nbsp;</td>')
    return ('<table width="100%" border="0" cellspacing="0" cellpadding="0" '
            'style="border-collapse:collapse;"><tr>' + "".join(cells) + "</tr></table>")


def chart_html(chart: MemoryChart) -> str:
    scale = float(chart.scale_bytes)
    need_segments = [(100.0 * p.bytes / scale, p.color, f"{p.label}: {p.text}") for p in chart.parts]
    rest = 100.0 - sum(s[0] for s in need_segments)
    if rest > 0.05:
        need_segments.append((rest, "#ffffff", ""))
    if chart.have_bytes is not None:
        have_pct = 100.0 * chart.have_bytes / scale
        have_segments = [(have_pct, "#59a14f", chart.have_label)]
        if chart.need_bytes > chart.have_bytes:
            have_segments.append((100.0 - have_pct, "#f4c7c3", ""))
        elif have_pct < 99.95:
            have_segments.append((100.0 - have_pct, "#ffffff", ""))
    else:
        have_segments = []
    rows = [
        '<table width="100%" border="0" cellspacing="0" cellpadding="2">',
        f'<tr><td width="18%" valign="middle"><b>{_e(chart.need_label)}</b><br/>'
        f'<span class="small">{_e(fmt_gib(chart.need_bytes))}</span></td>'
        f'<td width="82%" valign="middle">{_bar(need_segments)}</td></tr>',
    ]
    if have_segments:
        rows.append(f'<tr><td width="18%" valign="middle"><b>{_e(chart.have_label)}</b><br/>'
                    f'<span class="small">{_e(fmt_gib(chart.have_bytes))}</span></td>'
                    f'<td width="82%" valign="middle">{_bar(have_segments)}</td></tr>')
    rows.append("</table>")
    legend = ['<p class="small">']
    for p in chart.parts:
        legend.append(f'<span style="color:{p.color}; font-size:11pt;">&#9632;</span>&nbsp;'
                      f'{_e(p.label)} {_e(p.text)}&nbsp;&nbsp;&nbsp; ')
    legend.append("</p>")
    # one table cell around the whole chart, so a printed page never splits it
    return ('<table width="100%" border="0" cellspacing="0" cellpadding="0"><tr><td>'
            f"<h4>{_e(chart.title)}</h4>" + "".join(rows) + "".join(legend)
            + f'<p class="small">{_e(chart.caption)}</p></td></tr></table>')


def options_svg(points: tuple[OptionPoint, ...], headings: tuple[str, str, str, str]) -> str:
    """The options chart as inline SVG (vector in every browser): the same rows, columns, log time bars
    and colours as the PDF's and the app's (gpucheck.report.pdf.paint_options)."""
    width, row_h, size = 1000, 30, 13
    xs = [0.0]
    for f in OPTIONS_COLUMNS:
        xs.append(xs[-1] + width * f)
    axis = hours_axis(points)
    h = row_h * (len(points) + 2) + 4
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {h}" width="100%" role="img" '
           f'font-size="{size}" font-family="sans-serif">']
    for i, text in enumerate(headings):
        out.append(f'<text x="{xs[i] + 4:.0f}" y="{row_h * 0.65:.0f}" font-weight="bold">{_e(text)}</text>')
    for r, p in enumerate(points):
        top = row_h * (r + 1)
        colour = verdict_colour(status_verdict(p.status))
        out.append(f'<line x1="0" y1="{top}" x2="{width}" y2="{top}" stroke="#b8c2d0" stroke-width="1"/>')
        room = xs[1] - xs[0] - 8  # a label wider than its column is squeezed to fit, never cut or overlapping
        fit = (f' textLength="{room:.0f}" lengthAdjust="spacingAndGlyphs"' if _ems(p.label) * size > room else "")
        out.append(f'<text x="{xs[0] + 4:.0f}" y="{top + row_h * 0.65:.0f}"{fit}>{_e(p.label)}</text>')
        if p.hours is not None:
            w = (xs[2] - xs[1] - 8) * time_fraction(p.hours, axis)
            out.append(f'<rect x="{xs[1] + 4:.0f}" y="{top + row_h * 0.25:.0f}" width="{w:.1f}" '
                       f'height="{row_h * 0.5:.0f}" rx="3" fill="{colour}"><title>{_e(p.label)}</title></rect>')
            time, fill = fmt_duration(p.hours), "#1f1f1f"
        else:
            time, fill = status_text(p.status), colour
        out.append(f'<text x="{xs[2] + 4:.0f}" y="{top + row_h * 0.65:.0f}" fill="{fill}">{_e(time)}</text>')
        out.append(f'<text x="{xs[3] + 4:.0f}" y="{top + row_h * 0.65:.0f}">{_e(p.cost_text)}</text>')
    x, top = 4.0, row_h * (len(points) + 1)
    for status in ("fits", "tight", "does_not_fit"):  # the legend: what the colours mean
        out.append(f'<rect x="{x:.0f}" y="{top + row_h * 0.3:.0f}" width="10" height="10" '
                   f'fill="{verdict_colour(status_verdict(status))}"/>')
        text = status_text(status)
        out.append(f'<text x="{x + 14:.0f}" y="{top + row_h * 0.65:.0f}">{_e(text)}</text>')
        x += 14 + len(text) * size * 0.62 + 24
    out.append("</svg>")
    return "".join(out)


def _options(job: JobSection, index: int, for_qt: bool) -> str:
    if not job.options:
        return ""
    chart = _e(OPTIONS_PLACEHOLDER.format(i=index)) if for_qt else options_svg(job.options, job.options_headings)
    # one table cell around it, so a printed page never splits the chart
    return ('<table width="100%" border="0" cellspacing="0" cellpadding="0"><tr><td>'
            f"<h4>{_e(job.options_title)}</h4>{chart}</td></tr></table>")


# Code blocks never wrap: a wrapped command pastes as two commands. The widest line sets the font size so it
# fits the A4 text width (174 mm, less a list's indent: 150 mm) in a monospace font (DejaVu Sans Mono: 0.6 em a
# glyph; CJK counted as two): CODE_COLUMNS columns at CODE_POINT_SIZE, a smaller size for wider lines.
CODE_POINT_SIZE = 8.0
CODE_MIN_POINT_SIZE = 5.5
CODE_COLUMNS = 88


def _columns(line: str) -> int:
    """Display width in half-width columns (a CJK character or full-width mark takes two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in line)


def _wrap_comment(line: str, limit: int) -> list[str]:
    """A '# …' comment line longer than `limit` as several comment lines (each still a comment when pasted),
    broken at a space, or between CJK characters, never inside a Latin word, number or flag."""
    if _columns(line) <= limit or not line.lstrip().startswith("#"):
        return [line]
    lead = line[: len(line) - len(line.lstrip())] + "# "
    words = re.findall(r"[\u3000-\u9fff\uff00-\uffef]|[^\s\u3000-\u9fff\uff00-\uffef]+|\s+",
                       line.lstrip()[1:].lstrip())
    out, cur = [], lead
    for w in words:
        if _columns(cur + w) > limit and cur.strip() != "#":
            out.append(cur.rstrip())
            cur = lead + w.lstrip()
        else:
            cur += w
    out.append(cur.rstrip())
    return out


def fit_code(code: str) -> tuple[str, float]:
    """The code as printed (long comments folded into several comment lines) and its font size in points:
    the commands themselves are never broken, the font shrinks (to CODE_MIN_POINT_SIZE) to fit the widest."""
    commands = [ln for ln in code.splitlines() if not ln.lstrip().startswith("#")]
    widest = max((_columns(ln) for ln in commands), default=0)
    size = CODE_POINT_SIZE if widest <= CODE_COLUMNS else max(CODE_MIN_POINT_SIZE,
                                                              CODE_POINT_SIZE * CODE_COLUMNS / widest)
    limit = int(CODE_COLUMNS * CODE_POINT_SIZE / size)
    lines = [part for ln in code.splitlines() for part in _wrap_comment(ln, limit)]
    return "\n".join(lines), round(size, 2)


def _pre(code: str) -> str:
    """Code to copy: monospace, one printed line per line of code (never wrapped inside a command)."""
    text, size = fit_code(code)
    return ('<table width="100%" border="0" cellspacing="0" cellpadding="6"><tr>'
            '<td bgcolor="#f4f6f8" style="background-color:#f4f6f8;">'
            '<p style="white-space: pre; font-family: \'WenQuanYi Micro Hei Mono\', Consolas, '
            f'\'DejaVu Sans Mono\', monospace; font-size: {size}pt; margin: 0px; overflow-x: auto;">{_e(text)}</p>'
            '</td></tr></table>')


def _software_list(items: tuple[str, ...], empty: str) -> str:
    """Software fixes: each problem in words, its command (after the first line break) as code to copy."""
    if not items:
        return f"<p>{_e(empty)}</p>"
    out = ["<ul>"]
    for item in items:
        text, _nl, command = item.partition("\n")
        out.append(f"<li>{_e(text)}" + (_pre(command) if command else "") + "</li>")
    return "".join(out) + "</ul>"


def _list(items: tuple[str, ...], empty: str) -> str:
    if not items:
        return f"<p>{_e(empty)}</p>"
    return "<ul>" + "".join(f"<li>{_e(i)}</li>" for i in items) + "</ul>"


def _job_html(model: ReportModel, job: JobSection, index: int, for_qt: bool) -> list[str]:
    """One job's section: verdict, figures, charts, changes, what fits instead, upgrades, cloud, notes."""
    st = model.section_titles
    out: list[str] = []
    color = verdict_colour(job.verdict)
    out.append(f'<h3>{_e(job.title)} — <span style="color:{color};">{_e(job.verdict_text)}</span></h3>')
    if job.headline:
        out.append(f"<p><b>{_e(job.headline)}</b></p>")
    out.append(_table(job.figures, widths=(34, 66), key_first=True))
    if job.chart is not None:
        out.append(chart_html(job.chart))
    out.append(_options(job, index, for_qt))
    out.append(f"<h4>{_e(job.tweaks_title or st['tweaks'])}</h4>")
    if job.changes:
        out.append(f"<p>{_e(job.changes)}</p>")
    if job.tweaks is not None:
        out.append(_table(job.tweaks, widths=(38, 38, 12, 12), nowrap=(2, 3)))
    elif job.verdict in ("runs", "tight"):
        out.append(f"<p>{_e(model.labels['no_changes'])}</p>")
    else:  # never "nothing to change" under a job that does not fit
        out.append(f"<p>{_e(model.labels['no_change_enough'])}</p>")
    if job.snippet:
        out += [f"<h4>{_e(st['snippet'])}</h4>", _pre(job.snippet)]
    if job.speed_tweaks is not None:
        out += [f"<h4>{_e(st['speed'])}</h4>", f"<p>{_e(job.speed_intro)}</p>",
                _table(job.speed_tweaks, widths=(30, 50, 10, 10), nowrap=(2, 3))]
        if job.speed_settings:
            out += [f"<h4>{_e(st['speed_settings'])}</h4>", _pre(job.speed_settings)]
    if job.alternative is not None:
        alt = job.alternative
        out.append(f"<h4>{_e(st['alternative'])}</h4>")
        if alt.headline:
            out += [f"<p><b>{_e(alt.headline)}</b></p>", _table(alt.tweaks, widths=(50, 50))]
        if alt.snippet:
            out += [f"<h4>{_e(st['alternative_snippet'])}</h4>", _pre(alt.snippet)]
        if alt.others:
            out.append(_list(alt.others, ""))
    if job.software:
        out += [f"<h4>{_e(st['software'])}</h4>", _software_list(job.software, model.labels["none"])]
    out += [f"<h4>{_e(st['bottlenecks'])}</h4>", _list(job.bottlenecks, model.labels["none"])]
    if job.upgrades is not None:
        out += [f"<h4>{_e(st['upgrades'])}</h4>", _table(job.upgrades, widths=(22, 42, 12, 12, 12), nowrap=(2, 3, 4))]
    if job.cloud is not None:
        out += [f"<h4>{_e(st['cloud'])}</h4>", _table(job.cloud, widths=(12, 16, 19, 14, 10, 16, 13),
                                                                    nowrap=(0, 1, 3, 4, 5, 6), below=7)]
    if job.buy_vs_rent:
        out += [f"<h4>{_e(st['buy_vs_rent'])}</h4>", _list(job.buy_vs_rent, model.labels["none"])]
    if job.notes:
        out += [f"<h4>{_e(st['notes'])}</h4>", _list(job.notes, model.labels["none"])]
    return out


def render_html(model: ReportModel, *, for_qt: bool = False, font_family: str | None = None) -> str:
    """The whole report. `for_qt` leaves out browser-only CSS; `font_family` overrides the font list."""
    st = model.section_titles
    fonts = f'"{font_family}"' if font_family else BROWSER_FONTS
    css = _CSS % {"fonts": fonts} + ("" if for_qt else _BROWSER_EXTRA_CSS)
    html_lang = "zh-CN" if model.lang == "zh_CN" else "en"
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{html_lang}"><head><meta charset="utf-8"/>',
        '<meta name="viewport" content="width=device-width, initial-scale=1"/>',
        f"<title>{_e(model.title)} — {_e(model.subtitle)}</title>",
        f'<meta name="generator" content="gpucheck {_e(model.app_version)}"/>',
        f"<style>{css}</style></head><body>",
        f"<h1>{_e(model.title)}</h1>",
        f'<p class="sub">{_e(model.subtitle)}</p>',
        f'<p class="small">{_e(model.generated_text)}</p>',
        f"<p>{_e(model.intro)}</p>",
        f"<h2>{_e(st['machine'])}</h2>",
        _table(model.machine_table, widths=(26, 74), key_first=True),
    ]
    if model.gpu_table is not None and (len(model.gpu_table.rows) > 1 or model.include_ids):
        out += [f"<h3>{_e(st['gpus'])}</h3>", _table(model.gpu_table)]
    out.append(f"<h2>{_e(st['findings'])}</h2>")
    if model.findings:
        rows = tuple((f.severity_text, f.area_text, f.message) for f in model.findings)
        headers = (model.labels["kind"], model.labels["area"], model.labels["finding"])
        out.append(_table(Table(headers=headers, rows=rows), widths=(12, 16, 72)))
    else:
        out.append(f"<p>{_e(model.labels['no_findings'])}</p>")
    if model.ladder is not None:
        out += [f"<h2>{_e(st['ladder'])}</h2>", f'<p class="small">{_e(model.ladder_note)}</p>',
                _table(model.ladder, widths=(8, 40, 18, 22, 12), nowrap=(0, 2, 3, 4))]
    if model.software:
        out += [f"<h2>{_e(st['software'])}</h2>", _software_list(model.software, model.labels["none"])]
    if model.jobs:
        out.append(f"<h2>{_e(st['jobs'])}</h2>")
    for index, job in enumerate(model.jobs):
        out += _job_html(model, job, index, for_qt)
    out += [f"<h2>{_e(st['assumptions'])}</h2>", _list(model.assumptions, model.labels["none"])]
    out += [f"<h2>{_e(st['sources'])}</h2>", _list(model.sources, model.labels["none"])]
    out.append(f"<h2>{_e(st['glossary'])}</h2>")
    out.append('<table width="100%" border="0" cellspacing="0" cellpadding="3">')
    for term, definition in model.glossary:
        out.append(f'<tr><td width="26%" valign="top"><b>{_e(term)}</b></td>'
                   f'<td width="74%" valign="top">{_e(definition)}</td></tr>')
    out.append("</table>")
    out.append(f'<p class="small">{_e(model.disclaimer)}</p>')
    out.append("</body></html>")
    html = "\n".join(out)
    return _joined_units(html) if for_qt else html


# Chinese units of time Qt would break between their two characters at a paragraph's line end ('13.2 小/时'): a word
# joiner (U+2060, no break here: Unicode line breaking, UAX #14 class WJ) keeps each whole in the PDF. Cells keep their
# values whole by themselves (_keep_whole); browsers do not break inside these words.
_CJK_UNITS = ("小时", "分钟")


def _joined_units(html: str) -> str:
    for word in _CJK_UNITS:
        html = html.replace(word, word[0] + "\u2060" + word[1:])
    return html

