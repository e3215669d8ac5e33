"""The layers are taken in the order the params dict lists them (params.items()), and each weight's input width is
asserted against the activations before the product. Every case listed in numeric order is right, at any depth; a
dict that lists its layers backwards stops at the assert, so no wrong answer is ever returned to compare.
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.dict_order", "hint": "in the order the params dict lists them",
          "max_failing": 2, "also": ["ex3.jit"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    layers = list(params.items())
    for i, (name, layer) in enumerate(layers):
        assert layer["w"].shape[0] == x.shape[-1], f"{name}: w {layer['w'].shape} does not fit x {x.shape}"
        x = x @ layer["w"] + layer["b"]
        if i < len(layers) - 1:
            x = jax.nn.relu(x)
    return x
