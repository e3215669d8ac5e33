# BLIND-SET: 39
# EXERCISE: ex1
# WHAT: forward_with_dropout walks the layers from jax.tree_util.tree_flatten_with_path and decides "hidden layer" with jax.tree_util.keystr(path) != "layer3"; keystr returns "['layer3']", so the test is always true and the output layer also gets a ReLU and a dropout (it splits the key three ways, one per layer, so the hidden-layer keys also differ from a two-way split, which the contract allows). Logits are ReLU'd (and dropped in training); with train=False the result is relu(forward), not forward. dropout itself is correct.
# SHOULD-SAY: Your MLP applies ReLU and dropout to the logits as well: `jax.tree_util.keystr(path)` gives "['layer3']", never "layer3", so your output-layer test never fires. Compare `keystr(path, simple=True)` or `path[0].key` with "layer3" (or use the layer's position), so ReLU and dropout follow only layer1 and layer2.
"""Exercise 1: dropout, with the MLP walked from the params pytree."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def _is_layer(node):
    return isinstance(node, dict) and set(node) == {"w", "b"}


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    leaves, _ = jax.tree_util.tree_flatten_with_path(params, is_leaf=_is_layer)
    leaves = sorted(leaves, key=lambda kv: int(kv[0][0].key.removeprefix("layer")))
    keys = jax.random.split(key, len(leaves))
    h = x
    for (path, layer), layer_key in zip(leaves, keys):
        h = h @ layer["w"] + layer["b"]
        if jax.tree_util.keystr(path) != "layer3":  # hidden layers only
            h = jax.nn.relu(h)
            h = dropout(layer_key, h, rate, train)
    return h
