"""The library of known mistakes: each numpy variant is what it says, and naming is never ambiguous.

A judge names a mistake only when a student's output equals that mistake's
variant (ex3.py, ex5.py, npref.py). These tests pin the variants down on small
hand-checked cases and on the grader's own inputs: every variant differs from
the right answer (or it could never be told apart) and from every other
variant (or naming one would be a guess). The corpus tests show each variant
matches the real mistake written in JAX (tests/corpus/mutants).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from grader.checks import Mistake, Verdict, fail
from grader.checks import npref
from grader.exercises.ex3 import checks as ex3
from grader.exercises.ex5 import checks as ex5
from grader.checks.compare import close
from grader.checks.registry import MISTAKES
from grader.inputs import build, flatten

CASES = build()["ex3"]
ONE_LAYER = {"layer1": {"w": np.array([[1.0, -1.0]]), "b": np.array([0.5, 0.5])}}
TWO_LAYERS = {"layer1": {"w": np.array([[1.0, -2.0]]), "b": np.array([0.0, 1.0])},
              "layer2": {"w": np.array([[1.0], [1.0]]), "b": np.array([0.25])}}


def test_fail_with_a_mistake_carries_its_id_and_hint():
    mistake = Mistake("ex9.thing", "doing the thing", "Do the other thing.")
    verdict = fail("it differs", mistake)
    assert (verdict.passed, verdict.hint, verdict.mistake) == (False, "Do the other thing.", "ex9.thing")
    assert fail("it differs", "neutral text").mistake == ""
    assert Verdict(True).credit == 1.0


def test_mistake_ids_are_unique_and_scoped():
    assert len(MISTAKES) >= 60
    for mistake_id, mistake in MISTAKES.items():
        assert mistake.name and mistake.hint, mistake_id
        scope = mistake_id.split(".")[0]
        assert scope in {"ex1", "ex2", "ex3", "ex4", "ex5"} or "." not in mistake_id, mistake_id


def test_mlp_variants_by_hand():
    x = np.array([[2.0]])
    # layer1: z = [2, -3]; relu -> [2, 0]; output 2 + 0 + 0.25
    assert npref.mlp(TWO_LAYERS, x)[0, 0] == pytest.approx(2.25)
    assert ex3.no_activation(TWO_LAYERS, x)[0, 0] == pytest.approx(2.0 - 3.0 + 0.25)
    assert ex3.sigmoid_for_relu(TWO_LAYERS, x)[0, 0] == pytest.approx(
        1 / (1 + np.exp(-2.0)) + 1 / (1 + np.exp(3.0)) + 0.25)
    assert ex3.no_bias(TWO_LAYERS, x)[0, 0] == pytest.approx(2.0)
    assert ex3.bias_after_relu(TWO_LAYERS, x)[0, 0] == pytest.approx(2.0 + 0.0 + 1.0 + 0.25)
    assert ex3.relu_on_input(TWO_LAYERS, -x)[0, 0] == pytest.approx(0.0 + 1.0 + 0.25)
    np.testing.assert_allclose(ex3.last_layer_missing(TWO_LAYERS, x), [[2.0, 0.0]])
    np.testing.assert_allclose(ex3.last_layer_missing(ONE_LAYER, x), x)  # nothing ran
    assert ex3.first_three_layers(TWO_LAYERS, x) is None  # the hard-coded third layer does not exist


def test_every_ex3_variant_differs_from_the_answer_somewhere():
    """Over all cases each variant is told from the right answer (a variant equal to it would never be named)."""
    right = {case: npref.mlp(c["params"], c["x"]) for case, c in CASES.items()}
    for mistake, variant in {**ex3.ALL_LAYERS, **ex3.WRONG_LAYERS}.items():
        outputs = {case: ex3._run(variant, c["params"], c["x"], "numeric") for case, c in CASES.items()}
        assert any(out is None or not ex3._up_to_output(out, right[case]) for case, out in outputs.items()), mistake.id


def test_ex3_variants_are_told_apart():
    """No two variants give the same output on every case where both run: naming one is never a guess."""
    variants = {**ex3.ALL_LAYERS, **ex3.WRONG_LAYERS}
    for (m1, v1), (m2, v2) in itertools.combinations(variants.items(), 2):
        same_everywhere = True
        for c in CASES.values():
            a, b = (ex3._run(v, c["params"], c["x"], "numeric") for v in (v1, v2))
            if a is None or b is None:
                same_everywhere &= (a is None) == (b is None)
            else:
                same_everywhere &= ex3._up_to_output(a, b)
        assert not same_everywhere, (m1.id, m2.id)


def test_explain_names_the_variant_it_is_given():
    c = CASES["d5"]
    assert ex3.explain(c["params"], c["x"], ex3.tanh_for_relu(c["params"], c["x"])) == {(ex3.TANH, None)}
    assert ex3.explain(c["params"], c["x"], np.zeros((6, 7))) == set()
    deep = CASES["d12"]
    assert (None, ex3.STRING_ORDER) in ex3.explain(deep["params"], deep["x"],
                                                   npref.mlp(deep["params"], deep["x"], "string"))


def test_one_mistake_needs_all_the_evidence_to_agree():
    sig, tanh = (ex3.SIGMOID, None), (ex3.TANH, None)
    assert ex3._one_mistake([{sig}, {sig}]) is ex3.SIGMOID
    assert ex3._one_mistake([{sig}, {tanh}]) is None
    assert ex3._one_mistake([{sig}, set()]) is None  # one wrong answer nothing explains: name nothing
    assert ex3._one_mistake([{(None, ex3.DICT_ORDER)}]) is ex3.DICT_ORDER


def test_clip_variants_by_hand():
    small, big = {"a": np.array([0.3, 0.4])}, {"a": np.array([3.0, 4.0])}
    np.testing.assert_allclose(npref.clip_global(small, 1.0)["a"], [0.3, 0.4])
    np.testing.assert_allclose(npref.clip_global(big, 1.0)["a"], [0.6, 0.8])
    np.testing.assert_allclose(npref.rescale_to(small, 1.0)["a"], [0.6, 0.8])  # scaled up: the mistake
    assert npref.sgd_updates([small], 0.1)[0]["a"] == pytest.approx([-0.03, -0.04])


def test_ex5_variants_are_told_apart_on_the_grader_inputs():
    grads = build()["ex5"]["grads"]
    seq = [flatten(grads[str(i)]) for i in range(len(grads))]
    configs = [(1e-3, 1.0), (0.01, 0.3)]  # the default call and the custom one the judges use to break ties
    outputs = {name: [build_(seq, lr, mn) for lr, mn in configs] for name, (_, build_) in ex5.VARIANTS.items()}
    for a, b in itertools.combinations(outputs, 2):
        same = all(ex5._same(x, y) for x, y in zip(outputs[a], outputs[b]))
        assert not same, (a, b)
