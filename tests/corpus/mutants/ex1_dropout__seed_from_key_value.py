"""dropout turns its key into a Python int seed (int(jax.random.bits(key))) and draws from a new key made from
it, as one seeds numpy. Eagerly it works; under jax.jit int() meets a traced value and raises. JAX's message
names the function being traced, a grader probe's, by file: the report names it relative to the package, never
where the grader is installed.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.jit", "mistake": "", "hint": "conversion", "max_failing": 1}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    seed = int(jax.random.bits(key, dtype=jnp.uint32)) % (2**31 - 1)
    keep = jax.random.bernoulli(jax.random.PRNGKey(seed), 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h = dropout(key1, jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"]), rate, train)
    h = dropout(key2, jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"]), rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
