"""Every layer adds a bias matrix built as b's column broadcast to (n_out, B) and reshaped to (B, n_out): b's values
are spread over the rows instead of every row getting the whole b. The report measures a bias that differs from
row to row.
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "jnp.tile(b, (B, 1))", "max_failing": 5, "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}



def _bias(b, rows):
    return jnp.broadcast_to(b[:, None], (b.shape[0], rows)).reshape(rows, b.shape[0])


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + _bias(params[name]["b"], x.shape[0]))
    last = params[names[-1]]
    return x @ last["w"] + _bias(last["b"], x.shape[0])
