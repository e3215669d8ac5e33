"""mlp_forward tiles each bias to 128 rows, the lesson's batch, before adding it: any other batch size fails to
broadcast.
"""


import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.fixed_batch", "hint": "made for a fixed number of rows", "max_failing": 3, "also": ["ex3.deep", "ex3.jit"]}



def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + jax.numpy.tile(params[name]["b"], (128, 1)))
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
