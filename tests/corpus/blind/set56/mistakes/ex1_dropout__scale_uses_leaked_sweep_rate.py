# BLIND-SET: 56
# EXERCISE: ex1
# WHAT: dropout scales the survivors by 1/(1 - r), where `r` is the loop variable left over from a module-level sweep cell (`for r in (0.1, 0.25, 0.5)`), i.e. always 1/(1 - 0.5) = 2, instead of 1/(1 - rate). The mask is the reference's; survivors are wrong for every rate other than 0.5 (e.g. 2.0 instead of 1.111 at rate 0.1), in dropout and in forward_with_dropout with rate != 0.5.
# SHOULD-SAY: Survivors must be scaled by 1/(1 - rate), but your scale reads `r`, the loop variable left over from the sweep cell above (its last value, 0.5), not the function's `rate` argument. Use `rate` in the scale (and avoid reusing notebook loop-variable names inside functions).
"""Exercise 1: dropout with split PRNG keys (pasted from my Colab notebook)."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- cell 2: play with masks before writing the function ------------------------
key = jax.random.PRNGKey(42)
demo = jnp.ones((1000,))
for r in (0.1, 0.25, 0.5):
    m = jax.random.bernoulli(key, 1 - r, demo.shape)
    print(f"rate={r}: kept {float(m.mean()):.3f}, expected {1 - r}")


# --- cell 3: dropout ------------------------------------------------------------


def dropout(key, x, rate, train=True):
    if not train or rate == 0:
        return x
    m = jax.random.bernoulli(key, 1 - rate, x.shape)
    scale = 1.0 / (1 - r)  # keep the expected value
    return jnp.where(m, x * scale, 0.0).astype(x.dtype)


print("mean after dropout:", float(dropout(key, demo, 0.5).mean()))  # ~1.0, good


# --- cell 4: MLP with dropout -------------------------------------------------


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    k1, k2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
