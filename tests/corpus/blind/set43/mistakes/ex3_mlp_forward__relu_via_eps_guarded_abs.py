# BLIND-SET: 43
# EXERCISE: ex3
# WHAT: the hidden ReLU is written as 0.5 * (z + |z|) with |z| computed as the "safe" sqrt(z**2 + eps), eps = 1e-4, so that its gradient is defined at 0. This is not ReLU: each hidden unit outputs 0.5 * (z + sqrt(z**2 + 1e-4)), which is 0.005 at z = 0 instead of 0 and positive for negative z (about 2.5e-5 / |z|), so every hidden layer is shifted and the output differs from the reference, most for inputs near zero (all-zero input with zero biases gives non-zero logits).
# SHOULD-SAY: the hidden activation is not exactly ReLU: the eps inside the square root smooths it, so negative pre-activations are not zeroed and zero maps to sqrt(eps)/2. Use jax.nn.relu or jnp.maximum(z, 0); ReLU needs no guard, its gradient at 0 is defined by JAX.
"""Exercise 3: a generic MLP that reads its depth from the params pytree.

ReLU is written through the absolute value, with the usual safe-abs guard so
that nothing is ever differentiated at a kink.
"""

import jax
import jax.numpy as jnp

_EPS = 1e-4


def _safe_abs(z):
    """|z| with a finite, smooth gradient at 0."""
    return jnp.sqrt(jnp.square(z) + _EPS)


def _relu(z):
    return 0.5 * (z + _safe_abs(z))


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth: ReLU after every layer but the last."""
    depth = len(params)
    h = jnp.asarray(x, dtype=jnp.float32)
    for i in range(1, depth + 1):
        layer = params[f"layer{i}"]
        z = h @ jnp.asarray(layer["w"], jnp.float32) + jnp.asarray(layer["b"], jnp.float32)[None, :]
        h = z if i == depth else _relu(z)
    return h
