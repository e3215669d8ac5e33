"""Confinement of exercise runs: what a child may read and write, what it cannot reach, and what reports say.

The hostile submissions in ``tests/corpus/hostile`` marked ``confined`` are graded by ``test_hostile.py``;
the tests here check what those cannot see from a report: that no file was planted, that no connection
was made, and that grading refuses where it must. Tests that need a mechanism skip, saying which, on a
machine without it.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from conftest import CORPUS, REFERENCE, ROOT, submission_with

from grader.cli import main
from grader.config import Options
from grader.engine import grade
from grader.observations import Limits
from grader.expected.cache import default_cache_dir
from grader.sandbox import Confinement, confine, offered, policy
from grader.sandbox.launch import _crash

OFFER = offered()
needs_full = pytest.mark.skipif(OFFER.level != "full", reason=f"needs full confinement; this machine: {OFFER.describe()}")
HOSTILE = CORPUS / "hostile"
PARTIAL = Confinement(landlock=2, detail=("test",))


def _reads_and_writes(tmp_path: Path) -> confine.Plan:
    return policy.plan(OFFER, reads=(tmp_path / "submission", tmp_path / "inputs.npz"),
                       writes=(tmp_path / "scratch", tmp_path / "out"), memory_bytes=1 << 30, hidden=(tmp_path,))


def test_the_plan_reads_the_harness_but_nothing_else_of_the_grader(tmp_path):
    plan = _reads_and_writes(tmp_path)
    package = ROOT / "grader"
    reads = {Path(p) for p in plan.read}
    assert package / "harness" in reads and package / "protocol.py" in reads
    assert package / "sandbox" / "confine.py" in reads and package / "observations.py" in reads

    def readable(path: Path) -> bool:
        return any(path == r or r in path.parents for r in reads)

    ex3 = package / "exercises" / "ex3"
    for secret in (REFERENCE / "ex3_mlp_forward.py", ex3 / "checks.py", ex3 / "inputs.py", ex3 / "reproduce.py",
                   package / "checks" / "common.py", package / "engine.py",
                   package / "rubric.toml", package / "_sealed", ROOT / "tests", default_cache_dir(), Path.home(),
                   Path("/tmp"), Path("/var/tmp")):
        assert not readable(secret), secret
    assert readable(tmp_path / "submission" / "ex3_mlp_forward.py") and readable(package / "harness" / "child.py")
    assert readable(ex3 / "probe.py") and readable(ex3 / "shared.py") and readable(package / "exercises" / "__init__.py")
    assert set(plan.write) == {str(tmp_path / "scratch"), str(tmp_path / "out"), "/dev/null"}
    assert plan.listable == (str(package),)  # names only, so imports of the allowed files still find them


def test_every_grader_module_the_harness_imports_is_readable_by_a_confined_child(tmp_path):
    """A fresh confined child imports the harness after Landlock applies: each grader module it imports
    must be in the plan's reads, or the run fails only where there is no fork server to import it first."""
    import ast

    reads = {Path(p) for p in _reads_and_writes(tmp_path).read}
    package = ROOT / "grader"

    def file_of(module: str) -> Path:
        path = package.joinpath(*module.split(".")[1:])
        return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")

    imported: set[str] = set()
    from grader.exercises import CHILD_FILES

    harness = [*(package / "harness").rglob("*.py"), *(package / name for name in CHILD_FILES)]
    todo = list(harness)  # and, in turn, what the grader modules they import import as they load
    while todo:
        source = todo.pop()
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree) if source in harness else tree.body:
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("grader"):
                names = [node.module] if node.module != "grader" else [f"grader.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names if a.name.startswith("grader.")]
            else:
                continue
            for module in set(names) - imported:
                imported.add(module)
                todo.append(file_of(module))
    assert "grader.observations" in imported
    for module in sorted(imported):
        file = file_of(module)
        assert any(file == r or r in file.parents for r in reads), f"the harness imports {module}, out of a child's reach"


def test_a_fresh_child_confines_itself_before_importing_anything_that_starts_threads():
    """The fresh child imports grader.sandbox.confine first: the package must not bring numpy (whose BLAS starts
    threads that the confinement would not cover) or the grader's other modules with it."""
    import subprocess
    import sys

    code = ("import sys; sys.path.insert(0, sys.argv[1]); import grader.sandbox.confine\n"
            "print(sorted(m for m in sys.modules if m.startswith(('grader', 'numpy', 'jax'))))")
    proc = subprocess.run([sys.executable, "-I", "-c", code, str(ROOT)], capture_output=True, text=True, check=True)
    assert proc.stdout.split() == ["['grader',", "'grader.sandbox',", "'grader.sandbox.confine',",
                                   "'grader.sandbox.machine']"]


def test_run_endings_name_memory_exhaustion():
    assert _crash(-6, "terminate called after throwing an instance of 'std::bad_alloc'")[0] == "memory"
    assert _crash(1, "Traceback...\nMemoryError")[0] == "memory"
    assert _crash(-11, "")[0] == "crashed" and "SIGSEGV" in _crash(-11, "")[1]
    assert _crash(3, "bye")[0] == "crashed"


def test_levels_say_what_held():
    assert Confinement(7, True, True).describe().startswith("full (landlock ABI 7, seccomp")
    assert Confinement(3, False).level == "partial" and "no network, no processes" in Confinement(3, False).describe()
    assert Confinement(0, True).level == "partial" and "no filesystem" in Confinement(0, True).describe()
    assert Confinement().level == "none"


@needs_full
def test_a_planted_file_lands_nowhere(tmp_path, grade_with):
    folder = submission_with(tmp_path, {"ex3_mlp_forward": HOSTILE / "ex3_mlp_forward__plant_files.py"})
    report = grade_with(folder, only=("ex3",))
    assert report.score == 0
    name = "zz_jax_grader_planted"
    import sysconfig

    places = [Path(sysconfig.get_paths()["purelib"]) / f"{name}.pth", Path("/tmp") / name, Path("/var/tmp") / name,
              ROOT / name, ROOT / "grader" / name, Path("/root/.cache/jax-autograder") / name,
              *Path("/tmp").glob(f"pytest-of-*/pytest-*/grader-cache/{name}")]
    planted = [p for p in places if p.exists()]
    for path in planted:
        path.unlink()  # do not leave a planted .pth behind for later processes
    assert planted == []


def _ex3_score(folder: Path, cache: Path, limits: Limits = Limits()) -> float:
    return grade(folder, Options(only=("ex3",), cache_dir=cache, limits=limits)).score


def _cache_state(cache_dir: Path) -> dict[str, bytes]:
    return {str(p.relative_to(cache_dir)): p.read_bytes() for p in sorted(cache_dir.rglob("*"))
            if p.is_file() and "xla" in p.parts}


@needs_full
def test_the_shared_compilation_cache_cannot_be_poisoned(tmp_path):
    """Runs read their exercise's part of the compilation cache in place: a confined one can change nothing."""
    cache = tmp_path / "cache"
    assert _ex3_score(REFERENCE, cache) == 20  # fills the cache
    before = _cache_state(cache)
    assert any(name.endswith("-cache") for name in before)
    folder = submission_with(tmp_path, {"ex3_mlp_forward": HOSTILE / "ex3_mlp_forward__poison_compilation_cache.py"})
    assert _ex3_score(folder, cache) == 0
    assert _cache_state(cache) == before
    assert _ex3_score(REFERENCE, cache) == 20


def test_a_student_run_adds_nothing_to_the_shared_compilation_cache(tmp_path):
    """Even unconfined, JAX in a student's run keeps nothing it compiles: the folder is the reference's alone."""
    cache = tmp_path / "cache"
    assert _ex3_score(REFERENCE, cache) == 20
    before = _cache_state(cache)
    variant = (REFERENCE / "ex3_mlp_forward.py").read_text().replace("jax.nn.relu(", "jax.numpy.maximum(0.0, ")
    assert "jax.numpy.maximum(0.0, " in variant
    folder = submission_with(tmp_path, {"ex3_mlp_forward": variant})
    assert _ex3_score(folder, cache, Limits(confine=False)) == 20
    assert _cache_state(cache) == before


@needs_full
def test_no_connection_leaves_the_child(tmp_path, grade_with):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.setblocking(False)
    port = listener.getsockname()[1]
    datagrams = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    datagrams.bind(("127.0.0.1", port))
    datagrams.setblocking(False)
    source = (HOSTILE / "ex3_mlp_forward__network.py").read_text().replace("PORT = 9\n", f"PORT = {port}\n")
    assert f"PORT = {port}" in source
    report = grade_with(submission_with(tmp_path, {"ex3_mlp_forward": source}), only=("ex3",))
    try:
        assert report.score == 0
        with pytest.raises(BlockingIOError):
            listener.accept()
        with pytest.raises(BlockingIOError):
            datagrams.recv(64)
    finally:
        listener.close()
        datagrams.close()


@needs_full
def test_every_report_states_the_confinement(tmp_path, cache_dir, monkeypatch, capsys):
    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    out = tmp_path / "r.json"
    assert main([str(REFERENCE), "--only", "ex3", "--json", str(out), "--markdown", str(tmp_path / "r.md"),
                 "--gradescope", str(tmp_path / "gs.json")]) == 0
    data = json.loads(out.read_text())
    assert data["confinement"]["level"] == "full" and data["confinement"]["description"] == OFFER.describe()
    line = f"Exercise runs confined: {OFFER.describe()}"
    assert line in capsys.readouterr().out
    assert "Exercise runs confined: full" in (tmp_path / "r.md").read_text()
    assert "Exercise runs confined: full" in json.loads((tmp_path / "gs.json").read_text())["output"]


def test_official_grades_refuse_partial_confinement(tmp_path, cache_dir, monkeypatch, capsys):
    """Batch and --require-confinement (the Gradescope autograder) refuse; a student's grade goes on, saying so."""
    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    for module in ("grader.engine", "grader.batch.runner"):
        monkeypatch.setattr(f"{module}.offered", lambda: PARTIAL)
    assert main([str(REFERENCE), "--only", "ex3", "--require-confinement"]) == 2
    err = capsys.readouterr().err
    assert "confined only partial" in err and "--allow-unconfined" in err

    assert main([str(REFERENCE), "--only", "ex3", "--json", str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    assert "Exercise runs confined: partial" in out and "as an official grade would not" in out
    assert json.loads((tmp_path / "r.json").read_text())["confinement"]["level"] == "partial"

    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "alice.py").write_text((REFERENCE / "ex3_mlp_forward.py").read_text())
    batch = ["batch", str(tmp_path / "class"), "--only", "ex3", "--in-process"]
    assert main([*batch, "--out", str(tmp_path / "refused")]) == 2
    assert "--allow-unconfined" in capsys.readouterr().err
    assert not (tmp_path / "refused" / "grades.csv").exists()
    assert main([*batch, "--out", str(tmp_path / "allowed"), "--allow-unconfined"]) == 0
    manifest = json.loads((tmp_path / "allowed" / "manifest.json").read_text())
    assert manifest["confinement"]["level"] == "partial"
    assert "Exercise runs confined: partial" in (tmp_path / "allowed" / "summary.md").read_text()


def test_gradescope_autograder_requires_confinement():
    script = (ROOT / "gradescope" / "run_autograder").read_text()
    assert "--require-confinement ${JAX_GRADER_ARGS:-}" in script  # so --allow-unconfined in the args cancels it


@needs_full
def test_a_submission_that_attacks_the_grader_leaves_it_alive_with_every_report(tmp_path, cache_dir, monkeypatch):
    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    folder = submission_with(tmp_path, {"ex3_mlp_forward": HOSTILE / "ex3_mlp_forward__kill_the_grader.py"})
    out = {name: tmp_path / name for name in ("r.json", "r.md", "junit.xml", "gs.json")}
    assert main([str(folder), "--only", "ex3,ex5", "--json", str(out["r.json"]), "--markdown", str(out["r.md"]),
                 "--junit", str(out["junit.xml"]), "--gradescope", str(out["gs.json"]), "-q"]) == 0
    assert all(path.stat().st_size > 0 for path in out.values())
    data = json.loads(out["r.json"].read_text())
    scores = {ex: sum(c["score"] for c in data["checks"] if c["exercise"] == ex) for ex in ("ex3", "ex5")}
    assert scores == {"ex3": 0, "ex5": 15}


def test_an_installed_grader_hides_its_own_files_inside_site_packages(tmp_path):
    """Installed from the wheel, the grader sits in site-packages: the child reads its neighbours, not it."""
    site = tmp_path / "site-packages"
    for name in ("numpy/__init__.py", "jax/__init__.py", "grader/_sealed/ex3/observations.json",
                 "grader/exercises/ex3/checks.py", "grader/harness/child.py"):
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text("")
    allowed = {Path(p) for p in policy._allow_except(site, [site / "grader"])}
    assert allowed == {site / "numpy", site / "jax"}
    assert set(policy._allow_except(tmp_path / "elsewhere", [site / "grader"])) == {str(tmp_path / "elsewhere")}
