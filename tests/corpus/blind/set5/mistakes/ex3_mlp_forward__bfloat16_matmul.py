# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: for speed each matmul casts the activations and the weights to bfloat16 (biases stay float32), so the result is still float32 but only accurate to about 2-3 significant digits and does not match a float32 reference.
# SHOULD-SAY: ex3 mlp_forward fails the agreement check: the outputs differ from the float32 reference by ~1e-2 relative because the matmuls run in bfloat16; keep everything in float32. Depth, order and ReLU placement are right.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def _dense(layer, x):
    """x @ w + b with a fast bfloat16 matmul."""
    return x.astype(jnp.bfloat16) @ layer["w"].astype(jnp.bfloat16) + layer["b"]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(_dense(params[name], x))
    return _dense(params[names[-1]], x)
