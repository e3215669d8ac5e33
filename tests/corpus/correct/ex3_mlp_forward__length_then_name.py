"""Names sorted by (length, name): layer1..layer9 before layer10..layer12 without parsing numbers."""

import jax


def mlp_forward(params, x):
    names = sorted(params.keys(), key=lambda name: (len(name), name))
    *hidden, last = names
    for name in hidden:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params[last]["w"] + params[last]["b"]
