# BLIND-SET: 54
# EXERCISE: ex3
# WHAT: When all hidden layers are square and equal-width, the hidden weights and biases are stacked once for a lax.scan and cached in a module dict keyed by (depth, shape of each layer's w); the cache key leaves out the values. A second params dict with the same depth and shapes (e.g. new random weights of the same model) reuses the first dict's stacked hidden layers, so its output is computed with the old hidden weights; models with unequal widths are right.
# SHOULD-SAY: Your cache of stacked hidden weights is keyed by shapes only, so any later params with the same architecture run with the weights of the first params you saw. Stack the weights on every call (it is cheap, and jit can fuse it), or key the cache on the arrays themselves and keep them alive.
"""Exercise 3: a generic MLP; equal-width hidden stacks run as one lax.scan."""

import jax
import jax.numpy as jnp

_STACKS = {}


def _ordered_names(params):
    return sorted(params, key=lambda n: int(n[len("layer"):]))


def _stacked_hidden(params, names):
    """(W, B) stacks for the square hidden layers names[1:-1], cached per architecture."""
    key = (len(names), tuple(tuple(params[n]["w"].shape) for n in names))
    hit = _STACKS.get(key)
    if hit is None:
        ws = jnp.stack([params[n]["w"] for n in names[1:-1]])
        bs = jnp.stack([params[n]["b"] for n in names[1:-1]])
        hit = _STACKS[key] = (ws, bs)
    return hit


def _scan_body(h, wb):
    w, b = wb
    return jax.nn.relu(h @ w + b), None


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = _ordered_names(params)
    if len(names) == 1:
        only = params[names[0]]
        return x @ only["w"] + only["b"]
    first, last = params[names[0]], params[names[-1]]
    h = jax.nn.relu(x @ first["w"] + first["b"])
    middle = names[1:-1]
    square = all(params[n]["w"].shape[0] == params[n]["w"].shape[1] for n in middle)
    same = len({params[n]["w"].shape for n in middle}) == 1
    if middle and square and same:
        ws, bs = _stacked_hidden(params, names)
        h, _ = jax.lax.scan(_scan_body, h, (ws, bs))
    else:
        for n in middle:
            h = jax.nn.relu(h @ params[n]["w"] + params[n]["b"])
    return h @ last["w"] + last["b"]
