# BLIND-SET: 45
# EXERCISE: ex3
# WHAT: layer names are ordered by their numbers zero-padded to floor(log10(N)) digits, one digit short of the number of digits of N; below 10 layers this is harmless (width 0 or 1 is enough), but with 10..99 layers the numbers are padded to 1 digit, i.e. not at all, so the sort is textual and layer10, layer11, layer12 run right after layer1 (wrong values for N = 12 with equal widths, a shape error with unequal ones).
# SHOULD-SAY: With 10 or more layers your layers run in the wrong order (layer1, layer10, layer11, layer12, layer2, ...): the padding width floor(log10(N)) is one less than the number of digits of N, so the numbers are not padded and sort as text. Use floor(log10(N)) + 1 digits, or better, sort by int(name[len("layer"):]).
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import math

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


def mlp_forward(params, x):
    """Forward pass for layer1..layerN, ReLU after all but the last layer."""
    L = len(params)
    ndig = int(math.floor(math.log10(L)))  # digits of L, for sprintf('%0*d', ndig, l)

    def padded(name):
        return name[len("layer"):].zfill(ndig)

    names = sorted(params, key=padded)  # layer01 < layer02 < ... < layer12
    h = x
    for l in range(1, L + 1):  # for l = 1:L
        layer = params[names[l - 1]]
        h = h @ layer["w"] + layer["b"]
        if l < L:
            h = jax.nn.relu(h)
    return h
