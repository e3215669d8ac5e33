"""Grade every file of a blind set as a student would, and print what each report said.

    python scripts/measure_blind.py tests/corpus/blind/set2 [--out DIR]

Each file (``mistakes/`` and ``correct/``) is graded with the other exercise files
from ``reference/`` and ``--only`` its exercise, one after another. Prints a row
per file: kind, the exercise's score, the failing checks and their mistake ids
and hints, for a person to judge against the file's ``SHOULD-SAY`` header.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def header(path: Path) -> dict[str, str]:
    fields = {}
    for line in path.read_text(encoding="utf-8").splitlines()[:8]:
        if line.startswith("# ") and ":" in line:
            key, _, value = line[2:].partition(":")
            fields[key.strip()] = value.strip()
    return fields


def grade(path: Path, work: Path) -> dict:
    stub, _, slug = path.stem.partition("__")
    exercise = stub.split("_")[0]
    folder = work / f"{exercise}-{slug}"
    folder.mkdir(parents=True)
    for reference in (ROOT / "reference").glob("ex*.py"):
        shutil.copy(reference, folder / reference.name)
    shutil.copy(path, folder / f"{stub}.py")
    report = folder.with_suffix(".json")
    subprocess.run([sys.executable, "-m", "grader", str(folder), "--only", exercise, "--json", str(report), "-q"],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    data = json.loads(report.read_text())
    checks = [c for c in data["checks"] if c["exercise"] == exercise]
    return {"exercise": exercise, "slug": slug, "score": sum(c["score"] for c in checks),
            "max_score": sum(c["max_score"] for c in checks),
            "failing": [(c["id"], c.get("mistake", ""), c["hint"][:160]) for c in checks if c["status"] != "pass"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", type=Path)
    parser.add_argument("--out", type=Path, help="keep the graded folders and reports here")
    args = parser.parse_args()
    work = args.out or Path(tempfile.mkdtemp(prefix="blind-"))
    for kind in ("mistakes", "correct"):
        for path in sorted((args.set / kind).glob("*.py")):
            row = grade(path, work)
            full = row["score"] == row["max_score"]
            verdict = ("kept full marks" if full else "MARKED DOWN") if kind == "correct" else (
                "not caught" if full else "caught")
            print(f"{kind[:-1] if kind == 'mistakes' else 'correct'} {row['exercise']}-{row['slug']}: "
                  f"{row['score']:g}/{row['max_score']:g}, {verdict}; SHOULD-SAY: {header(path).get('SHOULD-SAY', '')}")
            for check, mistake, hint in row["failing"]:
                print(f"    {check} [{mistake or '-'}] {hint}")


if __name__ == "__main__":
    main()
