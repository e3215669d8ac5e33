"""Secret inputs: every check judges correctly on inputs drawn from any seed.

Most tests here observe in this process (the probes run on the reference or a
corpus module imported here, as ``test_reference.py`` does) and judge with the
grader's own ``judge_all``, so many seeds cost seconds, not child runs. The
end-to-end tests grade through children, as ``python -m grader --seed N`` does.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from conftest import CORPUS, EXERCISES_DIR, REFERENCE, by_id, observe_here, submission_with

from grader import inputs as grader_inputs
from grader.engine import CHECKS, _Run, judge_all
from grader.exercises import ALL
from grader.rubric import load_rubric
from grader.observations import Observations, RunResult

SEEDS = (1, 987654321)
DROPOUT_SEEDS = tuple(range(100, 106))
SECRET = 4242
_observed: dict[tuple, Observations] = {}


pytestmark = pytest.mark.usefixtures("compilation_cache")  # observed in this process: see conftest


def observe(task: str, folder, seed: int | None, tmp_path_factory) -> Observations:
    """What the child would record for ``task`` on the modules in ``folder``, observed in this process."""
    key = (task, str(folder), seed)
    if key not in _observed:
        tmp = tmp_path_factory.mktemp(f"observe-{task}")
        _observed[key] = observe_here(task, folder, grader_inputs.write(tmp / "inputs.npz", seed), tmp).observations
    return _observed[key]


def judge(task: str, student: Observations, reference: Observations, seed: int | None) -> dict:
    runs = {task: _Run(task, RunResult("ok", student, 0.0))}
    results, _ = judge_all(runs, {task: reference}, load_rubric(CHECKS), grader_inputs.build(seed))
    return {r.id: r for r in results}


def _problems(results: dict) -> list:
    return [(r.id, r.status, r.message[:200]) for r in results.values() if r.status != "pass"]


def _flat_kind(tree):
    return {k: (v.shape, v.dtype) for k, v in grader_inputs.flatten(tree).items()}


def test_inputs_drawn_from_a_seed_are_of_the_same_kind_and_reproducible():
    public, a, b = grader_inputs.build(), grader_inputs.build(SEEDS[0]), grader_inputs.build(SEEDS[1])
    assert _flat_kind(public) == _flat_kind(a) == _flat_kind(b)
    flat = [grader_inputs.flatten(t) for t in (public, a, b)]
    for name in flat[0]:
        if np.unique(flat[0][name]).size > 1:  # not the zero biases
            assert not np.array_equal(flat[0][name], flat[1][name]), name
            assert not np.array_equal(flat[1][name], flat[2][name]), name
    again = grader_inputs.flatten(grader_inputs.exercise_inputs("ex1", SEEDS[0]))  # rebuilt, not the cached dict
    assert all(np.array_equal(again[k], v) for k, v in grader_inputs.flatten(a["ex1"]).items())
    for seed in DROPOUT_SEEDS:
        keys = grader_inputs.build(seed)["ex1"]["key_seeds"]
        assert len(set(keys.tolist())) == 2
    # The standout example of ex2 (the argmax) moves with the seed; on the public inputs it is B // 2.
    positions = set()
    for seed in (None, *DROPOUT_SEEDS):
        x = grader_inputs.build(seed)["ex2"]["small"]["x"]
        positions.add(int(np.argmax(np.abs(x).sum(axis=1))))
    assert len(positions) > 2
    assert int(np.argmax(np.abs(public["ex2"]["small"]["x"]).sum(axis=1))) == 4


@pytest.mark.parametrize("text", ["-1", "1.5", "abc", "", True])
def test_bad_seeds_are_refused(text):
    with pytest.raises(grader_inputs.SeedError, match="non-negative integer"):
        grader_inputs.check_seed(text)


@pytest.mark.parametrize("seed", DROPOUT_SEEDS)
def test_dropout_statistics_hold_at_any_seed(seed, tmp_path_factory):
    ref = observe("ex1", REFERENCE, seed, tmp_path_factory)
    assert _problems(judge("ex1", ref, ref, seed)) == []


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("task", ["ex2", "ex3", "ex5"])
def test_reference_scores_full_marks_at_any_seed(task, seed, tmp_path_factory):
    ref = observe(task, REFERENCE, seed, tmp_path_factory)
    assert _problems(judge(task, ref, ref, seed)) == []


CORRECT = ["ex1_dropout__uniform_mask", "ex2_per_example_grads__global_norm_vmap", "ex3_mlp_forward__recursive",
           "ex5_clipping__scale_by_adam"]


@pytest.mark.parametrize("name", CORRECT)
def test_correct_variants_score_full_marks_at_a_secret_seed(name, tmp_path, tmp_path_factory):
    module, _ = name.split("__")
    task = next(e.id for e in ALL if e.modules == (module,))
    folder = submission_with(tmp_path, {module: CORPUS / "correct" / f"{name}.py"})
    got = observe(task, folder, SECRET, tmp_path_factory)
    assert _problems(judge(task, got, observe(task, REFERENCE, SECRET, tmp_path_factory), SECRET)) == []


MUTANTS = ["ex1_dropout__keep_drop_swapped", "ex1_dropout__fixed_key_in_dropout", "ex1_dropout__same_key_both_layers",
           "ex2_per_example_grads__argmin", "ex2_per_example_grads__labels_not_mapped",
           "ex3_mlp_forward__string_order", "ex5_clipping__clip_after_adam", "ex5_clipping__loss_after_update"]


@pytest.mark.parametrize("name", MUTANTS)
def test_mutants_are_caught_and_named_at_a_secret_seed(name, tmp_path, tmp_path_factory):
    from test_corpus import _header

    module, _ = name.split("__")
    task = next(e.id for e in ALL if e.modules == (module,))
    path = CORPUS / "mutants" / f"{name}.py"
    expect = _header(path)[1]
    folder = submission_with(tmp_path, {module: path})
    results = judge(task, observe(task, folder, SECRET, tmp_path_factory),
                    observe(task, REFERENCE, SECRET, tmp_path_factory), SECRET)
    charged = results[expect["check"]]
    assert charged.status != "pass", charged
    assert expect["hint"].lower() in charged.hint.lower(), charged.hint
    # Charged exactly where the header says. A check may also be left unjudged where what it reads is the
    # mutant's own wrong output (ex2.largest on its own wrong gradients: whether their argmax is still right
    # depends on where the inputs put the standout example), never charged.
    unjudged = {r.id for r in results.values() if r.status == "skipped" and r.message.startswith("not judged")}
    charged = {r.id for r in results.values() if r.status != "pass"} - unjudged
    assert charged == {expect["check"], *expect.get("also", ())} - unjudged, results


def _hard_coded_ex3(tmp_path, sealed_public: Observations):
    """An mlp_forward that returns the public reference outputs, looked up by (x.shape, depth, a fingerprint of
    params where it can be read: not under jax.jit), so that a second call with other params of the same shapes
    gets its own answer too."""
    inputs = grader_inputs.build()["ex3"]

    def fingerprint(params):
        return round(float(np.sum(np.asarray(params["layer1"]["w"], np.float64))), 3)

    table = {}
    for case, c in inputs.items():
        out = np.asarray(sealed_public[f"out/{case}"]).tolist()
        table[(tuple(c["x"].shape), len(c["params"]), fingerprint(c["params"]))] = out
        table[(tuple(c["x"].shape), len(c["params"]), None)] = out
    d3 = inputs["d3"]
    table[(tuple(d3["x"].shape), 3, round(1.5 * fingerprint(d3["params"]), 3))] = np.asarray(
        sealed_public["other_params/d3"]).tolist()
    source = ("import jax.numpy as jnp\nimport numpy as np\n\nOUTPUTS = " + repr(table) + "\n\n\n"
              "def mlp_forward(params, x):\n"
              "    try:\n"
              "        key = round(float(np.sum(np.asarray(params['layer1']['w'], np.float64))), 3)\n"
              "    except Exception:\n"
              "        key = None\n"
              "    found = OUTPUTS.get((tuple(x.shape), len(params), key), OUTPUTS[(tuple(x.shape), len(params), None)])\n"
              "    return jnp.asarray(found, dtype=jnp.float32)\n")
    return submission_with(tmp_path, {"ex3_mlp_forward": source})


@pytest.mark.e2e
def test_hard_coded_outputs_pass_the_public_grade_and_fail_under_a_secret_seed(tmp_path, judge_with):
    from grader.expected import sealed

    public_ex3 = sealed.read(sealed.SHIPPED, ["ex3"])["ex3"]
    folder = _hard_coded_ex3(tmp_path, public_ex3)
    shutil.copy(CORPUS / "hardcoded" / "ex2_per_example_grads__largest_is_middle.py",
                folder / "ex2_per_example_grads.py")
    only = ("ex2", "ex3")
    public = judge_with(folder, only=only)
    # ex3's graded cases all pass on the public inputs; a batch of one (a shape the table does not hold: a
    # KeyError, said as it is, no mistake named) and the gradient through mlp_forward tell a table of outputs. The
    # middle index is right on the two public batches whose standout example sits there, and wrong on the two whose
    # largest norm is the first and the last example's.
    failing = [(c.id, c.mistake) for c in public.checks if c.status != "pass"]
    assert failing == [("ex2.largest", ""), ("ex3.depths", ""), ("ex3.jit", "ex3.gradient_blocked")], [
        (c.id, c.message[:200]) for c in public.checks if c.status != "pass"]
    assert "every index returned is the middle example's" in by_id(public)["ex2.largest"].message
    assert "raised KeyError" in by_id(public)["ex3.depths"].message
    assert public.inputs["kind"] == "public" and "other inputs of the same kind" in public.inputs["note"]
    secret = by_id(judge_with(folder, only=only, seed=SECRET))
    assert secret["ex2.largest"].status == "fail"
    assert secret["ex3.depths"].status == "fail" and secret["ex3.deep"].status == "fail"
    assert secret["ex2.values"].status == "pass"  # the gradients are computed, not hard-coded


def test_stubs_score_zero_and_the_reference_full_marks_at_a_secret_seed(tmp_path, grade_with):
    stubs = grade_with(EXERCISES_DIR, only=("ex2", "ex3"), seed=SECRET)
    assert stubs.score == 0 and stubs.checks
    assert stubs.inputs == {"kind": "secret seed"}
    reference = grade_with(REFERENCE, only=("ex2", "ex3"), seed=SECRET)
    assert reference.score == reference.max_score
    assert str(SECRET) not in str(reference.to_json())
