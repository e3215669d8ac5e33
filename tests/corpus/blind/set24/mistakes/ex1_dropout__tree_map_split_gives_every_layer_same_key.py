# BLIND-SET: 24
# EXERCISE: ex1
# WHAT: forward_with_dropout builds "one key per hidden layer" with jax.tree.map(lambda _: jax.random.split(key)[1], {...layer1, layer2...}, is_leaf=...), as if split drew fresh randomness on each call; split is a pure function of key, so both hidden layers get the identical key (the same subkey each time) and their masks come from one random stream.
# SHOULD-SAY: Both dropout layers receive the same PRNG key, so their masks are drawn from the same random bits (correlated, and the key is used twice): jax.random.split is deterministic — calling it again on the same key returns the same keys, and jax.tree.map just calls your lambda once per layer. Split once into as many keys as you need, e.g. key1, key2 = jax.random.split(key), and give each layer its own.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    hidden = {"layer1": params["layer1"], "layer2": params["layer2"]}
    # a fresh subkey for every hidden layer, laid out like the params pytree
    layer_keys = jax.tree.map(
        lambda _: jax.random.split(key)[1],
        hidden,
        is_leaf=lambda node: isinstance(node, dict) and "w" in node,
    )
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(layer_keys["layer1"], h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(layer_keys["layer2"], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
