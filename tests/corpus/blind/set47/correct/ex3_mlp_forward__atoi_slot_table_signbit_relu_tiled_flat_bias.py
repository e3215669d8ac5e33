# BLIND-SET: 47
# EXERCISE: ex3
# WHAT: Correct. Layer numbers are parsed by hand (n = (n << 3) + (n << 1) + digit, i.e. n*10 + digit) into a 1-based slot table sized from the number of layers, with bounds and duplicate checks; hidden layers 1..N-1 get a ReLU done on the sign bit (uint32 bitcast, logical shift right by 31, keep where it is 0), and the bias is added on the flattened (B*d,) activations with jnp.tile(b, B) so element r*d + c gets b[c]. Numerically equal to the reference at every depth and width.
# SHOULD-SAY: Nothing to fix: any depth works, layer10 follows layer9, ReLU after every layer but the last, params untouched, same under jit.
import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------

_PREFIX = "layer"
_PREFIX_LEN = 5  # len("layer")
_SIGN_SHIFT = 31  # bit 31 of an IEEE-754 float32 is the sign


def _atoi(digits):
    """Parse a non-empty ASCII decimal string, C style."""
    n = 0
    for ch in digits:
        d = ord(ch) - ord("0")
        if d < 0 or d > 9:
            raise ValueError(f"bad layer name digit {ch!r}")
        n = (n << 3) + (n << 1) + d  # n * 10 + d
    return n


def _relu_signbit(h):
    bits = jax.lax.bitcast_convert_type(h, jnp.uint32)
    sign = jax.lax.shift_right_logical(bits, jnp.uint32(_SIGN_SHIFT))  # 0 or 1
    return jnp.where(sign == 0, h, jnp.zeros((), h.dtype))


def _dense(h, w, b):
    z = h @ w  # (rows, d_out), row-major
    rows, d_out = z.shape
    flat = z.reshape(rows * d_out) + jnp.tile(b, rows)  # element r*d_out + c gets b[c]
    return flat.reshape(rows, d_out)


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth (layer1..layerN in numeric order).

    ReLU after every layer except the last. ``params`` is not modified.
    """
    n_layers = len(params)
    slots = [None] * (n_layers + 1)  # 1-based: slots[1] .. slots[n_layers]
    for name in params:
        if not name.startswith(_PREFIX):
            raise ValueError(f"unexpected key {name!r}")
        k = _atoi(name[_PREFIX_LEN:])
        if k < 1 or k > n_layers or slots[k] is not None:
            raise ValueError(f"layer numbers must be 1..{n_layers}, got {name!r}")
        slots[k] = params[name]
    h = x
    for k in range(1, n_layers):  # hidden layers 1 .. N-1
        h = _relu_signbit(_dense(h, slots[k]["w"], slots[k]["b"]))
    last = slots[n_layers]
    return _dense(h, last["w"], last["b"])
