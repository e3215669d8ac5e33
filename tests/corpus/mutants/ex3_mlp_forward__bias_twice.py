"""Each layer adds its bias twice (once in a helper, once again at the call).

No known mistake id: the measured bias of one layer (2 times b) names it in words. Every case is wrong,
depth 1 included, so the checks that need some credit in ex3.depths are skipped. ex3.deep recomputes
the 12 layers with the measured bias (2 b): in numeric order they agree, so the order is judged right.
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "bias once", "max_failing": 1,
          "also": ["ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def _dense(layer, h):
    return h @ layer["w"] + layer["b"]


def mlp_forward(params, x):
    names = sorted(params, key=lambda n: int(n[len("layer"):]))
    for i, name in enumerate(names):
        x = _dense(params[name], x) + params[name]["b"]
        if i < len(names) - 1:
            x = jax.nn.relu(x)
    return x
