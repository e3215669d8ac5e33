"""mlp_forward's parameters written as (x, params): every call as the contract makes it fails."""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.arguments_swapped", "hint": "takes (params, x)", "max_failing": 2,
          "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(x, params):
    names = sorted(params, key=lambda n: int(n[len("layer"):]))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
