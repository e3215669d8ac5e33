"""mlp_forward takes its hidden layers as names[:-1] or names ("a loop needs something to loop over"): with one
layer, layer1 runs as a hidden layer and then again as the output layer, and the shapes do not fit.
"""


import jax

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "work for a network of one layer too", "max_failing": 1}



def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1] or names:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
