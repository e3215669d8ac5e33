"""``python -m grader gradescope-zip OUT.zip``: build Gradescope's autograder zip (:func:`grader.gradescope.build_zip`)."""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path

from grader.cli import options as opts
from grader.cli.common import EXIT_GRADER, EXIT_OK
from grader.gradescope import SEED_FILE, PackageError, build_zip
from grader.inputs import SeedError, check_seed


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m grader gradescope-zip",
                                     description="Build the autograder zip to upload to Gradescope.")
    parser.add_argument("out", type=Path, metavar="OUT.zip", help="where to write the zip")
    opts.add(parser, "reference", "seed_or_random",
             reference="the reference solutions to include (default: reference/ in the checkout)")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        text = args.seed if args.seed is not None else os.environ.get(opts.SEED_ENV, "").strip() or None
        seed = None if text is None else secrets.randbelow(2**31) if text == "random" else check_seed(text)
        names = build_zip(args.out, reference=args.reference, seed=seed)
    except (PackageError, SeedError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_GRADER
    inputs = ("the public inputs" if seed is None else
              f"inputs drawn from the secret seed {seed} (kept in the zip as '{SEED_FILE}'; keep the zip private)")
    print(f"Gradescope autograder zip written to {args.out} ({len(names)} files), grading on {inputs}. Upload it "
          "as the autograder of a programming assignment (base image: Ubuntu 22.04 or later).")
    return EXIT_OK
