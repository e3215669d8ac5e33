# BLIND-SET: 21
# EXERCISE: ex3
# WHAT: the layer order is computed NumPy-style with jnp.argsort over the layer numbers and then turned back into Python ints with int(i); eagerly this is right, but under jax.jit the argsort result is a tracer and int() raises ConcretizationTypeError.
# SHOULD-SAY: the forward pass itself (numeric layer order, ReLU on all but the last layer, biases, params untouched) is correct eagerly, but it breaks under jax.jit because the layer order is computed with jnp (traced) and then converted with int(). The order is static Python metadata: compute it with sorted(params, key=...) or numpy, not jax.numpy.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = list(params)
    order = jnp.argsort(jnp.array([int(name.removeprefix("layer")) for name in names]))
    names = [names[int(i)] for i in order]
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
