# BLIND-SET: 51
# EXERCISE: ex3
# WHAT: Each layer's bias is validated against (w.shape[0],), the fan-in, instead of (w.shape[1],), and a bias that "does not fit" is replaced with zeros of width w.shape[1]. Square layers (equal widths) match the reference. Every non-square layer (e.g. 784->256, 256->10) runs without its bias.
# SHOULD-SAY: Every layer must add its own bias. The shape check compares b with the input width w.shape[0] instead of the output width w.shape[1], so valid biases of non-square layers are silently replaced by zeros. Check b.shape == (w.shape[1],), and raise rather than substitute zeros when it fails.
"""Exercise 3: a generic MLP that reads its depth from the params pytree (defensive)."""

import jax
import jax.numpy as jnp


def _canonical_layers(params):
    """A sorted, validated copy of the layers; params itself is never touched."""
    numbered = {}
    for name, layer in params.items():
        digits = name.removeprefix("layer")
        if digits == name or not digits.isdigit():
            raise ValueError(f"bad layer name {name!r}")
        numbered[int(digits)] = layer
    layers = []
    for number in sorted(numbered):
        layer = numbered[number]
        w = jnp.asarray(layer["w"], dtype=jnp.float32)
        b = jnp.asarray(layer["b"], dtype=jnp.float32)
        if w.ndim != 2:
            raise ValueError(f"layer{number}.w must be 2-D, got {w.shape}")
        if b.shape != (w.shape[0],):
            # malformed bias: fall back to no bias for this layer
            b = jnp.zeros((w.shape[1],), dtype=jnp.float32)
        layers.append((w, b))
    return layers


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    layers = _canonical_layers(params)
    if not layers:
        raise ValueError("params must hold at least one layer")
    h = jnp.asarray(x, dtype=jnp.float32)
    for index, (w, b) in enumerate(layers):
        h = jnp.dot(h, w) + b
        if index != len(layers) - 1:
            h = jnp.maximum(h, 0.0)
    return h
