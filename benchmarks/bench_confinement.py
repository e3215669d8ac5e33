"""What confinement costs: grade the reference confined and unconfined, side by side, and print the ratios.

Each grade is a fresh process (``grader.engine.grade`` with ``Limits(confine=...)``) on a warm
reference cache, for the full grade and for ``--only ex3``. Runs alternate, so machine noise hits both
alike; medians are reported.

    python benchmarks/bench_confinement.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GRADE = """
import sys
sys.path.insert(0, {root!r})
from grader.engine import Options, grade
from grader.sandbox import Limits
only = tuple({only!r}) or Options.only
report = grade({root!r} + "/reference", Options(only=only, cache_dir={cache!r}, limits=Limits(confine={confine})))
assert report.score == report.max_score, report.score
print(report.confinement.get("description", ""))
"""


def run(only: tuple[str, ...], confine: bool, cache: str) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", GRADE.format(root=str(ROOT), only=list(only), cache=cache,
                                                              confine=confine)],
                          check=True, capture_output=True, text=True)
    return time.perf_counter() - start, done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as cache:
        run((), True, cache)  # fill the reference cache
        for label, only in (("full grade", ()), ("--only ex3", ("ex3",))):
            times: dict[bool, list[float]] = {True: [], False: []}
            level = ""
            for _ in range(args.repeats):
                for confine in (True, False):
                    seconds, described = run(only, confine, cache)
                    times[confine].append(seconds)
                    level = described if confine else level
            on, off = statistics.median(times[True]), statistics.median(times[False])
            results[label] = {"confined_s": round(on, 2), "unconfined_s": round(off, 2),
                              "ratio": round(on / off, 3), "confinement": level}
            print(f"{label}: confined {on:.2f} s, unconfined {off:.2f} s, ratio {on / off:.3f} ({level})")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
