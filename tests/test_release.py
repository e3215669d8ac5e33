"""The student release: sealed reference observations, ``init``, and a wheel that grades without the solutions."""

from __future__ import annotations

import ast
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS, EXERCISES_DIR, REFERENCE, ROOT, by_id, once_per_run, submission_with

from grader import inputs as grader_inputs
from grader.expected import cache as grader_reference
from grader.expected import sealed
from grader.harness import xla_options
from grader.checks.compare import array_mismatch
from grader.exercises import BY_ID, REFERENCED, WARMED
from grader.batch.grading import fingerprint
from grader.config import Options
from grader.observations import Observations
from grader.cli import main
from grader.gradescope import SEED_FILE, build_zip
from grader.expected import task_compilation_cache
from grader.expected.cache import ReferenceRunError, code_digest, load_reference
from grader.expected.sealing import SealError, cpu_key, seal
from grader.stubs import InitError, init
from grader.report import gradescope, markdown
from grader.report.terminal import print_report
from grader.results import CheckResult, Report
from grader.submission import MODULES

SOLUTION_FILES = sorted(REFERENCE.glob("ex*.py"))


@pytest.fixture
def no_code_reference(monkeypatch, tmp_path):
    """As on a student's machine: no reference code where the grader looks."""
    monkeypatch.setattr(grader_reference, "_REPO_REFERENCE", tmp_path / "no-reference-here")
    monkeypatch.delenv("JAX_GRADER_REFERENCE", raising=False)


@pytest.fixture(scope="session")
def sealed_copy(tmp_path_factory):
    """A reference sealed now from the code, on the public inputs (the reference runs afresh: real children),
    and the manifest ``seal`` returned; sealed once per run, by whichever worker asks first."""
    with once_per_run(tmp_path_factory, "sealed") as folder:
        out, returned = folder / "public", folder / "returned.pickle"
        if not returned.exists():
            returned.write_bytes(pickle.dumps(seal(out, REFERENCE)))
        return out, pickle.loads(returned.read_bytes())


def _cached_reference(cache_dir, tmp_path, seed=None):
    inputs_path = grader_inputs.write(tmp_path / "inputs.npz", seed)
    with ThreadPoolExecutor(2) as pool:
        return load_reference(REFERENCED, inputs_path, tmp_path, pool, reference_dir=REFERENCE,
                              cache_dir=cache_dir)


#: How far a float may move between machines: the CPU's instruction set picks XLA's kernels (a matrix product
#: sums in another order with AVX-512 than with AVX2), so a sealed float can differ in its last bits from one
#: computed here. A tenth of the grading tolerance (``compare.RTOL``, ``compare.ATOL_SCALE``): far below what
#: any check can see, far above rounding, so a real change to the reference still shows.
_MACHINE_ROUNDING = {"rtol": 1e-5, "atol_scale": 1e-6}


def _same_value(got, want) -> bool:
    """Equal, except that floats may differ by rounding between machines (see ``_MACHINE_ROUNDING``)."""
    if isinstance(want, np.ndarray) and want.dtype.kind == "f":
        return (isinstance(got, np.ndarray) and got.dtype == want.dtype
                and array_mismatch(got, want, **_MACHINE_ROUNDING) is None)
    if isinstance(want, np.ndarray):
        return np.array_equal(got, want)
    return got == want


def _same_observations(got, want) -> list[str]:
    """Names of ``got``'s observations that differ from ``want``'s."""
    problems = []
    for name in got.values:
        if isinstance(want[name], dict) and all(isinstance(v, np.ndarray) for v in want[name].values()):
            same = set(got[name]) == set(want[name]) and all(_same_value(got[name][k], v)
                                                            for k, v in want[name].items())
        else:
            same = _same_value(got[name], want[name])
        if not same:
            problems.append(name)
    return problems


def test_machine_rounding_tells_a_changed_reference_from_another_cpu():
    want = np.linspace(-1, 1, 50, dtype=np.float32)
    assert _same_value(want + np.float32(2e-7) * np.sign(want), want)  # the last bits, as another CPU gives
    assert not _same_value(want * np.float32(1.0001), want)  # at the grading tolerance: a change
    assert not _same_value(want.astype(np.float64), want)
    assert not _same_value(np.arange(3), np.arange(1, 4)) and _same_value(np.arange(3), np.arange(3))


@pytest.mark.e2e
def test_seal_writes_the_observations_and_a_manifest(sealed_copy):
    out, manifest = sealed_copy
    written = sealed.read_manifest(out)
    assert written == manifest
    assert written.seed is None and written.tasks == REFERENCED
    assert set(written.versions) == {"jax", "jaxlib", "optax", "numpy"}
    assert written.versions == sealed.library_versions() and written.platform == sealed.platform_name()
    assert written.reference_digest == code_digest(REFERENCE)
    assert "speedup" not in sealed.read(out, ["ex4"])["ex4"].values  # a measurement of the machine, not sealed
    listing = json.loads((out / sealed.COMPILATION_CACHE / sealed.CPUS).read_text())
    # each task's part under its runs' key for this CPU: every x86-64 AVX2 CPU's where they compile for all of
    # them (every run but the training's, where this is such a CPU), else JAX's own; the training's is there too
    assert set(listing) == {cpu_key(task) for task in REFERENCED + WARMED}
    for task in REFERENCED + WARMED:
        assert list(listing[cpu_key(task)][task]) and all(task not in parts for cpu, parts in listing.items()
                                                          if cpu != cpu_key(task))
        shared = xla_options.PORTABLE_ISA[0] in xla_options.for_exercise(task)
        assert cpu_key(task) == f"portable-{xla_options.PORTABLE_CPU}" if shared else cpu_key(task).startswith("xla-")
    assert cpu_key("accuracy").startswith("xla-")


def test_shipped_sealed_reference_is_current(cache_dir, tmp_path):
    """grader/_sealed must be what the current reference, probes and inputs give; if not:
    python -m grader seal grader/_sealed"""
    manifest = sealed.read_manifest(sealed.SHIPPED)
    assert manifest.seed is None
    assert manifest.reference_digest == code_digest(REFERENCE), "the reference changed: re-seal grader/_sealed"
    assert manifest.probes_digest == sealed.probes_digest(), "the probes changed: re-seal grader/_sealed"
    public = grader_inputs.write(tmp_path / "public.npz")
    assert manifest.inputs_digest == sealed.file_digest(public), "the inputs changed: re-seal grader/_sealed"
    assert sealed.compilation_cache(sealed.SHIPPED) is not None, "no compilation cache: re-seal grader/_sealed"
    fresh = _cached_reference(cache_dir, tmp_path).observations
    shipped = sealed.read(sealed.SHIPPED, list(REFERENCED))
    for task in REFERENCED:
        kept = {n for n in fresh[task].values if n not in BY_ID[task].machine_dependent}
        assert set(shipped[task].values) == kept, task
        assert _same_observations(shipped[task], fresh[task]) == [], task


@pytest.mark.e2e
def test_grading_against_a_sealed_reference_is_grading_against_the_code(sealed_copy, grade_with, tmp_path,
                                                                          no_code_reference):
    out, _ = sealed_copy
    folder = submission_with(tmp_path, {"ex2_per_example_grads": CORPUS / "mutants" /
                                        "ex2_per_example_grads__norms_no_sqrt.py"})
    only = ("ex2",)
    against_sealed = grade_with(folder, only=only, reference_dir=out)
    against_code = grade_with(folder, only=only, reference_dir=REFERENCE)
    assert [(c.id, c.status, c.score, c.message) for c in against_sealed.checks] == \
        [(c.id, c.status, c.score, c.message) for c in against_code.checks]
    assert by_id(against_sealed)["ex2.norms"].status == "fail"
    assert against_sealed.reference["kind"] == "sealed" and against_code.reference == {"kind": "code"}
    assert against_sealed.reference["versions"] == sealed.library_versions()
    assert not against_sealed.notes
    # With no reference code anywhere, the package's own sealed reference is found.
    assert grade_with(REFERENCE, only=("ex3",)).reference["kind"] == "sealed"


def test_a_process_reads_each_reference_once_and_no_grade_changes_what_the_next_reads(tmp_path, monkeypatch):
    """A batch worker (or ``--watch``) grades submission after submission against one reference: its observations
    are read from disk once per digest of their files, and each grade gets dicts of its own around arrays that
    cannot be written, so nothing one grade's judging does reaches the next."""
    monkeypatch.setattr(grader_reference, "_READ", {})
    reads: list[Path] = []
    real = sealed.read_observations
    monkeypatch.setattr(sealed, "read_observations", lambda folder: reads.append(folder) or real(folder))
    inputs_path = grader_inputs.write(tmp_path / "inputs.npz")
    with ThreadPoolExecutor(1) as pool:
        first, second = (load_reference(("ex3", "ex5"), inputs_path, tmp_path, pool, reference_dir=sealed.SHIPPED)
                         for _ in range(2))
    assert sorted(p.name for p in reads) == ["ex3", "ex5"]
    assert first.digest == second.digest
    a, b = first.observations["ex3"], second.observations["ex3"]
    assert a.values is not b.values and a.values.keys() == b.values.keys()
    arrays = [(name, v) for name, v in a.values.items() if isinstance(v, np.ndarray)]
    assert arrays and all(not v.flags.writeable for _, v in arrays)
    with pytest.raises(ValueError):
        arrays[0][1][...] = 0
    trees = [name for name, v in a.values.items() if isinstance(v, dict)]
    assert trees, "ex3's reference records trees of arrays"
    names, leaves = set(b.values), set(b.values[trees[0]])
    a.values[trees[0]].clear()
    a.values.clear()
    with ThreadPoolExecutor(1) as pool:
        again = load_reference(("ex3", "ex5"), inputs_path, tmp_path, pool, reference_dir=sealed.SHIPPED)
    assert set(again.observations["ex3"].values) == names and set(again.observations["ex3"].values[trees[0]]) == leaves
    third = grader_reference._read_once("another digest", lambda: {"ex3": Observations({"x": np.zeros(2)})})
    assert third["ex3"].values["x"].tolist() == [0.0, 0.0] and len(reads) == 2  # another digest is read anew


def test_a_sealed_reference_gives_the_runs_its_compilation_cache(tmp_path):
    """Students' runs start from the cache the reference runs filled when sealed, as with the reference code."""
    inputs_path = grader_inputs.write(tmp_path / "inputs.npz")
    with ThreadPoolExecutor(1) as pool:
        ref = load_reference(("ex3",), inputs_path, tmp_path, pool, reference_dir=sealed.SHIPPED)
    assert ref.manifest is not None and ref.compilation_cache == sealed.SHIPPED / sealed.COMPILATION_CACHE
    # a folder per task: a run copies only its own exercise's part; the training's is there too
    assert sorted(p.name for p in ref.compilation_cache.iterdir() if p.is_dir()) == sorted(REFERENCED + WARMED)
    part = task_compilation_cache(ref.compilation_cache, "ex3")
    assert part == ref.compilation_cache / "ex3" and any(part.iterdir())
    assert any(task_compilation_cache(ref.compilation_cache, "accuracy").iterdir())


def _seal_with_entries(out: Path, cpu: str | dict[str, str], entries: dict[str, bytes], versions=None,
                       xla_options=None) -> dict:
    """``sealed.write`` of the shipped observations into ``out``, with ``entries`` as ex3's compiled part made on
    ``cpu`` (one key, or each task's; with ``xla_options``, the tasks' own by default); returns the folder's listing
    of entries per CPU."""
    made = Path(tempfile.mkdtemp(dir=out.parent))
    results, compiled = made / "results", made / "xla"
    (compiled / "ex3").mkdir(parents=True)
    for name, data in entries.items():
        (compiled / "ex3" / name).write_bytes(data)
    shutil.copytree(sealed.SHIPPED / "ex3", results / "ex3")
    manifest = sealed.Manifest(tasks=("ex3",), seed=None, inputs_digest="i", probes_digest="p", reference_digest="r",
                               versions=versions or sealed.library_versions(),
                               xla_options=sealed.compile_options() if xla_options is None else xla_options)
    sealed.write(out, results, manifest, compiled, cpu)
    return json.loads((out / sealed.COMPILATION_CACHE / sealed.CPUS).read_text())


def test_a_seal_lists_each_task_under_the_key_its_runs_compile_for(tmp_path):
    """Runs of different tasks key their programs differently (every x86-64 AVX2 CPU's key, or this CPU's own for
    the training's): a seal lists each task's part under its own key, and replaces what it held under any of them."""
    out = tmp_path / "sealed"
    assert _seal_with_entries(out, "A", {"a1-cache": b"1"}) == {"A": {"ex3": ["a1-cache"]}}  # ex3 keyed by CPU A
    assert _seal_with_entries(out, {"ex3": "portable", "accuracy": "A"}, {"p1-cache": b"2"}) == {
        "portable": {"ex3": ["p1-cache"]}}
    assert sorted(p.name for p in (out / sealed.COMPILATION_CACHE / "ex3").iterdir()) == ["p1-cache"]
    assert _seal_with_entries(out, "B", {"b1-cache": b"3"}) == {"portable": {"ex3": ["p1-cache"]},
                                                              "B": {"ex3": ["b1-cache"]}}


def test_a_seal_keeps_what_other_cpus_compiled(tmp_path):
    """JAX keys compiled entries by CPU: a seal made on one CPU keeps another CPU's entries beside its own, replaces
    its own CPU's, and drops them all when jax or jaxlib changes."""
    out = tmp_path / "sealed"
    part = out / sealed.COMPILATION_CACHE / "ex3"
    assert _seal_with_entries(out, "A", {"a1-cache": b"1", "a2-cache": b"2"}) == {"A": {"ex3": ["a1-cache", "a2-cache"]}}
    assert _seal_with_entries(out, "B", {"b1-cache": b"3"}) == {"A": {"ex3": ["a1-cache", "a2-cache"]},
                                                              "B": {"ex3": ["b1-cache"]}}
    assert sorted(p.name for p in part.iterdir()) == ["a1-cache", "a2-cache", "b1-cache"]
    assert (part / "a2-cache").read_bytes() == b"2"
    # the same key compiled again keeps the bytes sealed under it (a recompile's bytes may differ)
    assert _seal_with_entries(out, "B", {"b1-cache": b"3 again"}) == {"A": {"ex3": ["a1-cache", "a2-cache"]},
                                                                    "B": {"ex3": ["b1-cache"]}}
    assert (part / "b1-cache").read_bytes() == b"3"
    # CPU A seals again: its old entries go, B's stay
    assert _seal_with_entries(out, "A", {"a3-cache": b"4"}) == {"A": {"ex3": ["a3-cache"]}, "B": {"ex3": ["b1-cache"]}}
    assert sorted(p.name for p in part.iterdir()) == ["a3-cache", "b1-cache"]
    # a listing never names a file outside its folder
    listing = out / sealed.COMPILATION_CACHE / sealed.CPUS
    (tmp_path / "secret").write_text("not an entry")
    listing.write_text(json.dumps({"C": {"ex3": ["../../secret", "b1-cache"]}}))
    assert _seal_with_entries(out, "D", {"d1-cache": b"5"}) == {"C": {"ex3": ["b1-cache"]}, "D": {"ex3": ["d1-cache"]}}
    # another jaxlib: entries compiled by the old one would never load
    other = {**sealed.library_versions(), "jaxlib": "0.0.1"}
    assert _seal_with_entries(out, "E", {"e1-cache": b"6"}, other) == {"E": {"ex3": ["e1-cache"]}}
    assert sorted(p.name for p in part.iterdir()) == ["e1-cache"]


def test_a_seal_drops_what_other_cpus_compiled_with_other_xla_options(tmp_path):
    """The XLA options a run compiles with are part of each entry's key: entries another CPU compiled for a task
    whose options have changed since (or a seal that does not record them) would never load, and go; the other
    tasks' stay."""
    out = tmp_path / "sealed"
    part = out / sealed.COMPILATION_CACHE / "ex3"
    assert _seal_with_entries(out, "A", {"a1-cache": b"1"}) == {"A": {"ex3": ["a1-cache"]}}
    manifest = sealed.read_manifest(out)
    assert manifest.xla_options == sealed.compile_options() and manifest.xla_options["ex3"][-1] != "--new"
    changed = {**sealed.compile_options(), "ex3": [*sealed.compile_options()["ex3"], "--new"]}
    assert _seal_with_entries(out, "B", {"b1-cache": b"2"}, xla_options=changed) == {"B": {"ex3": ["b1-cache"]}}
    assert sorted(p.name for p in part.iterdir()) == ["b1-cache"]
    # another task's options changing leaves ex3's entries where they are
    assert _seal_with_entries(out, "C", {"c1-cache": b"3"}, xla_options={**changed, "ex4": ["--other"]}) == {
        "B": {"ex3": ["b1-cache"]}, "C": {"ex3": ["c1-cache"]}}
    # a seal made before the options were recorded: its other CPUs' entries cannot be told to load
    data = json.loads((out / sealed.MANIFEST).read_text())
    del data["xla_options"]
    (out / sealed.MANIFEST).write_text(json.dumps(data))
    assert sealed.read_manifest(out).xla_options == {}
    assert _seal_with_entries(out, "D", {"d1-cache": b"4"}, xla_options=changed) == {"D": {"ex3": ["d1-cache"]}}
    # the shipped seal records what a run is given here
    shipped = sealed.read_manifest(sealed.SHIPPED).xla_options
    assert shipped == sealed.compile_options()


def test_the_shipped_compilation_cache_lists_each_entry_under_one_cpu():
    xla = sealed.compilation_cache(sealed.SHIPPED)
    listing = json.loads((xla / sealed.CPUS).read_text())
    for task in REFERENCED + WARMED:
        listed = [name for parts in listing.values() for name in parts.get(task, [])]
        assert len(listed) == len(set(listed)) and set(listed) == {p.name for p in (xla / task).iterdir()}, task


def _with_manifest(source: Path, dest: Path, **changes) -> Path:
    shutil.copytree(source, dest)
    data = json.loads((dest / sealed.MANIFEST).read_text())
    data.update(changes)
    (dest / sealed.MANIFEST).write_text(json.dumps(data))
    return dest


def test_other_versions_are_named_and_graded_on(grade_with, tmp_path, monkeypatch):
    out, manifest = sealed.SHIPPED, sealed.read_manifest(sealed.SHIPPED)  # current: see the test above
    old = _with_manifest(out, tmp_path / "old", versions={**manifest.versions, "jax": "0.4.30"})
    recomputed = grade_with(REFERENCE, only=("ex3",), reference_dir=old)  # the checkout's reference/ is at hand
    assert recomputed.reference == {"kind": "code"} and recomputed.score == recomputed.max_score
    assert any("recomputed from the reference code" in n and "jax 0.4.30 (sealed)" in n for n in recomputed.notes)

    monkeypatch.setattr(grader_reference, "_REPO_REFERENCE", tmp_path / "absent")
    monkeypatch.delenv("JAX_GRADER_REFERENCE", raising=False)
    report = grade_with(REFERENCE, only=("ex3",), reference_dir=old)
    assert report.score == report.max_score and report.reference["versions"]["jax"] == "0.4.30"
    here = sealed.library_versions()["jax"]
    assert any(f"jax 0.4.30 (sealed) / {here} (here)" in n for n in report.notes), report.notes


def test_a_sealed_reference_that_does_not_fit_is_refused(grade_with, tmp_path, no_code_reference):
    out = sealed.SHIPPED
    with pytest.raises(ReferenceRunError, match="Secret inputs need the reference code"):
        grade_with(REFERENCE, only=("ex3",), reference_dir=out, seed=5)
    stale = _with_manifest(out, tmp_path / "stale", probes_digest="0" * 64)
    with pytest.raises(ReferenceRunError, match="another version of the grader's probes"):
        grade_with(REFERENCE, only=("ex3",), reference_dir=stale)
    broken = tmp_path / "broken"
    shutil.copytree(out, broken)
    (broken / "ex3" / "observations.npz").write_bytes(b"not an npz")
    with pytest.raises(ReferenceRunError, match="incomplete or unreadable"):
        grade_with(REFERENCE, only=("ex3",), reference_dir=broken)
    with pytest.raises(ReferenceRunError, match="holds neither the reference solutions"):
        grade_with(REFERENCE, only=("ex3",), reference_dir=tmp_path)


def test_seal_refuses_to_overwrite_other_folders(tmp_path, no_code_reference):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with pytest.raises(SealError, match="is not a sealed reference"):
        seal(tmp_path / "busy", REFERENCE)
    with pytest.raises(SealError, match="cannot find the reference solutions"):
        seal(tmp_path / "out")
    assert main(["seal", str(tmp_path / "out")]) == 2


def test_init_writes_the_stubs_and_never_overwrites(tmp_path, capsys):
    assert main(["init", str(tmp_path / "work")]) == 0
    assert "python -m grader" in capsys.readouterr().out
    names = sorted(p.name for p in (tmp_path / "work").iterdir())
    assert names == sorted([f"{m}.py" for m in MODULES.values()] + ["answers.md"])
    for name in names:
        assert (tmp_path / "work" / name).read_bytes() == (EXERCISES_DIR / name).read_bytes()
    (tmp_path / "work" / "ex1_dropout.py").write_text("# my work")
    assert main(["init", str(tmp_path / "work")]) == 2
    assert "already holds" in capsys.readouterr().err
    assert (tmp_path / "work" / "ex1_dropout.py").read_text() == "# my work"
    init(tmp_path / "work", force=True)
    assert (tmp_path / "work" / "ex1_dropout.py").read_bytes() == (EXERCISES_DIR / "ex1_dropout.py").read_bytes()
    (tmp_path / "file").write_text("")
    with pytest.raises(InitError, match="is a file"):
        init(tmp_path / "file")


def _report(inputs, reference) -> Report:
    check = CheckResult("ex3.deep", "ex3", "deep", "pass", 5.0, 5.0)
    return Report(checks=(check,), submission="work", inputs=inputs, reference=reference)


def test_every_student_format_says_what_was_graded_against_but_never_the_seed(tmp_path):
    from io import StringIO

    sealed_ref = {"kind": "sealed", "grader": "0.1.0", "versions": {"jax": "0.10.2"}, "platform": "Linux-x86_64"}
    local = _report({"kind": "public", "note": "The official grade uses other inputs of the same kind: passing "
                                               "here is necessary, not sufficient."}, sealed_ref)
    official = _report({"kind": "secret seed"}, {"kind": "code"})
    for report, expected in ((local, ["Inputs: public", "other inputs of the same kind", "sealed observations",
                                      "jax 0.10.2"]),
                             (official, ["secret seed", "the reference solutions, run on this machine"])):
        out = StringIO()
        print_report(report, file=out)
        official_output = gradescope.results(report)["output"]
        texts = [out.getvalue(), markdown.dumps(report), official_output]
        for text in texts:
            for phrase in expected:
                # Gradescope's grade is the official one: it never says the official grade uses other inputs
                if text is official_output and phrase == "other inputs of the same kind":
                    assert phrase not in text, text
                else:
                    assert phrase in text, (phrase, text)
        assert Report.from_json(json.loads(json.dumps(report.to_json()))) == report
    assert [line for line in out.getvalue().splitlines() if "Inputs" in line] == [
        "Inputs: drawn from a secret seed (the official grade's inputs)."]


def test_batch_options_carry_the_seed_and_it_changes_the_fingerprint():
    options = Options(only=("ex3",), seed=77)
    assert Options.from_json(json.loads(json.dumps(options.to_json()))) == options
    assert fingerprint(options) != fingerprint(Options(only=("ex3",)))


def test_env_seed_and_bad_seeds_on_the_command_line(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("JAX_GRADER_SEED", "twelve")
    assert main(["exercises", "--only", "ex3"]) == 2
    assert "JAX_GRADER_SEED" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["exercises", "--seed", "-4"])
    assert "non-negative integer" in capsys.readouterr().err


def test_gradescope_zip_keeps_a_secret_seed(tmp_path, capsys, monkeypatch):
    build_zip(tmp_path / "fixed.zip", seed=123)
    with zipfile.ZipFile(tmp_path / "fixed.zip") as archive:
        assert archive.read(SEED_FILE) == b"123\n"
    assert main(["gradescope-zip", str(tmp_path / "random.zip"), "--seed", "random"]) == 0
    assert "secret seed" in capsys.readouterr().out
    with zipfile.ZipFile(tmp_path / "random.zip") as archive:
        assert grader_inputs.check_seed(archive.read(SEED_FILE).decode()) >= 0
    build_zip(tmp_path / "public.zip")
    with zipfile.ZipFile(tmp_path / "public.zip") as archive:
        assert SEED_FILE not in archive.namelist()
    assert main(["gradescope-zip", str(tmp_path / "bad.zip"), "--seed", "x"]) == 2


@pytest.mark.skipif(shutil.which("bash") is None, reason="run_autograder is a bash script")
def test_run_autograder_grades_with_the_seed_in_the_zip(tmp_path):
    source = tmp_path / "source"
    build_zip(tmp_path / "a.zip", seed=99)
    with zipfile.ZipFile(tmp_path / "a.zip") as archive:
        archive.extractall(source)
    seen = tmp_path / "seen.txt"
    fake = tmp_path / "python"  # records how the grader would be called
    fake.write_text(f'#!/usr/bin/env bash\necho "$JAX_GRADER_SEED $*" >> "{seen}"\n')
    fake.chmod(0o755)
    env = {**os.environ, "JAX_GRADER_SOURCE": str(source), "JAX_GRADER_SUBMISSION": str(tmp_path),
           "JAX_GRADER_RESULTS": str(tmp_path / "results.json"), "JAX_GRADER_PYTHON": str(fake)}
    subprocess.run(["bash", str(source / "run_autograder")], env=env, check=True, capture_output=True)
    assert any(line.startswith("99 -m grader ") for line in seen.read_text().splitlines())


# --- the wheel ----------------------------------------------------------------------------------------------------


def _functions(source: str) -> set[str]:
    """Every function in ``source`` (name, arguments and body, docstring left out), as a comparable dump."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            found.add(node.name + ast.dump(node.args) + "".join(ast.dump(stmt) for stmt in body))
    return found


def _assert_no_solution(names_and_bytes: dict[str, bytes]) -> None:
    """No reference file, by name or by content, and no function of a reference solution, however renamed."""
    assert not [n for n in names_and_bytes if "reference/" in n or n.startswith("reference")]
    solutions = {p.read_bytes() for p in SOLUTION_FILES}
    assert not [n for n, data in names_and_bytes.items() if data in solutions]
    stub_functions = set().union(*(_functions(p.read_text()) for p in EXERCISES_DIR.glob("*.py")))
    solved = set().union(*(_functions(p.read_text()) for p in SOLUTION_FILES)) - stub_functions
    assert len(solved) >= 10
    leaked = [n for n, data in names_and_bytes.items() if n.endswith(".py")
              and _functions(data.decode("utf-8")) & solved]
    assert not leaked, leaked


def test_the_wheel_ships_stubs_and_sealed_reference_but_no_solution(wheel):
    with zipfile.ZipFile(wheel) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    _assert_no_solution(files)
    for path in EXERCISES_DIR.iterdir():
        assert files[f"grader/_stubs/{path.name}"] == path.read_bytes()
    for path in sealed.SHIPPED.rglob("*"):
        if path.is_file():
            assert files[f"grader/_sealed/{path.relative_to(sealed.SHIPPED).as_posix()}"] == path.read_bytes()
    assert "grader/_data/mnist_5k.npz" in files and "grader/rubric.toml" in files


@pytest.mark.e2e
def test_the_sdist_holds_no_solution(tmp_path):
    pytest.importorskip("build")
    subprocess.run([sys.executable, "-m", "build", "--sdist", "-o", str(tmp_path), str(ROOT)], check=True,
                   capture_output=True)
    import tarfile

    (path,) = tmp_path.glob("jax_autograder-*.tar.gz")
    with tarfile.open(path) as archive:
        files = {m.name.split("/", 1)[1]: archive.extractfile(m).read() for m in archive.getmembers() if m.isfile()}
    _assert_no_solution(files)
    assert "exercises/ex1_dropout.py" in files and "grader/_sealed/manifest.json" in files and "setup.py" in files


@pytest.mark.e2e
def test_an_installed_wheel_grades_with_no_reference_code(installed_grader, tmp_path):
    """pip install of the built wheel into a fresh venv; init in an empty folder; stubs 0, a correct solution 100."""
    python, site = installed_grader
    work = tmp_path / "student"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_GRADER", "PYTHON"))}
    env["JAX_GRADER_CACHE"] = str(tmp_path / "cold-cache")

    def grader(*args):
        return subprocess.run([str(python), "-m", "grader", *args], cwd=work, env=env, capture_output=True, text=True)

    where = subprocess.run([str(python), "-c", "import grader; print(grader.__file__)"], cwd=work, env=env,
                           capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(site)), where
    hidden = subprocess.run(  # the installed package's sealed answers and checks stay out of a child's reach
        [str(python), "-c", "import sys; from pathlib import Path; from grader.sandbox import policy\n"
         "pkg = Path(policy.__file__).parents[1]\n"
         "plan = policy.plan(policy.offered(), reads=(), writes=(), memory_bytes=0)\n"
         "reads = [Path(p) for p in plan.read]\n"
         "seen = [str(s) for s in (pkg / '_sealed', pkg / 'checks', pkg / 'engine.py')\n"
         "        if any(s == r or r in s.parents for r in reads)]\n"
         "print(seen, (pkg / 'harness') in reads)"], cwd=work, env=env, capture_output=True, text=True, check=True)
    assert hidden.stdout.strip() == "[] True", hidden.stdout
    made = grader("init", "mywork")
    assert made.returncode == 0, made.stderr
    stubs = grader("mywork", "--json", "stubs.json")
    assert stubs.returncode == 0, stubs.stderr
    report = json.loads((work / "stubs.json").read_text())
    assert report["score"] == 0 and report["max_score"] == 100
    assert report["reference"]["kind"] == "sealed" and report["inputs"]["kind"] == "public"
    assert "other inputs of the same kind" in stubs.stdout
    shutil.copy(CORPUS / "correct" / "whole" / "single_file.py", work / "solution.py")
    solved = grader("solution.py", "--json", "solved.json")
    assert solved.returncode == 0, solved.stderr
    report = json.loads((work / "solved.json").read_text())
    assert report["score"] == 100, [(c["id"], c["message"][:200]) for c in report["checks"] if c["status"] != "pass"]
    assert report["reference"]["kind"] == "sealed"
    assert not (tmp_path / "cold-cache").exists() or not list((tmp_path / "cold-cache").glob("reference-*"))
    secret = grader("mywork", "--seed", "3", "--only", "ex3")
    assert secret.returncode == 2 and "Secret inputs need the reference code" in secret.stderr


@pytest.mark.parametrize("workflow", [ROOT / ".github" / "classroom" / "autograding.yml",
                                      ROOT / "templates" / "grade-in-ci.yml"])
def test_workflows_install_the_package_not_the_solutions(workflow):
    text = workflow.read_text()
    assert ('python -m pip install "$GRADER_PACKAGE"' in text
            or 'uv pip install --system "$GRADER_PACKAGE"' in text)
    assert "GRADER_PACKAGE: https://" in text and ".whl" in text
    assert text.count("uses: actions/checkout@") == 1  # the student's repository only
    assert "--reference" not in text and "reference/" not in text


@pytest.mark.e2e
def test_the_training_starts_from_what_the_reference_compiled_once_it_has(tmp_path):
    """The accuracy run needs no reference observations: it starts before the reference's runs are waited for.
    The first time, with nothing compiled yet, it starts with no compilation cache while the reference trains once
    for it, and ex3's run waits for its reference's; from then on both start at once from what the reference
    compiled. A cache that does not last is not warmed."""
    inputs_path = grader_inputs.write(tmp_path / "inputs.npz")
    started = []

    def load(cache: Path, **options):
        with ThreadPoolExecutor(2) as pool:
            return load_reference(("ex3", "accuracy"), inputs_path, tmp_path / "work", pool, reference_dir=REFERENCE,
                                  cache_dir=cache, start=started.append, **options)

    first = load(tmp_path / "cache")
    assert started == [{"accuracy": None}]
    assert any(task_compilation_cache(first.compilation_cache, "accuracy").iterdir())
    assert set(first.observations) == {"ex3"}  # the training is not judged against the reference
    again = load(tmp_path / "cache")
    assert again.compilation_cache is not None
    assert started[1] == {"ex3": again.compilation_cache, "accuracy": again.compilation_cache}
    unwarmed = load(tmp_path / "unwarmed", warm=False)
    assert len(started) == 3 and started[2] == {"accuracy": unwarmed.compilation_cache}  # ex3's reference runs
    assert not list((tmp_path / "unwarmed").glob("*/accuracy.compiled"))


@pytest.mark.parametrize("task", ["ex3", "ex4"])
def test_a_reference_computed_here_starts_from_the_shipped_compilation_cache(tmp_path, task):
    """A fresh cache folder's compilation cache begins as the shipped one (so the first grade compiles little),
    copied whole into place: no half-copied staging folder is left beside it. Where the shipped cache was sealed on
    this machine's CPU, the reference's run compiles nothing it lacks: the seal and a grade compile with the same
    options (ex3 quickly, ex4 fully: ``Exercise.runs_for_speed``), which are part of every entry's key."""
    inputs_path = grader_inputs.write(tmp_path / "inputs.npz")
    with ThreadPoolExecutor(1) as pool:
        ref = load_reference((task,), inputs_path, tmp_path / "work", pool, reference_dir=REFERENCE,
                             cache_dir=tmp_path / "cache")
    shipped = {p.name for p in task_compilation_cache(sealed.compilation_cache(sealed.SHIPPED), task).iterdir()}
    compiled = {p.name for p in task_compilation_cache(ref.compilation_cache, task).iterdir()}
    assert shipped and shipped <= compiled
    assert [p.name for p in ref.compilation_cache.parent.iterdir() if p.name.startswith("xla-")] == []
    if cpu_key(task) in json.loads((sealed.compilation_cache(sealed.SHIPPED) / sealed.CPUS).read_text()):
        assert compiled - shipped == set(), sorted(compiled - shipped)[:5]
