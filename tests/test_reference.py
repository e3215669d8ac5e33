"""The reference solutions, checked in this process against independent computations.

Each expected value is computed here without the reference's code: hand-written
forward passes in numpy, gradients from a Python loop over ``jax.grad``, Adam
written out in numpy. Several tests also run a deliberately wrong variant
through the same assertion to show the test would catch that mistake.
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
import time
from pathlib import Path

import chex
import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest

# JAX's compilation cache, started from the sealed reference runs' (see conftest): the operations those runs
# compiled are read, not compiled again.
pytestmark = pytest.mark.usefixtures("compilation_cache")

ROOT = Path(__file__).resolve().parents[1]
LESSON_WIDTHS = (784, 256, 128, 10)


def _load(name: str):
    """Import ``reference/<name>.py`` from its path, under a name of its own."""
    spec = importlib.util.spec_from_file_location(f"reference_under_test_{name}", ROOT / "reference" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ex1 = _load("ex1_dropout")
ex2 = _load("ex2_per_example_grads")
ex3 = _load("ex3_mlp_forward")
ex4 = _load("ex4_jit_speedup")
ex5 = _load("ex5_clipping")


# --- independent helpers -------------------------------------------------------


def make_params(seed: int, widths, bias_scale: float = 0.1, order=None) -> dict:
    """float32 params ``layer1..layerN`` as jax arrays; ``order`` lists the layer numbers in dict order."""
    rng = np.random.default_rng(seed)
    layers = {}
    for i, (n_in, n_out) in enumerate(zip(widths[:-1], widths[1:]), start=1):
        layers[i] = {
            "w": jnp.asarray(rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / n_in), dtype=jnp.float32),
            "b": jnp.asarray(rng.standard_normal(n_out) * bias_scale, dtype=jnp.float32),
        }
    order = order or sorted(layers)
    return {f"layer{i}": layers[i] for i in order}


def np_forward(params: dict, x, layer_order) -> np.ndarray:
    """float64 MLP through ``layer_order``, ReLU after every layer but the last."""
    h = np.asarray(x, dtype=np.float64)
    for n, name in enumerate(layer_order):
        h = h @ np.asarray(params[name]["w"], np.float64) + np.asarray(params[name]["b"], np.float64)
        if n < len(layer_order) - 1:
            h = np.maximum(h, 0.0)
    return h


def xent(logits, y):
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


@jax.jit
def lesson_loss(params, x, y):
    """The lesson's loss, written with optax instead of log_softmax * one_hot (jitted: eager is slow)."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return xent(h @ params["layer3"]["w"] + params["layer3"]["b"], y)


def batch(seed: int, b: int, width: int = 784):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.0, 1.0, (b, width)).astype(np.float32)
    y = rng.integers(0, 10, b).astype(np.int32)
    return jnp.asarray(x), jnp.asarray(y)


def snapshot(tree):
    return jax.tree.map(lambda a: np.array(a, copy=True), tree)


def key(seed: int):
    return jax.random.PRNGKey(seed)


# --- ex1: dropout ---------------------------------------------------------------

BIG = jnp.asarray(np.random.default_rng(1).uniform(0.5, 1.5, (1000, 1000)).astype(np.float32))


@pytest.mark.parametrize("rate", [0.1, 0.3, 0.5, 0.9])
def test_dropout_zero_fraction_and_exact_rescale(rate):
    out = np.asarray(ex1.dropout(key(0), BIG, rate))
    x = np.asarray(BIG)
    chex.assert_shape(out, x.shape)
    assert out.dtype == np.float32
    zeroed = out == 0  # BIG has no zeros of its own
    # 1e6 Bernoulli draws: the standard error is at most 5e-4, so 5e-3 is 10 sigma.
    assert abs(zeroed.mean() - rate) < 5e-3
    survivors = ~zeroed
    chex.assert_trees_all_close(out[survivors], x[survivors] / np.float32(1 - rate), rtol=1e-6, atol=0)


@pytest.mark.parametrize("call", [
    lambda x: ex1.dropout(key(0), x, 0.5, train=False),
    lambda x: ex1.dropout(key(0), x, 0.5, False),
    lambda x: ex1.dropout(key(0), x, 0.0),
    lambda x: ex1.dropout(key(0), x, 0.0, train=True),
], ids=["train=False", "train-positional", "rate=0", "rate=0-train"])
def test_dropout_identity(call):
    x = BIG[:64, :100]
    out = call(x)
    chex.assert_shape(out, x.shape)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(x))


def test_dropout_same_key_same_mask_other_key_other_mask():
    x = BIG[:200, :200]
    first = np.asarray(ex1.dropout(key(3), x, 0.5)) == 0
    again = np.asarray(ex1.dropout(key(3), x, 0.5)) == 0
    other = np.asarray(ex1.dropout(key(4), x, 0.5)) == 0
    np.testing.assert_array_equal(first, again)
    # Independent masks at rate 0.5 agree on about half of the 40,000 elements.
    assert 0.45 < (first == other).mean() < 0.55


def test_dropout_one_coin_per_element():
    masks = np.asarray(ex1.dropout(key(5), BIG[:256, :256], 0.5)) == 0
    assert not (masks == masks[:1]).all(axis=1).all(), "rows share one mask"
    assert not (masks == masks[:, :1]).all(axis=0).all(), "columns share one coin"
    assert 0.4 < masks.mean(axis=0).min() and masks.mean(axis=0).max() < 0.6


def test_dropout_under_jit_matches_eager():
    x = BIG[:100, :100]
    jitted = jax.jit(ex1.dropout, static_argnums=(2, 3))
    chex.assert_trees_all_close(jitted(key(6), x, 0.3, True), ex1.dropout(key(6), x, 0.3, True), rtol=1e-6)


def lesson_setup(seed: int = 10, b: int = 8):
    params = make_params(seed, LESSON_WIDTHS, bias_scale=0.2)
    x, _ = batch(seed + 1, b)
    return params, x


def test_forward_with_dropout_eval_equals_plain_forward():
    params, x = lesson_setup()
    expected = np_forward(params, x, ["layer1", "layer2", "layer3"])
    for out in (ex1.forward_with_dropout(params, x, key(0), 0.5, False),
                ex1.forward_with_dropout(params, x, key(0), rate=0.3, train=False),
                ex1.forward_with_dropout(params, x, key(0), 0.0, True)):
        chex.assert_shape(out, (x.shape[0], 10))
        chex.assert_trees_all_close(np.asarray(out, np.float64), expected, rtol=1e-4, atol=1e-4)


def test_forward_with_dropout_train_depends_only_on_key():
    params, x = lesson_setup()
    a = ex1.forward_with_dropout(params, x, key(1))
    b = ex1.forward_with_dropout(params, x, key(1))
    c = ex1.forward_with_dropout(params, x, key(2))
    chex.assert_trees_all_equal(a, b)
    assert np.abs(np.asarray(a) - np.asarray(c)).max() > 1e-3
    plain = np_forward(params, x, ["layer1", "layer2", "layer3"])
    assert np.abs(np.asarray(a, np.float64) - plain).max() > 1e-3, "train=True applied no dropout"


@functools.lru_cache(maxsize=None)
def _mask_grad(forward, rate):
    return jax.jit(jax.grad(lambda p, k: forward(p, jnp.ones((1, 784)), k, rate, True).sum()))


def hidden_masks(forward, k, rate=0.5):
    """The two hidden dropout masks of one forward pass, read off a gradient.

    With layer1's weights zero and bias one, every hidden unit of layer 1 is 1
    before dropout; with positive layer-2 weights and biases and positive
    layer-3 weights, every unit of layer 2 is active and feeds the output. For
    a single example the gradient of sum(logits) w.r.t. layer2's weights is
    then ``d1[i] * d2[j] * c[j]`` with ``c > 0``, where d1, d2 are the dropped
    hidden activations: nonzero exactly where both masks kept the unit.
    """
    rng = np.random.default_rng(0)
    params = {
        "layer1": {"w": jnp.zeros((784, 256)), "b": jnp.ones(256)},
        "layer2": {"w": jnp.asarray(rng.uniform(0.1, 1.0, (256, 128)), jnp.float32), "b": jnp.ones(128)},
        "layer3": {"w": jnp.asarray(rng.uniform(0.1, 1.0, (128, 10)), jnp.float32), "b": jnp.zeros(10)},
    }
    grads = _mask_grad(forward, rate)(params, k)
    nonzero = np.asarray(grads["layer2"]["w"]) != 0
    return nonzero.any(axis=1), nonzero.any(axis=0)  # kept units of layer 1 (256,), of layer 2 (128,)


def reused_key_forward(params, x, key, rate=0.5, train=True):
    """The classic mistake: both dropout layers draw from the same key."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = ex1.dropout(key, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = ex1.dropout(key, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def prefix_agreement(forward, seed: int) -> float:
    """How often layer 2's mask equals the first 128 entries of layer 1's (0.5 if independent)."""
    mask1, mask2 = hidden_masks(forward, key(seed))
    return float((mask1[:128] == mask2).mean())


def test_mask_extraction_sees_both_layers():
    mask1, mask2 = hidden_masks(ex1.forward_with_dropout, key(7))
    assert 0.35 < mask1.mean() < 0.65 and 0.35 < mask2.mean() < 0.65


def test_mask_extraction_catches_a_reused_key():
    # With one key for both layers jax.random draws the same bits, so layer 2's
    # mask is a prefix of layer 1's: the assertion below must reject it.
    assert all(prefix_agreement(reused_key_forward, seed) == 1.0 for seed in range(3))


def test_forward_with_dropout_masks_are_independent():
    agreements = [prefix_agreement(ex1.forward_with_dropout, seed) for seed in range(8)]
    # 8 x 128 independent fair coins: mean agreement 0.5, standard error 0.016.
    assert 0.4 < np.mean(agreements) < 0.6, agreements
    assert max(agreements) < 0.8, agreements


def test_forward_with_dropout_leaves_params_alone():
    params, x = lesson_setup()
    before = snapshot(params)
    ex1.forward_with_dropout(params, x, key(0))
    chex.assert_trees_all_equal(snapshot(params), before)


# --- ex2: per-example gradients -------------------------------------------------

EX2_CASES = {
    "small": ((784, 32, 16, 10), 7),
    "lesson": (LESSON_WIDTHS, 4),
    "single": ((784, 32, 16, 10), 1),
}


def ex2_case(name: str):
    widths, b = EX2_CASES[name]
    params = make_params(20 + len(name), widths)
    x, y = batch(30 + len(name), b)
    if b > 2:
        x = x.at[b // 2].multiply(6.0)  # one example stands out
    return params, x, y


single_grad = jax.jit(jax.grad(lesson_loss))


def loop_grads(params, x, y):
    """Slice i is jax.grad of the loss on example i alone, from a Python loop."""
    per_example = [single_grad(params, x[i:i + 1], y[i:i + 1]) for i in range(x.shape[0])]
    return jax.tree.map(lambda *leaves: jnp.stack(leaves), *per_example)


def np_norms(grads) -> np.ndarray:
    leaves = [np.asarray(leaf, np.float64) for leaf in jax.tree.leaves(grads)]
    b = leaves[0].shape[0]
    return np.sqrt(sum((leaf.reshape(b, -1) ** 2).sum(axis=1) for leaf in leaves))


@pytest.mark.parametrize("case", list(EX2_CASES))
def test_per_example_grads_match_a_loop(case):
    params, x, y = ex2_case(case)
    got = ex2.per_example_grads(params, x, y)
    assert jax.tree.structure(got) == jax.tree.structure(params)
    for leaf, param in zip(jax.tree.leaves(got), jax.tree.leaves(params)):
        chex.assert_shape(leaf, (x.shape[0], *param.shape))
    # float32: the vmapped and the looped matmuls round differently (most on the scaled example).
    chex.assert_trees_all_close(got, loop_grads(params, x, y), rtol=1e-4, atol=1e-5)


def test_per_example_grads_under_jit():
    params, x, y = ex2_case("small")
    chex.assert_trees_all_close(jax.jit(ex2.per_example_grads)(params, x, y), ex2.per_example_grads(params, x, y),
                                rtol=1e-5, atol=1e-7)


def test_per_example_grad_norms_cover_every_leaf():
    params, x, y = ex2_case("small")
    grads = loop_grads(params, x, y)
    got = ex2.per_example_grad_norms(grads)
    chex.assert_shape(got, (x.shape[0],))
    chex.assert_trees_all_close(np.asarray(got, np.float64), np_norms(grads), rtol=1e-5)
    # Biases that dominate: a norm over the weights alone would be far off.
    rng = np.random.default_rng(3)
    tree = {"layer1": {"w": jnp.asarray(rng.standard_normal((5, 40, 12)) * 0.01, jnp.float32),
                       "b": jnp.asarray(rng.standard_normal((5, 12)) * 3.0, jnp.float32)},
            "layer2": {"w": jnp.asarray(rng.standard_normal((5, 12, 10)) * 0.01, jnp.float32),
                       "b": jnp.asarray(rng.standard_normal((5, 10)) * 3.0, jnp.float32)}}
    weights_only = np.sqrt(sum((np.asarray(tree[n]["w"], np.float64).reshape(5, -1) ** 2).sum(1) for n in tree))
    expected = np_norms(tree)
    assert np.all(expected > 10 * weights_only)
    chex.assert_trees_all_close(np.asarray(ex2.per_example_grad_norms(tree), np.float64), expected, rtol=1e-5)


@pytest.mark.parametrize("case", ["small", "lesson", "single"])
def test_largest_gradient_example_is_a_python_int_argmax(case):
    params, x, y = ex2_case(case)
    got = ex2.largest_gradient_example(params, x, y)
    assert type(got) is int
    norms = np_norms(loop_grads(params, x, y))
    assert got == int(np.argmax(norms))
    if x.shape[0] > 2:
        assert got == x.shape[0] // 2  # the example scaled by 6


# --- ex3: generic MLP --------------------------------------------------------------


def test_mlp_forward_twelve_layers_in_numeric_order():
    params = make_params(40, (16,) * 13, bias_scale=0.5)
    x = jnp.asarray(np.random.default_rng(41).standard_normal((6, 16)), jnp.float32)
    numeric = [f"layer{i}" for i in range(1, 13)]
    lexicographic = sorted(params)
    assert lexicographic[:3] == ["layer1", "layer10", "layer11"]
    expected = np_forward(params, x, numeric)
    wrong = np_forward(params, x, lexicographic)
    # The test has teeth: sorting names as strings gives a clearly different answer.
    assert np.abs(wrong - expected).max() > 0.1 * np.abs(expected).max()
    got = ex3.mlp_forward(params, x)
    chex.assert_shape(got, (6, 16))
    chex.assert_trees_all_close(np.asarray(got, np.float64), expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("widths,order", [
    ((20, 7), None),
    ((20, 16, 7), None),
    (LESSON_WIDTHS, None),
    ((20, 30, 9, 25, 12, 7), [5, 4, 3, 2, 1]),
    ((12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2), [3, 10, 1, 7, 2, 9, 4, 6, 8, 5]),
], ids=["depth1", "depth2", "lesson", "depth5-reversed", "depth10-shuffled"])
def test_mlp_forward_matches_hand_written_loop(widths, order):
    params = make_params(50 + len(widths), widths, bias_scale=0.5, order=order)
    x = jnp.asarray(np.random.default_rng(51).standard_normal((5, widths[0])), jnp.float32)
    expected = np_forward(params, x, [f"layer{i}" for i in range(1, len(widths))])
    got = ex3.mlp_forward(params, x)
    chex.assert_shape(got, (5, widths[-1]))
    chex.assert_trees_all_close(np.asarray(got, np.float64), expected, rtol=1e-4, atol=1e-5)
    if len(widths) == 2:
        assert (expected < 0).any(), "depth 1 output is linear: negative logits must survive"


def test_mlp_forward_under_jit():
    params = make_params(60, (16,) * 13, bias_scale=0.5)
    x = jnp.asarray(np.random.default_rng(61).standard_normal((4, 16)), jnp.float32)
    chex.assert_trees_all_close(jax.jit(ex3.mlp_forward)(params, x), ex3.mlp_forward(params, x), rtol=1e-5)


def test_mlp_forward_leaves_params_unchanged():
    params = make_params(70, (16,) * 13, order=list(range(12, 0, -1)))
    keys_before = list(params)
    inner_before = {name: (layer, list(layer)) for name, layer in params.items()}
    values_before = snapshot(params)
    ex3.mlp_forward(params, jnp.ones((2, 16)))
    assert list(params) == keys_before
    for name, (layer, layer_keys) in inner_before.items():
        assert params[name] is layer and list(layer) == layer_keys
    chex.assert_trees_all_equal(snapshot(params), values_before)


# --- ex4: timing ------------------------------------------------------------------


class CountingStep:
    """A step that records what it receives; params and state are counters."""

    def __init__(self, first_call_delay: float = 0.0):
        self.calls: list[tuple[int, int]] = []
        self.inputs: list[tuple[object, object]] = []
        self.first_call_delay = first_call_delay

    def __call__(self, params, opt_state, x, y):
        if not self.calls and self.first_call_delay:
            time.sleep(self.first_call_delay)
        self.calls.append((int(params["n"]), int(opt_state[0])))
        self.inputs.append((x, y))
        return {"n": params["n"] + 1}, (opt_state[0] + 10,), jnp.float32(len(self.calls))


@pytest.mark.parametrize("n_steps", [1, 4])
def test_time_steps_calls_n_plus_one_times_and_threads_state(n_steps):
    step = CountingStep()
    x, y = batch(0, 2)
    seconds = ex4.time_steps(step, {"n": jnp.int32(0)}, (jnp.int32(0),), x, y, n_steps=n_steps)
    assert type(seconds) is float and seconds >= 0
    assert len(step.calls) == n_steps + 1  # one warm-up, then n_steps timed
    assert step.calls == [(i, 10 * i) for i in range(n_steps + 1)]
    assert all(a is x and b is y for a, b in step.inputs)


def test_time_steps_default_n_steps_is_100():
    assert inspect.signature(ex4.time_steps).parameters["n_steps"].default == 100
    step = CountingStep()
    ex4.time_steps(step, {"n": jnp.int32(0)}, (jnp.int32(0),), None, None)
    assert len(step.calls) == 101


def test_time_steps_excludes_the_first_call():
    step = CountingStep(first_call_delay=0.5)
    seconds = ex4.time_steps(step, {"n": jnp.int32(0)}, (jnp.int32(0),), None, None, n_steps=3)
    assert seconds < 0.4


class Pending:
    """A result that becomes ready ``delay`` seconds after it was made (like async dispatch)."""

    def __init__(self, delay: float):
        self.ready_at = time.perf_counter() + delay

    def block_until_ready(self):
        time.sleep(max(0.0, self.ready_at - time.perf_counter()))
        return self


def test_time_steps_waits_for_the_results():
    def step(params, opt_state, x, y):
        return params, opt_state, Pending(0.3)

    seconds = ex4.time_steps(step, {}, (), None, None, n_steps=2)
    assert seconds >= 0.29


def test_jit_speedup_reports_a_consistent_dict():
    result = ex4.jit_speedup(n_steps=5)
    assert set(result) == {"eager_s", "jit_s", "speedup"}
    assert all(type(result[k]) is float for k in result)
    assert result["eager_s"] > 0 and result["jit_s"] > 0
    assert result["speedup"] == pytest.approx(result["eager_s"] / result["jit_s"])
    assert result["speedup"] > 1


# --- ex5: clipping + Adam ----------------------------------------------------------

SPIKE = 3
#: Absolute tolerance against the numpy Adam, as a fraction of the learning rate.
ADAM_ATOL = 1e-4


def gradient_sequence(params, seed: int = 0, n: int = 6, spike_norm: float = 40.0, norm: float = 0.5):
    """Gradients shaped like params with global norm ``norm``, except step SPIKE at ``spike_norm``."""
    rng = np.random.default_rng(seed)
    grads = []
    for i in range(n):
        raw = jax.tree.map(lambda p: rng.standard_normal(p.shape), params)
        total = np.sqrt(sum(float(np.sum(a * a)) for a in jax.tree.leaves(raw)))
        scale = (spike_norm if i == SPIKE else norm) / total
        grads.append(jax.tree.map(lambda a: jnp.asarray(a * scale, jnp.float32), raw))
    return grads


def np_clip_then_adam(grads, learning_rate, max_norm, b1=0.9, b2=0.999, eps=1e-8):
    """Clip-by-global-norm followed by Adam, written out in float64 numpy."""
    mu = nu = None
    updates = []
    for t, g in enumerate(grads, start=1):
        g = jax.tree.map(lambda a: np.asarray(a, np.float64), g)
        norm = np.sqrt(sum(float(np.sum(a * a)) for a in jax.tree.leaves(g)))
        if max_norm is not None and norm > max_norm:
            g = jax.tree.map(lambda a: a * (max_norm / norm), g)
        mu = jax.tree.map(lambda a: (1 - b1) * a, g) if mu is None else jax.tree.map(
            lambda m, a: b1 * m + (1 - b1) * a, mu, g)
        nu = jax.tree.map(lambda a: (1 - b2) * a * a, g) if nu is None else jax.tree.map(
            lambda v, a: b2 * v + (1 - b2) * a * a, nu, g)
        updates.append(jax.tree.map(
            lambda m, v: -learning_rate * (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + eps), mu, nu))
    return updates


def run_optimizer(opt, params, grads):
    state = opt.init(params)
    update = jax.jit(opt.update)
    out = []
    for g in grads:
        updates, state = update(g, state, params)
        out.append(jax.tree.map(lambda a: np.asarray(a, np.float64), updates))
    return out


def ex5_params():
    return make_params(80, (784, 32, 16, 10))


OPTIMIZERS = [
    ((), {}, 1e-3, 1.0),
    ((), {"learning_rate": 0.01, "max_norm": 0.3}, 0.01, 0.3),
    ((0.05, 5.0), {}, 0.05, 5.0),
]


@pytest.mark.parametrize("args,kwargs,lr,max_norm", OPTIMIZERS, ids=["default", "keywords", "positional"])
def test_make_optimizer_is_clip_then_adam(args, kwargs, lr, max_norm):
    params = ex5_params()
    grads = gradient_sequence(params)
    got = run_optimizer(ex5.make_optimizer(*args, **kwargs), params, grads)
    # Against Adam written out in numpy (float64; Adam's updates are about lr in size) ...
    chex.assert_trees_all_close(got, np_clip_then_adam(grads, lr, max_norm), rtol=1e-4, atol=ADAM_ATOL * lr)
    # ... and against optax's own pieces, chained by hand.
    clip, adam = optax.clip_by_global_norm(max_norm), optax.adam(lr)
    clip_state, adam_state = clip.init(params), adam.init(params)
    clip_update, adam_update = jax.jit(clip.update), jax.jit(adam.update)
    for g, want in zip(grads, got):
        clipped, clip_state = clip_update(g, clip_state, params)
        updates, adam_state = adam_update(clipped, adam_state, params)
        chex.assert_trees_all_close(want, jax.tree.map(lambda a: np.asarray(a, np.float64), updates),
                                    rtol=1e-5, atol=1e-9)


def test_clipping_changes_the_update_only_from_the_spike_on():
    params = ex5_params()
    grads = gradient_sequence(params)
    clipped = run_optimizer(ex5.make_optimizer(), params, grads)
    plain = run_optimizer(optax.adam(1e-3), params, grads)
    for t in range(SPIKE):  # norm 0.5 < max_norm 1.0: clipping is inactive
        chex.assert_trees_all_close(clipped[t], plain[t], rtol=1e-5, atol=1e-10)
    spike_diff = max(np.abs(a - b).max() for a, b in zip(jax.tree.leaves(clipped[SPIKE]),
                                                          jax.tree.leaves(plain[SPIKE])))
    assert spike_diff > 1e-4  # updates are ~1e-3 in size; the spike moves plain Adam far more
    # Plain Adam fails the clip-then-Adam assertion used above.
    with pytest.raises(AssertionError):
        chex.assert_trees_all_close(plain, np_clip_then_adam(grads, 1e-3, 1.0), rtol=1e-4, atol=ADAM_ATOL * 1e-3)


def hand_step(optimizer):
    @jax.jit
    def step(params, state, x, y):
        loss, grads = jax.value_and_grad(lesson_loss)(params, x, y)
        updates, state = optimizer.update(grads, state, params)
        return optax.apply_updates(params, updates), state, loss

    return step


@pytest.mark.parametrize("optimizer", [
    ex5.make_optimizer(), optax.sgd(0.1), optax.chain(optax.clip_by_global_norm(0.1), optax.adam(0.01)),
], ids=["clip-adam", "sgd", "clip-adam-custom"])
def test_make_train_step_equals_a_hand_written_step(optimizer):
    params = make_params(90, LESSON_WIDTHS)
    x, y = batch(91, 16)
    step, want_step = ex5.make_train_step(optimizer), hand_step(optimizer)
    state = want_state = optimizer.init(params)
    got_params = want_params = params
    for _ in range(3):
        loss_before = lesson_loss(got_params, x, y)
        got_params, state, loss = step(got_params, state, x, y)
        want_params, want_state, want_loss = want_step(want_params, want_state, x, y)
        chex.assert_shape(loss, ())
        chex.assert_trees_all_close(loss, loss_before, rtol=1e-5)  # the loss before the update
        assert abs(float(loss) - float(lesson_loss(got_params, x, y))) > 1e-6
        chex.assert_trees_all_close(loss, want_loss, rtol=1e-5)
        chex.assert_trees_all_close(got_params, want_params, rtol=1e-5, atol=1e-6)
        chex.assert_trees_all_close(state, want_state, rtol=1e-5, atol=1e-6)


def test_make_train_step_is_jitted_and_leaves_params_alone():
    optimizer = ex5.make_optimizer()
    step = ex5.make_train_step(optimizer)
    assert hasattr(step, "lower"), "make_train_step should return a jax.jit-wrapped function"
    params = make_params(92, LESSON_WIDTHS)
    before = snapshot(params)
    x, y = batch(93, 8)
    step(params, optimizer.init(params), x, y)
    chex.assert_trees_all_equal(snapshot(params), before)
