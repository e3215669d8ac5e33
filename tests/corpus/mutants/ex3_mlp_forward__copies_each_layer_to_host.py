"""mlp_forward starts copying each hidden layer's result to the host as soon as it is computed
(h.copy_to_host_async()), to overlap the transfer: fine eagerly, but a traced array has no such method, so the
forward pass fails under jax.jit.
"""

import jax

EXPECT = {"check": "ex3.jit", "mistake": "", "hint": "was called on a traced array", "max_failing": 1}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
        x.copy_to_host_async()
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
