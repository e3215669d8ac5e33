"""A student's grades against the sealed reference keep what their runs compile, for the next grade of the same
folder; nothing else does (a batch, a secret seed, --no-cache, a reference run on this machine)."""

from __future__ import annotations

import argparse
import os
import signal
from pathlib import Path

import pytest

from conftest import CORPUS, REFERENCE, observe_here, submission_with

from grader import compiled_cache
from grader.cli.options import configure
from grader.config import Options
from grader.engine import AGAIN_WITHOUT_CACHE, _own_compiled, grade
from grader.expected import sealed
from grader.observations import Observations, RunResult
from grader.submission import load_submission

pytestmark = pytest.mark.usefixtures("compilation_cache")

SEALED_XLA = sealed.SHIPPED / sealed.COMPILATION_CACHE


def test_a_folder_starts_as_a_copy_of_the_sealed_part_and_is_kept_per_submission_and_task(tmp_path):
    start = tmp_path / "sealed-ex3"
    start.mkdir()
    (start / "jit_add-entry-cache").write_bytes(b"compiled")
    first = compiled_cache.folder(tmp_path / "cache", tmp_path / "mywork", "ex3", start)
    assert first is not None and (first / "jit_add-entry-cache").read_bytes() == b"compiled"
    (first / "new-entry-cache").write_bytes(b"kept")
    again = compiled_cache.folder(tmp_path / "cache", tmp_path / "mywork", "ex3", start)
    assert again == first and (again / "new-entry-cache").is_file()  # kept, not copied again
    others = {compiled_cache.folder(tmp_path / "cache", tmp_path / "other", "ex3", start),
              compiled_cache.folder(tmp_path / "cache", tmp_path / "mywork", "ex2", start)}
    assert first not in others and len(others) == 2
    assert all(not (p / "new-entry-cache").exists() for p in others)
    assert compiled_cache.folder(tmp_path / "cache", tmp_path / "third", "ex3", None).is_dir()  # nothing to copy


def test_a_link_in_the_folders_place_is_never_used(tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    path = compiled_cache.folder(tmp_path / "cache", tmp_path / "mywork", "ex3", None)
    path.rmdir()
    path.symlink_to(target, target_is_directory=True)
    assert compiled_cache.folder(tmp_path / "cache", tmp_path / "mywork", "ex3", None) is None


def test_a_folder_grown_past_the_bound_is_removed_and_links_are_not_followed(tmp_path, monkeypatch):
    monkeypatch.setattr(compiled_cache, "MAX_BYTES", 1000)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "big").write_bytes(b"x" * 5000)
    path = compiled_cache.folder(tmp_path / "cache", tmp_path / "mywork", "ex3", None)
    (path / "entry").write_bytes(b"x" * 500)
    (path / "link").symlink_to(outside, target_is_directory=True)
    compiled_cache.trim(path)
    assert path.is_dir() and compiled_cache.size(path) == 500  # the link's target is not counted
    (path / "filled").write_bytes(b"x" * 2000)
    compiled_cache.trim(path)
    assert not path.exists() and (outside / "big").is_file()  # removed; nothing outside it touched


def _recorded(tmp_path: Path, options: Options, folder: Path) -> list[tuple[str, Path | None, bool]]:
    calls = []

    def runner(task, submission_dir, inputs_path, workdir, limits, extra_args, compilation_cache,
               cache_writable=False):
        calls.append((task, compilation_cache, cache_writable))
        return observe_here(task, submission_dir, inputs_path, workdir, limits, extra_args, None)

    report = grade(folder, options, runner=runner)
    assert report.score == report.max_score
    return calls


def test_a_students_grade_against_the_sealed_reference_keeps_its_runs_compiled_programs(tmp_path):
    folder = submission_with(tmp_path, {})
    options = Options(only=("ex3",), reference_dir=sealed.SHIPPED, cache_dir=tmp_path / "cache", keep_compiled=True)
    [(task, own, writable)] = _recorded(tmp_path, options, folder)
    assert task == "ex3" and writable and own.parent == tmp_path / "cache" / "compiled"
    assert {p.name for p in own.iterdir()} == {p.name for p in (SEALED_XLA / "ex3").iterdir()}
    [(_, again, _)] = _recorded(tmp_path, options, folder)
    assert again == own  # the same folder's next grade reads what this one kept


@pytest.mark.parametrize("change", [dict(keep_compiled=False), dict(use_cache=False)])
def test_without_keep_compiled_the_runs_only_read_the_sealed_cache(tmp_path, change):
    folder = submission_with(tmp_path, {})
    options = Options(**{"only": ("ex3",), "reference_dir": sealed.SHIPPED, "cache_dir": tmp_path / "cache",
                         "keep_compiled": True, **change})
    assert _recorded(tmp_path, options, folder) == [("ex3", SEALED_XLA, False)]
    assert not (tmp_path / "cache" / "compiled").exists()


def test_a_secret_seed_or_a_reference_run_here_keeps_nothing(tmp_path):
    submission = load_submission(REFERENCE)
    options = Options(cache_dir=tmp_path / "cache", keep_compiled=True)
    assert _own_compiled("ex3", submission, options, SEALED_XLA) is not None
    assert _own_compiled("ex3", submission, Options(cache_dir=tmp_path, keep_compiled=True, seed=7), SEALED_XLA) is None
    here = tmp_path / "cache" / "reference-0123" / "xla"  # a reference computed on this machine: shared, read only
    (here / "ex3").mkdir(parents=True)
    assert _own_compiled("ex3", submission, options, here) is None


def _args(**given) -> argparse.Namespace:
    base = dict(only=None, timeout=None, memory=None, jobs=None, reference=None, no_cache=False, plots=None,
                require_confinement=False, allow_unconfined=False)
    return argparse.Namespace(**{**base, **given})


def test_the_command_line_keeps_compiled_programs_for_a_students_grade_only():
    assert configure(_args()).keep_compiled
    assert not configure(_args(no_cache=True)).keep_compiled
    batch = _args(command="batch", submissions="class", out="out", force=False, shard=None, formats=None,
                  in_process=False, submission_timeout=None, dask=None, max_archive_mb=100.0,
                  allow_unconfined=True)
    assert not configure(batch).keep_compiled


@pytest.mark.e2e
def test_a_real_run_fills_its_own_folder_and_the_next_grade_reads_it(tmp_path):
    """Against the sealed reference, ex3's confined child writes what it compiles into its own folder (and
    nowhere in the sealed one); the same folder graded again gives the same report. The submission is a correct
    variant written another way, so it compiles programs the sealed cache cannot hold on any CPU."""
    folder = submission_with(tmp_path, {"ex3_mlp_forward": CORPUS / "correct" / "ex3_mlp_forward__reduce.py"})
    before = {p.name for p in (SEALED_XLA / "ex3").iterdir()}
    options = Options(only=("ex3",), reference_dir=sealed.SHIPPED, cache_dir=tmp_path / "cache", keep_compiled=True)
    first = grade(folder, options)
    [own] = (tmp_path / "cache" / "compiled").iterdir()
    kept = {p.name for p in own.iterdir()}
    assert before < kept  # it kept entries of its own beside the sealed ones (made for another CPU or not)
    assert {p.name for p in (SEALED_XLA / "ex3").iterdir()} == before
    second = grade(folder, options)
    assert first.score == second.score == first.max_score
    assert [(c.id, c.status, c.message) for c in first.checks] == [(c.id, c.status, c.message) for c in second.checks]
    assert os.listdir(tmp_path / "cache" / "compiled") == [own.name]


@pytest.mark.parametrize("keep", [True, False])
@pytest.mark.parametrize("second", ["ok", "crashed"])
def test_a_run_stopped_by_an_instruction_this_cpu_lacks_runs_again_compiling_its_own_programs(tmp_path, keep, second):
    """The programs a run is given may have been compiled on another CPU (the sealed ones load on every x86-64 CPU
    with AVX2): one that stops it with SIGILL costs a second run with no compiled programs at all, whose result
    stands; a crash from any other signal is not run again."""
    folder = submission_with(tmp_path, {})
    options = Options(only=("ex3",), reference_dir=sealed.SHIPPED, cache_dir=tmp_path / "cache", keep_compiled=keep)
    calls = []

    def runner(task, submission_dir, inputs_path, workdir, limits, extra_args, compilation_cache,
               cache_writable=False):
        calls.append(compilation_cache)
        if compilation_cache is not None or second == "crashed":
            return RunResult("crashed", Observations(), 0.1, returncode=-signal.SIGILL,
                             detail="the process died from SIGILL")
        return observe_here(task, submission_dir, inputs_path, workdir, limits, extra_args, None)

    report = grade(folder, options, runner=runner)
    assert len(calls) == 2 and calls[0] is not None and calls[1] is None
    assert report.runs["ex3"].status == second
    if second == "ok":
        assert report.score == report.max_score and report.runs["ex3"].detail == AGAIN_WITHOUT_CACHE
    else:
        assert report.score == 0 and "SIGILL" in report.runs["ex3"].detail

    def segfault(task, submission_dir, inputs_path, workdir, limits, extra_args, compilation_cache,
                 cache_writable=False):
        calls.append(compilation_cache)
        return RunResult("crashed", Observations(), 0.1, returncode=-signal.SIGSEGV)

    calls.clear()  # a crash from another signal is the submission's own: run once
    assert grade(folder, options, runner=segfault).runs["ex3"].status == "crashed" and len(calls) == 1
