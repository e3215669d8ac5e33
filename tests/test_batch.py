"""Batch grading: discovery, safe unpacking, resume, shards, outputs and summary.

Most tests replace the engine's ``grade`` with a fast fake whose report
depends only on the submission's content, and grade in threads
(``isolate=False``), so no JAX runs. The ``test_real_*`` tests grade ``ex3``
through worker processes end to end: a class with a crash, a hang, bad
archives and a duplicate id, and a batch killed and resumed.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
import zipfile
from dataclasses import replace
from pathlib import Path

import nbformat
import pytest
from conftest import EXERCISES_DIR, REFERENCE, ROOT, alive_under

from grader.batch import discover as disc
from grader.batch import grading, pool, runner, state
from grader.batch.discover import InvalidSubmission, discover, find_code, unpack_zip
from grader.batch.grading import Outcome, classify
from grader.batch.merge import MergeError, merge
from grader.batch.outputs import csv_text, fmt_points
from grader.batch.progress import Progress
from grader.batch.runner import run_batch
from grader.batch.summary import analyse, to_html, to_markdown
from grader.cli import main as grader_main
from grader.config import BatchOptions, Options
from grader.sandbox import Limits
from grader.engine import CHECKS
from grader.results import CheckResult, Report, RunRecord
from grader.rubric import load_rubric
from grader.submission import MODULES, load_submission

POINTS = load_rubric(CHECKS).points
EX3 = MODULES["ex3"]


# ---------------------------------------------------------------- a fake engine and a class folder


def fake_grade(path, options) -> Report:
    """A report that depends only on the submission's code: each check passes on one bit of its hash."""
    submission = load_submission(path)  # the real loader: a folder without exercise files is refused
    text = "".join(submission.sources[name] for name in sorted(submission.sources))
    if "GRADER_BUG" in text:
        raise RuntimeError("the judge tripped over something")
    digest = hashlib.sha256(text.encode()).digest()
    checks = []
    runs = {exercise: RunRecord("ok") for exercise in options.only}
    if "HANGS" in text and "ex3" in runs:
        runs["ex3"] = RunRecord("timeout", "killed after the 3 s time limit")
    for i, check in enumerate(c for c in CHECKS if c.exercise in options.only):
        points = POINTS[check.id]
        message, status, score = "", "pass", points
        if "HANGS" in text and check.exercise == "ex3":
            status, score, message = "error", 0.0, "running ex3 ran too long: killed after the 3 s time limit"
        elif digest[i % len(digest)] & 1:
            status, score = "fail", 0.0
        checks.append(CheckResult(check.id, check.exercise, check.name, status, score, points, message,
                                  "" if status == "pass" else f"Look again at {check.id}."))
    return Report(checks=tuple(checks), submission=str(path), timings={"total": 0.01}, runs=runs)


@pytest.fixture
def fake(monkeypatch):
    """Grade with :func:`fake_grade`; ``fake.calls`` lists the paths graded."""
    calls: list[str] = []

    def grade(path, options):
        calls.append(Path(path).name)
        return fake_grade(path, options)

    monkeypatch.setattr(grading, "grade", grade)
    monkeypatch.setattr(runner, "warm_reference", lambda options, scratch: None)
    grade.calls = calls  # type: ignore[attr-defined]
    return grade


def _write_folder(folder: Path, tag: str, modules=MODULES.values()) -> Path:
    folder.mkdir(parents=True)
    for name in modules:
        (folder / f"{name}.py").write_text(f"# {tag}\ndef f():\n    return {tag!r}\n")
    return folder


def _zip(path: Path, members: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in members.items():
            zf.writestr(name, text)
    return path


def make_class(root: Path) -> Path:
    """Every kind of entry: good ones in every form, and every way an entry can go wrong."""
    root.mkdir(parents=True)
    _write_folder(root / "alice", "alice")
    (root / "bob.py").write_text("# bob: every function in one file\n")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("%matplotlib inline\nx = 'carol'")])
    nbformat.write(notebook, str(root / "carol.ipynb"))
    _zip(root / "dave.zip", {f"dave-submission/{n}.py": f"# dave {n}\n" for n in MODULES.values()})
    _zip(root / "erin.zip", {f"{EX3}.py": "x = 1\n", "../../escaped.py": "pwned = True\n"})
    (root / "frank.zip").write_bytes(b"PK\x03\x04 this is not really a zip")
    (root / "gina").mkdir()
    _write_folder(root / "hank", "hank")
    _zip(root / "hank.zip", {f"{EX3}.py": "# hank zipped\n"})
    (root / "ivan.txt").write_text("my homework is in my other folder\n")
    _write_folder(root / "judy", "GRADER_BUG")
    _write_folder(root / "ken", "HANGS")
    (root / ".DS_Store").write_bytes(b"\0\0")
    return root


EXPECTED = {
    "alice": "graded", "bob": "graded", "carol": "graded", "dave": "graded", "erin": "invalid",
    "frank": "invalid", "gina": "invalid", "hank": "duplicate", "ivan.txt": "invalid", "judy": "error",
    "ken": "timeout",
}


def read_grades(out: Path, drop=("seconds",)) -> list[dict]:
    with (out / "grades.csv").open(newline="") as handle:
        return [{k: v for k, v in row.items() if k not in drop} for row in csv.DictReader(handle)]


def snapshot(root: Path, skip: tuple[Path, ...] = ()) -> dict[str, str]:
    """Every file under ``root`` (outside ``skip``) with its content hash."""
    found = {}
    for path in sorted(root.rglob("*")):
        if any(path == s or s in path.parents for s in skip):
            continue
        found[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
    return found


def config(tmp_path: Path, out: str = "out", options: Options = Options(only=("ex1", "ex3", "ex5")),
           **kwargs) -> Options:
    return replace(options, batch=BatchOptions(tmp_path / "class", tmp_path / out, isolate=False, **kwargs))


# ---------------------------------------------------------------- discovery and archives


def test_discover_names_every_entry_once(tmp_path):
    entries = {e.id: e for e in discover(make_class(tmp_path / "class"))}
    assert set(entries) == set(EXPECTED)
    assert {sid: e.kind for sid, e in entries.items()} == {
        "alice": "folder", "bob": "py", "carol": "ipynb", "dave": "zip", "erin": "zip", "frank": "zip",
        "gina": "folder", "hank": "duplicate", "ivan.txt": "other", "judy": "folder", "ken": "folder"}
    assert entries["hank"].describe() == "hank/, hank.zip"


@pytest.mark.parametrize("member", ["../evil.py", "../../etc/evil.py", "/tmp/evil.py", "a/../../evil.py",
                                    "a\\..\\..\\evil.py", "C:/evil.py"])
def test_unpack_refuses_paths_outside_the_folder(tmp_path, member):
    archive = _zip(tmp_path / "s.zip", {f"{EX3}.py": "x = 1\n", member: "pwned = True\n"})
    with pytest.raises(InvalidSubmission, match="outside"):
        unpack_zip(archive, tmp_path / "box" / "dest")
    assert not (tmp_path / "box" / "dest").exists()
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["box", "s.zip"]


def test_unpack_refuses_links_and_oversized_archives(tmp_path):
    link = zipfile.ZipInfo("ex3_mlp_forward.py")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    archive = tmp_path / "link.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(link, "/etc/passwd")
    with pytest.raises(InvalidSubmission, match="link"):
        unpack_zip(archive, tmp_path / "a")

    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(f"{EX3}.py", "0" * (3 << 20))  # compresses to a few kB
    assert bomb.stat().st_size < 50_000
    with pytest.raises(InvalidSubmission, match="more than 1 MB"):
        unpack_zip(bomb, tmp_path / "b", max_bytes=1 << 20)
    assert not (tmp_path / "b").exists()

    many = _zip(tmp_path / "many.zip", {f"f{i}.py": "" for i in range(30)})
    with pytest.raises(InvalidSubmission, match="30 files"):
        unpack_zip(many, tmp_path / "c", max_members=20)


def test_find_code_looks_through_one_wrapping_folder(tmp_path):
    archive = _zip(tmp_path / "s.zip", {"outer/inner/ex3_mlp_forward.py": "", "__MACOSX/._x": "",
                                        "outer/inner/answers.md": ""})
    assert find_code(unpack_zip(archive, tmp_path / "u")) == tmp_path / "u" / "outer" / "inner"
    notebook = tmp_path / "nb"
    notebook.mkdir()
    (notebook / "homework.ipynb").write_text("{}")
    (notebook / "data.csv").write_text("1,2\n")
    assert find_code(notebook) == notebook / "homework.ipynb"
    both = tmp_path / "both"
    both.mkdir()
    (both / "a.ipynb").write_text("{}")
    (both / "b.ipynb").write_text("{}")
    with pytest.raises(InvalidSubmission, match="cannot tell which files"):
        find_code(both)


def test_ids_become_safe_folder_names():
    for sid in ["alice", "a b", "..", ".", "../x", "x/y", "=cmd", "ünï"]:
        name = disc.safe_name(sid)
        assert "/" not in name and name not in (".", "..") and not name.startswith(".")
    assert disc.safe_name("alice") == "alice"
    assert disc.safe_name("a b") != disc.safe_name("a_b")


def test_cores_go_to_submissions_first():
    assert [runner.runs_per_submission(2, n) for n in (0, 1, 2, 30)] == [2, 2, 1, 1]
    assert [runner.runs_per_submission(8, n) for n in (1, 3, 8)] == [8, 2, 1]


def test_shards_partition_the_class():
    ids = [f"student{i:03d}" for i in range(200)]
    shards = [[s for s in ids if disc.shard_of(s, 4) == k] for k in range(4)]
    assert sorted(sum(shards, [])) == ids
    assert all(30 < len(s) < 70 for s in shards)


# ---------------------------------------------------------------- one row per student, whatever happened


def test_every_student_gets_exactly_one_row_saying_what_happened(tmp_path, fake):
    make_class(tmp_path / "class")
    before = snapshot(tmp_path)
    result = run_batch(config(tmp_path))
    rows = read_grades(tmp_path / "out")
    assert [r["student"] for r in rows] == sorted(EXPECTED)
    assert {r["student"]: r["status"] for r in rows} == EXPECTED
    by_id = {r["student"]: r for r in rows}
    assert "outside" in by_id["erin"]["detail"] and "escaped.py" in by_id["erin"]["detail"]
    assert "not a readable zip" in by_id["frank"]["detail"]
    assert "empty" in by_id["gina"]["detail"]
    assert "hank/, hank.zip" in by_id["hank"]["detail"]
    assert "RuntimeError" in by_id["judy"]["detail"] and "grader problem" in by_id["judy"]["detail"]
    assert by_id["ken"]["detail"] == "ex3 ran too long" and by_id["ken"]["total"] != ""
    for sid, status in EXPECTED.items():
        scored = status in grading.SCORED
        assert (by_id[sid]["total"] != "") == scored, sid
        assert (tmp_path / "out" / "students" / sid / "report.json").is_file()
        assert (tmp_path / "out" / "students" / sid / "feedback.md").is_file()
    assert len(result.outcomes) == len(EXPECTED) and not result.interrupted
    # Nothing changed outside OUT_DIR: the class folder is as it was, no ../ member escaped.
    assert snapshot(tmp_path, skip=(tmp_path / "out",)) == before
    assert not (tmp_path / "out" / ".work").exists()
    report = json.loads((tmp_path / "out" / "students" / "frank" / "report.json").read_text())
    assert report["schema_version"] == 1 and report["score"] == 0
    assert all(c["status"] == "error" and "not a readable zip" in c["message"] for c in report["checks"])


def test_text_a_submission_controls_cannot_break_the_writers(tmp_path, fake, monkeypatch):
    def forged(path, options):
        report = fake_grade(path, options)
        first = replace(report.checks[0], message="raised ValueError: \ud800 lone surrogate", status="error")
        return replace(report, checks=(first, *report.checks[1:]), answers="\udcff")

    monkeypatch.setattr(grading, "grade", forged)
    _write_folder(tmp_path / "class" / "mallory", "mallory")
    run_batch(config(tmp_path, formats=("json", "markdown", "junit", "gradescope")))
    report = json.loads((tmp_path / "out" / "students" / "mallory" / "report.json").read_text())
    assert "lone surrogate" in report["checks"][0]["message"]
    assert read_grades(tmp_path / "out")[0]["status"] == "graded"


def test_grades_csv_is_ready_for_an_lms(tmp_path, fake):
    make_class(tmp_path / "class")
    _write_folder(tmp_path / "class" / "=HYPERLINK(1)", "formula")
    run_batch(config(tmp_path))
    with (tmp_path / "out" / "grades.csv").open(newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["student", "total", "max", "ex1", "ex3", "ex5", "status", "seconds", "detail"]
    alice = next(r for r in rows if r[0] == "alice")
    assert alice[2] == fmt_points(sum(p for cid, p in POINTS.items() if cid.split(".")[0] in ("ex1", "ex3", "ex5")))
    assert "." not in alice[1]  # whole points: the rubric gives whole points
    assert float(alice[1]) == float(alice[3]) + float(alice[4]) + float(alice[5])
    assert any(r[0] == "'=HYPERLINK(1)" for r in rows)
    assert fmt_points(3.0) == "3" and fmt_points(6.5) == "6.5" and fmt_points(1 / 3) == "0.33"
    assert csv_text("-1+2") == "'-1+2" and csv_text("a\nb") == "a b"


def test_jobs_do_not_change_grades(tmp_path, fake):
    make_class(tmp_path / "class")
    run_batch(config(tmp_path, "one", jobs=1))
    run_batch(config(tmp_path, "four", jobs=4))
    assert read_grades(tmp_path / "one") == read_grades(tmp_path / "four")
    assert (tmp_path / "one" / "summary.md").read_text() != ""


# ---------------------------------------------------------------- resume


def test_rerun_grades_only_what_changed(tmp_path, fake):
    make_class(tmp_path / "class")
    run_batch(config(tmp_path))
    first = read_grades(tmp_path / "out")
    graded = len(fake.calls)
    assert graded == 6  # folders, files and good archives reach the engine; the rest never do

    fake.calls.clear()
    result = run_batch(config(tmp_path))
    assert fake.calls == ["judy"]  # only the grader's failure is tried again
    assert result.reused == len(EXPECTED) - 1 and read_grades(tmp_path / "out") == first

    fake.calls.clear()
    (tmp_path / "class" / "alice" / f"{EX3}.py").write_text("# alice, second attempt\n")
    shutil.rmtree(tmp_path / "class" / "gina")
    run_batch(config(tmp_path))
    assert sorted(fake.calls) == ["alice", "judy"]
    rows = read_grades(tmp_path / "out")
    assert "gina" not in {r["student"] for r in rows} and not (tmp_path / "out" / "students" / "gina").exists()

    fake.calls.clear()
    run_batch(config(tmp_path, force=True))
    assert len(fake.calls) == graded

    fake.calls.clear()
    run_batch(config(tmp_path, options=Options(only=("ex3",))))  # other settings: other grades
    assert len(fake.calls) == graded
    assert read_grades(tmp_path / "out")[0].keys() >= {"ex3"} and "ex1" not in read_grades(tmp_path / "out")[0]


def test_an_interrupted_batch_resumes(tmp_path, fake, monkeypatch):
    make_class(tmp_path / "class")
    original = grading.grade_entry
    seen = []

    def interrupt_after_three(entry, *args, **kwargs):
        if len(seen) == 3:
            raise KeyboardInterrupt
        seen.append(entry.id)
        return original(entry, *args, **kwargs)

    monkeypatch.setattr(runner, "grade_entry", interrupt_after_three)
    result = run_batch(config(tmp_path, jobs=1))
    assert result.interrupted and len(seen) == 3
    rows = read_grades(tmp_path / "out")
    assert len(rows) == len(EXPECTED) and sum(r["status"] == "pending" for r in rows) == len(EXPECTED) - 3
    assert "Incomplete" in (tmp_path / "out" / "summary.md").read_text()
    assert not state.read_manifest(tmp_path / "out")["complete"]

    monkeypatch.setattr(runner, "grade_entry", original)
    fake.calls.clear()
    result = run_batch(config(tmp_path, jobs=1))
    assert result.reused == 3 and not result.interrupted
    run_batch(config(tmp_path, "fresh", jobs=1))
    assert read_grades(tmp_path / "out") == read_grades(tmp_path / "fresh")
    assert state.read_manifest(tmp_path / "out")["complete"]


def test_a_torn_state_line_is_ignored(tmp_path, fake):
    make_class(tmp_path / "class")
    run_batch(config(tmp_path))
    path = tmp_path / "out" / state.STATE
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])  # killed mid-write
    assert len(state.load(tmp_path / "out")) == len(EXPECTED) - 1
    fake.calls.clear()
    run_batch(config(tmp_path))
    assert len(state.load(tmp_path / "out")) == len(EXPECTED)
    assert sorted(fake.calls) == ["judy", "ken"]  # the torn line, and the grader failure tried again


# ---------------------------------------------------------------- shards and merge


def _items_section(out: Path) -> str:
    text = (out / "summary.md").read_text()
    return text[text.index("## Scores"):text.index("## Slowest")]  # all but timings


def test_merged_shards_equal_one_run(tmp_path, fake):
    make_class(tmp_path / "class")
    for i in range(12):
        _write_folder(tmp_path / "class" / f"s{i:02d}", f"student {i}")
    run_batch(config(tmp_path, "whole"))
    shards = [tmp_path / f"shard{k}" for k in (1, 2, 3)]
    for k, out in enumerate(shards, start=1):
        run_batch(config(tmp_path, out.name, shard=(k, 3)))
    sizes = [len(read_grades(out)) for out in shards]
    assert sum(sizes) == len(read_grades(tmp_path / "whole")) and min(sizes) > 0
    merge(shards, tmp_path / "merged")
    assert read_grades(tmp_path / "merged") == read_grades(tmp_path / "whole")
    assert _items_section(tmp_path / "merged") == _items_section(tmp_path / "whole")
    assert sorted(p.name for p in (tmp_path / "merged" / "students").iterdir()) == \
        sorted(p.name for p in (tmp_path / "whole" / "students").iterdir())

    with pytest.raises(MergeError, match="2/3 are missing"):
        merge([shards[0], shards[2]], tmp_path / "m2")
    merge([shards[0], shards[2]], tmp_path / "m3", partial=True)
    assert len(read_grades(tmp_path / "m3")) == sizes[0] + sizes[2]
    with pytest.raises(MergeError, match="given twice"):
        merge([shards[0], shards[0], shards[1]], tmp_path / "m4")
    run_batch(config(tmp_path, "other", shard=(2, 3), options=Options(only=("ex3",))))
    with pytest.raises(MergeError, match="different settings"):
        merge([shards[0], tmp_path / "other", shards[2]], tmp_path / "m5")


# ---------------------------------------------------------------- the output folder


def test_output_folder_rules(tmp_path, fake):
    make_class(tmp_path / "class")
    with pytest.raises(state.OutDirError, match="contain one another"):
        run_batch(Options(batch=BatchOptions(tmp_path / "class", tmp_path / "class" / "out", isolate=False)))
    assert not (tmp_path / "class" / "out").exists()
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "thesis.tex").write_text("precious")
    with pytest.raises(state.OutDirError, match="did not write"):
        run_batch(config(tmp_path, "mine"))
    held = state.prepare(tmp_path / "out")
    try:
        with pytest.raises(state.OutDirError, match="another batch"):
            run_batch(config(tmp_path))
    finally:
        held.close()
    run_batch(config(tmp_path))


def test_cli_batch_then_merge(tmp_path, fake, capsys):
    make_class(tmp_path / "class")
    common = ["--only", "ex3", "--in-process", "--formats", "junit,gradescope"]
    assert grader_main(["batch", str(tmp_path / "class"), "--out", str(tmp_path / "a"), "--shard", "1/2", *common]) == 0
    assert grader_main(["batch", str(tmp_path / "class"), "--out", str(tmp_path / "b"), "--shard", "2/2", *common]) == 0
    out = capsys.readouterr()
    assert "grades.csv" in out.out and "[1/" in out.err  # plain progress lines when not on a terminal
    assert grader_main(["merge", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(tmp_path / "m"),
                        "--formats", "junit"]) == 0
    assert {r["student"] for r in read_grades(tmp_path / "m")} == set(EXPECTED)
    assert (tmp_path / "a" / "students").is_dir()
    some = next((tmp_path / "a" / "students").iterdir())
    assert sorted(p.name for p in some.iterdir()) == ["feedback.md", "gradescope.json", "junit.xml", "report.json"]
    with pytest.raises(SystemExit):
        grader_main(["batch", str(tmp_path / "class"), "--out", str(tmp_path / "x"), "--shard", "3/2"])
    with pytest.raises(SystemExit):
        grader_main(["batch", str(tmp_path / "class"), "--out", str(tmp_path / "x"), "--formats", "pdf"])
    assert grader_main(["merge", str(tmp_path / "class"), "--out", str(tmp_path / "y")]) == 2
    assert "not the output folder of a batch" in capsys.readouterr().err


def test_progress_bar_on_a_terminal(tmp_path):
    stream = io.StringIO()
    progress = Progress(stream, bar=True)
    progress("start", (3, 1, 2))
    progress("done", Outcome("a", "graded", seconds=1.0, report=Report(checks=())))
    progress("done", Outcome("b", "error", "boom", seconds=1.0))
    progress("finish", runner.BatchResult([], 2, 1, 2.0))
    text = stream.getvalue()
    assert "\r[" in text and "3/3 done, 1 failing" in text and "done: 3/3 submissions" in text


# ---------------------------------------------------------------- statuses and summary


def test_run_failures_set_the_status():
    def report(**runs):
        checks = tuple(CheckResult(f"{ex}.c", ex, "n", "error", 0, 1, "running it ran too long (words not read)")
                       for ex in runs)
        return Report(checks=checks, notes=("ex1_dropout.py is missing",),
                      runs={ex: RunRecord(status, "why") for ex, status in runs.items()})

    assert classify(report(ex3="ok")) == ("graded", "ex1_dropout.py is missing")
    assert classify(report(ex3="ok"), only=("ex3",)) == ("graded", "")  # notes on exercises not graded: left out
    assert classify(report(ex1="not_run", ex3="ok"), only=("ex1", "ex3"))[0] == "graded"  # a missing file costs points
    assert classify(report(ex3="crashed"))[0] == "crashed"
    assert classify(report(ex3="bad_output"))[0] == "crashed"
    assert classify(report(ex1="crashed", ex3="timeout"))[0] == "timeout"
    status, detail = classify(report(ex1="memory", ex3="timeout", ex5="ok"), only=("ex1", "ex3", "ex5"))
    assert status == "timeout" and detail == "ex1 ran out of memory; ex3 ran too long; ex1_dropout.py is missing"


def test_run_records_round_trip_through_the_json_report():
    report = Report(checks=(), runs={"ex1": RunRecord("memory", "an allocation failed", 1.5),
                                     "ex2": RunRecord("not_run", "the submission has no ex2_per_example_grads.py")})
    data = json.loads(json.dumps(report.to_json()))
    assert data["runs"]["ex1"] == {"status": "memory", "detail": "an allocation failed", "seconds": 1.5}
    assert Report.from_json(data).runs == report.runs
    data["runs"]["ex1"]["status"] = "exploded"
    with pytest.raises(ValueError, match="unknown run status 'exploded'"):
        Report.from_json(data)


def _outcome(sid: str, passed: dict[str, bool], status: str = "graded", detail: str = "") -> Outcome:
    checks = tuple(CheckResult(cid, cid.split(".")[0], f"checks {cid}", "pass" if ok else "fail",
                               2.0 if ok else 0.0, 2.0, "", "" if ok else f"Fix {cid}.") for cid, ok in passed.items())
    return Outcome(sid, status, detail, seconds=len(sid), report=Report(checks=checks))


def test_item_analysis_and_hints():
    outcomes = [
        _outcome("s1", {"ex1.a": True, "ex1.b": True, "ex3.c": False}),
        _outcome("s2", {"ex1.a": True, "ex1.b": False, "ex3.c": False}),
        _outcome("s3", {"ex1.a": False, "ex1.b": False, "ex3.c": False}),
        _outcome("s4", {"ex1.a": True, "ex1.b": True, "ex3.c": True}),
        Outcome("<script>alert(1)</script>", "invalid", "a | b <b>bold</b>"),
    ]
    analysis = analyse(outcomes)
    items = {i.id: i for i in analysis.items}
    assert (items["ex1.a"].passed, items["ex1.a"].graded) == (3, 4)
    assert items["ex3.c"].pass_rate == 0.25
    assert items["ex1.a"].discrimination is not None and items["ex1.a"].discrimination > 0.5
    assert analysis.hints[0] == ("Fix ex3.c.", 3, ["ex3.c"])
    assert analysis.totals == [4.0, 2.0, 0.0, 6.0] and analysis.statuses == {"graded": 4, "invalid": 1}
    page = to_html(analysis)
    assert "<script>" not in page and "&lt;script&gt;" in page and "&lt;b&gt;bold" in page
    assert 'src="histogram.png"' in page and "Item analysis" in page
    text = to_markdown(analysis)
    assert "\\<script\\>" in text and "a \\| b" in text
    assert text.index("`ex3.c`") < text.index("`ex1.a`")  # hardest first


# ---------------------------------------------------------------- the page in a browser

CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium (apt-get install -y chromium) "
                                                  "to screenshot summary.html")
def test_summary_page_renders_in_headless_chromium(tmp_path, fake):
    import matplotlib.image

    make_class(tmp_path / "class")
    for i in range(20):
        _write_folder(tmp_path / "class" / f"s{i:02d}", f"student {i}")
    run_batch(config(tmp_path))
    shot = tmp_path / "shot.png"
    subprocess.run(
        [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
         f"--screenshot={shot}", "--window-size=1200,1600", (tmp_path / "out" / "summary.html").as_uri()],
        check=True, capture_output=True, timeout=120,
    )
    pixels = matplotlib.image.imread(shot)[..., :3]
    assert pixels.shape[:2] == (1600, 1200)
    ink = (pixels.min(axis=2) < 0.9).mean()
    assert ink > 0.03, f"the page looks blank ({ink:.1%} of pixels are not white)"
    histogram_blue = (abs(pixels[..., 0] - 0x3B / 255) < 0.06) & (abs(pixels[..., 1] - 0x7D / 255) < 0.06) & \
        (abs(pixels[..., 2] - 0xD8 / 255) < 0.06)
    assert histogram_blue.sum() > 2000, "the histogram's bars are not on the page"
    rows = pixels[:, :, 1] < 0.8  # the pass-rate bars of the item-analysis table are green, amber or red
    assert rows.sum() > 500


# ---------------------------------------------------------------- end to end, with the real engine

#: A submission that never returns; it waits rather than spins, so that it leaves the CPU to the other tests
#: (tests/corpus/hostile has one that spins, and one that waits, each graded alone).
HANG = "import threading\n\n\ndef mlp_forward(params, x):\n    threading.Event().wait()\n"
CRASH = "import os\n\n\ndef mlp_forward(params, x):\n    os._exit(3)\n"


def real_class(root: Path) -> Path:
    root.mkdir()
    shutil.copytree(REFERENCE, root / "alice")
    (root / "crash").mkdir()
    (root / "crash" / f"{EX3}.py").write_text(CRASH)
    (root / "hang").mkdir()
    (root / "hang" / f"{EX3}.py").write_text(HANG)
    (root / "corrupt.zip").write_bytes(b"PK\x05\x06" + b"\0" * 10)
    _zip(root / "sneaky.zip", {f"{EX3}.py": (REFERENCE / f"{EX3}.py").read_text(), "../../sneaky.py": "x = 1"})
    (root / "empty").mkdir()
    shutil.copytree(EXERCISES_DIR, root / "bob")
    _zip(root / "bob.zip", {f"{EX3}.py": (REFERENCE / f"{EX3}.py").read_text()})
    return root


@pytest.mark.e2e
def test_real_class_end_to_end(tmp_path, cache_dir, monkeypatch):
    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    real_class(tmp_path / "class")
    before = snapshot(tmp_path)
    out = tmp_path / "out"
    code = grader_main(["batch", str(tmp_path / "class"), "--out", str(out), "--only", "ex3", "--timeout", "10",
                        "--jobs", "2", "-q"])
    assert code == 0
    rows = {r["student"]: r for r in read_grades(out)}
    assert {sid: r["status"] for sid, r in rows.items()} == {
        "alice": "graded", "bob": "duplicate", "corrupt": "invalid", "crash": "crashed", "empty": "invalid",
        "hang": "timeout", "sneaky": "invalid"}
    assert rows["alice"]["total"] == "20" and rows["alice"]["ex3"] == "20"
    assert rows["crash"]["total"] == "0" and "ex3 crashed" in rows["crash"]["detail"]
    assert rows["hang"]["total"] == "0" and rows["hang"]["detail"] == "ex3 ran too long"
    assert "outside" in rows["sneaky"]["detail"]
    crash = json.loads((out / "students" / "crash" / "report.json").read_text())
    assert crash["submission"] == "crash/" and "status 3" in crash["checks"][0]["message"]
    assert snapshot(tmp_path, skip=(out, cache_dir)) == before
    assert not (out / ".work").exists() and alive_under(out) == []
    assert "Item analysis" in (out / "summary.html").read_text()


@pytest.mark.e2e
def test_real_stuck_submission_is_stopped_at_its_deadline(tmp_path, cache_dir):
    """The worker past its deadline is killed with its children; the next submission gets a fresh worker.

    The deadline leaves the next submission room for a fresh worker (JAX imported anew, one exercise graded) on a
    loaded machine.
    """
    (tmp_path / "class" / "hang").mkdir(parents=True)
    (tmp_path / "class" / "hang" / f"{EX3}.py").write_text(HANG)
    shutil.copytree(REFERENCE, tmp_path / "class" / "later")
    result = run_batch(Options(only=("ex3",), limits=Limits(timeout=300), cache_dir=cache_dir,
                               batch=BatchOptions(tmp_path / "class", tmp_path / "out", jobs=1, submission_timeout=12)))
    hang, later = result.outcomes
    assert hang.status == "timeout" and "took longer than 12 s" in hang.detail and hang.report is None
    assert 12 <= hang.seconds < 27
    assert later.status == "graded" and later.report.score == 20
    assert alive_under(tmp_path / "out") == []


def _workers_started(monkeypatch) -> list[int]:
    """Record the pid of every batch worker process started from now on."""
    started: list[int] = []
    original = pool.Worker.__init__

    def init(self, log):
        original(self, log)
        started.append(self.proc.pid)

    monkeypatch.setattr(pool.Worker, "__init__", init)
    return started


@pytest.mark.e2e
def test_real_workers_grade_submission_after_submission(tmp_path, cache_dir, monkeypatch):
    """One worker per job slot for the whole class, each submission still graded from scratch."""
    started = _workers_started(monkeypatch)
    for name in ("a", "b", "c"):
        shutil.copytree(REFERENCE, tmp_path / "class" / name)
    shutil.copy(ROOT / "tests" / "corpus" / "mutants" / f"{EX3}__string_order.py", tmp_path / "class" / "b" / f"{EX3}.py")
    result = run_batch(Options(only=("ex3",), cache_dir=cache_dir,
                               batch=BatchOptions(tmp_path / "class", tmp_path / "out", jobs=1)))
    assert [(o.id, o.status, o.report.score) for o in result.outcomes] == [
        ("a", "graded", 20), ("b", "graded", result.outcomes[1].report.score), ("c", "graded", 20)]
    assert result.outcomes[1].report.score < 20  # the mutant between two correct ones changes nothing around it
    assert len(started) == 1
    assert alive_under(tmp_path / "out") == [] and all(not Path(f"/proc/{pid}").exists() for pid in started)


@pytest.mark.e2e
def test_real_worker_that_dies_costs_only_its_submission(tmp_path, cache_dir, monkeypatch):
    """A worker killed mid-grade gives that submission an error row; the next one is graded by a new worker."""
    import threading

    started = _workers_started(monkeypatch)
    (tmp_path / "class" / "doomed").mkdir(parents=True)
    (tmp_path / "class" / "doomed" / f"{EX3}.py").write_text(HANG)
    shutil.copytree(REFERENCE, tmp_path / "class" / "later")
    options = Options(only=("ex3",), limits=Limits(timeout=120), cache_dir=cache_dir,
                      batch=BatchOptions(tmp_path / "class", tmp_path / "out", jobs=1))
    done: list = []
    thread = threading.Thread(target=lambda: done.append(run_batch(options)))
    thread.start()
    deadline = time.monotonic() + 60
    while not started and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(3)  # well into grading the hanging submission
    os.kill(started[0], signal.SIGKILL)
    thread.join(timeout=120)
    (result,) = done
    doomed, later = result.outcomes
    assert doomed.status == "error" and "ended with status -9 without a result" in doomed.detail
    assert "grader problem, not the student's" in doomed.detail
    assert later.status == "graded" and later.report.score == 20
    assert len(started) == 2
    time.sleep(1)  # the dead worker's children noticed (its fork server sees its socket close)
    assert alive_under(tmp_path / "out") == []


@pytest.mark.e2e
def test_real_killed_batch_resumes_to_the_same_grades(tmp_path, cache_dir):
    root = tmp_path / "class"
    root.mkdir()
    shutil.copytree(REFERENCE, root / "alice")
    shutil.copytree(EXERCISES_DIR, root / "bob")
    mutants = sorted((ROOT / "tests" / "corpus" / "mutants").glob(f"{EX3}__*.py"))[:1]
    for i, mutant in enumerate(mutants):
        (root / f"mutant{i}").mkdir()
        shutil.copy(mutant, root / f"mutant{i}" / f"{EX3}.py")
    (root / "single.py").write_text((REFERENCE / f"{EX3}.py").read_text())
    env = {**os.environ, "JAX_GRADER_CACHE": str(cache_dir)}

    def batch(out: Path, jobs: int) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "grader", "batch", str(root), "--out", str(out),
                                 "--only", "ex3", "--jobs", str(jobs), "--timeout", "60"],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    whole = batch(tmp_path / "whole", 2)
    killed = batch(tmp_path / "killed", 1)
    statefile = tmp_path / "killed" / state.STATE
    deadline = time.monotonic() + 240
    while not (statefile.is_file() and statefile.read_text().count("\n") >= 1):
        assert killed.poll() is None and time.monotonic() < deadline, killed.communicate()
        time.sleep(0.1)
    killed.send_signal(signal.SIGKILL)
    killed.communicate()
    time.sleep(1)  # workers notice their parent is gone (SIGTERM from the kernel) and stop their children
    assert alive_under(tmp_path / "killed") == []
    landed = len(state.load(tmp_path / "killed"))
    assert 1 <= landed < 4

    resumed = batch(tmp_path / "killed", 2)
    _, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert f"({landed} already graded, unchanged)" in err
    _, err = whole.communicate(timeout=300)
    assert whole.returncode == 0, err
    assert read_grades(tmp_path / "killed") == read_grades(tmp_path / "whole")  # and --jobs 1 then 2 == --jobs 2
    rows = {r["student"]: r for r in read_grades(tmp_path / "whole")}
    assert rows["alice"]["total"] == rows["single"]["total"] == "20" and rows["bob"]["total"] == "0"


def default_class(root: Path) -> Path:
    """A small class for the default path: correct, one with a mistake in ex3 and a crash in ex4, two invalid
    entries (zips: real_class)."""
    root.mkdir()
    shutil.copytree(REFERENCE, root / "alice")
    shutil.copytree(REFERENCE, root / "broken")
    shutil.copy(ROOT / "tests" / "corpus" / "mutants" / f"{EX3}__string_order.py", root / "broken" / f"{EX3}.py")
    shutil.copy(ROOT / "tests" / "corpus" / "hostile" / f"{MODULES['ex4']}__os_exit.py",
                root / "broken" / f"{MODULES['ex4']}.py")
    (root / "corrupt.zip").write_bytes(b"PK\x05\x06" + b"\0" * 10)
    (root / "empty").mkdir()
    return root


@pytest.mark.e2e
def test_real_default_batch_grades_every_exercise(tmp_path, cache_dir):
    """``python -m grader batch CLASS --out OUT`` exactly as an instructor runs it: every exercise, real children.

    Killing and resuming real workers is ``test_real_killed_batch_resumes_to_the_same_grades``'s (one exercise),
    and shards merging to one run's rows is ``test_merged_shards_equal_one_run``'s: this run takes the defaults.
    """
    root = default_class(tmp_path / "class")
    env = {**os.environ, "JAX_GRADER_CACHE": str(cache_dir)}

    def grader(*args: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "grader", *args], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def finish(proc: subprocess.Popen) -> str:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        return out + err

    finish(grader("batch", str(root), "--out", str(tmp_path / "whole"), "--jobs", "2"))
    rows = {r["student"]: r for r in read_grades(tmp_path / "whole")}
    assert {sid: r["status"] for sid, r in rows.items()} == {
        "alice": "graded", "broken": "crashed", "corrupt": "invalid", "empty": "invalid"}
    full = {"ex1": "20", "ex2": "20", "ex3": "20", "ex4": "15", "ex5": "15", "accuracy": "10"}
    assert {ex: rows["alice"][ex] for ex in full} == full and rows["alice"]["total"] == "100", rows["alice"]
    assert rows["alice"]["detail"] == ""
    broken = rows["broken"]
    assert float(broken["ex3"]) < 20 and broken["ex4"] == "0" and broken["detail"] == "ex4 crashed", broken
    assert {ex: broken[ex] for ex in full if ex not in ("ex3", "ex4")} == \
        {ex: v for ex, v in full.items() if ex not in ("ex3", "ex4")}
    assert float(broken["total"]) == 85 - (20 - float(broken["ex3"]))
    report = json.loads((tmp_path / "whole" / "students" / "broken" / "report.json").read_text())
    assert report["runs"]["ex4"]["status"] == "crashed" and "before reporting" in report["runs"]["ex4"]["detail"]
    assert {ex: run["status"] for ex, run in report["runs"].items() if ex != "ex4"} == \
        {ex: "ok" for ex in full if ex != "ex4"}
    assert report.get("lesson", {}) == {}  # shown by no batch output, so not computed


@pytest.mark.e2e
def test_real_dask_batch_grades_as_the_local_executor_does(tmp_path, cache_dir, monkeypatch, capsys):
    """``--dask ADDRESS`` on a LocalCluster of two worker processes on the loopback: the same rows as ``--jobs``."""
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))  # the cluster's workers inherit it
    root = tmp_path / "class"
    root.mkdir()
    shutil.copytree(REFERENCE, root / "alice")
    (root / "crash").mkdir()
    (root / "crash" / f"{EX3}.py").write_text(CRASH)
    (root / "mutant").mkdir()
    shutil.copy(ROOT / "tests" / "corpus" / "mutants" / f"{EX3}__string_order.py", root / "mutant" / f"{EX3}.py")
    _zip(root / "zipped.zip", {f"{EX3}.py": (REFERENCE / f"{EX3}.py").read_text()})
    (root / "corrupt.zip").write_bytes(b"PK\x05\x06" + b"\0" * 10)
    common = ["batch", str(root), "--only", "ex3", "-q"]
    assert grader_main([*common, "--out", str(tmp_path / "local"), "--jobs", "2"]) == 0
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        assert grader_main([*common, "--out", str(tmp_path / "dask"), "--dask", cluster.scheduler_address]) == 0
        capsys.readouterr()
        again = [c for c in common if c != "-q"]
        assert grader_main([*again, "--out", str(tmp_path / "dask"), "--dask", cluster.scheduler_address]) == 0
        assert "(5 already graded, unchanged)" in capsys.readouterr().err  # resume: nothing graded twice
    rows = read_grades(tmp_path / "dask")
    assert rows == read_grades(tmp_path / "local")
    assert {r["student"]: (r["status"], r["total"]) for r in rows} == {
        "alice": ("graded", "20"), "corrupt": ("invalid", ""), "crash": ("crashed", "0"),
        "mutant": ("graded", rows[3]["total"]), "zipped": ("graded", "20")}
    assert float(rows[3]["total"]) < 20


def test_dask_without_a_scheduler_is_a_clear_error(tmp_path, cache_dir, monkeypatch, capsys):
    pytest.importorskip("distributed")
    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    _write_folder(tmp_path / "class" / "alice", "alice")
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):  # dask's own setting (30 s by default)
        code = grader_main(["batch", str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--only", "ex3",
                            "--dask", "tcp://127.0.0.1:9", "-q"])
    assert code == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in capsys.readouterr().err
