"""Gradescope glue: build the autograder zip, and find the submission in what a student uploaded.

The zip holds, at its root, ``setup.sh`` and ``run_autograder`` (from
``gradescope/`` in the checkout) plus what ``pip install`` needs to install the
grader (``pyproject.toml``, ``README.md``, ``grader/``) and the reference
solutions (``reference/``), and with ``--seed`` the file ``seed`` holding the
secret seed the official grade draws its inputs from (``--seed random`` draws
one). Gradescope extracts it to ``/autograder/source``,
runs ``setup.sh`` once when it builds the image, then ``run_autograder`` per
submission. The results file is written by the report writer
:mod:`grader.report.gradescope` (``--gradescope PATH``).

``python -m grader gradescope-zip OUT.zip`` (:mod:`grader.cli.gradescope_zip`) calls :func:`build_zip`;
``python -m grader.gradescope locate DIR`` prints :func:`find_submission`.
"""

from __future__ import annotations

import argparse
import zipfile
from pathlib import Path, PurePosixPath

from grader import untrusted
from grader.inputs import check_seed
from grader.exercises import MODULES

CHECKOUT = Path(__file__).resolve().parent.parent
"""The checkout this grader runs from (an editable install)."""
SCRIPTS = ("setup.sh", "run_autograder")
SEED_FILE = "seed"
"""In the zip: the secret seed the scripts grade with (``JAX_GRADER_SEED``)."""
_FIXED_TIME = (2020, 1, 1, 0, 0, 0)  # same bytes for the same files: reproducible zips
_SKIP_DIRS = {"__pycache__", ".pytest_cache", ".ipynb_checkpoints", "__MACOSX"}
_README = "# jax-autograder\n\nAutograder for the exercises of the lesson 'Introduction to JAX'.\n"


class PackageError(RuntimeError):
    """The zip cannot be built from here; the message says what is missing."""


def _files(root: Path, folder: str) -> list[tuple[Path, str]]:
    found = []
    for path in sorted((root / folder).rglob("*")):
        parts = path.relative_to(root).parts
        if path.is_file() and not any(p in _SKIP_DIRS or p.startswith(".") for p in parts) \
                and path.suffix not in (".pyc", ".pyo"):
            found.append((path, "/".join(parts)))
    return found


def build_zip(dest: Path, checkout: Path = CHECKOUT, reference: Path | None = None,
              seed: int | None = None) -> list[str]:
    """Write the autograder zip to ``dest``, grading on inputs drawn from ``seed`` if given; return its names."""
    checkout = Path(checkout)
    reference = Path(reference) if reference else checkout / "reference"
    needed = [checkout / "pyproject.toml", checkout / "grader", *(checkout / "gradescope" / s for s in SCRIPTS)]
    missing = [str(p) for p in needed if not p.exists()]
    missing += [str(reference / f"{m}.py") for m in MODULES.values() if not (reference / f"{m}.py").is_file()]
    if missing:
        raise PackageError(f"cannot build the Gradescope zip: missing {', '.join(missing)}. Run it from a checkout "
                           "of jax-autograder (pip install -e .), or pass --reference DIR for the solutions.")
    entries: list[tuple[str, bytes, int]] = []
    for script in SCRIPTS:
        entries.append((script, (checkout / "gradescope" / script).read_bytes(), 0o755))
    entries.append(("pyproject.toml", (checkout / "pyproject.toml").read_bytes(), 0o644))
    readme = checkout / "README.md"
    entries.append(("README.md", readme.read_bytes() if readme.is_file() and readme.stat().st_size else
                    _README.encode(), 0o644))
    for path, name in _files(checkout, "grader"):
        entries.append((name, path.read_bytes(), 0o644))
    for name in sorted(MODULES.values()):
        entries.append((f"reference/{name}.py", (reference / f"{name}.py").read_bytes(), 0o644))
    if seed is not None:
        entries.append((SEED_FILE, f"{check_seed(seed)}\n".encode(), 0o600))
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data, mode in entries:
            info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
            info.external_attr = (0o100000 | mode) << 16  # regular file with Unix permissions
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    tmp.replace(dest)
    return [name for name, _, _ in entries]


def find_submission(root: Path) -> Path:
    """What to grade in an upload folder: the folder itself, one notebook or .py, or a subfolder with the files.

    Students upload loose files, a zipped folder (which Gradescope extracts into
    a subfolder) or one notebook. When nothing fits, ``root`` is returned and
    the grader says what it expected. The upload is listed without following
    links (:func:`grader.untrusted.walk`): a link is never taken for a folder
    or a file to grade, and grading then refuses a submission that holds one.
    """
    root = Path(root)
    if not root.is_dir():
        return root
    try:
        found = [f for f in untrusted.walk(root, _SKIP_DIRS) if not any(p.startswith(".") for p in f.path.parts)]
    except (untrusted.UnsafeFile, OSError):
        return root  # grading the upload says what is wrong with it
    exercises = {f"{m}.py" for m in MODULES.values()}
    holders = {f.path.parent for f in found if f.path.name in exercises and f.kind in ("file", "link")}
    if PurePosixPath() in holders:
        return root
    for suffix in (".ipynb", ".py"):
        top = [f for f in found if len(f.path.parts) == 1 and f.path.suffix == suffix and f.kind != "dir"]
        if len(top) == 1:
            return root / top[0].path
    folders = sorted(holders, key=lambda p: (len(p.parts), p.as_posix()))
    if folders:
        return root / folders[0]
    for suffix in (".ipynb", ".py"):
        nested = [f for f in found if f.path.suffix == suffix and f.kind != "dir"]
        if len(nested) == 1:
            return root / nested[0].path
    return root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.gradescope")
    commands = parser.add_subparsers(dest="command", required=True)
    locate = commands.add_parser("locate", help="print what to grade in an upload folder")
    locate.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    print(find_submission(args.folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
