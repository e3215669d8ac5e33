"""Each layer is computed column-major, one column per example, (w.T @ x_cols).T, but x is turned into columns
with x.reshape(d_in, B) where x.T belongs: the reshape keeps memory order, so every column mixes several
examples' features (right only where B or d_in is 1).
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "mixes examples", "max_failing": 2,
          "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def _dense(layer, h):
    cols = h.reshape(h.shape[1], h.shape[0])  # one column per example
    return (layer["w"].T @ cols).T + layer["b"]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(_dense(params[name], x))
    return _dense(params[names[-1]], x)
