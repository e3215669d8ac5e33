"""mlp_forward indexes the hidden layers' weights and biases with two counters, and the bias counter starts one
ahead: each hidden layer adds the next layer's bias.
"""


import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.bias_other_layer", "hint": "each layer adds its own bias", "max_failing": 1}



def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for i, name in enumerate(names[:-1]):
        x = jax.nn.relu(x @ params[name]["w"] + params[names[i + 1]]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
