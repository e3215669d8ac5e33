"""mlp_forward is decorated with functools.cache to skip recomputing a network it has seen: its arguments, a dict
of arrays and an array, cannot be hashed, and every call raises. The report names caching on unhashable params.
"""


import functools

import jax

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "functools.lru_cache", "max_failing": 5, "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}



@functools.cache
def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
