"""mlp_forward is jitted with donate_argnums=0, "to save memory": XLA may reuse the params' buffers for the output
where their shapes match (an output as wide as a weight matrix is square), and deletes the caller's arrays, so the
caller's next use of its params fails."""

import functools

import jax

EXPECT = {"check": "ex3.params_unchanged", "mistake": "", "hint": "leave donate_argnums out", "max_failing": 1}


@functools.partial(jax.jit, donate_argnums=0)
def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
