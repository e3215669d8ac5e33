"""mlp_forward runs in bfloat16 ("mixed precision, as on TPUs") and returns the bfloat16 logits: a dtype the
docstring does not describe, with three significant digits."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "return arrays of the input's dtype", "max_failing": 2,
          "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    h = x.astype(jnp.bfloat16)
    for j, name in enumerate(names):
        h = h @ params[name]["w"].astype(jnp.bfloat16) + params[name]["b"].astype(jnp.bfloat16)
        if j < len(names) - 1:
            h = jax.nn.relu(h)
    return h
