"""mlp_forward runs layer1 to layer4 whatever params holds ("the lesson's deeper model"): a KeyError below four
layers, the first four layers' answer above.
"""


import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.depth_not_from_params", "hint": "the depth must come from params", "max_failing": 5, "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}



def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = [f"layer{i}" for i in range(1, 5)]
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
