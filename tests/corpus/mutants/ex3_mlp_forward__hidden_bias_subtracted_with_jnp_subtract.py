"""The hidden layers compute relu(jnp.subtract(x @ w, b)): the bias is subtracted in every layer but the last
(the output layer adds it). One layer alone is right; a hidden layer's bias shows only through the ReLU.
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.bias_subtracted", "hint": "x @ w + b", "max_failing": 2,
          "also": ["ex3.deep"]}



def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(jnp.subtract(x @ params[name]["w"], params[name]["b"]))
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
