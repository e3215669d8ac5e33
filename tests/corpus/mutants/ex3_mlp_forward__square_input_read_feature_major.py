"""mlp_forward accepts feature-major inputs (d0, B) too, turning x round with jnp.swapaxes whenever its first axis
has the first layer's width: a (B, d0) batch with B = d0 is turned round as well, and its outputs are those of
x.T.
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.input_transposed", "hint": "x.shape[0]", "max_failing": 1}



def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    if jnp.shape(x)[0] == jnp.shape(params[names[0]]["w"])[0]:  # feature-major (d0, B): examples on axis 1
        x = jnp.swapaxes(x, 0, 1)
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
