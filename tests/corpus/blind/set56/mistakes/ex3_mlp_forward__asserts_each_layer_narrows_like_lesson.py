# BLIND-SET: 56
# EXERCISE: ex3
# WHAT: mlp_forward asserts that every layer is narrower than its input (w.shape[1] < w.shape[0]), a sanity check that holds for the lesson's 784-256-128-10 funnel. Any params with a layer of equal or larger width (e.g. equal widths 16-16-16, or a widening first layer) raise AssertionError; funnel-shaped nets give the reference's output.
# SHOULD-SAY: mlp_forward must accept any widths, but your assert `w.shape[1] < w.shape[0]` only holds for narrowing nets like the lesson's 784-256-128-10, so equal-width or widening layers raise AssertionError. Remove the assert (or check only that each layer's fan-in matches the previous layer's width).
"""Exercise 3: a generic MLP that reads its depth from the params pytree (from my notebook)."""

import jax
import jax.numpy as jnp

DEBUG = True


def layer_number(name):
    return int(name.replace("layer", ""))


def mlp_forward(params, x):
    h = x
    names = sorted(params, key=layer_number)
    if DEBUG:
        print("forward through", names)
    for i, name in enumerate(names):
        w, b = params[name]["w"], params[name]["b"]
        assert w.shape[1] < w.shape[0], f"{name}: expected the net to get narrower, got {w.shape}"
        h = h @ w + b
        if i < len(names) - 1:
            h = jax.nn.relu(h)
    return h


# --- cell: lesson shapes --------------------------------------------------------------------
_p = {
    "layer2": {"w": jnp.zeros((256, 128)), "b": jnp.zeros(128)},
    "layer1": {"w": jnp.zeros((784, 256)), "b": jnp.zeros(256)},
    "layer3": {"w": jnp.zeros((128, 10)), "b": jnp.zeros(10)},
}
print(mlp_forward(_p, jnp.ones((5, 784))).shape)  # (5, 10)
DEBUG = False
