"""The class summary: where the class struggles, in ``summary.md``, ``summary.html`` and ``histogram.png``.

Computed from the outcomes alone (:func:`analyse` is pure), then rendered
twice. The HTML page is static and self-contained apart from the histogram
beside it: inline CSS, no script, readable from disk. Everything that comes
from a submission (ids, details, hints quoting student errors) is escaped.

Item analysis, per check over the scored submissions: the pass rate, the mean
credit, and the discrimination index (the correlation between a student's
credit on the check and their total on the other checks; near zero or below
means the check does not separate strong from weak submissions, worth a look).
"""

from __future__ import annotations

import html
import math
import re
import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from grader.batch.grading import STATUSES, Outcome
from grader.batch.outputs import fmt_points, inert_outcome, write_atomic
from grader.report._common import inert, one_line
from grader.exercises import IDS

TOP_HINTS = 10
TOP_SLOWEST = 5


@dataclass(frozen=True)
class Item:
    id: str
    exercise: str
    name: str
    max_score: float
    graded: int
    passed: int
    mean_credit: float
    """Mean of score / max_score over the scored submissions."""
    discrimination: float | None
    """Correlation of the check's credit with the rest of the total; ``None`` when either does not vary."""

    @property
    def pass_rate(self) -> float:
        return self.passed / self.graded if self.graded else 0.0


@dataclass(frozen=True)
class Analysis:
    students: int
    statuses: dict[str, int]
    totals: list[float]
    max_score: float
    exercises: list[tuple[str, float, float, float]]
    """``(exercise, mean score, max score, share with full marks)``."""
    items: list[Item]
    hints: list[tuple[str, int, list[str]]]
    """``(hint, how many students got it, on which checks)``, most frequent first."""
    slowest: list[Outcome]
    attention: list[Outcome]
    """Every student whose row is not a clean ``graded``."""
    notes: list[str] = field(default_factory=list)

    def stat(self, name: str) -> float | None:
        if not self.totals:
            return None
        fn = {"mean": statistics.fmean, "median": statistics.median, "min": min, "max": max,
              "stdev": lambda xs: statistics.pstdev(xs)}[name]
        return float(fn(self.totals))


def analyse(outcomes: list[Outcome], notes: list[str] | None = None) -> Analysis:
    outcomes = [inert_outcome(o) for o in sorted(outcomes, key=lambda o: o.id)]  # what students wrote, made inert
    notes = [inert(n) for n in notes] if notes is not None else None
    scored = [o for o in outcomes if o.scored and o.report is not None]
    statuses = {s: n for s in STATUSES if (n := sum(o.status == s for o in outcomes))}
    totals = [o.report.score for o in scored]  # type: ignore[union-attr]
    max_score = max((o.report.max_score for o in scored), default=0.0)  # type: ignore[union-attr]
    per_exercise = []
    for exercise in IDS:
        sums = []
        top = 0.0
        for o in scored:
            checks = o.report.by_exercise().get(exercise)  # type: ignore[union-attr]
            if checks:
                top = max(top, sum(c.max_score for c in checks))
                sums.append((sum(c.score for c in checks), sum(c.max_score for c in checks)))
        if sums:
            full = sum(got >= most - 1e-9 for got, most in sums) / len(sums)
            per_exercise.append((exercise, statistics.fmean(g for g, _ in sums), top, full))
    return Analysis(
        students=len(outcomes), statuses=statuses, totals=totals, max_score=max_score, exercises=per_exercise,
        items=_items(scored), hints=_hints(scored),
        slowest=sorted(scored, key=lambda o: (-o.seconds, o.id))[:TOP_SLOWEST],
        attention=[o for o in outcomes if o.status != "graded"], notes=list(notes or []),
    )


def _items(scored: list[Outcome]) -> list[Item]:
    order: dict[str, tuple[str, str, float]] = {}
    credits: dict[str, list[tuple[float, float, float]]] = {}
    for o in scored:
        total = o.report.score  # type: ignore[union-attr]
        for c in o.report.checks:  # type: ignore[union-attr]
            order.setdefault(c.id, (c.exercise, c.name, c.max_score))
            credit = c.score / c.max_score if c.max_score else float(c.status == "pass")
            credits.setdefault(c.id, []).append((credit, total - c.score, float(c.status == "pass")))
    items = []
    for cid, (exercise, name, max_score) in order.items():
        rows = credits[cid]
        items.append(Item(
            id=cid, exercise=exercise, name=name, max_score=max_score, graded=len(rows),
            passed=int(sum(r[2] for r in rows)), mean_credit=statistics.fmean(r[0] for r in rows),
            discrimination=_correlation([r[0] for r in rows], [r[1] for r in rows]),
        ))
    return items


def _correlation(xs: list[float], ys: list[float]) -> float | None:
    if len(xs) < 3:
        return None
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 1e-12 or syy <= 1e-12:
        return None
    return sxy / math.sqrt(sxx * syy)


def _hints(scored: list[Outcome]) -> list[tuple[str, int, list[str]]]:
    students: Counter[str] = Counter()
    where: dict[str, set[str]] = {}
    for o in scored:
        given = set()
        for c in o.report.checks:  # type: ignore[union-attr]
            hint = " ".join(c.hint.split())
            if c.status in ("fail", "error") and hint:
                given.add(hint)
                where.setdefault(hint, set()).add(c.id)
        students.update(given)
    ranked = sorted(students.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_HINTS]
    return [(hint, n, sorted(where[hint])) for hint, n in ranked]


def histogram(analysis: Analysis, dest: Path) -> None:
    """The score distribution as a PNG (matplotlib, Agg backend: no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    top = analysis.max_score or 100.0
    width = top / 20
    edges = [i * width for i in range(21)]
    fig, ax = plt.subplots(figsize=(8, 3.6), dpi=100)
    try:
        if analysis.totals:
            ax.hist([min(t, top) for t in analysis.totals], bins=edges, color="#3b7dd8", edgecolor="white")
            mean = statistics.fmean(analysis.totals)
            ax.axvline(mean, color="#d1495b", linestyle="--", linewidth=1.5, label=f"mean {mean:.1f}")
            ax.legend(loc="upper left", frameon=False)
        else:
            ax.text(0.5, 0.5, "no scored submissions", ha="center", va="center", transform=ax.transAxes)
        ax.set_xlim(0, top)
        ax.set_xlabel(f"total score (out of {fmt_points(top)})")
        ax.set_ylabel("students")
        ax.yaxis.get_major_locator().set_params(integer=True)
        ax.set_title(f"Score distribution ({len(analysis.totals)} scored of {analysis.students})")
        ax.spines[["top", "right"]].set_visible(False)
        fig.tight_layout()
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(f".{dest.stem}.tmp.png")
        fig.savefig(tmp)
        tmp.replace(dest)
    finally:
        plt.close(fig)


def _num(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _pct(value: float) -> str:
    return f"{100 * value:.0f}%"


_MD_SPECIAL = re.compile(r"([\\`*_\[\]|<>#~])")


def md(text: str, limit: int = 300) -> str:
    """Text as one literal Markdown table cell."""
    text = one_line(str(text))
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return _MD_SPECIAL.sub(r"\\\1", text)


def to_markdown(a: Analysis, title: str = "Class summary") -> str:
    lines = [f"# {md(title)}", "", f"{a.students} students; "
             + ", ".join(f"{n} {s}" for s, n in a.statuses.items()) + ".", ""]
    lines += [f"- {md(n)}" for n in a.notes] + ([""] if a.notes else [])
    if a.totals:
        lines += ["## Scores", "", "![Score distribution](histogram.png)", "",
                  "| scored | mean | median | stdev | min | max | out of |", "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
                  f"| {len(a.totals)} | {_num(a.stat('mean'))} | {_num(a.stat('median'))} | {_num(a.stat('stdev'))} "
                  f"| {fmt_points(a.stat('min') or 0)} | {fmt_points(a.stat('max') or 0)} | {fmt_points(a.max_score)} |", ""]
        lines += ["## Exercises", "", "| exercise | mean | out of | full marks |", "| --- | ---: | ---: | ---: |"]
        lines += [f"| {e} | {mean:.1f} | {fmt_points(top)} | {_pct(full)} |" for e, mean, top, full in a.exercises]
        lines += ["", "## Item analysis", "",
                  "Per check, over the scored submissions, hardest first. Discrimination is the correlation "
                  "between the check's credit and the rest of the total; near zero or negative deserves a look.", "",
                  "| check | what it checks | points | pass rate | mean credit | discrimination |",
                  "| --- | --- | ---: | ---: | ---: | ---: |"]
        for item in sorted(a.items, key=lambda i: (i.pass_rate, i.id)):
            lines.append(f"| `{item.id}` | {md(item.name, 120)} | {fmt_points(item.max_score)} | "
                         f"{_pct(item.pass_rate)} ({item.passed}/{item.graded}) | {_pct(item.mean_credit)} | "
                         f"{_num(item.discrimination, 2)} |")
        lines.append("")
    if a.hints:
        lines += ["## Most frequent hints", "", "| students | hint | checks |", "| ---: | --- | --- |"]
        lines += [f"| {n} | {md(h)} | {', '.join(f'`{c}`' for c in checks)} |" for h, n, checks in a.hints]
        lines.append("")
    if a.slowest:
        lines += ["## Slowest submissions", "", "| student | seconds | status |", "| --- | ---: | --- |"]
        lines += [f"| {md(o.id)} | {o.seconds:.1f} | {o.status} |" for o in a.slowest]
        lines.append("")
    lines += ["## Needs attention", ""]
    if a.attention:
        lines += ["| student | status | score | detail |", "| --- | --- | ---: | --- |"]
        lines += [f"| {md(o.id)} | {o.status} | {fmt_points(o.report.score) if o.scored and o.report else ''} | "
                  f"{md(o.detail)} |" for o in a.attention]
    else:
        lines.append("Every submission was graded cleanly.")
    return "\n".join(lines) + "\n"


_CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d232b;
       max-width: 1100px; margin: 2em auto; padding: 0 1.2em; background: #fff; }
h1 { font-size: 1.7em; margin-bottom: .2em; } h2 { font-size: 1.25em; margin-top: 1.8em;
     border-bottom: 1px solid #dde3ea; padding-bottom: .2em; }
.lede { color: #4a5563; } .cards { display: flex; flex-wrap: wrap; gap: .7em; margin: 1em 0; }
.card { border: 1px solid #dde3ea; border-radius: 8px; padding: .5em .9em; min-width: 6.5em; }
.card b { display: block; font-size: 1.5em; } .card span { color: #4a5563; font-size: .85em; }
table { border-collapse: collapse; width: 100%; margin: .6em 0; font-size: .93em; }
th, td { text-align: left; padding: .35em .6em; border-bottom: 1px solid #e8ecf1; vertical-align: top; }
th { background: #f4f6f9; font-weight: 600; } td.n, th.n { text-align: right; white-space: nowrap; }
td.rate { white-space: nowrap; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; }
.bar { background: #eef1f5; border-radius: 4px; width: 10em; height: .9em; display: inline-block;
       vertical-align: middle; margin-right: .5em; overflow: hidden; }
.bar i { display: block; height: 100%; background: #3b8a5a; } .bar.low i { background: #d1495b; }
.bar.mid i { background: #e0a030; } .warn { color: #b0302f; font-weight: 600; }
.st { display: inline-block; border-radius: 4px; padding: 0 .45em; font-size: .85em; background: #eef1f5; }
.st-graded { background: #dff3e6; } .st-error, .st-invalid, .st-duplicate { background: #fbe0e0; }
.st-timeout, .st-crashed { background: #fdf0d5; } img { max-width: 100%; height: auto; }
.detail { color: #4a5563; font-size: .9em; }
"""


def _bar(fraction: float) -> str:
    level = "low" if fraction < 0.5 else "mid" if fraction < 0.8 else "ok"
    return f'<span class="bar {level}"><i style="width:{100 * fraction:.0f}%"></i></span>'


def _status(status: str) -> str:
    return f'<span class="st st-{html.escape(status)}">{html.escape(status)}</span>'


def to_html(a: Analysis, title: str = "Class summary") -> str:
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{e(title)}</title><style>{_CSS}</style></head><body>", f"<h1>{e(title)}</h1>",
           f'<p class="lede">{a.students} students: '
           + ", ".join(f"{n} {_status(s)}" for s, n in a.statuses.items()) + "</p>"]
    out += [f'<p class="{"lede" if n.startswith("Exercise runs confined: full") else "warn"}">{e(n)}</p>' for n in a.notes]
    if a.totals:
        cards = [("scored", str(len(a.totals))), ("mean", _num(a.stat("mean"))), ("median", _num(a.stat("median"))),
                 ("stdev", _num(a.stat("stdev"))), ("lowest", fmt_points(a.stat("min") or 0)),
                 ("highest", fmt_points(a.stat("max") or 0)), ("out of", fmt_points(a.max_score))]
        out += ['<div class="cards">'] + [f"<div class=card><b>{v}</b><span>{k}</span></div>" for k, v in cards]
        out += ["</div>", "<h2>Score distribution</h2>",
                '<img src="histogram.png" alt="Histogram of total scores" width="800" height="360">']
        out += ["<h2>Exercises</h2>", "<table><tr><th>exercise</th><th class=n>mean</th><th class=n>out of</th>"
                "<th>full marks</th></tr>"]
        out += [f"<tr><td>{e(x)}</td><td class=n>{mean:.1f}</td><td class=n>{fmt_points(top)}</td>"
                f"<td class=rate>{_bar(full)}{_pct(full)}</td></tr>" for x, mean, top, full in a.exercises]
        out += ["</table>", '<h2 id="items">Item analysis</h2>',
                '<p class="lede">Per check, over the scored submissions, hardest first. Discrimination is the '
                "correlation between the check's credit and the rest of the total; near zero or negative "
                "deserves a look.</p>",
                '<table class="items"><tr><th>check</th><th>what it checks</th><th class=n>points</th>'
                "<th>pass rate</th><th class=n>mean credit</th><th class=n>discrimination</th></tr>"]
        for item in sorted(a.items, key=lambda i: (i.pass_rate, i.id)):
            disc = _num(item.discrimination, 2)
            if item.discrimination is not None and item.discrimination < 0.1:
                disc = f'<span class="warn">{disc}</span>'
            out.append(f"<tr><td><code>{e(item.id)}</code></td><td>{e(item.name)}</td>"
                       f"<td class=n>{fmt_points(item.max_score)}</td><td class=rate>{_bar(item.pass_rate)}"
                       f"{_pct(item.pass_rate)} ({item.passed}/{item.graded})</td>"
                       f"<td class=n>{_pct(item.mean_credit)}</td><td class=n>{disc}</td></tr>")
        out.append("</table>")
    if a.hints:
        out += ["<h2>Most frequent hints</h2>", "<table><tr><th class=n>students</th><th>hint</th><th>checks</th></tr>"]
        out += [f"<tr><td class=n>{n}</td><td>{e(h)}</td><td>{', '.join(f'<code>{e(c)}</code>' for c in checks)}"
                "</td></tr>" for h, n, checks in a.hints]
        out.append("</table>")
    if a.slowest:
        out += ["<h2>Slowest submissions</h2>", "<table><tr><th>student</th><th class=n>seconds</th>"
                "<th>status</th></tr>"]
        out += [f"<tr><td>{e(o.id)}</td><td class=n>{o.seconds:.1f}</td><td>{_status(o.status)}</td></tr>"
                for o in a.slowest]
        out.append("</table>")
    out.append("<h2>Needs attention</h2>")
    if a.attention:
        out.append("<table><tr><th>student</th><th>status</th><th class=n>score</th><th>detail</th></tr>")
        for o in a.attention:
            score = fmt_points(o.report.score) if o.scored and o.report else ""
            detail = " ".join(o.detail.split())
            detail = detail if len(detail) <= 600 else detail[:599] + "…"
            out.append(f"<tr><td>{e(o.id)}</td><td>{_status(o.status)}</td><td class=n>{score}</td>"
                       f'<td class="detail">{e(detail)}</td></tr>')
        out.append("</table>")
    else:
        out.append("<p>Every submission was graded cleanly.</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write_summary(out: Path, outcomes: list[Outcome], notes: list[str] | None = None,
                  title: str = "Class summary") -> Analysis:
    """Write ``summary.md``, ``summary.html`` and ``histogram.png`` into ``out``."""
    analysis = analyse(outcomes, notes)
    histogram(analysis, Path(out) / "histogram.png")
    write_atomic(Path(out) / "summary.md", to_markdown(analysis, title))
    write_atomic(Path(out) / "summary.html", to_html(analysis, title))
    return analysis


__all__ = ["Analysis", "Item", "analyse", "histogram", "to_html", "to_markdown", "write_summary"]
