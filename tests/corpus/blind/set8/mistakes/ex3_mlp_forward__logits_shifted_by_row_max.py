# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: The output layer subtracts each row's maximum (the 'numerically stable softmax' trick applied to the logits), so every output row is shifted so that its maximum is 0; softmax/argmax are unchanged but the returned values are not.
# SHOULD-SAY: ex3: the output is shifted per row by its maximum, so it disagrees with the reference logits at every depth (softmax-equivalent, but not the MLP's output).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    logits = x @ last["w"] + last["b"]
    # keep the logits numerically stable
    return logits - jax.lax.stop_gradient(logits.max(axis=-1, keepdims=True))
