# BLIND-SET: 56
# EXERCISE: ex1
# WHAT: Correct. A first draft of dropout (multiplying by a float mask) is redefined by a later cell that draws uniform(key, x.shape) < keep (bit-identical to the reference's bernoulli mask) and scales survivors by 1/keep taken from a module-level dict cache keyed by rate; the eval path returns x itself. forward_with_dropout splits the key with split(key, 2) and indexes the pair. Globals, demo prints and the redefinition are harmless.
# SHOULD-SAY: Nothing to fix: masks are the reference's for the same key, survivors are scaled by 1/(1 - rate), train=False and rate=0 return x unchanged, and each dropout layer gets its own split key.
"""Exercise 1: dropout with split PRNG keys (pasted from my Colab notebook)."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- cell 2 -----------------------------------------------------------------------
key = jax.random.PRNGKey(0)
x_demo = jnp.arange(12.0).reshape(3, 4)
_SCALE = {}  # rate -> 1/keep, so I don't recompute it every call


# first try (works, but I want the uniform version from the lecture slides)
def dropout(key, x, rate, train=True):
    if not train or rate == 0:
        return x
    m = jax.random.bernoulli(key, 1 - rate, x.shape).astype(x.dtype)
    return x * m / (1 - rate)


print(dropout(key, x_demo, 0.5))


# --- cell 3: final version ----------------------------------------------------------


def dropout(key, x, rate, train=True):
    if rate == 0 or train is False or not train:
        return x
    keep = 1.0 - rate
    if rate not in _SCALE:
        _SCALE[rate] = 1.0 / keep
        print(f"[dropout] new rate {rate}: scale {_SCALE[rate]:.4f}")
    coin = jax.random.uniform(key, x.shape)
    survivors = coin < keep
    return jnp.where(survivors, x * _SCALE[rate], jnp.zeros_like(x)).astype(x.dtype)


out = dropout(key, x_demo, 0.5)
print(out)
print("frac zero:", float((out == 0).mean()))


# --- cell 4: MLP with dropout -------------------------------------------------


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    layer_keys = jax.random.split(key, 2)
    h = x
    for i, name in enumerate(["layer1", "layer2"]):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(layer_keys[i], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
