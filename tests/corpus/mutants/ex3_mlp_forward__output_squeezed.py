"""mlp_forward squeezes its output, so a batch of one example comes back as shape (n_out,), not (1, n_out).
"""

import jax

EXPECT = {'check': 'ex3.depths', 'mistake': 'ex3.batch_of_one', 'hint': 'batch axis', 'max_failing': 1}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return (x @ last["w"] + last["b"]).squeeze()
