"""mlp_forward returns each row's argmax (the predicted class), not the logits.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.deep", "mistake": "", "hint": "nothing reduced", "max_failing": 2, "also": ["ex3.depths", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return jnp.argmax(x @ last["w"] + last["b"], axis=-1)  # the predicted class
