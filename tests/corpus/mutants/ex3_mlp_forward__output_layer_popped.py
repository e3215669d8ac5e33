"""Pops the output layer off the params dict to treat it separately.

ex3.jit is not judged (skipped): a second call on the same (now shorter) dict
treats the last hidden layer as the output, so repeated calls disagree because
of the mutation charged in ex3.params_unchanged.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.params_unchanged", "mistake": "params_mutated", "max_failing": 1, "hint": "changed the params", "also": ["ex3.jit"]}


def mlp_forward(params, x):
    last = max(params, key=lambda name: int(name[5:]))
    out = params.pop(last)
    for name in sorted(params, key=lambda name: int(name[5:])):
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ out["w"] + out["b"]
