"""The ReLU test on the layer's index is off by one (``if index > 0``): no ReLU after layer1, one on the output.

Every single measurement network passes (one layer has no ReLU; two layers get it on the output only), so
the prefixes of the 12-layer case tell where ReLU ran: with 2 layers after the output only, with 3 after
layer2 and the output. (ex3.output_linear judges an output ReLU on an otherwise right answer, so it passes
here.) The 12-layer check is not judged: its order cannot be judged while the values differ."""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.relu_placement", "hint": "i < len(names) - 1", "max_failing": 2,
          "also": ["ex3.deep"]}


def mlp_forward(params, x):
    order = sorted(params, key=lambda name: int(name[len("layer"):]))
    for index, name in enumerate(order):
        x = x @ params[name]["w"] + params[name]["b"]
        if index > 0:
            x = jax.nn.relu(x)
    return x
