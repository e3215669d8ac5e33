"""mlp_forward runs the batch in two equal halves (jnp.split(x, 2)) and joins the results: a batch of odd size
raises. The report names the split into equal parts and the batch sizes the docstring allows.
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "jnp.array_split", "max_failing": 1}



def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    return jnp.concatenate([_forward(params, half) for half in jnp.split(x, 2)])


def _forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
