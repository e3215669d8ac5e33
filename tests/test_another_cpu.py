"""The shipped programs on another CPU: a grade there loads them instead of compiling its own.

JAX keys each compiled program by the CPU it was compiled on, so a seal made on
one machine used to load nowhere else, and the first grade on any other CPU (a
student's laptop, every CI or autograder runner) compiled everything. On x86-64
CPUs with AVX2 the runs now compile for AVX2 and key their programs so
(``grader.harness.xla_options.portable``). Here a CPU that has AVX2 and nothing
newer (a Haswell, emulated by QEMU, which has no AVX-512) grades against the
shipped seal, made on a CPU with AVX-512: every program a run needs must load
from it (the run's own folder holds nothing the seal does not), none may use an
instruction that CPU lacks (QEMU ends such a process with SIGILL), and every
check must pass, but those that compare two steps' speeds (``TIMED``), which
an emulator distorts.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REFERENCE, ROOT

from grader.expected import sealed
from grader.expected.sealing import cpu_key
from grader.harness import xla_options

QEMU = shutil.which("qemu-x86_64")
#: The exercises graded there: ex3 compiled quickly, ex4 fully optimised (the code an instruction set shows in).
EXERCISES = ("ex3", "ex4")
#: Checks that compare how fast two steps ran. The emulator translates the compiled step's vector code into many
#: slower instructions, so a jitted step there beats the eager one by 1.2 to 1.5x rather than 5x, and by chance not at
#: all: what they would say on a real Haswell an emulator cannot tell.
TIMED = {"ex4.jit_faster"}

#: The grading process under the emulated CPU; its children started with ``sys.executable`` run there too.
GRADE = """
import sys
sys.executable = sys.argv.pop(1)
from grader.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.e2e
@pytest.mark.skipif(QEMU is None, reason="QEMU's user-mode emulator (qemu-x86_64) is not installed")
@pytest.mark.skipif(not xla_options.portable(), reason="this machine compiles for its own CPU only")
def test_a_cpu_with_avx2_and_nothing_newer_grades_with_the_shipped_programs(tmp_path):
    listing = json.loads((sealed.compilation_cache(sealed.SHIPPED) / sealed.CPUS).read_text())
    shared = listing[cpu_key("ex3")]  # what every x86-64 CPU with AVX2 loads
    assert cpu_key("ex3") == cpu_key("ex4") == f"portable-{xla_options.PORTABLE_CPU}" and set(shared) >= set(EXERCISES)
    python = tmp_path / "python-on-haswell"
    python.write_text(f'#!/bin/sh\nexec {QEMU} -cpu Haswell {sys.executable} "$@"\n')
    python.chmod(0o755)
    cache, report = tmp_path / "cache", tmp_path / "report.json"
    env = {**os.environ, "JAX_GRADER_CACHE": str(cache), "PYTHONPATH": str(ROOT), "JAX_PLATFORMS": "cpu"}
    done = subprocess.run([str(python), "-c", GRADE, str(python), str(REFERENCE), "--reference", str(sealed.SHIPPED),
                           "--only", ",".join(EXERCISES), "--timeout", "600", "--json", str(report), "-q"],
                          capture_output=True, text=True, timeout=1500, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    graded = json.loads(report.read_text())
    checks = {check["id"]: check for check in graded["checks"]}
    assert {checks[check]["status"] for check in TIMED} <= {"pass", "fail"}  # judged, whichever way
    assert [check for check in checks.values() if check["status"] != "pass" and check["id"] not in TIMED] == []
    assert graded["max_score"] > 0
    assert {task: run["status"] for task, run in graded["runs"].items()} == {task: "ok" for task in EXERCISES}
    for task in EXERCISES:  # each run's own folder: the shipped programs, and nothing it had to compile itself
        kept = [folder for folder in (cache / "compiled").iterdir() if folder.name.startswith(f"{task}-")]
        assert len(kept) == 1, kept
        assert sorted(p.name for p in kept[0].iterdir()) == sorted(shared[task]), task
