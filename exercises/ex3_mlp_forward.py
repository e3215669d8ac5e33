"""Exercise 3: a generic MLP that reads its depth from the params pytree.

The lesson's ``forward`` hard-codes three layers. A model in JAX is just a
pytree of arrays, so the forward pass can work out the architecture from the
params themselves.

Write ``mlp_forward(params, x)`` for any number of layers
``layer1``..``layerN`` (N >= 1).

What the grader checks (run ``python -m grader --only ex3``):

* agreement with a reference at depths 1, 2, 3, 5 and 12, with equal and
  unequal widths (with 12 layers, ``layer10`` must come after ``layer9``:
  sorting names as strings puts it after ``layer1``);
* ReLU after every layer but the last, none on the output;
* nothing hard-coded: depth and order come from the params;
* ``params`` is left unmodified, and results agree under ``jax.jit``.

Allowed imports: jax, jax.numpy, optax, numpy and the standard library.
"""

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth.

    Args:
      params: ``{"layer1": {"w": (d0, d1), "b": (d1,)}, ...,
        "layerN": {"w": (d_{N-1}, dN), "b": (dN,)}}``, N >= 1, float32.
        The dict may list its layers in any order.
      x: float32 ``(B, d0)``.

    Returns:
      float32 ``(B, dN)``: ``x`` through layer1, layer2, ..., layerN in numeric
      order, with ReLU after every layer except the last. Do not modify
      ``params``.
    """
    raise NotImplementedError("mlp_forward is not implemented yet: see its docstring in ex3_mlp_forward.py")
