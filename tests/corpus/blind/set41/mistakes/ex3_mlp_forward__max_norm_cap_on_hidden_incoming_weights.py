# BLIND-SET: 41
# EXERCISE: ex3
# WHAT: The forward pass enforces Srivastava et al.'s max-norm constraint, ||w_j||_2 <= c = 3, on the incoming weight vector of every hidden unit: each column of the w of every layer except the last is rescaled to norm 3 when its norm exceeds 3, before use. params itself is not modified. With He-initialised weights (column norms about 1.4) nothing changes. With larger weights (e.g. N(0, 1) entries, or widths of 16 with unit-variance weights) the hidden pre-activations are shrunk and the output differs from the reference. Depth 1 is unaffected.
# SHOULD-SAY: For weights whose columns have l2 norm above 3, the output differs from x -> relu(x W1 + b1) -> ... -> x WN + bN. The cause is that your forward rescales those columns (the dropout paper's max-norm constraint). That constraint is a projection step of the training loop, applied after each update; it is not part of the model's forward function. Use each layer's w as given.
"""Exercise 3: a generic MLP (dropout-paper style, with the max-norm constraint).

Srivastava et al. (2014), sec. 5.1: constrain the incoming weight vector of each
hidden unit to ||w||_2 <= c (c = 3 to 4). Numeric layer order: layer10 after layer9.
"""

import jax
import jax.numpy as jnp

MAX_NORM_C = 3.0


def _layer_index(name):
    return int(name[len("layer"):])


def _max_norm(w, c=MAX_NORM_C):
    """Scale every column (a hidden unit's incoming weights) down to norm c if it is larger."""
    norms = jnp.sqrt(jnp.sum(w * w, axis=0, keepdims=True))
    return w * jnp.minimum(1.0, c / jnp.maximum(norms, 1e-12))


def mlp_forward(params, x):
    """ReLU after every layer but the last; hidden weights kept inside the max-norm ball."""
    names = sorted(params, key=_layer_index)
    h = x
    for name in names[:-1]:
        w = _max_norm(params[name]["w"])
        h = jax.nn.relu(h @ w + params[name]["b"])
    last = params[names[-1]]
    return h @ last["w"] + last["b"]
