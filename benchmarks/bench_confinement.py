"""What confinement costs, and what the fork server saves: grade the reference three ways, side by side.

Confined children forked from the fork server (the default), confined fresh interpreters, and
unconfined fresh interpreters (``Limits(confine=..., fork=...)``), each grade a fresh process on a warm
reference cache, for the full grade and for ``--only ex3``. Runs alternate, so machine noise hits all
alike; medians are reported. Confinement's cost is confined-fresh against unconfined-fresh; the fork
server's saving is confined-forked against confined-fresh.

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
from pathlib import Path
report = grade({root!r} + "/reference", Options(only=only, cache_dir=Path({cache!r}), limits=Limits(confine={confine}, fork={fork})))
assert report.score == report.max_score, report.score
print(report.confinement.get("description", ""))
"""


MODES = {"confined, forked": (True, True), "confined, fresh": (True, False), "unconfined, fresh": (False, False)}


def run(only: tuple[str, ...], confine: bool, fork: bool, cache: str) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", GRADE.format(root=str(ROOT), only=list(only), cache=cache,
                                                              confine=confine, fork=fork)],
                          check=True, capture_output=True, text=True)
    return time.perf_counter() - start, done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as cache:
        run((), True, True, cache)  # fill the reference cache
        for label, only in (("full grade", ()), ("--only ex3", ("ex3",))):
            times: dict[str, list[float]] = {mode: [] for mode in MODES}
            level = ""
            for _ in range(args.repeats):
                for mode, (confine, fork) in MODES.items():
                    seconds, described = run(only, confine, fork, cache)
                    times[mode].append(seconds)
                    level = described if confine else level
            median = {mode: statistics.median(t) for mode, t in times.items()}
            cost = median["confined, fresh"] / median["unconfined, fresh"]
            saving = median["confined, forked"] / median["confined, fresh"]
            results[label] = {**{mode: round(m, 2) for mode, m in median.items()},
                              "confinement_cost_ratio": round(cost, 3), "fork_server_ratio": round(saving, 3),
                              "confinement": level}
            print(f"{label}: " + ", ".join(f"{mode} {m:.2f} s" for mode, m in median.items())
                  + f"; confinement costs x{cost:.3f}, the fork server x{saving:.3f} ({level})")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
