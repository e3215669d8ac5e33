"""Classroom 50's ``result.json`` (``--classroom50 PATH``), schema ``classroom50/result/v1``.

Classroom 50 runs an assignment's ``autograder.py`` in the student's checkout
for every submission; the autograder must leave ``result.json`` there, which
the runner validates, attaches to the submission's Release and its collector
merges into ``scores.json``. The fields and rules follow the runner's and the
collector's ``validate_result`` (``cli/gh-teacher/skeleton/dotgithub/scripts/
runner.py`` and ``collect_scores.py`` in foundation50/classroom50):

- identity: ``schema``, ``classroom`` (``$CLASSROOM``), ``assignment``
  (``$ASSIGNMENT``), ``submission`` (``$SUBMISSION_TAG``, must start with
  ``submit/``), ``commit`` (``$COMMIT_URL``), ``release`` (``$RELEASE_URL``),
  ``review`` (``$REVIEW_URL``, else the commit URL), all non-empty strings;
  ``owner`` (``$OWNER``/``$USERNAME``) and ``assignment_type``
  (``$ASSIGNMENT_TYPE``) are written too, although the runner stamps both (and
  ``datetime``, ``graded_at``, ``submitted_by``) over whatever the file says;
- ``datetime`` and ``graded_at``: now, in UTC, ``YYYY-MM-DDTHH:MM:SSZ``;
- ``score`` and ``max-score``: non-negative integers (never booleans), the
  sums of the tests', with ``score <= max-score``;
- ``tests``: one per check, each with a non-empty ``test-name``, a boolean
  ``passed`` and integer ``score <= max-score``; the runner and collector keep
  further fields verbatim, so each test also carries the check's ``id``,
  ``exercise``, ``status``, ``message``, ``hint`` and its points as the JSON
  report has them (``points``, ``max-points``), and, for an error in the
  student's code, its ``file`` and ``line``.

**Whole points.** Classroom 50 counts integers while our checks can earn
fractions (the accuracy check's partial credit; every score is rounded to
hundredths of a point). Its points are therefore *hundredths of a point*
(:data:`SCALE`): a check worth 6 points is 600, one scored 2.25 is 225, and
the total is out of 10000. The scale is the same for every submission, so the
gradebook compares like with like; every check's integer score is
``round(score * 100)``, so the sums are exact and equal to the JSON report's
total times 100. A check that did not pass never reaches full marks.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from grader.report._common import bounded, clean, inert_report, write_atomic
from grader.results import CheckResult, Report

SCHEMA = "classroom50/result/v1"
SUBMIT_PREFIX = "submit/"
SCALE = 100
"""Classroom 50 points per point of the JSON report: its integers are hundredths of a point."""
ASSIGNMENT_TYPES = ("individual", "group", "team")
#: (result field, environment variable the runner sets) for the identity fields; all required.
REQUIRED_ENV = (
    ("classroom", "CLASSROOM"),
    ("assignment", "ASSIGNMENT"),
    ("submission", "SUBMISSION_TAG"),
    ("commit", "COMMIT_URL"),
    ("release", "RELEASE_URL"),
)
MESSAGE_LIMIT = 4000
_NAME_LIMIT = 200
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


class Classroom50Error(ValueError):
    """The environment lacks what Classroom 50's runner sets; the message says what to do."""


@dataclass(frozen=True)
class Identity:
    """Who and what is graded, as Classroom 50's runner tells its autograder."""

    classroom: str
    assignment: str
    submission: str
    commit: str
    release: str
    review: str
    owner: str = ""
    assignment_type: str = "individual"


def identity_from_env(environ: Mapping[str, str] | None = None) -> Identity:
    """The identity from the runner's environment variables; raises :class:`Classroom50Error` naming what is missing."""
    env = os.environ if environ is None else environ
    values = {field: env.get(name, "").strip() for field, name in REQUIRED_ENV}
    missing = [name for field, name in REQUIRED_ENV if not values[field]]
    if missing:
        raise Classroom50Error(
            f"--classroom50 needs the environment variables Classroom 50's runner sets for its autograder; "
            f"{', '.join('$' + m for m in missing)} {'is' if len(missing) == 1 else 'are'} not set. Run it from the "
            f"assignment's autograder.py (templates/classroom50/autograder.py), or set CLASSROOM, ASSIGNMENT, "
            f"SUBMISSION_TAG (submit/...), COMMIT_URL and RELEASE_URL to try it locally (docs/integrations.md)")
    if not values["submission"].startswith(SUBMIT_PREFIX):
        raise Classroom50Error(f"$SUBMISSION_TAG is {values['submission']!r}; Classroom 50 only accepts a submission "
                               f"tag that starts with {SUBMIT_PREFIX!r} (its runner sets one)")
    kind = env.get("ASSIGNMENT_TYPE", "").strip() or "individual"
    if kind not in ASSIGNMENT_TYPES:
        raise Classroom50Error(f"$ASSIGNMENT_TYPE is {kind!r}; expected one of {', '.join(ASSIGNMENT_TYPES)}")
    owner = env.get("OWNER", "").strip() or env.get("USERNAME", "").strip()
    return Identity(review=env.get("REVIEW_URL", "").strip() or values["commit"], owner=owner,
                    assignment_type=kind, **values)


def whole(check: CheckResult) -> tuple[int, int]:
    """``(score, max-score)`` of ``check`` in Classroom 50's integers (hundredths of a point)."""
    possible = max(0, round(float(check.max_score) * SCALE))
    earned = min(possible, max(0, round(float(check.score) * SCALE)))
    if check.status != "pass" and possible > 0:
        earned = min(earned, possible - 1)
    return earned, possible


def _test(check: CheckResult) -> dict[str, Any]:
    earned, possible = whole(check)
    test = {
        "test-name": bounded(f"{check.id}: {check.name}", _NAME_LIMIT).replace("\n", " "),
        "passed": check.status == "pass",
        "score": earned,
        "max-score": possible,
        "id": check.id,
        "exercise": check.exercise,
        "status": check.status,
        "points": round(float(check.score), 4),
        "max-points": round(float(check.max_score), 4),
        "message": bounded(check.message.strip(), MESSAGE_LIMIT),
        "hint": bounded(check.hint.strip(), MESSAGE_LIMIT),
    }
    if check.file and check.line > 0:
        test["file"], test["line"] = clean(check.file), int(check.line)
    return test


def result(report: Report, identity: Identity, now: _dt.datetime | None = None) -> dict[str, Any]:
    """The ``result.json`` document for ``report``."""
    when = (now or _dt.datetime.now(_dt.timezone.utc)).astimezone(_dt.timezone.utc).strftime(_TIME_FORMAT)
    report = inert_report(report)
    tests = [_test(c) for c in report.checks]
    document: dict[str, Any] = {
        "schema": SCHEMA,
        "classroom": identity.classroom,
        "assignment": identity.assignment,
        "assignment_type": identity.assignment_type,
        "submission": identity.submission,
        "commit": identity.commit,
        "release": identity.release,
        "review": identity.review,
        "datetime": when,
        "graded_at": when,
        "score": sum(t["score"] for t in tests),
        "max-score": sum(t["max-score"] for t in tests),
        "tests": tests,
        "points": round(report.score, 4),
        "max-points": round(report.max_score, 4),
        "points-scale": SCALE,
        "notes": [bounded(n, MESSAGE_LIMIT) for n in report.notes],
    }
    if identity.owner:
        document["owner"] = identity.owner
    return document


def dumps(report: Report, identity: Identity, now: _dt.datetime | None = None) -> str:
    """Strict JSON (no NaN or Infinity: the collector and Go readers reject them)."""
    return json.dumps(result(report, identity, now), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write(report: Report, dest: Path) -> None:
    """Write ``result.json`` to ``dest`` atomically, the identity taken from the environment."""
    write_atomic(dest, dumps(report, identity_from_env()))
