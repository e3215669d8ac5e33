"""``python -m grader seal [--reference DIR] [--seed N] OUT`` and ``python -m grader init [--force] DIR``
(:mod:`grader.expected.sealing`, :mod:`grader.stubs`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from grader.cli import options as opts
from grader.cli.common import EXIT_GRADER, EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m grader")
    commands = parser.add_subparsers(dest="command", required=True)
    sealing = commands.add_parser(
        "seal", help="seal the reference's observations",
        description="Run the reference solutions through the grader's probes and write what they observed, with "
                    "a manifest (grader, jax, jaxlib, optax and numpy versions, platform, inputs), to OUT. Grade "
                    "against it with --reference OUT, without the solutions. The package ships one for the "
                    "public inputs: python -m grader seal grader/_sealed")
    sealing.add_argument("out", type=Path, metavar="OUT", help="folder to write (new, empty, or a sealed reference)")
    opts.add(sealing, "reference", "no_cache", "seed", what="seal the observations",
             reference="the reference solutions to run",
             no_cache="(always so: a seal runs the reference afresh)")
    starting = commands.add_parser(
        "init", help="write the exercise stubs into a folder",
        description="Write the five exercise files and answers.md into DIR, to start the exercises from a "
                    "grader installed with pip; then grade them with: python -m grader DIR")
    starting.add_argument("dir", type=Path, metavar="DIR", help="folder to write into (created)")
    starting.add_argument("--force", action="store_true", help="replace exercise files DIR already holds")
    return parser


def main(argv: list[str]) -> int:
    from grader.inputs import SeedError
    from grader.expected import ReferenceRunError
    from grader.expected.sealing import SealError, seal
    from grader.stubs import InitError, init

    args = build_parser().parse_args(argv)
    try:
        if args.command == "init":
            written = init(args.dir, force=args.force)
            print(f"wrote {', '.join(p.name for p in written)} into {args.dir}.\nWrite your code there, then "
                  f"grade it with: python -m grader {args.dir}")
            return EXIT_OK
        options = opts.configure(args)
        manifest = seal(opts.absolute(args.out), options.reference_dir, options.seed)
    except (InitError, SealError, ReferenceRunError, SeedError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_GRADER
    inputs = "the public inputs" if manifest.seed is None else "the inputs of the seed given"
    versions = ", ".join(f"{name} {version}" for name, version in manifest.versions.items())
    print(f"sealed the reference's observations on {inputs} into {args.out} ({versions}; {manifest.platform}). "
          f"Grade against them with: python -m grader SUBMISSION --reference {args.out}"
          + ("" if manifest.seed is None else " --seed N"))
    return EXIT_OK
