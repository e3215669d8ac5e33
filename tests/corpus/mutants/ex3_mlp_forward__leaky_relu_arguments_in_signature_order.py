"""The hidden activation is a small wrapper that calls jax.nn.leaky_relu(slope, h) with its arguments the other way
round: leaky_relu's first parameter is the input, so every hidden unit gives leaky_relu(0.0) = 0 whatever it
receives. The report samples the hidden activation: one value for every input.
"""


import jax

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "one value whatever it was given", "max_failing": 1}



def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    def act(h, slope=0.0):
        return jax.nn.leaky_relu(slope, h)

    for name in names[:-1]:
        x = act(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
