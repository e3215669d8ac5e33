# BLIND-SET: 21
# EXERCISE: ex3
# WHAT: the dense helper accepts both the lesson's and torch state_dict key names, but reads the bias with layer.get("bias", 0.0); the lesson's params call it "b", so no layer ever adds its bias.
# SHOULD-SAY: the layer order (numeric, layer10 after layer9), depth from params and ReLU placement are right, but no bias is added anywhere: the bias is looked up under the PyTorch name "bias" with a silent default of 0.0, while the params use "b". Read layer["b"] (and avoid silent defaults that hide a wrong key).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def _dense(layer, x):
    """One linear layer; takes the lesson's keys or torch state_dict-style ones."""
    w = layer["w"] if "w" in layer else layer["weight"].T
    b = layer.get("bias", 0.0)  # torch: Linear(bias=False) has no bias entry
    return x @ w + b


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(_dense(params[name], x))
    return _dense(params[names[-1]], x)
