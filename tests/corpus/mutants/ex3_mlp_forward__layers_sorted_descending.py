"""mlp_forward sorts the layer names by number, largest first (reverse=True): layerN runs first. The report reads
which layer's weights the input met first, from the shapes of the crash on unequal widths.
"""


import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.layer_order", "hint": "sorting the names by the whole number", "max_failing": 2, "also": ["ex3.deep"]}



def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")), reverse=True)
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
