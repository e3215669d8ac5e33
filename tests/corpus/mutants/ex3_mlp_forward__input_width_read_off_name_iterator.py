"""The input width is checked against the first layer's weights, taken with next() from an iterator over the
names; the loop then runs over what is left of that iterator, so layer1 never runs (one layer alone raises
IndexError). The report reads the prefixes of the 12-layer case: without layer1 they agree.
"""


import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.first_layer_skipped", "hint": "layer1 never reached the output", "max_failing": 1, "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}



def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = iter(sorted(params, key=lambda name: int(name.removeprefix("layer"))))
    if x.shape[-1] != params[next(names)]["w"].shape[0]:
        raise ValueError("x does not fit the first layer")
    rest = list(names)
    for name in rest[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[rest[-1]]
    return x @ last["w"] + last["b"]
