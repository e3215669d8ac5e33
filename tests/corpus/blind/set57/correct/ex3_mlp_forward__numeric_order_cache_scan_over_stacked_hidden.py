# BLIND-SET: 57
# EXERCISE: ex3
# WHAT: Correct. Layer names are ordered numerically with a regex (cached per frozenset of names), and the jitted mlp_forward applies lax.dot_general + lax.max(h, 0) after every layer but the last. When layers 2..N-1 (at least two of them) share one square shape they are stacked into new arrays and run through one lax.scan; otherwise a Python loop over the static layer list. Outputs are bit-identical to the reference at depths 1/2/3/5/12, equal (16) and unequal widths, numeric/reversed/string dict orders and under jit; params is not modified.
# SHOULD-SAY: Nothing to fix: numeric layer order from the params for any depth (layer10 after layer9), ReLU after every layer but the last, params untouched.
"""Exercise 3: a generic MLP that reads its depth from the params pytree (tuned)."""

import re

import jax
import jax.numpy as jnp
from jax import lax

# --- My code ------------------------------------------------------------------

# (h @ w) as a bare dot_general: contract h's last axis with w's first.
_MM_DIMS = (((1,), (0,)), ((), ()))


def _dense(h, layer):
    return lax.dot_general(h, layer["w"], _MM_DIMS) + layer["b"]


def _relu(h):
    return lax.max(h, jnp.zeros_like(h))


_ORDER = {}  # frozenset of layer names -> names in numeric order


def _layer_names(params):
    """layer1..layerN in numeric order (layer10 after layer9), cached per architecture."""
    key = frozenset(params)
    if key not in _ORDER:
        _ORDER[key] = sorted(params, key=lambda name: int(re.fullmatch(r"layer(\d+)", name).group(1)))
    return _ORDER[key]


def _scan_body(h, layer):
    return _relu(_dense(h, layer)), None


@jax.jit
def mlp_forward(params, x):
    """ReLU after every layer but the last; one compiled program per architecture."""
    names = _layer_names(params)
    h = x
    hidden = names[:-1]
    if len(hidden) >= 3 and len({params[n]["w"].shape for n in hidden[1:]}) == 1:
        # layer2..layer(N-1) all share one square shape: stack them (new arrays,
        # params untouched) and run one lax.scan instead of unrolling N-2 layers.
        h = _relu(_dense(h, params[hidden[0]]))
        stacked = jax.tree.map(lambda *a: jnp.stack(a), *(params[n] for n in hidden[1:]))
        h, _ = lax.scan(_scan_body, h, stacked)
    else:
        for name in hidden:
            h = _relu(_dense(h, params[name]))
    return _dense(h, params[names[-1]])
