"""macOS and Windows paths, rehearsed on Linux: :mod:`grader.sandbox.machine` with Linux-only facilities switched off."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from grader.expected import sealed
from grader.batch import state
from grader.sandbox import machine, policy, tree
from grader.sandbox.machine import WITHOUT_VAR, Offers

from conftest import CORPUS, ROOT, alive_under, submission_with

#: Everything Linux offers that macOS or Windows lacks.
LINUX_ONLY = "landlock,seccomp,capabilities,proc,forkserver,resource,fcntl,prctl,sessions"
LINUX = sys.platform.startswith("linux")
pytestmark = pytest.mark.skipif(not LINUX, reason="rehearses other platforms by switching Linux's facilities off")

MACOS = Offers(system="macos", landlock=False, seccomp=False, capabilities=False, process_table="ps",
               fork_server=False, rlimits=True, memory_limit=False, file_lock="fcntl", pdeathsig=False,
               sessions=True)
WINDOWS = Offers(system="windows", landlock=False, seccomp=False, capabilities=False, process_table="",
                 fork_server=False, rlimits=False, memory_limit=False, file_lock="msvcrt", pdeathsig=False,
                 sessions=False)


def test_the_variable_switches_facilities_off():
    here = machine.detect({})
    assert here.system == "linux" and here.process_table == "proc" and here.rlimits and here.memory_limit
    assert here.file_lock == "fcntl" and here.sessions and here.landlock
    off = machine.detect({WITHOUT_VAR: LINUX_ONLY})
    assert (off.landlock, off.seccomp, off.capabilities, off.fork_server, off.rlimits, off.memory_limit,
            off.pdeathsig, off.sessions) == (False,) * 8
    assert off.process_table == "ps" and off.file_lock == "file"
    assert machine.detect({WITHOUT_VAR: LINUX_ONLY + ",ps"}).process_table == ""
    with pytest.raises(ValueError, match="landlok.*comma-separated list of landlock"):
        machine.detect({WITHOUT_VAR: "landlok"})


def test_limits_say_what_holds_on_each_platform():
    assert machine.detect({}).limits() == "limits: time, output, file size, open files, memory"
    assert MACOS.limits() == ("limits: time, output, file size, open files; memory not capped (macOS does not "
                              "enforce RLIMIT_AS); a process a run detaches from its group outlives it")
    assert WINDOWS.limits() == ("limits: time, output; memory not capped (no rlimits on Windows); file size and "
                                "open files not capped; a process a run detaches from its group outlives it")


@pytest.mark.parametrize("offers, expected", [
    (MACOS, "none (macOS offers neither Landlock nor seccomp; limits: time, output, file size, open files; "
            "memory not capped (macOS does not enforce RLIMIT_AS); a process a run detaches from its group "
            "outlives it)"),
    (WINDOWS, "none (Windows offers neither Landlock nor seccomp; limits: time, output; memory not capped (no "
              "rlimits on Windows); file size and open files not capped; a process a run detaches from its group "
              "outlives it)"),
])
def test_confinement_is_stated_in_one_line(monkeypatch, offers, expected):
    from grader.sandbox import confine

    for module in (policy, confine):
        monkeypatch.setattr(module, "offers", lambda: offers)
    monkeypatch.setattr(policy, "_try", lambda candidate: pytest.fail("nothing to observe, nothing to try"))
    offer = policy._offered.__wrapped__()  # uncached: the faked machine's answer is not kept for later tests
    assert offer.level == "none" and offer.describe() == expected


def test_lock_without_fcntl_or_msvcrt(tmp_path, monkeypatch):
    monkeypatch.setattr(machine, "offers", lambda: replace(machine.detect({}), file_lock="file"))
    first = state.prepare(tmp_path / "out")
    with pytest.raises(state.OutDirError, match="another batch is writing"):
        state.prepare(tmp_path / "out")
    first.close()
    state.prepare(tmp_path / "out").close()
    # A batch that died holding the lock: its process id names no process, so the lock is taken over.
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (tmp_path / "out" / f"{state.LOCK}.pid").write_text(dead.stdout.strip())
    again = state.prepare(tmp_path / "out")
    assert (tmp_path / "out" / f"{state.LOCK}.pid").read_text() == str(os.getpid())
    again.close()
    assert not (tmp_path / "out" / f"{state.LOCK}.pid").exists()


@pytest.mark.parametrize("table", ["proc", "ps"])
def test_descendants_and_tree_kill(monkeypatch, table):
    for module in (machine, tree):
        monkeypatch.setattr(module, "offers", lambda: replace(machine.detect({}), process_table=table))
    parent = subprocess.Popen(["sh", "-c", "sleep 60 & sleep 60 & wait"], **tree.new_group())
    try:
        for _ in range(100):
            found = tree.descendants(parent.pid)
            if len(found) == 2:
                break
            subprocess.run(["sleep", "0.05"])
        assert len(found) == 2
        tree.kill_tree(parent.pid)
        parent.wait(timeout=10)
        for _ in range(100):
            if not [p for p in found if Path(f"/proc/{p}").exists() and "Z" not in _state(p)]:
                break
            subprocess.run(["sleep", "0.05"])
        assert not [p for p in found if Path(f"/proc/{p}").exists() and "Z" not in _state(p)]
    finally:
        parent.kill()
        parent.wait()


def _state(pid: int) -> str:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "Z"
    return stat[stat.rfind(")") + 2:].split()[0]


def test_modules_missing_elsewhere_are_never_needed():
    """Without resource and fcntl (as on Windows) every module of the grader imports, and they stay absent."""
    code = ("from grader.sandbox import machine; machine.offers()\n"
            "import grader.cli, grader.engine, grader.sandbox.confine, grader.sandbox.policy, grader.sandbox.launch\n"
            "import grader.sandbox.forkserver, grader.sandbox.tree\n"
            "import grader.batch.state, grader.batch.worker, grader.batch.runner, grader.notebook\n"
            "for name in ('resource', 'fcntl'):\n"
            "    try:\n"
            "        __import__(name)\n"
            "    except ImportError:\n"
            "        continue\n"
            "    raise SystemExit(name + ' was importable')\n"
            "print(machine.offers().limits())\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, WITHOUT_VAR: LINUX_ONLY})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().startswith("limits: time, output; memory not capped")


def _grade_without_linux(folder: Path, tmp_path: Path, cache_dir: Path, *options: str) -> tuple[dict, str]:
    """Grade ``folder`` as a student does (the sealed reference) with every Linux-only facility off.

    Returns the JSON report and what was printed.
    """
    scratch = tmp_path / "tmp"
    scratch.mkdir(exist_ok=True)
    out = tmp_path / "report.json"
    env = {**os.environ, WITHOUT_VAR: LINUX_ONLY, "JAX_GRADER_CACHE": str(cache_dir), "TMPDIR": str(scratch)}
    proc = subprocess.run([sys.executable, "-m", "grader", str(folder), "--json", str(out), "--reference",
                           str(sealed.SHIPPED), *options], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert not alive_under(scratch)  # every run's process was killed, without sessions or /proc
    return json.loads(out.read_text()), proc.stdout


@pytest.mark.e2e
def test_grading_without_linux_facilities_gives_the_same_verdicts(tmp_path, cache_dir, grade_with):
    """The whole student path with no Landlock, seccomp, /proc, fork server, resource, fcntl, prctl or sessions.

    ex1 is the reference's (full marks) and ex3 a mutant, whose verdicts match a normal grade's; the
    report states the reduced confinement in one line.
    """
    folder = submission_with(tmp_path, {"ex3_mlp_forward": CORPUS / "mutants" / "ex3_mlp_forward__string_order.py"})
    report, stdout = _grade_without_linux(folder, tmp_path, cache_dir, "--only", "ex1,ex3")
    confinement = report["confinement"]
    assert confinement["level"] == "none" and "\n" not in confinement["description"]
    assert confinement["description"].startswith(
        "none (landlock and seccomp switched off by JAX_GRADER_WITHOUT; limits: time, output; memory not capped")
    assert f"Exercise runs confined: {confinement['description']}" in stdout
    ex1 = [c for c in report["checks"] if c["exercise"] == "ex1"]
    assert ex1 and all(c["status"] == "pass" for c in ex1), ex1
    normal = grade_with(folder, only=("ex3",), reference_dir=sealed.SHIPPED)
    assert any(c.status == "fail" for c in normal.checks)
    assert [(c.id, c.status, c.score) for c in normal.checks] == [
        (c["id"], c["status"], c["score"]) for c in report["checks"] if c["exercise"] == "ex3"]


@pytest.mark.e2e
def test_time_limit_holds_without_linux_facilities(tmp_path, cache_dir):
    folder = submission_with(tmp_path, {"ex3_mlp_forward": CORPUS / "hostile" / "ex3_mlp_forward__waits_forever.py"})
    report, _ = _grade_without_linux(folder, tmp_path, cache_dir, "--only", "ex3", "--timeout", "8")
    assert report["score"] == 0 and any("time limit" in c["message"] for c in report["checks"])


def test_the_confinement_is_observed_once_however_many_threads_ask(monkeypatch):
    """The warm-up's probe and the first runs ask for the confinement at once: one throwaway child answers them all,
    the others wait for it."""
    import threading
    import time

    tried = []

    def slow_try(candidate):
        tried.append(candidate)
        time.sleep(0.2)  # a probe takes about this long: the other threads ask while it runs
        return {"write_scratch": True, "read_outside": True, "write_outside": True, "socket": True, "fork": True,
                "signal_parent": True}

    monkeypatch.setattr(policy, "_try", slow_try)
    policy._offered.cache_clear()
    try:
        answers = []
        threads = [threading.Thread(target=lambda: answers.append(policy.offered())) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert len(answers) == 4 and len(set(answers)) == 1 and len(tried) <= 1
    finally:
        policy._offered.cache_clear()  # the next test observes this machine for real
