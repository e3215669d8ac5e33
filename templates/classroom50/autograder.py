#!/usr/bin/env python3
"""jax-autograder as a Classroom 50 autograder.

Copy this file to CLASSROOM/autograders/ASSIGNMENT/autograder.py in your
classroom50 config repository and set GRADER_PACKAGE below (see "Classroom 50"
in the grader's docs/integrations.md). Classroom 50's runner runs it once per
submission, with the student's checkout as the working folder; it

1. installs the grader (GRADER_PACKAGE) into a virtualenv of its own, with the
   runner's Python (set the assignment's runtime.python to "3.11");
2. grades SUBMISSION, on the inputs of the secret seed if you keep one (the
   file `seed` beside this script, or $JAX_GRADER_SEED);
3. leaves result.json (classroom50/result/v1) and release-body.md (the
   student's report, as Markdown, cut to fit a GitHub Release) in the checkout.

It exits 0 whenever grading ran, whatever the score, and also when the
submission itself cannot be graded (no exercise files...): result.json then
says why, with 0 points. It exits non-zero only when the grader could not run
(install failed, runner cannot confine the student's code...), which the
runner records as an error.

Environment (for testing; the runner sets none of these):
  JAX_GRADER_PYTHON   a Python that already has the grader: skip the install
  JAX_GRADER_PACKAGE  what to pip install instead of GRADER_PACKAGE
  JAX_GRADER_SEED     the seed, instead of the file `seed`
  JAX_GRADER_REFERENCE  the reference to grade against, instead of REFERENCE
  JAX_GRADER_ARGS     extra grader options, e.g. "--only ex3" or "--timeout 300"
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import venv
from pathlib import Path

# The grader package: the wheel built from the grader's repository (pip wheel --no-deps -w dist .),
# published where the runner can download it (a release asset, a package index), or any pip requirement.
GRADER_PACKAGE = "https://github.com/your-org/jax-autograder/releases/download/v0.1.0/jax_autograder-0.1.0-py3-none-any.whl"
# What to grade in the student's repository: a folder with the five exercise files, or one .py or .ipynb file.
SUBMISSION = "exercises"
# Grade only where the student's code can be fully confined (Landlock and seccomp), as an official grade must.
# On a runner that cannot, grading stops with an error result; set False to grade anyway there.
REQUIRE_CONFINEMENT = True
# Only with a seed: what to judge against. "" uses the sealed reference inside the package (public inputs only);
# otherwise a folder beside this script, or the https URL of a .tar.gz of one, holding a sealed reference made
# for the seed (python -m grader seal OUT --seed N). Never the reference solutions: what this script can read,
# a student can find (docs/integrations.md, "Secret inputs").
REFERENCE = ""

RESULT = "result.json"
RELEASE_BODY = "release-body.md"
# GitHub refuses a Release whose text is longer than 125,000 characters; the runner publishes release-body.md as one.
RELEASE_BODY_LIMIT = 120_000
# What the grader's command line says when the submission, not the grader, is why nothing could be graded.
STUDENTS_FAULT = "the submission cannot be graded"


def bundle_dir() -> Path:
    """Where the runner extracted this script and the files beside it (never in the student's repository)."""
    return Path(os.environ.get("CLASSROOM50_BUNDLE_DIR") or Path(__file__).resolve().parent)


def scratch_dir() -> Path:
    base = os.environ.get("RUNNER_TEMP", "").strip()
    path = Path(base) / "jax-autograder" if base else Path(tempfile.mkdtemp(prefix="jax-autograder-"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def find_seed(bundle: Path) -> str | None:
    """The seed: $JAX_GRADER_SEED, else the first line of the file `seed` beside this script, else None."""
    text = os.environ.get("JAX_GRADER_SEED", "").strip()
    if not text and (bundle / "seed").is_file():
        text = (bundle / "seed").read_text(encoding="utf-8").strip().splitlines()[0].strip()
    return text or None


def find_reference(bundle: Path, scratch: Path) -> Path | None:
    """The reference folder to pass as --reference (downloaded and unpacked when it is a URL), or None."""
    where = os.environ.get("JAX_GRADER_REFERENCE", "").strip() or REFERENCE
    if not where:
        return None
    if where.startswith("https://"):
        archive = scratch / "reference.tar.gz"
        with urllib.request.urlopen(where, timeout=120) as response, archive.open("wb") as out:
            shutil.copyfileobj(response, out)
        target = scratch / "reference"
        with tarfile.open(archive) as tar:
            tar.extractall(target, filter="data")
        entries = [p for p in target.iterdir()]
        return entries[0] if len(entries) == 1 and entries[0].is_dir() else target
    path = Path(where)
    return (path if path.is_absolute() else bundle / path).resolve()


def install(scratch: Path) -> Path:
    """A Python with the grader: $JAX_GRADER_PYTHON, or a fresh virtualenv with GRADER_PACKAGE installed."""
    given = os.environ.get("JAX_GRADER_PYTHON", "").strip()
    if given:
        return Path(given)
    env_dir = scratch / "venv"
    venv.create(env_dir, with_pip=True, clear=True)
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    package = os.environ.get("JAX_GRADER_PACKAGE", "").strip() or GRADER_PACKAGE
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", package],
                   check=True)
    return python


def grade(python: Path, checkout: Path, seed: str | None, reference: Path | None, scratch: Path) -> int:
    """Run the grader; return its exit status. Writes result.json and release-body.md into ``checkout``."""
    report = scratch / "report.json"
    command = [str(python), "-P", "-m", "grader", str(checkout / SUBMISSION),
               "--classroom50", str(checkout / RESULT), "--markdown", str(checkout / RELEASE_BODY),
               "--json", str(report), "--verbose"]
    if REQUIRE_CONFINEMENT:
        command.append("--require-confinement")
    if reference is not None:
        command += ["--reference", str(reference)]
    command += shlex.split(os.environ.get("JAX_GRADER_ARGS", ""))
    env = dict(os.environ)
    env.pop("JAX_GRADER_SEED", None)
    if seed is not None:
        env["JAX_GRADER_SEED"] = seed
    env.setdefault("JAX_GRADER_CACHE", str(scratch / "cache"))
    # -P: the student's checkout is not on the import path, so a folder named grader/ (or jax/) there is not imported.
    return subprocess.run(command, cwd=checkout, env=env, check=False).returncode


def fit_release_body(text: str, limit: int = RELEASE_BODY_LIMIT) -> str:
    """``text`` cut at a line boundary to at most ``limit`` characters, an open code fence closed, with a note."""
    note = "\n_The report is cut here to fit a GitHub Release; the whole report is in the workflow's log._\n"
    if len(text) <= limit:
        return text
    kept: list[str] = []
    fence = ""
    size = len(note) + 20
    for line in text.splitlines(keepends=True):
        if size + len(line) > limit:
            break
        kept.append(line)
        size += len(line)
        stripped = line.strip()
        if fence and stripped == fence:
            fence = ""
        elif not fence and stripped.startswith("```"):
            fence = stripped[: len(stripped) - len(stripped.lstrip("`"))]
    closing = f"{fence}\n" if fence else ""
    return "".join(kept) + closing + note


def students_fault(scratch: Path) -> bool:
    """True when grading stopped because of the submission (the report says so), not because of the grader."""
    try:
        notes = json.loads((scratch / "report.json").read_text(encoding="utf-8")).get("notes") or []
    except (OSError, ValueError):
        return False
    return bool(notes) and str(notes[0]).startswith(STUDENTS_FAULT)


def main() -> int:
    checkout = Path.cwd()
    # A result.json or release-body.md committed by the student (or a file or link where the grader writes them
    # first) must never stand in for the grader's.
    for name in (RESULT, RELEASE_BODY, RESULT + ".tmp", RELEASE_BODY + ".tmp"):
        (checkout / name).unlink(missing_ok=True)
    bundle, scratch = bundle_dir(), scratch_dir()
    try:
        python = install(scratch)
        reference = find_reference(bundle, scratch)
    except (OSError, subprocess.CalledProcessError, tarfile.TarError, ValueError) as exc:
        print(f"::error::jax-autograder could not be installed: {exc}", file=sys.stderr)
        return 1
    try:
        status = grade(python, checkout, find_seed(bundle), reference, scratch)
    except OSError as exc:
        print(f"::error::jax-autograder could not start: {exc}", file=sys.stderr)
        return 1
    graded = (checkout / RESULT).is_file()
    body = checkout / RELEASE_BODY
    if body.is_file():
        body.write_text(fit_release_body(body.read_text(encoding="utf-8")), encoding="utf-8")
    if status == 0 and graded:
        return 0
    if graded and students_fault(scratch):
        return 0  # result.json says why the submission could not be graded, with 0 points
    print(f"::error::jax-autograder could not grade (exit status {status}); see the log above", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
