# BLIND-SET: 59
# EXERCISE: ex1
# WHAT: correct: dropout returns x itself when train is false or rate is 0. Otherwise it does what the reference does: bernoulli(key, 1 - rate, x.shape), then jnp.where(mask, x / keep, 0).astype(x.dtype). Leftover scaffolding: asserts on the rate range, mask shape and output dtype (true for every allowed input), a module call counter, and jax.debug.print behind DEBUG = False. forward_with_dropout splits the key once into key1 and key2, logs the pair in a module list when not tracing, and asserts the logits shape. It is bit-identical to the reference at every shape, rate and key tried, eagerly and under jit, with the same bernoulli keys, and eval equals forward.
# SHOULD-SAY: full marks
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp

DEBUG = False                 # print masks / fractions while working on this
SEED = 0                      # fixed seed for the __main__ checks below
_calls = {"dropout": 0, "forward_with_dropout": 0}
_seen_keys = []               # every key forward_with_dropout handed out (eager only)


def _dbg(fmt, **kw):
    if DEBUG:
        jax.debug.print(fmt, **kw)


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
    _calls["dropout"] += 1
    assert 0.0 <= rate < 1.0, f"bad rate {rate}"
    if not train or rate == 0.0:
        # print("dropout: pass-through")
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    assert mask.shape == x.shape, (mask.shape, x.shape)
    _dbg("dropout: rate={r} dropped={d}", r=rate, d=1.0 - jnp.mean(mask))
    out = jnp.where(mask, x / keep, 0.0).astype(x.dtype)
    # out = mask * x / keep   # old version; same numbers
    assert out.dtype == x.dtype, out.dtype
    return out


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    _calls["forward_with_dropout"] += 1
    key1, key2 = jax.random.split(key)
    if not isinstance(key1, jax.core.Tracer):
        _seen_keys.append((key1, key2))   # eyeball later: no key should show up twice
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    _dbg("h1 zeros: {z}", z=jnp.mean(h == 0))
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    _dbg("h2 zeros: {z}", z=jnp.mean(h == 0))
    logits = h @ params["layer3"]["w"] + params["layer3"]["b"]
    assert logits.shape == x.shape[:-1] + (10,), logits.shape
    return logits


if __name__ == "__main__":
    k = jax.random.PRNGKey(SEED)
    x = jax.random.normal(k, (1000, 100))
    for r in (0.1, 0.5, 0.9):
        y = dropout(k, x, r)
        print(r, float(jnp.mean(y == 0)), float(jnp.max(jnp.abs(y[y != 0] / x[y != 0]))))
    print(_calls)
