# BLIND-SET: 59
# EXERCISE: ex3
# WHAT: After each layer, mlp_forward asserts np.isfinite(np.asarray(x)).all(), a host-side NaN check left from debugging. Eagerly, outputs are bit-identical to the reference's at depths 1/2/3/5/12, with equal and unequal widths and in every dict order, and params are untouched. Under jax.jit every call raises TracerArrayConversionError at every depth, because np.asarray is called on a tracer.
# SHOULD-SAY: mlp_forward does not work under jax.jit. The leftover NaN check calls np.asarray on the activations, which are tracers when the function is jitted. Remove it; while debugging, use jax.debug.print or the jax_debug_nans config option instead. A forward pass must be traceable.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import re

import jax
import jax.numpy as jnp
import numpy as np

# jax.config.update("jax_debug_nans", True)   # too slow, using the check below instead
VERBOSE = False


def _order(params):
    """Layer names sorted by their number (layer10 after layer9)."""
    return sorted(params, key=lambda n: int(re.fullmatch(r"layer(\d+)", n).group(1)))


# --- Your code ----------------------------------------------------------------


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth; layers in numeric order."""
    names = _order(params)
    if VERBOSE:
        print("order:", names, "widths:", [params[n]["w"].shape for n in names])
    for k, name in enumerate(names):
        w, b = params[name]["w"], params[name]["b"]
        assert x.shape[-1] == w.shape[0], f"{name}: x {x.shape} vs w {w.shape}"
        x = x @ w + b
        if k != len(names) - 1:
            x = jax.nn.relu(x)
        # the NaNs I was chasing came from a bad init; keep the check around
        assert np.isfinite(np.asarray(x)).all(), f"non-finite activations after {name}"
    return x
