"""The hidden layers run in jax.lax.scan over their numbers, and each layer's name is built from the scanned
index: a traced value, so the key holds a tracer and the lookup fails at every depth."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "built from a traced value", "max_failing": 2,
          "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    def hidden(h, i):  # one hidden layer per scanned index
        layer = params["layer" + str(i)]
        return jax.nn.relu(h @ layer["w"] + layer["b"]), None

    x, _ = jax.lax.scan(hidden, x, jnp.arange(1, len(names)))
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
