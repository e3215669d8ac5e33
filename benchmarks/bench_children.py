"""CPU seconds of each exercise's child, as the fork server reaps them, over repeated grades of one submission.

What a batch pays per submission is mostly these children: each is forked
from the fork server, confined, runs its exercise's probe on the submission
and exits. This grades the submission ``--repeats`` times in this process
(warm reference cache, one fork server for all, one child at a time and no
lesson questions, as a batch worker grades) and prints the median CPU of each
task's child, their sum, and the machine's load average. Compare two trees by running it in each, one after the other.

    python benchmarks/bench_children.py [--repeats 5] [--submission reference]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.config import Options  # noqa: E402
from grader.engine import grade  # noqa: E402
from grader.sandbox import forkserver  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--submission", type=Path, default=ROOT / "reference")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    options = Options(jobs=1, lesson=False)  # as a batch grades
    grade(args.submission, options)  # warms the reference cache and starts the fork server
    start = len(forkserver.children_cpu())
    if not start:
        raise SystemExit("no fork server here (it runs on Linux with the sandbox's confinement): nothing to read")
    own = resource.getrusage(resource.RUSAGE_SELF)
    for _ in range(args.repeats):
        grade(args.submission, options)
    after = resource.getrusage(resource.RUSAGE_SELF)
    per_task: dict[str, list[float]] = defaultdict(list)
    for task, cpu in forkserver.children_cpu()[start:]:
        per_task[task].append(cpu)
    medians = {task: statistics.median(times) for task, times in per_task.items()}
    for task, median in sorted(medians.items(), key=lambda item: -item[1]):
        print(f"  {task:10} {median:5.2f} CPU-s  {[round(t, 2) for t in per_task[task]]}")
    print(f"children, sum of medians: {sum(medians.values()):.2f} CPU-s a submission")
    grader_cpu = (after.ru_utime + after.ru_stime - own.ru_utime - own.ru_stime) / args.repeats
    print(f"this process (judging, reports): {grader_cpu:.2f} CPU-s a submission")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
