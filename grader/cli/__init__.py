"""The command line: ``python -m grader [SUBMISSION] [--json PATH] [options]`` and its subcommands.

``main`` looks at the first argument only: a subcommand's name (``batch``, ``merge``, ``explain``,
``seal``, ``init``, ``gradescope-zip``) runs that command with the rest; anything else is a grade
(:mod:`grader.cli.grade`, whose SUBMISSION is optional, so argparse subcommands cannot tell the two
apart). A submission folder named like a subcommand is graded as ``./batch``. Each command parses its
arguments with the options of :mod:`grader.cli.options`, builds its :class:`~grader.config.Options`
there (:func:`~grader.cli.options.configure`) and calls importable functions.

Exit status: 0 when the command did its work (a grade: whatever the score), 1 when ``--fail-under``
says so, 2 when it could not run, 130 when a batch was interrupted.
"""

from __future__ import annotations

import sys
from typing import Callable

#: Names this package re-exports from :mod:`grader.cli.common`, imported when first asked for (``__getattr__``):
#: a grade starts its fork server before it imports the rest of the grader.
_COMMON = ("DEFAULT_SUBMISSION", "EXIT_BELOW", "EXIT_GRADER", "EXIT_OK", "default_submission")


def __getattr__(name: str) -> object:
    if name in _COMMON:
        from grader.cli import common

        return getattr(common, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Each command's module is imported only when it runs: a grade does not pay for the batch's imports.
def _grade(argv: list[str]) -> int:
    if not {"-h", "--help"} & set(argv):
        from grader.sandbox import forkserver
        from grader.sandbox.environment import server_env

        forkserver.start_shared(server_env())  # first, before numpy: every run waits for the server's jax import
        from grader.sandbox import warm_up

        warm_up()  # the confinement probe, and the grade's own modules import meanwhile
    from grader.cli.grade import main as run

    return run(argv)


def _batch(argv: list[str]) -> int:  # its parser reads the subcommand's name (batch or merge)
    from grader.cli.batch import main as run

    return run(argv)


def _explain(argv: list[str]) -> int:
    from grader.cli.explain import main as run

    return run(argv[1:])


def _release(argv: list[str]) -> int:  # its parser reads the subcommand's name (seal or init)
    from grader.cli.release import main as run

    return run(argv)


def _gradescope_zip(argv: list[str]) -> int:
    from grader.cli.gradescope_zip import main as run

    return run(argv[1:])


#: Subcommand -> what runs it, given the whole command line.
COMMANDS: dict[str, Callable[[list[str]], int]] = {
    "batch": _batch,
    "merge": _batch,
    "explain": _explain,
    "seal": _release,
    "init": _release,
    "gradescope-zip": _gradescope_zip,
}

__all__ = ["COMMANDS", "DEFAULT_SUBMISSION", "EXIT_BELOW", "EXIT_GRADER", "EXIT_OK", "default_submission", "main"]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return COMMANDS.get(argv[0] if argv else "", _grade)(argv)
    except Exception as exc:
        from grader.cli.common import EXIT_GRADER
        from grader.rubric import RubricError

        if not isinstance(exc, RubricError):
            raise
        # the checks read the rubric as they load: an edit gone wrong stops every command
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_GRADER
