"""GitHub Classroom: the step output read by ``classroom-resources/autograding-grading-reporter@v1``.

``write`` appends one line, ``result=<base64 JSON>``, to the file GitHub Actions
names in ``$GITHUB_OUTPUT`` (the CLI resolves that path); the reporter step
reads it back through an environment variable ``<RUNNER>_RESULTS``.

How partial credit maps onto Classroom. The reporter computes two totals from
the same payload: the grade it sends to Classroom is the sum of
``tests[].score`` out of ``max_score``, while its console table shows
``passing tests / all tests * max_score``. The two agree only when every test
is worth the same, so each check becomes one test *per whole point*: a check
worth 6 points on which the student earned 4 becomes 4 passing and 2 failing
one-point tests. Then Classroom's grade, the table and "tests passed" all show
the same number. A check's score is rounded half up to whole points (Classroom
shows fractions badly), except that a check that did not pass never rounds up
to full marks; the Classroom total can therefore differ from the JSON report's
by the rounding, and only by it.

Sharp edges of the reporter this module respects (read from its source):
``tests`` must be a list (it crashes otherwise); ``line_no`` must be 0 or it
prints "- line N"; for a test with status ``error`` it prints only ``message``
(not ``name``), for other statuses only ``name``, and ``test_code`` always, so
what a student needs goes in ``name``/``message`` and ``test_code``; runner
ids are letters and digits; an environment variable over about 128 KiB fails
the step before the reporter starts, so the encoded payload is kept under
:data:`MAX_ENCODED_BYTES` whatever the messages hold, by shortening the
details first and, for very large rubrics, by falling back to one test per
check (where the table can no longer agree).
"""

from __future__ import annotations

import base64
import itertools
import json
from pathlib import Path
from typing import Any

from grader.report._common import bounded, detail, first_line, inert_report, neutralise_workflow_commands, truncate
from grader.results import CheckResult, Report

RUNNER_ID = "jaxgrader"
"""The runner id to list in the reporter's ``runners`` input (env var ``JAXGRADER_RESULTS``)."""
OUTPUT_NAME = "result"
"""The step output the workflow passes to the reporter."""
MAX_ENCODED_BYTES = 64 * 1024
"""Hard cap on the base64 payload: well under the ~128 KiB environment-variable limit."""
_DETAIL_LIMITS = (2000, 1000, 500, 250, 100, 0)
_NAME_LIMIT = 160


def _half_up(points: float) -> int:
    return int(float(points) + 0.5) if points >= 0 else 0


def whole_points(check: CheckResult) -> tuple[int, int]:
    """``(earned, possible)`` whole points of ``check`` as Classroom shows them."""
    possible = _half_up(check.max_score)
    earned = min(possible, _half_up(check.score))
    if check.status != "pass" and possible > 0:
        earned = min(earned, possible - 1)
    return earned, possible


def _describe(check: CheckResult, limit: int) -> tuple[str, str]:
    """The check's title with its whole points, and its message and hint cut to ``limit``, both safe to print."""
    earned, possible = whole_points(check)
    head = bounded(f"{check.id}: {check.name}", _NAME_LIMIT) + f" [{earned}/{possible} points]"
    return neutralise_workflow_commands(head), neutralise_workflow_commands(detail(check.message, check.hint, limit))


def _test(name: str, status: str, score: int, message: str = "", test_code: str = "",
          seconds: float = 0.0) -> dict[str, Any]:
    return {"name": name, "status": status, "score": score, "message": message, "test_code": test_code,
            "filename": "", "line_no": 0, "execution_time": f"{seconds:.2f}s"}


def _point_tests(check: CheckResult, limit: int) -> list[dict[str, Any]]:
    """One test per whole point: the earned ones pass, the first one carries the explanation."""
    earned, possible = whole_points(check)
    head, info = _describe(check, limit)
    tests = []
    for i in range(possible):
        if i < earned:
            status = "pass"
        elif i == 0 and check.status == "error":
            status = "error"  # the reporter prints only `message` for errors: it must name the check
        else:
            status = "fail"
        if i == 0:
            summary = truncate(first_line(info), min(limit, 300))
            message = (f"{head}: {summary}" if summary else head) if status == "error" else summary
            tests.append(_test(head, status, int(status == "pass"), message, info, check.seconds))
        else:
            tests.append(_test(f"{check.id} point {i + 1}/{possible}", status, int(status == "pass"),
                               seconds=0.0))
    return tests


def _check_test(check: CheckResult, limit: int) -> dict[str, Any]:
    """One test per check (fallback for huge rubrics): Classroom's grade stays right, its table does not."""
    earned, _ = whole_points(check)
    status = {"pass": "pass", "error": "error"}.get(check.status, "fail")
    head, info = _describe(check, limit)
    return _test(head, status, earned, head if status == "error" else "", info, check.seconds)


def _status(report: Report) -> str:
    statuses = {c.status for c in report.checks}
    if not report.checks or "error" in statuses:
        return "error"
    return "pass" if statuses == {"pass"} else "fail"


def _empty_tests(report: Report) -> list[dict[str, Any]]:
    note = "; ".join(report.notes) or "nothing was graded"
    text = neutralise_workflow_commands(bounded(f"jax-autograder: {note}", 1000))
    return [_test("jax-autograder", "error", 0, text, text)]


def payload(report: Report) -> dict[str, Any]:
    """The reporter's JSON for ``report``, already within :data:`MAX_ENCODED_BYTES` once encoded."""
    report = inert_report(report)
    max_score = sum(whole_points(c)[1] for c in report.checks)
    base = {"version": 1, "status": _status(report), "max_score": max_score}
    attempts = itertools.chain(
        ([t for c in report.checks for t in _point_tests(c, limit)] for limit in _DETAIL_LIMITS),
        ([_check_test(c, limit) for c in report.checks] for limit in (200, 0)),
    )
    for tests in attempts:
        data = {**base, "tests": tests or _empty_tests(report)}
        if len(encode(data)) <= MAX_ENCODED_BYTES:
            return data
    earned = sum(whole_points(c)[0] for c in report.checks)  # an absurdly large rubric: one line
    summary = _test(f"jax-autograder [{earned}/{max_score} points]", "pass" if earned == max_score else "fail",
                    earned, "", "The per-check results are too many for GitHub Classroom; see the job summary.")
    return {**base, "tests": [summary]}


def encode(data: dict[str, Any]) -> str:
    """Base64 of compact UTF-8 JSON, as the reporter decodes it."""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(raw).decode("ascii")


def decode(encoded: str) -> dict[str, Any]:
    """The inverse of :func:`encode` (what the reporter does), for tests and debugging."""
    return json.loads(base64.b64decode(encoded).decode("utf-8"))


def write(report: Report, dest: Path) -> None:
    """Append ``result=<base64>`` to ``dest`` (the ``$GITHUB_OUTPUT`` file)."""
    dest = Path(dest)
    line = f"{OUTPUT_NAME}={encode(payload(report))}\n"
    with dest.open("a", encoding="utf-8") as out:
        out.write(line)
