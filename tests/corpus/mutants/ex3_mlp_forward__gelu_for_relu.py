"""GELU in place of ReLU: no known mistake id, so the measured activation curve names it in words.
ex3.deep recomputes the 12 layers with the measured GELU: in numeric order they agree, so the order is
judged right and the mistake is charged once.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "activation is GELU", "max_failing": 1}


def mlp_forward(params, x):
    names = sorted(params, key=lambda n: int(n[len("layer"):]))
    for i, name in enumerate(names):
        x = x @ params[name]["w"] + params[name]["b"]
        if i < len(names) - 1:
            x = jax.nn.gelu(x)
    return x
