"""Each example's logits are centred (their mean subtracted), "to keep the softmax stable". The output of one
layer mapping x to (x, -x) is shifted by a value of each example's own: the measurement says so, and the hint
asks for the raw logits. Nothing names it as a known mistake.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "nothing applied after it", "max_failing": 2,
          "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    logits = x @ last["w"] + last["b"]
    return logits - jnp.mean(logits, axis=-1, keepdims=True)
