"""Report formats: GitHub Classroom, Gradescope, JUnit XML and Markdown, decoded field by field.

Unit tests build Reports directly (no grading); a few end-to-end tests run the
CLI on ``reference`` with ``--only ex3``. Every format must agree with the JSON
report on every check's score (Classroom up to its documented whole-point
rounding).
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from conftest import REFERENCE, ROOT, submission_with
from markdown_it import MarkdownIt

from grader.cli import main
from grader.engine import CHECKS
from grader.gradescope import build_zip, find_submission
from grader.report import WRITERS, classroom, gradescope, json_report, junit, markdown
from grader.report._common import inert
from grader.exercises import IDS
from grader.results import CheckResult, Report, RunRecord
from grader.report.terminal import print_report
from grader.rubric import load_rubric

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE_GOLDEN = os.environ.get("JAX_GRADER_UPDATE_GOLDEN") == "1"
HOSTILE_TEXT = ("::error file=x.py::forged\n  ::notice title=Autograding complete::Points 100/100\n"
                "<script>alert(1)</script> ```` ~~~ | pipe | [link](http://x) *bold* _it_ #tag\x00\x1b[31m\r\n"
                "ünïcode ✓ \U0001f600")
REPORTER_ENV_LIMIT = 100 * 1024


def check(id: str, status: str, score: float, max_score: float, message: str = "", hint: str = "",
          seconds: float = 1.25) -> CheckResult:
    return CheckResult(id=id, exercise=id.split(".")[0], name=f"what {id} checks",
                       status=status,  # type: ignore[arg-type]
                       score=score, max_score=max_score, message=message, hint=hint, seconds=seconds)


def sample_report() -> Report:
    """Every status, partial credit, a crashed exercise and hostile text, with fixed timings."""
    return Report(
        checks=(
            check("ex1.zero_fraction", "pass", 3, 3),
            check("ex1.rescale", "fail", 0, 3, "survivors scaled by 1.0, expected 2.0", "divide by (1 - rate)"),
            check("ex1.placement", "skipped", 0, 1, "not judged until ex1.rescale earns credit"),
            check("ex2.values", "error", 0, 6, "running ex2 crashed: " + HOSTILE_TEXT, "Run it on small inputs."),
            check("ex2.norms", "error", 0, 4, "running ex2 crashed: " + HOSTILE_TEXT, "Run it on small inputs."),
            check("ex3.depths", "fail", 2.5, 6, "wrong at depth 5 " + HOSTILE_TEXT, "Sort layers numerically: "
                  "<b>int(name[5:])</b> `key`"),
            check("ex4.jit_faster", "pass", 2, 2, "jit was 8.1x faster"),
            check("accuracy.threshold", "fail", 6.4, 10, "test accuracy 0.860, threshold 0.910", "train longer"),
        ),
        submission="submissions/<alice>",
        answers="# My answers\n\n```python\nprint('hi')\n```\n\n````\nfour\n````\n<img src=x onerror=alert(1)>\n",
        accuracy={"accuracy": 0.86, "threshold": 0.91},
        timings={"ex1": 4.0, "ex2": 0.5, "total": 12.345},
        notes=("ex5_clipping.py is missing from the submission",),
    )


def rubric_report(message: str = "", status: str = "fail") -> Report:
    """The real rubric (100 points), every check with the same status and message."""
    points = load_rubric(CHECKS).points
    return Report(checks=tuple(
        CheckResult(id=c.id, exercise=c.exercise, name=c.name, status=status,  # type: ignore[arg-type]
                    score=points[c.id] if status == "pass" else 0.0, max_score=points[c.id], message=message,
                    hint=message[: len(message) // 2])
        for c in CHECKS), answers=message, submission="x")


def crashed_report() -> Report:
    """ex2 crashed (every check an error), the rest passed."""
    points = load_rubric(CHECKS).points
    checks = []
    for c in CHECKS:
        if c.exercise == "ex2":
            checks.append(CheckResult(c.id, c.exercise, c.name, "error", 0.0, points[c.id],
                                      "running ex2 crashed: Segmentation fault (exit status -11)",
                                      "Run your functions on small inputs yourself to find the crash."))
        else:
            checks.append(CheckResult(c.id, c.exercise, c.name, "pass", points[c.id], points[c.id]))
    return Report(checks=tuple(checks), submission="x")


REPORTS = {
    "sample": sample_report,
    "enormous": lambda: rubric_report("E" * 1_000_000 + HOSTILE_TEXT),
    "crashed": crashed_report,
    "perfect": lambda: rubric_report(status="pass"),
}


# --- helpers: decode each format ---------------------------------------------------------------------------


def classroom_payload(report: Report, tmp_path: Path) -> tuple[str, dict]:
    out = tmp_path / "github_output"
    out.write_text("earlier=1\n")
    classroom.write(report, out)
    lines = out.read_text().splitlines()
    assert lines[0] == "earlier=1", "the step output file must be appended to, not replaced"
    assert len(lines) == 2 and lines[1].startswith("result=")
    encoded = lines[1][len("result="):]
    assert re.fullmatch(r"[A-Za-z0-9+/]*={0,2}", encoded)
    return encoded, json.loads(base64.b64decode(encoded).decode("utf-8"))


def reporter_totals(payload: dict) -> tuple[float, float, float]:
    """What autograding-grading-reporter@v1 computes (src/aggregate-results.js, notify-classroom.js):
    (grade sent to Classroom, its console table's score, max_score)."""
    tests = payload["tests"]
    passed = sum(t["status"] == "pass" for t in tests)
    table = passed / len(tests) * (payload["max_score"] or 0)
    grade = sum(t["score"] for t in tests) if payload["max_score"] else 0
    return grade, table, payload["max_score"]


def half_up(points: float) -> int:
    return int(points + 0.5)


def junit_root(report: Report, tmp_path: Path) -> ET.Element:
    path = tmp_path / "junit.xml"
    junit.write(report, path)
    return ET.parse(path).getroot()


SUREFIRE_TIME = re.compile(r"(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]{0,3})?")
CASE_CHILDREN = {"skipped", "error", "failure", "system-out", "system-err"}


def assert_junit_schema(root: ET.Element) -> None:
    """The rules of the JUnit schema pytest validates its junitxml against (junit-10.xsd)."""
    assert root.tag == "testsuites"
    assert set(root.attrib) <= {"name", "time", "tests", "failures", "errors"}
    assert SUREFIRE_TIME.fullmatch(root.get("time", ""))
    for suite in root:
        assert suite.tag == "testsuite"
        assert {"name", "tests", "failures", "errors"} <= set(suite.attrib)
        assert SUREFIRE_TIME.fullmatch(suite.get("time", ""))
        assert {child.tag for child in suite} <= {"testsuite", "properties", "testcase", "system-out", "system-err"}
        for prop in suite.iter("property"):
            assert set(prop.attrib) == {"name", "value"}
        cases = suite.findall("testcase")
        assert int(suite.get("tests")) == len(cases)
        assert int(suite.get("failures")) == sum(len(c.findall("failure")) for c in cases)
        assert int(suite.get("errors")) == sum(len(c.findall("error")) for c in cases)
        assert int(suite.get("skipped", 0)) == sum(len(c.findall("skipped")) for c in cases)
        for case in cases:
            assert case.get("name")
            assert set(case.attrib) <= {"name", "time", "classname", "group"}
            assert {child.tag for child in case} <= CASE_CHILDREN
            for outcome in case:
                if outcome.tag in ("failure", "error", "skipped"):
                    assert set(outcome.attrib) <= {"type", "message"}
    assert int(root.get("tests")) == sum(int(s.get("tests")) for s in root)


def markdown_tokens(text: str):
    md = MarkdownIt("commonmark").enable("table")
    return md.parse(text)


def assert_same_scores(got: dict[str, tuple[float, float]], want: dict[str, tuple[float, float]]) -> None:
    assert set(got) == set(want)
    for key, (score, max_score) in want.items():
        assert got[key] == (pytest.approx(score, abs=0.005), pytest.approx(max_score, abs=0.005)), key


def json_scores(report: Report) -> dict[str, tuple[float, float]]:
    data = json.loads(json_report.dumps(report))
    return {c["id"]: (c["score"], c["max_score"]) for c in data["checks"]}


# --- registry ------------------------------------------------------------------------------------------------


def test_every_format_is_a_writer_in_the_registry():
    assert set(WRITERS) == {"json", "classroom", "gradescope", "junit", "markdown", "classroom50", "prairielearn"}
    for name, writer in WRITERS.items():
        assert callable(writer), name


# --- GitHub Classroom ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", REPORTS)
def test_classroom_payload_fields(name, tmp_path):
    report = REPORTS[name]()
    encoded, payload = classroom_payload(report, tmp_path)
    assert len(encoded) <= classroom.MAX_ENCODED_BYTES < REPORTER_ENV_LIMIT
    assert set(payload) == {"version", "status", "max_score", "tests"}
    assert payload["version"] == 1
    assert isinstance(payload["tests"], list) and payload["tests"]
    assert payload["max_score"] == sum(half_up(c.max_score) for c in report.checks)
    for test in payload["tests"]:
        assert set(test) == {"name", "status", "score", "message", "test_code", "filename", "line_no",
                             "execution_time"}
        assert test["line_no"] == 0 and test["filename"] == ""
        assert test["status"] in ("pass", "fail", "error")
        assert type(test["score"]) is int and test["score"] == (test["status"] == "pass")
        for field in ("name", "message", "test_code"):
            assert isinstance(test[field], str)
            for line in test[field].splitlines():  # the reporter prints them: no workflow commands
                assert not line.lstrip().startswith("::"), line
            assert "\x1b" not in test[field] and "\x00" not in test[field]
    statuses = {c.status for c in report.checks}
    expected = "error" if "error" in statuses else "pass" if statuses == {"pass"} else "fail"
    assert payload["status"] == expected


@pytest.mark.parametrize("name", REPORTS)
def test_classroom_totals_agree_with_each_other_and_the_json_report(name, tmp_path):
    """One test per whole point: Classroom's grade, its table and the JSON report tell the same score."""
    report = REPORTS[name]()
    _, payload = classroom_payload(report, tmp_path)
    grade, table, max_score = reporter_totals(payload)
    assert grade == table
    assert max_score == report.max_score == json.loads(json_report.dumps(report))["max_score"]
    per_check: dict[str, list[dict]] = {}
    for test in payload["tests"]:
        per_check.setdefault(test["name"].split(":")[0].split(" point ")[0], []).append(test)
    for c in report.checks:
        earned, possible = classroom.whole_points(c)
        tests = per_check[c.id]
        assert len(tests) == possible == half_up(c.max_score)
        assert sum(t["score"] for t in tests) == earned
        assert earned == (possible if c.status == "pass" else min(half_up(c.score), possible - 1))
        assert tests[0]["name"].startswith(f"{c.id}: ") and tests[0]["name"].endswith(f"[{earned}/{possible} points]")
    if all(c.score == int(c.score) for c in report.checks):
        assert grade == report.score


def test_classroom_rounds_to_whole_points_and_never_up_to_full_marks_on_a_failure():
    assert classroom.whole_points(check("ex3.depths", "fail", 2.5, 6)) == (3, 6)
    assert classroom.whole_points(check("ex3.depths", "fail", 2.49, 6)) == (2, 6)
    assert classroom.whole_points(check("accuracy.threshold", "fail", 9.8, 10)) == (9, 10)
    assert classroom.whole_points(check("ex1.placement", "fail", 0.9, 1)) == (0, 1)
    assert classroom.whole_points(check("ex1.placement", "pass", 1, 1)) == (1, 1)
    assert classroom.whole_points(check("ex1.placement", "error", 0, 0)) == (0, 0)


def test_classroom_shows_what_a_student_needs_where_the_reporter_prints_it(tmp_path):
    """The reporter prints `message` (not `name`) for errors, `name` otherwise, and `test_code` always."""
    _, payload = classroom_payload(sample_report(), tmp_path)
    by_name = {t["name"]: t for t in payload["tests"]}
    rescale = by_name["ex1.rescale: what ex1.rescale checks [0/3 points]"]
    assert rescale["status"] == "fail"
    assert "survivors scaled by 1.0, expected 2.0" in rescale["test_code"]
    assert "Hint: divide by (1 - rate)" in rescale["test_code"]
    crashed = by_name["ex2.values: what ex2.values checks [0/6 points]"]
    assert crashed["status"] == "error"
    assert crashed["message"].startswith("ex2.values: what ex2.values checks [0/6 points]: running ex2 crashed")
    assert "Hint: Run it on small inputs." in crashed["test_code"]
    partial = [t for t in payload["tests"] if t["name"].startswith("accuracy.threshold")]
    assert [t["status"] for t in partial] == ["pass"] * 6 + ["fail"] * 4
    assert "test accuracy 0.860" in partial[0]["test_code"]
    assert {t["status"] for t in payload["tests"] if t["name"].startswith("ex2.values point")} == {"fail"}


def test_classroom_payload_stays_under_the_limit_with_enormous_messages(tmp_path):
    report = rubric_report("M" * 5_000_000)
    encoded, payload = classroom_payload(report, tmp_path)
    assert len(encoded) <= classroom.MAX_ENCODED_BYTES
    assert len(payload["tests"]) == 100  # still one test per point: the totals still agree
    assert "characters in all]" in payload["tests"][0]["test_code"]


def test_classroom_payload_stays_under_the_limit_for_a_huge_rubric(tmp_path):
    checks = tuple(check(f"ex{1 + i % 5}.c{i}", "fail", 10, 40, "x" * 10_000) for i in range(100))
    encoded, payload = classroom_payload(Report(checks=checks), tmp_path)
    assert len(encoded) <= classroom.MAX_ENCODED_BYTES
    assert payload["tests"] and payload["max_score"] == 4000
    assert sum(t["score"] for t in payload["tests"]) == 1000  # the grade stays right in the fallback


def test_classroom_payload_of_an_empty_report_still_has_tests(tmp_path):
    _, payload = classroom_payload(Report(checks=(), notes=("the grader could not run: boom",)), tmp_path)
    assert payload["status"] == "error" and payload["max_score"] == 0
    assert len(payload["tests"]) == 1 and "boom" in payload["tests"][0]["message"]


def test_classroom_runner_id_is_letters_and_digits():
    assert re.fullmatch(r"[A-Za-z0-9]+", classroom.RUNNER_ID)
    assert classroom.decode(classroom.encode({"a": "é"})) == {"a": "é"}


# --- Gradescope -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", REPORTS)
def test_gradescope_results_fields(name, tmp_path):
    report = REPORTS[name]()
    path = tmp_path / "results" / "results.json"
    gradescope.write(report, path)
    data = json.loads(path.read_text())
    assert set(data) == {"score", "execution_time", "output", "output_format", "tests", "visibility",
                         "stdout_visibility"}
    assert data["score"] == report.score
    assert isinstance(data["execution_time"], int)
    assert data["output_format"] == "md" and data["stdout_visibility"] == "hidden"
    assert len(data["tests"]) == len(report.checks)
    assert len({t["number"] for t in data["tests"]}) == len(data["tests"])
    for test, c in zip(data["tests"], report.checks):
        assert set(test) == {"name", "number", "score", "max_score", "status", "output", "output_format", "tags",
                             "visibility"}
        assert test["name"] == f"{c.id}: {c.name}"
        assert re.fullmatch(rf"{IDS.index(c.exercise) + 1}\.\d+", test["number"])
        assert (test["score"], test["max_score"]) == (c.score, c.max_score)
        assert test["status"] == ("passed" if c.status == "pass" else "failed")
        assert test["tags"] == [c.exercise] and test["visibility"] == "visible" and test["output_format"] == "text"
        assert len(test["output"]) <= gradescope.MESSAGE_LIMIT
        if c.message:
            assert test["output"].startswith(inert(c.message.strip())[:100])
        if c.hint:
            assert "Hint: " in test["output"]
    assert sum(t["score"] for t in data["tests"]) == pytest.approx(data["score"])


def test_gradescope_output_quotes_the_answers_and_notes():
    data = gradescope.results(sample_report())
    assert "**Total: 13.9 / 35**" in data["output"]
    assert "ex5\\_clipping.py is missing" in data["output"]
    assert "\n`````markdown\n# My answers" in data["output"]  # fence longer than the answers' ````


# --- JUnit XML ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", REPORTS)
def test_junit_follows_the_schema_and_carries_every_check(name, tmp_path):
    report = REPORTS[name]()
    root = junit_root(report, tmp_path)
    assert_junit_schema(root)
    groups = report.by_exercise()
    suites = root.findall("testsuite")
    assert [s.get("name").split(":")[0] for s in suites] == [e for e in IDS if e in groups]
    for suite in suites:
        exercise = suite.get("name").split(":")[0]
        checks = groups[exercise]
        props = {p.get("name"): float(p.get("value")) for p in suite.iter("property")}
        assert props["score"] == pytest.approx(sum(c.score for c in checks))
        assert props["max_score"] == pytest.approx(sum(c.max_score for c in checks))
        for case, c in zip(suite.findall("testcase"), checks):
            assert case.get("classname") == exercise and case.get("name") == f"{c.id}: {c.name}"
            outcome = {"fail": "failure", "error": "error", "skipped": "skipped"}.get(c.status)
            found = [child for child in case if child.tag in ("failure", "error", "skipped")]
            assert [f.tag for f in found] == ([outcome] if outcome else [])
            if outcome and c.message:
                assert found[0].get("message")
                assert len(found[0].text) <= junit.MESSAGE_LIMIT
                if c.hint:
                    assert "Hint: " in found[0].text
            score, max_score = case.find("system-out").text.removeprefix("score: ").split(" / ")
            assert (float(score), float(max_score)) == pytest.approx((c.score, c.max_score))


def test_junit_replaces_characters_xml_cannot_hold(tmp_path):
    text = (tmp_path / "j.xml")
    junit.write(sample_report(), text)
    raw = text.read_text(encoding="utf-8")
    assert "\x00" not in raw and "\x1b" not in raw and "\\x1b[31m" in raw
    assert raw.startswith("<?xml")


def test_junit_of_an_empty_report_says_why(tmp_path):
    root = junit_root(Report(checks=(), notes=("the grader could not run: boom",)), tmp_path)
    assert_junit_schema(root)
    assert root.find("testsuite/testcase/error").get("message") == "the grader could not run: boom"


# --- Markdown -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", REPORTS)
def test_markdown_quotes_everything_a_submission_controls(name):
    report = REPORTS[name]()
    text = markdown.dumps(report)
    assert len(text.encode()) <= markdown.MAX_BYTES
    tokens = markdown_tokens(text)
    html = [t.content.strip() for t in tokens if t.type == "html_block"]
    html += [c.content for t in tokens if t.children for c in t.children if c.type == "html_inline"]
    assert set(html) <= {"<details><summary>All checks</summary>", "</details>"}, html
    links = [c for t in tokens if t.children for c in t.children if c.type == "link_open"]
    assert not links
    fences = [t for t in tokens if t.type == "fence"]
    for c in report.checks:
        if c.status != "pass" and c.message.strip() and not c.message.startswith("not implemented"):
            assert any(f.content.startswith(inert(c.message.strip())[:200]) for f in fences), c.id
    if report.answers and report.answers.strip():
        answers = [f for f in fences if f.info == "markdown"]
        assert len(answers) == 1 and answers[0].content.startswith(report.answers.strip()[:100])


def test_markdown_table_and_hints():
    report = sample_report()
    text = markdown.dumps(report)
    assert text.startswith("## jax-autograder: 13.9 / 35\n")
    assert "| ex1 | Dropout with split PRNG keys | 3 / 7 | 1 / 3 |" in text
    assert "| accuracy | Training with your pieces | 6.4 / 10 | 0 / 1 |" in text
    assert "| **Total** | | **13.9 / 35** | **2 / 8** |" in text
    assert "**Hint:** divide by (1 - rate)" in text
    assert "&lt;b&gt;int(name[5:])&lt;/b&gt;" not in text  # brackets are escaped too
    assert "&lt;b&gt;int(name\\[5:\\])&lt;/b&gt; \\`key\\`" in text
    assert "Submission: submissions/&lt;alice&gt;" in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and "`" in line and "pass" in line]
    assert any("`ex4.jit_faster`" in row and "2 / 2" in row for row in rows)


def test_markdown_fence_is_longer_than_any_backtick_run_inside():
    assert markdown.fenced("a ``````` b") == "````````text\na ``````` b\n````````"
    assert markdown.fenced("plain") == "```text\nplain\n```"


def test_a_run_that_did_not_finish_is_said_once_per_exercise(tmp_path):
    """Every check of a crashed exercise carries the same error; the readable formats say it once, from ``runs``."""
    crashed = "running ex4 crashed: the process died from SIGSEGV"
    report = Report(
        checks=(check("ex3.depths", "pass", 6, 6),
                check("ex4.n_steps", "error", 0, 3, crashed, "Run your functions on small inputs."),
                check("ex4.returns_float", "error", 0, 1, crashed, "Run your functions on small inputs."),
                check("ex4.jit_faster", "skipped", 0, 2, "not judged until ex4.n_steps earns credit", "Fix ex4.n_steps")),
        runs={"ex3": RunRecord("ok"), "ex4": RunRecord("crashed", "the process died from SIGSEGV")})
    stream = io.StringIO()
    print_report(report, file=stream)
    text = stream.getvalue()
    assert text.count("SIGSEGV") == 1 and "ex4 crashed: the process died from SIGSEGV (all 3 checks" in text
    assert "hint: Run your functions on small inputs." in text and "Fix ex4.n_steps" not in text
    doc = markdown.dumps(report)
    assert doc.count("SIGSEGV") == 1 and "**Hint:** Run your functions on small inputs." in doc
    verbose = io.StringIO()
    print_report(report, file=verbose, verbose=True)  # verbose still lists every check
    assert verbose.getvalue().count("SIGSEGV") == 2


def test_markdown_of_an_empty_report():
    text = markdown.dumps(Report(checks=(), notes=("the grader could not run: *boom*",)))
    assert text.startswith("## jax-autograder could not grade this submission")
    assert "\\*boom\\*" in text


# --- every format agrees with the JSON report -------------------------------------------------------------------


@pytest.mark.parametrize("name", REPORTS)
def test_every_format_agrees_with_the_json_report_on_every_check(name, tmp_path):
    report = REPORTS[name]()
    want = json_scores(report)
    gs = {t["name"].split(":")[0]: (t["score"], t["max_score"]) for t in gradescope.results(report)["tests"]}
    assert gs == want
    root = junit_root(report, tmp_path)
    ju = {}
    for case in root.iter("testcase"):
        score, max_score = case.find("system-out").text.removeprefix("score: ").split(" / ")
        ju[case.get("name").split(":")[0]] = (float(score), float(max_score))
    assert_same_scores(ju, want)
    md = {}
    for row in markdown.dumps(report).splitlines():
        m = re.fullmatch(r"\| .+ \| `([\w.]+)` \| .* \| ([\d.]+) / ([\d.]+) \|", row)
        if m:
            md[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    assert_same_scores(md, want)
    _, payload = classroom_payload(report, tmp_path)
    earned: dict[str, int] = {}
    for test in payload["tests"]:
        key = test["name"].split(":")[0].split(" point ")[0]
        earned[key] = earned.get(key, 0) + test["score"]
    for check_id, (score, max_score) in want.items():
        status = next(c.status for c in report.checks if c.id == check_id)
        whole = half_up(score) if status == "pass" else min(half_up(score), half_up(max_score) - 1)
        assert earned.get(check_id, 0) == whole, check_id


# --- golden files --------------------------------------------------------------------------------------------


GOLDEN_RENDER = {
    "classroom.json": lambda r: json.dumps(classroom.payload(r), indent=2, ensure_ascii=False) + "\n",
    "gradescope.json": gradescope.dumps,
    "junit.xml": junit.dumps,
    "report.md": markdown.dumps,
}


@pytest.mark.parametrize("name", GOLDEN_RENDER)
def test_golden(name):
    got = GOLDEN_RENDER[name](sample_report())
    path = GOLDEN / name
    if UPDATE_GOLDEN:
        path.parent.mkdir(exist_ok=True)
        path.write_text(got, encoding="utf-8")
    assert path.is_file(), f"{path} is missing; write it with JAX_GRADER_UPDATE_GOLDEN=1 and review it"
    assert got == path.read_text(encoding="utf-8"), f"{name} changed; rerun with JAX_GRADER_UPDATE_GOLDEN=1 if intended"


# --- CLI, end to end --------------------------------------------------------------------------------------------


def _all_formats(tmp_path: Path) -> tuple[list[str], dict[str, Path]]:
    paths = {"json": tmp_path / "report.json", "gradescope": tmp_path / "gs" / "results.json",
             "junit": tmp_path / "junit.xml", "markdown": tmp_path / "summary.md",
             "github_output": tmp_path / "github_output"}
    paths["github_output"].write_text("")
    args = ["--json", str(paths["json"]), "--classroom", "--gradescope", str(paths["gradescope"]),
            "--junit", str(paths["junit"]), "--markdown", str(paths["markdown"])]
    return args, paths


def _read_all(paths: dict[str, Path]) -> dict:
    encoded = paths["github_output"].read_text().strip().removeprefix("result=")
    return {
        "json": json.loads(paths["json"].read_text()),
        "gradescope": json.loads(paths["gradescope"].read_text()),
        "junit": ET.parse(paths["junit"]).getroot(),
        "markdown": paths["markdown"].read_text(),
        "classroom": classroom.decode(encoded),
        "encoded": encoded,
    }


@pytest.mark.e2e
def test_cli_writes_every_format_from_one_run(tmp_path, cache_dir, monkeypatch, capsys):
    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    args, paths = _all_formats(tmp_path)
    monkeypatch.setenv("GITHUB_OUTPUT", str(paths["github_output"]))
    assert main([str(REFERENCE), *args]) == 0  # the default: every exercise, accuracy included
    out = capsys.readouterr().out
    assert f"written to {paths['github_output']}" in out
    got = _read_all(paths)
    scores = {c["id"]: c["score"] for c in got["json"]["checks"]}
    assert got["json"]["score"] == 100 and set(scores) == {c.id for c in CHECKS}
    assert got["json"]["runs"] == {ex: {"status": "ok", "detail": "", "seconds": got["json"]["runs"][ex]["seconds"]}
                                   for ex in IDS}
    assert {t["name"].split(":")[0]: t["score"] for t in got["gradescope"]["tests"]} == scores
    assert got["gradescope"]["score"] == 100
    assert_junit_schema(got["junit"])
    assert [s.get("name").split(":")[0] for s in got["junit"]] == list(IDS)
    assert {s.get("failures") for s in got["junit"]} == {"0"}
    assert "## jax-autograder: 100 / 100" in got["markdown"]
    grade, table, max_score = reporter_totals(got["classroom"])
    assert grade == table == max_score == 100 and got["classroom"]["status"] == "pass"


def test_cli_classroom_without_github_output_is_a_clear_error(monkeypatch, capsys):
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)
    assert main([str(REFERENCE), "--only", "ex3", "--classroom"]) == 2
    err = capsys.readouterr().err
    assert "$GITHUB_OUTPUT" in err and "not set" in err


def test_cli_still_writes_every_format_when_the_submission_cannot_be_graded(tmp_path, monkeypatch, capsys):
    args, paths = _all_formats(tmp_path)
    monkeypatch.setenv("GITHUB_OUTPUT", str(paths["github_output"]))
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert main([str(tmp_path / "nope"), *args]) == 2
    captured = capsys.readouterr()
    assert "does not exist" in captured.err
    start = re.search(r"^::stop-commands::([0-9a-f]{32})$", captured.out, re.MULTILINE)
    assert start and captured.out.rstrip().endswith(f"::{start.group(1)}::")
    got = _read_all(paths)
    assert got["json"]["score"] == 0 and got["json"]["max_score"] == 100
    assert {c["status"] for c in got["json"]["checks"]} == {"error"}
    assert all("does not exist" in c["message"] for c in got["json"]["checks"])
    assert got["classroom"]["status"] == "error" and got["classroom"]["max_score"] == 100
    assert got["gradescope"]["score"] == 0 and "does not exist" in got["gradescope"]["tests"][0]["output"]
    assert_junit_schema(got["junit"])
    assert "does not exist" in got["markdown"]


@pytest.mark.parametrize("behaviour", ["prints", "raises"])
def test_cli_formats_stay_bounded_when_a_submission_floods_its_output(behaviour, tmp_path, cache_dir, monkeypatch):
    """ex3 prints 5 MB at import (or raises with a 5 MB message): the payload stays small, no output leaks."""
    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    source = (REFERENCE / "ex3_mlp_forward.py").read_text()
    flood = ("import sys\nsys.stdout.write('STUDENT-OUTPUT ' * 350_000)\nsys.stderr.write('STUDENT-ERR ' * 100_000)\n"
             if behaviour == "prints" else "raise ValueError('STUDENT-OUTPUT ' * 350_000)\n")
    folder = submission_with(tmp_path, {"ex3_mlp_forward": flood + source})
    args, paths = _all_formats(tmp_path)
    monkeypatch.setenv("GITHUB_OUTPUT", str(paths["github_output"]))
    assert main([str(folder), "--only", "ex3", "-q", *args]) == 0
    got = _read_all(paths)
    assert len(got["encoded"]) <= classroom.MAX_ENCODED_BYTES
    assert_junit_schema(got["junit"])
    assert len(got["markdown"].encode()) <= markdown.MAX_BYTES
    grade, table, _ = reporter_totals(got["classroom"])
    assert grade == table == got["json"]["score"]
    if behaviour == "prints":  # printing is not an error, and what it printed goes nowhere
        assert got["json"]["score"] == 20
        for key in ("gradescope", "markdown", "encoded"):
            assert "STUDENT-OUTPUT" not in json.dumps(got[key]) and "STUDENT-ERR" not in json.dumps(got[key])
        assert "STUDENT-OUTPUT" not in paths["junit"].read_text()
    else:
        assert got["json"]["score"] == 0
        assert all(len(t["output"]) <= gradescope.MESSAGE_LIMIT for t in got["gradescope"]["tests"])
        assert got["classroom"]["status"] == "error"


# --- Gradescope packaging -------------------------------------------------------------------------------------


def test_gradescope_zip_holds_what_gradescope_and_pip_need(tmp_path, capsys):
    out = tmp_path / "autograder.zip"
    assert main(["gradescope-zip", str(out)]) == 0
    assert "autograder zip written" in capsys.readouterr().out
    with zipfile.ZipFile(out) as archive:
        names = archive.namelist()
        modes = {i.filename: (i.external_attr >> 16) & 0o777 for i in archive.infolist()}
    assert {"setup.sh", "run_autograder", "pyproject.toml", "README.md", "grader/__init__.py", "grader/cli/__init__.py",
            "grader/rubric.toml", "grader/report/classroom.py"} <= set(names)
    assert {f"reference/{p.name}" for p in REFERENCE.glob("ex*.py")} <= set(names)
    assert modes["run_autograder"] == modes["setup.sh"] == 0o755
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc") or n.startswith("tests/")]
    build_zip(tmp_path / "again.zip")
    assert (tmp_path / "again.zip").read_bytes() == out.read_bytes()  # reproducible


def test_gradescope_zip_without_reference_is_a_clear_error(tmp_path, capsys):
    assert main(["gradescope-zip", str(tmp_path / "a.zip"), "--reference", str(tmp_path)]) == 2
    assert "missing" in capsys.readouterr().err


def test_find_submission_in_what_students_upload(tmp_path):
    loose = tmp_path / "loose"
    loose.mkdir()
    (loose / "ex3_mlp_forward.py").write_text("")
    assert find_submission(loose) == loose
    nested = tmp_path / "nested"
    (nested / "__MACOSX" / "exercises").mkdir(parents=True)
    (nested / "__MACOSX" / "exercises" / "ex1_dropout.py").write_text("")
    (nested / "my work" / "exercises").mkdir(parents=True)
    (nested / "my work" / "exercises" / "ex1_dropout.py").write_text("")
    assert find_submission(nested) == nested / "my work" / "exercises"
    notebook = tmp_path / "notebook"
    notebook.mkdir()
    (notebook / "lesson.ipynb").write_text("{}")
    (notebook / "answers.md").write_text("")
    assert find_submission(notebook) == notebook / "lesson.ipynb"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert find_submission(empty) == empty


@pytest.mark.e2e
@pytest.mark.skipif(shutil.which("bash") is None, reason="run_autograder is a bash script")
def test_run_autograder_grades_an_upload_into_results_json(tmp_path, cache_dir):
    source = tmp_path / "source"
    build_zip(tmp_path / "a.zip")
    with zipfile.ZipFile(tmp_path / "a.zip") as archive:
        archive.extractall(source)
    (source / "run_autograder").chmod(0o755)
    upload = tmp_path / "submission" / "exercises"
    shutil.copytree(REFERENCE, upload)  # a whole submission, graded as Gradescope does by default
    (upload / "answers.md").write_text("Clipping changed nothing.")
    results = tmp_path / "results" / "results.json"
    env = {**os.environ, "JAX_GRADER_SOURCE": str(source), "JAX_GRADER_SUBMISSION": str(tmp_path / "submission"),
           "JAX_GRADER_RESULTS": str(results), "JAX_GRADER_PYTHON": sys.executable,
           "JAX_GRADER_CACHE": str(cache_dir)}
    proc = subprocess.run(["bash", str(source / "run_autograder")], env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(results.read_text())
    assert data["score"] == 100 and {t["status"] for t in data["tests"]} == {"passed"}
    assert "Clipping changed nothing." in data["output"]
    assert "Total: 100 / 100" in proc.stdout  # the grader's log is Gradescope's stdout (instructors only)


# --- workflow templates ---------------------------------------------------------------------------------------


CLASSROOM_WORKFLOW = ROOT / ".github" / "classroom" / "autograding.yml"
CI_WORKFLOW = ROOT / "templates" / "grade-in-ci.yml"


def _step(text: str, name: str) -> str:
    """The lines of the workflow step named ``name``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == f"- name: {name}")
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = next((j for j in range(start + 1, len(lines))
                if lines[j].strip() and len(lines[j]) - len(lines[j].lstrip()) <= indent), len(lines))
    return "\n".join(lines[start:end])


def test_classroom_workflow_wires_the_grader_to_the_reporter():
    text = CLASSROOM_WORKFLOW.read_text()
    assert "\t" not in text
    assert text.count("\nname: Autograding Tests\n") == 1 and "\n  run-autograding-tests:\n" in text
    assert "permissions:\n  checks: write\n  actions: read\n  contents: read\n" in text
    assert "if: github.actor != 'github-classroom[bot]'" in text
    grade = _step(text, "Grade")
    assert f"id: {classroom.RUNNER_ID}" in grade
    assert "--classroom" in grade and '--markdown "$GITHUB_STEP_SUMMARY"' in grade
    assert "python-version: '3.11'" in _step(text, "Set up Python")
    reporter = _step(text, "Autograding Reporter")
    assert "uses: classroom-resources/autograding-grading-reporter@v1" in reporter
    assert "if: always()" in reporter
    assert (f'{classroom.RUNNER_ID.upper()}_RESULTS: "${{{{ steps.{classroom.RUNNER_ID}.outputs.'
            f'{classroom.OUTPUT_NAME} }}}}"') in reporter
    assert f"runners: {classroom.RUNNER_ID}" in reporter
    assert not (ROOT / ".github" / "workflows" / "classroom.yml").exists()


def test_ci_workflow_template_fails_under_a_score_and_keeps_the_reports():
    text = CI_WORKFLOW.read_text()
    grade = _step(text, "Grade")
    assert '--fail-under "$FAIL_UNDER"' in grade and "--junit" in grade and "--json" in grade
    assert '--markdown "$GITHUB_STEP_SUMMARY"' in grade
    assert "if: always()" in _step(text, "Keep the reports")
