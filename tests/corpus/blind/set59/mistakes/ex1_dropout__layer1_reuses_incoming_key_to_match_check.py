# BLIND-SET: 59
# EXERCISE: ex1
# WHAT: forward_with_dropout splits key into key1, key2. It then passes the incoming key itself, not key1, to the first dropout layer; the key1 line is commented out, left from checking that the layer-1 mask matched a standalone dropout(key, h1) call. So the incoming key is used twice, once by jax.random.split and once by the layer-1 bernoulli draw, and key1 is never used. A spy on jax.random.bernoulli sees the keys [0, 1] (the incoming PRNGKey(1)) and then split(key)[1]. dropout itself is the reference's, bit-identical at every shape and rate tried, eagerly and under jit. Eval mode equals forward exactly. Train-mode logits differ from the reference's for the same key: max |diff| 2.85 to 8.35 (B = 16/128, rates 0.2/0.5, zero and 0.1*N(0,1) biases), the same under jit.
# SHOULD-SAY: forward_with_dropout uses the incoming key twice: it splits it, and also passes it straight to the first dropout layer, so key1 is never used. Once a key has been split it must not be used for anything else. Give the first dropout layer key1 and the second key2.
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp

DEBUG = False          # flip on to print the drop fraction of every dropout call
_N_DROPOUT_CALLS = 0   # how many times dropout ran (eagerly) / was traced


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
    """Inverted dropout: zero with probability `rate`, scale survivors by 1/(1-rate)."""
    global _N_DROPOUT_CALLS
    _N_DROPOUT_CALLS += 1
    if not train or rate == 0.0:
        return x
    assert 0.0 <= rate < 1.0, rate
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    if DEBUG:
        jax.debug.print("dropout rate={r}: dropped {f:.3f}", r=rate, f=1.0 - mask.mean())
    # out = x * mask / keep   # same thing, but where() keeps -0.0 out of it
    return jnp.where(mask, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    # h = dropout(key1, h, rate, train)
    # use the incoming key here so the layer-1 mask is the same one my
    # standalone dropout(key, h1) check printed
    h = dropout(key, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    if DEBUG:
        print("forward_with_dropout:", x.shape, "->", h.shape, "train =", train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


if __name__ == "__main__":
    k = jax.random.PRNGKey(0)  # fixed so the masks are the same every run
    x = jax.random.normal(k, (4, 8))
    print(dropout(k, x, 0.5))
    print(dropout(k, x, 0.5, train=False) is x)
