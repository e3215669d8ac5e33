"""Command line: ``python -m grader [SUBMISSION] [--json PATH] [options]``.

Parses arguments and calls importable functions; exits 0 whenever grading
finished (whatever the score), 1 when ``--fail-under`` says so, 2 when the
grader could not run. One run writes every report format asked for
(``--json``, ``--classroom``, ``--gradescope``, ``--junit``, ``--markdown``,
``--classroom50``, ``--prairielearn``)
from the same :class:`~grader.results.Report`. When grading cannot run, the
formats asked for are still written, every check marked ``error`` with the
reason, so a platform shows why instead of a missing file; the exit status
is still 2.

``python -m grader gradescope-zip OUT.zip`` builds Gradescope's autograder zip;
``python -m grader seal OUT`` seals the reference's observations and
``python -m grader init DIR`` writes the exercise stubs (:mod:`grader.release`).
``--seed N`` (or ``$JAX_GRADER_SEED``) grades on inputs drawn from seed N.
"""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Iterator

from rich.console import Console

from grader.engine import Options, failure_report, grade
from grader.inputs import SeedError, check_seed
from grader.sandbox import ConfinementRefused
from grader.progress import ExerciseProgress
from grader.reference import ReferenceRunError
from grader.report import WRITERS
from grader.report._common import stop_workflow_commands
from grader.report.classroom50 import Classroom50Error, identity_from_env
from grader.report.terminal import print_report
from grader.exercises import IDS as EXERCISES
from grader.results import Report
from grader.rubric import RubricError
from grader.observations import Limits
from grader.exercises import MODULES
from grader.submission import SubmissionError

EXIT_OK, EXIT_BELOW, EXIT_GRADER = 0, 1, 2
DEFAULT_SUBMISSION = "exercises"
GRADESCOPE_ZIP = "gradescope-zip"
SEED_ENV = "JAX_GRADER_SEED"
#: Report formats written to a file: (writer name in WRITERS, argparse dest, what the user is told).
FILE_FORMATS = (
    ("json", "json", "JSON report"),
    ("gradescope", "gradescope", "Gradescope results"),
    ("junit", "junit", "JUnit XML"),
    ("markdown", "markdown", "Markdown report"),
    ("classroom50", "classroom50", "Classroom 50 result.json"),
    ("prairielearn", "prairielearn", "PrairieLearn results.json"),
)
NO_GITHUB_OUTPUT = (
    "--classroom writes the step output `result` to the file named by $GITHUB_OUTPUT, which is not set. "
    "Run it inside a GitHub Actions step (see docs/integrations.md), or set GITHUB_OUTPUT=some-file to try it locally."
)


def absolute(path: Path | None) -> Path | None:
    """``path`` made absolute against the working folder, once, here at the command line.

    Runs happen in other processes (the fork server works from ``/``, each
    child from its own scratch folder, batch workers from theirs), so nothing
    below the command line may see a path that means something only here.
    """
    return None if path is None else Path(os.path.abspath(os.path.expanduser(path)))


def default_submission() -> str:
    """What to grade when no SUBMISSION is given: ``exercises/`` (a checkout, or a folder made by ``init``
    under that name), else the working folder when it holds exercise files (run inside the folder ``init``
    wrote), else ``exercises`` (whose absence the error then names)."""
    if not Path(DEFAULT_SUBMISSION).exists() and any(Path(f"{m}.py").is_file() for m in MODULES.values()):
        return "."
    return DEFAULT_SUBMISSION


def _exercises(text: str) -> tuple[str, ...]:
    chosen = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [c for c in chosen if c not in EXERCISES]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"unknown exercise(s) {unknown}; choose from {', '.join(EXERCISES)}")
    return chosen


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m grader",
        description="Grade the exercises of the lesson 'Introduction to JAX'.",
        epilog="Exit status: 0 when grading finished, whatever the score; 1 when the score is below "
               "--fail-under; 2 when the grader could not run (the reports asked for are still written, saying why). "
               f"'python -m grader {GRADESCOPE_ZIP} OUT.zip' builds the Gradescope autograder zip; "
               "'python -m grader init DIR' writes the exercise stubs; 'python -m grader seal OUT' seals the "
               "reference's observations; 'python -m grader explain CHECK_ID [SUBMISSION]' explains one check "
               "and how to reproduce it.",
    )
    parser.add_argument("submission", nargs="?",
                        help="a folder with the five exercise files, a .py file or an .ipynb notebook "
                             "(default: exercises/, else the working folder if it holds the exercise files)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the JSON report to PATH")
    parser.add_argument("--classroom", action="store_true",
                        help="append the GitHub Classroom result (step output `result`, for "
                             "classroom-resources/autograding-grading-reporter@v1) to the file named by $GITHUB_OUTPUT")
    parser.add_argument("--gradescope", type=Path, metavar="PATH",
                        help="write Gradescope's results.json to PATH")
    parser.add_argument("--junit", type=Path, metavar="PATH",
                        help="write JUnit XML to PATH (one testsuite per exercise, one testcase per check)")
    parser.add_argument("--markdown", type=Path, metavar="PATH",
                        help='write the report as Markdown to PATH (e.g. "$GITHUB_STEP_SUMMARY"); replaces PATH')
    parser.add_argument("--classroom50", type=Path, metavar="PATH",
                        help="write Classroom 50's result.json (classroom50/result/v1) to PATH; the identity comes "
                             "from the runner's environment ($CLASSROOM, $ASSIGNMENT, $SUBMISSION_TAG, $COMMIT_URL, "
                             "$RELEASE_URL)")
    parser.add_argument("--prairielearn", type=Path, metavar="PATH",
                        help="write PrairieLearn's external-grader results.json to PATH (the PNGs in the folder "
                             "'plots' beside it become its images)")
    parser.add_argument("--only", type=_exercises, metavar="EX[,EX...]",
                        help=f"grade only these exercises ({', '.join(EXERCISES)})")
    parser.add_argument("--verbose", "-v", action="store_true", help="also list passing checks and timings")
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the total")
    parser.add_argument("--timeout", type=float, default=Limits.timeout, metavar="S",
                        help="wall-clock limit per exercise run, in seconds (default %(default)s)")
    parser.add_argument("--memory", type=float, default=Limits.memory_bytes / 2**30, metavar="GB",
                        help="address-space limit per exercise run, in GiB (default %(default)s)")
    parser.add_argument("--jobs", type=int, default=0, metavar="N",
                        help="exercise runs at once (default: one per CPU core)")
    parser.add_argument("--plots", type=Path, metavar="DIR",
                        help="save training-loss and gradient-norm plots (PNG) to DIR")
    parser.add_argument("--reference", type=Path, metavar="DIR",
                        help="what to compare with: the reference solutions, or a sealed reference (python -m "
                             "grader seal)")
    parser.add_argument("--no-cache", action="store_true", help="recompute the reference observations")
    parser.add_argument("--require-confinement", action="store_true",
                        help="refuse to grade unless every exercise run is fully confined (Landlock and seccomp), "
                             "as an official grade must be (the Gradescope autograder sets it)")
    parser.add_argument("--allow-unconfined", action="store_true",
                        help="cancel --require-confinement: grade even where runs cannot be fully confined")
    add_seed_option(parser)
    parser.add_argument("--watch", action="store_true",
                        help="grade, then re-grade on every save the exercises whose files changed (Ctrl-C stops)")
    parser.add_argument("--fail-under", type=float, metavar="N",
                        help="exit with status 1 when the score is below N points (for CI); the reports are "
                             "written first")
    return parser


def _seed(text: str) -> int:
    try:
        return check_seed(text)
    except SeedError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def add_seed_option(parser: argparse.ArgumentParser, what: str = "grade") -> None:
    parser.add_argument("--seed", type=_seed, metavar="N",
                        help=f"{what} on inputs drawn from seed N (the official grade's secret inputs; default "
                             f"${SEED_ENV}, else the fixed public inputs)")


def seed_from(args: argparse.Namespace) -> int | None:
    """``--seed``, else ``$JAX_GRADER_SEED`` (raises ``SeedError`` if it is not a seed), else ``None``."""
    if args.seed is not None:
        return args.seed
    text = os.environ.get(SEED_ENV, "").strip()
    try:
        return check_seed(text) if text else None
    except SeedError as exc:
        raise SeedError(f"${SEED_ENV}: {exc}") from exc


def outputs(args: argparse.Namespace) -> list[tuple[str, Path, str]]:
    """``(writer, destination, label)`` for every format asked for; ``--classroom`` resolves $GITHUB_OUTPUT."""
    chosen = [(writer, getattr(args, dest), label) for writer, dest, label in FILE_FORMATS if getattr(args, dest)]
    if args.classroom:
        chosen.append(("classroom", Path(os.environ["GITHUB_OUTPUT"]), "GitHub Classroom result ($GITHUB_OUTPUT)"))
    return chosen


def write_reports(report: Report, chosen: list[tuple[str, Path, str]], quiet: bool = False) -> bool:
    """Write every format; a failure to write one does not stop the others. True when all were written."""
    ok = True
    for writer, dest, label in chosen:
        try:
            WRITERS[writer](report, dest)
        except OSError as exc:
            print(f"error: could not write the {label} to {dest}: {exc}", file=sys.stderr)
            ok = False
            continue
        if not quiet:
            print(f"{label} written to {dest}")
    return ok


@contextmanager
def inert_workflow_commands() -> Iterator[None]:
    """Inside GitHub Actions, keep printed text (which quotes student errors) from acting as ``::commands::``."""
    lines = stop_workflow_commands()
    if lines is None:
        yield
        return
    stop, resume = lines
    print(stop, flush=True)
    try:
        yield
    finally:
        print(resume, flush=True)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["batch"], ["merge"]):
        from grader.batch.cli import main as batch_main

        return batch_main(argv)
    if argv[:1] == ["explain"]:
        from grader.explain import main as explain_main

        return explain_main(argv[1:])
    if argv[:1] == [GRADESCOPE_ZIP]:
        from grader.gradescope import zip_main

        return zip_main(argv[1:])
    if argv[:1] in (["seal"], ["init"]):
        return release_main(argv)
    args = build_parser().parse_args(argv)
    args.submission = args.submission or default_submission()
    if args.timeout <= 0 or args.memory <= 0 or args.jobs < 0:
        print("error: --timeout and --memory must be positive and --jobs non-negative", file=sys.stderr)
        return EXIT_GRADER
    if args.classroom and not os.environ.get("GITHUB_OUTPUT"):
        print(f"error: {NO_GITHUB_OUTPUT}", file=sys.stderr)
        return EXIT_GRADER
    if args.classroom50:
        try:
            identity_from_env()
        except Classroom50Error as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_GRADER
    try:
        seed = seed_from(args)
    except SeedError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_GRADER
    chosen = outputs(args)
    if args.watch:
        return watch_main(args, chosen)
    options = Options(
        only=args.only or EXERCISES,
        limits=Limits(timeout=args.timeout, memory_bytes=int(args.memory * 2**30)),
        jobs=args.jobs,
        reference_dir=absolute(args.reference),
        use_cache=not args.no_cache,
        plots_dir=absolute(args.plots),
        require_confinement=args.require_confinement and not args.allow_unconfined,
        seed=seed,
    )
    try:
        tasks = tuple(e for e in EXERCISES if e in options.only)
        with ExerciseProgress(tasks, Console(stderr=True), enabled=not args.quiet) as shown:
            report = grade(args.submission, replace(options, on_run=shown.update))
    except (SubmissionError, ReferenceRunError, RubricError, ConfinementRefused) as exc:
        students_fault = isinstance(exc, SubmissionError)
        with inert_workflow_commands():
            print(f"{'error' if students_fault else 'grader error'}: {exc}", file=sys.stderr)
            if chosen:
                reason = f"{'the submission cannot be graded' if students_fault else 'the grader could not run'}: {exc}"
                write_reports(failure_report(str(args.submission), options.only, reason, students_fault), chosen,
                              args.quiet)
        return EXIT_GRADER
    with inert_workflow_commands():
        if args.quiet:
            print(f"{report.score:g} / {report.max_score:g}")
        else:
            print_report(report, verbose=args.verbose)
        if not write_reports(report, chosen, args.quiet):
            return EXIT_GRADER
    if args.fail_under is not None and report.score < args.fail_under:
        print(f"score {report.score:g} is below --fail-under {args.fail_under:g}", file=sys.stderr)
        return EXIT_BELOW
    return EXIT_OK


def release_main(argv: list[str]) -> int:
    """``seal [--reference DIR] [--seed N] OUT`` and ``init [--force] DIR``."""
    from grader.release import ReleaseError, init, seal

    parser = argparse.ArgumentParser(prog="python -m grader")
    commands = parser.add_subparsers(dest="command", required=True)
    sealing = commands.add_parser(
        "seal", help="seal the reference's observations",
        description="Run the reference solutions through the grader's probes and write what they observed, with "
                    "a manifest (grader, jax, jaxlib, optax and numpy versions, platform, inputs), to OUT. Grade "
                    "against it with --reference OUT, without the solutions. The package ships one for the "
                    "public inputs: python -m grader seal grader/_sealed")
    sealing.add_argument("out", type=Path, metavar="OUT", help="folder to write (new, empty, or a sealed reference)")
    sealing.add_argument("--reference", type=Path, metavar="DIR", help="the reference solutions to run")
    sealing.add_argument("--no-cache", action="store_true", help="run the reference afresh, not from the cache")
    add_seed_option(sealing, "seal the observations")
    starting = commands.add_parser(
        "init", help="write the exercise stubs into a folder",
        description="Write the five exercise files and answers.md into DIR, to start the exercises from a "
                    "grader installed with pip; then grade them with: python -m grader DIR")
    starting.add_argument("dir", type=Path, metavar="DIR", help="folder to write into (created)")
    starting.add_argument("--force", action="store_true", help="replace exercise files DIR already holds")
    args = parser.parse_args(argv)
    try:
        if args.command == "init":
            written = init(args.dir, force=args.force)
            print(f"wrote {', '.join(p.name for p in written)} into {args.dir}.\nWrite your code there, then "
                  f"grade it with: python -m grader {args.dir}")
            return EXIT_OK
        manifest = seal(absolute(args.out), absolute(args.reference), seed_from(args), use_cache=not args.no_cache)
    except (ReleaseError, ReferenceRunError, SeedError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_GRADER
    inputs = "the public inputs" if manifest.seed is None else "the inputs of the seed given"
    versions = ", ".join(f"{name} {version}" for name, version in manifest.versions.items())
    print(f"sealed the reference's observations on {inputs} into {args.out} ({versions}; {manifest.platform}). "
          f"Grade against them with: python -m grader SUBMISSION --reference {args.out}"
          + ("" if manifest.seed is None else " --seed N"))
def watch_main(args: argparse.Namespace, chosen: list[tuple[str, Path, str]]) -> int:
    """``--watch``: draw the report again after every round; Ctrl-C ends with status 0."""
    import time

    from rich.console import Console

    from grader.batch.grading import Settings
    from grader.watch import GradingFailed, watch

    console = Console(highlight=False)
    interactive = console.is_terminal and not args.quiet
    settings = Settings(only=args.only or EXERCISES, timeout=args.timeout, memory_gb=args.memory, jobs=args.jobs,
                        reference_dir=str(absolute(args.reference)) if args.reference else None)

    def show(report: Report, graded: tuple[str, ...], changed: tuple[str, ...]) -> None:
        if interactive:
            console.clear()
        when = time.strftime("%H:%M:%S")
        what = f"re-graded {', '.join(graded)} ({', '.join(changed)} changed)" if changed and graded else (
            f"{', '.join(changed)} changed" if changed else "graded")
        with inert_workflow_commands():
            if args.quiet:
                print(f"{report.score:g} / {report.max_score:g}", flush=True)
            else:
                print(f"[{when}] {what}", flush=True)
                print_report(report, verbose=args.verbose)
                print(f"watching {args.submission} for changes; Ctrl-C to stop", flush=True)
            write_reports(report, chosen, args.quiet)

    def busy(exercises: tuple[str, ...]):
        from contextlib import nullcontext

        return console.status(f"grading {', '.join(exercises)} ...") if interactive else nullcontext()

    from grader.batch.cli import _sigterm_interrupts

    try:
        with _sigterm_interrupts():
            watch(args.submission, settings, show, busy=busy)
    except KeyboardInterrupt:
        print("stopped watching", file=sys.stderr)
        return EXIT_OK
    except (SubmissionError, GradingFailed) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_GRADER
    return EXIT_OK
