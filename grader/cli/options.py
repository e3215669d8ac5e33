"""Every command-line option the commands share, declared once, and the one function that turns them into
:class:`~grader.config.Options`.

A command adds the options it takes with :func:`add` (``add(parser, "timeout", "memory", ...)``); a
command may word an option's help for itself, but its flags, type, check and default are the ones here.
Values are checked as they are parsed (argparse exits with status 2 and says which option is wrong),
and :func:`configure` builds the configuration from the parsed arguments, whatever the command.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from grader.config import BatchOptions, Options
from grader.inputs import SeedError, check_seed
from grader.exercises import IDS as EXERCISES
from grader.observations import Limits

SEED_ENV = "JAX_GRADER_SEED"


def absolute(path: Path | None) -> Path | None:
    """``path`` made absolute against the working folder, once, here at the command line.

    Runs happen in other processes (the fork server works from ``/``, each
    child from its own scratch folder, batch workers from theirs), so nothing
    below the command line may see a path that means something only here.
    """
    return None if path is None else Path(os.path.abspath(os.path.expanduser(path)))


def exercises(text: str) -> tuple[str, ...]:
    """``--only``: exercise ids separated by commas, returned in lesson order."""
    chosen = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [c for c in chosen if c not in EXERCISES]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"unknown exercise(s) {unknown}; choose from {', '.join(EXERCISES)}")
    return tuple(e for e in EXERCISES if e in chosen)


def positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"must be a number, not {text!r}") from exc
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {text}")
    return value


def jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from exc
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (one per CPU core) or more, not {text}")
    return value


def seed(text: str) -> int:
    try:
        return check_seed(text)
    except SeedError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


#: name -> (flags, argparse keywords); ``--seed``'s help says ``{what}`` is done on its inputs (see :func:`add`).
OPTIONS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "only": (("--only",), dict(type=exercises, metavar="EX[,EX...]",
                               help=f"grade only these exercises ({', '.join(EXERCISES)})")),
    "timeout": (("--timeout",), dict(type=positive, default=Limits.timeout, metavar="S",
                                     help="wall-clock limit per exercise run, in seconds (default %(default)s)")),
    "memory": (("--memory",), dict(type=positive, default=Limits.memory_bytes / 2**30, metavar="GB",
                                   help="address-space limit per exercise run, in GiB (default %(default)s)")),
    "jobs": (("--jobs",), dict(type=jobs, default=0, metavar="N",
                               help="exercise runs at once (default: one per CPU core); with more than "
                                    "one, ex4, which mostly waits on its timed steps, runs beside them")),
    "reference": (("--reference",), dict(type=Path, metavar="DIR",
                                         help="what to compare with: the reference solutions, or a sealed "
                                              "reference (python -m grader seal)")),
    "no_cache": (("--no-cache",), dict(action="store_true", help="recompute the reference observations")),
    "require_confinement": (("--require-confinement",), dict(
        action="store_true",
        help="refuse to grade unless every exercise run is fully confined (Landlock and seccomp), as an "
             "official grade must be (the Gradescope autograder sets it)")),
    "allow_unconfined": (("--allow-unconfined",), dict(
        action="store_true", help="cancel --require-confinement: grade even where runs cannot be fully confined")),
    "seed": (("--seed",), dict(type=seed, metavar="N",
                               help="{what} on inputs drawn from seed N (the official grade's secret inputs; "
                                    f"default ${SEED_ENV}, else the fixed public inputs)")),
    "seed_or_random": (("--seed",), dict(
        metavar="N|random", help="grade on inputs drawn from seed N, kept in the zip (file 'seed'); 'random' draws "
                                 f"a secret one now. Default: ${SEED_ENV}, else the public inputs")),
    "plots": (("--plots",), dict(type=Path, metavar="DIR",
                                 help="save training-loss and gradient-norm plots (PNG) to DIR")),
    "quiet": (("--quiet", "-q"), dict(action="store_true", help="print only the total")),
    "verbose": (("--verbose", "-v"), dict(action="store_true", help="also list passing checks and timings")),
}


def add(parser: argparse.ArgumentParser, *names: str, what: str = "grade", **helps: str) -> None:
    """Add the options ``names`` to ``parser``; ``helps`` rewords an option's help for this command, and
    ``what`` says what ``--seed``'s inputs are for ("grade", "seal the observations")."""
    for name in names:
        flags, keywords = OPTIONS[name]
        text = helps.get(name, keywords.get("help", ""))
        parser.add_argument(*flags, **{**keywords, "help": text.replace("{what}", what)})


def seed_from(given: int | None) -> int | None:
    """``--seed``, else ``$JAX_GRADER_SEED`` (raises ``SeedError`` if it is not a seed), else ``None``."""
    if given is not None:
        return given
    text = os.environ.get(SEED_ENV, "").strip()
    try:
        return check_seed(text) if text else None
    except SeedError as exc:
        raise SeedError(f"${SEED_ENV}: {exc}") from exc


def configure(args: argparse.Namespace) -> Options:
    """The configuration the parsed arguments of any command ask for; the only place it is built from them.

    An option a command does not take keeps its default (``$JAX_GRADER_SEED`` counts only where ``--seed``
    does). A batch (``args.command == "batch"``) gets its own part in ``Options.batch``, its ``--jobs``
    counts submissions, and it requires full confinement unless ``--allow-unconfined`` (its parser's
    default for ``require_confinement``). Raises ``SeedError`` when ``$JAX_GRADER_SEED`` is not a seed.
    """
    given = vars(args)
    batch = given.get("command") == "batch"
    limits = Limits(timeout=given.get("timeout") or Limits.timeout,
                    memory_bytes=int(given["memory"] * 2**30) if given.get("memory") else Limits.memory_bytes)
    options = Options(
        only=given.get("only") or EXERCISES,
        limits=limits,
        jobs=0 if batch else given.get("jobs") or 0,
        reference_dir=absolute(given.get("reference")),
        use_cache=not given.get("no_cache", False),
        plots_dir=absolute(given.get("plots")),
        require_confinement=bool(given.get("require_confinement")) and not given.get("allow_unconfined"),
        seed=seed_from(given["seed"]) if "seed" in given else None,
    )
    if not batch:
        return replace(options, keep_compiled=options.use_cache)
    return replace(options, batch=BatchOptions(
        submissions=absolute(args.submissions), out=absolute(args.out), jobs=args.jobs, force=args.force,
        shard=args.shard, formats=args.formats, isolate=not args.in_process,
        submission_timeout=args.submission_timeout, dask=args.dask, max_archive_mb=args.max_archive_mb))
