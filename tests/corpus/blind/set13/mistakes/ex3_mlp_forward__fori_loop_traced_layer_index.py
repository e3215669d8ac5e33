# BLIND-SET: 13
# EXERCISE: ex3
# WHAT: The hidden layers are run in a jax.lax.fori_loop whose traced loop index is used to build the dict key f'layer{i+1}', which cannot work.
# SHOULD-SAY: mlp_forward raises a KeyError (a 'layerJitTracer(...)' name) at every depth, even N = 1 since fori_loop traces its body once even with zero iterations: a traced loop counter cannot index a Python dict; use a Python loop over the sorted names. The numeric sort of the names and the bias-only, ReLU-free output layer are fine, and params are not modified.
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
