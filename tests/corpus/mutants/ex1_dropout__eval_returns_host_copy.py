"""With train=False, dropout and forward_with_dropout hand back a NumPy copy of their result ("evaluation output
goes to the host anyway"): right eagerly, but under jax.jit with train=False np.array meets a traced value and
raises. Train mode, which returns JAX arrays, jits fine; the report jits both modes."""

import jax
import jax.numpy as jnp
import numpy as np

EXPECT = {"check": "ex1.jit", "mistake": "numpy_on_tracer", "max_failing": 1, "hint": "traced array"}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train:
        return np.array(x)
    if rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    out = h @ params["layer3"]["w"] + params["layer3"]["b"]
    return out if train else np.array(out)
