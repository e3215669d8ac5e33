"""The grader against two corpora: correct solutions in other styles, and realistic mistakes.

``corpus/correct/<module>__<style>.py``
    A correct module written differently from ``reference/``. Graded with the
    other modules from the reference and ``only=(its exercise,)``: every check
    of that exercise must pass.
``corpus/correct/whole/*.py`` and ``*.ipynb``
    A complete submission in one file (the notebook is built by
    ``corpus/make_notebook.py``). Every check must pass, accuracy included.
``corpus/mutants/<module>__<mistake>.py``
    One realistic mistake, described by the module docstring, with a header
    ``EXPECT = {"check": "<id>", "mistake": "<mistake id>", "hint": "<substring>",
    "max_failing": N}``. The named check must not pass, must report that
    mistake id (the cause, as data) and a hint containing the substring
    (case-insensitive); at most N checks of the exercise may fail or error
    (skipped ones not counted), and every one that does names no mistake or
    this one: a hint never names a mistake the code does not have.
    ``"mistake": ""`` says the report cannot name it; the docstring says why.

    Every other check of the exercise must pass, except those listed in
    ``"also": [...]`` (failing, or skipped because what they judge cannot be
    seen); the docstring says why, and the set is exact, so any new double
    charge still fails the test.
"""

from __future__ import annotations

import ast
import hashlib
import re
from pathlib import Path

import pytest
from conftest import CORPUS, by_id, submission_with

import grader
from grader.checks.registry import MISTAKES
from grader.engine import CHECKS
from grader.submission import MODULES

EXERCISE_OF = {module: exercise for exercise, module in MODULES.items()}
INSTALLED_AT = Path(grader.__file__).resolve().parents[1]  # the folder the grader package sits in
CORRECT = sorted((CORPUS / "correct").glob("*.py"))
WHOLE = sorted(p for p in (CORPUS / "correct" / "whole").iterdir() if p.suffix in (".py", ".ipynb"))
MUTANTS = sorted((CORPUS / "mutants").glob("*.py"))


def _module(path: Path) -> str:
    module = path.stem.split("__")[0]
    assert module in EXERCISE_OF, f"{path.name}: the name must start with a module name, one of {sorted(EXERCISE_OF)}"
    return module


def _header(path: Path) -> tuple[str, dict]:
    """The module docstring and the literal ``EXPECT`` dict, read without importing the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree) or ""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "EXPECT" for t in node.targets):
            return doc, ast.literal_eval(node.value)
    raise AssertionError(f"{path.name} has no module-level EXPECT = {{...}}")


def _problems(report, exercise: str) -> list[tuple[str, str, str]]:
    return [(c.id, c.status, c.message[:300]) for c in report.checks if c.exercise == exercise and c.status != "pass"]


def test_corpus_is_big_enough():
    exercises = [EXERCISE_OF[_module(p)] for p in CORRECT]
    assert len(CORRECT) + len(WHOLE) >= 12
    assert all(exercises.count(ex) >= 2 for ex in MODULES), exercises
    assert {p.suffix for p in WHOLE} >= {".py", ".ipynb"}
    assert len(MUTANTS) >= 30


def test_notebook_matches_its_builder():
    import importlib.util

    import nbformat

    spec = importlib.util.spec_from_file_location("make_notebook", CORPUS / "make_notebook.py")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    committed = nbformat.read(str(CORPUS / "correct" / "whole" / "notebook.ipynb"), as_version=4)
    assert [(c.cell_type, c.source) for c in committed.cells] == [(c.cell_type, c.source) for c in builder.build().cells], (
        "run python tests/corpus/make_notebook.py")


@pytest.mark.parametrize("path", MUTANTS, ids=lambda p: p.stem)
def test_mutant_header_names_a_real_check(path):
    doc, expect = _header(path)
    assert doc.strip(), f"{path.name}: say the mistake in the module docstring"
    assert {"check", "hint", "mistake", "max_failing"} <= set(expect) <= {"check", "hint", "mistake", "max_failing",
                                                                         "also"}, expect
    assert expect["mistake"] == "" or expect["mistake"] in MISTAKES, (
        f"{expect['mistake']!r} is not a known mistake: {sorted(MISTAKES)}")
    assert isinstance(expect["max_failing"], int) and 1 <= expect["max_failing"] <= 1 + len(expect.get("also", []))
    exercise = EXERCISE_OF[_module(path)]
    ids = {c.id for c in CHECKS if c.exercise == exercise}
    assert expect["check"] in ids, f"{expect['check']} is not a check of {exercise}: {sorted(ids)}"
    assert expect["hint"].strip(), "an empty hint substring matches anything"
    if "also" in expect:
        also = expect["also"]
        assert also and set(also) <= ids - {expect["check"]}, f"'also' must name other checks of {exercise}: {also}"


@pytest.mark.parametrize("path", CORRECT, ids=lambda p: p.stem)
def test_correct_variant_gets_full_marks(path, tmp_path, judge_with):
    module = _module(path)
    exercise = EXERCISE_OF[module]
    report = judge_with(submission_with(tmp_path, {module: path}), only=(exercise,))
    checks = [c for c in report.checks if c.exercise == exercise]
    assert checks, f"no checks graded for {exercise}"
    assert _problems(report, exercise) == []
    assert sum(c.score for c in checks) == sum(c.max_score for c in checks)
    assert [(c.id, c.hint, c.mistake) for c in checks if c.hint or c.mistake] == []


#: Whole submissions another test already grades in full, every check required to pass.
GRADED_ELSEWHERE = {
    "single_file.py": "test_release.py::test_an_installed_wheel_grades_with_no_reference_code (from the wheel)",
}


def test_whole_submissions_graded_elsewhere_are_in_the_corpus():
    assert set(GRADED_ELSEWHERE) <= {p.name for p in WHOLE}
    release = (Path(__file__).parent / "test_release.py").read_text()
    assert 'CORPUS / "correct" / "whole" / "single_file.py"' in release and 'report["score"] == 100' in release


@pytest.mark.e2e
@pytest.mark.parametrize("path", [p for p in WHOLE if p.name not in GRADED_ELSEWHERE], ids=lambda p: p.name)
def test_whole_submission_gets_full_marks(path, grade_with):
    report = grade_with(path)  # every exercise and the end-to-end accuracy run
    assert {c.exercise for c in report.checks} == set(MODULES) | {"accuracy"}
    assert [(c.id, c.status, c.message[:300]) for c in report.checks if c.status != "pass"] == []
    assert report.score == report.max_score == 100


#: Mutants graded in a real child, with why: what they do depends on the process they run in.
_TIMED_HERE = ("ex4's timing is told apart by how long calls take to return; in the test process, threads that "
               "earlier tests left busy stretch them, on a loaded machine past what sets a timer apart")
IN_A_CHILD = {
    "ex4_jit_speedup__process_time": "a CPU clock counts every thread of its process; in the test process, threads "
                                     "that earlier tests left busy add to it",
    "ex4_jit_speedup__no_block": _TIMED_HERE,
    "ex4_jit_speedup__clock_read_before_wait": _TIMED_HERE,
    "ex4_jit_speedup__blocks_first_result": _TIMED_HERE,
    "ex4_jit_speedup__clock_inside_loop": _TIMED_HERE,
    "ex4_jit_speedup__disable_jit_left_on": "it leaves jax.disable_jit on in its process: in the test process, every "
                                            "later test would run with jit off",
}


def test_mutants_graded_in_a_child_are_in_the_corpus():
    assert set(IN_A_CHILD) <= {p.stem for p in MUTANTS}


#: One mutant in QUICK_SHARE is graded in the quick tier besides one for each check (see :func:`quick_sample`).
QUICK_SHARE = 8


def _stable_rank(path: Path) -> int:
    """A number fixed by the file's name alone: the same sample on every machine, run and Python."""
    return int.from_bytes(hashlib.sha256(path.stem.encode()).digest()[:8], "big")


def quick_sample(mutants: list[Path]) -> set[str]:
    """The mutants the quick tier grades: for every check, the one that ranks first (so every check's failure
    path runs), and about one in QUICK_SHARE of the rest, by a rank fixed by the name. The rest are the corpus
    tier (``-m corpus``): each mutant costs about 2 s of compiling the student's operations afresh, and the
    whole corpus would be most of the quick tier's time."""
    first: dict[str, Path] = {}
    for path in sorted(mutants, key=_stable_rank):
        first.setdefault(_header(path)[1]["check"], path)
    return {p.stem for p in first.values()} | {p.stem for p in mutants if _stable_rank(p) % QUICK_SHARE == 0}


QUICK = quick_sample(MUTANTS)


def _tier(path: Path):
    if path.stem in IN_A_CHILD:
        return pytest.param(path, marks=pytest.mark.e2e)
    return path if path.stem in QUICK else pytest.param(path, marks=pytest.mark.corpus)


def test_the_quick_sample_grades_every_check_with_a_mutant():
    checks = {_header(p)[1]["check"] for p in MUTANTS}
    sampled = {_header(p)[1]["check"] for p in MUTANTS if p.stem in QUICK}
    assert sampled == checks
    assert 0.1 * len(MUTANTS) < len(QUICK) < 0.4 * len(MUTANTS)
    assert quick_sample(list(reversed(MUTANTS))) == QUICK  # fixed by the names, not by the order found


@pytest.mark.parametrize("path", [_tier(p) for p in MUTANTS], ids=lambda p: p.stem)
def test_mutant_is_caught_once_and_named(path, tmp_path, judge_with, grade_with):
    _, expect = _header(path)
    module = _module(path)
    exercise = EXERCISE_OF[module]
    grader = grade_with if path.stem in IN_A_CHILD else judge_with  # see IN_A_CHILD
    report = grader(submission_with(tmp_path, {module: path}), only=(exercise,))
    checks = by_id(report)
    target = checks[expect["check"]]
    assert target.status != "pass", f"{expect['check']} passed: the mistake went unnoticed"
    assert target.score < target.max_score
    assert target.mistake == expect["mistake"], (
        f"{expect['check']} named {target.mistake!r}, expected {expect['mistake']!r} (message: {target.message!r})")
    assert expect["hint"].lower() in target.hint.lower(), (
        f"{expect['check']} gave the hint {target.hint!r} (message: {target.message!r})")
    also = set(expect.get("also", []))
    others = [p for p in _problems(report, exercise) if p[0] != expect["check"]]
    assert {p[0] for p in others} == also, f"charged elsewhere (expected only {sorted(also)}): {others}"
    failing = [c for c in report.checks if c.exercise == exercise and c.status in ("fail", "error")]
    assert len(failing) <= expect["max_failing"], f"{len(failing)} checks fail: {[c.id for c in failing]}"
    wrong_names = [(c.id, c.mistake) for c in failing if c.mistake not in ("", expect["mistake"])]
    assert wrong_names == [], f"hints that name a mistake this code does not have: {wrong_names}"
    scratch = [c.id for c in report.checks if "jax-grader-" in c.message]
    assert scratch == [], f"messages that name the run's scratch folder (random, so the report would vary): {scratch}"
    installed = [c.id for c in report.checks if str(INSTALLED_AT) in c.message]
    assert installed == [], f"messages that name where the grader is installed (the report would vary): {installed}"


SAMPLE = [next(p for p in MUTANTS if p.name.startswith(module)) for module in sorted(EXERCISE_OF)]


@pytest.mark.e2e
@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: p.stem)
def test_observed_here_is_graded_as_a_child_is(path, tmp_path, grade_with, judge_with):
    """The corpus tests observe in this process (``observe_here``); a real child gives the same grade.

    Messages are compared with their numbers masked: ex4's quote times measured on this machine."""
    exercise = EXERCISE_OF[_module(path)]
    submission = submission_with(tmp_path, {_module(path): path})
    verdicts = [[(c.id, c.status, c.score, c.mistake, c.hint, re.sub(r"\d+(\.\d+)?", "#", c.message))
                 for c in report.checks]
                for report in (grade_with(submission, only=(exercise,)), judge_with(submission, only=(exercise,)))]
    assert verdicts[0] == verdicts[1]


def test_mechanical_mutants_are_single_edits_that_parse():
    """scripts/mechanical_mutants.py: every mutant of a reference parses, differs from it, and differs from it by
    the one edit it names."""
    import importlib.util

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("mechanical_mutants", root / "scripts" / "mechanical_mutants.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    source = (root / "reference" / "ex3_mlp_forward.py").read_text(encoding="utf-8")
    made = module.mutants(source)
    texts = [text for _, text in made]
    assert len(set(texts)) == len(texts) >= 5
    original = ast.unparse(ast.parse(source))
    for words, text in made:
        ast.parse(text)
        assert text != original, words
    sub = next(text for words, text in made if "became x @ last['w'] - last['b']" in words)
    assert "x @ last['w'] - last['b']" in sub and "x @ last['w'] + last['b']" not in sub
