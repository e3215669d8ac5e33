# BLIND-SET: 33
# EXERCISE: ex3
# WHAT: An input check transposes x whenever x.shape[0] equals the first layer's input width (meant to accept (features, batch) inputs); when the batch size happens to equal d0 the (B, d0) input is transposed, giving wrong outputs for that batch size only.
# SHOULD-SAY: The orientation check looks only at x.shape[0], so a legal batch with B == d0 is mistaken for a transposed input. The contract fixes x as (B, d0): remove the auto-transpose.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    d0 = params[names[0]]["w"].shape[0]
    if x.shape[0] == d0:
        # accept (features, batch) inputs too
        x = x.T
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
