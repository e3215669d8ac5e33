# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: mlp_forward transposes any weight whose second dimension matches the incoming width (to accept PyTorch (out, in) layouts), which wrongly transposes every square weight matrix.
# SHOULD-SAY: ex3 agreement check fails only for equal widths (square weights are transposed); all unequal-width cases pass.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    def dense(x, layer):
        w = layer["w"]
        if w.shape[1] == x.shape[-1]:  # stored PyTorch-style as (out, in)
            w = w.T
        return x @ w + layer["b"]

    for name in names[:-1]:
        x = jax.nn.relu(dense(x, params[name]))
    return dense(x, params[names[-1]])
