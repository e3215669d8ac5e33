# BLIND-SET: 59
# EXERCISE: ex1
# WHAT: dropout draws the reference's mask but divides the survivors by the fraction actually kept in this call, mean(mask), not by 1 - rate. This was a 'fix' to make a debug mean check match. The zero pattern, the dtype, train=False and rate=0 are exact. The survivor/x ratio is constant within a call but is not 1/(1 - rate). On (300, 200) it is 1.109 to 1.112 at rate 0.1, 1.989 to 2.005 at 0.5 and 4.995 to 5.030 at 0.8. On (50,) it is 1.72 to 2.94 at 0.5 and 4.17 to 6.25 at 0.8. Max |diff| vs the reference is 0.004 to 0.11 on (300, 200), up to 1.95 on (2, 3, 4) and up to 2.44 on (50,). forward_with_dropout logits are off by 0.024 to 0.25 (B = 16/128, rates 0.2/0.5). The result is exact only when the kept count equals (1 - rate)*size (here (50,) at rate 0.1). The same holds under jit.
# SHOULD-SAY: The survivors are not scaled by exactly 1/(1 - rate). You divide by the fraction of the mask kept in this call, which varies from call to call (for example 1.989 or 2.005 instead of 2 at rate 0.5). Inverted dropout uses the fixed factor 1/(1 - rate); the output mean equals x's only in expectation, not on every call.
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp

# jax.config.update("jax_debug_nans", True)
DEBUG = False
CHECK_MEAN = False   # compare out.mean() with x.mean() on every call


# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last.

    ``params`` is ``{"layer1": {"w": (784, 256), "b": (256,)},
    "layer2": {"w": (256, 128), "b": (128,)}, "layer3": {"w": (128, 10),
    "b": (10,)}}``; ``x`` is float32 ``(B, 784)``; returns logits ``(B, 10)``.
    """
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- Your code ----------------------------------------------------------------


def dropout(key, x, rate, train=True):
    """Inverted dropout: zero with probability `rate`, scale survivors up."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    kept = jnp.mean(mask.astype(x.dtype))
    if DEBUG:
        jax.debug.print("rate {r}: kept fraction {k}", r=rate, k=kept)
    # out = jnp.where(mask, x / keep, 0.0)
    # ^ the mean check below was off by ~1% on small batches, so divide by the
    #   fraction that was actually kept: then the mean matches exactly
    out = jnp.where(mask, x / kept, 0.0)
    if CHECK_MEAN:
        jax.debug.print("mean in {a} out {b}", a=x.mean(), b=out.mean())
    return out


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    # print("keys:", key1, key2)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    out = h @ params["layer3"]["w"] + params["layer3"]["b"]
    assert out.shape == (x.shape[0], 10), out.shape
    return out
