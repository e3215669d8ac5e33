# BLIND-SET: 28
# EXERCISE: ex3
# WHAT: A leftover debug print calls float() on a hidden activation; eagerly it works (and prints), but under jax.jit the activation is a tracer and float() raises a ConcretizationTypeError at every depth >= 2.
# SHOULD-SAY: float() (and .item()) need a concrete value, which a traced array does not have, so mlp_forward cannot be jitted. Remove the debug line, or use jax.debug.print for printing inside traced code.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
        print(name, "mean activation", float(x.mean()))
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
