# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: to plot activations later, each hidden layer's output is saved into the caller's params dict (params[name]["h"] = x). The logits are right, but params gains new leaves on every call: the input is modified, jax.grad/optax over params now see extra leaves, and under jit tracers are written into the caller's dict (leaked tracers).
# SHOULD-SAY: the 'params left unmodified' check fails (new 'h' entries in each hidden layer); jit/training may then error on the leaked tracers / mismatched trees. Value agreement itself passes. Fix: keep activations in a local list, never write into params.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
        params[name]["h"] = x  # keep the activation for the plots
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
