# BLIND-SET: 47
# EXERCISE: ex3
# WHAT: The hidden ReLU is done on the sign bit, but the float is bitcast to int32 and shifted with `>>`, which is an arithmetic shift on a signed type: negative values give -1, not 1, so the test `sign != 1` is always true and nothing is zeroed. Every hidden "ReLU" is the identity and the network is purely linear; outputs differ whenever a hidden pre-activation is negative (depth >= 2). Depth 1 is right.
# SHOULD-SAY: The hidden layers have no effective ReLU: negative pre-activations pass through unchanged, so the outputs differ from an MLP with ReLU after each hidden layer. Right-shifting a signed int32 sign-extends (negatives give -1); bitcast to uint32 (logical shift) or test `bits < 0`, or simply use jax.nn.relu / jnp.maximum(h, 0).
import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------

_PREFIX_LEN = 5  # len("layer")
_SIGN_SHIFT = 31  # bit 31 of an IEEE-754 float32 is the sign


def _layer_number(name):
    return int(name[_PREFIX_LEN:])


def _relu_signbit(h):
    # sign bit set -> negative -> zero it; no float compare needed
    bits = jax.lax.bitcast_convert_type(h, jnp.int32)
    sign = bits >> _SIGN_SHIFT
    return jnp.where(sign != 1, h, jnp.zeros((), h.dtype))


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth (layer1..layerN in numeric order).

    ReLU after every layer except the last. ``params`` is not modified.
    """
    order = sorted(params.keys(), key=_layer_number)
    n_layers = len(order)
    h = x
    for i in range(n_layers):  # i = 0 .. N-1
        p = params[order[i]]
        h = h @ p["w"] + p["b"]
        if i < n_layers - 1:  # every layer but the last
            h = _relu_signbit(h)
    return h
