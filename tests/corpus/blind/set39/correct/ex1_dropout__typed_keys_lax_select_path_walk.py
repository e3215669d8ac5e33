# BLIND-SET: 39
# EXERCISE: ex1
# WHAT: Correct. dropout wraps the raw key with jax.random.wrap_key_data into a new-style typed key, draws the mask with jax.random.bernoulli on it (bit-identical to the raw-key draw) and applies it with jax.lax.select; train=False or rate == 0 returns x itself. forward_with_dropout walks the layers from tree_flatten_with_path in numeric order, splits the typed key into one subkey per hidden layer, and tests the output layer with keystr(path, simple=True).
# SHOULD-SAY: Nothing to fix: the masks come from the given key, survivors are scaled by 1/(1-rate), each hidden layer has its own key, and train=False equals the plain forward pass.
"""Exercise 1: inverted dropout with typed keys, walking the params pytree."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _typed(key):
    """Accept a raw uint32 key (PRNGKey) or a typed key; return a typed key."""
    if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        return key
    return jax.random.wrap_key_data(key)


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(_typed(key), keep, x.shape)
    return jax.lax.select(mask, x / jnp.asarray(keep, x.dtype), jnp.zeros_like(x))


def _is_layer(node):
    return isinstance(node, dict) and set(node) == {"w", "b"}


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    flat, _ = jax.tree_util.tree_flatten_with_path(params, is_leaf=_is_layer)
    flat = sorted(flat, key=lambda kv: int(kv[0][0].key.removeprefix("layer")))
    hidden_keys = iter(jax.random.split(_typed(key), len(flat) - 1))
    last = jax.tree_util.keystr(flat[-1][0], simple=True)
    h = x
    for path, layer in flat:
        with jax.named_scope(jax.tree_util.keystr(path, simple=True)):
            h = h @ layer["w"] + layer["b"]
            if jax.tree_util.keystr(path, simple=True) != last:
                h = dropout(next(hidden_keys), jax.nn.relu(h), rate, train)
    return h
