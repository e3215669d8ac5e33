# BLIND-SET: 33
# EXERCISE: ex3
# WHAT: After sorting numerically, a sanity check asserts the last name equals max(params); max compares strings, so from 10 layers on it is 'layer9', the assertion fails and the except falls back to a plain string sort (layer1, layer10, layer11, ..., layer2): wrong order and wrong output (or a shape error) at depth >= 10, correct up to 9.
# SHOULD-SAY: The sanity check is wrong, not the numeric sort: max() on names compares strings. The except hides this and silently uses string order. Remove the check and the fallback (or compare with max(params, key=<numeric key>)).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    try:
        names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
        # sanity check: the last layer should be the highest-numbered one
        assert names[-1] == max(params)
    except (ValueError, AssertionError):
        names = sorted(params)
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
