"""mlp_forward computes the right (B, n_out) logits, then 'turns them into rows' with
out.reshape(n_out, B).T: the shape is right, the values land in other positions.
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "in the wrong place", "max_failing": 2, "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    out = x @ last["w"] + last["b"]
    return out.reshape(out.shape[1], out.shape[0]).T
