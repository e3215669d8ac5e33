# BLIND-SET: 12
# EXERCISE: ex3
# WHAT: The hidden layers are run in jax.lax.fori_loop and the layer name is built from the traced loop index, f"layer{i + 1}".
# SHOULD-SAY: mlp_forward raises at every depth: the fori_loop index is a tracer, so f"layer{i + 1}" is not a real key (and lax loops need a fixed carry shape, which unequal widths break); a plain Python loop over the sorted names is right for a forward pass. The numeric sort of the names and the bias/ReLU-free output layer are correct.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))

    def body(i, h):
        layer = params[f"layer{i + 1}"]
        return jax.nn.relu(h @ layer["w"] + layer["b"])

    x = jax.lax.fori_loop(0, len(names) - 1, body, x)
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
