"""mlp_forward standardises its input with the MNIST tutorial's constants, (x - 0.1307) / 0.3081, before the first layer.

Layer order and activations are right; every depth differs from the reference.
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.input_changed", "hint": "shifted (and scaled) before the first layer", "max_failing": 1, "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}



def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    x = (x - 0.1307) / 0.3081  # MNIST normalisation
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
