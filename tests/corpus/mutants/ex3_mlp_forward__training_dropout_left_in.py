"""mlp_forward keeps the inverted dropout (rate 0.2, a fixed key per layer) it was trained with after each hidden
ReLU: hidden units are zeroed at random and the survivors scaled by 1 / 0.8 = 1.25. The report measures the hidden
activation as ReLU scaled by 1.25, inverted dropout's scale at rate 0.2."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.dropout_in_forward", "hint": "inverted dropout in train mode",
          "max_failing": 2, "also": ["ex3.deep"]}

RATE = 0.2


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    key = jax.random.PRNGKey(0)
    for name in names[:-1]:
        key, sub = jax.random.split(key)
        h = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
        keep = jax.random.bernoulli(sub, 1.0 - RATE, h.shape)
        x = jnp.where(keep, h / (1.0 - RATE), 0.0)
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
