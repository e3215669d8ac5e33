# BLIND-SET: 48
# EXERCISE: ex1
# WHAT: forward_with_dropout gives each layer its own key tree with optax.tree.split_key_like(key, params[name]), called once per hidden layer with the same parent key. Both layer dicts have the same structure ({"b", "w"}), so both calls return the same keys, and the two dropout layers both use the key at ["w"]: layer1 and layer2 get identical keys (their masks come from one key).
# SHOULD-SAY: Each dropout layer must get its own key: both of yours are built from the same parent key and the same tree structure, so they are identical. Split the key once for the whole model (e.g. optax.tree.split_key_like(key, params) or k1, k2 = jax.random.split(key)) and give each layer a different subkey.
"""Exercise 1: dropout with split PRNG keys, keys laid out like the params."""

import jax
import jax.numpy as jnp
import optax


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
    mask = jax.random.bernoulli(key, p=keep, shape=x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    h = x
    for name in ("layer1", "layer2"):
        layer = params[name]
        # one key per parameter of this layer; the kernel's key drives its dropout
        layer_keys = optax.tree.split_key_like(key, layer)
        h = jax.nn.relu(h @ layer["w"] + layer["b"])
        h = dropout(layer_keys["w"], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
