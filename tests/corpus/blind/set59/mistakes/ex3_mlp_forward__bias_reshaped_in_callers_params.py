# BLIND-SET: 59
# EXERCISE: ex3
# WHAT: mlp_forward 'makes the broadcast explicit' by writing layer['b'] = b.reshape(1, -1), where layer is params[name], the caller's inner dict. Outputs are bit-identical to the reference's, under jit too. This holds at depths 1/2/3/5/12, with equal and unequal widths, in every dict order, on the first call and on later calls. But after any eager call, every bias in the caller's params has shape (1, out) instead of (out,); the values are unchanged and the arrays are new objects. Under jax.jit the caller's params are untouched, because jit rebuilds the dicts.
# SHOULD-SAY: mlp_forward modifies params: after a call, each layer's 'b' in the caller's dict has been replaced by a (1, out) array. A forward pass must only read params. `x @ w + b` already broadcasts a bias of shape (out,), so drop the reshape, or keep the reshaped bias in a local variable.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp

DEBUG = False
_trace_log = []   # (layer name, input shape, output shape), appended while tracing / eager


def _layer_number(name):
    return int(name.removeprefix("layer"))


# --- Your code ----------------------------------------------------------------


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth; layers in numeric order."""
    names = sorted(params, key=_layer_number)
    assert names == [f"layer{i}" for i in range(1, len(names) + 1)], names
    if DEBUG:
        print("layer order:", names)
    for i, name in enumerate(names):
        layer = params[name]
        if layer["b"].ndim == 1:
            # row vector, so the "+ b" broadcast is explicit (I had a shape
            # error here while debugging the 1-layer case)
            layer["b"] = layer["b"].reshape(1, -1)
        in_shape = x.shape
        x = x @ layer["w"] + layer["b"]
        if i < len(names) - 1:
            x = jax.nn.relu(x)
        _trace_log.append((name, tuple(in_shape), tuple(x.shape)))
        if DEBUG:
            jax.debug.print("{n}: mean {m:.4f}", n=name, m=x.mean())
    return x
