# BLIND-SET: 47
# EXERCISE: ex3
# WHAT: The hand-written atoi multiplies by ten as (n << 2) + (n << 1), which is n*6, not n*10 ((n << 3) + (n << 1)). One-digit names parse right, but layer10, layer11, layer12 get keys 6, 7, 8 and tie with layer6, layer7, layer8; the stable sort leaves each tie in dict order, so with 10 or more layers layer10 runs next to layer6 (and layer11/12 next to layer7/8) instead of after layer9: wrong outputs for equal widths, a shape error for unequal widths (and since jax.jit rebuilds the dict in sorted-string key order, eager and jitted outputs can disagree). Depths 1..9 are right.
# SHOULD-SAY: With 10 or more layers the layers are applied in the wrong order (layer10 is applied next to layer6 instead of after layer9). The layer-number parser multiplies by 6 instead of 10: (n << 2) + (n << 1) = 6n; use (n << 3) + (n << 1), or simply int(name.removeprefix("layer")) as the sort key.
import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------

_PREFIX_LEN = 5  # len("layer")


def _atoi(s):
    """Decimal string -> int, shift-and-add like in C."""
    n = 0
    for ch in s:
        d = ord(ch) - 48  # '0' == 48
        if not 0 <= d <= 9:
            raise ValueError(f"not a digit: {ch!r}")
        n = (n << 2) + (n << 1) + d  # n * 10 + d
    return n


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth (layer1..layerN in numeric order).

    ReLU after every layer except the last. ``params`` is not modified.
    """
    names = sorted(params, key=lambda name: _atoi(name[_PREFIX_LEN:]))
    last = len(names) - 1
    h = x
    for i in range(0, last):  # [0, last): hidden layers
        p = params[names[i]]
        h = jax.nn.relu(h @ p["w"] + p["b"])
    p = params[names[last]]
    return h @ p["w"] + p["b"]
