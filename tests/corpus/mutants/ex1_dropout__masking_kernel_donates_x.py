"""dropout's masking is a jitted kernel that donates x (donate_argnums), so XLA may write the output over it: the
caller's x is deleted by the first call, and every later use of it fails with JAX's "Array has been deleted".
"""


import functools

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.zero_fraction", "mistake": "", "hint": "leave donate_argnums out", "max_failing": 1,
          "also": ["ex1.rescale", "ex1.identity", "ex1.per_element", "ex1.key_only_randomness", "ex1.jit"]}



def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return _apply(x, mask, keep)


@functools.partial(jax.jit, donate_argnums=(0,))
def _apply(x, mask, keep):
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
