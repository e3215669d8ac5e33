"""mlp_forward takes a "fast path" when its input is a tracer (under jax.jit) that leaves the biases out; eagerly it
is right, so only the jitted outputs differ.
"""

import jax

EXPECT = {"check": "ex3.jit", "mistake": "ex3.jit_other_path", "hint": "Keep one code path", "max_failing": 1}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    traced = isinstance(x, jax.core.Tracer)
    for name in names[:-1]:
        z = x @ params[name]["w"] if traced else x @ params[name]["w"] + params[name]["b"]
        x = jax.nn.relu(z)
    last = params[names[-1]]
    return x @ last["w"] if traced else x @ last["w"] + last["b"]
