"""The logits are returned transposed, (dN, B), "classes first" as a plotting helper wanted them. One layer
mapping x to (x, -x) returns the right values in a (2, N) array: the hint says to return one row per example.
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "one row per example", "max_failing": 2,
          "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return (x @ last["w"] + last["b"]).T
