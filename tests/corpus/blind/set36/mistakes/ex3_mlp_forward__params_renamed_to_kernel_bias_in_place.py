# BLIND-SET: 36
# EXERCISE: ex3
# WHAT: mlp_forward renames each layer's w/b to Keras' kernel/bias inside the caller's params dict before using them (layer.pop + assignment): the logits are right, but params is modified (its layers no longer have 'w'/'b' after an eager call).
# SHOULD-SAY: mlp_forward mutates its params argument: it pops 'w'/'b' and stores 'kernel'/'bias' in the caller's dicts. Read params[name]['w'] and params[name]['b'] into local variables (call them kernel/bias if you like) and never assign into params.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names:  # Keras Dense naming: layer.kernel, layer.bias
        layer = params[name]
        if "w" in layer:
            layer["kernel"] = layer.pop("w")
            layer["bias"] = layer.pop("b")
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["kernel"] + params[name]["bias"])
    last = params[names[-1]]
    return x @ last["kernel"] + last["bias"]
