# BLIND-SET: 43
# EXERCISE: ex3
# WHAT: to keep activations in a safe range, each input row is divided by its max |x| (where-guarded against 0), pushed through the layers, and the output is multiplied back by that max, relying on ReLU layers being positively homogeneous. The biases are not divided by the same factor, so every layer computes relu(h/s @ w + b) instead of relu(h @ w + b)/s: the output is wrong whenever a bias is non-zero and a row's max |x| is not 1 (only all-zero biases give the right answer).
# SHOULD-SAY: mlp_forward does not compute the MLP: rescaling the input and undoing it at the output is only exact for a network without biases (relu(a x W + b) != a relu(x W + b)). Drop the rescaling (float32 has plenty of range here) or divide every bias by the same per-row factor.
"""Exercise 3: a generic MLP that reads its depth from the params pytree.

Each input row is normalised to max |x| = 1 before the layers and the scale is
restored on the logits, so deep stacks cannot overflow a low-precision type.
"""

import jax
import jax.numpy as jnp


def _layer_order(params):
    """layer1..layerN in numeric order (layer10 after layer9)."""
    return sorted(params, key=lambda name: int(name[len("layer"):]))


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth: ReLU after every layer but the last."""
    names = _layer_order(params)
    x = jnp.asarray(x, dtype=jnp.float32)

    # Per-row dynamic range: (B, 1), guarded so all-zero rows divide by 1.
    row_max = jnp.max(jnp.abs(x), axis=-1, keepdims=True)
    scale = jnp.where(row_max > 0, row_max, jnp.ones_like(row_max))
    h = x / scale

    for name in names[:-1]:
        layer = params[name]
        h = jax.nn.relu(h @ layer["w"] + layer["b"])
    last = params[names[-1]]
    out = h @ last["w"] + last["b"]
    # ReLU nets are positively homogeneous: undo the input scaling.
    return out * scale
