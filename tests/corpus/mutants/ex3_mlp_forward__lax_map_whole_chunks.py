"""mlp_forward runs the batch with jax.lax.map over chunks of 8 examples, cut with x[:B - B % 8].reshape(-1, 8, d)
when B is 8 or more: the last B % 8 examples are never run, so a batch of 20 returns 16 rows and one of 45 returns
40. The report measures that the rows returned are the first examples' right outputs and names the dropped piece.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.rows_dropped", "hint": "shorter piece", "max_failing": 1}

CHUNK = 8


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    if x.shape[0] < CHUNK:
        return _forward(params, x)
    whole = x[:x.shape[0] - x.shape[0] % CHUNK].reshape(-1, CHUNK, x.shape[1])
    out = jax.lax.map(lambda chunk: _forward(params, chunk), whole)
    return out.reshape(-1, out.shape[-1])


def _forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
