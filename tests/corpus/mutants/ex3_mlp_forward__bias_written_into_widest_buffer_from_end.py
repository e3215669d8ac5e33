"""Each layer's bias is written into a buffer as wide as the layer's input, filled from its end
(.at[-n_out:].set(b)), and the product's first n_out columns are taken: wherever a layer is narrower than its input
the units get other units' bias values, or none. Square layers come out right. The report measures one layer of 3
inputs and 2 outputs.
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "the bias must be padded like the weights", "max_failing": 1, "also": ["ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}



def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    def layer(x, w, b):
        wide = max(w.shape)
        bias = jnp.zeros(wide, b.dtype).at[-b.shape[0]:].set(b)
        return (x @ w) + bias[: w.shape[1]]

    for name in names[:-1]:
        x = jax.nn.relu(layer(x, params[name]["w"], params[name]["b"]))
    last = params[names[-1]]
    return layer(x, last["w"], last["b"])
