"""Nothing a submission controls is followed, trusted or echoed raw by the grading process.

- The one reader (:mod:`grader.untrusted`): links (to a file, to ``/dev/zero``,
  a linked folder) and FIFOs are refused with a message naming the file, never
  opened; a refused submission earns nothing and still gets every report.
- A class holding such entries, hostile archive members and an entry named to
  fake log lines finishes within a short deadline, and every output is inert.
- What a child writes in its results folder is checked against the harness's
  schema; anything else is an ``error`` charged to that exercise.
- The one sanitiser (:func:`grader.report._common.inert`) at every output:
  terminal, progress log, every report format.

Links, FIFOs and hostile files are built in each test's tmp folder. Most
tests need no child process; the few ``test_real_*`` grade one exercise.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import zipfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from conftest import REFERENCE, submission_with

from grader import untrusted
from grader.batch import grading, runner
from grader.batch.discover import InvalidSubmission, content_digest, discover, find_code, unpack_zip
from grader.batch.grading import Outcome
from grader.batch.progress import Progress
from grader.batch.runner import run_batch
from grader.config import BatchOptions, Options
from grader.cli import main as grader_main
from grader.engine import CHECKS
from grader.report import classroom, gradescope, html, junit, markdown, terminal
from grader.report._common import inert, inert_report, one_line
from grader.results import CheckResult, Report, RunRecord
from grader.observations import FORGED, ForgedResults, read_observations
from grader.submission import MODULES, SubmissionError, load_submission

EX3 = MODULES["ex3"]
SECRET = "TOP-SECRET-content-4711"
#: An OSC 52 clipboard write, a cursor move and a colour: what a student would hide in text.
ESCAPES = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2A\x1b[31m\x9b31m"
FAKE_LINE = "[9 of 9] eve: graded 100 of 100"
HOSTILE_NAME = f"eve\n::error title=grader::all tests passed\n{FAKE_LINE}"


@contextmanager
def deadline(seconds: float):
    """Fail (instead of hanging the suite) if the block runs longer than ``seconds``."""
    def expired(signum, frame):
        raise TimeoutError(f"still running after {seconds} s: something blocked on a submission's file")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def reference_folder(folder: Path, tag: str = "") -> Path:
    folder.mkdir(parents=True)
    for name in MODULES.values():
        (folder / f"{name}.py").write_text((REFERENCE / f"{name}.py").read_text() + f"\n# {tag}\n")
    return folder


def assert_inert(text: str, where: str = "", names_only: bool = True) -> None:
    """No ESC or other control byte, and no line that starts (after blanks) a workflow command.

    ``names_only``: the student text in ``text`` is names only (ids, file names), which must stay on their
    line, so no line starts with the fake progress line either. A message may have lines of its own.
    """
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text, where
    for line in text.splitlines():
        assert not line.lstrip().startswith("::"), (where, line)
        assert not (names_only and line.lstrip().startswith(FAKE_LINE)), (where, line)


def secrets_absent(text: str, where: str = "") -> None:
    assert SECRET not in text, where
    assert "root:x:0:0:" not in text, where
    assert "JAX_GRADER" not in text or "JAX_GRADER_SEED=" not in text, where


# ---------------------------------------------------------------- the reader


def test_the_reader_refuses_links_and_special_files_and_never_blocks(tmp_path):
    root = tmp_path / "sub"
    root.mkdir()
    (tmp_path / "secret.txt").write_text(SECRET)
    (root / "ok.py").write_text("x = 1\n")
    os.symlink(tmp_path / "secret.txt", root / "answers.md")
    os.symlink("/dev/zero", root / "notes.txt")
    os.mkfifo(root / "pipe")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "ex3_mlp_forward.py").write_text(SECRET)
    os.symlink(tmp_path / "elsewhere", root / "work")
    (root / "big.py").write_bytes(b"#" * 1001)
    with deadline(10):
        assert untrusted.read_text(root / "ok.py", 100, root) == "x = 1\n"
        cases = {"answers.md": "is a symbolic link", "notes.txt": "is a symbolic link",
                 "pipe": "is a FIFO (named pipe)", "work/ex3_mlp_forward.py": "work is a symbolic link"}
        for name, problem in cases.items():
            with pytest.raises(untrusted.UnsafeFile) as caught:
                untrusted.read_bytes(root / name, 1 << 20, root)
            assert problem in str(caught.value) and untrusted.NOT_GRADED in str(caught.value)
            assert SECRET not in str(caught.value)
        with pytest.raises(untrusted.UnsafeFile, match="big.py is larger than 1,000 bytes"):
            untrusted.read_bytes(root / "big.py", 1000, root)
        listed = {f.path.as_posix(): f.kind for f in untrusted.walk(root)}
    assert listed == {"answers.md": "link", "big.py": "file", "notes.txt": "link", "ok.py": "file",
                      "pipe": "special", "work": "link"}  # the linked folder is listed, not entered


def test_names_in_messages_are_shown_escaped(tmp_path):
    name = f"ex{ESCAPES}\n::error::x.py"
    os.symlink("/etc/passwd", tmp_path / name)
    with pytest.raises(untrusted.UnsafeFile) as caught:
        untrusted.read_text(tmp_path / name, 100)
    assert_inert(str(caught.value))
    assert "\\x1b]52" in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("case", ["reference", "classmate", "environ", "passwd", "secret", "linked_folder",
                                  "fifo", "dev_zero"])
def test_a_folder_holding_a_link_or_special_file_is_refused_naming_it(tmp_path, case):
    (tmp_path / "secret.txt").write_text(SECRET)
    bob = reference_folder(tmp_path / "bob", "bob's own work")
    folder = reference_folder(tmp_path / "alice")
    target = {
        "reference": (EX3 + ".py", REFERENCE / f"{EX3}.py"),
        "classmate": (EX3 + ".py", Path("..") / "bob" / f"{EX3}.py"),
        "environ": ("answers.md", Path("/proc/self/environ")),
        "passwd": ("answers.md", Path("/etc/passwd")),
        "secret": ("answers.md", tmp_path / "secret.txt"),
        "linked_folder": ("work", bob),
        "dev_zero": ("notes.txt", Path("/dev/zero")),
    }
    if case == "fifo":
        name, what = "notes.txt", "is a FIFO (named pipe)"
        os.mkfifo(folder / name)
    else:
        name, link = target[case]
        (folder / name).unlink(missing_ok=True)
        os.symlink(link, folder / name)
        what = "is a symbolic link"
    with deadline(10), pytest.raises(SubmissionError) as caught:
        load_submission(folder)
    message = str(caught.value)
    assert message.startswith(f"{folder}/{name} {what}") and untrusted.NOT_GRADED in message
    secrets_absent(message)
    with deadline(10), pytest.raises(InvalidSubmission, match=re.escape(f"alice/{name} {what}")):
        find_code(folder)  # the batch's view of the same folder


def test_a_single_file_or_notebook_that_is_a_link_is_refused(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (real / "all.py").write_text("x = 1\n")
    (real / "lesson.ipynb").write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4,
                                                   "nbformat_minor": 5}))
    sub = tmp_path / "sub"
    sub.mkdir()
    for name in ("all.py", "lesson.ipynb"):
        os.symlink(real / name, sub / name)
        with pytest.raises(SubmissionError, match=f"{name} is a symbolic link"):
            load_submission(sub / name)
    assert load_submission(real / "lesson.ipynb").kind == "ipynb"  # the same notebook, not linked, is read
    os.symlink(tmp_path / "secret.txt", real / "answers.md")
    with pytest.raises(SubmissionError, match="answers.md is a symbolic link"):
        load_submission(real / "all.py")


def test_gradescope_never_takes_a_link_for_the_folder_to_grade(tmp_path):
    upload = tmp_path / "upload"
    upload.mkdir()
    reference_folder(tmp_path / "other")
    os.symlink(tmp_path / "other", upload / "linked")
    assert gradescope_locate(upload) == upload  # not upload/linked: the link is no folder
    mine = reference_folder(upload / "mine")
    os.symlink(REFERENCE / f"{EX3}.py", mine / "extra.py")
    assert gradescope_locate(upload) == mine
    with pytest.raises(SubmissionError, match="mine/extra.py is a symbolic link"):
        load_submission(gradescope_locate(upload))


def test_watch_shows_a_linked_answers_file_as_refused(tmp_path):
    from grader.watch import read_answers

    (tmp_path / "secret.txt").write_text(SECRET)
    folder = reference_folder(tmp_path / "sub")
    assert read_answers(folder) is None
    (folder / "answers.md").write_text("my answers\n")
    assert read_answers(folder) == "my answers\n"
    (folder / "answers.md").unlink()
    os.symlink(tmp_path / "secret.txt", folder / "answers.md")
    shown = read_answers(folder)
    assert shown.startswith("(not shown: ") and "answers.md is a symbolic link" in shown and SECRET not in shown


def gradescope_locate(folder: Path) -> Path:
    from grader.gradescope import find_submission

    return find_submission(folder)


def test_zip_members_that_are_links_or_hostile_names(tmp_path):
    linked = tmp_path / "linked.zip"
    with zipfile.ZipFile(linked, "w") as zf:
        info = zipfile.ZipInfo(f"{EX3}.py")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, str(REFERENCE / f"{EX3}.py"))
    with pytest.raises(InvalidSubmission, match="a link or special file; not unpacked"):
        unpack_zip(linked, tmp_path / "out1")
    assert not (tmp_path / "out1").exists()
    hostile = tmp_path / "hostile.zip"
    with zipfile.ZipFile(hostile, "w") as zf:
        zf.writestr(f"a{ESCAPES}.txt", "x")
        zf.writestr(f"b\n::error::pwned\n{FAKE_LINE}.txt", "y")
    with pytest.raises(InvalidSubmission) as caught:
        find_code(unpack_zip(hostile, tmp_path / "out2"))
    assert "cannot tell which files to grade" in str(caught.value)
    assert_inert(one_line(str(caught.value)))
    os.symlink("/dev/zero", tmp_path / "zero.zip")
    with deadline(10), pytest.raises(InvalidSubmission, match="zero.zip is a symbolic link"):
        unpack_zip(tmp_path / "zero.zip", tmp_path / "out3")


# ---------------------------------------------------------------- a hostile class


def hostile_class(root: Path) -> dict[str, str]:
    """A class with every way of reaching outside a submission; returns the expected status per student id."""
    root.mkdir(parents=True)
    (root.parent / "secret.txt").write_text(SECRET)
    reference_folder(root / "erin", "erin's own work")
    reference_folder(root / HOSTILE_NAME, "honest work, hostile name")
    alice = reference_folder(root / "alice")
    os.symlink("/dev/zero", alice / "notes.txt")
    os.mkfifo(reference_folder(root / "bob") / "notes.txt")
    carol = reference_folder(root / "carol")
    (carol / f"{EX3}.py").unlink()
    os.symlink(REFERENCE / f"{EX3}.py", carol / f"{EX3}.py")
    dave = reference_folder(root / "dave")
    (dave / f"{EX3}.py").unlink()
    os.symlink(Path("..") / "erin" / f"{EX3}.py", dave / f"{EX3}.py")
    os.symlink("/proc/self/environ", reference_folder(root / "frank") / "answers.md")
    os.symlink("/etc/passwd", reference_folder(root / "gina") / "answers.md")
    hank = root / "hank"
    hank.mkdir()
    os.symlink(root.parent / "secret.txt", hank / "answers.md")
    os.symlink(root / "erin", hank / "work")
    os.symlink(root / "erin", root / "ivan")
    os.symlink("/dev/zero", root / "judy.zip")
    os.mkfifo(root / "ken.zip")
    with zipfile.ZipFile(root / "liam.zip", "w") as zf:
        zf.writestr(f"notes{ESCAPES}.txt", "x")
        zf.writestr(f"b\n::error::pwned\n{FAKE_LINE}.txt", "y")
    return {"alice": "invalid", "bob": "invalid", "carol": "invalid", "dave": "invalid", "erin": "graded",
            "frank": "invalid", "gina": "invalid", "hank": "invalid", "ivan": "invalid", "judy": "invalid",
            "ken": "invalid", "liam": "invalid", HOSTILE_NAME: "graded"}


def full_marks(path, options) -> Report:
    """A stand-in for the engine: the real loader, then every check passed, the answers quoted."""
    submission = load_submission(path)
    checks = tuple(CheckResult(c.id, c.exercise, c.name, "pass", 1.0, 1.0) for c in CHECKS
                   if c.exercise in options.only)
    return Report(checks=checks, submission=str(path), answers=submission.answers,
                  runs={e: RunRecord("ok") for e in options.only})


def test_a_hostile_class_finishes_and_every_output_is_inert(tmp_path, monkeypatch):
    expected = hostile_class(tmp_path / "class")
    monkeypatch.setattr(grading, "grade", full_marks)
    monkeypatch.setattr(runner, "warm_reference", lambda options, scratch: None)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    log = io.StringIO()
    out = tmp_path / "out"
    config = Options(only=("ex3",), batch=BatchOptions(tmp_path / "class", out, isolate=False,
                                                       formats=("json", "markdown", "junit", "gradescope")))
    with deadline(60):
        result = run_batch(config, Progress(log, bar=False))
    assert {o.id: o.status for o in result.outcomes} == expected
    details = {o.id: o.detail for o in result.outcomes}
    for sid, name in [("alice", "notes.txt"), ("carol", f"{EX3}.py"), ("dave", f"{EX3}.py"),
                      ("frank", "answers.md"), ("gina", "answers.md"), ("hank", "answers.md"), ("hank", "work")]:
        assert f"{sid}/{name} is a symbolic link" in details[sid] and untrusted.NOT_GRADED in details[sid]
    assert "bob/notes.txt is a FIFO" in details["bob"]
    assert details["ivan"].startswith("ivan (a symbolic link, not graded)")
    assert details["judy"].startswith("judy.zip (a symbolic link, not graded)")
    assert details["ken"].startswith("ken.zip (a FIFO (named pipe), not graded)")

    with (out / "grades.csv").open(newline="") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert {sid: row["total"] for sid, row in rows.items() if row["status"] != "graded"} == \
        {one_line(sid): "" for sid, status in expected.items() if status != "graded"}  # nothing earned
    assert rows[one_line(HOSTILE_NAME)]["total"] == rows["erin"]["total"] != ""

    lines = log.getvalue().splitlines()
    assert lines[0].startswith("::stop-commands::") and lines[-1] == f"::{lines[0].split('::')[2]}::"
    progress = [line for line in lines if line.startswith("[")]
    assert len(progress) == len(expected)  # one line per student, whatever their name holds
    assert_inert("\n".join(lines[1:-1]), "progress log")
    written = [p for p in out.rglob("*") if p.is_file() and p.suffix != ".png" and ".work" not in p.parts]
    assert any(p.name == "summary.md" for p in written) and len(list((out / "students").iterdir())) == len(expected)
    for path in written:
        text = path.read_text(encoding="utf-8")
        secrets_absent(text, str(path))
        if path.suffix != ".json" or path.name == "gradescope.json":
            assert_inert(text, str(path))


def test_hashing_a_class_reads_no_special_file(tmp_path):
    hostile_class(tmp_path / "class")
    with deadline(20):
        entries = discover(tmp_path / "class")
        digests = {e.id: content_digest(e) for e in entries}
    assert len(set(digests.values())) == len(entries)
    alice = next(e for e in entries if e.id == "alice")
    (alice.path / "notes.txt").unlink()
    os.symlink("/dev/urandom", alice.path / "notes.txt")  # a link's text is hashed: re-pointing it is a change
    assert content_digest(alice) != digests["alice"]


# ---------------------------------------------------------------- what a child writes


def forged_results(out: Path, mode: str) -> None:
    """Write into a results folder what a submission might, instead of the harness."""
    npz = out / "observations.npz"
    np.savez(npz, a0=np.zeros(3, np.float32))
    good = {"version": 2, "values": {"x": {"kind": "array", "key": "a0"}}, "import_error": None}
    index = out / "observations.json"
    if mode == "deep":
        index.write_bytes(b"[" * 200_000 + b"]" * 200_000)
        return
    if mode == "deep_value":
        good["values"]["x"] = {"kind": "json", "value": json.loads("[" * 150 + "]" * 150)}
    elif mode == "huge":
        index.write_bytes(b" " * (9 << 20))
        return
    elif mode == "non_utf8":
        index.write_bytes(b'{"version": 2, "values": {"\xff\xfe": 1}}')
        return
    elif mode == "symlink":
        os.symlink("/etc/passwd", index)
        return
    elif mode == "npz_to_dev_zero":
        npz.unlink()
        os.symlink("/dev/zero", npz)
    elif mode == "fifo":
        npz.unlink()
        os.mkfifo(npz)
    elif mode == "values_a_list":
        good["values"] = [["x", "array"]]
    elif mode == "entry_a_string":
        good["values"]["x"] = "array"
    elif mode == "key_a_list":
        good["values"]["x"] = {"kind": "array", "key": ["a0"]}
    elif mode == "message_a_dict":
        good["values"]["x"] = {"kind": "error", "type": "E", "message": {"a": 1}, "traceback": ""}
    elif mode == "object_array":
        npz.unlink()
        with zipfile.ZipFile(npz, "w") as zf:
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.array(["a", "b"]), allow_pickle=False)
            zf.writestr("a0.npy", buffer.getvalue())
    elif mode == "declared_huge":  # a header promising 2**40 elements: refused before anything is read
        npz.unlink()
        header = {"descr": "<f8", "fortran_order": False, "shape": (1 << 40,)}
        buffer = io.BytesIO()
        np.lib.format.write_array_header_1_0(buffer, header)
        with zipfile.ZipFile(npz, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("a0.npy", buffer.getvalue() + b"\0" * (1 << 20))
    index.write_text(json.dumps(good))


FORGERIES = ["deep", "deep_value", "huge", "non_utf8", "symlink", "npz_to_dev_zero", "fifo", "values_a_list",
             "entry_a_string", "key_a_list", "message_a_dict", "object_array", "declared_huge"]


@pytest.mark.parametrize("mode", FORGERIES)
def test_results_off_the_harness_schema_are_refused(tmp_path, mode):
    forged_results(tmp_path, mode)
    with deadline(10), pytest.raises(ForgedResults) as caught:
        read_observations(tmp_path)
    assert "root:x:0:0" not in str(caught.value)


def test_results_the_harness_writes_are_read(tmp_path):
    forged_results(tmp_path, "honest")
    observed = read_observations(tmp_path)
    assert observed["x"].tolist() == [0.0, 0.0, 0.0] and observed["x"].flags.writeable


FORGER = """
import json, os, sys

frame = sys._getframe()
while frame is not None and "out_dir" not in frame.f_locals:
    frame = frame.f_back
out = str(frame.f_locals["out_dir"])
with open(os.path.join(out, "observations.npz"), "wb") as handle:
    handle.write(b"PK\\x05\\x06" + b"\\0" * 18)
with open(os.path.join(out, "observations.json"), "w") as handle:
    handle.write(json.dumps({"version": 2, "values": {"depths": "all passed"}, "import_error": None}))
os._exit(0)
"""


def test_forged_results_cost_that_exercise_only(tmp_path):
    """Judged on recorded observations (the sealed reference's, as an honest ex1 and ex5 would give)."""
    from grader.expected import sealed
    from grader.engine import _Run, judge_all
    from grader.rubric import load_rubric
    from grader.observations import Observations, RunResult

    recorded = sealed.read(sealed.SHIPPED, ["ex1", "ex3", "ex5"])
    forged_results(tmp_path, "deep")
    with pytest.raises(ForgedResults) as caught:
        read_observations(tmp_path)
    forged = RunResult("bad_output", Observations(), 1.0, detail=f"{FORGED} ({caught.value})")
    runs = {"ex1": _Run("ex1", RunResult("ok", recorded["ex1"], 1.0)), "ex3": _Run("ex3", forged),
            "ex5": _Run("ex5", RunResult("ok", recorded["ex5"], 1.0))}
    results, _ = judge_all(runs, recorded, load_rubric(CHECKS))
    ex3 = [c for c in results if c.exercise == "ex3"]
    assert ex3 and all(c.score == 0 for c in ex3) and ex3[0].status == "error" and FORGED in ex3[0].message
    assert all(c.score == c.max_score for c in results if c.exercise != "ex3")


def test_real_a_child_that_writes_its_results_gets_every_report(tmp_path, cache_dir, monkeypatch, capsys):
    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    folder = submission_with(tmp_path, {EX3: FORGER})
    paths = {fmt: tmp_path / f"report.{fmt}" for fmt in ("json", "markdown", "junit", "gradescope")}
    args = [str(folder), "--only", "ex3", "-q"] + [a for fmt, p in paths.items() for a in (f"--{fmt}", str(p))]
    assert grader_main(args) == 0  # graded, not a grader crash
    report = json.loads(paths["json"].read_text())
    assert report["score"] == 0 and report["runs"]["ex3"]["status"] == "bad_output"
    assert report["runs"]["ex3"]["detail"].startswith(FORGED)
    for fmt in ("markdown", "junit", "gradescope"):
        assert FORGED in paths[fmt].read_text(), fmt


def test_real_batch_charges_forged_results_to_the_submission(tmp_path, cache_dir, monkeypatch):
    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    cls = tmp_path / "class"
    cls.mkdir()
    deep = FORGER.replace('json.dumps({"version": 2, "values": {"depths": "all passed"}, "import_error": None})',
                          '"[" * 200000 + "]" * 200000')
    (submission_with(cls, {EX3: deep})).rename(cls / "mallory")
    out = tmp_path / "out"
    code = grader_main(["batch", str(cls), "--out", str(out), "--only", "ex3", "--in-process", "-q"])
    assert code == 0
    with (out / "grades.csv").open(newline="") as handle:
        (row,) = csv.DictReader(handle)
    assert (row["student"], row["status"], row["total"]) == ("mallory", "crashed", "0")  # the student's, not "error"
    assert FORGED in row["detail"] or FORGED in (out / "students" / "mallory" / "feedback.md").read_text()
    assert "nested too deeply" in (out / "students" / "mallory" / "report.json").read_text()


# ---------------------------------------------------------------- the sanitiser at every output


def hostile_report() -> Report:
    message = f"ex3 raised ValueError: {ESCAPES}boom\n::error file=x.py::forged\n{FAKE_LINE}"
    checks = (CheckResult("ex3.depths", "ex3", "depths", "error", 0.0, 6.0, message, f"hint {ESCAPES}"),
              CheckResult("ex3.values", "ex3", "values", "fail", 0.0, 6.0, "x", ""))
    return Report(checks=checks, submission=f"class/{HOSTILE_NAME}", answers=f"# Answers\n{ESCAPES}\n::warning::x",
                  notes=(f"note {ESCAPES}",), runs={"ex3": RunRecord("crashed", f"stderr: {ESCAPES}\n::error::x")})


@pytest.mark.parametrize("verbose", [False, True])
def test_every_writer_and_the_terminal_print_inert_text(verbose):
    report = hostile_report()
    assert_inert(terminal.render_text(report, verbose=verbose), "terminal", names_only=False)
    buffer = io.StringIO()
    terminal.print_report(report, file=buffer, verbose=verbose)
    assert_inert(buffer.getvalue(), "terminal (file)", names_only=False)
    title = buffer.getvalue().splitlines()[0]  # the submission's name stays on its line
    assert title.startswith("jax-autograder: class/eve ") and title.rstrip().endswith(FAKE_LINE)
    for name, text in [("markdown", markdown.dumps(report)), ("junit", junit.dumps(report)),
                       ("html", html.render(report)), ("gradescope", gradescope.dumps(report)),
                       ("classroom", json.dumps(classroom.payload(report)))]:
        assert "\x1b" not in text and "\\u001b" not in text and "\x9b" not in text, name
    payload = gradescope.results(report)
    for test in payload["tests"]:
        assert_inert(test["output"], "gradescope output", names_only=False)


def test_inert_keeps_newlines_and_tabs_and_shows_the_rest():
    assert inert("a\tb\nc") == "a\tb\nc"
    assert inert("\x1b[31mred") == "\\x1b[31mred"
    assert inert("ok\n  ::error::x") == "ok\n  \u200b::error::x"
    assert inert("\u202eevil") == "\\u202eevil"
    assert one_line(HOSTILE_NAME) == f"eve ::error title=grader::all tests passed {FAKE_LINE}"
    assert inert_report(hostile_report()).answers == inert(hostile_report().answers)


def test_progress_prints_one_inert_line_per_student():
    log = io.StringIO()
    progress = Progress(log, bar=False)
    progress("start", (2, 0, 2))
    progress("done", Outcome(HOSTILE_NAME, "graded", f"{ESCAPES}\n::error::x", seconds=1.0,
                             report=Report(checks=())))
    progress("warning", f"could not write {HOSTILE_NAME}")
    progress("done", Outcome(f"\x1b[2K{FAKE_LINE}", "invalid", "x", seconds=1.0))
    lines = log.getvalue().splitlines()
    assert len(lines) == 4 and [line[:5] for line in lines[1:]] == ["[1/2]", "warni", "[2/2]"]
    assert_inert(log.getvalue())


RAISER = f'''
import sys

sys.stderr.write({ESCAPES!r} + "\\n::error::from stderr\\n")
raise ValueError({ESCAPES!r} + "boom\\n::error file=ex3_mlp_forward.py::all tests passed\\n" + {FAKE_LINE!r})
'''


def test_real_escape_sequences_in_an_error_and_the_answers_print_inert(tmp_path, cache_dir, monkeypatch, capsys):
    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    folder = submission_with(tmp_path, {EX3: RAISER})
    (folder / "answers.md").write_text(f"# Answers\n{ESCAPES}\n::warning::answers\n")
    paths = {fmt: tmp_path / f"report.{fmt}" for fmt in ("markdown", "junit", "gradescope")}
    args = [str(folder), "--only", "ex3", "--verbose"] + [a for f, p in paths.items() for a in (f"--{f}", str(p))]
    assert grader_main(args) == 0
    printed = capsys.readouterr()
    assert "boom" in printed.out and "\\x1b]52" in printed.out and "Total: 0 / 20" in printed.out
    assert_inert(printed.out + printed.err, "terminal", names_only=False)
    for fmt, path in paths.items():
        text = path.read_text()
        assert "boom" in text and "\x1b" not in text and "\\u001b" not in text, fmt


def test_a_linked_exercise_file_earns_nothing_and_every_report_says_why(tmp_path, capsys):
    folder = submission_with(tmp_path, {})
    (folder / f"{EX3}.py").unlink()
    os.symlink(REFERENCE / f"{EX3}.py", folder / f"{EX3}.py")
    os.symlink("/proc/self/environ", folder / "answers.md")
    paths = {fmt: tmp_path / f"report.{fmt}" for fmt in ("json", "markdown", "junit", "gradescope")}
    args = [str(folder), "--only", "ex3"] + [a for f, p in paths.items() for a in (f"--{f}", str(p))]
    with deadline(60):
        assert grader_main(args) == 2  # refused: nothing was graded
    report = json.loads(paths["json"].read_text())
    assert report["score"] == 0 and report["max_score"] == 20
    environ = Path("/proc/self/environ").read_bytes().decode("utf-8", "replace")
    for path in paths.values():
        text = path.read_text()
        assert f"{EX3}.py is a symbolic link" in text and "answers.md is a symbolic link" in text, path
        assert environ[:40] not in text and (REFERENCE / f"{EX3}.py").read_text()[-200:] not in text


@pytest.mark.skipif(shutil.which("bash") is None, reason="run_autograder is a bash script")
def test_gradescope_refuses_an_upload_linking_into_the_autograder_source(tmp_path):
    from grader.gradescope import build_zip

    source = tmp_path / "source"
    build_zip(tmp_path / "a.zip")
    with zipfile.ZipFile(tmp_path / "a.zip") as archive:
        archive.extractall(source)
    (source / "run_autograder").chmod(0o755)
    upload = reference_folder(tmp_path / "submission" / "exercises")
    (upload / f"{EX3}.py").unlink()
    os.symlink(source / "reference" / f"{EX3}.py", upload / f"{EX3}.py")
    results = tmp_path / "results" / "results.json"
    env = {**os.environ, "JAX_GRADER_SOURCE": str(source), "JAX_GRADER_SUBMISSION": str(tmp_path / "submission"),
           "JAX_GRADER_RESULTS": str(results), "JAX_GRADER_PYTHON": sys.executable,
           "JAX_GRADER_CACHE": str(tmp_path / "cache"), "JAX_GRADER_ARGS": "--only ex3"}
    proc = subprocess.run(["bash", str(source / "run_autograder")], env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(results.read_text())
    assert data["score"] == 0 and data["tests"] and {t["status"] for t in data["tests"]} == {"failed"}
    assert f"exercises/{EX3}.py is a symbolic link" in data["tests"][0]["output"]
    assert (source / "reference" / f"{EX3}.py").read_text()[-200:] not in json.dumps(data)
