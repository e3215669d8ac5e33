"""Grade a submission: run each exercise in its own sandbox, judge in this process, score.

This process never imports student code (nor jax): children observe, the
checks judge their observations against the reference run's, and the rubric
turns verdicts into points.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from grader import inputs as grader_inputs
from grader import compiled_cache, lesson_cache
from grader.checks import Check, Context, Missing, Mistake, StudentError, Unfinished, Verdict
from grader.checks.common import DELETED_ARRAY, crash_hint
from grader.checks.registry import BY_ID as CHECKS_BY_ID
from grader.checks.registry import CHECKS
from grader.config import Options
from grader.exercises import ALL, BY_ID, IDS, MODULES
from grader.exercises.accuracy.shared import CURVES_OPTION
from grader.results import RUN_ENDINGS, CheckResult, Report, RunRecord
from grader.rubric import Rubric, RubricError, load_rubric
from grader.sandbox import NONE, offered, require_full, run_task, warm_up
from grader.expected import load_reference, task_compilation_cache
from grader.expected.cache import default_cache_dir
from grader.expected.sealed import is_sealed
from grader.observations import RESULT_DOES_NOT_FIT, Limits, ObservationError, Observations, RunResult
from grader.protocol import DELETED_ARRAY_WORDS, SKIP_LESSON
from grader.submission import Submission, load_submission

NOT_IMPLEMENTED = "not implemented yet"
PUBLIC_INPUTS_NOTE = ("The official grade uses other inputs of the same kind: passing here is necessary, "
                      "not sufficient.")
OnRun = Callable[[str, str, float], None]
#: The runs whose observations answer a lesson's question.
_ANSWERS_A_QUESTION = frozenset(e.question_from for e in ALL if e.question_from)
#: How one exercise is run and observed: ``runner(task, submission_dir, inputs_path, workdir, limits, extra_args,
#: compilation_cache) -> RunResult``, where ``compilation_cache`` is shared by the runs and must not be written;
#: a grade that keeps a submission's own compiled programs (``Options.keep_compiled``) passes that folder with
#: ``cache_writable=True``.
#: The grader's is :func:`run_confined`.
Runner = Callable[..., RunResult]


@dataclass
class _Run:
    task: str
    result: RunResult
    skipped: str = ""

    def record(self) -> RunRecord:
        """How this run ended, as the report carries it."""
        if self.skipped:
            return RunRecord("not_run", self.skipped)
        r = self.result
        return RunRecord(r.status, r.detail, round(r.seconds, 3))


def _run_student(task: str, submission: Submission, sub_dir: Path, inputs_path: Path, workdir: Path,
                 options: Options, compilation_cache: Path | None, notify: OnRun, runner: Runner) -> _Run:
    notify(task, "running", 0.0)
    run = _run_student_task(task, submission, sub_dir, inputs_path, workdir, options, compilation_cache, runner)
    notify(task, "done", run.result.seconds)
    return run


def _run_student_task(task: str, submission: Submission, sub_dir: Path, inputs_path: Path, workdir: Path,
                      options: Options, compilation_cache: Path | None, runner: Runner) -> _Run:
    missing = [m for m in BY_ID[task].modules if m not in submission.sources]
    if missing:
        return _Run(task, RunResult("ok", Observations(), 0.0),
                    skipped=f"the submission has no {', '.join(m + '.py' for m in missing)}")
    extra = (CURVES_OPTION,) if task == "accuracy" and options.plots_dir else ()
    if not options.lesson and task in _ANSWERS_A_QUESTION:
        extra += (SKIP_LESSON,)
    kept, name, cache_dir = None, "", options.cache_dir or default_cache_dir()
    if options.lesson and options.use_cache and task in lesson_cache.ANSWERS:  # what this content answered before
        name = lesson_cache.key(task, submission, inputs_path)
        kept = lesson_cache.load(cache_dir, task, name)
        if kept is not None:
            extra += (SKIP_LESSON,)
    own = _own_compiled(task, submission, options, compilation_cache)
    if own is not None:
        result = runner(task, sub_dir, inputs_path, workdir / task, options.limits, extra, own, cache_writable=True)
        compiled_cache.trim(own)
    else:
        result = runner(task, sub_dir, inputs_path, workdir / task, options.limits, extra, compilation_cache)
    if (own or compilation_cache) is not None and result.status == "crashed" and result.returncode == -signal.SIGILL:
        # A program it loaded was compiled for another CPU than this one (xla_options.portable): the same run
        # again, compiling every program itself, gives what this CPU computes.
        again = runner(task, sub_dir, inputs_path, workdir / f"{task}-again", options.limits, extra, None)
        result = replace(again, detail=AGAIN_WITHOUT_CACHE) if again.status == "ok" else again
    if kept is not None and result.status == "ok":
        result = replace(result, observations=replace(result.observations,
                                                      values={**result.observations.values, **kept}))
    elif name and result.status == "ok":
        lesson_cache.store(cache_dir, task, name, result.observations.values)
    return _Run(task, result)


#: What a run's record says when it was run again without the compiled programs it was given.
AGAIN_WITHOUT_CACHE = ("run again without the compiled programs it was given: one of them, compiled on another CPU, "
                       "stopped it with an instruction this CPU lacks (SIGILL)")


def _own_compiled(task: str, submission: Submission, options: Options, compilation_cache: Path | None) -> Path | None:
    """The folder where this submission's run of ``task`` keeps what it compiles (:mod:`grader.compiled_cache`),
    when its grade may keep anything: a student's own grade (``keep_compiled``) of the public inputs against a
    sealed reference, whose compilation cache was made on another machine. None otherwise: the runs then read
    the reference's cache and write nothing."""
    if not (options.keep_compiled and options.use_cache and options.seed is None and compilation_cache is not None
            and is_sealed(compilation_cache.parent)):
        return None
    return compiled_cache.folder(options.cache_dir or default_cache_dir(), submission.origin, task,
                                 task_compilation_cache(compilation_cache, task))


def run_confined(task: str, submission_dir: Path, inputs_path: Path, workdir: Path, limits: Limits,
                 extra_args: tuple[str, ...], compilation_cache: Path | None, *,
                 cache_writable: bool = False) -> RunResult:
    """The grader's runner: a confined child that reads its task's part of the compilation cache and writes
    nothing there (what it compiles is its own), so every run shares the one folder without a copy. With
    ``cache_writable``, ``compilation_cache`` is the run's own folder, which it fills."""
    folder = compilation_cache if cache_writable else task_compilation_cache(compilation_cache, task)
    return run_task(task, submission_dir, inputs_path, workdir, limits, extra_args, folder,
                    cache_writable=cache_writable)


def grade(path: str | Path | Submission, options: Options = Options(), *, on_run: OnRun | None = None,
          runner: Runner = run_confined) -> Report:
    """Grade the submission at ``path`` (folder, ``.py`` or ``.ipynb``, or one already loaded) and return its report.

    ``on_run(task, "running", 0.0)`` is called when a task's child starts and ``(task, "done", seconds)`` when it
    ends, from the worker threads (a progress display). ``runner`` runs and observes the submission's exercises
    (the reference's are the sandbox's own); the test suite passes one that observes trusted corpus code in its
    own process.
    """
    notify = on_run or (lambda task, state, seconds: None)
    started = time.monotonic()
    warm_up(options.limits)  # the fork server imports jax while this process prepares
    rubric = load_rubric(CHECKS)
    submission = path if isinstance(path, Submission) else load_submission(path)
    confinement = offered() if options.limits.confine else NONE
    if options.require_confinement:
        require_full(confinement)
    tasks = sorted((t for t in IDS if t in options.only), key=lambda t: -BY_ID[t].cost)
    with tempfile.TemporaryDirectory(prefix="jax-grader-") as tmp:
        workdir = Path(tmp)
        inputs = grader_inputs.build(options.seed)
        inputs_path = grader_inputs.write(workdir / "inputs.npz", options.seed)
        sub_dir = submission.write(workdir / "submission")
        jobs = options.jobs or os.cpu_count() or 1
        with ThreadPoolExecutor(max_workers=jobs) as pool, ThreadPoolExecutor(max_workers=1) as beside:
            futures = {}

            def lane(task: str) -> ThreadPoolExecutor:
                """A run that mostly waits goes beside the others when several run at once."""
                return beside if BY_ID[task].waits and jobs > 1 else pool

            def start(ready: dict[str, Path | None]) -> None:
                """The runs the reference has compiled for start at once, before its observations are read or
                any of its own runs waited for."""
                for task in tasks:
                    if task in ready:
                        futures[task] = lane(task).submit(_run_student, task, submission, sub_dir, inputs_path,
                                                          workdir, options, ready[task], notify, runner)

            ref = load_reference(tuple(tasks), inputs_path, workdir, pool, reference_dir=options.reference_dir,
                                 cache_dir=options.cache_dir, use_cache=options.use_cache, limits=options.limits,
                                 expected_digest=options.reference_digest, seed=options.seed,
                                 warm=options.use_cache, start=start)
            for task in tasks:
                if task not in futures:
                    futures[task] = lane(task).submit(_run_student, task, submission, sub_dir, inputs_path,
                                                      workdir, options, ref.compilation_cache, notify, runner)
            judging, ended = Judging(ref.observations, rubric, inputs), {}
            for future in as_completed(futures.values()):  # each exercise judged while the others still run
                run = future.result()
                ended[run.task] = run
                judging.ready(run.task, ended)
            runs = {task: ended[task] for task in tasks}
        if not options.use_cache and ref.manifest is None and ref.compilation_cache is not None:
            # a fresh reference's private folder (never a sealed one's)
            shutil.rmtree(ref.compilation_cache.parent, ignore_errors=True)
    results, details = judging.finish(runs)
    results = _with_reproductions(results, runs, ref.observations, submission, options, inputs)
    timings = {task: round(run.result.seconds, 3) for task, run in runs.items()}
    timings["total"] = round(time.monotonic() - started, 3)
    notes = [f"{name} is missing from the submission" for name in submission.missing()] + list(ref.notes)
    observed = {task: run.result.observations for task, run in runs.items() if run.result.status == "ok"}
    lesson = _lesson(observed)
    if options.plots_dir:
        from grader.plots import save_plots

        written = save_plots(options.plots_dir, observed.get("accuracy"), observed.get("ex2"), lesson)
        notes.append(f"plots written: {', '.join(str(p) for p in written)}" if written else
                     "no plots written: the accuracy and ex2 runs produced nothing to plot")
    return Report(
        checks=tuple(results), submission=str(submission.origin), answers=submission.answers,
        accuracy=_exercise_details(details, "accuracy"), timings=timings, notes=tuple(notes), lesson=lesson,
        runs={task: runs[task].record() for task in IDS if task in runs},
        confinement=confinement.to_json(),
        inputs=describe_inputs(options.seed), reference=ref.describe(),
    )


def _exercise_details(details: dict[str, dict], exercise: str) -> dict:
    """What the exercise's judges measured (the accuracy run's accuracy and final loss), as one dict."""
    merged: dict = {}
    for check in CHECKS:
        if check.exercise == exercise:
            merged.update(details.get(check.id, {}))
    return merged


def describe_inputs(seed: int | None) -> dict[str, str]:
    """What a report says about the inputs: never the seed's value, which students must not learn."""
    if seed is None:
        return {"kind": "public", "note": PUBLIC_INPUTS_NOTE}
    return {"kind": "secret seed"}


def failure_report(submission: str, only: tuple[str, ...], reason: str, students_fault: bool) -> Report:
    """A report for a grading that could not run: every selected check an ``error`` that says why."""
    hint = ("Submit a folder with the exercise files (ex1_dropout.py ... ex5_clipping.py), or one .py or .ipynb "
            "file that defines all the functions." if students_fault else
            "This is a problem with the grader, not with your code: tell your instructor.")
    runs = {exercise: RunRecord("not_run", reason) for exercise in IDS if exercise in only}
    try:
        points = load_rubric(CHECKS).points
    except RubricError:
        return Report(checks=(), submission=submission, notes=(reason,), runs=runs)
    checks = tuple(
        CheckResult(id=c.id, exercise=c.exercise, name=c.name, status="error", score=0.0,
                    max_score=points[c.id], message=f"not graded: {reason}", hint=hint)
        for c in CHECKS if c.exercise in only
    )
    return Report(checks=checks, submission=submission, notes=(reason,), runs=runs)


def _lesson(observed: dict[str, Observations]) -> dict:
    """The lesson's questions (``grader.lesson``) that this run's observations answer."""
    from grader import lesson

    return lesson.answer(observed)


def _with_reproductions(results: list[CheckResult], runs: dict[str, _Run], reference: dict[str, Observations],
                        submission: Submission, options: Options, inputs: dict) -> list[CheckResult]:
    """Attach to each failed value check how to reproduce it (``grader.reproduce``)."""
    from grader import reproduce

    observed = {task: run.result.observations for task, run in runs.items() if not run.skipped}
    secret = options.seed is not None  # secret inputs never show their values: only shapes and kinds
    module = submission.origin.stem if submission.kind == "py" else None
    return reproduce.annotate(results, observed, reference, inputs, submission_kind=submission.kind,
                              module=module, secret=secret)


def judge_all(runs: dict[str, _Run], reference: dict[str, Observations], rubric: Rubric,
              inputs: dict | None = None) -> tuple[list[CheckResult], dict[str, dict]]:
    """Every selected check's result, in rubric order, judged on ``inputs`` (default: the public ones).

    Also returns what the judges measured for the report (:attr:`Verdict.details`), by check id. A check's
    required checks and the checks whose verdicts it reads are judged before it; their verdicts are passed in.
    """
    judging = Judging(reference, rubric, grader_inputs.build() if inputs is None else inputs)
    return judging.finish(runs)


class Judging:
    """The checks of a grade, judged exercise by exercise as runs end: :meth:`ready` judges one exercise's while
    the other runs go on, :meth:`finish` whatever is left. A check depends only on its exercise's run and on
    checks of that exercise (``grader.checks.registry`` holds every check to that), so the order changes nothing."""

    def __init__(self, reference: dict[str, Observations], rubric: Rubric, inputs: dict) -> None:
        self._reference, self._rubric, self._inputs = reference, rubric, inputs
        self._results: dict[str, CheckResult] = {}
        self._outcomes: dict[str, Verdict | BaseException] = {}

    def ready(self, task: str, runs: dict[str, _Run]) -> None:
        """Judge the checks of ``task``, whose run (in ``runs``) has ended."""
        for check in CHECKS:
            if check.exercise == task:
                self._judge(check, runs)

    def finish(self, runs: dict[str, _Run]) -> tuple[list[CheckResult], dict[str, dict]]:
        """Every check of the exercises run, in rubric order, and what the judges measured, by check id."""
        ordered = [self._judge(check, runs) for check in CHECKS if check.exercise in runs]
        details = {check_id: outcome.details for check_id in _judging_order(runs)
                   if isinstance(outcome := self._outcomes[check_id], Verdict) and outcome.details}
        return ordered, details

    def _judge(self, check: Check, runs: dict[str, _Run]) -> CheckResult:
        results, outcomes = self._results, self._outcomes
        if check.id not in results:
            run = runs[check.exercise]
            required = [self._judge(CHECKS_BY_ID[r], runs) for r in check.requires]
            for read in check.reads:
                self._judge(CHECKS_BY_ID[read], runs)
            blockers = [r for r in required if r.score <= 0]
            blocking = ", ".join(r.id for r in blockers)
            if blockers:
                unfinished = all(r.message.startswith(NOT_IMPLEMENTED) for r in blockers)
                message = (f"{NOT_IMPLEMENTED}: judged once {blocking} works" if unfinished
                           else f"not judged until {blocking} earns credit")
                results[check.id] = _result(
                    check, "skipped", self._rubric.points[check.id], 0, run, message,
                    f"Fix {blocking} first; this check is about a side property of working code.")
                outcomes[check.id] = Missing(f"{check.id} was not judged: {message}")
            else:
                ref = self._reference.get(check.exercise, Observations())
                verdicts = {read: outcomes[read] for read in check.reads}
                results[check.id], outcomes[check.id] = _judge_one(check, run, ref, self._rubric.points[check.id],
                                                                   self._inputs, verdicts)
        return results[check.id]


def _judging_order(runs: dict[str, _Run]) -> list[str]:
    """The checks of the exercises run, in rubric order, each after the checks it requires and reads: the order
    the report's details come in, whatever order the runs ended in."""
    order: dict[str, None] = {}

    def visit(check: Check) -> None:
        if check.id not in order:
            for other in (*check.requires, *check.reads):
                visit(CHECKS_BY_ID[other])
            order[check.id] = None

    for check in CHECKS:
        if check.exercise in runs:
            visit(check)
    return list(order)


def _result(check: Check, status: str, points: float, credit: float, run: _Run, message: str = "",
            hint: str = "", mistake: str = "") -> CheckResult:
    return CheckResult(
        id=check.id, exercise=check.exercise, name=check.name, status=status,  # type: ignore[arg-type]
        score=round(points * credit, 2), max_score=points, message=message, hint=hint,
        seconds=round(run.result.seconds, 3), mistake=mistake,
    )


def _judge_one(check: Check, run: _Run, reference: Observations, points: float, inputs: dict,
               verdicts: dict[str, Verdict | BaseException]) -> tuple[CheckResult, Verdict | BaseException]:
    """The check's result, and its judge's outcome for the checks that read it (its verdict, or what it raised)."""
    result = run.result
    if run.skipped:
        return (_result(check, "error", points, 0, run, run.skipped, "Add the file (see exercises/) and grade again."),
                Missing(f"{check.id} was not judged: {run.skipped}"))
    if result.status != "ok":
        return (_result(check, "error", points, 0, run, _run_failure(run), _run_failure_hint(run)),
                Missing(f"{check.id} was not judged: {_run_failure(run)}"))
    obs = result.observations
    if obs.import_error:
        return (_student_error(check, points, run, obs.import_error, importing=True),
                Missing(f"{check.id} was not judged: the submission failed to import"))
    ctx = Context(obs, reference, inputs, verdicts)
    try:
        verdict: Verdict = check.judge(ctx)
    except Unfinished as exc:  # the student has not written a function the check needs
        return _student_error(check, points, run, exc.error), exc
    except StudentError as exc:
        return _student_error(check, points, run, exc.error), exc
    except Missing as exc:
        return (_result(check, "error", points, 0, run, f"the grader could not judge this check: {exc}",
                        "This is a problem with the grader or its reference run, not with your code; report it."),
                exc)
    except Exception as exc:  # noqa: BLE001 - odd student output must cost one check, not the report
        return (_result(check, "error", points, 0, run,
                        f"the grader could not judge the values returned ({type(exc).__name__}: {exc})",
                        "Check the return types and shapes in the docstrings."), exc)
    if verdict.skipped:
        return (_result(check, "skipped", points, 0, run, verdict.message,
                        "Fix the failing check named above first; this one is judged once it passes."), verdict)
    status = "pass" if verdict.passed else "fail"
    if verdict.passed:
        return _result(check, status, points, verdict.credit, run, verdict.message), verdict
    return _result(check, status, points, verdict.credit, run, verdict.message, verdict.hint, verdict.mistake), verdict


def _run_failure(run: _Run) -> str:
    r = run.result
    return f"running {run.task} {RUN_ENDINGS[r.status]}: {r.detail}"


#: What a student is told when the grader's own machinery failed (no student code ran).
HARNESS_HINT = ("This is a problem with the grader or its installation, not with your code: show your instructor "
                "the error output above.")


def _run_failure_hint(run: _Run) -> str:
    r = run.result
    if r.status == "harness":
        return HARNESS_HINT
    if r.status == "timeout":
        return "Look for an infinite loop, a very slow Python loop, or code that waits for input."
    if r.status == "memory":
        return "The run ran out of memory: look for huge arrays or lists that grow without end (limit: --memory)."
    if r.status == "bad_output":
        return "Leave the grader's result files alone: code that writes, moves or replaces them scores 0 here."
    if r.status == "crashed" and any(words in r.detail for words in DELETED_ARRAY_WORDS):
        return DELETED_ARRAY  # the last output the child wrote names JAX's error
    if "SIG" in r.detail:
        return "The process crashed inside native code; run your functions on small inputs yourself to find where."
    return ("The process ended before reporting: look for sys.exit, os._exit, quit() or exit() in your code "
            "and raise an exception instead.")


#: Hints by exception type for crashes whose kind (grader.checks.common.CRASH_HINTS) says nothing.
_ERROR_HINTS: tuple[tuple[str, str], ...] = (
    ("ImportError", "Only jax, jax.numpy, optax, numpy and the standard library may be imported."),
    ("ModuleNotFoundError", "Only jax, jax.numpy, optax, numpy and the standard library may be imported."),
    ("SyntaxError", "Fix the syntax error; `python -c 'import <module>'` in your folder shows it."),
)


def _generic_error_hint(error: ObservationError) -> str | Mistake:
    known = crash_hint(error)  # chosen from the crash's kind (data), before any wording by type
    if known:
        return known
    return next((h for name, h in _ERROR_HINTS if name == error.type),
                "Read the traceback: it shows the line in your code that failed.")


def _student_error(check: Check, points: float, run: _Run, error: ObservationError, importing: bool = False) -> CheckResult:
    functions = ", ".join(check.functions) or check.exercise
    if error.type == "NotImplementedError":
        hint = (f"This check trains with {functions}: finish those exercises first." if check.exercise == "accuracy"
                else f"Write {functions} (see the docstring in {MODULES[check.exercise]}.py).")
        return _result(check, "fail", points, 0, run, f"{NOT_IMPLEMENTED} ({error.message})", hint)
    where = "importing the submission" if importing else functions
    # a result the grader refused is said as that result: nothing raised inside the code
    message = (f"{where}: {error.message}" if error.kind == RESULT_DOES_NOT_FIT
               else f"{where} raised {error.type}: {error.message}")
    if error.kind == "probe_stopped":
        message = (f"not observed: the grader's run of {check.exercise} stopped before it, on {error.type}: "
                   f"{error.message} in one of the grader's own steps")
    if error.detail:
        message += f"; measured: {error.detail}"
    if error.traceback:
        message += "\n" + error.traceback
    known = (check.error_hint(error) if check.error_hint else "") or _generic_error_hint(error)
    file, line = error.location()
    if isinstance(known, Mistake):
        return replace(_result(check, "error", points, 0, run, message, known.hint, known.id), file=file, line=line)
    return replace(_result(check, "error", points, 0, run, message, known), file=file, line=line)

